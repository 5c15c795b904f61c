//! Blocks: how records are packed into sled values.
//!
//! One sled value per record would make a full scan pay sled's per-key cost for every
//! event; a block holds up to `BLOCK_RECORDS` consecutive records of one session (fewer
//! when they pass `BLOCK_BYTES`, so large records do not make huge values), so scans
//! and batched appends pay it once per block. Only the last block of a session (its tail)
//! ever changes, and only by having records added after the ones it holds, inside the same
//! transaction that checks the session's length: a stored record is never rewritten.
//!
//! Game logs repeat themselves (`up 1`, `down 2`, `stop` come back every round), and sled
//! keeps about twice the live bytes on disk, so a record equal to an earlier one in the same
//! block is stored as a reference to it. Each record keeps its own chain tag either way.
//!
//! Blocks are also compressed (raw DEFLATE, `miniz_oxide`, pure Rust): game events are
//! small integers from small alphabets, which entropy coding shrinks where repeats alone do
//! not, and sled keeps about twice the live bytes, so every byte saved counts twice. Not
//! every write compresses: a block is stored compressed when it is sealed (full: no record
//! will be added to it) or written by an append that carries at least `COMPRESS_BATCH`
//! records (imports, batched loads, which share the cost), and only when that is smaller. A
//! single append to a compressed tail inflates it and writes it back plain, so the appends
//! after it pay neither inflating nor deflating until the block is sealed.
//!
//! Layout of a block (integers big-endian, except the LEB128 varints):
//!
//! | bytes | content |
//! | --- | --- |
//! | 1 | format, `BLOCK_FORMAT` |
//! | 8 | sequence number of the first record (the same as in the key, so a moved block shows) |
//! | 32 | chain hash before the first record |
//! | 4 | number of records (u32) |
//! | 32 | chain hash after the last record (the hash before the first, for an empty block) |
//! | 1 | body kind: `PLAIN` (0) or `DEFLATED` (1) |
//! | plain body, per record | a varint `r`; if `r = 0` a new record follows as a varint length and its encoded bytes, else the record is the same as the block's `r`-th new record; then `TAG_LEN` bytes of the record's chain link |
//! | deflated body | `CHECK_LEN` bytes of SHA-256 of what follows them; a varint, the number of records `n`; a varint, the length of the plain body without its tags; the `n` tags (`TAG_LEN` bytes each, raw: they are random); the plain body without its tags, compressed with raw DEFLATE |
//!
//! The count and the last hash make a session's last block its head: the log's length is
//! the block's first sequence plus its count, and the hash to chain the next record to is
//! its last hash, so appending a record that fits in the tail changes that one value (one
//! compare-and-swap, no transaction; see `write`). A sealed block keeps them too, and
//! `check` holds each block to them.
//!
//! The check on a deflated body is there because DEFLATE ignores some bits (the padding of
//! its last byte) and can spell one output several ways: without it a changed byte might
//! read back the same records and go unnoticed, where in a plain block every byte is part
//! of a record, a varint or a chain tag, which the chain covers.

