//! The `Journal`: opening the database, sessions, and appends.
//!
//! Every session or record write is one sled transaction over the trees it touches, so it
//! happens whole or not at all, and it is flushed before the call returns (see `Durability`):
//! a returned `Ok` survives a crash. Appends check the session's head inside the
//! transaction, so two writers racing for the same sequence number cannot both succeed and
//! neither overwrites the other.

use crate::block::{self, BLOCK_RECORDS};
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::layout::{self, seq_key, Head};
use crate::marker;
use crate::meta::SessionMeta;
use crate::name::{closest, validate_name};
use crate::record::Record;
use serde::Serialize;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::{Transactional, Tree};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long `open` waits for a lock that may be its own process's just-dropped handle.
const LOCK_PATIENCE: Duration = Duration::from_millis(2000);

/// An open event store. One process at a time may hold a database open.
pub struct Journal {
    pub(crate) db: sled::Db,
    pub(crate) path: PathBuf,
    pub(crate) sessions: Tree,
    pub(crate) heads: Tree,
    pub(crate) events: Tree,
    pub(crate) retractions: Tree,
    pub(crate) snapshots: Tree,
    /// sled's data file, opened a second time only to fsync it (see `flush`).
    data_file: std::fs::File,
    durability: Durability,
    /// Serializes marker updates, so a slower thread never writes an older count.
    marker_lock: Mutex<()>,
}

/// What `flush` (and so every acknowledged append) guarantees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// sled's flush, then `fdatasync` of its data file: an acknowledged append survives a
    /// power cut. The default.
    #[default]
    Fsync,
    /// sled's flush alone (`sync_file_range` on Linux): survives a crash of the process, and
    /// usually of the machine, but the drive's cache and the file's length are not forced to
    /// disk, so a power cut may lose the last half second (sled fsyncs every 500 ms anyway).
    /// About one fsync cheaper per append.
    SledFlush,
}

/// A session as the `sessions` tree knows it.
pub(crate) struct SessionEntry {
    pub id: u64,
    pub meta: SessionMeta,
}

/// Records encoded once, outside any transaction (a transaction may run its closure again).
struct Encoded {
    bytes: Vec<u8>,
    /// End offset in `bytes` of each record.
    ends: Vec<usize>,
    /// `(sequence of the Retract record, sequence it retracts)`.
    retractions: Vec<(u64, u64)>,
}

/// The largest encoded record accepted. Decoding is limited to `codec::LIMIT` bytes of
/// claimed memory, which a record's in-memory form can exceed its encoding by several times
/// (a varint is one byte, a `u64` eight); refusing large records at append keeps every
/// stored record readable.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

type TxResult<T> = Result<T, ConflictableTransactionError<JournalError>>;

fn abort<T>(e: JournalError) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(e))
}

impl Journal {
    /// Open (or create) the database at `path`, a directory.
    ///
    /// Fails with `ErrorKind::InUse` when another process has it open.
    pub fn open(path: impl AsRef<Path>) -> Result<Journal, JournalError> {
        Journal::open_with(path, Durability::default())
    }

