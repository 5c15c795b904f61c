//! `arbiter fixtures DIR`: run a suite, optionally write JUnit and report rule coverage.

use super::exit;
use crate::error::CliError;
use arbiter_verify::{Context, FixtureOptions};
use std::path::Path;
use std::process::ExitCode;

pub fn fixtures(
    dir: &Path,
    junit: Option<&Path>,
    coverage: bool,
    require_full: bool,
) -> Result<ExitCode, CliError> {
    let options = FixtureOptions { coverage: coverage || require_full, require_full_coverage: require_full };
    let report = arbiter_verify::run_fixtures(&Context::files(), dir, &options)?;
    if let Some(path) = junit {
        write_atomically(path, &report.junit())?;
    }
    print!("{report}");
    Ok(exit(report.exit_code))
}

/// Write a report file whole or not at all: a half-written JUnit file would be read by CI as
/// a different result.
fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| CliError::input(format!("`{}` is not a file path", path.display())))?;
    let tmp = dir.join(format!(".{}.tmp", name.to_string_lossy()));
    let fail = |e: std::io::Error| CliError::input(format!("could not write `{}`: {e}", path.display()));
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}
