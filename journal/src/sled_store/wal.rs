//! The write-ahead log: how a single append is made durable with one write and one sync.
//!
//! Making an append durable through sled means `Db::flush`: sled hands its buffer to a
//! background thread, which writes it and waits for `sync_file_range`, and the caller then
//! needs an `fdatasync` for the write to survive a power cut. Two thread switches, two waits
//! on the disk, where a write to a plain file needs one. So an append that fits in its
//! session's last block (see `write::append_in_place`) updates sled in memory only, and is
//! acknowledged once its records are written here and this file is `fdatasync`ed. A
//! checkpoint (sled flushed, its data file synced) then starts the log afresh; `Journal::open`
//! redoes whatever it still holds, so what sled had not written out when the process died
//! comes back.
//!
//! The file is preallocated (written with zeros once) and entries are written into it in
//! place: an `fdatasync` that changes no file metadata (no new length, no new blocks) is one
//! device round trip, where appending to a file also commits the file system's journal.
//! Starting afresh does not erase anything: every entry carries a log sequence number, the
//! header names the first one that is live, and older entries left behind are ignored.
//!
//! Layout (integers big-endian):
//! - Two header slots, at 0 and `SLOT_LEN`: `MAGIC` (8 bytes) ‖ generation (u64) ‖ first
//!   live sequence number (u64) ‖ CRC-32 of those 24 bytes. A checkpoint writes the slot the
//!   current header is not in, so a torn header write leaves the other one whole; the valid
//!   slot with the higher generation is the header.
//! - Bytes `2 * SLOT_LEN..DATA_START`: zeros but for the log's identity. Logs of earlier
//!   builds kept their marks (below) in two slots there (`LEGACY_MARK_AT`), which are still
//!   read; nothing writes them any more.
//! - At `IDENTITY_AT` (its own sector): `ID_MAGIC` (8 bytes) ‖ a number drawn when the log
//!   is made (u64) ‖ CRC-32 of those 16 bytes, written once, after the first header (a log
//!   of an earlier build gets one at its first opening for writing by this one). It ties
//!   the marks in the mark file to this log (`wal_mark`).
//! - From `DATA_START`, entries back to back: `length (u32) ‖ CRC-32 of the body (u32) ‖
//!   body ‖ length ‖ CRC-32` (the trailer; logs of earlier builds, version 1 in the
//!   header's magic, have none), the body being `log sequence number (u64) ‖ name length (u16) ‖ session name ‖
//!   first record's sequence (u64) ‖ chain hash after the records (32 bytes) ‖ record count
//!   (u32) ‖ per record: length (u32) ‖ encoded record`.
//!
//! Reading stops at the first frame that is not the next live entry: zeros, an older
//! entry, or a torn write (the last one, never acknowledged). Damage must never pass for
//! that end, since acknowledged entries would then be dropped without a word, so a log is
//! refused, with one sentence saying what is wrong, when:
//! - any whole entry numbered at or past the one expected lies anywhere after the end: a
//!   damaged entry, a zeroed page or a damaged header slot (read from the older slot, the
//!   live entries look newer than expected) all leave acknowledged entries behind it;
//! - the file is shorter than a log is made (a cut file), or has no readable header slot;
//! - its first entry is zeros although entries were written before (an erased first page:
//!   the first frame always starts an entry once one was written, and a torn write puts new
//!   bytes over old ones, never zeros);
//! - the file is missing, empty or all zeros in a database that was made with it.
//!
//! Every entry ends with a trailer repeating its length and CRC, so that what happens to
//! the last entry written is told apart: a head damaged with the body and trailer whole is
//! recovered from the trailer; a body changed between a head and trailer that agree was
//! written whole and then damaged, which is refused (a write that fits in two sectors is
//! never torn with both ends on disk and its middle not; a longer one is given the benefit
//! of the doubt, as a torn write). Damage that destroys the head and the trailer of the last
//! entries alike (zeros or garbage over the end of the live log, with no whole entry after
//! it) is told apart by the mark: once an entry is synced, its number is written to the
//! mark file beside the log (`wal_mark`, `arbiter-wal-mark`: two slots, alternating, one
//! positioned write, not synced), so a mark numbering an entry that is not there says
//! acknowledged entries were lost, and the log is refused. The mark is the highest valid one
//! in the mark file and, for a log of an earlier build, in its header page; a mark below the
//! live log's first number names entries a checkpoint has already made durable in sled, and
//! means nothing. A missing or damaged mark file is no mark: nothing is refused for it.
//!
//! The mark is kept out of this file so that an append's `fdatasync` writes the entry's
//! page(s) only: a mark in the header page made every sync write a second, separate page,
//! about a third more time per append. So a live entry's mark reaches the disk by the
//! kernel's write-back (on Linux, by default, once it has been dirty for about 30 seconds)
//! or when the log is closed (`MarkFile`'s drop), no longer by the next append's sync. The
//! checkpoint (`clear`) syncs the mark file too, before it writes a new header, so that the
//! entries a torn header write would bring back to life are guarded by their marks. A
//! killed process loses no mark (it is with the kernel); a power cut or system crash loses
//! those not yet written back. What cannot be told apart from a torn last write is then
//! damage that destroys the entries appended since the mark last reached the disk (up to
//! some 30 seconds of appends before a power cut, where a mark carried by the next append's
//! sync left only the last entry open), and damage that also destroys both mark slots or
//! the whole mark file. A new log numbers its entries from 0 again, so it is made with a
//! blank mark file, and a mark counts only for the log whose identity it carries: a mark
//! file left from another log (one an earlier build, which knows nothing of the mark file,
//! made afresh beside it) is no mark for this one.
//!
//! A user who decides to open a database without its damaged log renames the log to
//! `arbiter-wal.damaged` (`DAMAGED_SUFFIX`); a new one is then made.

use super::layout::{WAL_FILE, WAL_MARK_FILE};
use super::sealed;
use super::wal_mark::{self, MarkFile};
use crate::chain::Hash;
use crate::error::{ErrorKind, JournalError};
use std::fs::File;
use std::io::{Read as _, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt as _;
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

/// The header's magic: version 2 frames carry a trailer; version 1 (earlier builds) does
/// not, and is still read.
const MAGIC: &[u8; 8] = b"arbwal\x00\x02";
const MAGIC_V1: &[u8; 8] = b"arbwal\x00\x01";
/// Bytes of a header slot's content, before its CRC.
const HEADER_BODY: usize = 24;
/// Distance between the two header slots (each in its own sector).
const SLOT_LEN: usize = 512;
/// Where logs of earlier builds kept their two mark slots, in the header page (each in its
/// own sector, after the header slots), in `wal_mark`'s encoding. Read, never written.
pub(crate) const LEGACY_MARK_AT: [usize; 2] = [2 * SLOT_LEN, 3 * SLOT_LEN];
/// Where the log's identity is (its own sector, clear of the header and legacy mark slots).
pub(crate) const IDENTITY_AT: usize = 4 * SLOT_LEN;
const ID_MAGIC: &[u8; 8] = b"arbwalid";
/// Bytes of the identity with its CRC.
const ID_LEN: usize = sealed::len(1);
/// Where entries start.
pub(crate) const DATA_START: usize = 4096;
/// Bytes before an entry's body: its length and CRC.
const FRAME: usize = 8;
/// Bytes after an entry's body: its length and CRC again, so that damage to the last
/// entry written is told from a torn write (see the module doc).
const TRAILER: usize = 8;
/// The fewest bytes a body has: number, name length, first sequence, hash, count.
const MIN_BODY: usize = 8 + 2 + 8 + 32 + 4;
/// The size of the writes a disk makes whole (a sector): a write within two of them is
/// never torn with both of its ends written and its middle not.
const SECTOR: usize = 512;
/// The log is started afresh (sled flushed and synced) once it holds this much: a
/// checkpoint every few thousand single appends costs each of them almost nothing, a log
/// this size is redone in moments when a crash leaves it full, and its preallocated file
/// stays small beside a database.
pub(crate) const CHECKPOINT_BYTES: u64 = 256 << 10;
/// Bytes of zeros written after the header when the log is made: room for the entries
/// between two checkpoints and some slack. An entry past it grows the file, which only
/// costs that write a metadata commit. A log is never shorter than this once made.
pub(crate) const PREALLOCATED: usize = CHECKPOINT_BYTES as usize + (64 << 10);
/// What a user renames a damaged log to, to open the database without it.
pub const DAMAGED_SUFFIX: &str = ".damaged";

/// What a header slot says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Header {
    generation: u64,
    /// The log sequence number of the first live entry.
    base: u64,
    /// Whether its entries carry a trailer (version 2; version 1 did not).
    trailer: bool,
}

