//! Where things live in the sled database. Public so that tools and tamper tests can reach
//! the raw trees; ordinary callers use `Journal`.
//!
//! | tree | key | value |
//! | --- | --- | --- |
//! | `sessions` | session name (UTF-8) | encoded `(id: u64, SessionMeta)` |
//! | `heads` | session id (u64 BE) | first sequence of the session's last block (u64 BE) |
//! | `events` | session id ‖ first sequence of the block (u64 BE each) | a block (see `block`) |
//! | `retractions` | session id ‖ sequence of the `Retract` record | sequence it retracts (u64 BE) |
//! | `snapshots` | session id ‖ sequence (u64 BE each) | rules version (u32 BE) ‖ the caller's bytes |
//!
//! Sessions are keyed by a numeric id inside the data trees so that keys stay 16 bytes and
//! a session's records sort together, in sequence order, under big-endian keys.
//!
//! A session always has at least one block (an empty one when it has no records). Its
//! length and last chain hash are in its last block's header (see `block`), which `heads`
//! points to: `heads` changes only when a block is started, so an append that fits in the
//! last block changes one value. `heads` also makes a removed last block show, where
//! finding the last block by key would silently take the one before it.

use crate::chain::Hash;

pub const SESSIONS_TREE: &str = "sessions";
pub const HEADS_TREE: &str = "heads";
pub const EVENTS_TREE: &str = "events";
pub const RETRACTIONS_TREE: &str = "retractions";
pub const SNAPSHOTS_TREE: &str = "snapshots";

/// sled 0.34's data file inside the database directory (the journal fsyncs it).
pub const SLED_DATA_FILE: &str = "db";

/// A file the journal keeps beside sled's own in the database directory (see `marker.rs`):
/// that a journal exists here and how many sessions it has held.
pub const MARKER_FILE: &str = "arbiter-journal";

/// The write-ahead log beside sled's files (see `wal`).
pub const WAL_FILE: &str = "arbiter-wal";

/// How many live entries (appends not yet checkpointed into sled) a write-ahead log file's
/// bytes hold, for tools and tests; an error says what is damaged.
pub fn wal_entries(bytes: &[u8]) -> Result<usize, String> {
    crate::wal::read(bytes).map(|contents| contents.entries.len())
}

/// Key in the default tree that names the journal format, checked on open.
pub const FORMAT_KEY: &[u8] = b"arbiter-journal-format";
/// The format this code reads and writes: 2 since blocks store repeated records by
/// reference, 3 since block bodies may be compressed (`block`'s body kind byte), 4 since a
/// block's header holds its count and last hash and `heads` only points to the last block.
pub const FORMAT_VERSION: &[u8] = b"4";

/// A stored block (a value of `events`) in its plain form, its records uncompressed: what
/// tools and tamper tests edit. A plain block may be stored back as it is; readers take
/// both forms. An error says why the block cannot be read.
pub fn plain_block(value: &[u8]) -> Result<Vec<u8>, String> {
    crate::block::plain(value).map(|plain| plain.into_owned())
}

/// Where a stored block says how its body is stored: 0 plain, 1 compressed (see `block`).
pub const BODY_KIND_AT: usize = crate::block::HEADER_LEN;

/// Key of a session's item at a sequence number in `events`, `retractions` and `snapshots`.
pub fn seq_key(session_id: u64, seq: u64) -> [u8; 16] {
    let mut k = [0u8; 16];
    k[..8].copy_from_slice(&session_id.to_be_bytes());
    k[8..].copy_from_slice(&seq.to_be_bytes());
    k
}

/// The sequence number of a 16-byte key, `None` for a key of another shape.
pub fn key_seq(key: &[u8]) -> Option<u64> {
    let bytes: [u8; 8] = key.get(8..16)?.try_into().ok()?;
    Some(u64::from_be_bytes(bytes))
}

/// The `heads` value pointing to a session's last block, which starts at `tail_first`.
pub fn tail_pointer(tail_first: u64) -> [u8; 8] {
    tail_first.to_be_bytes()
}

/// The first sequence of the last block a `heads` value points to; `None` when malformed.
pub fn tail_first(value: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(value.try_into().ok()?))
}

/// The head of a session's log, as its last block's header gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    /// Records in the log (the next sequence number).
    pub len: u64,
    /// First sequence number of the last block.
    pub tail_first: u64,
    /// Chain link of the last record (the genesis when the log is empty).
    pub last: Hash,
}
