//! An open sled store's state: sled and its trees, the write-ahead log, the record of
//! heads, and the locks that keep them consistent; and the checkpoint that makes
//! everything written durable. The operations are in the files beside this one.

use super::block;
use super::heads;
use super::layout;
use super::tail::{corrupt, storage};
use super::wal::Wal;
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::store::{Found, Head, Loss};
use sled::Tree;
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// What `flush` (and so every acknowledged append) guarantees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// An acknowledged append survives a power cut: it is in the write-ahead log, written
    /// and `fdatasync`ed, or in sled's data file, flushed by sled and then `fdatasync`ed.
    /// The default.
    #[default]
    Fsync,
    /// sled's flush alone (`sync_file_range` on Linux): survives a crash of the process, and
    /// usually of the machine, but the drive's cache and the file's length are not forced to
    /// disk, so a power cut may lose the last half second (sled fsyncs every 500 ms anyway).
    /// Every append goes through sled's flush; the write-ahead log is not used.
    SledFlush,
}

/// How a store was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    ReadWrite,
    ReadOnly,
}

/// What an open store holds on to: its mode, the directory's lock, and the scratch copy a
/// read-only open may read from (removed when dropped).
pub(crate) struct Opened {
    pub mode: Mode,
    pub _lock: File,
    pub _scratch: Option<tempfile::TempDir>,
}

/// A sled database directory, open.
pub(crate) struct SledStore {
    pub(super) db: sled::Db,
    /// The database directory as given.
    pub(super) path: PathBuf,
    pub(super) sessions: Tree,
    pub(super) heads: Tree,
    pub(super) events: Tree,
    pub(super) retractions: Tree,
    pub(super) snapshots: Tree,
    /// sled's data file, opened a second time only to fsync it (see `checkpoint`); `None`
    /// when read-only.
    pub(super) data_file: Option<File>,
    pub(super) durability: Durability,
    /// The write-ahead log durable single appends go to; `None` when read-only. Held from an
    /// in-place append's compare-and-swap to its log write, so the log's order is the order
    /// appends took effect, and by a checkpoint, so none slips in between sled's flush and
    /// the log being started afresh.
    pub(super) wal: Mutex<Option<Wal>>,
    /// The writer of the last block the last in-place append wrote, with its session id:
    /// rebuilding a writer from the stored block (walking and hashing every record in it)
    /// was most of an append's CPU time. Used only while the stored block is byte for byte
    /// what it wrote (see `write::append_in_place`).
    pub(super) kept_tail: Mutex<Option<(u64, block::Writer)>>,
    /// Set by a buffered append, cleared by a flush: while set, sled holds appends that are
    /// neither flushed nor logged, and a durable append must flush instead of logging.
    pub(super) unflushed: AtomicBool,
    /// Whether the write-ahead log holds only what sled holds too once flushed, so that a
    /// checkpoint may empty it: false from opening a log with entries until they are redone,
    /// so that a database that fails to open keeps its log (and the records in it).
    pub(super) redone: AtomicBool,
    /// What was acknowledged, and what this process found lost.
    pub(super) record: Mutex<Record>,
    /// How the directory was opened; holds its lock (and a read-only scratch copy) while open.
    pub(super) opened: Opened,
}

/// The journal's memory of heads: the record on disk, what changed since, which sessions
/// were compared with it, and the losses found.
pub(super) struct Record {
    pub file: heads::Writer,
    /// Heads written since the last checkpoint: the next one records them.
    pub dirty: BTreeMap<String, Head>,
    /// Sessions already compared with the record (or written) by this process.
    pub checked: HashSet<String>,
    /// Sessions sled gives back shorter than acknowledged, or not at all.
    pub losses: BTreeMap<String, Loss>,
}

impl SledStore {
    /// The directory, for messages.
    pub(super) fn shown(&self) -> String {
        self.path.display().to_string()
    }

    pub(super) fn lock_record(&self) -> MutexGuard<'_, Record> {
        self.record.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The write-ahead log, for a writer or a checkpoint. A poisoned lock is taken over: the
    /// log is only appended to whole entries and started afresh after a flush, so a thread
    /// that panicked while holding it left nothing half done that matters.
    pub(super) fn lock_wal(&self) -> MutexGuard<'_, Option<Wal>> {
        self.wal.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Refuse a write to a read-only store.
    pub(super) fn writable(&self) -> Result<(), JournalError> {
        match self.opened.mode {
            Mode::ReadWrite => Ok(()),
            Mode::ReadOnly => Err(JournalError::new(
                ErrorKind::ReadOnly,
                format!("database `{}` is open read-only", self.shown()),
            )),
        }
    }

