//! A few numbers sealed behind a magic and a CRC-32, as the write-ahead log's small
//! fixed records are written: its identity (`wal`) and its marks (`wal_mark`). Each is
//! written in place, in a sector of its own, so a torn or damaged one reads as none
//! (`open` gives `None`) and never as other numbers.
//!
//! Layout: magic (8 bytes) ‖ each number (u64, big-endian) ‖ CRC-32 of all that (u32,
//! big-endian).

/// Bytes of a sealed record of `n` numbers.
pub(crate) const fn len(n: usize) -> usize {
    8 + 8 * n + 4
}

/// `numbers` sealed behind `magic`: `out` must be `len(numbers.len())` bytes.
pub(crate) fn seal(magic: &[u8; 8], numbers: &[u64], out: &mut [u8]) {
    debug_assert_eq!(out.len(), len(numbers.len()));
    out[..8].copy_from_slice(magic);
    for (i, n) in numbers.iter().enumerate() {
        out[8 + 8 * i..16 + 8 * i].copy_from_slice(&n.to_be_bytes());
    }
    let body = len(numbers.len()) - 4;
    let crc = crc32fast::hash(&out[..body]);
    out[body..].copy_from_slice(&crc.to_be_bytes());
}

/// The `N` numbers sealed behind `magic` at the start of `bytes`, `None` when another
/// magic, a CRC that does not hold, or too few bytes are there.
pub(crate) fn open<const N: usize>(magic: &[u8; 8], bytes: &[u8]) -> Option<[u64; N]> {
    let whole = bytes.get(..len(N))?;
    let body = len(N) - 4;
    let crc = u32::from_be_bytes(whole[body..].try_into().ok()?);
    if &whole[..8] != magic || crc32fast::hash(&whole[..body]) != crc {
        return None;
    }
    let mut numbers = [0u64; N];
    for (i, n) in numbers.iter_mut().enumerate() {
        *n = u64::from_be_bytes(whole[8 + 8 * i..16 + 8 * i].try_into().ok()?);
    }
    Some(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_numbers_open_whole_or_not_at_all() {
        let mut out = [0u8; len(2)];
        seal(b"testseal", &[7, u64::MAX], &mut out);
        assert_eq!(open::<2>(b"testseal", &out), Some([7, u64::MAX]));
        assert_eq!(open::<2>(b"othermag", &out), None);
        assert_eq!(open::<2>(b"testseal", &out[..len(2) - 1]), None);
        for at in 0..out.len() {
            let mut damaged = out;
            damaged[at] ^= 0x40;
            assert_eq!(open::<2>(b"testseal", &damaged), None, "byte {at}");
        }
    }
}
