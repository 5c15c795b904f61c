//! The sled backend's layout for tools and tamper tests, which open a database with sled
//! alone to look at it or damage it on purpose. Ordinary callers use `Journal`. Reached as
//! `arbiter_journal::layout`.

pub use super::layout::{
    key_seq, seq_key, sled_config, tail_first, tail_pointer, EVENTS_TREE, FORMAT_KEY, FORMAT_VERSION,
    GENERATION_KEY, HEADS_FILE, HEADS_TREE, LEGACY_MARKER_FILE, RETRACTIONS_TREE, SESSIONS_TREE,
    SLED_CONF_COPY, SLED_CONF_FILE, SLED_DATA_FILE, SNAPSHOTS_TREE, WAL_FILE, WAL_MARK_FILE,
};
pub use super::wal::DAMAGED_SUFFIX;

/// How many live entries (appends not yet checkpointed into sled) the write-ahead log of
/// the database directory `dir` holds, read with its mark file as an open reads them; an
/// error says what is damaged or missing.
pub fn wal_entries(dir: &std::path::Path) -> Result<usize, String> {
    let files = super::wal::read_files(dir).map_err(|e| e.message().to_string())?;
    let log = files.log.as_deref().ok_or_else(|| format!("there is no `{WAL_FILE}` in {}", dir.display()))?;
    super::wal::read(log, files.mark.as_deref()).map(|contents| contents.entries.len())
}

/// A stored block (a value of `events`) in its plain form, its records uncompressed: what
/// tools and tamper tests edit. A plain block may be stored back as it is; readers take
/// both forms. An error says why the block cannot be read.
pub fn plain_block(value: &[u8]) -> Result<Vec<u8>, String> {
    super::block::plain(value).map(|plain| plain.into_owned())
}

/// Where a stored block says how its body is stored: 0 plain, 1 compressed (see `block`).
pub const BODY_KIND_AT: usize = super::block::HEADER_LEN;
