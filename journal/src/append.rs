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
//! Durability is the caller's choice of method: `append` is acknowledged only once durable
//! (in the write-ahead log, or flushed), `append_unflushed` leaves it to a later `flush`.

use crate::block;
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::journal::{corrupt, head_of, tail_first_of, Durability, Journal};
use crate::layout::{self, seq_key, Head};
use crate::meta::SessionMeta;
use crate::name::validate_name;
use crate::record::Record;
use serde::Serialize;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::Transactional;
use std::sync::atomic::Ordering;

/// The largest encoded record accepted. Decoding is limited to `codec::LIMIT` bytes of
/// claimed memory, which a record's in-memory form can exceed its encoding by several times
/// (a varint is one byte, a `u64` eight); refusing large records at append keeps every
/// stored record readable.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// The write-ahead log is started afresh (sled flushed and synced) once it holds this much:
/// a checkpoint every few thousand single appends costs each of them almost nothing, a log
/// this size is redone in moments when a crash leaves it full, and its preallocated file
/// (see `wal::PREALLOCATED`) stays small beside a database.
pub(crate) const CHECKPOINT_BYTES: u64 = 256 << 10;

/// Records encoded once, outside any transaction (a transaction may run its closure again).
pub(crate) struct Encoded {
    bytes: Vec<u8>,
    /// End offset in `bytes` of each record.
    ends: Vec<usize>,
    /// `(sequence of the Retract record, sequence it retracts)`.
    retractions: Vec<(u64, u64)>,
}

impl Encoded {
    /// Records already encoded (a redo from the write-ahead log), the first at `first`.
    /// `Retract` records are recognised so that the retraction index is kept.
    pub(crate) fn from_encoded(first: u64, records: &[Vec<u8>]) -> Encoded {
        let mut out = Encoded { bytes: Vec::new(), ends: Vec::new(), retractions: Vec::new() };
        for (seq, record) in (first..).zip(records) {
            // An event never decodes as a `Retract`: the two variants' tags differ.
            if let Ok(Record::Retract(target)) = codec::decode::<Record<()>>(record) {
                out.retractions.push((seq, target));
            }
            out.bytes.extend_from_slice(record);
            out.ends.push(out.bytes.len());
        }
        out
    }

    /// Each record's encoded bytes, in order.
    fn records(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.bytes[start..end])
    }
}

type TxResult<T> = Result<T, ConflictableTransactionError<JournalError>>;

fn abort<T>(e: JournalError) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(e))
}

impl Journal {
    /// Create an empty session. Refuses a name already taken or not allowed.
    pub fn create_session(&self, name: &str, meta: &SessionMeta) -> Result<(), JournalError> {
        self.import::<()>(name, meta, &[]).map(|_| ())
    }

    /// Create a session holding `records` (numbered from 0), all or nothing: on any error
    /// no trace of the session remains. Refuses a name already taken. Returns the length.
    pub fn import<E: Serialize>(
        &self,
        name: &str,
        meta: &SessionMeta,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        validate_name(name)?;
        let genesis = chain::genesis(name, meta)?;
        let encoded = encode_records(name, 0, records)?;
        let what = format!("creating session `{name}`");
        let id = self.db.generate_id().map_err(|e| JournalError::storage(&what, e))?;
        let entry = codec::encode(&(id, meta)).map_err(|e| {
            JournalError::new(
                ErrorKind::Encode,
                format!("cannot encode the metadata of session `{name}`: {e}"),
            )
        })?;
        let trees = (&self.sessions, &self.heads, &self.events, &self.retractions);
        let len = trees
            .transaction(|(sessions, heads, events, retractions)| {
                if sessions.get(name)?.is_some() {
                    return abort(
                        JournalError::new(
                            ErrorKind::SessionExists,
                            format!("session `{name}` already exists; choose another name"),
                        )
                        .in_session(name),
                    );
                }
                if heads.get(id.to_be_bytes())?.is_some() {
                    return abort(corrupt(name, &format!("session id {id} is already in use")));
                }
                sessions.insert(name.as_bytes(), entry.as_slice())?;
                let empty = Head { len: 0, tail_first: 0, last: genesis };
                let head = write_records(events, retractions, name, id, empty, None, &encoded)?;
                heads.insert(&id.to_be_bytes(), &layout::tail_pointer(head.tail_first)[..])?;
                Ok(head.len)
            })
            .map_err(|e| tx_error(&what, e))?;
        self.flush()?;
        // The session is durable; the marker follows. Should the marker not be written, the
        // session still exists, so that is not reported as a failure of the import; the
        // marker then lags, which only weakens the damage check for this session.
        let _ = self.update_marker();
        Ok(len)
    }

