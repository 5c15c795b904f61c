//! What damage a walk over a stored log can find: the vocabulary `check` reports in and a
//! backend's scan names what it cannot read with.

use crate::error::{ErrorKind, JournalError};

/// What kind of damage `check` (or a read) found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// A record's bytes do not match its chain link: it was changed, or moved from another
    /// position (records reordered inside a block), or the metadata changed (at record 0).
    HashMismatch,
    /// Records are missing: a block was removed, the log ends before its head's length, or
    /// the store lost records the journal had acknowledged (see `ErrorKind::Lost`).
    Gap,
    /// A block is stored under another block's key (blocks swapped or moved).
    Misplaced,
    /// A record's bytes do not decode as a record of the event type.
    Undecodable,
    /// A block's framing is broken (bad header, a length running past its end).
    Framing,
    /// The log holds more records than its head says (records appended behind its back).
    Extra,
    /// The retraction index disagrees with the `Retract` records in the log.
    Retractions,
}

/// The first problem found, at the first sequence number it affects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub seq: u64,
    pub kind: ProblemKind,
    /// One sentence for people.
    pub message: String,
}

impl Problem {
    /// The problem as the error of a read that met it (its message names session and
    /// record).
    pub(crate) fn into_error(self, session: &str) -> JournalError {
        JournalError::new(ErrorKind::Corrupt, self.message).in_session(session).at(self.seq)
    }
}
