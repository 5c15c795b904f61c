//! `arbiter verify --all`: audit every session of the database (on all cores, with a progress
//! bar on a terminal), sum up by rule id, and list the sessions whose verdict or outcome
//! changed: against the verdicts of the previous audit, or under the rules version they were
//! recorded with.
//!
//! **Where previous verdicts are kept:** in a JSON file beside the database,
//! `PATH.verdicts.json` (`arbiter.db.verdicts.json`), never inside it: the journal owns that
//! directory and its hash chains, and a verdict is a cache of a replay, not a record of the
//! table. Each audit replaces the file whole (through a temporary file and a rename) unless
//! `--no-save`; a missing or unreadable file means no previous verdicts (every session is
//! new), with a warning when it exists but does not read.

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

/// The verdict file of a database.
pub fn verdicts_path(db: &Path) -> PathBuf {
    super::beside(db, ".verdicts.json")
}

/// The stored verdicts, with the file format's version.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    format: u32,
    verdicts: Verdicts,
}

const FORMAT: u32 = 1;

fn load(path: &Path) -> Verdicts {
    let Ok(text) = std::fs::read_to_string(path) else { return Verdicts::new() };
    match serde_json::from_str::<Stored>(&text) {
        Ok(stored) if stored.format == FORMAT => stored.verdicts,
        _ => {
            eprintln!(
                "arbiter: warning: `{}` is not a verdict file this version reads; every session counts as new",
                arbiter_verify::shown(&path.display().to_string())
            );
            Verdicts::new()
        }
    }
}

pub fn verify_all(db: &Path, variant: &[String], how: How) -> Result<ExitCode, CliError> {
    let variants = super::variants(variant)?;
    // An audit writes nothing to the database (its verdicts go beside it).
    let journal = open_reader(db)?;
    let ctx = Context::new(&journal);
    let path = verdicts_path(db);
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
        let stored = Stored { format: FORMAT, verdicts: report.verdicts(&previous) };
        let text = serde_json::to_string(&stored)
            .map_err(|e| CliError::input(format!("could not write the verdicts: {e}")))?;
        super::fixtures::write_report(&path, &format!("{text}\n"))?;
    }
    super::print_report(&report, how.json)?;
    if !how.json && !how.save {
        output::print("(--no-save: the stored verdicts were kept as they were)\n")?;
    }
    Ok(super::exit(report.exit_code))
}
