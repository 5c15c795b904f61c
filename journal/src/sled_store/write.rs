//! Writing: creating sessions and appending records, in place or in a transaction.
//!
//! Every session or record write happens whole or not at all. A write that touches several
//! values (creating a session, starting a block, indexing a retraction) is one sled
//! transaction that checks the session's head inside it. An append that fits in the
//! session's last block changes that one value, whose header is the head (see `block`), by
//! compare-and-swap against the value it read: a sled transaction costs two log writes where
//! a single-key write costs one. Either way, two writers racing for the same sequence
//! number cannot both succeed and neither overwrites the other.
//!
//! Durability is the caller's choice: an `Ack::Durable` append returns only once durable
//! (in the write-ahead log, or flushed and synced), an `Ack::Buffered` one leaves that to a
//! later checkpoint.

use super::block;
use super::layout::{self, seq_key};
use super::state::{Durability, SledStore};
use super::tail::{corrupt, head_of, storage, tail_first_of, Tail};
use super::wal::CHECKPOINT_BYTES;
use crate::batch::Batch;
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::store::{conflict, exists, Ack, Head};
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::Transactional;
use std::sync::atomic::Ordering;

type TxResult<T> = Result<T, ConflictableTransactionError<JournalError>>;

fn abort<T>(e: JournalError) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(e))
}

impl SledStore {
    /// Create a session holding `batch` in one transaction: on any error no trace of it
    /// remains. Durable once the caller's checkpoint returns.
    pub(super) fn create_session(
        &self,
        name: &str,
        meta: &SessionMeta,
        genesis: &Hash,
        batch: &Batch,
    ) -> Result<Head, JournalError> {
        let what = format!("creating session `{name}`");
        let id = self.db.generate_id().map_err(|e| storage(&what, e))?;
        let entry = codec::encode(&(id, meta)).map_err(|e| {
            JournalError::new(
                ErrorKind::Encode,
                format!("cannot encode the metadata of session `{name}`: {e}"),
            )
        })?;
        let trees = (&self.sessions, &self.heads, &self.events, &self.retractions);
        let tail = trees
            .transaction(|(sessions, heads, events, retractions)| {
                if sessions.get(name)?.is_some() {
                    return abort(exists(name));
                }
                if heads.get(id.to_be_bytes())?.is_some() {
                    return abort(corrupt(name, &format!("session id {id} is already in use")));
                }
                sessions.insert(name.as_bytes(), entry.as_slice())?;
                let empty = Tail { len: 0, first: 0, last: *genesis };
                let tail = write_records(events, retractions, name, id, empty, None, batch)?;
                heads.insert(&id.to_be_bytes(), &layout::tail_pointer(tail.first)[..])?;
                Ok(tail)
            })
            .map_err(|e| tx_error(&what, e))?;
        Ok(tail.head())
    }

    /// Append `batch` at `expected_next`, all or nothing; returns the new head.
    ///
    /// Under `Durability::Fsync` (the default), a durable append that fits in the session's
    /// last block is acknowledged once it is in the write-ahead log (one write, one
    /// `fdatasync`; see `wal`); any other (a retraction, a batch, one that starts a block)
    /// is one sled transaction and a checkpoint. A buffered append is written and left for a
    /// later flush.
    pub(super) fn append_records(
        &self,
        name: &str,
        id: u64,
        expected_next: u64,
        batch: &Batch,
        ack: Ack,
    ) -> Result<Head, JournalError> {
        if ack == Ack::Buffered {
            self.unflushed.store(true, Ordering::SeqCst);
            let tail = self.write(name, id, expected_next, batch)?;
            self.wrote(name, tail.head());
            return Ok(tail.head());
        }
        // Appends written without a flush are in sled's memory only and not in the log: a
        // durable append after them must make them durable too, which only a flush does.
        if self.durability == Durability::Fsync && !self.unflushed.load(Ordering::SeqCst) {
            let mut wal = self.lock_wal();
            if let Some(log) = wal.as_mut() {
                if let Some(tail) = self.append_in_place(name, id, expected_next, batch)? {
                    let logged = log.append(name, expected_next, &tail.last, batch.records());
                    self.wrote(name, tail.head());
                    // A log that could not be written, or has grown enough, is checkpointed:
                    // sled flushed and synced (which makes this append durable as well), then
                    // the log started afresh.
                    if logged.is_err() || log.len() >= CHECKPOINT_BYTES {
                        self.checkpoint(&mut wal)?;
                    }
                    return Ok(tail.head());
                }
            }
        }
        let tail = self.write(name, id, expected_next, batch)?;
        self.wrote(name, tail.head());
        self.checkpoint(&mut self.lock_wal())?;
        Ok(tail.head())
    }

