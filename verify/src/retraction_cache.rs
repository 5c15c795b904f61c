//! A remembered answer to the one question about a log file that needs its end: which
//! records it retracts (`logfile::retracted_records`). A retraction can withdraw a record
//! any distance before it, so without this `diff A.jsonl B.jsonl` reads both files to
//! their ends even when they split at record 10; with an entry for each file it reads only
//! up to the split.
//!
//! An entry is keyed by the file's identity and change times as the kernel reports them:
//! device, inode, length, modification time and status-change time. Every write to a file
//! sets its status-change time, which no call a user can make sets back, so a key that
//! still matches means the bytes are the ones that were scanned. Two guards close the gaps
//! git calls "racily clean": an entry is written only when the file's times were at least
//! [`SETTLED`] old when it was read (a write in the same clock tick as the scan could leave
//! them unchanged), and only when the file's key is the same after the scan as before it.
//!
//! Entries are a cache, never the record: a missing, unreadable, foreign or damaged entry
//! (each ends with a SHA-256 of its text) is ignored and the file scanned again, a failed
//! write is ignored, and removing the directory is always safe. Only files of at least
//! [`MIN_LEN`] bytes use it: scanning a shorter one costs about what reading an entry does,
//! and `verify` of thousands of short session files must not pay a lookup each.

use sha2::{Digest, Sha256};
use std::fs::Metadata;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The shortest file worth an entry: 1 MiB, which the byte search reads in about 0.1 ms.
pub const MIN_LEN: u64 = 1 << 20;

/// How old a file's times must be for its entry to be written: more than the coarsest
/// clock tick of a file system arbiter may read (FAT keeps modification times to 2 s).
pub const SETTLED: Duration = Duration::from_secs(2);

/// The most retractions an entry keeps; a file with more is scanned every time. A real log
/// retracts a few records; the cap bounds an entry's size at about 4 MB.
pub(crate) const MAX_PAIRS: usize = 200_000;

/// The first line of every entry; a later layout changes the number.
const MAGIC: &str = "arbiter retraction cache 1";

/// A directory of entries, one per file (named by device and inode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetractionCache {
    dir: Arc<Path>,
}

/// What identifies a file's bytes without reading them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl FileKey {
    /// The key of an opened file's metadata; `None` where the platform gives no inode.
    #[cfg(unix)]
    pub(crate) fn of(meta: &Metadata) -> Option<FileKey> {
        use std::os::unix::fs::MetadataExt;
        Some(FileKey {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        })
    }

    #[cfg(not(unix))]
    pub(crate) fn of(_meta: &Metadata) -> Option<FileKey> {
        None
    }

    /// Whether the file is long enough to be worth an entry.
    pub(crate) fn worth_caching(&self) -> bool {
        self.len >= MIN_LEN
    }

    /// Whether both times are at least [`SETTLED`] before `now`.
    fn settled(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(UNIX_EPOCH) else { return false };
        let limit = now.saturating_sub(SETTLED);
        let at = |(s, ns): (i64, i64)| -> Option<Duration> {
            Some(Duration::new(u64::try_from(s).ok()?, u32::try_from(ns).ok()?))
        };
        matches!((at(self.modified), at(self.changed)), (Some(m), Some(c)) if m <= limit && c <= limit)
    }

    fn name(&self) -> String {
        format!("{:016x}-{:016x}", self.dev, self.ino)
    }

    fn line(&self) -> String {
        format!(
            "key {} {} {} {} {} {} {}",
            self.dev, self.ino, self.len, self.modified.0, self.modified.1, self.changed.0, self.changed.1
        )
    }
}

impl RetractionCache {
    /// How old a file's times must be for an entry to be written ([`SETTLED`]).
    pub const SETTLED: Duration = SETTLED;

    /// The shortest file an entry is kept for ([`MIN_LEN`]).
    pub const MIN_LEN: u64 = MIN_LEN;

