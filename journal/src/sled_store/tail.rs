//! A session's last block as its head: the length, where the block starts and the chain
//! hash it ends at, read from the block's header; and the errors for a damaged one.

use super::block;
use super::layout;
use crate::chain::Hash;
use crate::error::{ErrorKind, JournalError};
use crate::store::Head;

/// A head as stored: the length, the last block's first sequence, the last hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tail {
    pub len: u64,
    /// First sequence number of the last block.
    pub first: u64,
    pub last: Hash,
}

impl Tail {
    pub fn head(self) -> Head {
        Head { len: self.len, last: self.last }
    }
}

/// A sled failure while doing `what` ("appending to session `x`"), in one sentence: sled
/// shows an I/O error by its debug form, which people should not have to read.
pub fn storage(what: &str, e: sled::Error) -> JournalError {
    match e {
        // sled passes some I/O errors on as the debug form of the original; its kind says it.
        sled::Error::Io(io) if io.raw_os_error().is_none() && io.to_string().starts_with("Os {") => {
            JournalError::storage(what, io.kind())
        }
        sled::Error::Io(io) => JournalError::storage(what, io),
        other => JournalError::storage(what, other),
    }
}

/// The error for a session whose stored data is damaged.
pub fn corrupt(name: &str, what: &str) -> JournalError {
    JournalError::new(ErrorKind::Corrupt, format!("session `{name}` is damaged: {what}")).in_session(name)
}

/// The first sequence of a session's last block, from its `heads` value.
pub fn tail_first_of(name: &str, value: Option<&[u8]>) -> Result<u64, JournalError> {
    value
        .and_then(layout::tail_first)
        .ok_or_else(|| corrupt(name, "its head (where its last block starts) is missing or malformed"))
}

pub fn missing_tail(name: &str, tail_first: u64) -> JournalError {
    corrupt(name, &format!("its last block, from record {tail_first}, is missing")).at(tail_first)
}

/// A session's head from its last block (stored at `tail_first`, `None` if missing).
pub fn head_of(name: &str, tail_first: u64, tail: Option<&[u8]>) -> Result<Tail, JournalError> {
    let tail = tail.ok_or_else(|| missing_tail(name, tail_first))?;
    let header = block::header(tail).map_err(|e| {
        corrupt(name, &format!("its last block, from record {tail_first}: {e}")).at(tail_first)
    })?;
    if header.first_seq != tail_first {
        return Err(corrupt(
            name,
            &format!("its last block, from record {tail_first}, holds records from {}", header.first_seq),
        )
        .at(tail_first));
    }
    Ok(Tail { len: tail_first + u64::from(header.count), first: tail_first, last: header.last })
}
