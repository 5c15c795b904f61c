//! Where things live in the sled database directory.
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
//!
//! Beside sled's own files (`db`, `conf`, `snap.*`, `blobs/`) the directory holds the
//! write-ahead log (`wal`) with its mark file (`wal_mark`), the record of heads (`heads`)
//! and a copy of sled's `conf`. sled's log is written in segments of `NEW_SEGMENT_SIZE` in a
//! database made now, of sled's default in one made before: whoever opens the directory
//! with sled takes the size from `conf` (`sled_config`).

use std::path::Path;

pub const SESSIONS_TREE: &str = "sessions";
pub const HEADS_TREE: &str = "heads";
pub const EVENTS_TREE: &str = "events";
pub const RETRACTIONS_TREE: &str = "retractions";
pub const SNAPSHOTS_TREE: &str = "snapshots";

/// sled 0.34's data file inside the database directory (the journal fsyncs it).
pub const SLED_DATA_FILE: &str = "db";
/// sled's configuration file.
pub const SLED_CONF_FILE: &str = "conf";
/// sled's directory of large values.
pub const SLED_BLOBS_DIR: &str = "blobs";
/// The prefix of sled's snapshot files (`snap.<lsn>`).
pub const SLED_SNAPSHOT_PREFIX: &str = "snap.";
/// The suffix of a snapshot sled was writing and never renamed into place: sled reads the
/// newest snapshot file by name, this one included, so one left behind (a full disk, a
/// crash) would make every later open fail as "corrupted".
pub const SLED_UNFINISHED_SUFFIX: &str = ".generating";

/// The write-ahead log beside sled's files (see `wal`).
pub const WAL_FILE: &str = "arbiter-wal";

/// The write-ahead log's mark: the number of the last entry synced, kept out of the log so
/// that an append's sync writes the log's pages only (see `wal_mark`).
pub const WAL_MARK_FILE: &str = "arbiter-wal-mark";

/// A copy of sled's `conf`, kept so that a lost `conf` is put back rather than guessed: sled
/// takes a data file without `conf` to have the segment size it is given, and starting on a
/// file written with another size damages it past repair (`open::open_sled`).
pub const SLED_CONF_COPY: &str = "arbiter-sled-conf";

/// The record of every session's acknowledged head, kept outside sled (see `heads`).
pub const HEADS_FILE: &str = "arbiter-heads";

/// The file earlier builds kept instead of `HEADS_FILE`: only a count of sessions.
pub const LEGACY_MARKER_FILE: &str = "arbiter-journal";

/// Key in the default tree that names the journal format, checked on open.
pub const FORMAT_KEY: &[u8] = b"arbiter-journal-format";
/// The format this code reads and writes: 2 since blocks store repeated records by
/// reference, 3 since block bodies may be compressed (`block`'s body kind byte), 4 since a
/// block's header holds its count and last hash and `heads` only points to the last block.
pub const FORMAT_VERSION: &[u8] = b"4";

/// Key in the default tree holding the generation of the last checkpoint whose heads went
/// to `HEADS_FILE` (u64 BE), written just before sled is flushed for it: a data file that
/// reads back an older generation than the record of heads lost writes (see `heads`).
pub const GENERATION_KEY: &[u8] = b"arbiter-heads-generation";

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

/// sled's configuration for the database at `path` (which sled refuses to open with a
/// segment size other than the one it was made with).
pub fn sled_config(path: &Path) -> sled::Config {
    sled::Config::new()
        .path(path)
        // Replays stream; a large page cache would only raise memory use.
        .cache_capacity(32 << 20)
        .segment_size(segment_size(path))
}

/// sled's configuration for a read-only open of the database at `path`: without sled's
/// periodic flusher. That thread, on starting, rolls sled's write buffer, runs sled's
/// segment cleaning (which may rewrite live pages elsewhere in the file) and `fsync`s the
/// data file, and again every half second: work and writes a command that only reads has
/// no use for (it writes nothing through sled to flush). The journal never relies on it:
/// its writes are made durable by its own flushes (`SledStore::checkpoint`). Nor does a
/// read split or merge the tree nodes it passes (the vendored sled's `restructure`): sled
/// does so on any traversal, a read's included, and writing the new node starts sled's
/// thread pool (seven threads) in a command that only reads; the nodes hold the same keys
/// either way, and a read-write open restructures them when it passes. Nor does its start
/// `fsync` a data file it wrote nothing to (the vendored sled's `sync_at_start`): on a
/// loaded disk that one sync took milliseconds of a command's few, and what it would make
/// durable (sled's own pages an earlier writer did not sync) is not the journal's
/// durability, which is the write-ahead log's: an acknowledged append is in the log until
/// a read-write open's checkpoint has synced it into the data file.
pub fn sled_config_read_only(path: &Path) -> sled::Config {
    sled_config(path).flush_every_ms(None).restructure(false).sync_at_start(false)
}

/// The segment size of sled's log in a new database: sled reclaims space a segment at a
/// time, once less than half of it is live, and keeps a few free and partly written
/// segments at the end of its file, so a smaller segment holds less dead and unused space
/// (sled's default of 512 KiB left a loaded corpus at 1.9x its live data). It stays large
/// enough that a full block (`BLOCK_BYTES`, 16 KiB) and sled's tree nodes are written
/// inline: sled moves any write above a quarter of a segment to a file of its own in
/// `blobs/`, which a block holding a record larger than about 32 KiB now is (above 128 KiB
/// before).
const NEW_SEGMENT_SIZE: usize = 128 << 10;

/// The segment size to open `path` with: the one its `conf` file records (sled refuses any
/// other, and a database made before `NEW_SEGMENT_SIZE` has sled's default), or
/// `NEW_SEGMENT_SIZE` for a new database. A `conf` that cannot be read or parsed is left to
/// sled, which reports it.
fn segment_size(path: &Path) -> usize {
    let Ok(conf) = std::fs::read(path.join(SLED_CONF_FILE)) else {
        return NEW_SEGMENT_SIZE;
    };
    // Text lines, then a binary checksum.
    String::from_utf8_lossy(&conf)
        .lines()
        .find_map(|line| line.strip_prefix("segment_size: "))
        .and_then(|size| size.trim().parse::<usize>().ok())
        // sled only accepts a power of two from 256 bytes to 16 MiB; anything else is damage
        // that sled itself reports when it reads the file.
        .filter(|size| size.is_power_of_two() && (256..=1 << 24).contains(size))
        .unwrap_or(NEW_SEGMENT_SIZE)
}