use crate::chain::{Hash, TAG_LEN};
use crate::limits::MAX_RECORD_BYTES;
use crate::store::{Page, Span};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The block format this code writes and reads (3 since bodies may be compressed, 4 since
/// the header holds the count and the last hash).
pub const BLOCK_FORMAT: u8 = 4;
/// Records per block. Larger blocks scan faster but make a single append rewrite more bytes.
pub const BLOCK_RECORDS: u64 = 512;
/// A block stops taking records once it holds this many bytes: a single append rewrites
/// the tail block, which must stay small next to an fsync.
pub const BLOCK_BYTES: usize = 16 << 10;
/// Where the count is in the header.
const COUNT_AT: usize = 1 + 8 + 32;
/// Where the last hash is in the header.
const LAST_AT: usize = COUNT_AT + 4;
/// Bytes of the header, before the body kind.
pub const HEADER_LEN: usize = LAST_AT + 32;
/// Where the body starts, after the header and the body kind.
pub const BODY_START: usize = HEADER_LEN + 1;
/// Body kind of a block whose records follow as they are.
pub const PLAIN: u8 = 0;
/// Body kind of a block whose records are compressed.
pub const DEFLATED: u8 = 1;
/// Bytes of SHA-256 kept to check a deflated body.
pub const CHECK_LEN: usize = 4;
/// An append of this many records or more stores the blocks it writes compressed; fewer
/// leave a tail plain (it is compressed once sealed). Deflating a full 16 KiB block costs
/// tens of microseconds: shared by a batch it is nothing, paid on every single append it
/// would be a sizeable part of the latency.
pub const COMPRESS_BATCH: usize = 16;
/// DEFLATE level. On game-like blocks level 6 saved only about 1% more than level 1 and
/// cut batched appends from 1.7 M to 0.28 M records/s, so the fastest level it is: most of
/// the gain is entropy coding, which every level does.
const LEVEL: u8 = 1;
/// The largest plain body a stored block may claim: a block takes records until it holds
/// `BLOCK_BYTES`, so its body ends within one largest record (and its framing) past that.
/// A claimed length above it is refused before inflating anything.
pub const MAX_BODY_BYTES: usize = BLOCK_BYTES + MAX_RECORD_BYTES + 64;

/// One record as stored: its chain tag and its encoded bytes.
pub type Stored<'a> = ([u8; TAG_LEN], &'a [u8]);

/// A block being filled.
pub struct Writer {
    bytes: Vec<u8>,
    /// Byte range in `bytes` of each new (non-repeated) record; a reference is an index here
    /// plus one.
    literals: Vec<(usize, usize)>,
    /// Hash of a new record's bytes to its reference (the first one with that hash; a
    /// collision only costs a missed repeat). Ranges instead of owned keys: resuming a tail
    /// block on every single append must not allocate per record.
    seen: Seen,
    count: u64,
    /// The chain hash after the last record pushed.
    last: Hash,
}

/// A record's hash to its reference. The keys are already SipHash outputs (`hash_of`), so the
/// map uses them as they are instead of hashing them a second time.
type Seen = HashMap<u64, u64, BuildHasherDefault<Prehashed>>;

/// The hasher of `Seen`: the key is a hash already, taken as it is.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by a `u64` key; anything else is folded in, never lost.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