fn encode_header(header: Header) -> [u8; HEADER_BODY + 4] {
    let mut out = [0u8; HEADER_BODY + 4];
    out[..8].copy_from_slice(MAGIC);
    out[8..16].copy_from_slice(&header.generation.to_be_bytes());
    out[16..24].copy_from_slice(&header.base.to_be_bytes());
    let crc = crc32fast::hash(&out[..HEADER_BODY]);
    out[HEADER_BODY..].copy_from_slice(&crc.to_be_bytes());
    out
}

fn decode_header(slot: &[u8]) -> Option<Header> {
    let body = slot.get(..HEADER_BODY)?;
    let crc = u32::from_be_bytes(slot.get(HEADER_BODY..HEADER_BODY + 4)?.try_into().ok()?);
    let trailer = match &body[..8] {
        magic if magic == MAGIC => true,
        magic if magic == MAGIC_V1 => false,
        _ => return None,
    };
    if crc32fast::hash(body) != crc {
        return None;
    }
    Some(Header {
        generation: u64::from_be_bytes(body[8..16].try_into().ok()?),
        base: u64::from_be_bytes(body[16..24].try_into().ok()?),
        trailer,
    })
}

/// Where the mark that counts was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MarkIn {
    /// The mark file beside the log.
    File,
    /// The header page of a log written by an earlier build.
    HeaderPage,
}

/// The highest log sequence number a readable mark says was synced, and where it is: in
/// the mark file's bytes (`sidecar`) or in the log's header page (`bytes`, earlier builds).
/// Only the mark file's marks of this log count (see `wal_mark`); the header page's are the
/// log's own.
fn mark(bytes: &[u8], sidecar: Option<&[u8]>) -> Option<(u64, MarkIn)> {
    let log = identity(bytes);
    let in_file =
        sidecar.and_then(|b| wal_mark::highest(b, &wal_mark::SLOTS, log)).map(|m| (m, MarkIn::File));
    let in_header = wal_mark::highest(bytes, &LEGACY_MARK_AT, None).map(|m| (m, MarkIn::HeaderPage));
    in_file.into_iter().chain(in_header).max_by_key(|&(m, _)| m)
}

/// The log's identity, `None` for a log without one (made by an earlier build) or a
/// damaged one: either way only untagged marks count for it, which refuses nothing a
/// tagged mark would not.
fn identity(bytes: &[u8]) -> Option<u64> {
    sealed::open::<1>(ID_MAGIC, bytes.get(IDENTITY_AT..)?).map(|[log]| log)
}

fn encode_identity(log: u64) -> [u8; ID_LEN] {
    let mut out = [0u8; ID_LEN];
    sealed::seal(ID_MAGIC, &[log], &mut out);
    out
}

/// A new log's identity: it need only differ from the logs made before it in the same
/// directory, so the clock (nanoseconds) mixed with the process id does (a log is made at
/// most once per opening, and every opening holds the database's lock).
fn new_identity() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    // SplitMix64's finaliser: nearby clock readings give unrelated numbers.
    let mut z = nanos ^ (u64::from(std::process::id()) << 32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The entry with log sequence number `lsn`, as written: frame and body.
pub fn encode<'a>(
    lsn: u64,
    session: &str,
    first: u64,
    end: &Hash,
    records: impl Iterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let mut out = vec![0u8; FRAME];
    out.extend_from_slice(&lsn.to_be_bytes());
    // Session names are at most `MAX_NAME_LEN` (far below u16::MAX) and records at most
    // `MAX_RECORD_BYTES`; both are checked before anything is logged.
    out.extend_from_slice(&(session.len() as u16).to_be_bytes());
    out.extend_from_slice(session.as_bytes());
    out.extend_from_slice(&first.to_be_bytes());
    out.extend_from_slice(end);
    let count_at = out.len();
    out.extend_from_slice(&0u32.to_be_bytes());
    let mut count = 0u32;
    for record in records {
        out.extend_from_slice(&(record.len() as u32).to_be_bytes());
        out.extend_from_slice(record);
        count += 1;
    }
    out[count_at..count_at + 4].copy_from_slice(&count.to_be_bytes());
    let body_len = (out.len() - FRAME) as u32;
    let crc = crc32fast::hash(&out[FRAME..]);
    out[..4].copy_from_slice(&body_len.to_be_bytes());
    out[4..FRAME].copy_from_slice(&crc.to_be_bytes());
    out.extend_from_slice(&body_len.to_be_bytes());
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// A body's log sequence number and fields, or `None` when it is malformed.
fn decode_body(body: &[u8]) -> Option<(u64, Entry)> {
    let mut at: usize = 0;
    let mut take = |n: usize| -> Option<&[u8]> {
        let part = body.get(at..at.checked_add(n)?)?;
        at += n;
        Some(part)
    };
    let lsn = u64::from_be_bytes(take(8)?.try_into().ok()?);
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
    (at == body.len()).then_some((lsn, Entry { session, first, end, records }))
}

/// The frame at `at`: the entry's log sequence number and fields, and where the next frame
/// starts; `None` when there is no whole, valid entry there. `trailer`: the log's frames
/// end with a trailer (whose bytes are not needed when the head and body are whole).
fn frame_at(bytes: &[u8], at: usize, trailer: bool) -> Option<(u64, Entry, usize)> {
    let frame = bytes.get(at..at.checked_add(FRAME)?)?;
    let len = u32::from_be_bytes(frame[..4].try_into().ok()?) as usize;
    let crc = u32::from_be_bytes(frame[4..].try_into().ok()?);
    let end = at.checked_add(FRAME)?.checked_add(len)?;
    let body = bytes.get(at + FRAME..end)?;
    if len == 0 || crc32fast::hash(body) != crc {
        return None;
    }
    let (lsn, entry) = decode_body(body)?;
    Some((lsn, entry, if trailer { end.checked_add(TRAILER)? } else { end }))
}

/// What is at `at`, where reading stopped, in a log whose frames have trailers: an entry
/// numbered `expected` whose head was damaged (found by its trailer: the body and trailer
/// whole), damage (a head and trailer that agree around a body that does not: the write
/// was whole, then changed), or nothing (zeros, older entries, a torn write).
fn salvage(bytes: &[u8], at: usize, expected: u64) -> Result<Option<(Entry, usize)>, String> {
    let body_start = at + FRAME;
    // A damaged head: look for a trailer giving the length from `at` and the body's CRC.
    let mut p = body_start + MIN_BODY;
    while p + TRAILER <= bytes.len() {
        // A trailer's length is never zero, so no offset whose next four bytes are zeros
        // holds one: a run of zeros (most of a log) is passed over in one go.
        if let Some(after) = past_zeros(bytes, p) {
            p = after;
            continue;
        }
        // In a log under 16 MiB a trailer's length (at least `MIN_BODY`, below the file's
        // size) starts with a zero byte and is not all zeros: eight offsets are passed over
        // at once when none of their first bytes is zero or all their lengths are, so the
        // zeros and older entries after the end of the live log cost little to look through.
        if bytes.len() < 1 << 24 {
            if let Some(word) = bytes.get(p..p + 12) {
                let first = u64::from_ne_bytes([
                    word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
                ]);
                let no_zero = first.wrapping_sub(0x0101_0101_0101_0101) & !first & 0x8080_8080_8080_8080 == 0;
                if no_zero || word.iter().all(|&b| b == 0) {
                    p += 8;
                    continue;
                }
            }
            if bytes[p] != 0 {
                p += 1;
                continue;
            }
        }
        let len = u32::from_be_bytes([bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3]]) as usize;
        if len == p - body_start {
            let crc = u32::from_be_bytes([bytes[p + 4], bytes[p + 5], bytes[p + 6], bytes[p + 7]]);
            let body = &bytes[body_start..p];
            if crc32fast::hash(body) == crc {
                if let Some((lsn, entry)) = decode_body(body).filter(|(lsn, _)| *lsn == expected) {
                    debug_assert_eq!(lsn, expected);
                    return Ok(Some((entry, p + TRAILER)));
                }
            }
        }
        p += 1;
    }
    // A damaged body between a whole head and trailer.
    let Some(head) = bytes.get(at..body_start) else { return Ok(None) };
    let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
    let end = body_start.saturating_add(len);
    let (Some(trailer), true) = (bytes.get(end..end.saturating_add(TRAILER)), len >= MIN_BODY) else {
        return Ok(None);
    };
    let changed =
        bytes.get(body_start..end).is_some_and(|body| crc32fast::hash(body).to_be_bytes() != head[4..]);
    if trailer == head && changed {
        let sectors = (end + TRAILER - 1) / SECTOR - at / SECTOR + 1;
        if sectors <= 2 {
            return Err(format!(
                "is damaged: its entry at byte {at} was written whole (its head and trailer agree) and has \
                 changed since"
            ));
        }
    }
    Ok(None)
}

