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

/// The largest verdict file read: a session's verdict is a few hundred bytes, so this is
/// millions of sessions; anything larger is not a file this version wrote.
const MAX_BYTES: u64 = 1 << 30;

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
    let not_ours = || {
        format!(
            "`{}` is not a verdict file this version reads; every session counts as new",
            crate::shown(&path.display().to_string())
        )
    };
    // Only a regular file of a verdict file's size is read: a FIFO would hang the audit and a
    // device or a huge file would fill memory, where a verdict file is only a cache.
    match std::fs::metadata(path) {
        Err(_) => return Ok(Verdicts::new()),
        Ok(m) if !m.is_file() || m.len() > MAX_BYTES => return Err(not_ours()),
        Ok(_) => {}
    }
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(Verdicts::new()) };
    match serde_json::from_str::<Stored>(&text) {
        Ok(stored) if stored.format == FORMAT => Ok(stored.verdicts),
        _ => Err(not_ours()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_is_read_as_verdicts() {
        let dir = tempfile::tempdir().expect("a directory");
        assert!(load_verdicts(&dir.path().join("none.json")).is_ok_and(|v| v.is_empty()), "no file: none");
        // A directory, and a FIFO (which would block a reader forever), are refused at once.
        assert!(load_verdicts(dir.path()).is_err());
        let fifo = dir.path().join("fifo");
        if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
            assert!(load_verdicts(&fifo).unwrap_err().contains("is not a verdict file"));
        }
        let saved = dir.path().join("v.json");
        save_verdicts(&saved, &Verdicts::new()).expect("saved");
        assert!(load_verdicts(&saved).is_ok());
    }
}