fn hash_of(bytes: &[u8]) -> u64 {
    use std::hash::{BuildHasher, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(bytes)
}

impl Writer {
    /// A new, empty block.
    pub fn start(first_seq: u64, previous: &Hash) -> Writer {
        let mut bytes = Vec::with_capacity(HEADER_LEN + 8 * BLOCK_RECORDS as usize);
        bytes.push(BLOCK_FORMAT);
        bytes.extend_from_slice(&first_seq.to_be_bytes());
        bytes.extend_from_slice(previous);
        bytes.extend_from_slice(&0u32.to_be_bytes());
        bytes.extend_from_slice(previous);
        bytes.push(PLAIN);
        Writer { bytes, literals: Vec::new(), seen: Seen::default(), count: 0, last: *previous }
    }

    /// Continue a plain block (see `plain`) whose header says it starts at `first_seq`;
    /// `None` when its header or framing is broken, it starts elsewhere, or its body does
    /// not hold the records its header counts, ending at its last hash.
    pub fn resume(block: &[u8], first_seq: u64) -> Option<Writer> {
        if block.get(HEADER_LEN) != Some(&PLAIN) {
            return None;
        }
        let header = header(block).ok()?;
        if header.first_seq != first_seq {
            return None;
        }
        let mut cursor = Cursor::new();
        let mut count = 0;
        let mut last_tag = None;
        while let Some(record) = cursor.next(block) {
            last_tag = Some(record.ok()?.0);
            count += 1;
        }
        let ends_right = match last_tag {
            None => header.last == header.previous,
            Some(tag) => tag[..] == header.last[..TAG_LEN],
        };
        if count != u64::from(header.count) || !ends_right {
            return None;
        }
        let mut seen = Seen::with_capacity_and_hasher(cursor.literals.len(), Default::default());
        for (i, &(start, end)) in cursor.literals.iter().enumerate() {
            seen.entry(hash_of(&block[start..end])).or_insert(i as u64 + 1);
        }
        Some(Writer { bytes: block.to_vec(), literals: cursor.literals, seen, count, last: header.last })
    }

    /// Add one record at the end of the block, with its chain link.
    pub fn push(&mut self, link: &Hash, record: &[u8]) {
        let hash = hash_of(record);
        let repeat = self.seen.get(&hash).copied().filter(|&reference| {
            let (start, end) = self.literals[reference as usize - 1];
            &self.bytes[start..end] == record
        });
        match repeat {
            Some(reference) => push_varint(&mut self.bytes, reference),
            None => {
                push_varint(&mut self.bytes, 0);
                push_varint(&mut self.bytes, record.len() as u64);
                let start = self.bytes.len();
                self.bytes.extend_from_slice(record);
                self.literals.push((start, self.bytes.len()));
                self.seen.entry(hash).or_insert(self.literals.len() as u64);
            }
        }
        self.bytes.extend_from_slice(&link[..TAG_LEN]);
        self.last = *link;
        self.count += 1;
    }

    /// Records in the block.
    #[cfg(test)]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether the block should take no more records.
    pub fn is_full(&self) -> bool {
        self.count >= BLOCK_RECORDS || self.bytes.len() >= BLOCK_BYTES
    }

    /// Write the count and the last hash into the header.
    fn seal_header(&mut self) {
        // `is_full` stops a block at `BLOCK_RECORDS`, far below u32::MAX.
        let count = u32::try_from(self.count).unwrap_or(u32::MAX);
        self.bytes[COUNT_AT..LAST_AT].copy_from_slice(&count.to_be_bytes());
        self.bytes[LAST_AT..HEADER_LEN].copy_from_slice(&self.last);
    }

    /// The block as it would be stored plain, keeping the writer: an appender that keeps
    /// it can continue the block without reading it again (see `is_stored_as`).
    pub fn plain_bytes(&mut self) -> Vec<u8> {
        self.seal_header();
        self.bytes.clone()
    }

    /// Whether `stored` is this block as `plain_bytes` last gave it: a writer kept from an
    /// earlier append continues a stored block only if nothing has changed it since, and
    /// then it is the writer `resume` would rebuild from those bytes.
    pub fn is_stored_as(&self, stored: &[u8]) -> bool {
        self.bytes == stored
    }

    /// The block as stored plain.
    #[cfg(test)]
    pub fn into_bytes(mut self) -> Vec<u8> {
        self.seal_header();
        self.bytes
    }

    /// The block as stored: compressed when `compress` says to and that is smaller, plain
    /// otherwise.
    pub fn into_stored(mut self, compress: bool) -> Vec<u8> {
        self.seal_header();
        if !compress {
            return self.bytes;
        }
        // The chain tags are random bytes: kept apart and raw, they neither grow the deflated
        // stream nor spoil its statistics for the records around them.
        let mut framing = Vec::with_capacity(self.bytes.len());
        let mut tags = Vec::with_capacity(self.count as usize * TAG_LEN);
        let mut cursor = Cursor::new();
        let mut from = BODY_START;
        while let Some(record) = cursor.next(&self.bytes) {
            if record.is_err() {
                // Never for a block this writer built; storing it plain loses nothing.
                return self.bytes;
            }
            let tag_start = cursor.pos - TAG_LEN;
            framing.extend_from_slice(&self.bytes[from..tag_start]);
            tags.extend_from_slice(&self.bytes[tag_start..cursor.pos]);
            from = cursor.pos;
        }
        let deflated = miniz_oxide::deflate::compress_to_vec(&framing, LEVEL);
        let mut rest = Vec::with_capacity(deflated.len() + tags.len() + 20);
        push_varint(&mut rest, self.count);
        push_varint(&mut rest, framing.len() as u64);
        rest.extend_from_slice(&tags);
        rest.extend_from_slice(&deflated);
        if BODY_START + CHECK_LEN + rest.len() >= self.bytes.len() {
            return self.bytes;
        }
        let mut out = Vec::with_capacity(BODY_START + CHECK_LEN + rest.len());
        out.extend_from_slice(&self.bytes[..HEADER_LEN]);
        out.push(DEFLATED);
        out.extend_from_slice(&check_of(&rest));
        out.extend_from_slice(&rest);
        out
    }
}

fn check_of(bytes: &[u8]) -> [u8; CHECK_LEN] {
    let digest = Sha256::digest(bytes);
    let mut check = [0u8; CHECK_LEN];
    check.copy_from_slice(&digest[..CHECK_LEN]);
    check
}

/// A stored block in its plain form (header, `PLAIN`, records), which `Cursor`, `Records`
/// and `Writer::resume` read: the stored bytes themselves when plain, inflated when
/// deflated. An error names what is wrong (bad header, unknown body kind, failed check,
/// a claimed length too large, or a body that does not inflate to exactly that length).
pub fn plain(block: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    header(block)?;
    match block.get(HEADER_LEN) {
        None => Err("block ends before its body kind".to_string()),
        Some(&PLAIN) => Ok(Cow::Borrowed(block)),
        Some(&DEFLATED) => {
            let rest = block.get(BODY_START + CHECK_LEN..).ok_or("block ends inside its body check")?;
            if check_of(rest)[..] != block[BODY_START..BODY_START + CHECK_LEN] {
                return Err("its compressed body does not match its check (changed bytes)".to_string());
            }
            let mut cursor = Cursor { pos: 0, literals: Vec::new() };
            let count = cursor.varint(rest)?;
            let counted = u64::from(header(block)?.count);
            if count != counted {
                return Err(format!(
                    "its compressed body holds {count} records, its header counts {counted}"
                ));
            }
            let claimed = cursor.varint(rest)?;
            if claimed > MAX_BODY_BYTES as u64 {
                return Err(format!(
                    "its body claims {claimed} bytes, more than the {MAX_BODY_BYTES} a block may hold"
                ));
            }
            // The tags are stored raw, so a count past the bytes there is refused before
            // anything is allocated for it.
            let tags_len = usize::try_from(count).ok().and_then(|n| n.checked_mul(TAG_LEN));
            let tags = tags_len
                .and_then(|len| rest.get(cursor.pos..cursor.pos.checked_add(len)?))
                .ok_or_else(|| format!("its body claims {count} records, more than it holds tags for"))?;
            let claimed = claimed as usize;
            let framing =
                miniz_oxide::inflate::decompress_to_vec_with_limit(&rest[cursor.pos + tags.len()..], claimed)
                    .map_err(|e| format!("its compressed body does not inflate ({:?})", e.status))?;
            if framing.len() != claimed {
                return Err(format!(
                    "its records inflate to {} bytes, not the {claimed} it claims",
                    framing.len()
                ));
            }
            let mut out = Vec::with_capacity(BODY_START + claimed + tags.len());
            out.extend_from_slice(&block[..HEADER_LEN]);
            out.push(PLAIN);
            interleave(&framing, tags, &mut out)?;
            Ok(Cow::Owned(out))
        }
        Some(other) => Err(format!("block body kind {other} is neither plain (0) nor deflated (1)")),
    }
}

/// Rebuild a plain body from its records without their tags (`framing`: each a reference,
/// or a new record's length and bytes) and the tags, one per record, in order. Both must be
/// used up exactly.
fn interleave(framing: &[u8], tags: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let mut cursor = Cursor { pos: 0, literals: Vec::new() };
    let mut tags = tags.chunks_exact(TAG_LEN);
    while cursor.pos < framing.len() {
        let from = cursor.pos;
        if cursor.varint(framing)? == 0 {
            let len = cursor.varint(framing)?;
            let left = (framing.len() - cursor.pos) as u64;
            if len > left {
                return Err(format!(
                    "record of {len} bytes runs past the end of its block ({left} bytes left)"
                ));
            }
            cursor.pos += len as usize;
        }
        out.extend_from_slice(&framing[from..cursor.pos]);
        out.extend_from_slice(tags.next().ok_or("its body holds more records than tags")?);
    }
    if tags.next().is_some() {
        return Err("its body holds more tags than records".to_string());
    }
    Ok(())
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// A block's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub first_seq: u64,
    pub previous: Hash,
    /// Records in the block.
    pub count: u32,
    /// The chain hash after its last record.
    pub last: Hash,
}

/// Read a block's header (plain or deflated alike); the body kind follows at `HEADER_LEN`.
pub fn header(block: &[u8]) -> Result<Header, String> {
    if block.len() < HEADER_LEN {
        return Err(format!("block is {} bytes, shorter than its {HEADER_LEN}-byte header", block.len()));
    }
    if block[0] != BLOCK_FORMAT {
        return Err(format!("block format {} is not {BLOCK_FORMAT}", block[0]));
    }
    let mut seq = [0u8; 8];
    seq.copy_from_slice(&block[1..9]);
    let mut previous = [0u8; 32];
    previous.copy_from_slice(&block[9..COUNT_AT]);
    let mut count = [0u8; 4];
    count.copy_from_slice(&block[COUNT_AT..LAST_AT]);
    let mut last = [0u8; 32];
    last.copy_from_slice(&block[LAST_AT..HEADER_LEN]);
    Ok(Header { first_seq: u64::from_be_bytes(seq), previous, count: u32::from_be_bytes(count), last })
}

/// Where a reader is in a block: the next byte, and the block's new records so far (their
/// byte ranges), which later references point to. Kept apart from the block so that a
/// reader holding an owned block (`Events`) can carry it between calls.
#[derive(Debug, Default)]
pub struct Cursor {
    pos: usize,
    literals: Vec<(usize, usize)>,
}

impl Cursor {
    /// At the first record of a plain block.
    pub fn new() -> Cursor {
        Cursor { pos: BODY_START, literals: Vec::new() }
    }

    /// Read the next record of `block`, or `None` at its end. After an error the cursor is
    /// at the end: nothing more is read from a block whose framing broke.
    pub fn next<'a>(&mut self, block: &'a [u8]) -> Option<Result<Stored<'a>, String>> {
        if self.pos >= block.len() {
            return None;
        }
        let result = self.read(block);
        if result.is_err() {
            self.pos = block.len();
        }
        Some(result)
    }

    fn varint(&mut self, block: &[u8]) -> Result<u64, String> {
        let mut value: u64 = 0;
        let mut shift = 0;
        loop {
            let byte = *block.get(self.pos).ok_or("block ends inside a varint")?;
            self.pos += 1;
            if shift >= 63 && byte > 1 {
                return Err("varint overflows".to_string());
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    fn read<'a>(&mut self, block: &'a [u8]) -> Result<Stored<'a>, String> {
        let (tag, start, end) = self.read_span(block)?;
        Ok((tag, &block[start..end]))
    }

    /// The next record's tag and where its bytes are in `block`.
    fn read_span(&mut self, block: &[u8]) -> Result<([u8; TAG_LEN], usize, usize), String> {
        let reference = self.varint(block)?;
        let (start, end) = if reference == 0 {
            let len = self.varint(block)?;
            let left = (block.len() - self.pos) as u64;
            if len > left {
                return Err(format!(
                    "record of {len} bytes runs past the end of its block ({left} bytes left)"
                ));
            }
            let start = self.pos;
            self.pos += len as usize;
            self.literals.push((start, self.pos));
            (start, self.pos)
        } else {
            let index = usize::try_from(reference - 1).unwrap_or(usize::MAX);
            *self.literals.get(index).ok_or_else(|| {
                format!(
                    "record refers to repeat {reference}, but the block has {} so far",
                    self.literals.len()
                )
            })?
        };
        let tag_bytes = block.get(self.pos..self.pos + TAG_LEN).ok_or("block ends inside a record's tag")?;
        let mut tag = [0u8; TAG_LEN];
        tag.copy_from_slice(tag_bytes);
        self.pos += TAG_LEN;
        Ok((tag, start, end))
    }
}

