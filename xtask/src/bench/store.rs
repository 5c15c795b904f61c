//! What every store under test does, so one measuring loop serves arbiter, SQLite and JSONL
//! alike and the three are timed on the same events in the same way.

use crate::Fallible;

/// An append-only event store holding many sessions.
pub trait Store<E> {
    /// Append one event and return only once it is durable (flushed to the disk).
    fn append_one(&mut self, session: &str, seq: u64, event: &E) -> Fallible;
    /// Append several events with a single flush at the end.
    fn append_batch(&mut self, session: &str, first_seq: u64, events: &[E]) -> Fallible;
    /// Read every event of a session in order, decoded, handing each to `f`. Returns how
    /// many were read.
    fn scan(&mut self, session: &str, f: &mut dyn FnMut(E) -> Fallible) -> Fallible<u64>;
    /// Bytes the store occupies on disk now (every file it owns), after making sure
    /// everything written is on the disk.
    fn disk_bytes(&mut self) -> Fallible<u64>;
    /// arbiter's journal, for the rows that run the verify crate on it (`None` for the
    /// baselines).
    fn journal(&self) -> Option<&arbiter_journal::Journal> {
        None
    }
}

/// Total size of the regular files under a directory, recursively.
pub fn dir_bytes(path: &std::path::Path) -> Fallible<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        if meta.is_dir() {
            total += dir_bytes(&entry.path())?;
        } else {
            total += meta.len();
        }
    }
    Ok(total)
}
