//! What the journal knows about a session besides its records.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A session's metadata, written once when the session is created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionMeta {
    /// The game id (`proving-grounds`), which the CLI dispatches on.
    pub game: String,
    /// Setup parameters, `NAME=VALUE` as the user gave them (ordered, so encoding is stable).
    pub setup: BTreeMap<String, String>,
    /// The card catalog: a built-in name or a path; `None` for the game's default.
    pub catalog: Option<String>,
    /// The game's rules version when the session was created.
    pub rules_version: u32,
    /// Creation time, unix seconds.
    pub created: u64,
    /// A free-text title (may be empty).
    pub title: String,
    /// Where a forked session came from; `None` for an original.
    pub parent: Option<Parent>,
}

/// The branch point of a forked session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parent {
    /// The session forked from.
    pub session: String,
    /// How many of the parent's records the fork starts with (records `0..at`).
    pub at: u64,
    /// The parent's chain hash after those records: `Journal::hash_at(parent, at)`.
    pub hash: [u8; 32],
}
