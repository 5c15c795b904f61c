//! The file an audit's verdicts are kept in between two `verify --all` runs, beside the
//! database: `PATH.verdicts.json` (`arbiter.db.verdicts.json`), never inside it (the journal
//! owns that directory and its hash chains, and a verdict is a cache of a replay, not a
//! record of the table).
//!
//! One format for every caller: the command line on a database here and `arbiter serve` on
//! the database it holds read and write the same file, so an audit through a server compares
//! with the verdicts of an audit run here, and the other way round. Each save replaces the
//! file whole, through a temporary file in the same directory and a rename; a missing or
//! unreadable file means no previous verdicts (every session is new).

use crate::audit::Verdicts;
use crate::error::{ErrorKind, VerifyError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file's format version; a file of another version is not read.
const FORMAT: u32 = 1;

/// The stored verdicts, with the file format's version.
#[derive(Serialize, Deserialize)]
struct Stored {
    format: u32,
    verdicts: Verdicts,
}

/// The verdict file of the database at `db`: `arbiter.db` -> `arbiter.db.verdicts.json`.
/// (For a PostgreSQL database, in the current directory: `arbiter_journal::beside`.)
pub fn verdicts_path(db: &Path) -> PathBuf {
    arbiter_journal::beside(db, ".verdicts.json")
}

/// The verdicts kept at `path`: none when there is no file. `Err` carries the warning to
/// show when a file is there but is not one this version reads (every session then counts
/// as new).
pub fn load_verdicts(path: &Path) -> Result<Verdicts, String> {
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(Verdicts::new()) };
    match serde_json::from_str::<Stored>(&text) {
        Ok(stored) if stored.format == FORMAT => Ok(stored.verdicts),
        _ => Err(format!(
            "`{}` is not a verdict file this version reads; every session counts as new",
            crate::shown(&path.display().to_string())
        )),
    }
}

/// Replace the verdicts kept at `path` with `verdicts` (whole or not at all,
/// `write_report_file`).
pub fn save_verdicts(path: &Path, verdicts: &Verdicts) -> Result<(), VerifyError> {
    let stored = Stored { format: FORMAT, verdicts: verdicts.clone() };
    let text = serde_json::to_string(&stored)
        .map_err(|e| VerifyError::new(ErrorKind::Io, format!("could not write the verdicts: {e}")))?;
    crate::report_file::write_report_file(path, &format!("{text}\n"))
}
