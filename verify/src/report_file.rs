//! Writing a report file (a JUnit report, an audit's verdicts) so that a reader never finds
//! half of one.
//!
//! Over a regular file (or where none exists yet) it is written whole or not at all, through
//! a temporary file renamed over the target: a half-written JUnit file would be read by CI as
//! a different result. Anything else (`/dev/stdout`, a FIFO a CI collector reads, a symbolic
//! link someone placed on purpose) is written through, never replaced: renaming over it would
//! turn a device or link into a plain file.

use crate::error::{ErrorKind, VerifyError};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Write `text` to the report file at `path`.
pub fn write_report_file(path: &Path, text: &str) -> Result<(), VerifyError> {
    write_output_file(path, text, "report file")
}

/// Write `text` to the output file at `path` (`what` names it in a refusal: "report file",
/// "log file"), whole or not at all over a regular file, written through anything else.
/// A path in a database directory (or one of its subdirectories, or a link to a file there)
/// is refused: renamed over or written through, sled's files would be destroyed.
pub fn write_output_file(path: &Path, text: &str, what: &str) -> Result<(), VerifyError> {
    let shown = crate::shown(&path.display().to_string()).into_owned();
    let fail = |e: std::io::Error| VerifyError::new(ErrorKind::Io, format!("could not write `{shown}`: {e}"));
    if let Some(db) = in_database(path) {
        let db = crate::shown(&db.display().to_string()).into_owned();
        return Err(VerifyError::new(
            ErrorKind::Io,
            format!("`{shown}` is inside the database directory `{db}`: nothing is written there but the database"),
        ));
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            Err(VerifyError::new(ErrorKind::Io, format!("`{shown}` is a directory, not a {what}")))
        }
        Ok(meta) if !meta.file_type().is_file() => {
            let mut file = std::fs::OpenOptions::new().write(true).truncate(true).open(path).map_err(fail)?;
            file.write_all(text.as_bytes()).and_then(|()| file.flush()).map_err(fail)
        }
        _ => write_atomically(path, text).map_err(fail),
    }
}

/// The database directory `path` would be written in, if any: its directory, or the
/// directory of what it links to, or one of theirs above, holds a journal's files.
fn in_database(path: &Path) -> Option<std::path::PathBuf> {
    use arbiter_journal::layout::{
        HEADS_FILE, LEGACY_MARKER_FILE, SLED_CONF_COPY, SLED_CONF_FILE, SLED_DATA_FILE, WAL_FILE,
    };
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dirs = [
        std::fs::canonicalize(parent).ok(),
        std::fs::canonicalize(path).ok().and_then(|p| p.parent().map(Path::to_path_buf)),
    ];
    dirs.into_iter().flatten().find_map(|dir| {
        dir.ancestors()
            .find(|d| {
                [WAL_FILE, HEADS_FILE, SLED_CONF_COPY, LEGACY_MARKER_FILE].iter().any(|f| d.join(f).exists())
                    || (d.join(SLED_CONF_FILE).is_file() && d.join(SLED_DATA_FILE).is_file())
            })
            .map(Path::to_path_buf)
    })
}

/// Write through a temporary file in the same directory and a rename. The temporary name is
/// unique within the process too: a server may write two reports at once (the last rename
/// wins, and each is whole).
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file path"))?;
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
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