    /// Append `records` at sequence numbers `expected_next..`, durably, all or nothing.
    /// `expected_next` must be the log's length: otherwise nothing is written and the error,
    /// of kind `Conflict`, says what the log holds. Returns the new length.
    ///
    /// Under `Durability::Fsync` (the default), an append that fits in the session's last
    /// block is acknowledged once it is in the write-ahead log (one write, one `fdatasync`;
    /// see `wal`); any other (a retraction, a batch, one that starts a block) is one sled
    /// transaction and a flush of sled. So importers and benchmarks batch by passing many.
    pub fn append<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        let id = self.entry(name)?.id;
        let encoded = encode_records(name, expected_next, records)?;
        // Appends written without a flush are in sled's memory only and not in the log: a
        // durable append after them must make them durable too, which only a flush does.
        if self.durability == Durability::Fsync && !self.unflushed.load(Ordering::SeqCst) {
            let mut wal = self.lock_wal();
            if let Some(head) = self.append_in_place(name, id, expected_next, &encoded)? {
                let logged = wal.append(name, expected_next, &head.last, encoded.records());
                // A log that could not be written, or has grown enough, is checkpointed:
                // sled flushed and synced (which makes this append durable as well), then
                // the log started afresh.
                if logged.is_err() || wal.len() >= CHECKPOINT_BYTES {
                    self.checkpoint(&mut wal)?;
                }
                return Ok(head.len);
            }
        }
        let head = self.write(name, id, expected_next, &encoded)?;
        self.flush()?;
        Ok(head.len)
    }

    /// `append` without making it durable: the records are written but may be lost in a
    /// crash until the next `flush` (or a later durable append; sled also flushes by itself
    /// every 500 ms). For importers that flush once at the end. A crash keeps a prefix of
    /// the batches.
    pub fn append_unflushed<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        let id = self.entry(name)?.id;
        let encoded = encode_records(name, expected_next, records)?;
        self.unflushed.store(true, Ordering::SeqCst);
        Ok(self.write(name, id, expected_next, &encoded)?.len)
    }

    /// Write encoded records: in place when they fit in the last block, else in one
    /// transaction. Returns the new head. Durable only once flushed.
    pub(crate) fn write(
        &self,
        name: &str,
        id: u64,
        expected_next: u64,
        encoded: &Encoded,
    ) -> Result<Head, JournalError> {
        if let Some(head) = self.append_in_place(name, id, expected_next, encoded)? {
            return Ok(head);
        }
        let what = format!("appending to session `{name}`");
        (&self.heads, &self.events, &self.retractions)
            .transaction(|(heads, events, retractions)| {
                let tail_first = match tail_first_of(name, heads.get(id.to_be_bytes())?.as_deref()) {
                    Ok(first) => first,
                    Err(e) => return abort(e),
                };
                let tail = events.get(seq_key(id, tail_first))?;
                let head = match head_of(name, tail_first, tail.as_deref()) {
                    Ok(head) if head.len == expected_next => head,
                    Ok(head) => return abort(conflict(name, head.len, expected_next)),
                    Err(e) => return abort(e),
                };
                let head = write_records(events, retractions, name, id, head, tail.as_deref(), encoded)?;
                if head.tail_first != tail_first {
                    heads.insert(&id.to_be_bytes(), &layout::tail_pointer(head.tail_first)[..])?;
                }
                Ok(head)
            })
            .map_err(|e| tx_error(&what, e))
    }

    /// The common append, without a transaction (and in sled's memory until flushed): records that all fit in the session's
    /// last block, none a retraction (the index is another value), fewer than a batch (a
    /// batch compresses what it writes, see `block`). The block is rewritten by
    /// compare-and-swap against the value read, so a writer that got in between makes this
    /// one a conflict, never a lost update. `None` when the append is not of this kind (or
    /// the block fills up on the way), and nothing was written: the caller runs the
    /// transaction instead. Returns the new head.
    fn append_in_place(
        &self,
        name: &str,
        id: u64,
        expected_next: u64,
        encoded: &Encoded,
    ) -> Result<Option<Head>, JournalError> {
        if encoded.ends.is_empty()
            || encoded.ends.len() >= block::COMPRESS_BATCH
            || !encoded.retractions.is_empty()
        {
            return Ok(None);
        }
        let what = || format!("appending to session `{name}`");
        let (key, stored, head) = self.tail(name, id)?;
        if head.len != expected_next {
            return Err(conflict(name, head.len, expected_next));
        }
        let kept = self.kept_tail.lock().ok().and_then(|mut kept| kept.take());
        let kept = kept.filter(|(kept_id, writer)| *kept_id == id && writer.is_stored_as(&stored));
        let mut writer = match kept {
            Some((_, writer)) => writer,
            None => match resume_tail(name, &head, &stored)? {
                Some(writer) => writer,
                None => return Ok(None),
            },
        };
        let mut last = head.last;
        for (seq, record) in (head.len..).zip(encoded.records()) {
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
            .map_err(|e| JournalError::storage(&what(), e))?;
        match swapped {
            Ok(()) => {
                if let (Some(writer), Ok(mut kept)) = (keep, self.kept_tail.lock()) {
                    *kept = Some((id, writer));
                }
                Ok(Some(Head {
                    len: head.len + encoded.ends.len() as u64,
                    tail_first: head.tail_first,
                    last,
                }))
            }
            Err(_) => {
                let now = self.tail(name, id).map(|(_, _, head)| head.len).unwrap_or(head.len);
                Err(conflict(name, now, expected_next))
            }
        }
    }
}