    /// The entries kept in `dir` (created on the first write).
    pub fn at(dir: impl Into<PathBuf>) -> RetractionCache {
        RetractionCache { dir: Arc::from(dir.into()) }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The retractions `(by, target)` remembered for the file with `key` in `format`
    /// (`"notation"` or `"jsonl"`), if an intact entry matches.
    pub(crate) fn lookup(&self, key: &FileKey, format: &str) -> Option<Vec<(u64, u64)>> {
        let file = std::fs::File::open(self.dir.join(key.name())).ok()?;
        let mut text = String::new();
        // An entry holds at most MAX_PAIRS lines of two numbers; anything longer is foreign.
        file.take(64 * MAX_PAIRS as u64).read_to_string(&mut text).ok()?;
        let (body, sum) = text.rsplit_once("end ")?;
        if sum.trim_end() != hex(&Sha256::digest(body.as_bytes())) {
            return None;
        }
        let mut lines = body.lines();
        if lines.next()? != MAGIC
            || lines.next()? != key.line()
            || lines.next()? != format!("format {format}")
        {
            return None;
        }
        lines
            .map(|line| {
                let (by, target) = line.split_once(' ')?;
                Some((by.parse().ok()?, target.parse().ok()?))
            })
            .collect()
    }

    /// Remember `pairs` for the file at `path` whose key was `key` before it was scanned,
    /// when the guards in the module doc allow it. Nothing is reported: an entry not written
    /// only means the next reader scans again.
    pub(crate) fn store(&self, path: &Path, key: &FileKey, format: &str, pairs: &[(u64, u64)]) {
        self.store_at(path, key, format, pairs, SystemTime::now());
    }

    /// [`RetractionCache::store`] with the clock given, for tests.
    pub(crate) fn store_at(
        &self,
        path: &Path,
        key: &FileKey,
        format: &str,
        pairs: &[(u64, u64)],
        now: SystemTime,
    ) {
        if pairs.len() > MAX_PAIRS || !key.settled(now) {
            return;
        }
        // The file at the path must still be the one scanned, unchanged.
        match std::fs::metadata(path).ok().as_ref().and_then(FileKey::of) {
            Some(now) if now == *key => {}
            _ => return,
        }
        let mut body = format!("{MAGIC}\n{}\nformat {format}\n", key.line());
        for (by, target) in pairs {
            body.push_str(&format!("{by} {target}\n"));
        }
        let sum = hex(&Sha256::digest(body.as_bytes()));
        let text = format!("{body}end {sum}\n");
        // Written beside its final name and renamed over it, so a reader sees a whole entry
        // or none; two processes writing the same entry write the same text.
        let name = key.name();
        let temporary = self.dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let written = std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::File::create(&temporary))
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .and_then(|()| std::fs::rename(&temporary, self.dir.join(&name)));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(path: &Path) -> FileKey {
        FileKey::of(&std::fs::metadata(path).unwrap()).unwrap()
    }

    /// Set a file's modification time back, which also makes its status-change time (now)
    /// the one that decides whether it is settled.
    fn aged(path: &Path) -> FileKey {
        let old = SystemTime::now() - Duration::from_secs(60);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(old).unwrap();
        key_of(path)
    }

    #[test]
    fn an_entry_is_kept_only_for_a_settled_file_and_read_back_only_under_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let cache = RetractionCache::at(dir.path().join("cache"));
        let log = dir.path().join("a.jsonl");
        std::fs::write(&log, "{}\n").unwrap();
        let key = aged(&log);
        // Just changed (its status-change time is now): not written.
        cache.store(&log, &key, "jsonl", &[(5, 2)]);
        assert_eq!(cache.lookup(&key, "jsonl"), None);

        // A key whose times are old enough (as a file written minutes ago has) is kept.
        let settled = FileKey { modified: (1, 0), changed: (1, 0), ..key };
        assert!(settled.settled(SystemTime::now()));
        // ...but only when the file at the path still has that key.
        cache.store(&log, &settled, "jsonl", &[(5, 2)]);
        assert_eq!(cache.lookup(&settled, "jsonl"), None);
    }

    #[test]
    fn a_written_entry_reads_back_and_a_damaged_or_foreign_one_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let cache = RetractionCache::at(dir.path().join("cache"));
        let key = FileKey { dev: 1, ino: 2, len: MIN_LEN, modified: (10, 1), changed: (10, 2) };
        // Written directly (store checks the path's key, which a made-up key has no file for).
        let entry = |pairs: &[(u64, u64)]| {
            let mut body = format!("{MAGIC}\n{}\nformat jsonl\n", key.line());
            for (by, target) in pairs {
                body.push_str(&format!("{by} {target}\n"));
            }
            format!("{body}end {}\n", hex(&Sha256::digest(body.as_bytes())))
        };
        std::fs::create_dir_all(cache.dir()).unwrap();
        let path = cache.dir().join(key.name());
        std::fs::write(&path, entry(&[(7, 3), (9, 1)])).unwrap();
        assert_eq!(cache.lookup(&key, "jsonl"), Some(vec![(7, 3), (9, 1)]));
        std::fs::write(&path, entry(&[])).unwrap();
        assert_eq!(cache.lookup(&key, "jsonl"), Some(vec![]));
        // Another format, another length or a changed time is another file.
        assert_eq!(cache.lookup(&key, "notation"), None);
        assert_eq!(cache.lookup(&FileKey { len: MIN_LEN + 1, ..key }, "jsonl"), None);
        assert_eq!(cache.lookup(&FileKey { changed: (10, 3), ..key }, "jsonl"), None);
        // A flipped byte fails the hash; a cut entry has no end line.
        let mut bytes = entry(&[(7, 3)]).into_bytes();
        let at = bytes.iter().rposition(|&b| b == b'7').unwrap();
        bytes[at] = b'8';
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(cache.lookup(&key, "jsonl"), None);
        let whole = entry(&[(7, 3)]);
        std::fs::write(&path, &whole[..whole.len() - 10]).unwrap();
        assert_eq!(cache.lookup(&key, "jsonl"), None);
    }

    #[test]
    fn a_settled_file_is_stored_and_any_write_to_it_makes_the_entry_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = RetractionCache::at(dir.path().join("cache"));
        let log = dir.path().join("a.arb");
        std::fs::write(&log, "@game toy\n").unwrap();
        let key = key_of(&log);
        // Seen from ten seconds on, when the file has settled.
        let later = SystemTime::now() + Duration::from_secs(10);
        cache.store_at(&log, &key, "notation", &[(4, 3)], later);
        assert_eq!(cache.lookup(&key, "notation"), Some(vec![(4, 3)]));
        // A write of the same length in place still changes the status-change time.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&log, "@game toz\n").unwrap();
        let rewritten = key_of(&log);
        assert_ne!(rewritten, key);
        assert_eq!(cache.lookup(&rewritten, "notation"), None);
        // And the old key is no longer stored over the changed file.
        let other = RetractionCache::at(dir.path().join("other"));
        other.store_at(&log, &key, "notation", &[(4, 3)], later);
        assert_eq!(other.lookup(&key, "notation"), None);
        // A file with more retractions than an entry keeps is not stored.
        let many: Vec<(u64, u64)> = (0..=MAX_PAIRS as u64).map(|i| (i + 1, i)).collect();
        other.store_at(&log, &rewritten, "notation", &many, later);
        assert_eq!(other.lookup(&rewritten, "notation"), None);
    }
}
