//! The sled backend: everything that makes sled an append-only, hash-chained log of
//! sessions, and everything sled-specific, is in this directory.
//!
//! Inside, imports run one way (tests/tidy.rs holds them to it):
//! - `layout` (trees, keys, file names); then the formats and files: `block` (how records
//!   are packed into values), `wal_mark` (the write-ahead log's mark file), `heads` (the
//!   record of heads); then `wal` (the write-ahead log) and `tail` (a last block as a head);
//!   then `tools` (the layout for tamper tests);
//! - `state`: `SledStore`'s fields, its locks and the checkpoint;
//! - the operations, each an `impl SledStore` of its own: `open` (finding, locking and
//!   opening a directory, read-write or read-only), `read`, `write`, `snapshot`, `recover`
//!   (redoing the write-ahead log) and `compare` (what sled holds against the record);
//! - this file: the `Store` the journal talks to.
//!
//! **Invariant:** an append that returned `Ok` is on disk: in sled's data file, flushed
//! and synced, or in the write-ahead log beside it, which opening redoes into sled
//! (`recover`) before anything else.
//!
//! **Invariant:** sled is never believed alone about what it holds: the record of heads
//! (`heads`) says what was acknowledged, and a session sled gives back shorter is refused
//! with the loss named until the user accepts it.

mod block;
mod compare;
mod heads;
pub mod layout;
mod open;
mod read;
mod recover;
mod sealed;
mod snapshot;
mod state;
mod tail;
pub mod tools;
mod wal;
mod wal_mark;
mod write;

pub use block::{BLOCK_BYTES, BLOCK_RECORDS};
pub(crate) use state::SledStore;
pub use state::{Durability, Mode};

use crate::batch::Batch;
use crate::chain::Hash;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::store::{Ack, Found, Head, HeadClaim, Loss, Scan, Store};
use state::decode_entry;
use tail::storage;

impl Store for SledStore {
    fn names(&self) -> Result<Vec<String>, JournalError> {
        let mut out = Vec::new();
        for key in self.sessions.iter().keys() {
            let key = key.map_err(|e| storage("listing sessions", e))?;
            out.push(String::from_utf8_lossy(&key).into_owned());
        }
        Ok(out)
    }

    fn sessions(&self) -> Result<Vec<(String, SessionMeta)>, JournalError> {
        let mut out = Vec::new();
        for item in self.sessions.iter() {
            let (key, value) = item.map_err(|e| storage("listing sessions", e))?;
            let name = String::from_utf8_lossy(&key).into_owned();
            let entry = decode_entry(&name, &value)?;
            out.push((name, entry.meta));
        }
        // Sessions acknowledged and gone are not left out without a word.
        let vanished: Vec<Loss> = {
            let mut guard = self.lock_record();
            let record = &mut *guard;
            let mut gone: Vec<Loss> = record.losses.values().filter(|l| l.vanished).cloned().collect();
            for (name, rec) in record.file.recorded.heads() {
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
                    None => record.file.recorded.get(name).map(|h| h.len),
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
            .map_err(|e| storage("recording an accepted loss", e))?;
        let mut record = self.lock_record();
        record.file.record(generation, &[(name, now)])?;
        record.losses.remove(name);
        record.checked.insert(name.to_string());
        Ok(Some(loss))
    }

    fn close_at_exit(self: Box<Self>) {
        // Closing a read-only store opened in place writes nothing (see `Drop`), yet sled's
        // own close frees its whole page table and `fsync`s its data file: about a tenth
        // of the instructions of `arbiter replay SESSION --to N`, and a device round trip.
        // The process is about to end, which frees the memory and releases both locks
        // (they are held through open descriptors). A scratch copy must be removed, and a
        // store that writes has a checkpoint to make: those close as usual.
        if self.opened.mode == Mode::ReadOnly && self.opened._scratch.is_none() {
            std::mem::forget(self);
        }
    }

    fn remove_if_empty(self: Box<Self>) -> Result<bool, JournalError> {
        let empty = self.sessions.is_empty() && self.lock_record().file.recorded.heads().is_empty();
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

fn lost_error(name: &str) -> JournalError {
    JournalError::new(
        ErrorKind::Lost,
        format!("session `{name}` lost records its data file had acknowledged"),
    )
    .in_session(name)
}