/// A log read back: its header, its live entries, and where the next one goes.
#[derive(Debug)]
pub struct Contents {
    header: Header,
    pub entries: Vec<Entry>,
    /// Offset of the first byte after the live entries.
    end: usize,
}

/// Read a log's bytes (a whole file, at least `DATA_START + PREALLOCATED` bytes with a
/// valid header slot), with its mark file's bytes (`sidecar`, `None` when there is none);
/// an error says what is damaged.
pub fn read(bytes: &[u8], sidecar: Option<&[u8]>) -> Result<Contents, String> {
    if bytes.len() < DATA_START + PREALLOCATED {
        return Err(format!(
            "is cut short: it has {} bytes, where a log is made {} bytes long",
            bytes.len(),
            DATA_START + PREALLOCATED
        ));
    }
    let slots = [0, SLOT_LEN].map(|at| bytes.get(at..at + HEADER_BODY + 4).and_then(decode_header));
    let header = slots
        .into_iter()
        .flatten()
        .max_by_key(|h| h.generation)
        .ok_or("is damaged: neither of its header slots is readable")?;
    let mut entries = Vec::new();
    let mut at = DATA_START;
    let mut expected = header.base;
    loop {
        let next = match frame_at(bytes, at, header.trailer) {
            Some((lsn, entry, next)) if lsn == expected => Some((entry, next)),
            // A whole entry of another number: older ones lie past the end of the live log
            // (a later one is looked for below).
            Some(_) => None,
            None if header.trailer => salvage(bytes, at, expected)?,
            None => None,
        };
        let Some((entry, next)) = next else { break };
        entries.push(entry);
        at = next;
        expected += 1;
    }
    // The end: zeros, an entry of an earlier generation, or a torn last write. Nothing
    // acknowledged may lie past it.
    if let Some((later, lsn)) = later_entry(bytes, at, expected, header.trailer) {
        return Err(if at == DATA_START && lsn > expected {
            format!(
                "is damaged: its header names entries from {expected} on, but its first whole entry is \
                 numbered {lsn} (a header slot is damaged)"
            )
        } else {
            format!(
                "is damaged: its entries break off at byte {at}, but a whole entry (numbered {lsn}) follows \
                 at byte {later}"
            )
        });
    }
    // Entries are marked once synced (`Wal::append`): a mark at or past the end of the
    // live entries says acknowledged entries were there. Zeros or garbage over the end of
    // the live log, which look like the end of it, are told apart from it so. A mark below
    // the first live entry names entries a checkpoint made durable in sled: it is behind,
    // not damage (as the marks an earlier build left in the header page soon are).
    if let Some((marked, found)) = mark(bytes, sidecar).filter(|&(m, _)| m >= header.base && m >= expected) {
        let says = match found {
            MarkIn::File => format!("its mark file `{WAL_MARK_FILE}` says"),
            MarkIn::HeaderPage => "the mark in its header page says".to_string(),
        };
        return Err(format!(
            "is damaged: its entries break off at byte {at} after {} live ones, but {says} entries up to \
             number {marked} were written and synced ({} of them, acknowledged, are gone)",
            expected - header.base,
            marked + 1 - expected
        ));
    }
    // Once any entry was written (a header past the first names a later first entry), the
    // first frame always starts an entry, live or older: zeros there are an erased page,
    // which a torn write (new bytes over old ones) never leaves.
    if entries.is_empty() && header.base > 0 && bytes[DATA_START..DATA_START + FRAME] == [0; FRAME] {
        return Err(format!(
            "is damaged: its first entry, at byte {DATA_START}, has been erased (zeros where entries were written)"
        ));
    }
    Ok(Contents { header, entries, end: at })
}

/// The first whole entry numbered `expected` or later at any offset from `from` on, with
/// its number: live entries behind a break. Older entries (lower numbers) lie there
/// normally, left from before the last checkpoint. Every offset is tried, so zeros (most
/// of a log) are skipped eight bytes at a time and other offsets are filtered on their
/// claimed length and number before a CRC is computed.
fn later_entry(bytes: &[u8], from: usize, expected: u64, trailer: bool) -> Option<(usize, u64)> {
    let mut at = from;
    while at + FRAME + 8 <= bytes.len() {
        // An entry's length is never zero: see `past_zeros`.
        if let Some(after) = past_zeros(bytes, at) {
            at = after;
            continue;
        }
        // In a log under 16 MiB an entry's length (below the rest of the file) starts with a
        // zero byte: offsets of any other byte are passed over, eight at a time when none of
        // eight bytes is zero.
        if bytes.len() < 1 << 24 {
            if let Some(word) = bytes.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
                let word = u64::from_ne_bytes(word);
                if word.wrapping_sub(0x0101_0101_0101_0101) & !word & 0x8080_8080_8080_8080 == 0 {
                    at += 8;
                    continue;
                }
            }
            if bytes[at] != 0 {
                at += 1;
                continue;
            }
        }
        let room = bytes.len() - at - FRAME;
        let len = u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        if len >= MIN_BODY && len <= room {
            let mut number = [0u8; 8];
            number.copy_from_slice(&bytes[at + FRAME..at + FRAME + 8]);
            let lsn = u64::from_be_bytes(number);
            let name_len = u16::from_be_bytes([bytes[at + FRAME + 8], bytes[at + FRAME + 9]]) as usize;
            // Older entries hold many small big-endian numbers that pass the filters above;
            // a name of a possible length and, in a log with trailers, a trailer that repeats
            // the head keep the CRC for real candidates.
            let trailed = !trailer
                || bytes.get(at + FRAME + len..at + FRAME + len + TRAILER) == bytes.get(at..at + FRAME);
            if lsn >= expected
                && lsn - expected <= u64::from(u32::MAX)
                && (1..=crate::name::MAX_NAME_LEN).contains(&name_len)
                && trailed
            {
                if let Some((lsn, _, _)) = frame_at(bytes, at, trailer) {
                    return Some((at, lsn));
                }
            }
        }
        at += 1;
    }
    None
}

/// Where a search for a frame (an entry's head or a trailer, both starting with a length
/// that is never zero) may resume when `bytes` has a run of zeros at `at`: the first offset
/// whose four bytes are not all zeros, `None` when `at` itself may hold a frame. The zeros
/// after the live log are most of a log's bytes; they are passed over 64 bytes at a time
/// (a loop the compiler turns into vector instructions) instead of offset by offset.
fn past_zeros(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at..at + 4)? != [0; 4] {
        return None;
    }
    let mut next = at + 4;
    while let Some(chunk) = bytes.get(next..next + 64) {
        if chunk.iter().fold(0, |any, &b| any | b) != 0 {
            break;
        }
        next += 64;
    }
    let first_nonzero = next + bytes[next..].iter().position(|&b| b != 0).unwrap_or(bytes.len() - next);
    // A length may start up to three bytes before the first byte that is not zero.
    Some(first_nonzero.saturating_sub(3).max(at + 1))
}

