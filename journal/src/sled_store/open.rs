//! Opening a database directory: its lock, what is left over from a failed start, sled,
//! the format, the write-ahead log and the record of heads, read-write or read-only.
//!
//! **A read-write open** creates what a new database needs and nothing before it is
//! needed. It takes the directory's lock (another process gets "in use"), removes a
//! snapshot sled began and never finished (a zero-length `snap.*.generating` left by a full
//! disk would otherwise make sled read it as its newest snapshot and refuse every later
//! open as "corrupted"), opens sled, and redoes the write-ahead log (`recover`).
//!
//! **A read-only open** writes nothing of its own: no log, no record, no flush, no
//! checkpoint on close. sled 0.34 has no read-only mode, and its own start writes: it zeroes
//! its free segments and the rest of its active one (about 1.5 MiB, with two `fsync`s) and
//! writes a new snapshot of its page table when its log moved on since the last one. So a
//! read-only open reads a scratch copy of sled's files in a temporary directory (`/dev/shm`
//! when there is one, removed when closed), where those writes cost nothing and touch
//! nothing of the database: always when the data file is small (below `COPY_BELOW`), when
//! there is anything to redo or left over, when the disk has no room, and when sled cannot
//! write in place (a read-only file system, no permission). Only a large data file on a
//! disk with room is opened in place, where sled's start writes as it always does (nothing
//! of the journal's). Reads then work on a full disk and on a read-only copy.

use super::heads::{self, Recorded};
use super::layout::{self, SLED_SNAPSHOT_PREFIX, SLED_UNFINISHED_SUFFIX};
use super::state::{Durability, Mode, Opened, Record, SledStore};
use super::tail::storage;
use super::wal::{self, Wal};
use crate::error::{ErrorKind, JournalError};
use crate::store::HeadClaim;
use fs2::FileExt;
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long `open` waits for a lock that may be its own process's just-dropped handle.
const LOCK_PATIENCE: Duration = Duration::from_millis(2000);

/// Free bytes a read-only open wants before it lets sled open a directory in place (sled
/// may write a snapshot of its page table, and zero a segment); with less, it reads a copy.
const ROOM_IN_PLACE: u64 = 16 << 20;

/// A read-only open reads a copy of a data file smaller than this: copying it to memory
/// costs less than the writes and two `fsync`s sled's own start makes on the disk (it zeroes
/// its free segments, about 1.5 MiB, every time), and the database is then not written at
/// all. A larger one is opened in place.
const COPY_BELOW: u64 = 8 << 20;

