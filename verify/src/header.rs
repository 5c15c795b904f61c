//! What a log says about its table: the game, its setup, catalog, title and rules version,
//! from a file's directives, a JSONL header line or a journal session's metadata.

use std::collections::BTreeMap;

/// What a log says about its table, from the `@game`/`@setup`/`@catalog`/`@title`/`@rules`
/// directives (or the JSONL header line, or a journal session's metadata).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub setup: BTreeMap<String, String>,
    pub catalog: Option<String>,
    /// A session's record of its catalog file's content (SHA-256, lower-case hex), taken
    /// when the session was created: replaying it under a changed file is refused rather
    /// than silently changing the verdicts of recorded events. `None` for a built-in
    /// catalog, a log file, or a session stored before sessions recorded it.
    pub catalog_sha256: Option<String>,
    pub title: Option<String>,
    /// The rules version the log was recorded under, when it says.
    pub rules_version: Option<u32>,
}
