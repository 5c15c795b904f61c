//! `arbiter verify --all`: audit every session of the database (on all cores, with a progress
//! bar on a terminal), sum up by rule id, and list the sessions whose verdict or outcome
//! changed: against the verdicts of the previous audit, or under the rules version they were
//! recorded with.
//!
//! **Where previous verdicts are kept:** in a JSON file beside the database,
//! `PATH.verdicts.json` (`arbiter.db.verdicts.json`; `arbiter_verify::verdicts_path`, the
//! file `arbiter serve` keeps for audits through it too). Each audit replaces the file whole
//! unless `--no-save`; a missing or unreadable file means no previous verdicts (every session
//! is new), with a warning when it exists but does not read.

use super::open_reader;
use crate::error::CliError;
use crate::output;
use crate::progress::Progress;
use arbiter_verify::{AuditOptions, Context, Verdicts};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The options of `verify --all` that shape its output.
pub struct How {
    pub json: bool,
    pub junit: Option<PathBuf>,
    /// Replace the stored verdicts with this audit's.
    pub save: bool,
    pub strict: bool,
}

/// The stored verdicts (`arbiter_verify::load_verdicts`), with a warning on stderr when the
/// file is there but does not read.
fn load(path: &Path) -> Verdicts {
    arbiter_verify::load_verdicts(path).unwrap_or_else(|warning| {
        eprintln!("arbiter: warning: {warning}");
        Verdicts::new()
    })
}

pub fn verify_all(db: &Path, variant: &[String], how: How) -> Result<ExitCode, CliError> {
    let variants = super::variants(variant)?;
    // An audit writes nothing to the database (its verdicts go beside it).
    let journal = open_reader(db)?;
    let ctx = Context::new(&journal);
    let path = arbiter_verify::verdicts_path(db);
    // A directory where the verdicts go cannot be read or replaced: one sentence now, not a
    // warning that it does not read followed by the failed save.
    if how.save && path.is_dir() {
        return Err(CliError::input(format!(
            "`{}` is a directory, where `verify --all` keeps its verdicts: move it away, or give --no-save",
            arbiter_verify::shown(&path.display().to_string())
        )));
    }
    let previous = load(&path);
    let total = journal.sessions()?.len() as u64;
    let progress = Progress::new(total, "auditing");
    let options = AuditOptions { variants, strict: how.strict };
    let report = arbiter_verify::audit(&ctx, &options, &previous, &|one| {
        progress.message(&one.session);
        progress.advance(1);
    })?;
    progress.finish();
    if let Some(junit) = &how.junit {
        super::fixtures::write_report(junit, &arbiter_verify::audit_junit(&report))?;
    }
    if how.save {
        arbiter_verify::save_verdicts(&path, &report.verdicts(&previous))?;
    }
    super::print_report(&report, how.json)?;
    if !how.json && !how.save {
        output::print("(--no-save: the stored verdicts were kept as they were)\n")?;
    }
    Ok(super::exit(report.exit_code))
}