/// Read a stored block (plain or compressed) into `page`: its header's count and hashes,
/// its plain bytes and a span per record. Framing that breaks after some records leaves
/// those records and the reason in `page.broken`; an error means the block cannot be read
/// at all (its header, body kind, compressed body or check).
pub fn read_into(value: &[u8], page: &mut Page) -> Result<(), String> {
    let header = header(value)?;
    match plain(value)? {
        Cow::Borrowed(bytes) => {
            page.bytes.clear();
            page.bytes.extend_from_slice(bytes);
        }
        Cow::Owned(bytes) => page.bytes = bytes,
    }
    page.first = header.first_seq;
    page.before = header.previous;
    page.count = u64::from(header.count);
    page.after = header.last;
    page.spans.clear();
    page.broken = None;
    let mut cursor = Cursor::new();
    while cursor.pos < page.bytes.len() {
        match cursor.read_span(&page.bytes) {
            Ok((tag, start, end)) => page.spans.push(Span { tag, start, end }),
            Err(e) => {
                page.broken = Some(e);
                break;
            }
        }
    }
    Ok(())
}

/// The records of a block in order, `(tag, encoded record)`.
#[cfg(test)]
pub struct Records<'a> {
    block: &'a [u8],
    cursor: Cursor,
}

#[cfg(test)]
impl<'a> Records<'a> {
    /// The records of a plain block (see `plain`; its header is not checked here).
    pub fn new(block: &'a [u8]) -> Self {
        Records { block, cursor: Cursor::new() }
    }

