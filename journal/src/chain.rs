//! The hash chain that makes a changed, removed or reordered record detectable.
//!
//! - genesis = SHA-256(`"arbiter-journal/1 genesis\0"` ‖ session name ‖ `0x00` ‖ encoded
//!   `SessionMeta`): binding the name and metadata means a log copied under another name or
//!   with edited metadata no longer checks.
//! - link(n) = SHA-256(link(n-1) ‖ n as u64 big-endian ‖ encoded record n), link(-1) = genesis.
//!
//! Blocks store each record's first `TAG_LEN` bytes of its link (to name the exact record
//! that breaks) and the full links before their first record and after their last, so every
//! record is covered by a full 256-bit hash as well.

use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use sha2::{Digest, Sha256};

/// A full chain hash.
pub type Hash = [u8; 32];

/// Bytes of each record's link kept beside it in its block. Two bytes locate a changed
/// record except once in 65,536 (it is then still caught, by the full hash at the end of its
/// block, one block later); each byte more costs about 20% more disk for small events.
pub const TAG_LEN: usize = 2;

/// The hash before a session's first record.
pub fn genesis(session: &str, meta: &SessionMeta) -> Result<Hash, JournalError> {
    let meta_bytes = codec::encode(meta).map_err(|e| {
        JournalError::new(
            ErrorKind::Encode,
            format!("cannot encode the metadata of session `{session}`: {e}"),
        )
    })?;
    let mut h = Sha256::new();
    h.update(b"arbiter-journal/1 genesis\0");
    h.update(session.as_bytes());
    h.update([0u8]);
    h.update(&meta_bytes);
    Ok(h.finalize().into())
}

/// The link of record `seq` whose encoding is `record`, after `previous`.
pub fn link(previous: &Hash, seq: u64, record: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update(previous);
    h.update(seq.to_be_bytes());
    h.update(record);
    h.finalize().into()
}

/// The part of a link stored beside its record.
pub fn tag(link: &Hash) -> [u8; TAG_LEN] {
    let mut t = [0u8; TAG_LEN];
    t.copy_from_slice(&link[..TAG_LEN]);
    t
}

/// Lower-case hex, for messages and test vectors.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
