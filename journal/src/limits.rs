//! Limits every backend enforces alike, before anything is written.

/// The largest encoded record accepted. Decoding is limited to `codec::LIMIT` bytes of
/// claimed memory, which a record's in-memory form can exceed its encoding by several times
/// (a varint is one byte, a `u64` eight); refusing large records at append keeps every
/// stored record readable.
pub const MAX_RECORD_BYTES: usize = 1 << 20;
