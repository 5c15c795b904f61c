//! The write-ahead log's mark file (`arbiter-wal-mark`, `WAL_MARK_FILE`): the number of the
//! last log entry known to be synced, so that `wal::read` can tell acknowledged entries
//! destroyed at the end of the live log apart from a torn last write (see `wal`).
//!
//! The mark lives in a file of its own rather than in the log's header page: an append's
//! `fdatasync` writes every dirty page of the file it syncs, so a mark written into the log
//! made each sync write two separate pages (the entry's and the header page), where a mark
//! in another file is left to the kernel's write-back and costs the append nothing it waits
//! for. The price is that a mark reaches the disk by that write-back, by the checkpoint
//! (`wal::Wal::clear`) or at the log's close (`MarkFile`'s drop), no longer with the next
//! append's sync: a power cut loses the marks not yet written back (see `wal`).
//!
//! Layout: `LEN` bytes, made once (zeros, synced, its name in the directory synced too),
//! then written in place. Two slots, at `SLOTS`, each in its own sector: a mark is
//! `MAGIC_TAGGED` (8 bytes) ‖ the identity of the log it belongs to (u64 BE) ‖ the log
//! sequence number of an entry already synced (u64 BE) ‖ CRC-32 of those 24 bytes. Entry
//! `n`'s mark goes to slot `n % 2`, so a torn mark write leaves the one before it whole; the
//! valid mark with the higher number counts. Logs of earlier builds kept untagged marks
//! (`MAGIC` ‖ number ‖ CRC-32) in the same two slots of their header page
//! (`wal::LEGACY_MARK_AT`), and builds before the identity wrote untagged marks here;
//! `highest` reads either.
//!
//! **Whose mark it is.** Every log this build makes or opens for writing carries an
//! identity (`wal::IDENTITY_AT`), and only the marks tagged with it count for it; untagged
//! marks count only for a log without one (made by an earlier build and not yet opened
//! for writing by this one). So a mark file left beside a log that another build made
//! afresh (an earlier build, which knows nothing of this file and leaves it as it is, after
//! the user set a damaged log aside) names another log and is no mark, where it used to
//! refuse the new log for entries it never had.
//!
//! A mark file that is missing, cut short or damaged in both slots reads as "no mark": the
//! entries in the log are not at risk for it, only the detection of their later loss, so it
//! never refuses a database. A read-write open makes a missing or short one again (and,
//! should that fail, appends without marks until the next open); a new log (`wal::Wal::open`
//! making one) starts with a blank one, since its numbers start again at 0, and is not made
//! without it.
//!
//! Only `wal` uses this module (imports run wal -> mark -> sealed, never back; tests aside).

use super::layout::WAL_MARK_FILE;
use super::sealed;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

/// Where the two slots are in the mark file (each in its own sector).
pub(crate) const SLOTS: [usize; 2] = [0, 512];
/// The mark file's length as made.
pub(crate) const LEN: usize = 1024;
/// An untagged mark (earlier builds): no log identity.
const MAGIC: &[u8; 8] = b"arbwalak";
/// A mark tagged with its log's identity.
const MAGIC_TAGGED: &[u8; 8] = b"arbwalat";
/// Bytes of an untagged mark with its CRC.
#[cfg(test)]
pub(crate) const MARK_LEN: usize = sealed::len(1);
/// Bytes of a tagged mark with its CRC.
pub(crate) const TAGGED_LEN: usize = sealed::len(2);

/// The untagged mark naming entry `lsn` as synced, as earlier builds wrote it (tests make
/// the files of earlier builds with it).
#[cfg(test)]
pub(crate) fn encode_untagged(lsn: u64) -> [u8; MARK_LEN] {
    let mut out = [0u8; MARK_LEN];
    sealed::seal(MAGIC, &[lsn], &mut out);
    out
}

/// The mark naming entry `lsn` of the log whose identity is `log` as synced.
pub(crate) fn encode(log: u64, lsn: u64) -> [u8; TAGGED_LEN] {
    let mut out = [0u8; TAGGED_LEN];
    sealed::seal(MAGIC_TAGGED, &[log, lsn], &mut out);
    out
}