impl SledStore {
    /// Open (or create) the database directory at `path` for reading and writing.
    pub fn open(path: &Path, durability: Durability) -> Result<SledStore, JournalError> {
        let shown = path.display().to_string();
        if path.exists() && !path.is_dir() {
            return Err(JournalError::new(
                ErrorKind::Storage,
                format!("cannot open database `{shown}`: it is a file, not a database directory"),
            ));
        }
        std::fs::create_dir_all(path).map_err(|e| {
            JournalError::new(ErrorKind::Storage, format!("cannot open database `{shown}`: {e}"))
        })?;
        let lock = lock_directory(path, &shown, true)?;
        // Under the lock: another process making this database is done with it by now.
        refuse_foreign_directory(path, &shown)?;
        // A directory still empty under the lock is made by this open. If the open fails part
        // way (a full disk refuses the write-ahead log's room), what it wrote is removed again
        // before the lock is let go, so a failed first open leaves the directory as it found
        // it, never a half-made database. The lock is a lock on the directory's open file
        // description, which the clone shares: it is held until both are dropped.
        let fresh = std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_none());
        let guard = lock.try_clone().ok();
        let opened = SledStore::open_locked(path, &shown, durability, lock);
        if opened.is_err() && fresh && guard.is_some() {
            remove_contents(path);
        }
        drop(guard);
        opened
    }

    /// `open`, the directory locked (`lock`, kept by the store).
    fn open_locked(
        path: &Path,
        shown: &str,
        durability: Durability,
        lock: File,
    ) -> Result<SledStore, JournalError> {
        let shown = shown.to_string();
        remove_unfinished_snapshots(path, &shown)?;
        let legacy = legacy_marker(path);
        let db = open_sled(path, &shown, Access::ReadWrite)?;
        keep_conf_copy(path, &shown)?;
        let made = stamp_format(&db, &shown, legacy.is_some() || path.join(layout::WAL_FILE).exists())?;
        let (wal, logged) = Wal::open(path, made)?;
        let recorded = heads::read(path)?;
        let data_file = File::open(path.join(layout::SLED_DATA_FILE)).map_err(|e| {
            JournalError::new(
                ErrorKind::Storage,
                format!("cannot open the data file of database `{shown}`: {e}"),
            )
        })?;
        let opened = Opened { mode: Mode::ReadWrite, _lock: lock, _scratch: None };
        let store = SledStore::assemble(db, path, Some(data_file), durability, Some(wal), opened, recorded)?;
        store.redone.store(logged.is_empty(), std::sync::atomic::Ordering::SeqCst);
        store.check_legacy_marker(legacy)?;
        store.recover(logged)?;
        store.compare_generation()?;
        if !store.record_exists() {
            store.start_record()?;
        }
        Ok(store)
    }

    /// Open the database directory at `path` only to read it, writing nothing to it.
    pub fn open_read_only(path: &Path) -> Result<SledStore, JournalError> {
        let shown = path.display().to_string();
        if !path.is_dir() {
            return Err(JournalError::new(ErrorKind::Storage, format!("there is no database at `{shown}`")));
        }
        let lock = lock_directory(path, &shown, false)?;
        refuse_foreign_directory(path, &shown)?;
        // The record of heads is read and checked whole (every entry's CRC and shape: on a
        // database of thousands of sessions, a third of the journal's own work in opening)
        // on a thread of its own while the log is read and sled starts: they read different
        // files, and a command that reads one session waits on all three.
        std::thread::scope(|scope| {
            let reader = std::thread::Builder::new().spawn_scoped(scope, || heads::read(path));
            let record = || match reader {
                Ok(reader) => reader.join().unwrap_or_else(|_| {
                    Err(JournalError::new(
                        ErrorKind::Storage,
                        format!("cannot read the record of heads of database `{shown}`"),
                    ))
                }),
                // No thread to be had: read it here.
                Err(_) => heads::read(path),
            };
            SledStore::open_read_only_locked(path, &shown, lock, record)
        })
    }

    /// `open_read_only` once the directory is locked; `record` gives the record of heads.
    fn open_read_only_locked(
        path: &Path,
        shown: &str,
        lock: File,
        record: impl FnOnce() -> Result<Option<Recorded>, JournalError>,
    ) -> Result<SledStore, JournalError> {
        let shown = shown.to_string();
        let left_over = unfinished_snapshots(path).map(|v| !v.is_empty()).unwrap_or(true);
        let log = wal::read_files(path)?;
        let parsed = wal::parse(&log);
        let to_redo = matches!(&parsed, Some(Ok(contents)) if !contents.entries.is_empty());
        let room = fs2::available_space(path).is_ok_and(|free| free >= ROOM_IN_PLACE);
        let small = std::fs::metadata(path.join(layout::SLED_DATA_FILE)).is_ok_and(|m| m.len() < COPY_BELOW);
        let mut scratch = None;
        // A lost `conf` is put back from its copy, which writes: only in a scratch copy.
        let conf_lost = !path.join(layout::SLED_CONF_FILE).exists();
        let in_place = if left_over || to_redo || !room || small || conf_lost {
            None
        } else {
            match open_sled(path, &shown, Access::ReadOnly) {
                Ok(db) => Some(db),
                Err(e) if e.kind() == ErrorKind::InUse => return Err(e),
                Err(_) => {
                    // sled could not write here; whatever it began is undone.
                    let _ = remove_unfinished_snapshots(path, &shown);
                    None
                }
            }
        };
        let db = match in_place {
            Some(db) => db,
            None => {
                let copy = scratch_copy(path, &shown)?;
                let db = open_sled(copy.path(), &shown, Access::ReadOnly)?;
                scratch = Some(copy);
                db
            }
        };
        let legacy = legacy_marker(path);
        let made = match db.get(layout::FORMAT_KEY) {
            Ok(Some(version)) => check_version(&version, &shown).map(|()| true)?,
            Ok(None) if legacy.is_some() => return Err(emptied(&shown)),
            Ok(None) => false,
            Err(e) => return Err(storage(&format!("opening database `{shown}`"), e)),
        };
        let logged = wal::read_only(path, &log, parsed, made)?;
        let recorded = record()?;
        let opened = Opened { mode: Mode::ReadOnly, _lock: lock, _scratch: scratch };
        let store = SledStore::assemble(db, path, None, Durability::Fsync, None, opened, recorded)?;
        store.check_legacy_marker(legacy)?;
        // Redone into the scratch copy only (a directory with anything to redo is never
        // opened in place read-only).
        store.recover(logged)?;
        store.compare_generation()?;
        Ok(store)
    }

    fn assemble(
        db: sled::Db,
        path: &Path,
        data_file: Option<File>,
        durability: Durability,
        wal: Option<Wal>,
        opened: Opened,
        recorded: Option<Recorded>,
    ) -> Result<SledStore, JournalError> {
        let shown = path.display().to_string();
        let tree =
            |name: &str| db.open_tree(name).map_err(|e| storage(&format!("opening database `{shown}`"), e));
        Ok(SledStore {
            sessions: tree(layout::SESSIONS_TREE)?,
            heads: tree(layout::HEADS_TREE)?,
            events: tree(layout::EVENTS_TREE)?,
            retractions: tree(layout::RETRACTIONS_TREE)?,
            snapshots: tree(layout::SNAPSHOTS_TREE)?,
            db,
            path: path.to_path_buf(),
            data_file,
            durability,
            wal: Mutex::new(wal),
            kept_tail: Mutex::new(None),
            unflushed: AtomicBool::new(false),
            redone: AtomicBool::new(true),
            record: Mutex::new(Record {
                file: heads::Writer::new(path, recorded.unwrap_or_default()),
                dirty: BTreeMap::new(),
                checked: HashSet::new(),
                losses: BTreeMap::new(),
            }),
            opened,
        })
    }

    /// Whether a record of heads was found on disk (or written since).
    fn record_exists(&self) -> bool {
        self.lock_record().file.recorded.generation > 0
    }

    /// Begin the record of heads of a database that has none (new, or made by an earlier
    /// build): every session as sled has it now.
    fn start_record(&self) -> Result<(), JournalError> {
        let mut heads = Vec::new();
        for name in self.names_in_sled()? {
            if let Some(found) = self.entry(&name)? {
                if let HeadClaim::Known(head) = self.stored_claim(&name, found.id)? {
                    heads.push((name, head));
                }
            }
        }
        let mut record = self.lock_record();
        for (name, head) in heads {
            record.dirty.entry(name).or_insert(head);
        }
        // An empty database gets its record with its first session.
        let empty = record.dirty.is_empty();
        drop(record);
        if empty {
            return Ok(());
        }
        self.checkpoint(&mut self.lock_wal())
    }

    fn names_in_sled(&self) -> Result<Vec<String>, JournalError> {
        crate::store::Store::names(self)
    }

    /// Compare the generation sled holds with the record's: sled that reads back an older
    /// one lost writes the record covers, so every session is compared at once.
    fn compare_generation(&self) -> Result<(), JournalError> {
        let recorded = self.lock_record().file.recorded.generation;
        if recorded == 0 {
            return Ok(());
        }
        let stored = self
            .db
            .get(layout::GENERATION_KEY)
            .map_err(|e| storage(&format!("opening database `{}`", self.shown()), e))?
            .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
            .map_or(0, u64::from_be_bytes);
        if stored < recorded {
            self.compare_all()?;
        }
        Ok(())
    }

    /// A database made by an earlier build kept only a count of its sessions: sled giving
    /// back fewer is damage.
    fn check_legacy_marker(&self, marked: Option<u64>) -> Result<(), JournalError> {
        // Counting the sessions walks the whole tree: only for a database that has the marker.
        let Some(held) = marked else { return Ok(()) };
        let found = self.sessions.len() as u64;
        if found >= held {
            return Ok(());
        }
        Err(JournalError::new(
            ErrorKind::Storage,
            format!(
                "database `{}` is damaged: it held {held} sessions but only {found} could be read back \
                 (its data file was cut short or corrupted)",
                self.shown()
            ),
        ))
    }
}