    /// Read the next record, or `None` at the end of the block.
    pub fn next_record(&mut self) -> Option<Result<Stored<'a>, String>> {
        self.cursor.next(self.block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain link whose tag is `[a, b]`.
    fn link(a: u8, b: u8) -> Hash {
        let mut h = [0u8; 32];
        h[0] = a;
        h[1] = b;
        h
    }

    fn all(block: &[u8]) -> Vec<Result<Stored<'_>, String>> {
        let mut r = Records::new(block);
        std::iter::from_fn(|| r.next_record()).collect()
    }

    #[test]
    fn blocks_round_trip_and_repeats_are_stored_once() {
        let mut w = Writer::start(256, &[7u8; 32]);
        w.push(&link(1, 2), b"abc");
        w.push(&link(3, 4), &[9u8; 200]);
        w.push(&link(5, 6), b"abc");
        assert_eq!(w.count(), 3);
        let b = w.into_bytes();
        // header, then: 00 03 "abc" tag | 00 c8 01 [200] tag | 01 tag
        assert_eq!(b.len(), BODY_START + (1 + 1 + 3 + 2) + (1 + 2 + 200 + 2) + (1 + 2));
        assert_eq!(
            header(&b),
            Ok(Header { first_seq: 256, previous: [7u8; 32], count: 3, last: link(5, 6) })
        );
        let records = all(&b);
        assert_eq!(records.len(), 3);
        assert_eq!(records[0], Ok(([1, 2], &b"abc"[..])));
        assert!(matches!(records[1], Ok((t, rec)) if t == [3, 4] && rec == [9u8; 200]));
        assert_eq!(records[2], Ok(([5, 6], &b"abc"[..])));

        // Resuming rebuilds the repeats: another "abc" is a one-byte reference again.
        let Some(mut w) = Writer::resume(&b, 256) else { panic!("a valid block must resume") };
        assert!(Writer::resume(&b, 0).is_none(), "a block that starts elsewhere does not");
        w.push(&link(7, 8), b"abc");
        let longer = w.into_bytes();
        assert_eq!(longer.len(), b.len() + 3);
        assert_eq!(all(&longer)[3], Ok(([7, 8], &b"abc"[..])));
    }

