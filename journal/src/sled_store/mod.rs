//! The sled backend: everything that makes sled an append-only, hash-chained log of
//! sessions, and everything sled-specific, is in this directory.
//!
//! Inside, imports run one way:
//! - `layout` (trees, keys, file names), `block` (how records are packed into values),
//!   `wal` (the write-ahead log file) and `heads` (the record of heads): formats and files;
//! - `open` (finding, locking and opening a directory, read-write or read-only);
//! - `write`, `read`, `snapshot`, `recover`: the operations;
//! - this file: `SledStore`, the `Store` the journal talks to, and the checkpoint.
//!
//! **Invariant:** an append that returned `Ok` is on disk: in sled's data file, flushed
//! and synced, or in the write-ahead log beside it, which opening redoes into sled
//! (`recover`) before anything else.
//!
//! **Invariant:** sled is never believed alone about what it holds: the record of heads
//! (`heads`) says what was acknowledged, and a session sled gives back shorter is refused
//! with the loss named until the user accepts it.

mod block;
mod heads;
pub mod layout;
mod open;
mod read;
mod recover;
mod snapshot;
pub mod tools;
mod wal;
mod write;

pub use block::{BLOCK_BYTES, BLOCK_RECORDS};
pub use open::Mode;

use crate::batch::Batch;
use crate::chain::Hash;
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::store::{Ack, Found, Head, HeadClaim, Loss, Scan, Store};
use crate::walk;
use sled::Tree;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use wal::Wal;

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

/// A sled database directory, open.
pub(crate) struct SledStore {
    db: sled::Db,
    /// The database directory as given.
    path: PathBuf,
    sessions: Tree,
    heads: Tree,
    events: Tree,
    retractions: Tree,
    snapshots: Tree,
    /// sled's data file, opened a second time only to fsync it (see `checkpoint`); `None`
    /// when read-only.
    data_file: Option<std::fs::File>,
    durability: Durability,
    /// The write-ahead log durable single appends go to; `None` when read-only. Held from an
    /// in-place append's compare-and-swap to its log write, so the log's order is the order
    /// appends took effect, and by a checkpoint, so none slips in between sled's flush and
    /// the log being started afresh.
    wal: Mutex<Option<Wal>>,
    /// The writer of the last block the last in-place append wrote, with its session id:
    /// rebuilding a writer from the stored block (walking and hashing every record in it)
    /// was most of an append's CPU time. Used only while the stored block is byte for byte
    /// what it wrote (see `write::append_in_place`).
    kept_tail: Mutex<Option<(u64, block::Writer)>>,
    /// Set by a buffered append, cleared by a flush: while set, sled holds appends that are
    /// neither flushed nor logged, and a durable append must flush instead of logging.
    unflushed: AtomicBool,
    /// Whether the write-ahead log holds only what sled holds too once flushed, so that a
    /// checkpoint may empty it: false from opening a log with entries until they are redone,
    /// so that a database that fails to open keeps its log (and the records in it).
    redone: AtomicBool,
    /// What was acknowledged, and what this process found lost.
    record: Mutex<Record>,
    /// How the directory was opened; holds its lock (and a read-only scratch copy) while open.
    opened: open::Opened,
}

/// The journal's memory of heads: the record on disk, what changed since, which sessions
/// were compared with it, and the losses found.
struct Record {
    file: heads::Writer,
    /// Heads written since the last checkpoint: the next one records them.
    dirty: BTreeMap<String, Head>,
    /// Sessions already compared with the record (or written) by this process.
    checked: HashSet<String>,
    /// Sessions sled gives back shorter than acknowledged, or not at all.
    losses: BTreeMap<String, Loss>,
}

impl SledStore {
    /// The directory, for messages.
    fn shown(&self) -> String {
        self.path.display().to_string()
    }

    fn lock_record(&self) -> MutexGuard<'_, Record> {
        self.record.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The write-ahead log, for a writer or a checkpoint. A poisoned lock is taken over: the
    /// log is only appended to whole entries and started afresh after a flush, so a thread
    /// that panicked while holding it left nothing half done that matters.
    fn lock_wal(&self) -> MutexGuard<'_, Option<Wal>> {
        self.wal.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Refuse a write to a read-only store.
    fn writable(&self) -> Result<(), JournalError> {
        match self.opened.mode {
            Mode::ReadWrite => Ok(()),
            Mode::ReadOnly => Err(JournalError::new(
                ErrorKind::ReadOnly,
                format!("database `{}` is open read-only", self.shown()),
            )),
        }
    }