/// A log's files in a database directory, as read by `read_files`.
#[derive(Debug, Default)]
pub struct Files {
    /// The log's bytes, `None` when there is no log file.
    pub log: Option<Vec<u8>>,
    /// The mark file's bytes, `None` when there is none or it cannot be read (no mark: see
    /// `wal_mark`).
    pub mark: Option<Vec<u8>>,
}

/// The log and its mark file in the database directory `dir`, read without changing
/// anything.
pub fn read_files(dir: &Path) -> Result<Files, JournalError> {
    let path = dir.join(WAL_FILE);
    let log = match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(JournalError::new(
                ErrorKind::Storage,
                format!("cannot read the write-ahead log `{}`: {e}", path.display()),
            ))
        }
    };
    // The mark matters only beside a log.
    let mark = log.as_ref().and_then(|_| wal_mark::read(dir));
    Ok(Files { log, mark })
}

/// A log's files as read by `read_files`, parsed once: `None` when there is no log or it is
/// blank (never written), else what `read` makes of it.
pub fn parse(files: &Files) -> Option<Result<Contents, String>> {
    files.log.as_deref().filter(|b| !is_blank(b)).map(|b| read(b, files.mark.as_deref()))
}

/// The live entries of a log read with `read_files` (`files`) and parsed (`parsed`), for a
/// read-only open. `made` says the database was made with a log, so that a missing or blank
/// one is damage; a log renamed aside as damaged (`DAMAGED_SUFFIX`) counts as none.
pub fn read_only(
    dir: &Path,
    files: &Files,
    parsed: Option<Result<Contents, String>>,
    made: bool,
) -> Result<Vec<Entry>, JournalError> {
    match (&files.log, parsed) {
        (None, _) => missing(dir, made).map(|()| Vec::new()),
        (Some(_), None) if made => Err(damaged(dir, "is empty or all zeros")),
        (Some(_), None) => Ok(Vec::new()),
        (Some(_), Some(parsed)) => parsed.map(|c| c.entries).map_err(|e| damaged(dir, &e)),
    }
}

/// Whether a log file holds nothing: never made, or its making cut short before its header
/// was written (the zeros go first).
fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == 0)
}

/// A log's contents, read with its mark file's bytes (`sidecar`), or the sentence saying
/// it is damaged.
fn contents(dir: &Path, bytes: &[u8], sidecar: Option<&[u8]>, made: bool) -> Result<Contents, JournalError> {
    if is_blank(bytes) && made {
        return Err(damaged(dir, "is empty or all zeros"));
    }
    read(bytes, sidecar).map_err(|e| damaged(dir, &e))
}

/// A missing log: fine in a database never opened, or once the user has set a damaged one
/// aside; damage otherwise.
fn missing(dir: &Path, made: bool) -> Result<(), JournalError> {
    let set_aside = dir.join(format!("{WAL_FILE}{DAMAGED_SUFFIX}")).exists();
    if made && !set_aside {
        return Err(damaged(dir, "is missing"));
    }
    Ok(())
}

/// The sentence for a damaged log, with what the user may do. `what` says what is wrong,
/// starting with its verb ("is missing", "is cut short: ...").
fn damaged(dir: &Path, what: &str) -> JournalError {
    let log = dir.join(WAL_FILE);
    JournalError::new(
        ErrorKind::Storage,
        format!(
            "database `{}` is damaged: its write-ahead log `{}` {what}. It may hold appends that were \
             acknowledged but are not in the data file yet: keep a copy of the directory; to open the \
             database without them, rename the log to `{WAL_FILE}{DAMAGED_SUFFIX}`",
            dir.display(),
            log.display(),
        ),
    )
}

/// The open log file.
pub struct Wal {
    file: File,
    path: PathBuf,
    header: Header,
    /// Where the next entry goes.
    end: usize,
    /// The log sequence number the next entry gets.
    next_lsn: u64,
    /// Where each entry's number goes once it is synced; `None` when the mark file of a
    /// log with entries could not be opened or made (see `open`).
    mark: Option<MarkFile>,
}

impl Wal {
    /// Open the log in the database directory `dir` for writing, making it if there is none
    /// (in a database never opened, or after the user set a damaged one aside), and return
    /// the live entries it holds. `made` says the database was made with a log.
    pub fn open(dir: &Path, made: bool) -> Result<(Wal, Vec<Entry>), JournalError> {
        let path = dir.join(WAL_FILE);
        let fail = |e: std::io::Error| {
            JournalError::new(
                ErrorKind::Storage,
                format!("cannot open the write-ahead log `{}`: {e}", path.display()),
            )
        };
        let mark_fail = |e: std::io::Error| {
            JournalError::new(
                ErrorKind::Storage,
                format!(
                    "cannot open the write-ahead log's mark file `{}`: {e}",
                    wal_mark::path(dir).display()
                ),
            )
        };
        let existed = path.exists();
        // A new log numbers its entries from 0: marks left from a log set aside would name
        // entries it never had, so its mark file is made blank first, before the log file
        // exists (a mark file that cannot be made then leaves no empty log behind, which a
        // later open would take for an erased one).
        let mut blank_mark = None;
        if !existed {
            missing(dir, made)?;
            blank_mark = Some(MarkFile::open(dir, true).map_err(mark_fail)?);
        }
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(fail)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(fail)?;
        if !existed || (is_blank(&bytes) && !made) {
            // A log never written (no header yet): made now, its mark file blank before its
            // header is written.
            let mark = match blank_mark {
                Some(mark) => mark,
                None => MarkFile::open(dir, true).map_err(mark_fail)?,
            };
            let header = Header { generation: 1, base: 0, trailer: true };
            let mut wal =
                Wal { file, path: path.clone(), header, end: DATA_START, next_lsn: 0, mark: Some(mark) };
            wal.make().map_err(fail)?;
            wal.identify(None).map_err(fail)?;
            return Ok((wal, Vec::new()));
        }
        let sidecar = wal_mark::read(dir);
        let read = contents(dir, &bytes, sidecar.as_deref(), made)?;
        // Checked against its marks first; a missing or short mark file is made again here.
        // One that cannot be (a full disk, no permission) costs the marks of this opening's
        // appends, as a failed mark write does, never the log: its entries are not at risk
        // for it, and the next opening tries again.
        let mark = MarkFile::open(dir, false).ok();
        let next_lsn = read.header.base + read.entries.len() as u64;
        let mut wal = Wal { file, path: path.clone(), header: read.header, end: read.end, next_lsn, mark };
        match identity(&bytes) {
            Some(log) => {
                if let Some(mark) = wal.mark.as_mut() {
                    mark.tag(log);
                }
            }
            None => {
                // A log of an earlier build: its untagged marks still guard its live
                // entries, so the highest is carried over, tagged, before it gets its identity.
                let untagged = sidecar.and_then(|b| wal_mark::highest(&b, &wal_mark::SLOTS, None));
                wal.identify(untagged.filter(|&m| m >= read.header.base)).map_err(fail)?;
            }
        }
        if !read.header.trailer && read.entries.is_empty() {
            // A log of an earlier build, with nothing live: new entries have trailers, so
            // the header says so before any is written. (One with live entries gets its new
            // header at the checkpoint after they are redone.)
            let header = Header { generation: wal.header.generation + 1, base: next_lsn, trailer: true };
            wal.write_header(header).map_err(fail)?;
            (wal.header, wal.end) = (header, DATA_START);
        }
        Ok((wal, read.entries))
    }