    /// Remember a session's new head, to be recorded at the next checkpoint.
    pub(super) fn wrote(&self, name: &str, head: Head) {
        let mut record = self.lock_record();
        record.dirty.insert(name.to_string(), head);
        record.checked.insert(name.to_string());
    }

    /// Make everything written so far durable: sled flushed and its data file synced, the
    /// heads written since the last checkpoint recorded, the write-ahead log started afresh.
    ///
    /// sled's own flush writes its log with `sync_file_range`, which on Linux neither
    /// flushes the drive's write cache nor the file's metadata (its new length), so it
    /// survives a process crash but not necessarily a power cut; the `fdatasync` after it
    /// makes the write durable in the ordinary sense.
    pub(super) fn checkpoint(&self, wal: &mut Option<Wal>) -> Result<(), JournalError> {
        if self.opened.mode == Mode::ReadOnly {
            return Ok(());
        }
        let what = || format!("flushing database `{}`", self.shown());
        // Cleared first: a buffered append racing with this flush sets it again.
        self.unflushed.store(false, Ordering::SeqCst);
        let (generation, changes) = {
            let mut record = self.lock_record();
            let changes = std::mem::take(&mut record.dirty);
            (record.file.recorded.generation + 1, changes)
        };
        if !changes.is_empty() {
            // After every write this checkpoint covers, so that losing any of them loses it.
            self.db
                .insert(layout::GENERATION_KEY, &generation.to_be_bytes()[..])
                .map_err(|e| storage(&what(), e))?;
        }
        let flushed = self.db.flush().map_err(|e| storage(&what(), e)).and_then(|_| {
            match (&self.data_file, self.durability) {
                (Some(file), Durability::Fsync) => file
                    .sync_data()
                    .map_err(|e| JournalError::new(ErrorKind::Storage, format!("{}: {e}", what()))),
                _ => Ok(()),
            }
        });
        let mut record = self.lock_record();
        if let Err(e) = flushed {
            // Not durable: recorded by a later checkpoint, or never.
            for (name, head) in changes {
                record.dirty.entry(name).or_insert(head);
            }
            return Err(e);
        }
        if !changes.is_empty() {
            let list: Vec<(&str, Option<Head>)> =
                changes.iter().map(|(n, h)| (n.as_str(), Some(*h))).collect();
            // The records are durable; a record of heads that cannot be written lags (its
            // damage check weakens for these sessions), which is no reason to fail the write.
            if record.file.record(generation, &list).is_err() {
                for (name, head) in changes {
                    record.dirty.entry(name).or_insert(head);
                }
            }
        }
        drop(record);
        if let Some(wal) = wal.as_mut() {
            if self.redone.load(Ordering::SeqCst) {
                wal.clear()?;
            }
        }
        Ok(())
    }

    /// A session's entry in the `sessions` tree.
    pub(super) fn entry(&self, name: &str) -> Result<Option<Found>, JournalError> {
        let found = self.sessions.get(name).map_err(|e| storage(&format!("reading session `{name}`"), e))?;
        found.map(|value| decode_entry(name, &value)).transpose()
    }
}

impl Drop for SledStore {
    /// Write out what sled still buffers and start the write-ahead log afresh, so that its
    /// background writers are done and its file lock is released promptly for the next
    /// open, and the next open has nothing to redo. A failure here loses nothing: the log
    /// is started afresh only after sled's data is synced. A read-only store writes nothing.
    fn drop(&mut self) {
        if self.opened.mode == Mode::ReadWrite {
            let _ = self.checkpoint(&mut self.lock_wal());
            let _ = self.lock_record().file.sync();
        }
    }
}

pub(super) fn decode_entry(name: &str, value: &[u8]) -> Result<Found, JournalError> {
    match codec::decode::<(u64, SessionMeta)>(value) {
        Ok((id, meta)) => Ok(Found { id, meta }),
        Err(e) => Err(corrupt(name, &format!("its metadata does not decode ({e})"))),
    }
}
