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
//! block is stored as a reference to it: this is what keeps disk use near the target of
//! 2.5 times the encoded payload. Each record keeps its own chain tag either way.
//!
//! Layout of a block (integers big-endian, except the LEB128 varints):
//!
//! | bytes | content |
//! | --- | --- |
//! | 1 | format, `BLOCK_FORMAT` |
//! | 8 | sequence number of the first record (the same as in the key, so a moved block shows) |
//! | 32 | chain hash before the first record |
//! | then per record | a varint `r`; if `r = 0` a new record follows as a varint length and its encoded bytes, else the record is the same as the block's `r`-th new record; then `TAG_LEN` bytes of the record's chain link |

use crate::chain::{Hash, TAG_LEN};
use std::collections::HashMap;

/// The block format this code writes and reads.
pub const BLOCK_FORMAT: u8 = 2;
/// Records per block. Larger blocks scan faster but make a single append rewrite more bytes.
pub const BLOCK_RECORDS: u64 = 512;
/// A block stops taking records once it holds this many bytes: a single append rewrites
/// the tail block, which must stay small next to an fsync.
pub const BLOCK_BYTES: usize = 16 << 10;
/// Bytes before the first record.
pub const HEADER_LEN: usize = 1 + 8 + 32;

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
    seen: HashMap<u64, u64>,
    count: u64,
}

fn hash_of(bytes: &[u8]) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(bytes)
}

impl Writer {
    /// A new, empty block.
    pub fn start(first_seq: u64, previous: &Hash) -> Writer {
        let mut bytes = Vec::with_capacity(HEADER_LEN + 8 * BLOCK_RECORDS as usize);
        bytes.push(BLOCK_FORMAT);
        bytes.extend_from_slice(&first_seq.to_be_bytes());
        bytes.extend_from_slice(previous);
        Writer { bytes, literals: Vec::new(), seen: HashMap::new(), count: 0 }
    }

    /// Continue a stored block whose header says it starts at `first_seq`; `None` when its
    /// header or framing is broken or it starts elsewhere.
    pub fn resume(block: &[u8], first_seq: u64) -> Option<Writer> {
        if header(block).ok()?.first_seq != first_seq {
            return None;
        }
        let mut cursor = Cursor::new();
        let mut count = 0;
        while let Some(record) = cursor.next(block) {
            record.ok()?;
            count += 1;
        }
        let mut seen = HashMap::with_capacity(cursor.literals.len());
        for (i, &(start, end)) in cursor.literals.iter().enumerate() {
            seen.entry(hash_of(&block[start..end])).or_insert(i as u64 + 1);
        }
        Some(Writer { bytes: block.to_vec(), literals: cursor.literals, seen, count })
    }

    /// Add one record at the end of the block.
    pub fn push(&mut self, tag: &[u8; TAG_LEN], record: &[u8]) {
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
        self.bytes.extend_from_slice(tag);
        self.count += 1;
    }

    /// Records in the block.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether the block should take no more records.
    pub fn is_full(&self) -> bool {
        self.count >= BLOCK_RECORDS || self.bytes.len() >= BLOCK_BYTES
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
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
}

/// Read a block's header; the records follow at `HEADER_LEN`.
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
    previous.copy_from_slice(&block[9..HEADER_LEN]);
    Ok(Header { first_seq: u64::from_be_bytes(seq), previous })
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
    /// At the first record of a block.
    pub fn new() -> Cursor {
        Cursor { pos: HEADER_LEN, literals: Vec::new() }
    }

    /// Back to the first record, keeping the allocation.
    pub fn reset(&mut self) {
        self.pos = HEADER_LEN;
        self.literals.clear();
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
        Ok((tag, &block[start..end]))
    }
}

/// The records of a block in order, `(tag, encoded record)`.
pub struct Records<'a> {
    block: &'a [u8],
    cursor: Cursor,
}

impl<'a> Records<'a> {
    /// The records of a block (its header is not checked here).
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

    fn all(block: &[u8]) -> Vec<Result<Stored<'_>, String>> {
        let mut r = Records::new(block);
        std::iter::from_fn(|| r.next_record()).collect()
    }

    #[test]
    fn blocks_round_trip_and_repeats_are_stored_once() {
        let mut w = Writer::start(256, &[7u8; 32]);
        w.push(&[1, 2], b"abc");
        w.push(&[3, 4], &[9u8; 200]);
        w.push(&[5, 6], b"abc");
        assert_eq!(w.count(), 3);
        let b = w.into_bytes();
        // header, then: 00 03 "abc" tag | 00 c8 01 [200] tag | 01 tag
        assert_eq!(b.len(), HEADER_LEN + (1 + 1 + 3 + 2) + (1 + 2 + 200 + 2) + (1 + 2));
        assert_eq!(header(&b), Ok(Header { first_seq: 256, previous: [7u8; 32] }));
        let records = all(&b);
        assert_eq!(records.len(), 3);
        assert_eq!(records[0], Ok(([1, 2], &b"abc"[..])));
        assert!(matches!(records[1], Ok((t, rec)) if t == [3, 4] && rec == [9u8; 200]));
        assert_eq!(records[2], Ok(([5, 6], &b"abc"[..])));

        // Resuming rebuilds the repeats: another "abc" is a one-byte reference again.
        let Some(mut w) = Writer::resume(&b, 256) else { panic!("a valid block must resume") };
        assert!(Writer::resume(&b, 0).is_none(), "a block that starts elsewhere does not");
        w.push(&[7, 8], b"abc");
        let longer = w.into_bytes();
        assert_eq!(longer.len(), b.len() + 3);
        assert_eq!(all(&longer)[3], Ok(([7, 8], &b"abc"[..])));
    }

    #[test]
    fn broken_framing_is_an_error_then_the_end() {
        let mut w = Writer::start(0, &[0u8; 32]);
        w.push(&[1, 2], b"first");
        w.push(&[3, 4], &[9u8; 50]);
        let b = w.into_bytes();
        // Cut inside the second record: the first still reads, then one error, then nothing.
        let records = all(&b[..b.len() - 10]);
        assert!(matches!(records[..], [Ok(_), Err(_)]), "{records:?}");
        // A reference to a repeat that does not exist.
        let mut forged = b[..HEADER_LEN].to_vec();
        forged.extend_from_slice(&[5, 0, 0]);
        assert!(matches!(all(&forged)[..], [Err(_)]));
        // A varint that never ends, and one too large.
        let mut endless = b[..HEADER_LEN].to_vec();
        endless.extend_from_slice(&[0x80; 12]);
        assert!(matches!(all(&endless)[..], [Err(_)]));
        assert!(header(&b[..10]).is_err());
        let mut wrong = b.clone();
        wrong[0] = 9;
        assert!(header(&wrong).is_err());
        assert!(Writer::resume(&wrong, 0).is_none());
    }
}