    #[test]
    fn broken_framing_is_an_error_then_the_end() {
        let mut w = Writer::start(0, &[0u8; 32]);
        w.push(&link(1, 2), b"first");
        w.push(&link(3, 4), &[9u8; 50]);
        let b = w.into_bytes();
        // Cut inside the second record: the first still reads, then one error, then nothing.
        let records = all(&b[..b.len() - 10]);
        assert!(matches!(records[..], [Ok(_), Err(_)]), "{records:?}");
        // A reference to a repeat that does not exist.
        let mut forged = b[..BODY_START].to_vec();
        forged.extend_from_slice(&[5, 0, 0]);
        assert!(matches!(all(&forged)[..], [Err(_)]));
        // A varint that never ends, and one too large.
        let mut endless = b[..BODY_START].to_vec();
        endless.extend_from_slice(&[0x80; 12]);
        assert!(matches!(all(&endless)[..], [Err(_)]));
        assert!(header(&b[..10]).is_err());
        let mut wrong = b.clone();
        wrong[0] = 9;
        assert!(header(&wrong).is_err());
        assert!(Writer::resume(&wrong, 0).is_none());
    }

    /// A block of repetitive game-like records, `n` of them.
    fn sample(n: u64) -> Writer {
        let mut w = Writer::start(512, &[3u8; 32]);
        for i in 0..n {
            let record = [0, (i % 4) as u8, (i % 6) as u8 + 1, (i * 7 % 6) as u8 + 1, (i / 3 % 5) as u8];
            w.push(&link((i * 37) as u8, (i * 91) as u8), &record);
        }
        w
    }

