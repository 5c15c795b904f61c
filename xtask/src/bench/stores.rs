//! Opening the three stores side by side, each in its own directory.

use super::journal_store::JournalStore;
use super::jsonl::Jsonl;
use super::sqlite::Sqlite;
use super::store::Store;
use crate::Fallible;
use arbiter_engine::Game;
use std::path::Path;

/// The stores in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Arbiter,
    Sqlite,
    Jsonl,
}

pub const ALL: [Kind; 3] = [Kind::Arbiter, Kind::Sqlite, Kind::Jsonl];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Arbiter => "arbiter",
            Kind::Sqlite => "sqlite",
            Kind::Jsonl => "jsonl",
        }
    }
}

/// A fresh, empty store of this kind under `dir/<purpose>-<kind>`.
pub fn create<G: Game>(kind: Kind, dir: &Path, purpose: &str) -> Fallible<Box<dyn Store<G::Event>>> {
    let dir = dir.join(format!("{purpose}-{}", kind.name()));
    std::fs::create_dir_all(&dir)?;
    Ok(match kind {
        Kind::Arbiter => Box::new(JournalStore::create::<G>(&dir)?),
        Kind::Sqlite => Box::new(Sqlite::create(&dir)?),
        Kind::Jsonl => Box::new(Jsonl::create(&dir)?),
    })
}