/// A whole mark in `slot`: the identity of its log (`None` for an untagged one) and the
/// number of the entry it says was synced.
fn decode(slot: &[u8]) -> Option<(Option<u64>, u64)> {
    let tagged = sealed::open::<2>(MAGIC_TAGGED, slot).map(|[log, lsn]| (Some(log), lsn));
    tagged.or_else(|| sealed::open::<1>(MAGIC, slot).map(|[lsn]| (None, lsn)))
}

/// The highest log sequence number a readable mark in `bytes` says was synced, the marks
/// being at `slots` (`SLOTS` in a mark file, `wal::LEGACY_MARK_AT` in an old log's header),
/// counting only the marks of the log whose identity is `log` (untagged ones for `None`).
pub(crate) fn highest(bytes: &[u8], slots: &[usize; 2], log: Option<u64>) -> Option<u64> {
    slots
        .iter()
        .filter_map(|&at| bytes.get(at..).and_then(decode))
        .filter(|&(of, _)| of == log)
        .map(|(_, n)| n)
        .max()
}

/// The path of the mark file in the database directory `dir`.
pub(crate) fn path(dir: &Path) -> PathBuf {
    dir.join(WAL_MARK_FILE)
}

/// The mark file's bytes in `dir`, `None` when there is none or it cannot be read: either
/// way there is no mark to go by, which loses no entry (see the module doc).
pub(crate) fn read(dir: &Path) -> Option<Vec<u8>> {
    std::fs::read(path(dir)).ok()
}

/// The mark file, open for writing.
pub(crate) struct MarkFile {
    file: File,
    /// A mark was written since the file was last synced.
    dirty: bool,
    /// The identity of the log whose marks are written (`tag`); none is written before.
    log: Option<u64>,
}

impl MarkFile {
    /// Open the mark file in `dir`. It is made (zeros, synced, with the directory) when
    /// `blank`, when it is missing, or when it is shorter than made; otherwise its marks
    /// are kept.
    pub(crate) fn open(dir: &Path, blank: bool) -> std::io::Result<MarkFile> {
        let file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path(dir))?;
        let mark = MarkFile { file, dirty: false, log: None };
        if blank || mark.file.metadata()?.len() < LEN as u64 {
            mark.file.write_all_at(&[0u8; LEN], 0)?;
            mark.file.sync_all()?;
            File::open(dir)?.sync_all()?;
        }
        Ok(mark)
    }

    /// The log whose entries the marks from now on name.
    pub(crate) fn tag(&mut self, log: u64) {
        self.log = Some(log);
    }

    /// Write the mark naming entry `lsn` as synced: one positioned write, not synced. Only
    /// ever called once that entry is synced, so a mark never runs ahead of a durable entry.
    /// A failed write loses no entry, only the means to notice its later loss: it is let go.
    pub(crate) fn write(&mut self, lsn: u64) {
        self.write_in(lsn, SLOTS[(lsn % 2) as usize]);
    }

    /// Write entry `lsn`'s mark, tagged, into the slot its untagged mark is not in: a log
    /// that had untagged marks keeps that one whole until it has its identity (see
    /// `wal::Wal::identify`).
    pub(crate) fn carry(&mut self, lsn: u64) {
        self.write_in(lsn, SLOTS[((lsn + 1) % 2) as usize]);
    }

    fn write_in(&mut self, lsn: u64, at: usize) {
        let Some(log) = self.log else { return };
        if self.file.write_all_at(&encode(log, lsn), at as u64).is_ok() {
            self.dirty = true;
        }
    }

    /// Make the marks written so far durable (nothing to do when none was).
    pub(crate) fn sync(&mut self) -> std::io::Result<()> {
        if self.dirty {
            self.file.sync_data()?;
            self.dirty = false;
        }
        Ok(())
    }
}

