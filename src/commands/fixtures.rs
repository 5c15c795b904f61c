//! `arbiter fixtures DIR`: run a suite, optionally write JUnit and report rule coverage.

use super::{exit, print_report};
use crate::error::CliError;
use arbiter_verify::{Context, FixtureOptions};
use std::io::Write;
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

/// Write a report file. Over a regular file (or where none exists yet) it is written whole
/// or not at all, through a temporary file renamed over the target: a half-written JUnit file
/// would be read by CI as a different result. Anything else (`/dev/stdout`, a FIFO a CI
/// collector reads, a symbolic link someone placed on purpose) is written through, never
/// replaced: renaming over it would turn a device or link into a plain file.
pub fn write_report(path: &Path, text: &str) -> Result<(), CliError> {
    let shown = arbiter_verify::shown(&path.display().to_string()).into_owned();
    let fail = |e: std::io::Error| CliError::input(format!("could not write `{shown}`: {e}")).with_kind("io");
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            Err(CliError::input(format!("`{shown}` is a directory, not a report file")).with_kind("io"))
        }
        Ok(meta) if !meta.file_type().is_file() => {
            let mut file = std::fs::OpenOptions::new().write(true).truncate(true).open(path).map_err(fail)?;
            file.write_all(text.as_bytes()).and_then(|()| file.flush()).map_err(fail)
        }
        _ => write_atomically(path, text).map_err(fail),
    }
}

/// Write through a temporary file in the same directory and a rename.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file path"))?;
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}
