//! `replay`, `verify`, `explain`, `diff`: the auditor's commands, over sessions or files.

use super::sessions::context;
use super::{exit, print_report, sources, variants};
use crate::error::CliError;
use arbiter_verify::{DiffOptions, VerifyOptions};
use std::path::Path;
use std::process::ExitCode;

pub fn replay(
    db: &Path,
    spec: &str,
    to: Option<usize>,
    json: bool,
    variant: &[String],
) -> Result<ExitCode, CliError> {
    let variants = variants(variant)?;
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::replay(&ctx, &srcs[0], to.map(|n| n as u64), &variants)?;
    print_report(&report, json)?;
    Ok(ExitCode::SUCCESS)
}

pub fn verify(
    db: &Path,
    spec: &str,
    json: bool,
    variant: &[String],
    derive: bool,
) -> Result<ExitCode, CliError> {
    // Final facts appear only in the JSON report; building them is skipped otherwise.
    let options = VerifyOptions { variants: variants(variant)?, derive, skip_final_facts: !json };
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::verify(&ctx, &srcs[0], &options)?;
    print_report(&report, json)?;
    Ok(exit(report.exit_code))
}

pub fn explain(
    db: &Path,
    spec: &str,
    index: usize,
    json: bool,
    variant: &[String],
) -> Result<ExitCode, CliError> {
    let variants = variants(variant)?;
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::explain(&ctx, &srcs[0], index as u64, &variants)?;
    print_report(&report, json)?;
    Ok(ExitCode::SUCCESS)
}

pub fn diff(
    db: &Path,
    a: &str,
    b: &str,
    context_len: usize,
    all: bool,
    json: bool,
    variant: &[String],
) -> Result<ExitCode, CliError> {
    let options = DiffOptions { context: context_len, all, variants: variants(variant)? };
    let (srcs, journal) = sources(db, &[a, b])?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::diff(&ctx, &srcs[0], &srcs[1], &options)?;
    print_report(&report, json)?;
    Ok(exit(report.exit_code))
}
