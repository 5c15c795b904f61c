//! The marker file beside sled's own files: evidence of what the database held, kept outside
//! sled so that it survives what sled cannot see.
//!
//! sled recovers its log up to the first record whose checksum fails and silently drops the
//! rest (a torn write after a crash looks the same as bit rot). A database whose data file
//! was damaged therefore opens as an older, shorter one, or as an empty one. The marker
//! records that a journal exists here and how many sessions it has held, so `open` can say
//! "damaged" instead of "session not found". It is written after the data it describes is
//! durable, so a crash can leave it behind the database but never ahead of it.

use crate::layout::MARKER_FILE;
use std::io::Write;
use std::path::Path;

const HEADER: &str = "An arbiter journal (a sled 0.34 database). Open it with the arbiter command.\n";
const SESSIONS: &str = "sessions: ";

/// The number of sessions the marker records, `Some(0)` for a marker without a count, or
/// `None` when there is no marker (a new database, or one made before markers).
pub fn read(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join(MARKER_FILE)).ok()?;
    Some(text.lines().find_map(|l| l.strip_prefix(SESSIONS)?.trim().parse().ok()).unwrap_or(0))
}

/// Record that the database holds `sessions` sessions: written to a temporary file, synced
/// and renamed over the marker, so the marker is always whole.
pub fn write(dir: &Path, sessions: u64) -> std::io::Result<()> {
    let tmp = dir.join(format!("{MARKER_FILE}.tmp"));
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(format!("{HEADER}{SESSIONS}{sessions}\n").as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, dir.join(MARKER_FILE))
}