fn tx_error(what: &str, e: TransactionError<JournalError>) -> JournalError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => JournalError::storage(what, e),
    }
}

/// The sentence for an append that expected another length.
fn conflict(name: &str, len: u64, expected_next: u64) -> JournalError {
    JournalError::new(
        ErrorKind::Conflict,
        format!(
            "session `{name}` has {len} records, but the append expected {expected_next}; \
             nothing was written (someone else appended first?)"
        ),
    )
    .in_session(name)
    .at(len)
}

/// A writer continuing the last block, `None` when it is full. Only ever add after what
/// the header accounts for: a block whose body disagrees with its header was changed behind
/// the journal's back, and appending would bury the damage.
fn resume_tail(name: &str, head: &Head, stored: &[u8]) -> Result<Option<block::Writer>, JournalError> {
    let resumed = block::plain(stored).ok().and_then(|plain| block::Writer::resume(&plain, head.tail_first));
    match resumed {
        Some(writer) if writer.is_full() => Ok(None),
        Some(writer) => Ok(Some(writer)),
        None => Err(corrupt(
            name,
            &format!(
                "its last block (from record {}) does not match its header; run a check",
                head.tail_first
            ),
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

fn encode_records<E: Serialize>(
    name: &str,
    first: u64,
    records: &[Record<E>],
) -> Result<Encoded, JournalError> {
    let mut out =
        Encoded { bytes: Vec::new(), ends: Vec::with_capacity(records.len()), retractions: Vec::new() };
    for (seq, record) in (first..).zip(records) {
        if let Record::Retract(target) = record {
            if *target >= seq {
                return Err(JournalError::new(
                    ErrorKind::InvalidRecord,
                    format!(
                        "record {seq} of session `{name}` retracts record {target}, which is not before it"
                    ),
                )
                .in_session(name)
                .at(seq));
            }
            out.retractions.push((seq, *target));
        }
        codec::encode_into(record, &mut out.bytes).map_err(|e| {
            JournalError::new(
                ErrorKind::Encode,
                format!("record {seq} of session `{name}` cannot be encoded: {e}"),
            )
            .in_session(name)
            .at(seq)
        })?;
        let size = out.bytes.len() - out.ends.last().copied().unwrap_or(0);
        if size > MAX_RECORD_BYTES {
            return Err(JournalError::new(
                ErrorKind::InvalidRecord,
                format!(
                    "record {seq} of session `{name}` encodes to {size} bytes, more than the {MAX_RECORD_BYTES} a record may have"
                ),
            )
            .in_session(name)
            .at(seq));
        }
        out.ends.push(out.bytes.len());
    }
    Ok(out)
}

/// Write encoded records after `head`, whose last block is `tail` (`None` for a new
/// session): fill that block, then start new ones; a new session gets a block even when
/// empty. Returns the new head. Runs inside a transaction that has checked `head`.
fn write_records(
    events: &TransactionalTree,
    retractions: &TransactionalTree,
    name: &str,
    id: u64,
    head: Head,
    tail: Option<&[u8]>,
    records: &Encoded,
) -> TxResult<Head> {
    let mut seq = head.len;
    let mut last: Hash = head.last;
    // The block being filled: its first sequence number, the block, and whether records
    // were added to it (a full tail loaded from disk is not written back).
    let mut current: Option<(u64, block::Writer, bool)> = match tail {
        None => Some((seq, start_block(events, name, id, seq, &last)?, true)),
        Some(stored) => match resume_tail(name, &head, stored) {
            Ok(writer) => writer.map(|writer| (head.tail_first, writer, false)),
            Err(e) => return abort(e),
        },
    };
    // A batch pays for compressing what it writes; a small append leaves the tail plain (see
    // `block`), and any block is compressed once sealed.
    let batch = records.ends.len() >= block::COMPRESS_BATCH;
    let mut tail_first = head.tail_first;
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
    Ok(Head { len: seq, tail_first, last })
}