    #[test]
    fn compressed_blocks_read_back_as_their_plain_form() {
        let plain_bytes = sample(300).into_bytes();
        let stored = sample(300).into_stored(true);
        assert_eq!(stored[HEADER_LEN], DEFLATED);
        // The chain tags do not compress; the records around them do.
        assert!(stored.len() + 100 < plain_bytes.len(), "{} of {}", stored.len(), plain_bytes.len());
        assert_eq!(header(&stored), header(&plain_bytes));
        assert_eq!(plain(&stored).as_deref(), Ok(&plain_bytes[..]));
        assert!(matches!(plain(&plain_bytes), Ok(Cow::Borrowed(_))));
        // Not asked to, or not worth it: stored plain.
        assert_eq!(sample(300).into_stored(false), plain_bytes);
        let tiny = sample(1);
        assert_eq!(tiny.into_stored(true), sample(1).into_bytes());
        // A compressed tail is resumed from its plain form, and only from it.
        let Ok(inflated) = plain(&stored) else { panic!("a valid block must inflate") };
        assert!(Writer::resume(&inflated, 512).is_some_and(|w| w.count() == 300));
        assert!(Writer::resume(&stored, 512).is_none());
    }

    #[test]
    fn every_changed_byte_of_a_compressed_block_is_refused_or_changes_its_records() {
        let stored = sample(300).into_stored(true);
        let Ok(original) = plain(&stored) else { panic!("a valid block must inflate") };
        for at in HEADER_LEN..stored.len() {
            for flip in [1u8, 0x80, 0xff] {
                let mut changed = stored.clone();
                changed[at] ^= flip;
                if let Ok(read) = plain(&changed) {
                    assert_ne!(read, original, "byte {at} ^ {flip:#x} went unnoticed");
                }
            }
        }
        // Cut anywhere: refused.
        for len in 0..stored.len() {
            assert!(plain(&stored[..len]).is_err(), "cut at {len}");
        }
    }

    #[test]
    fn a_forged_length_is_refused_before_inflating() {
        let mut rest = Vec::new();
        push_varint(&mut rest, 0);
        push_varint(&mut rest, u64::MAX >> 1);
        rest.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(&[0u8; 100], 6));
        let mut forged = sample(0).into_bytes()[..HEADER_LEN].to_vec();
        forged.push(DEFLATED);
        forged.extend_from_slice(&check_of(&rest));
        forged.extend_from_slice(&rest);
        assert!(plain(&forged).is_err_and(|e| e.contains("claims")));
        // Claiming less than it inflates to, or more: refused too.
        for claimed in [99u64, 101] {
            let mut rest = Vec::new();
            push_varint(&mut rest, 0);
            push_varint(&mut rest, claimed);
            rest.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(&[0u8; 100], 6));
            let mut forged = sample(0).into_bytes()[..HEADER_LEN].to_vec();
            forged.push(DEFLATED);
            forged.extend_from_slice(&check_of(&rest));
            forged.extend_from_slice(&rest);
            assert!(plain(&forged).is_err(), "claimed {claimed}");
        }
        // A record count past the tags stored, and one that would overflow: refused; so is a
        // count that does not match the records (100 zero bytes are 50 empty new records).
        for count in [u64::MAX, 1 << 40, 3] {
            let mut rest = Vec::new();
            push_varint(&mut rest, count);
            push_varint(&mut rest, 100);
            rest.extend_from_slice(&[7u8; 2 * TAG_LEN]);
            rest.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(&[0u8; 100], 6));
            let mut forged = sample(0).into_bytes()[..HEADER_LEN].to_vec();
            forged.push(DEFLATED);
            forged.extend_from_slice(&check_of(&rest));
            forged.extend_from_slice(&rest);
            assert!(plain(&forged).is_err(), "count {count}");
        }
        let mut unknown = sample(3).into_bytes();
        unknown[HEADER_LEN] = 7;
        assert!(plain(&unknown).is_err());
    }
}
