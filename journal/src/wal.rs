//! The write-ahead log: how a single append is made durable with one write and one fsync.
//!
//! Making an append durable through sled means `Db::flush`: sled hands its buffer to a
//! background thread, which writes it and waits for `sync_file_range`, and the caller then
//! needs an `fdatasync` for the write to survive a power cut. Two thread switches, two waits
//! on the disk, where an append to a plain file needs one. So an append that fits in its
//! session's last block (see `journal::append_in_place`) updates sled in memory only, and is
//! acknowledged once its records are written here and this file is `fdatasync`ed: the same
//! cost as appending a line to a file. A checkpoint (sled flushed, its data file synced) then
//! empties this file; `Journal::open` redoes whatever it still holds, so what sled had not
//! written out when the process died comes back.
//!
//! Layout: entries back to back, each `length (u32 BE) ‖ CRC-32 of the body (u32 BE) ‖
//! body`, the body being `name length (u16 BE) ‖ session name ‖ first sequence (u64 BE) ‖
//! chain hash after the records (32 bytes) ‖ record count (u32 BE) ‖ per record: length
//! (u32 BE) ‖ encoded record`.
//!
//! An entry is acknowledged only after it is wholly on disk, so a crash can leave at most the
//! last entry torn (short, or failing its CRC): that one was never acknowledged and is
//! dropped. A bad entry with more bytes after it is damage, not a torn write, and is refused.

use crate::chain::Hash;
use crate::error::{ErrorKind, JournalError};
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// One append as logged: enough to redo it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub session: String,
    /// Sequence number of the first record.
    pub first: u64,
    /// The chain hash after the last record: a redo must arrive at it, and a log that already
    /// holds the records must hold exactly these.
    pub end: Hash,
    /// The encoded records, in order.
    pub records: Vec<Vec<u8>>,
}

impl Entry {
    /// The sequence number after the last record.
    pub fn end_seq(&self) -> u64 {
        self.first + self.records.len() as u64
    }
}

/// Bytes before an entry's body: its length and CRC.
const FRAME: usize = 8;

/// The entry as written: frame and body.
pub fn encode<'a>(session: &str, first: u64, end: &Hash, records: impl Iterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut body = Vec::with_capacity(64);
    // Session names are at most `MAX_NAME_LEN` (far below u16::MAX) and records at most
    // `MAX_RECORD_BYTES`; both are checked before anything is logged.
    body.extend_from_slice(&(session.len() as u16).to_be_bytes());
    body.extend_from_slice(session.as_bytes());
    body.extend_from_slice(&first.to_be_bytes());
    body.extend_from_slice(end);
    let count_at = body.len();
    body.extend_from_slice(&0u32.to_be_bytes());
    let mut count = 0u32;
    for record in records {
        body.extend_from_slice(&(record.len() as u32).to_be_bytes());
        body.extend_from_slice(record);
        count += 1;
    }
    body[count_at..count_at + 4].copy_from_slice(&count.to_be_bytes());
    let mut out = Vec::with_capacity(FRAME + body.len());
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(&crc32fast::hash(&body).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

/// A body's fields, or `None` when it is malformed.
fn decode_body(body: &[u8]) -> Option<Entry> {
    let mut at: usize = 0;
    let mut take = |n: usize| -> Option<&[u8]> {
        let part = body.get(at..at.checked_add(n)?)?;
        at += n;
        Some(part)
    };
    let name_len = u16::from_be_bytes(take(2)?.try_into().ok()?) as usize;
    let session = std::str::from_utf8(take(name_len)?).ok()?.to_string();
    let first = u64::from_be_bytes(take(8)?.try_into().ok()?);
    let end: Hash = take(32)?.try_into().ok()?;
    let count = u32::from_be_bytes(take(4)?.try_into().ok()?);
    let mut records = Vec::new();
    for _ in 0..count {
        let len = u32::from_be_bytes(take(4)?.try_into().ok()?) as usize;
        records.push(take(len)?.to_vec());
    }
    (at == body.len()).then_some(Entry { session, first, end, records })
}

/// The entries of a log's bytes, dropping a torn last one; an error names the offset of an
/// entry that is damaged with more entries after it.
pub fn decode(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let Some(frame) = bytes.get(at..at + FRAME) else {
            break; // a torn frame: the last write, never acknowledged
        };
        let len = u32::from_be_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        let crc = u32::from_be_bytes([frame[4], frame[5], frame[6], frame[7]]);
        let Some(body) = bytes.get(at + FRAME..at + FRAME + len) else {
            break; // a torn body: likewise
        };
        let end = at + FRAME + len;
        let entry = (crc32fast::hash(body) == crc).then(|| decode_body(body)).flatten();
        match entry {
            Some(entry) => entries.push(entry),
            None if end == bytes.len() => break,
            None => return Err(format!("its entry at byte {at} is damaged and more entries follow it")),
        }
        at = end;
    }
    Ok(entries)
}

