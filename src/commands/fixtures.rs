//! `arbiter fixtures DIR`: run a suite, optionally write JUnit and report rule coverage.

use super::{exit, print_report};
use crate::error::CliError;
use arbiter_verify::{Context, FixtureOptions};
use std::path::Path;
use std::process::ExitCode;

pub fn fixtures(
    dir: &Path,
    junit: Option<&Path>,
    coverage: bool,
    require_full: bool,
    json: bool,
) -> Result<ExitCode, CliError> {
    let options = FixtureOptions { coverage: coverage || require_full, require_full_coverage: require_full };
    let progress = crate::progress::Progress::new(0, "fixtures");
    let report = arbiter_verify::run_fixtures_with(&Context::files(), dir, &options, &mut |done, total| {
        progress.at(done as u64, total as u64)
    })?;
    progress.finish();
    if let Some(path) = junit {
        write_report(path, &report.junit())?;
    }
    print_report(&report, json)?;
    Ok(exit(report.exit_code))
}

/// Write a report file whole or not at all (`arbiter_verify::write_report_file`).
pub fn write_report(path: &Path, text: &str) -> Result<(), CliError> {
    Ok(arbiter_verify::write_report_file(path, text)?)
}