    /// Write encoded records: in place when they fit in the last block, else in one
    /// transaction. Returns the new tail. Durable only once flushed.
    pub(super) fn write(
        &self,
        name: &str,
        id: u64,
        expected_next: u64,
        batch: &Batch,
    ) -> Result<Tail, JournalError> {
        if let Some(tail) = self.append_in_place(name, id, expected_next, batch)? {
            return Ok(tail);
        }
        let what = format!("appending to session `{name}`");
        (&self.heads, &self.events, &self.retractions)
            .transaction(|(heads, events, retractions)| {
                let tail_first = match tail_first_of(name, heads.get(id.to_be_bytes())?.as_deref()) {
                    Ok(first) => first,
                    Err(e) => return abort(e),
                };
                let stored = events.get(seq_key(id, tail_first))?;
                let tail = match head_of(name, tail_first, stored.as_deref()) {
                    Ok(tail) if tail.len == expected_next => tail,
                    Ok(tail) => return abort(conflict(name, tail.len, expected_next)),
                    Err(e) => return abort(e),
                };
                let tail = write_records(events, retractions, name, id, tail, stored.as_deref(), batch)?;
                if tail.first != tail_first {
                    heads.insert(&id.to_be_bytes(), &layout::tail_pointer(tail.first)[..])?;
                }
                Ok(tail)
            })
            .map_err(|e| tx_error(&what, e))
    }

    /// The common append, without a transaction (and in sled's memory until flushed):
    /// records that all fit in the session's last block, none a retraction (the index is
    /// another value), fewer than a batch (a batch compresses what it writes, see `block`).
    /// The block is rewritten by compare-and-swap against the value read, so a writer that
    /// got in between makes this one a conflict, never a lost update. `None` when the append
    /// is not of this kind (or the block fills up on the way), and nothing was written: the
    /// caller runs the transaction instead. Returns the new tail.
    fn append_in_place(
        &self,
        name: &str,
        id: u64,
        expected_next: u64,
        batch: &Batch,
    ) -> Result<Option<Tail>, JournalError> {
        if batch.is_empty() || batch.len() >= block::COMPRESS_BATCH || !batch.retractions.is_empty() {
            return Ok(None);
        }
        let what = || format!("appending to session `{name}`");
        let (key, stored, tail) = self.tail(name, id)?;
        if tail.len != expected_next {
            return Err(conflict(name, tail.len, expected_next));
        }
        let kept = self.kept_tail.lock().ok().and_then(|mut kept| kept.take());
        let kept = kept.filter(|(kept_id, writer)| *kept_id == id && writer.is_stored_as(&stored));
        let mut writer = match kept {
            Some((_, writer)) => writer,
            None => match resume_tail(name, &tail, &stored)? {
                Some(writer) => writer,
                None => return Ok(None),
            },
        };
        let mut last = tail.last;
        for (seq, record) in (tail.len..).zip(batch.records()) {
            if writer.is_full() {
                return Ok(None);
            }
            last = chain::link(&last, seq, record);
            writer.push(&last, record);
        }
        // A block this append fills is sealed: stored compressed, never continued.
        let sealed = writer.is_full();
        let (bytes, keep) =
            if sealed { (writer.into_stored(true), None) } else { (writer.plain_bytes(), Some(writer)) };
        let swapped = self
            .events
            .compare_and_swap(key, Some(&stored[..]), Some(bytes))
            .map_err(|e| storage(&what(), e))?;
        match swapped {
            Ok(()) => {
                if let (Some(writer), Ok(mut kept)) = (keep, self.kept_tail.lock()) {
                    *kept = Some((id, writer));
                }
                Ok(Some(Tail { len: tail.len + batch.len() as u64, first: tail.first, last }))
            }
            Err(_) => {
                let now = self.tail(name, id).map(|(_, _, tail)| tail.len).unwrap_or(tail.len);
                Err(conflict(name, now, expected_next))
            }
        }
    }
}