/// The open log file.
pub struct Wal {
    file: File,
    path: PathBuf,
    /// Bytes in the file.
    len: u64,
}

impl Wal {
    /// Open (or create) the log in the database directory `dir`, returning the entries it
    /// holds.
    pub fn open(dir: &Path) -> Result<(Wal, Vec<Entry>), JournalError> {
        let path = dir.join(crate::layout::WAL_FILE);
        let fail = |e: std::io::Error| {
            JournalError::new(
                ErrorKind::Storage,
                format!("cannot open the write-ahead log `{}`: {e}", path.display()),
            )
        };
        let mut file =
            std::fs::OpenOptions::new().read(true).append(true).create(true).open(&path).map_err(fail)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(fail)?;
        let entries = decode(&bytes).map_err(|e| {
            JournalError::new(
                ErrorKind::Storage,
                format!(
                    "database `{}` is damaged: the write-ahead log `{}`: {e}",
                    dir.display(),
                    path.display()
                ),
            )
        })?;
        Ok((Wal { file, path, len: bytes.len() as u64 }, entries))
    }

    /// Append one encoded entry and make it durable.
    pub fn append(&mut self, entry: &[u8]) -> Result<(), JournalError> {
        let written = self.file.write_all(entry).and_then(|()| self.file.sync_data());
        self.len += entry.len() as u64;
        written.map_err(|e| self.error(e))
    }

    /// Bytes in the log.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Empty the log: only once everything it holds is durable elsewhere.
    pub fn clear(&mut self) -> Result<(), JournalError> {
        if self.len == 0 {
            return Ok(());
        }
        self.file.set_len(0).and_then(|()| self.file.sync_all()).map_err(|e| self.error(e))?;
        self.len = 0;
        Ok(())
    }

    fn error(&self, e: std::io::Error) -> JournalError {
        JournalError::new(
            ErrorKind::Storage,
            format!("cannot write the write-ahead log `{}`: {e}", self.path.display()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(first: u64) -> Vec<u8> {
        let records: [&[u8]; 2] = [b"one", b""];
        encode("carter", first, &[first as u8; 32], records.into_iter())
    }

    #[test]
    fn entries_round_trip() {
        let bytes = [sample(3), sample(5)].concat();
        let entries = decode(&bytes);
        let expected = |first: u64| Entry {
            session: "carter".to_string(),
            first,
            end: [first as u8; 32],
            records: vec![b"one".to_vec(), Vec::new()],
        };
        assert_eq!(entries, Ok(vec![expected(3), expected(5)]));
        assert_eq!(expected(3).end_seq(), 5);
    }

    /// Whatever bytes the file holds, reading it returns entries or an error, never panics,
    /// and never allocates more than the bytes it was given.
    #[test]
    fn hostile_bytes_are_entries_or_an_error() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let valid = [sample(3), sample(5)].concat();
        for round in 0..2_000 {
            let mut bytes = if round % 2 == 0 { valid.clone() } else { Vec::new() };
            let len = (next() % 96) as usize;
            bytes.extend((0..len).map(|_| next() as u8));
            if let Some(at) = bytes.len().checked_sub(1).map(|last| (next() as usize) % (last + 1)) {
                bytes[at] ^= next() as u8;
            }
            if let Ok(entries) = decode(&bytes) {
                let held: usize = entries.iter().flat_map(|e| &e.records).map(Vec::len).sum();
                assert!(held <= bytes.len(), "round {round}");
            }
        }
    }

    #[test]
    fn a_torn_last_entry_is_dropped_and_damage_before_the_end_is_refused() {
        let whole = [sample(3), sample(5)].concat();
        let first_len = sample(3).len();
        // Cut anywhere inside the second entry: only the first is kept.
        for cut in first_len..whole.len() {
            assert_eq!(decode(&whole[..cut]).map(|e| e.len()), Ok(1), "cut at {cut}");
        }
        // A changed byte in the last entry: a torn write, dropped.
        let mut last = whole.clone();
        last[whole.len() - 1] ^= 1;
        assert_eq!(decode(&last).map(|e| e.len()), Ok(1));
        // A changed byte in the first entry, with another after it: damage.
        for at in 4..first_len {
            let mut damaged = whole.clone();
            damaged[at] ^= 0x40;
            assert!(decode(&damaged).is_err(), "byte {at}");
        }
    }
}
