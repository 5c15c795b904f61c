//! `arbiter sessions`: the sessions of a database by name, as the command line prints them
//! and `arbiter serve` answers them (text, and the JSON of schemas/sessions.json).

use crate::error::VerifyError;
use crate::session::from_journal;
use arbiter_journal::Journal;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// The sessions of a database.
#[derive(Debug, Clone, Serialize)]
pub struct SessionList {
    /// The database's path, as given.
    pub database: String,
    pub sessions: Vec<ListedSession>,
}

/// One session of the list.
#[derive(Debug, Clone, Serialize)]
pub struct ListedSession {
    pub name: String,
    pub game: String,
    /// Records stored, retractions included.
    pub records: u64,
    pub title: String,
    pub rules_version: u32,
    /// Unix seconds.
    pub created: u64,
    pub setup: BTreeMap<String, String>,
    pub catalog: Option<String>,
    pub parent: Option<ListedParent>,
}

/// The session and record a fork branched from.
#[derive(Debug, Clone, Serialize)]
pub struct ListedParent {
    pub session: String,
    pub at: u64,
}

/// The sessions of `journal`, the database at `database`.
pub fn session_list(journal: &Journal, database: &str) -> Result<SessionList, VerifyError> {
    let mut sessions = Vec::new();
    for (name, meta) in journal.sessions().map_err(from_journal)? {
        let records = journal.len(&name).map_err(from_journal)?;
        sessions.push(ListedSession {
            name,
            game: meta.game,
            records,
            title: meta.title,
            rules_version: meta.rules_version,
            created: meta.created,
            setup: meta.setup.into_iter().filter(|(k, _)| k != crate::session::CATALOG_SHA256_KEY).collect(),
            catalog: meta.catalog,
            parent: meta.parent.map(|p| ListedParent { session: p.session, at: p.at }),
        });
    }
    Ok(SessionList { database: database.to_string(), sessions })
}

impl fmt::Display for SessionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sessions.is_empty() {
            writeln!(f, "no sessions in `{}`", self.database)?;
        }
        for s in &self.sessions {
            let parent = s
                .parent
                .as_ref()
                .map(|p| format!(", forked from {} at {}", p.session, p.at))
                .unwrap_or_default();
            // A title is free text: one line of it, escaped, cut.
            let title = crate::shown(&s.title);
            writeln!(f, "{:<24} {:<16} {:>8} records  {title}{parent}", s.name, s.game, s.records)?;
        }
        Ok(())
    }
}