/// What sled is opened for: a read-only open starts it without its periodic flusher
/// (`layout::sled_config_read_only`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    ReadWrite,
    ReadOnly,
}

/// Open sled on `path`, retrying briefly while its lock may still be held by this process's
/// previous handle (sled's background threads release it lazily).
fn open_sled(path: &Path, shown: &str, access: Access) -> Result<sled::Db, JournalError> {
    // Without `conf`, sled would take the data file to have the segment size it is given
    // and, when the file was written with another (a database made before the current
    // size), damage it past repair on starting. A data file with contents always has one.
    // Its copy (`SLED_CONF_COPY`, kept by every read-write open) is put back instead.
    let has_data = std::fs::metadata(path.join(layout::SLED_DATA_FILE)).is_ok_and(|m| m.len() > 0);
    let conf = path.join(layout::SLED_CONF_FILE);
    if has_data && !conf.exists() {
        let copy = path.join(layout::SLED_CONF_COPY);
        if !copy.exists() {
            return Err(JournalError::new(
                ErrorKind::Storage,
                format!(
                    "database `{shown}` is damaged: sled's `conf` file is missing (it records how \
                     the data file is laid out) and so is its copy; restore the directory from a backup"
                ),
            ));
        }
        write_durably(&copy, &conf).map_err(|e| {
            JournalError::new(
                ErrorKind::Storage,
                format!("database `{shown}`: cannot put sled's lost `conf` back from its copy: {e}"),
            )
        })?;
    }
    let config = match access {
        Access::ReadWrite => layout::sled_config(path),
        Access::ReadOnly => layout::sled_config_read_only(path),
    };
    let started = Instant::now();
    loop {
        match config.open() {
            Ok(db) => return Ok(db),
            Err(e) => {
                let error = open_error(shown, e);
                if error.kind() != ErrorKind::InUse || started.elapsed() >= LOCK_PATIENCE {
                    return Err(error);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// Keep a copy of sled's `conf` beside it (written once, and again only if it differs), so
/// that `open_sled` can put a lost `conf` back.
fn keep_conf_copy(path: &Path, shown: &str) -> Result<(), JournalError> {
    let conf = path.join(layout::SLED_CONF_FILE);
    let copy = path.join(layout::SLED_CONF_COPY);
    let fail = |e: std::io::Error| {
        JournalError::new(
            ErrorKind::Storage,
            format!("database `{shown}`: cannot keep a copy of sled's `conf`: {e}"),
        )
    };
    let bytes = std::fs::read(&conf).map_err(fail)?;
    if std::fs::read(&copy).is_ok_and(|kept| kept == bytes) {
        return Ok(());
    }
    write_durably(&conf, &copy).map_err(fail)
}

/// Copy `from` to `to` whole or not at all: written beside it, synced, renamed into place,
/// and the directory synced, so a crash leaves the old file or the new one.
fn write_durably(from: &Path, to: &Path) -> std::io::Result<()> {
    let bytes = std::fs::read(from)?;
    let dir = to.parent().unwrap_or(Path::new("."));
    let mut part = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut part, &bytes)?;
    part.as_file().sync_all()?;
    part.persist(to).map_err(|e| e.error)?;
    File::open(dir)?.sync_all()
}

/// Take the directory's lock: one process at a time has a database open. A holder that
/// goes away (or this process's previous handle, being dropped) is waited for briefly. A
/// writer (`create`) makes the directory again when it was removed while it waited (by a
/// process that made it, failed, and found it empty).
fn lock_directory(path: &Path, shown: &str, create: bool) -> Result<File, JournalError> {
    let started = Instant::now();
    loop {
        let opened = match File::open(path) {
            Err(e) if create && e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(path).and_then(|()| File::open(path))
            }
            other => other,
        };
        let dir = opened.map_err(|e| {
            JournalError::new(ErrorKind::Storage, format!("cannot open database `{shown}`: {e}"))
        })?;
        match dir.try_lock_exclusive() {
            // The directory locked must still be the one at `path` (it may have been removed
            // and made anew while this process waited).
            Ok(()) if same_directory(&dir, path) => return Ok(dir),
            Ok(()) => continue,
            Err(e) if e.raw_os_error() == fs2::lock_contended_error().raw_os_error() => {
                if started.elapsed() >= LOCK_PATIENCE {
                    return Err(in_use(shown));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                return Err(JournalError::new(
                    ErrorKind::Storage,
                    format!("cannot lock database `{shown}`: {e}"),
                ))
            }
        }
    }
}

/// Remove everything in `path`, keeping the directory: the undoing of a first open that
/// failed. Best effort: what cannot be removed is left, as it would have been.
fn remove_contents(path: &Path) {
    let Ok(entries) = std::fs::read_dir(path) else { return };
    for entry in entries.flatten() {
        let p = entry.path();
        let _ = if p.is_dir() { std::fs::remove_dir_all(&p) } else { std::fs::remove_file(&p) };
    }
}

#[cfg(unix)]
fn same_directory(dir: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (dir.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_directory(_dir: &File, path: &Path) -> bool {
    path.is_dir()
}

fn in_use(shown: &str) -> JournalError {
    JournalError::new(
        ErrorKind::InUse,
        format!("database `{shown}` is in use by another process; close it there and try again"),
    )
}

fn open_error(shown: &str, e: sled::Error) -> JournalError {
    // sled 0.34 reports a held lock as a plain I/O error with this text (config.rs, try_lock).
    match &e {
        sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => in_use(shown),
        _ => JournalError::new(ErrorKind::Storage, format!("cannot open database `{shown}`: {e}")),
    }
}

/// sled makes its files in whatever directory it is given; a `--db` pointing at a folder of
/// other things (a typo, a home directory) must not fill it with database files.
fn refuse_foreign_directory(path: &Path, shown: &str) -> Result<(), JournalError> {
    let Ok(mut entries) = std::fs::read_dir(path) else {
        // Missing (it will be created) or not a directory (opening reports that).
        return Ok(());
    };
    let known = [
        layout::SLED_DATA_FILE,
        layout::SLED_CONF_FILE,
        layout::SLED_BLOBS_DIR,
        layout::LEGACY_MARKER_FILE,
        layout::HEADS_FILE,
        layout::WAL_FILE,
        layout::WAL_MARK_FILE,
    ];
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

/// Snapshots sled began writing and never renamed into place.
fn unfinished_snapshots(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let name = entry?.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(SLED_SNAPSHOT_PREFIX) && name.ends_with(SLED_UNFINISHED_SUFFIX) {
            out.push(path.join(name.as_ref()));
        }
    }
    Ok(out)
}

/// Remove snapshots sled never finished. Safe under the directory's lock: sled writes one
/// only while opening, renames it into place once it is whole and synced, and its previous
/// snapshot plus its log give the same state.
fn remove_unfinished_snapshots(path: &Path, shown: &str) -> Result<(), JournalError> {
    let fail = |e: std::io::Error| {
        JournalError::new(
            ErrorKind::Storage,
            format!(
                "database `{shown}` holds a snapshot sled never finished (a `{SLED_SNAPSHOT_PREFIX}*{SLED_UNFINISHED_SUFFIX}` \
                 file) that cannot be removed ({e}); remove it by hand and open the database again"
            ),
        )
    };
    for file in unfinished_snapshots(path).map_err(fail)? {
        std::fs::remove_file(&file).map_err(fail)?;
    }
    Ok(())
}

/// Copy sled's files (not the unfinished snapshots) to a new temporary directory, in memory
/// when the system has one, for a read-only open that cannot let sled open them in place.
fn scratch_copy(path: &Path, shown: &str) -> Result<tempfile::TempDir, JournalError> {
    let fail = |what: &str, e: std::io::Error| {
        JournalError::new(
            ErrorKind::Storage,
            format!("cannot read database `{shown}` read-only: {what} ({e})"),
        )
    };
    let shm = Path::new("/dev/shm");
    let scratch = if shm.is_dir() {
        tempfile::Builder::new().prefix("arbiter-").tempdir_in(shm)
    } else {
        Err(std::io::ErrorKind::NotFound.into())
    };
    let scratch = match scratch {
        Ok(dir) => dir,
        Err(_) => tempfile::Builder::new()
            .prefix("arbiter-")
            .tempdir()
            .map_err(|e| fail("no temporary directory for a copy of its files", e))?,
    };
    for entry in std::fs::read_dir(path).map_err(|e| fail("its directory cannot be listed", e))? {
        let entry = entry.map_err(|e| fail("its directory cannot be listed", e))?;
        let name = entry.file_name();
        let text = name.to_string_lossy();
        let sled_file = text == layout::SLED_DATA_FILE
            || text == layout::SLED_CONF_FILE
            || text == layout::SLED_CONF_COPY
            || (text.starts_with(SLED_SNAPSHOT_PREFIX) && !text.ends_with(SLED_UNFINISHED_SUFFIX));
        let target = scratch.path().join(&name);
        if sled_file {
            std::fs::copy(entry.path(), &target).map_err(|e| fail(&format!("cannot copy `{text}`"), e))?;
        } else if text == layout::SLED_BLOBS_DIR {
            std::fs::create_dir(&target).map_err(|e| fail("cannot copy its blobs", e))?;
            for blob in std::fs::read_dir(entry.path()).map_err(|e| fail("cannot list its blobs", e))? {
                let blob = blob.map_err(|e| fail("cannot list its blobs", e))?;
                std::fs::copy(blob.path(), target.join(blob.file_name()))
                    .map_err(|e| fail("cannot copy its blobs", e))?;
            }
        }
    }
    Ok(scratch)
}

/// The session count an earlier build's marker file holds, if there is one.
fn legacy_marker(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path.join(layout::LEGACY_MARKER_FILE)).ok()?;
    Some(text.lines().find_map(|l| l.strip_prefix("sessions: ")?.trim().parse().ok()).unwrap_or(0))
}

/// Refuse a database written by another format; stamp a new one with ours. `existed` says
/// the directory held a journal before: sled opens a data file it cannot read at all as an
/// empty database, and that tells it apart from a new one. Returns whether the database
/// was made before (so its write-ahead log must exist).
fn stamp_format(db: &sled::Db, shown: &str, existed: bool) -> Result<bool, JournalError> {
    let what = format!("opening database `{shown}`");
    match db.get(layout::FORMAT_KEY).map_err(|e| storage(&what, e))? {
        Some(version) => check_version(&version, shown).map(|()| true),
        None if existed => Err(emptied(shown)),
        None => {
            // Stamped and made durable before anything else is written, so a crash in between
            // never makes a new database look damaged.
            db.insert(layout::FORMAT_KEY, layout::FORMAT_VERSION).map_err(|e| storage(&what, e))?;
            db.flush().map_err(|e| storage(&what, e))?;
            Ok(false)
        }
    }
}

fn check_version(version: &[u8], shown: &str) -> Result<(), JournalError> {
    if version == layout::FORMAT_VERSION {
        return Ok(());
    }
    Err(JournalError::new(
        ErrorKind::Storage,
        format!(
            "database `{shown}` has journal format {:?}, this build reads format {:?}",
            String::from_utf8_lossy(version),
            String::from_utf8_lossy(layout::FORMAT_VERSION)
        ),
    ))
}

fn emptied(shown: &str) -> JournalError {
    JournalError::new(
        ErrorKind::Storage,
        format!("database `{shown}` is damaged: its data file no longer holds any journal data (was it replaced or truncated?)"),
    )
}