    /// Remember a session's new head, to be recorded at the next checkpoint.
    fn wrote(&self, name: &str, head: Head) {
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
    fn checkpoint(&self, wal: &mut Option<Wal>) -> Result<(), JournalError> {
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
                .map_err(|e| JournalError::storage(&what(), e))?;
        }
        let flushed = self.db.flush().map_err(|e| JournalError::storage(&what(), e)).and_then(|_| {
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

    /// A session's head from its last block, without comparing it with the record.
    fn stored_claim(&self, name: &str, id: u64) -> Result<HeadClaim, JournalError> {
        match self.tail(name, id) {
            Ok((_, _, tail)) => Ok(HeadClaim::Known(tail.head())),
            Err(e) if e.kind() == ErrorKind::Corrupt => {
                let from = self.tail_first(name, id).unwrap_or(0);
                Ok(HeadClaim::Unreadable { from, what: e.message().to_string() })
            }
            Err(e) => Err(e),
        }
    }

    /// Compare a session's stored head with the record of heads, once per process; a
    /// session found shorter (or different) becomes a loss.
    fn compared(&self, name: &str, id: u64, head: Head) -> Result<HeadClaim, JournalError> {
        let recorded = {
            let record = self.lock_record();
            if let Some(loss) = record.losses.get(name) {
                return Ok(HeadClaim::Lost(loss.clone()));
            }
            if record.checked.contains(name) {
                return Ok(HeadClaim::Known(head));
            }
            record.file.recorded.heads.get(name).copied()
        };
        let holds = match recorded {
            None => true,
            Some(rec) if rec.len == head.len => rec.last == head.last,
            Some(rec) if rec.len < head.len => match self.hash_after(name, id, rec.len) {
                Ok(hash) => hash == rec.last,
                // Damage on the way: what reads it (or `check`) will name it.
                Err(e) if e.kind() == ErrorKind::Corrupt => return Ok(HeadClaim::Known(head)),
                Err(e) => return Err(e),
            },
            Some(_) => false,
        };
        let mut record = self.lock_record();
        if holds {
            record.checked.insert(name.to_string());
            return Ok(HeadClaim::Known(head));
        }
        let expected = recorded.map_or(0, |r| r.len);
        let loss = self.loss(name, expected, Some(head));
        record.losses.insert(name.to_string(), loss.clone());
        Ok(HeadClaim::Lost(loss))
    }

    /// The loss of session `name`, acknowledged at `expected` records, whose data file holds
    /// `holds` (`None`: the session is gone).
    fn loss(&self, name: &str, expected: u64, holds: Option<Head>) -> Loss {
        let db = self.shown();
        let decide = format!(
            "keep a copy of the directory (a backup may still hold the rest), then accept the loss with \
             `arbiter check {name} --accept-loss --db {db}` to go on from what is left"
        );
        let message = match holds {
            None => format!(
                "database `{db}` is damaged: session `{name}` should hold {expected} records, but its data \
                 file no longer has the session; {decide}"
            ),
            Some(head) if head.len < expected => format!(
                "database `{db}` is damaged: session `{name}` should hold {expected} records, but its data \
                 file holds {}; records {}..{expected} are lost; {decide}",
                head.len, head.len
            ),
            Some(head) => format!(
                "database `{db}` is damaged: session `{name}` holds {} records, but not the {expected} that were \
                 acknowledged (its chain differs there); {decide}",
                head.len
            ),
        };
        Loss {
            session: name.to_string(),
            expected,
            holds: holds.map_or(0, |h| h.len.min(expected)),
            vanished: holds.is_none(),
            message,
        }
    }

    /// The chain hash after the first `n` records (verified on the way).
    fn hash_after(&self, name: &str, id: u64, n: u64) -> Result<Hash, JournalError> {
        match n.checked_sub(1) {
            None => {
                let entry = self.entry(name)?.ok_or_else(|| read::corrupt(name, "it vanished"))?;
                crate::chain::genesis(name, &entry.meta)
            }
            Some(target) => walk::hash_after(name, &mut self.scan_from(name, id, target)?, n),
        }
    }

    /// A session's entry in the `sessions` tree.
    fn entry(&self, name: &str) -> Result<Option<Found>, JournalError> {
        let found = self
            .sessions
            .get(name)
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?;
        found.map(|value| decode_entry(name, &value)).transpose()
    }

    /// Compare every session with the record of heads: after a data file was found to have
    /// lost writes the record covers.
    fn compare_all(&self) -> Result<(), JournalError> {
        let recorded = self.lock_record().file.recorded.heads.clone();
        for (name, rec) in recorded {
            match self.entry(&name)? {
                None => {
                    let loss = self.loss(&name, rec.len, None);
                    self.lock_record().losses.insert(name, loss);
                }
                Some(found) => {
                    if let HeadClaim::Known(head) = self.stored_claim(&name, found.id)? {
                        self.compared(&name, found.id, head)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl Store for SledStore {
    fn names(&self) -> Result<Vec<String>, JournalError> {
        let mut out = Vec::new();
        for key in self.sessions.iter().keys() {
            let key = key.map_err(|e| JournalError::storage("listing sessions", e))?;
            out.push(String::from_utf8_lossy(&key).into_owned());
        }
        Ok(out)
    }

    fn sessions(&self) -> Result<Vec<(String, SessionMeta)>, JournalError> {
        let mut out = Vec::new();
        for item in self.sessions.iter() {
            let (key, value) = item.map_err(|e| JournalError::storage("listing sessions", e))?;
            let name = String::from_utf8_lossy(&key).into_owned();
            let entry = decode_entry(&name, &value)?;
            out.push((name, entry.meta));
        }
        // Sessions acknowledged and gone are not left out without a word.
        let vanished: Vec<Loss> = {
            let record = self.lock_record();
            let mut gone: Vec<Loss> = record.losses.values().filter(|l| l.vanished).cloned().collect();
            for (name, rec) in &record.file.recorded.heads {
                let listed = out.binary_search_by(|(n, _)| n.as_str().cmp(name)).is_ok();
                if !listed && !record.losses.contains_key(name) {
                    gone.push(self.loss(name, rec.len, None));
                }
            }
            gone
        };
        match vanished.first() {
            None => Ok(out),
            Some(loss) => {
                let mut record = self.lock_record();
                for l in &vanished {
                    record.losses.entry(l.session.clone()).or_insert_with(|| l.clone());
                }
                let more = match vanished.len() {
                    1 => String::new(),
                    n => format!(" ({} more sessions are gone too)", n - 1),
                };
                Err(JournalError::new(ErrorKind::Lost, format!("{}{more}", loss.message))
                    .in_session(&loss.session))
            }
        }
    }

    fn find(&self, name: &str) -> Result<Option<Found>, JournalError> {
        match self.entry(name)? {
            Some(found) => Ok(Some(found)),
            None => {
                let mut record = self.lock_record();
                let expected = match record.losses.get(name) {
                    Some(loss) => Some(loss.expected),
                    None => record.file.recorded.heads.get(name).map(|h| h.len),
                };
                match expected {
                    None => Ok(None),
                    Some(expected) => {
                        let loss = self.loss(name, expected, None);
                        let error = JournalError::new(ErrorKind::Lost, loss.message.clone()).in_session(name);
                        record.losses.insert(name.to_string(), loss);
                        Err(error)
                    }
                }
            }
        }
    }

    fn head(&self, name: &str, id: u64) -> Result<HeadClaim, JournalError> {
        match self.stored_claim(name, id)? {
            HeadClaim::Known(head) => self.compared(name, id, head),
            other => Ok(other),
        }
    }

    fn create(
        &self,
        name: &str,
        meta: &SessionMeta,
        genesis: &Hash,
        batch: &Batch,
    ) -> Result<Head, JournalError> {
        self.writable()?;
        if self.lock_record().losses.contains_key(name) {
            return Err(self.find(name).err().unwrap_or_else(|| lost_error(name)));
        }
        let head = self.create_session(name, meta, genesis, batch)?;
        self.wrote(name, head);
        self.checkpoint(&mut self.lock_wal())?;
        Ok(head)
    }

    fn append(
        &self,
        name: &str,
        id: u64,
        expected: u64,
        batch: &Batch,
        ack: Ack,
    ) -> Result<Head, JournalError> {
        self.writable()?;
        if let HeadClaim::Lost(loss) = self.head(name, id)? {
            return Err(JournalError::new(ErrorKind::Lost, loss.message).in_session(name));
        }
        self.append_records(name, id, expected, batch, ack)
    }

    fn scan(&self, name: &str, id: u64, from: u64) -> Result<Box<dyn Scan>, JournalError> {
        Ok(Box::new(self.scan_from(name, id, from)?))
    }

    fn retractions(&self, name: &str, id: u64) -> Result<Vec<(u64, u64)>, JournalError> {
        self.retractions_of(name, id)
    }

    fn put_snapshot(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
        bytes: &[u8],
    ) -> Result<(), JournalError> {
        self.writable()?;
        self.store_snapshot(name, id, seq, rules_version, bytes)
    }

    fn snapshot_before(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
    ) -> Result<Option<(u64, Vec<u8>)>, JournalError> {
        self.find_snapshot(name, id, seq, rules_version)
    }

    fn discard_snapshots(&self, name: &str, id: u64, keep_rules_version: u32) -> Result<usize, JournalError> {
        self.writable()?;
        self.remove_snapshots(name, id, keep_rules_version)
    }

    fn flush(&self) -> Result<(), JournalError> {
        self.checkpoint(&mut self.lock_wal())
    }

    fn losses(&self) -> Result<Vec<Loss>, JournalError> {
        // Sessions not used yet are compared now.
        let names = self.names()?;
        for name in &names {
            if let Some(found) = self.entry(name)? {
                self.head(name, found.id)?;
            }
        }
        let _ = self.sessions();
        Ok(self.lock_record().losses.values().cloned().collect())
    }

    fn accept_loss(&self, name: &str) -> Result<Option<Loss>, JournalError> {
        self.writable()?;
        // Find the loss (comparing the session now if it was not used yet).
        let found = match self.find(name) {
            Ok(found) => found,
            Err(e) if e.kind() == ErrorKind::Lost => None,
            Err(e) => return Err(e),
        };
        if let Some(found) = &found {
            self.head(name, found.id)?;
        }
        let Some(loss) = self.lock_record().losses.get(name).cloned() else { return Ok(None) };
        let now = match &found {
            None => None,
            Some(found) => match self.stored_claim(name, found.id)? {
                HeadClaim::Known(head) => Some(head),
                other => {
                    return Err(JournalError::new(
                        ErrorKind::Corrupt,
                        format!(
                            "session `{name}` cannot be read to its end ({other:?}); it cannot be continued"
                        ),
                    ))
                }
            },
        };
        // Recorded at once, as a checkpoint of its own.
        let mut wal = self.lock_wal();
        self.checkpoint(&mut wal)?;
        let generation = self.lock_record().file.recorded.generation + 1;
        self.db
            .insert(layout::GENERATION_KEY, &generation.to_be_bytes()[..])
            .and_then(|_| self.db.flush())
            .map_err(|e| JournalError::storage("recording an accepted loss", e))?;
        let mut record = self.lock_record();
        record.file.record(generation, &[(name, now)])?;
        record.losses.remove(name);
        record.checked.insert(name.to_string());
        Ok(Some(loss))
    }

    fn remove_if_empty(self: Box<Self>) -> Result<bool, JournalError> {
        let empty = self.sessions.is_empty() && self.lock_record().file.recorded.heads.is_empty();
        if !empty || self.opened.mode == Mode::ReadOnly {
            return Ok(false);
        }
        // The directory's lock and sled's are held until this store is dropped, so no other
        // writer can store a session in it between the look above and the removal.
        let path = self.path.clone();
        let removed = std::fs::remove_dir_all(&path);
        drop(self);
        removed.map(|()| true).map_err(|e| {
            JournalError::new(ErrorKind::Storage, format!("cannot remove database `{}`: {e}", path.display()))
        })
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
        }
    }
}

fn decode_entry(name: &str, value: &[u8]) -> Result<Found, JournalError> {
    match codec::decode::<(u64, SessionMeta)>(value) {
        Ok((id, meta)) => Ok(Found { id, meta }),
        Err(e) => Err(read::corrupt(name, &format!("its metadata does not decode ({e})"))),
    }
}

fn lost_error(name: &str) -> JournalError {
    JournalError::new(
        ErrorKind::Lost,
        format!("session `{name}` lost records its data file had acknowledged"),
    )
    .in_session(name)
}
