//! The `Journal`: opening the database, looking sessions up, and making writes durable.
//!
//! Writing is in `append`, reading in `read`. A returned `Ok` from a write that promises
//! durability survives a crash: it is in sled's data file, flushed and synced, or in the
//! write-ahead log (`wal`), which `open` redoes into sled (`recover`) before anything else.

use crate::block;
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::layout::{self, seq_key, Head};
use crate::marker;
use crate::meta::SessionMeta;
use crate::name::closest;
use crate::wal::Wal;
use sled::IVec;
use sled::Tree;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
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
    pub(crate) durability: Durability,
    /// Serializes marker updates, so a slower thread never writes an older count.
    marker_lock: Mutex<()>,
    /// The writer of the last block the last in-place append wrote, with its session id:
    /// rebuilding a writer from the stored block (walking and hashing every record in it)
    /// was most of an append's CPU time. Used only while the stored block is byte for byte
    /// what it wrote (see `append_in_place`).
    pub(crate) kept_tail: Mutex<Option<(u64, block::Writer)>>,
    /// The write-ahead log durable single appends go to (`Durability::Fsync` only). Held
    /// from an in-place append's compare-and-swap to its log write, so the log's order is
    /// the order appends took effect, and by a checkpoint, so none slips in between sled's
    /// flush and the log being started afresh.
    wal: Mutex<Wal>,
    /// Set by `append_unflushed`, cleared by a flush: while set, sled holds appends that
    /// are neither flushed nor logged, and a durable append must flush instead of logging.
    pub(crate) unflushed: AtomicBool,
    /// Whether the write-ahead log holds only what sled holds too once flushed, so that a
    /// checkpoint may empty it: false from opening a log with entries until they are redone,
    /// so that a database that fails to open keeps its log (and the records in it).
    pub(crate) redone: AtomicBool,
}

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

/// A session as the `sessions` tree knows it.
pub(crate) struct SessionEntry {
    pub id: u64,
    pub meta: SessionMeta,
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
        let (wal, logged) = Wal::open(&path)?;
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
            kept_tail: Mutex::new(None),
            wal: Mutex::new(wal),
            unflushed: AtomicBool::new(false),
            redone: AtomicBool::new(logged.is_empty()),
        };
        journal.check_format(marked.is_some())?;
        journal.check_marker(marked)?;
        journal.recover(logged)?;
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
    pub(crate) fn update_marker(&self) -> Result<(), JournalError> {
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
    ///
    /// Then the write-ahead log holds nothing sled does not, and is started afresh.
    pub fn flush(&self) -> Result<(), JournalError> {
        self.checkpoint(&mut self.lock_wal())
    }

    /// `flush` with the write-ahead log already held.
    pub(crate) fn checkpoint(&self, wal: &mut Wal) -> Result<(), JournalError> {
        // Cleared first: an unflushed append racing with this flush sets it again.
        self.unflushed.store(false, Ordering::SeqCst);
        let what = || format!("flushing database `{}`", self.path.display());
        self.db.flush().map_err(|e| JournalError::storage(&what(), e))?;
        if self.durability == Durability::SledFlush {
            return Ok(());
        }
        self.data_file
            .sync_data()
            .map_err(|e| JournalError::new(ErrorKind::Storage, format!("{}: {e}", what())))?;
        if !self.redone.load(Ordering::SeqCst) {
            return Ok(());
        }
        wal.clear()
    }

    /// The write-ahead log, for a writer or a checkpoint. A poisoned lock is taken over: the
    /// log is only appended to whole entries and started afresh after a flush, so a thread that
    /// panicked while holding it left nothing half done that matters.
    pub(crate) fn lock_wal(&self) -> MutexGuard<'_, Wal> {
        self.wal.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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
        let (_, _, head) = self.tail(name, entry.id)?;
        Ok((entry, head))
    }

    /// Where a session's last block starts, as `heads` says.
    pub(crate) fn tail_first(&self, name: &str, id: u64) -> Result<u64, JournalError> {
        let value = self
            .heads
            .get(id.to_be_bytes())
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?;
        tail_first_of(name, value.as_deref())
    }

    /// A session's last block: its key, its stored value and the head its header gives.
    pub(crate) fn tail(&self, name: &str, id: u64) -> Result<([u8; 16], IVec, Head), JournalError> {
        let tail_first = self.tail_first(name, id)?;
        let key = seq_key(id, tail_first);
        let stored = self
            .events
            .get(key)
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?;
        let head = head_of(name, tail_first, stored.as_deref())?;
        match stored {
            Some(stored) => Ok((key, stored, head)),
            None => Err(missing_tail(name, tail_first)),
        }
    }
}

impl Drop for Journal {
    /// Write out what sled still buffers and start the write-ahead log afresh, so that its
    /// background writers are done and its file lock is released promptly for the next
    /// open, and the next open has nothing to redo. A failure here loses nothing: the log
    /// is started afresh only after sled's data is synced.
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// sled makes its files in whatever directory it is given; a `--db` pointing at a folder of
/// other things (a typo, a home directory) must not fill it with database files.
fn refuse_foreign_directory(path: &Path, shown: &str) -> Result<(), JournalError> {
    let Ok(mut entries) = std::fs::read_dir(path) else {
        // Missing (it will be created) or not a directory (sled reports that).
        return Ok(());
    };
    let known = [layout::SLED_DATA_FILE, layout::MARKER_FILE, layout::WAL_FILE, "conf"];
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

/// The first sequence of a session's last block, from its `heads` value.
pub(crate) fn tail_first_of(name: &str, value: Option<&[u8]>) -> Result<u64, JournalError> {
    value
        .and_then(layout::tail_first)
        .ok_or_else(|| corrupt(name, "its head (where its last block starts) is missing or malformed"))
}

pub(crate) fn missing_tail(name: &str, tail_first: u64) -> JournalError {
    corrupt(name, &format!("its last block, from record {tail_first}, is missing")).at(tail_first)
}

/// A session's head from its last block (stored at `tail_first`, `None` if missing).
pub(crate) fn head_of(name: &str, tail_first: u64, tail: Option<&[u8]>) -> Result<Head, JournalError> {
    let tail = tail.ok_or_else(|| missing_tail(name, tail_first))?;
    let header = block::header(tail).map_err(|e| {
        corrupt(name, &format!("its last block, from record {tail_first}: {e}")).at(tail_first)
    })?;
    if header.first_seq != tail_first {
        return Err(corrupt(
            name,
            &format!("its last block, from record {tail_first}, holds records from {}", header.first_seq),
        )
        .at(tail_first));
    }
    Ok(Head { len: tail_first + u64::from(header.count), tail_first, last: header.last })
}