    /// Preallocate the file with zeros, then write its first header, each made durable.
    /// The file's name in its directory is made durable too (the directory synced): a log
    /// whose name a power cut could take away would take its entries with it.
    fn make(&mut self) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&vec![0u8; DATA_START + PREALLOCATED])?;
        self.file.sync_all()?;
        if let Some(dir) = self.path.parent() {
            File::open(dir)?.sync_all()?;
        }
        self.write_header(self.header)
    }

    /// Give the log an identity and tag the marks written from now on with it. `carried`:
    /// the number of an untagged mark that guards live entries of a log of an earlier
    /// build, written again tagged and synced first, into the slot its untagged mark is not
    /// in: until the identity is durable the untagged mark counts, after it the tagged one.
    /// The identity is written into its own sector and synced before any append.
    fn identify(&mut self, carried: Option<u64>) -> std::io::Result<()> {
        let log = new_identity();
        if let Some(mark) = self.mark.as_mut() {
            mark.tag(log);
            if let Some(lsn) = carried {
                mark.carry(lsn);
                // A mark file that cannot be synced costs the guard, never the log (as a
                // failed mark write does).
                let _ = mark.sync();
            }
        }
        self.file.write_all_at(&encode_identity(log), IDENTITY_AT as u64)?;
        self.file.sync_data()
    }

    fn write_header(&mut self, header: Header) -> std::io::Result<()> {
        let slot = (header.generation % 2) as usize * SLOT_LEN;
        self.file.write_all_at(&encode_header(header), slot as u64)?;
        self.file.sync_data()
    }

    /// Log one append and make it durable.
    pub fn append<'a>(
        &mut self,
        session: &str,
        first: u64,
        end: &Hash,
        records: impl Iterator<Item = &'a [u8]>,
    ) -> Result<(), JournalError> {
        let entry = encode(self.next_lsn, session, first, end, records);
        // One positioned write (no seek first: a system call less per acknowledged append).
        let written = self.file.write_all_at(&entry, self.end as u64).and_then(|()| self.file.sync_data());
        written.map_err(|e| self.error(e))?;
        // The mark: this entry is synced. It is written after the sync, so it never runs
        // ahead of a durable entry, into the mark file and not synced, so this log's next
        // sync writes only its own pages (see the module doc): it reaches the disk by the
        // kernel's write-back, the checkpoint or the log's close; a process killed after
        // this write leaves it with the kernel. An entry's loss is then detected by `read`
        // even when the damage looks like the end of the log. A failed mark write loses no
        // entry (this one is synced), only the means to notice its later loss: the append is
        // acknowledged all the same.
        if let Some(mark) = self.mark.as_mut() {
            mark.write(self.next_lsn);
        }
        self.end += entry.len();
        self.next_lsn += 1;
        Ok(())
    }

    /// Bytes of live entries.
    pub fn len(&self) -> u64 {
        (self.end - DATA_START) as u64
    }

    /// Start the log afresh: only once everything it holds is durable elsewhere. The
    /// entries stay in the file, behind the new header's first live sequence number.
    pub fn clear(&mut self) -> Result<(), JournalError> {
        if self.next_lsn == self.header.base {
            return Ok(());
        }
        // The marks first: should the new header's write be torn, the log is read from the
        // older header slot, these entries are live again, and their marks on disk guard
        // them. (Once the new header is durable, the marks name entries below its first one,
        // which mean nothing.) A mark file that cannot be synced costs only that guard (as a failed
        // mark write does): the checkpoint goes on.
        if let Some(mark) = self.mark.as_mut() {
            let _ = mark.sync();
        }
        let header = Header { generation: self.header.generation + 1, base: self.next_lsn, trailer: true };
        self.write_header(header).map_err(|e| self.error(e))?;
        self.header = header;
        self.end = DATA_START;
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

    /// A log file's bytes: a header, then entries with the given sequence numbers, then
    /// zeros.
    fn file(header: Header, lsns: &[u64]) -> Vec<u8> {
        let mut bytes = vec![0u8; DATA_START];
        let slot = (header.generation % 2) as usize * SLOT_LEN;
        bytes[slot..slot + HEADER_BODY + 4].copy_from_slice(&encode_header(header));
        for &lsn in lsns {
            bytes.extend(sample(lsn));
        }
        bytes.resize(DATA_START + PREALLOCATED, 0);
        bytes
    }

    /// `bytes` with entries `lsns` written from `DATA_START` on, as appends after a
    /// checkpoint overwrite older ones in place.
    fn overwrite(mut bytes: Vec<u8>, lsns: &[u64]) -> Vec<u8> {
        let mut at = DATA_START;
        for &lsn in lsns {
            let entry = sample(lsn);
            bytes[at..at + entry.len()].copy_from_slice(&entry);
            at += entry.len();
        }
        bytes
    }

    fn sample(lsn: u64) -> Vec<u8> {
        let records: [&[u8]; 2] = [b"one", b""];
        encode(lsn, "carter", lsn * 2, &[lsn as u8; 32], records.into_iter())
    }

    fn firsts(read: &Contents) -> Vec<u64> {
        read.entries.iter().map(|e| e.first).collect()
    }

    #[test]
    fn a_run_of_zeros_is_passed_over_only_where_no_frame_can_start() {
        // Zeros with a few non-zero bytes at every alignment and near both ends.
        let mut bytes = vec![0u8; 1000];
        for at in [0, 5, 70, 71, 200, 333, 334, 335, 700, 998, 999] {
            bytes[at] = 1;
        }
        for at in 0..bytes.len() {
            let four_zeros = bytes.get(at..at + 4) == Some(&[0u8; 4][..]);
            match past_zeros(&bytes, at) {
                None => assert!(!four_zeros, "at {at}: a run of zeros was not passed over"),
                Some(after) => {
                    assert!(four_zeros && after > at, "at {at}: passed over to {after}");
                    // Every offset passed over reads a length of zero (or runs off the end),
                    // and the first one after them does not.
                    for skipped in at..after.min(bytes.len()) {
                        assert!(
                            bytes.get(skipped..skipped + 4).is_none_or(|b| b == [0; 4]),
                            "{at}: {skipped}"
                        );
                    }
                    assert!(bytes.get(after..after + 4).is_none_or(|b| b != [0; 4]), "{at}: {after}");
                }
            }
        }
    }

    #[test]
    fn a_whole_entry_far_behind_the_end_is_found_at_any_alignment() {
        let whole = file(Header { generation: 1, base: 0, trailer: true }, &[0, 1]);
        for far in (DATA_START + 100_000..DATA_START + 100_009).chain([DATA_START + PREALLOCATED - 200]) {
            let mut bytes = whole.clone();
            let later = sample(5);
            bytes[far..far + later.len()].copy_from_slice(&later);
            let error = read(&bytes, None).expect_err("an entry past the end must be refused");
            assert!(error.contains(&format!("numbered 5) follows at byte {far}")), "{error}");
        }
    }

    #[test]
    fn live_entries_are_read_and_older_ones_ignored() -> Result<(), String> {
        let read = read(&file(Header { generation: 3, base: 7, trailer: true }, &[7, 8, 9]), None)?;
        assert_eq!(firsts(&read), [14, 16, 18]);
        assert_eq!(read.entries[0].records, [b"one".to_vec(), Vec::new()]);
        assert_eq!(read.entries[0].end_seq(), 16);
        // After a checkpoint at 9, entries 7 and 8 are history even where they still lie.
        let mut bytes = file(Header { generation: 3, base: 7, trailer: true }, &[7, 8, 9]);
        let newer = encode_header(Header { generation: 4, base: 10, trailer: true });
        bytes[..newer.len()].copy_from_slice(&newer);
        assert_eq!(firsts(&super::read(&bytes, None)?), Vec::<u64>::new());
        // A torn write of the newer header: the other slot still says where the log starts.
        bytes[3] ^= 0xff;
        assert_eq!(firsts(&super::read(&bytes, None)?), [14, 16, 18]);
        Ok(())
    }

    #[test]
    fn a_torn_last_entry_ends_the_log_and_damage_before_another_entry_is_refused() {
        let whole = file(Header { generation: 1, base: 0, trailer: true }, &[0, 1]);
        let second = DATA_START + sample(0).len();
        // The second entry cut anywhere before its trailer (zeros where its write did not
        // reach): dropped. (Cut in the trailer, its head and body are whole: it is read.)
        for cut in second..second + sample(1).len() - TRAILER {
            let mut torn = whole.clone();
            torn[cut..].iter_mut().for_each(|b| *b = 0);
            let body_end = second + sample(1).len() - TRAILER;
            if torn[..body_end] == whole[..body_end] {
                continue; // only zeros were cut: the entry is whole
            }
            assert_eq!(read(&torn, None).map(|r| r.entries.len()), Ok(1), "cut at {cut}");
        }
        // A changed byte in the first entry's head: recovered from its trailer. In its body,
        // with the second after it: damage. In its trailer: not needed, read as it is.
        for at in DATA_START..second {
            let mut damaged = whole.clone();
            damaged[at] ^= 0x40;
            let read = read(&damaged, None).map(|r| r.entries.len());
            if at < DATA_START + FRAME || at >= second - TRAILER {
                assert_eq!(read, Ok(2), "byte {at}");
            } else {
                assert!(read.is_err(), "byte {at}");
            }
        }
        // A changed byte in the last entry's body, its head and trailer whole: damage, not a
        // torn write. In its head: recovered.
        for at in second..second + sample(1).len() - TRAILER {
            let mut damaged = whole.clone();
            damaged[at] ^= 0x40;
            let read = read(&damaged, None).map(|r| r.entries.len());
            if at < second + FRAME {
                assert_eq!(read, Ok(2), "byte {at}");
            } else {
                assert!(read.as_ref().is_err_and(|e| e.contains("written whole")), "byte {at}: {read:?}");
            }
        }
    }

    #[test]
    fn a_damaged_header_slot_a_zeroed_page_or_a_cut_file_is_refused_never_read_as_empty() {
        // Entries 7..10, checkpointed at 10 (header generation 4 in slot 0), then 10 and 11
        // appended over the old ones.
        let mut bytes = file(Header { generation: 3, base: 7, trailer: true }, &[7, 8, 9]);
        bytes[..HEADER_BODY + 4].copy_from_slice(&encode_header(Header {
            generation: 4,
            base: 10,
            trailer: true,
        }));
        let live = overwrite(bytes, &[10, 11]);
        assert_eq!(read(&live, None).map(|r| firsts(&r)), Ok(vec![20, 22]));
        // The current slot damaged: the older one names entry 7 first, but entry 10 is there.
        let mut slot = live.clone();
        slot[9] ^= 1;
        let err = read(&slot, None).err().unwrap_or_default();
        assert!(err.contains("header slot is damaged"), "{err}");
        // The first entry page zeroed, the second entry (crossing into the next page) intact.
        let mut many = file(Header { generation: 1, base: 0, trailer: true }, &(0..120).collect::<Vec<_>>());
        many[DATA_START..2 * DATA_START].iter_mut().for_each(|b| *b = 0);
        let err = read(&many, None).err().unwrap_or_default();
        assert!(err.contains("whole entry"), "{err}");
        // Every live entry in the first page, and that page zeroed: not an empty log.
        let mut erased = live.clone();
        erased[DATA_START..2 * DATA_START].iter_mut().for_each(|b| *b = 0);
        let err = read(&erased, None).err().unwrap_or_default();
        assert!(err.contains("erased"), "{err}");
        // A new log never written to is all zeros there, and empty.
        assert_eq!(
            read(&file(Header { generation: 1, base: 0, trailer: true }, &[]), None).map(|r| r.entries.len()),
            Ok(0)
        );
        // Cut anywhere below its made length: refused, whatever survived.
        for len in [0, 100, 2101, DATA_START, DATA_START + 50, live.len() - 1] {
            let err = read(&live[..len], None).err().unwrap_or_default();
            assert!(err.contains("cut short"), "{len}: {err}");
        }
        // With no live entry, a damaged current slot is harmless: nothing is behind it.
        let mut idle = file(Header { generation: 3, base: 7, trailer: true }, &[7, 8, 9]);
        idle[..HEADER_BODY + 4].copy_from_slice(&encode_header(Header {
            generation: 4,
            base: 10,
            trailer: true,
        }));
        idle[9] ^= 1;
        assert!(read(&idle, None).is_ok());
    }

    /// A directory with a new log holding `entries` appends of one record each, closed.
    fn new_log(entries: u64) -> Result<tempfile::TempDir, Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let (mut wal, _) = Wal::open(dir.path(), false)?;
        let records: [&[u8]; 1] = [b"r"];
        for i in 0..entries {
            wal.append("s", i, &[1; 32], records.into_iter())?;
        }
        Ok(dir)
    }

    #[test]
    fn a_missing_or_blank_log_is_damage_once_the_database_was_made_with_one(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = new_log(1)?;
        let records: [&[u8]; 1] = [b"r"];
        let log = dir.path().join(WAL_FILE);
        let whole = std::fs::read(&log)?;
        for (what, bytes) in [("zeroed", vec![0u8; whole.len()]), ("empty", Vec::new())] {
            std::fs::write(&log, &bytes)?;
            let err = Wal::open(dir.path(), true).err().ok_or(what)?;
            assert!(err.message().contains("all zeros"), "{what}: {err}");
            let files = Files { log: Some(bytes.clone()), mark: None };
            assert!(read_only(dir.path(), &files, parse(&files), true).is_err(), "{what}");
        }
        std::fs::remove_file(&log)?;
        let err = Wal::open(dir.path(), true).err().ok_or("missing")?;
        assert!(err.message().contains("is missing") && err.message().contains(DAMAGED_SUFFIX), "{err}");
        assert!(!log.exists(), "a refused open makes nothing");
        // Set aside by the user: a new log is made.
        std::fs::write(dir.path().join(format!("{WAL_FILE}{DAMAGED_SUFFIX}")), &whole)?;
        let files = read_files(dir.path())?;
        assert!(read_only(dir.path(), &files, parse(&files), true)?.is_empty());
        let (wal, entries) = Wal::open(dir.path(), true)?;
        assert!(entries.is_empty() && log.exists());
        // The new log numbers its entries from 0 again, and the mark of the one set aside
        // (entry 0) is gone with it: the new log, with nothing in it, is not refused for it.
        assert_eq!(marks_of(dir.path()), None);
        drop(wal);
        let (mut wal, _) = Wal::open(dir.path(), true)?;
        wal.append("s", 0, &[1; 32], records.into_iter())?;
        drop(wal);
        assert_eq!(Wal::open(dir.path(), true)?.1.len(), 1);
        Ok(())
    }

    /// Whatever bytes the file holds, reading it returns entries or an error, never panics,
    /// and never holds more record bytes than it was given.
    #[test]
    fn hostile_bytes_are_entries_or_an_error() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let valid = file(Header { generation: 1, base: 0, trailer: true }, &[0, 1]);
        for round in 0..2_000 {
            // Whole-size files are read through to their end (slow in a debug build), so
            // one round in ten.
            let mut bytes = match round % 20 {
                0 => valid.clone(),
                1 => vec![0u8; DATA_START + PREALLOCATED],
                _ => vec![0u8; (next() % 5000) as usize],
            };
            let len = (next() % 96) as usize;
            bytes.extend((0..len).map(|_| next() as u8));
            for _ in 0..3 {
                if let Some(last) = bytes.len().checked_sub(1) {
                    let at = (next() as usize) % (last + 1);
                    bytes[at] ^= next() as u8;
                }
            }
            if let Ok(read) = read(&bytes, None) {
                let held: usize = read.entries.iter().flat_map(|e| &e.records).map(Vec::len).sum();
                assert!(held <= bytes.len(), "round {round}");
            }
        }
    }

    /// Zeros over the end of the live log look like its end; the mark tells the loss of
    /// synced (acknowledged) entries apart, wherever the zeros start, down to the last entry.
    #[test]
    fn zeros_over_the_end_of_the_live_log_are_refused_once_the_entries_were_synced(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let (mut wal, _) = Wal::open(dir.path(), false)?;
        let header_page = std::fs::read(dir.path().join(WAL_FILE))?[..DATA_START].to_vec();
        let records: [&[u8]; 1] = [b"a record of some length"];
        for i in 0..60u64 {
            wal.append("s", i, &[i as u8; 32], records.into_iter())?;
        }
        let end = wal.end;
        drop(wal);
        let whole = std::fs::read(dir.path().join(WAL_FILE))?;
        // The marks went to the mark file: the log's header page is as it was made.
        assert!(whole[..DATA_START] == header_page[..], "an append wrote the log's header page");
        let marks = wal_mark::read(dir.path()).ok_or("no mark file")?;
        assert_eq!(marks_of(dir.path()), Some(59));
        assert_eq!(read(&whole, Some(&marks)).map(|r| r.entries.len()), Ok(60));
        let one = sample(0).len();
        for start in [DATA_START + 1, DATA_START + 1254, end - 4096, end - one + 3, end - 9] {
            let mut zeroed = whole.clone();
            zeroed[start..(start + 4096).max(end)].iter_mut().for_each(|b| *b = 0);
            let err = read(&zeroed, Some(&marks)).err().unwrap_or_default();
            assert!(
                err.contains("written and synced")
                    && err.contains("acknowledged, are gone")
                    && err.contains(&format!("mark file `{WAL_MARK_FILE}`")),
                "{start}: {err}"
            );
            // Without its marks (a mark file lost with them) the same bytes read as a log
            // that ends there: what the mark is for.
            assert!(read(&zeroed, None).is_ok(), "{start}");
        }
        // After a checkpoint the marks name entries that are no longer live: nothing is lost.
        let (mut wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.len(), 60);
        wal.clear()?;
        drop(wal);
        let (_, entries) = Wal::open(dir.path(), true)?;
        assert!(entries.is_empty());
        Ok(())
    }

    /// The mark file's bytes with entry `lsn`'s mark, tagged with the identity of the log
    /// in `dir`, in its slot, the other slot blank.
    fn marked(dir: &Path, lsn: u64) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
        let log = identity(&std::fs::read(dir.join(WAL_FILE))?).ok_or("a log without an identity")?;
        let mut bytes = vec![0u8; wal_mark::LEN];
        let at = wal_mark::SLOTS[(lsn % 2) as usize];
        bytes[at..at + wal_mark::TAGGED_LEN].copy_from_slice(&wal_mark::encode(log, lsn));
        Ok(bytes)
    }

    /// A mark file as an earlier build wrote it: entry `lsn`'s untagged mark in its slot.
    fn untagged(lsn: u64) -> Vec<u8> {
        let mut bytes = vec![0u8; wal_mark::LEN];
        let at = wal_mark::SLOTS[(lsn % 2) as usize];
        bytes[at..at + wal_mark::MARK_LEN].copy_from_slice(&wal_mark::encode_untagged(lsn));
        bytes
    }

    /// The highest mark in the mark file in `dir` that counts for the log there.
    fn marks_of(dir: &Path) -> Option<u64> {
        let log = identity(&std::fs::read(dir.join(WAL_FILE)).ok()?);
        wal_mark::read(dir).and_then(|b| wal_mark::highest(&b, &wal_mark::SLOTS, log))
    }

    #[test]
    fn a_mark_past_the_end_of_the_live_log_refuses_it_naming_the_mark_file(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = new_log(3)?;
        // Entries 0..3 are live; the mark says 7 was synced: 3 to 7 are gone.
        std::fs::write(wal_mark::path(dir.path()), marked(dir.path(), 7)?)?;
        let err = Wal::open(dir.path(), true).err().ok_or("opened a log short of its mark")?;
        let message = err.message();
        assert!(
            message.contains(&format!("its mark file `{WAL_MARK_FILE}` says entries up to number 7"))
                && message.contains("(5 of them, acknowledged, are gone)")
                && message.contains(DAMAGED_SUFFIX),
            "{err}"
        );
        let files = read_files(dir.path())?;
        assert!(read_only(dir.path(), &files, parse(&files), true).is_err(), "read-only read it");
        // The mark of the last live entry, or one behind it: the log opens.
        for lsn in [2, 1] {
            std::fs::write(wal_mark::path(dir.path()), marked(dir.path(), lsn)?)?;
            assert_eq!(Wal::open(dir.path(), true)?.1.len(), 3, "mark {lsn}");
        }
        Ok(())
    }

    #[test]
    fn a_missing_short_or_damaged_mark_file_is_no_mark_and_is_made_again(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = new_log(1)?;
        let records: [&[u8]; 1] = [b"r"];
        let mark_file = wal_mark::path(dir.path());
        let mut damaged = std::fs::read(&mark_file)?;
        for at in wal_mark::SLOTS {
            damaged[at + 5] ^= 0x21;
        }
        let short = std::fs::read(&mark_file)?[..12].to_vec();
        let cases = [("missing", None), ("short", Some(short)), ("damaged", Some(damaged))];
        for (round, (what, bytes)) in (0u64..).zip(cases) {
            match &bytes {
                None => std::fs::remove_file(&mark_file)?,
                Some(bytes) => std::fs::write(&mark_file, bytes)?,
            }
            let files = read_files(dir.path())?;
            assert_eq!(read_only(dir.path(), &files, parse(&files), true)?.len(), 1, "{what}");
            assert_eq!(std::fs::read(&mark_file).ok(), bytes, "{what}: a read-only read wrote it");
            let (mut wal, entries) = Wal::open(dir.path(), true)?;
            assert_eq!(entries.len(), 1, "{what}");
            assert_eq!(std::fs::metadata(&mark_file)?.len(), wal_mark::LEN as u64, "{what}: made again");
            // The next append marks it again.
            wal.append("s", 1, &[2; 32], records.into_iter())?;
            drop(wal);
            assert_eq!(marks_of(dir.path()), Some(2 * round + 1), "{what}");
            // Back to one live entry for the next case.
            let (mut wal, _) = Wal::open(dir.path(), true)?;
            wal.clear()?;
            wal.append("s", 2, &[3; 32], records.into_iter())?;
        }
        Ok(())
    }

    #[test]
    fn a_mark_file_that_cannot_be_opened_costs_the_marks_not_the_log(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = new_log(1)?;
        let records: [&[u8]; 1] = [b"r"];
        // A directory where the mark file should be: it can be neither read nor written.
        let mark_file = wal_mark::path(dir.path());
        std::fs::remove_file(&mark_file)?;
        std::fs::create_dir(&mark_file)?;
        let (mut wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.len(), 1);
        wal.append("s", 1, &[2; 32], records.into_iter())?;
        wal.clear()?;
        drop(wal);
        assert!(Wal::open(dir.path(), true)?.1.is_empty());
        // A new log, though, must start with a blank mark file: it is refused without one.
        std::fs::rename(dir.path().join(WAL_FILE), dir.path().join(format!("{WAL_FILE}{DAMAGED_SUFFIX}")))?;
        let err = Wal::open(dir.path(), true).err().ok_or("made a log without a mark file")?;
        assert!(err.message().contains("mark file"), "{err}");
        assert!(!dir.path().join(WAL_FILE).exists(), "an empty log was left behind");
        std::fs::remove_dir(&mark_file)?;
        assert!(Wal::open(dir.path(), true)?.1.is_empty());
        Ok(())
    }

    #[test]
    fn appends_after_a_reopen_keep_marking() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let records: [&[u8]; 1] = [b"r"];
        for round in 0..3u64 {
            let (mut wal, entries) = Wal::open(dir.path(), round > 0)?;
            assert_eq!(entries.len() as u64, 2 * round);
            for i in 2 * round..2 * round + 2 {
                wal.append("s", i, &[1; 32], records.into_iter())?;
            }
        }
        let marks = wal_mark::read(dir.path()).ok_or("no mark file")?;
        assert_eq!(marks_of(dir.path()), Some(5));
        // The last entry zeroed: refused, by the mark the third opening's appends wrote.
        let mut log = std::fs::read(dir.path().join(WAL_FILE))?;
        let entry_len = encode(5, "s", 5, &[1; 32], records.into_iter()).len();
        let end = DATA_START + 6 * entry_len;
        assert_eq!(read(&log, Some(&marks)).map(|r| (r.entries.len(), r.end)), Ok((6, end)));
        log[end - entry_len..end].iter_mut().for_each(|b| *b = 0);
        let err = read(&log, Some(&marks)).err().unwrap_or_default();
        assert!(err.contains("(1 of them, acknowledged, are gone)"), "{err}");
        Ok(())
    }

    /// An earlier build that makes a log afresh (after the user set a damaged one aside)
    /// leaves the mark file as it is: the marks there name the log set aside, whose
    /// identity they carry, and do not refuse the new one, which this build then marks.
    #[test]
    fn a_mark_file_left_from_another_log_is_no_mark_for_this_one() -> Result<(), Box<dyn std::error::Error>> {
        let dir = new_log(5)?;
        let records: [&[u8]; 1] = [b"r"];
        let stale = wal_mark::read(dir.path()).ok_or("no mark file")?;
        let set_aside = identity(&std::fs::read(dir.path().join(WAL_FILE))?).ok_or("no identity")?;
        assert_eq!(marks_of(dir.path()), Some(4));
        // The new log, as an earlier build makes it: no identity, one entry.
        let remade = file(Header { generation: 1, base: 0, trailer: true }, &[0]);
        assert_eq!(read(&remade, Some(&stale)).map(|r| r.entries.len()), Ok(1));
        std::fs::write(dir.path().join(WAL_FILE), &remade)?;
        let files = read_files(dir.path())?;
        assert_eq!(read_only(dir.path(), &files, parse(&files), true)?.len(), 1);
        // Opened for writing: it gets an identity of its own, and its appends are marked.
        let (mut wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.len(), 1);
        wal.append("s", 1, &[2; 32], records.into_iter())?;
        drop(wal);
        let log = std::fs::read(dir.path().join(WAL_FILE))?;
        assert!(identity(&log).is_some_and(|id| id != set_aside), "no identity of its own");
        assert_eq!(marks_of(dir.path()), Some(1));
        // The stale file written back: still no mark for it (another log's identity).
        let mut lost = log.clone();
        let second = DATA_START + sample(0).len();
        let end = second + encode(1, "s", 1, &[2; 32], records.into_iter()).len();
        lost[second..end].iter_mut().for_each(|b| *b = 0);
        assert!(read(&lost, Some(&stale)).is_ok(), "refused for another log's marks");
        let err = read(&lost, wal_mark::read(dir.path()).as_deref()).err().unwrap_or_default();
        assert!(err.contains("(1 of them, acknowledged, are gone)"), "{err}");
        Ok(())
    }

    /// A log of a build before the identity has untagged marks in its mark file: they still
    /// guard it, and at its first opening for writing the guard is carried over, tagged.
    #[test]
    fn untagged_marks_guard_a_log_without_an_identity_until_it_gets_one(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let old = file(Header { generation: 1, base: 0, trailer: true }, &[0, 1, 2]);
        std::fs::write(dir.path().join(WAL_FILE), &old)?;
        std::fs::write(wal_mark::path(dir.path()), untagged(7))?;
        let err = Wal::open(dir.path(), true).err().ok_or("opened a log short of its mark")?;
        assert!(err.message().contains("says entries up to number 7"), "{err}");
        std::fs::write(wal_mark::path(dir.path()), untagged(2))?;
        let (wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.len(), 3);
        drop(wal);
        let mut log = std::fs::read(dir.path().join(WAL_FILE))?;
        assert!(identity(&log).is_some(), "no identity");
        assert_eq!(marks_of(dir.path()), Some(2), "the guard was not carried over");
        // The last entry zeroed: refused by the carried mark.
        let third = DATA_START + 2 * sample(0).len();
        log[third..third + sample(2).len()].iter_mut().for_each(|b| *b = 0);
        let err = read(&log, wal_mark::read(dir.path()).as_deref()).err().unwrap_or_default();
        assert!(err.contains("(1 of them, acknowledged, are gone)"), "{err}");
        Ok(())
    }

    /// Logs of earlier builds hold their marks in the header page: still read, so such a
    /// database keeps its guard, and never refused for a mark that is merely behind.
    #[test]
    fn a_log_of_an_earlier_build_is_checked_against_the_marks_in_its_header_page(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let mut old = file(Header { generation: 1, base: 0, trailer: true }, &[0, 1, 2]);
        for lsn in [1, 2] {
            let at = LEGACY_MARK_AT[(lsn % 2) as usize];
            old[at..at + wal_mark::MARK_LEN].copy_from_slice(&wal_mark::encode_untagged(lsn));
        }
        assert_eq!(read(&old, None).map(|r| r.entries.len()), Ok(3));
        // The last entry zeroed: refused by the header page's mark, with or without a mark
        // file (whose lower mark does not hide it).
        let third = DATA_START + 2 * sample(0).len();
        let mut lost = old.clone();
        lost[third..third + sample(2).len()].iter_mut().for_each(|b| *b = 0);
        for sidecar in [None, Some(untagged(1))] {
            let err = read(&lost, sidecar.as_deref()).err().unwrap_or_default();
            assert!(err.contains("the mark in its header page says entries up to number 2"), "{err}");
        }
        // Opened by this build (no mark file yet): its entries are read, a mark file made,
        // and new appends marked there; the header page's marks fall behind and stay there.
        let dir = tempfile::tempdir()?;
        std::fs::write(dir.path().join(WAL_FILE), &old)?;
        let (mut wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.len(), 3);
        let records: [&[u8]; 1] = [b"r"];
        wal.append("s", 6, &[3; 32], records.into_iter())?;
        drop(wal);
        // The header page was not written, but for the identity the log got.
        let mut log = std::fs::read(dir.path().join(WAL_FILE))?;
        assert!(identity(&log).is_some(), "no identity");
        log[IDENTITY_AT..IDENTITY_AT + ID_LEN].iter_mut().for_each(|b| *b = 0);
        assert!(log[..DATA_START] == old[..DATA_START], "the header page was written");
        assert_eq!(marks_of(dir.path()), Some(3));
        // Checkpointed: the header page's mark (2) is below the live base (4), and means
        // nothing; appends over the old entries are read and guarded by the mark file.
        let (mut wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.len(), 4);
        wal.clear()?;
        wal.append("s", 7, &[4; 32], records.into_iter())?;
        drop(wal);
        let (_, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.iter().map(|e| e.first).collect::<Vec<_>>(), [7]);
        let mut log = std::fs::read(dir.path().join(WAL_FILE))?;
        log[DATA_START..DATA_START + 60].iter_mut().for_each(|b| *b = 0);
        let marks = wal_mark::read(dir.path()).ok_or("no mark file")?;
        let err = read(&log, Some(&marks)).err().unwrap_or_default();
        assert!(err.contains(&format!("mark file `{WAL_MARK_FILE}` says entries up to number 4")), "{err}");
        Ok(())
    }

    #[test]
    fn appends_are_written_in_place_and_a_fresh_start_keeps_nothing_live(
    ) -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let (mut wal, entries) = Wal::open(dir.path(), false)?;
        assert!(entries.is_empty());
        let size = std::fs::metadata(dir.path().join(WAL_FILE))?.len();
        let records: [&[u8]; 1] = [b"r"];
        wal.append("s", 0, &[1; 32], records.into_iter())?;
        wal.append("s", 1, &[2; 32], records.into_iter())?;
        drop(wal);
        // Written into the preallocated space: the file did not grow.
        assert_eq!(std::fs::metadata(dir.path().join(WAL_FILE))?.len(), size);
        let (mut wal, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.iter().map(|e| e.first).collect::<Vec<_>>(), [0, 1]);
        wal.clear()?;
        wal.append("s", 2, &[3; 32], records.into_iter())?;
        drop(wal);
        let (_, entries) = Wal::open(dir.path(), true)?;
        assert_eq!(entries.iter().map(|e| e.first).collect::<Vec<_>>(), [2]);
        Ok(())
    }
}