impl Drop for MarkFile {
    /// The log is closed: its marks are made durable before the process lets go of them.
    /// (A checkpoint has usually done so already; a failure here loses no entry.)
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_whole_mark_counts_and_a_damaged_or_short_file_has_none() {
        let log = Some(0xfeed);
        let mut bytes = vec![0u8; LEN];
        assert_eq!(highest(&bytes, &SLOTS, log), None);
        bytes[SLOTS[1]..SLOTS[1] + TAGGED_LEN].copy_from_slice(&encode(0xfeed, 7));
        bytes[SLOTS[0]..SLOTS[0] + TAGGED_LEN].copy_from_slice(&encode(0xfeed, 8));
        assert_eq!(highest(&bytes, &SLOTS, log), Some(8));
        // A torn write of the newer mark: the older one counts.
        bytes[SLOTS[0] + 3] ^= 0x10;
        assert_eq!(highest(&bytes, &SLOTS, log), Some(7));
        bytes[SLOTS[1] + 20] ^= 0x01;
        assert_eq!(highest(&bytes, &SLOTS, log), None);
        assert_eq!(highest(&[], &SLOTS, log), None);
        assert_eq!(highest(&encode(0xfeed, 3)[..TAGGED_LEN - 1], &SLOTS, log), None);
    }

    #[test]
    fn a_mark_counts_only_for_its_own_log() {
        let mut bytes = vec![0u8; LEN];
        bytes[SLOTS[0]..SLOTS[0] + TAGGED_LEN].copy_from_slice(&encode(1, 8));
        bytes[SLOTS[1]..SLOTS[1] + MARK_LEN].copy_from_slice(&encode_untagged(5));
        assert_eq!(highest(&bytes, &SLOTS, Some(1)), Some(8));
        // Another log's mark is no mark; an untagged one counts only for a log without an
        // identity.
        assert_eq!(highest(&bytes, &SLOTS, Some(2)), None);
        assert_eq!(highest(&bytes, &SLOTS, None), Some(5));
        // The log's number is under the CRC: a changed one is a damaged mark, not another's.
        bytes[SLOTS[0] + 15] ^= 0x03;
        assert_eq!(highest(&bytes, &SLOTS, Some(1)), None);
        assert_eq!(highest(&bytes, &SLOTS, Some(1 ^ 0x03)), None);
    }

    #[test]
    fn marks_alternate_slots_and_a_short_file_is_made_again() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let log = Some(9);
        let mut mark = MarkFile::open(dir.path(), false)?;
        assert_eq!(std::fs::metadata(path(dir.path()))?.len(), LEN as u64);
        // Untagged, nothing is written.
        mark.write(0);
        assert_eq!(read(dir.path()).and_then(|b| highest(&b, &SLOTS, None)), None);
        mark.tag(9);
        for lsn in 0..5 {
            mark.write(lsn);
        }
        mark.sync()?;
        let bytes = read(dir.path()).ok_or("no mark file")?;
        assert_eq!(highest(&bytes, &SLOTS, log), Some(4));
        assert_eq!(decode(&bytes[SLOTS[1]..]), Some((log, 3)), "entry 3's mark is in slot 1");
        // Carried: entry 6's mark goes to slot 1, not its own slot 0.
        mark.carry(6);
        mark.sync()?;
        let bytes = read(dir.path()).ok_or("no mark file")?;
        assert_eq!(decode(&bytes[SLOTS[1]..]), Some((log, 6)), "a carried mark is in the other slot");
        assert_eq!(decode(&bytes[SLOTS[0]..]), Some((log, 4)));
        drop(mark);
        // Reopened: its marks are kept. Made blank: they are gone.
        drop(MarkFile::open(dir.path(), false)?);
        assert_eq!(read(dir.path()).and_then(|b| highest(&b, &SLOTS, log)), Some(6));
        drop(MarkFile::open(dir.path(), true)?);
        assert_eq!(read(dir.path()).and_then(|b| highest(&b, &SLOTS, log)), None);
        // Cut short: made again, whole length.
        std::fs::write(path(dir.path()), &encode(1, 9)[..10])?;
        drop(MarkFile::open(dir.path(), false)?);
        assert_eq!(read(dir.path()).map(|b| b.len()), Some(LEN));
        Ok(())
    }
}
