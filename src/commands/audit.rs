//! `replay`, `verify`, `explain`, `diff`: the auditor's commands, over sessions or files.

use super::sessions::context;
use super::{close_reader, exit, print_report, sources_under, variants};
use crate::error::CliError;
use crate::output;
use arbiter_verify::{DiffOptions, Finding, FindingSink, VerifyError, VerifyOptions, VerifyReport};
use std::ffi::OsStr;
use std::path::Path;
use std::process::ExitCode;

pub fn replay(
    db: &Path,
    spec: &OsStr,
    to: Option<usize>,
    json: bool,
    variant: &[String],
) -> Result<ExitCode, CliError> {
    let variants = variants(variant)?;
    let (srcs, journal) = sources_under(db, &[spec], &variants)?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::replay(&ctx, &srcs[0], to.map(|n| n as u64), &variants)?;
    print_report(&report, json)?;
    close_reader(journal);
    Ok(ExitCode::SUCCESS)
}

/// The options of `verify` that shape its output.
pub struct VerifyHow {
    pub json: bool,
    pub derive: bool,
    pub max_findings: Option<u64>,
    pub strict: bool,
}

/// Prints a verify as it runs: the head, each finding the moment it is found, then (after
/// `verify_streaming` returns) the tail. Nothing of the report is held.
struct Printer {
    out: output::Buffered,
    json: bool,
    findings: u64,
    head_printed: bool,
    /// `--derive` in text: the report is printed as `#` comments before the completed log,
    /// so that what the command prints is itself a log (`verify x.arb --derive > done.arb`).
    commented: bool,
    /// Why printing failed, which the library only sees as "the sink failed".
    failed: Option<CliError>,
}

impl Printer {
    fn put(&mut self, result: Result<(), CliError>) -> Result<(), VerifyError> {
        result.map_err(|e| {
            self.failed = Some(e);
            VerifyError::new(arbiter_verify::ErrorKind::Io, "the report could not be written")
        })
    }
}

impl FindingSink for Printer {
    fn head(&mut self, report: &VerifyReport) -> Result<(), VerifyError> {
        self.head_printed = true;
        let text = if self.json {
            output::print_json(&report.json_head())
        } else {
            output::print(&comment_if(self.commented, &report.head_text()))
        };
        self.put(text)
    }

    fn finding(&mut self, finding: &Finding) -> Result<(), VerifyError> {
        let text = if self.json {
            let sep = if self.findings == 0 { "\n" } else { ",\n" };
            let one = serde_json::to_string(finding).unwrap_or_default();
            self.out.json(&format!("{sep}{one}"))
        } else {
            self.out.text(&comment_if(self.commented, &finding.to_string()))
        };
        self.findings += 1;
        self.put(text)
    }
}

pub fn verify(db: &Path, spec: &OsStr, variant: &[String], how: VerifyHow) -> Result<ExitCode, CliError> {
    // Final facts appear only in the JSON report; building them is skipped otherwise.
    let options = VerifyOptions {
        variants: variants(variant)?,
        derive: how.derive,
        skip_final_facts: !how.json,
        max_findings: how.max_findings,
        strict: how.strict,
    };
    let (srcs, journal) = sources_under(db, &[spec], &options.variants)?;
    let ctx = context(journal.as_ref());
    let mut printer = Printer {
        out: output::Buffered::new(),
        json: how.json,
        findings: 0,
        head_printed: false,
        commented: how.derive && !how.json,
        failed: None,
    };
    let result = arbiter_verify::verify_streaming(&ctx, &srcs[0], &options, &mut printer);
    if let Some(failed) = printer.failed.take() {
        return Err(failed);
    }
    let out = &mut printer.out;
    match result {
        Ok(report) => {
            if how.json {
                out.json(&format!("\n{}\n", report.json_tail()))?;
            } else if let (true, Some(log)) = (printer.commented, &report.completed) {
                let summary = arbiter_verify::VerifyReport { completed: None, ..report.clone() };
                out.text(&comment_if(true, &summary.tail_text()))?;
                out.text(&format!("# completed log:\n{log}"))?;
            } else {
                out.text(&report.tail_text())?;
            }
            out.flush()?;
            close_reader(journal);
            Ok(exit(report.exit_code))
        }
        Err(e) => {
            let e = CliError::from(e);
            if how.json && printer.head_printed {
                // Close the document the head opened, so a JSON reader still gets one.
                let fatal = serde_json::json!({ "error": e.message(), "kind": e.kind(), "exit_code": 2 });
                out.json(&format!("\n],\"fatal\":{fatal},\"exit_code\":2}}\n"))?;
                out.flush()?;
                return Err(e.in_json());
            }
            out.flush()?;
            Err(e)
        }
    }
}

pub fn explain(
    db: &Path,
    spec: &OsStr,
    index: usize,
    json: bool,
    variant: &[String],
) -> Result<ExitCode, CliError> {
    let variants = variants(variant)?;
    let (srcs, journal) = sources_under(db, &[spec], &variants)?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::explain(&ctx, &srcs[0], index as u64, &variants)?;
    print_report(&report, json)?;
    close_reader(journal);
    Ok(ExitCode::SUCCESS)
}

pub fn diff(
    db: &Path,
    a: &OsStr,
    b: &OsStr,
    context_len: usize,
    all: bool,
    json: bool,
    variant: &[String],
) -> Result<ExitCode, CliError> {
    let options = DiffOptions { context: context_len, all, variants: variants(variant)? };
    let (srcs, journal) = sources_under(db, &[a, b], &options.variants)?;
    let ctx = context(journal.as_ref());
    let report = arbiter_verify::diff(&ctx, &srcs[0], &srcs[1], &options)?;
    print_report(&report, json)?;
    close_reader(journal);
    Ok(exit(report.exit_code))
}

/// `text` with every line made a `#` comment when `comment` is set.
fn comment_if(comment: bool, text: &str) -> String {
    if !comment {
        return text.to_string();
    }
    text.lines().map(|l| if l.is_empty() { "#\n".to_string() } else { format!("# {l}\n") }).collect()
}
