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
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The file's format version; a file of another version is not read.
const FORMAT: u32 = 1;

/// The stored verdicts, with the file format's version.
#[derive(Serialize, Deserialize)]
struct Stored {
    format: u32,
    verdicts: Verdicts,
}

/// The verdict file of the database at `db`: `arbiter.db` -> `arbiter.db.verdicts.json`.
pub fn verdicts_path(db: &Path) -> PathBuf {
    // `arbiter.db/` names the same directory as `arbiter.db`: what is beside it stays beside.
    let mut name = db.components().as_path().as_os_str().to_os_string();
    name.push(".verdicts.json");
    PathBuf::from(name)
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

/// Replace the verdicts kept at `path` with `verdicts`.
pub fn save_verdicts(path: &Path, verdicts: &Verdicts) -> Result<(), VerifyError> {
    let stored = Stored { format: FORMAT, verdicts: verdicts.clone() };
    let shown = crate::shown(&path.display().to_string()).into_owned();
    let text = serde_json::to_string(&stored)
        .map_err(|e| VerifyError::new(ErrorKind::Io, format!("could not write the verdicts: {e}")))?;
    let fail = |e: std::io::Error| VerifyError::new(ErrorKind::Io, format!("could not write `{shown}`: {e}"));
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            Err(VerifyError::new(ErrorKind::Io, format!("`{shown}` is a directory, not a verdict file")))
        }
        // Anything but a plain file (a link, a device) is written in place, not renamed over.
        Ok(meta) if !meta.file_type().is_file() => {
            let mut file = std::fs::OpenOptions::new().write(true).truncate(true).open(path).map_err(fail)?;
            file.write_all(format!("{text}\n").as_bytes()).and_then(|()| file.flush()).map_err(fail)
        }
        _ => write_atomically(path, &format!("{text}\n")).map_err(fail),
    }
}

/// Write through a temporary file in the same directory and a rename. The temporary name is
/// unique within the process too: a server may save two audits at once (the last rename wins,
/// and each is whole).
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    static SAVES: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file path"))?;
    let n = SAVES.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.{}.{n}.tmp", name.to_string_lossy(), std::process::id()));
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
