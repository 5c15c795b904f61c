//! Blocks: how records are packed into sled values.
//!
//! One sled value per record would make a full scan pay sled's per-key cost for every
//! event; a block holds up to `BLOCK_RECORDS` consecutive records of one session (fewer
//! when they pass `BLOCK_BYTES`, so large records do not make huge values), so scans
//! and batched appends pay it once per block. Only the last block of a session (its tail)
//! ever changes, and only by having records added after the ones it holds, inside the same
//! transaction that checks the session's length: a stored record is never rewritten.
//!
//! Layout of a block (all integers big-endian except the LEB128 lengths):
//!
//! | bytes | content |
//! | --- | --- |
//! | 1 | format, `BLOCK_FORMAT` |
//! | 8 | sequence number of the first record (the same as in the key, so a moved block shows) |
//! | 32 | chain hash before the first record |
//! | then per record | length of the encoded record (LEB128), `TAG_LEN` bytes of its chain link, the encoded record |

use crate::chain::{Hash, TAG_LEN};

/// The block format this code writes and reads.
pub const BLOCK_FORMAT: u8 = 1;
/// Records per block. Larger blocks scan faster but make a single append rewrite more bytes.
pub const BLOCK_RECORDS: u64 = 256;
/// A block stops taking records once it holds this many bytes: a single append rewrites
/// the tail block, which must stay small next to an fsync.
pub const BLOCK_BYTES: usize = 16 << 10;
/// Bytes before the first record.
pub const HEADER_LEN: usize = 1 + 8 + 32;

/// A new, empty block.
pub fn start(first_seq: u64, previous: &Hash) -> Vec<u8> {
    let mut b = Vec::with_capacity(HEADER_LEN + 16 * BLOCK_RECORDS as usize);
    b.push(BLOCK_FORMAT);
    b.extend_from_slice(&first_seq.to_be_bytes());
    b.extend_from_slice(previous);
    b
}

/// Add one record at the end of a block.
pub fn push(block: &mut Vec<u8>, tag: &[u8; TAG_LEN], record: &[u8]) {
    let mut len = record.len() as u64;
    loop {
        let low = (len & 0x7f) as u8;
        len >>= 7;
        if len == 0 {
            block.push(low);
            break;
        }
        block.push(low | 0x80);
    }
    block.extend_from_slice(tag);
    block.extend_from_slice(record);
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

/// One record as stored: its chain tag and its encoded bytes.
pub type Stored<'a> = ([u8; TAG_LEN], &'a [u8]);

/// The records of a block in order: `(tag, encoded record)`, or a framing error after which
/// nothing more is read.
pub struct Records<'a> {
    block: &'a [u8],
    pos: usize,
}

impl<'a> Records<'a> {
    /// The records of a block whose header has been checked.
    pub fn new(block: &'a [u8]) -> Self {
        Records { block, pos: HEADER_LEN.min(block.len()) }
    }

    /// Continue reading a block at byte offset `pos` (a `position` returned earlier).
    pub fn resume(block: &'a [u8], pos: usize) -> Self {
        Records { block, pos: pos.max(HEADER_LEN).min(block.len()) }
    }

    /// Byte offset of the next record.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Read the next record, or `None` at the end of the block.
    pub fn next_record(&mut self) -> Option<Result<Stored<'a>, String>> {
        if self.pos >= self.block.len() {
            return None;
        }
        let result = self.read();
        if result.is_err() {
            self.pos = self.block.len();
        }
        Some(result)
    }

    fn read(&mut self) -> Result<Stored<'a>, String> {
        let mut len: u64 = 0;
        let mut shift = 0;
        loop {
            let byte = *self.block.get(self.pos).ok_or("block ends inside a record length")?;
            self.pos += 1;
            if shift >= 63 && byte > 1 {
                return Err("record length overflows".to_string());
            }
            len |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        let rest = self.block.len() - self.pos;
        if (rest as u64) < TAG_LEN as u64 + len {
            return Err(format!("record of {len} bytes runs past the end of its block ({rest} bytes left)"));
        }
        let mut tag = [0u8; TAG_LEN];
        tag.copy_from_slice(&self.block[self.pos..self.pos + TAG_LEN]);
        let start = self.pos + TAG_LEN;
        let end = start + len as usize;
        self.pos = end;
        Ok((tag, &self.block[start..end]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_and_reject_bad_framing() {
        let mut b = start(256, &[7u8; 32]);
        push(&mut b, &[1, 2], b"abc");
        push(&mut b, &[5, 6], &[9u8; 200]);
        assert_eq!(header(&b), Ok(Header { first_seq: 256, previous: [7u8; 32] }));
        let mut r = Records::new(&b);
        assert_eq!(r.next_record(), Some(Ok(([1, 2], &b"abc"[..]))));
        let second = r.next_record();
        assert!(matches!(second, Some(Ok((t, rec))) if t == [5, 6] && rec.len() == 200));
        assert_eq!(r.next_record(), None);

        // Cut inside the second record: the first still reads, then one error, then nothing.
        let cut = &b[..b.len() - 10];
        let mut r = Records::new(cut);
        assert!(matches!(r.next_record(), Some(Ok(_))));
        assert!(matches!(r.next_record(), Some(Err(_))));
        assert_eq!(r.next_record(), None);
        assert!(header(&b[..10]).is_err());
        let mut wrong = b.clone();
        wrong[0] = 9;
        assert!(header(&wrong).is_err());
    }
}
