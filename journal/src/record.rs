//! One entry of a session's log.

use serde::{Deserialize, Serialize};

/// An entry in a session's log. Both kinds take a sequence number; the history keeps both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Record<E> {
    /// A game event (the journal does not look inside it).
    Event(E),
    /// Withdraws the record with this sequence number, which must come before it. Replay
    /// skips retracted records; the log still holds them.
    Retract(u64),
}
