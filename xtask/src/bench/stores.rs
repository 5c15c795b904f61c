//! Opening the three stores side by side, each in its own directory.

use super::journal_store::JournalStore;
use super::jsonl::Jsonl;
use super::sqlite::Sqlite;
use super::store::Store;
use crate::Fallible;
use arbiter_engine::Game;
use std::path::{Path, PathBuf};

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

    /// The kind a name stands for (the child process gets it on its command line).
    pub fn from_name(name: &str) -> Option<Kind> {
        ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The directory of the store of this kind made for `purpose` under `dir`.
pub fn dir_of(kind: Kind, dir: &Path, purpose: &str) -> PathBuf {
    dir.join(format!("{purpose}-{}", kind.name()))
}

/// A fresh, empty store of this kind under `dir/<purpose>-<kind>`.
pub fn create<G: Game>(kind: Kind, dir: &Path, purpose: &str) -> Fallible<Box<dyn Store<G::Event>>> {
    let dir = dir_of(kind, dir, purpose);
    std::fs::create_dir_all(&dir)?;
    Ok(match kind {
        Kind::Arbiter => Box::new(JournalStore::create::<G>(&dir)?),
        Kind::Sqlite => Box::new(Sqlite::create(&dir)?),
        Kind::Jsonl => Box::new(Jsonl::create(&dir)?),
    })
}

/// The store of this kind in `store_dir` (as `create` made it), to read.
pub fn open<G: Game>(kind: Kind, store_dir: &Path) -> Fallible<Box<dyn Store<G::Event>>> {
    Ok(match kind {
        Kind::Arbiter => Box::new(JournalStore::create::<G>(store_dir)?),
        Kind::Sqlite => Box::new(Sqlite::open(store_dir)?),
        Kind::Jsonl => Box::new(Jsonl::create(store_dir)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::corpus::default_game;
    use arbiter_engine::proving_grounds::ProvingGrounds;

    #[test]
    fn every_store_gives_back_what_was_appended_in_order() {
        let game = default_game::<ProvingGrounds>().expect("the built-in game");
        let events = game.simulate(3, 40).expect("a simulator");
        let dir = tempfile::tempdir().expect("a temporary directory");
        for kind in ALL {
            let mut store = create::<ProvingGrounds>(kind, dir.path(), "test").expect("a store");
            for (seq, e) in events[..3].iter().enumerate() {
                store.append_one("a", seq as u64, e).expect("append one");
            }
            store.append_batch("a", 3, &events[3..]).expect("append a batch");
            store.append_batch("b", 0, &events[..2]).expect("another session");
            let mut read = Vec::new();
            let n = store
                .scan("a", &mut |e| {
                    read.push(e);
                    Ok(())
                })
                .expect("scan");
            assert_eq!((n as usize, &read), (events.len(), &events), "{}", kind.name());
            assert!(store.disk_bytes().expect("disk bytes") > 0, "{}", kind.name());
        }
    }
}