    /// `open` with a chosen durability for appends.
    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<Journal, JournalError> {
        let path = path.as_ref().to_path_buf();
        let shown = path.display().to_string();
        let config = sled::Config::new()
            .path(&path)
            // Replays stream; a large page cache would only raise memory use.
            .cache_capacity(32 << 20);
        // sled's background writers can hold its file lock for a moment after a handle is
        // dropped, so a process that closes and reopens (or a child started right after)
        // may see its own previous handle. Retry briefly; a real holder still gets `InUse`
        // within `LOCK_PATIENCE`.
        let started = Instant::now();
        let marked = marker::read(&path);
        refuse_foreign_directory(&path, &shown)?;
        let db = loop {
            match config.open() {
                Ok(db) => break db,
                Err(e) => {
                    let error = open_error(&shown, e);
                    if error.kind() != ErrorKind::InUse || started.elapsed() >= LOCK_PATIENCE {
                        return Err(error);
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        };
        let tree = |name: &str| {
            db.open_tree(name).map_err(|e| JournalError::storage(&format!("opening database `{shown}`"), e))
        };
        let journal = Journal {
            sessions: tree(layout::SESSIONS_TREE)?,
            heads: tree(layout::HEADS_TREE)?,
            events: tree(layout::EVENTS_TREE)?,
            retractions: tree(layout::RETRACTIONS_TREE)?,
            snapshots: tree(layout::SNAPSHOTS_TREE)?,
            data_file: std::fs::File::open(path.join(layout::SLED_DATA_FILE)).map_err(|e| {
                JournalError::new(
                    ErrorKind::Storage,
                    format!("cannot open the data file of database `{shown}`: {e}"),
                )
            })?,
            db,
            path,
            durability,
            marker_lock: Mutex::new(()),
        };
        journal.check_format(marked.is_some())?;
        journal.check_marker(marked)?;
        Ok(journal)
    }

    /// Refuse a database written by another format; stamp a new one with ours. `existed`
    /// says the marker file was there before opening: sled opens a data file it cannot read
    /// at all as an empty database, and the marker tells that apart from a new one.
    fn check_format(&self, existed: bool) -> Result<(), JournalError> {
        let what = format!("opening database `{}`", self.path.display());
        let found = self.db.get(layout::FORMAT_KEY).map_err(|e| JournalError::storage(&what, e))?;
        if found.is_none() && existed {
            return Err(JournalError::new(
                ErrorKind::Storage,
                format!(
                    "database `{}` is damaged: its data file no longer holds any journal data (was it replaced or truncated?)",
                    self.path.display()
                ),
            ));
        }
        match found.as_deref() {
            Some(version) if version == layout::FORMAT_VERSION => {}
            Some(other) => {
                return Err(JournalError::new(
                    ErrorKind::Storage,
                    format!(
                        "database `{}` has journal format {:?}, this build reads format {:?}",
                        self.path.display(),
                        String::from_utf8_lossy(other),
                        String::from_utf8_lossy(layout::FORMAT_VERSION)
                    ),
                ))
            }
            None => {
                // Stamp and make it durable before the marker claims there is a journal, so
                // a crash in between never makes a new database look damaged.
                self.db
                    .insert(layout::FORMAT_KEY, layout::FORMAT_VERSION)
                    .map_err(|e| JournalError::storage(&what, e))?;
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Compare the sessions sled recovered with those the marker says the database held.
    fn check_marker(&self, marked: Option<u64>) -> Result<(), JournalError> {
        let found = self.sessions.len() as u64;
        match marked {
            Some(held) if found < held => Err(JournalError::new(
                ErrorKind::Storage,
                format!(
                    "database `{}` is damaged: it held {held} sessions but only {found} could be read back \
                     (its data file was cut short or corrupted)",
                    self.path.display()
                ),
            )),
            Some(held) if found == held => Ok(()),
            _ => self.update_marker(),
        }
    }

    /// Write the current number of sessions to the marker file.
    fn update_marker(&self) -> Result<(), JournalError> {
        let _serial = self.marker_lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        marker::write(&self.path, self.sessions.len() as u64).map_err(|e| {
            JournalError::new(
                ErrorKind::Storage,
                format!("cannot write to database `{}`: {e}", self.path.display()),
            )
        })
    }

    /// The database directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Force everything written so far to disk (appends already do this themselves).
    ///
    /// sled's own flush writes its log with `sync_file_range`, which on Linux neither flushes
    /// the drive's write cache nor the file's metadata (its new length), so it survives a
    /// process crash but not necessarily a power cut. An `fdatasync` of the data file after it
    /// makes an acknowledged write durable in the ordinary sense, for about one more fsync's
    /// worth of latency that the first one mostly already paid.
    pub fn flush(&self) -> Result<(), JournalError> {
        let what = || format!("flushing database `{}`", self.path.display());
        self.db.flush().map_err(|e| JournalError::storage(&what(), e))?;
        if self.durability == Durability::SledFlush {
            return Ok(());
        }
        self.data_file
            .sync_data()
            .map_err(|e| JournalError::new(ErrorKind::Storage, format!("{}: {e}", what())))
    }

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
                let head = write_records(events, retractions, name, id, empty, &encoded)?;
                heads.insert(&id.to_be_bytes(), &head.to_bytes()[..])?;
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

    /// Append `records` at sequence numbers `expected_next..`, durably (flushed before
    /// returning), all or nothing. `expected_next` must be the log's length: otherwise
    /// nothing is written and the error, of kind `Conflict`, says what the log holds.
    /// One call is one transaction and one flush, however many records it carries, so
    /// importers and benchmarks batch by passing many. Returns the new length.
    pub fn append<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        let len = self.append_unflushed(name, expected_next, records)?;
        self.flush()?;
        Ok(len)
    }

    /// `append` without the flush: the records are written but may be lost in a crash until
    /// the next `flush` (or a later flushed append; sled also flushes by itself every 500 ms).
    /// For importers that flush once at the end. A crash keeps a prefix of the batches.
    pub fn append_unflushed<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        let entry = self.entry(name)?;
        let encoded = encode_records(name, expected_next, records)?;
        let what = format!("appending to session `{name}`");
        let id = entry.id;
        (&self.heads, &self.events, &self.retractions)
            .transaction(|(heads, events, retractions)| {
                let head = read_head(heads, name, id)?;
                if head.len != expected_next {
                    return abort(
                        JournalError::new(
                            ErrorKind::Conflict,
                            format!(
                                "session `{name}` has {} records, but the append expected {expected_next}; \
                                 nothing was written (someone else appended first?)",
                                head.len
                            ),
                        )
                        .in_session(name)
                        .at(head.len),
                    );
                }
                let head = write_records(events, retractions, name, id, head, &encoded)?;
                heads.insert(&id.to_be_bytes(), &head.to_bytes()[..])?;
                Ok(head.len)
            })
            .map_err(|e| tx_error(&what, e))
    }

    /// A session's metadata. An unknown name is an error that suggests a close one.
    pub fn session(&self, name: &str) -> Result<SessionMeta, JournalError> {
        Ok(self.entry(name)?.meta)
    }

    /// Every session, ordered by name.
    pub fn sessions(&self) -> Result<Vec<(String, SessionMeta)>, JournalError> {
        let mut out = Vec::new();
        for item in self.sessions.iter() {
            let (key, value) = item.map_err(|e| JournalError::storage("listing sessions", e))?;
            let name = String::from_utf8_lossy(&key).into_owned();
            let entry = decode_entry(&name, &value)?;
            out.push((name, entry.meta));
        }
        Ok(out)
    }

    /// Number of records in a session (its next sequence number).
    pub fn len(&self, name: &str) -> Result<u64, JournalError> {
        Ok(self.head(name)?.1.len)
    }

    pub(crate) fn entry(&self, name: &str) -> Result<SessionEntry, JournalError> {
        let found = self
            .sessions
            .get(name)
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?;
        match found {
            Some(value) => decode_entry(name, &value),
            None => Err(self.not_found(name)),
        }
    }

    fn not_found(&self, name: &str) -> JournalError {
        let names: Vec<String> =
            self.sessions.iter().keys().flatten().map(|k| String::from_utf8_lossy(&k).into_owned()).collect();
        let hint = match closest(name, names.iter().map(String::as_str)) {
            Some(close) => format!("; did you mean `{close}`?"),
            None if names.is_empty() => " (the database has no sessions yet)".to_string(),
            None => String::new(),
        };
        JournalError::new(ErrorKind::SessionNotFound, format!("session `{name}` not found{hint}"))
            .in_session(name)
    }

    /// A session's entry and head.
    pub(crate) fn head(&self, name: &str) -> Result<(SessionEntry, Head), JournalError> {
        let entry = self.entry(name)?;
        let value = self
            .heads
            .get(entry.id.to_be_bytes())
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?;
        match value.as_deref().and_then(Head::from_bytes) {
            Some(head) => Ok((entry, head)),
            None => Err(corrupt(name, "its head (length and last hash) is missing or malformed")),
        }
    }
}

impl Drop for Journal {
    /// Write out what sled still buffers, so that its background writers are done and its
    /// file lock is released promptly for the next open (appends have flushed already).
    fn drop(&mut self) {
        let _ = self.db.flush();
    }
}

/// sled makes its files in whatever directory it is given; a `--db` pointing at a folder of
/// other things (a typo, a home directory) must not fill it with database files.
fn refuse_foreign_directory(path: &Path, shown: &str) -> Result<(), JournalError> {
    let Ok(mut entries) = std::fs::read_dir(path) else {
        // Missing (it will be created) or not a directory (sled reports that).
        return Ok(());
    };
    let known = [layout::SLED_DATA_FILE, layout::MARKER_FILE, "conf"];
    if entries.next().is_none() || known.iter().any(|f| path.join(f).exists()) {
        return Ok(());
    }
    Err(JournalError::new(
        ErrorKind::Storage,
        format!(
            "`{shown}` is a directory of other files, not an arbiter database; give a new or empty directory"
        ),
    ))
}

fn open_error(shown: &str, e: sled::Error) -> JournalError {
    // sled 0.34 reports a held lock as a plain I/O error with this text (config.rs, try_lock).
    match &e {
        sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => JournalError::new(
            ErrorKind::InUse,
            format!("database `{shown}` is in use by another process; close it there and try again"),
        ),
        _ => JournalError::new(ErrorKind::Storage, format!("cannot open database `{shown}`: {e}")),
    }
}

pub(crate) fn corrupt(name: &str, what: &str) -> JournalError {
    JournalError::new(ErrorKind::Corrupt, format!("session `{name}` is damaged: {what}")).in_session(name)
}

fn decode_entry(name: &str, value: &[u8]) -> Result<SessionEntry, JournalError> {
    match codec::decode::<(u64, SessionMeta)>(value) {
        Ok((id, meta)) => Ok(SessionEntry { id, meta }),
        Err(e) => Err(corrupt(name, &format!("its metadata does not decode ({e})"))),
    }
}

fn tx_error(what: &str, e: TransactionError<JournalError>) -> JournalError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => JournalError::storage(what, e),
    }
}

fn read_head(heads: &TransactionalTree, name: &str, id: u64) -> TxResult<Head> {
    match heads.get(id.to_be_bytes())?.as_deref().and_then(Head::from_bytes) {
        Some(head) => Ok(head),
        None => abort(corrupt(name, "its head (length and last hash) is missing or malformed")),
    }
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

/// Write encoded records after `head`: fill the tail block, then start new ones. Returns the
/// new head. Runs inside a transaction that has checked `head`.
fn write_records(
    events: &TransactionalTree,
    retractions: &TransactionalTree,
    name: &str,
    id: u64,
    head: Head,
    records: &Encoded,
) -> TxResult<Head> {
    if records.ends.is_empty() {
        return Ok(head);
    }
    let mut seq = head.len;
    let mut last: Hash = head.last;
    // The block being filled: its first sequence number, the block, and whether records
    // were added to it (a full tail loaded from disk is not written back).
    let mut current: Option<(u64, block::Writer, bool)> = None;
    if head.len > head.tail_first && head.len - head.tail_first < BLOCK_RECORDS {
        let Some(tail) = events.get(seq_key(id, head.tail_first))? else {
            return abort(corrupt(name, &format!("the block at record {} is missing", head.tail_first)));
        };
        // Only ever add after what the head accounts for: a tail that disagrees with it was
        // changed behind the journal's back, and appending would bury the damage.
        let resumed =
            block::plain(&tail).ok().and_then(|plain| block::Writer::resume(&plain, head.tail_first));
        match resumed {
            Some(writer) if writer.count() == head.len - head.tail_first => {
                current = Some((head.tail_first, writer, false));
            }
            _ => {
                return abort(corrupt(
                    name,
                    &format!(
                        "its last block (from record {}) does not match its head; run a check",
                        head.tail_first
                    ),
                ))
            }
        }
    }
    // A batch pays for compressing what it writes; a small append leaves the tail plain (see
    // `block`), and any block is compressed once sealed.
    let batch = records.ends.len() >= block::COMPRESS_BATCH;
    let mut tail_first = head.tail_first;
    let mut start = 0;
    for &end in &records.ends {
        let record = &records.bytes[start..end];
        start = end;
        let full = current.as_ref().is_none_or(|(_, writer, _)| writer.is_full());
        if full {
            if let Some((first, writer, true)) = current.take() {
                events.insert(&seq_key(id, first), writer.into_stored(true))?;
            }
            if events.get(seq_key(id, seq))?.is_some() {
                return abort(corrupt(
                    name,
                    &format!("a block already exists at record {seq}, past its end"),
                ));
            }
            current = Some((seq, block::Writer::start(seq, &last), true));
            tail_first = seq;
        }
        last = chain::link(&last, seq, record);
        if let Some((_, writer, dirty)) = current.as_mut() {
            writer.push(&chain::tag(&last), record);
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