fn tx_error(what: &str, e: TransactionError<JournalError>) -> JournalError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => storage(what, e),
    }
}

/// A writer continuing the last block, `None` when it is full. Only ever add after what
/// the header accounts for: a block whose body disagrees with its header was changed behind
/// the journal's back, and appending would bury the damage.
fn resume_tail(name: &str, tail: &Tail, stored: &[u8]) -> Result<Option<block::Writer>, JournalError> {
    let resumed = block::plain(stored).ok().and_then(|plain| block::Writer::resume(&plain, tail.first));
    match resumed {
        Some(writer) if writer.is_full() => Ok(None),
        Some(writer) => Ok(Some(writer)),
        None => Err(corrupt(
            name,
            &format!("its last block (from record {}) does not match its header; run a check", tail.first),
        )),
    }
}

/// Start a block at `seq`, refusing to overwrite one (there is none past a log's end).
fn start_block(
    events: &TransactionalTree,
    name: &str,
    id: u64,
    seq: u64,
    last: &Hash,
) -> TxResult<block::Writer> {
    if events.get(seq_key(id, seq))?.is_some() {
        return abort(corrupt(name, &format!("a block already exists at record {seq}, past its end")));
    }
    Ok(block::Writer::start(seq, last))
}

/// Write encoded records after `head`, whose last block is `stored` (`None` for a new
/// session): fill that block, then start new ones; a new session gets a block even when
/// empty. Returns the new tail. Runs inside a transaction that has checked `head`.
fn write_records(
    events: &TransactionalTree,
    retractions: &TransactionalTree,
    name: &str,
    id: u64,
    head: Tail,
    stored: Option<&[u8]>,
    records: &Batch,
) -> TxResult<Tail> {
    let mut seq = head.len;
    let mut last: Hash = head.last;
    // The block being filled: its first sequence number, the block, and whether records
    // were added to it (a full tail loaded from disk is not written back).
    let mut current: Option<(u64, block::Writer, bool)> = match stored {
        None => Some((seq, start_block(events, name, id, seq, &last)?, true)),
        Some(stored) => match resume_tail(name, &head, stored) {
            Ok(writer) => writer.map(|writer| (head.first, writer, false)),
            Err(e) => return abort(e),
        },
    };
    // A batch pays for compressing what it writes; a small append leaves the tail plain (see
    // `block`), and any block is compressed once sealed.
    let batch = records.len() >= block::COMPRESS_BATCH;
    let mut tail_first = head.first;
    for record in records.records() {
        let full = current.as_ref().is_none_or(|(_, writer, _)| writer.is_full());
        if full {
            if let Some((first, writer, true)) = current.take() {
                events.insert(&seq_key(id, first), writer.into_stored(true))?;
            }
            current = Some((seq, start_block(events, name, id, seq, &last)?, true));
            tail_first = seq;
        }
        last = chain::link(&last, seq, record);
        if let Some((_, writer, dirty)) = current.as_mut() {
            writer.push(&last, record);
            *dirty = true;
        }
        seq += 1;
    }
    if let Some((first, writer, true)) = current {
        let compress = batch || writer.is_full();
        events.insert(&seq_key(id, first), writer.into_stored(compress))?;
    }
    for &(at, target) in &records.retractions {
        retractions.insert(&seq_key(id, at), &target.to_be_bytes())?;
    }
    Ok(Tail { len: seq, first: tail_first, last })
}
