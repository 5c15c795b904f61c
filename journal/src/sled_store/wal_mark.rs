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
//! then written in place. Two slots, at `SLOTS`, each in its own sector: a mark is `MAGIC`
//! (8 bytes) ‖ the log sequence number of an entry already synced (u64 BE) ‖ CRC-32 of
//! those 16 bytes. Entry `n`'s mark goes to slot `n % 2`, so a torn mark write leaves the
//! one before it whole; the valid mark with the higher number counts. Logs of earlier
//! builds kept the same two slots in their header page (`wal::LEGACY_MARK_AT`); `highest`
//! reads either.
//!
//! A mark file that is missing, cut short or damaged in both slots reads as "no mark": the
//! entries in the log are not at risk for it, only the detection of their later loss, so it
//! never refuses a database. A read-write open makes a missing or short one again (and,
//! should that fail, appends without marks until the next open); a new log (`wal::Wal::open`
//! making one) starts with a blank one, since its numbers start again at 0, and is not made
//! without it.
//!
//! Only `wal` uses this module (imports run wal -> mark, never back; tests aside).

use super::layout::WAL_MARK_FILE;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

/// Where the two slots are in the mark file (each in its own sector).
pub(crate) const SLOTS: [usize; 2] = [0, 512];
/// The mark file's length as made.
pub(crate) const LEN: usize = 1024;
const MAGIC: &[u8; 8] = b"arbwalak";
/// Bytes of a mark before its CRC.
const BODY: usize = 16;
/// Bytes of a mark with its CRC.
pub(crate) const MARK_LEN: usize = BODY + 4;

/// The mark naming entry `lsn` as synced.
pub(crate) fn encode(lsn: u64) -> [u8; MARK_LEN] {
    let mut out = [0u8; MARK_LEN];
    out[..8].copy_from_slice(MAGIC);
    out[8..16].copy_from_slice(&lsn.to_be_bytes());
    let crc = crc32fast::hash(&out[..BODY]);
    out[BODY..].copy_from_slice(&crc.to_be_bytes());
    out
}

fn decode(slot: &[u8]) -> Option<u64> {
    let body = slot.get(..BODY)?;
    let crc = u32::from_be_bytes(slot.get(BODY..MARK_LEN)?.try_into().ok()?);
    (&body[..8] == MAGIC && crc32fast::hash(body) == crc)
        .then(|| body[8..16].try_into().ok().map(u64::from_be_bytes))
        .flatten()
}

/// The highest log sequence number a readable mark in `bytes` says was synced, the marks
/// being at `slots` (`SLOTS` in a mark file, `wal::LEGACY_MARK_AT` in an old log's header).
pub(crate) fn highest(bytes: &[u8], slots: &[usize; 2]) -> Option<u64> {
    slots.iter().filter_map(|&at| bytes.get(at..at + MARK_LEN).and_then(decode)).max()
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
}

impl MarkFile {
    /// Open the mark file in `dir`. It is made (zeros, synced, with the directory) when
    /// `blank`, when it is missing, or when it is shorter than made; otherwise its marks
    /// are kept.
    pub(crate) fn open(dir: &Path, blank: bool) -> std::io::Result<MarkFile> {
        let file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path(dir))?;
        let mark = MarkFile { file, dirty: false };
        if blank || mark.file.metadata()?.len() < LEN as u64 {
            mark.file.write_all_at(&[0u8; LEN], 0)?;
            mark.file.sync_all()?;
            File::open(dir)?.sync_all()?;
        }
        Ok(mark)
    }

    /// Write the mark naming entry `lsn` as synced: one positioned write, not synced. Only
    /// ever called once that entry is synced, so a mark never runs ahead of a durable entry.
    /// A failed write loses no entry, only the means to notice its later loss: it is let go.
    pub(crate) fn write(&mut self, lsn: u64) {
        let at = SLOTS[(lsn % 2) as usize] as u64;
        if self.file.write_all_at(&encode(lsn), at).is_ok() {
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
        let mut bytes = vec![0u8; LEN];
        assert_eq!(highest(&bytes, &SLOTS), None);
        bytes[SLOTS[1]..SLOTS[1] + MARK_LEN].copy_from_slice(&encode(7));
        bytes[SLOTS[0]..SLOTS[0] + MARK_LEN].copy_from_slice(&encode(8));
        assert_eq!(highest(&bytes, &SLOTS), Some(8));
        // A torn write of the newer mark: the older one counts.
        bytes[SLOTS[0] + 3] ^= 0x10;
        assert_eq!(highest(&bytes, &SLOTS), Some(7));
        bytes[SLOTS[1] + 12] ^= 0x01;
        assert_eq!(highest(&bytes, &SLOTS), None);
        assert_eq!(highest(&[], &SLOTS), None);
        assert_eq!(highest(&encode(3)[..MARK_LEN - 1], &SLOTS), None);
    }

    #[test]
    fn marks_alternate_slots_and_a_short_file_is_made_again() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mut mark = MarkFile::open(dir.path(), false)?;
        assert_eq!(std::fs::metadata(path(dir.path()))?.len(), LEN as u64);
        for lsn in 0..5 {
            mark.write(lsn);
        }
        mark.sync()?;
        let bytes = read(dir.path()).ok_or("no mark file")?;
        assert_eq!(highest(&bytes, &SLOTS), Some(4));
        assert_eq!(decode(&bytes[SLOTS[1]..]), Some(3), "entry 3's mark is in slot 1");
        drop(mark);
        // Reopened: its marks are kept. Made blank: they are gone.
        drop(MarkFile::open(dir.path(), false)?);
        assert_eq!(read(dir.path()).and_then(|b| highest(&b, &SLOTS)), Some(4));
        drop(MarkFile::open(dir.path(), true)?);
        assert_eq!(read(dir.path()).and_then(|b| highest(&b, &SLOTS)), None);
        // Cut short: made again, whole length.
        std::fs::write(path(dir.path()), &encode(9)[..10])?;
        drop(MarkFile::open(dir.path(), false)?);
        assert_eq!(read(dir.path()).map(|b| b.len()), Some(LEN));
        Ok(())
    }
}
