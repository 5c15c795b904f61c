//! arbiter's own journal as a `Store`: sessions created on first use (with their first batch
//! when they start with one, through `Journal::import`), every other append through
//! `Journal::append` (durable when it returns: a single event through the write-ahead log, a
//! batch in one transaction and one flush), reads through the streaming `Journal::events`.

use super::store::{dir_bytes, Store};
use crate::Fallible;
use arbiter_engine::Game;
use arbiter_journal::{Journal, Record, SessionMeta};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The journal's directory inside the store's own.
pub const JOURNAL_DIR: &str = "journal.db";

pub struct JournalStore {
    pub journal: Journal,
    dir: PathBuf,
    meta: SessionMeta,
    created: HashSet<String>,
}

/// The metadata of a session of `G` with its default setup.
pub fn meta<G: Game>() -> SessionMeta {
    SessionMeta {
        game: G::info().id.to_string(),
        setup: Default::default(),
        catalog: None,
        rules_version: G::info().rules_version,
        created: 0,
        title: "bench".into(),
        parent: None,
    }
}

impl JournalStore {
    pub fn create<G: Game>(dir: &Path) -> Fallible<JournalStore> {
        let dir = dir.join(JOURNAL_DIR);
        let journal = Journal::open(&dir)?;
        Ok(JournalStore { journal, dir, meta: meta::<G>(), created: HashSet::new() })
    }

    fn ensure(&mut self, session: &str) -> Fallible {
        if !self.created.contains(session) {
            self.journal.create_session(session, &self.meta)?;
            self.created.insert(session.to_string());
        }
        Ok(())
    }
}

impl<E: Serialize + DeserializeOwned> Store<E> for JournalStore {
    fn append_one(&mut self, session: &str, seq: u64, event: &E) -> Fallible {
        self.ensure(session)?;
        // `Record<&E>` encodes exactly like `Record<E>`: no clone of the event.
        self.journal.append(session, seq, &[Record::Event(event)])?;
        Ok(())
    }

    fn append_batch(&mut self, session: &str, first_seq: u64, events: &[E]) -> Fallible {
        let records: Vec<Record<&E>> = events.iter().map(Record::Event).collect();
        if first_seq == 0 && !self.created.contains(session) {
            // A session's first batch creates it, as `arbiter import` does (`Journal::import`,
            // one write): the other stores have no separate step for a new session either.
            // Creating it empty and then appending writes its first block twice.
            self.journal.import(session, &self.meta, &records)?;
            self.created.insert(session.to_string());
            return Ok(());
        }
        self.ensure(session)?;
        self.journal.append(session, first_seq, &records)?;
        Ok(())
    }

    fn scan(&mut self, session: &str, f: &mut dyn FnMut(E) -> Fallible) -> Fallible<u64> {
        let mut n = 0;
        for item in self.journal.events::<E>(session, 0)? {
            if let (_, Record::Event(e)) = item? {
                f(e)?;
                n += 1;
            }
        }
        Ok(n)
    }

    fn disk_bytes(&mut self) -> Fallible<u64> {
        self.journal.flush()?;
        dir_bytes(&self.dir)
    }

    fn journal(&self) -> Option<&Journal> {
        Some(&self.journal)
    }
}
