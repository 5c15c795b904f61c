//! The PostgreSQL backend: a journal kept in tables of a PostgreSQL database, so that several
//! processes on several machines (command lines, `arbiter serve` instances) share one
//! league's sessions. Everything that talks to the server is in this directory.
//!
//! Inside, imports run one way (tests/tidy.rs holds them to it):
//! - `schema` (the tables and every statement) and `fail` (what a failure means);
//! - `pool` (connections, each with its statements prepared once);
//! - `state` (`PgStore`, opening a database, making its tables), `tools` (for tests);
//! - the operations, each an `impl PgStore` of its own: `read` and `write`;
//! - this file: the `Store` the journal talks to.
//!
//! What the server guarantees takes the place of what sled's backend builds for itself: a
//! commit is atomic and, with `synchronous_commit=on`, durable when it returns, so there is
//! no write-ahead log of the journal's own; and the head and the records are committed
//! together, so there is no record of heads beside them. What stays is the journal's own
//! chain: every read and `check` recompute it over the rows, so a row changed by hand, by
//! a bug or by a bad restore is named, never read as a different history.
//!
//! **Invariant:** an append that returned `Ok` was committed by the server, and each
//! sequence number of a session is won by exactly one append: the update of the session's
//! row is conditional on the head the append read, and the primary key refuses a
//! duplicate.
//!
//! The client is synchronous (see `pool`): from async code, call the journal on a blocking
//! thread (`tokio::task::spawn_blocking`).

mod fail;
mod pool;
mod read;
mod schema;
mod state;
pub mod tools;
mod write;

pub(crate) use state::PgStore;

use crate::batch::Batch;
use crate::chain::Hash;
use crate::error::JournalError;
use crate::meta::SessionMeta;
use crate::store::{Ack, Found, Head, HeadClaim, Loss, Scan, Store};

impl Store for PgStore {
    fn names(&self) -> Result<Vec<String>, JournalError> {
        self.names_of()
    }

    fn sessions(&self) -> Result<Vec<(String, SessionMeta)>, JournalError> {
        self.sessions_of()
    }

    fn find(&self, name: &str) -> Result<Option<Found>, JournalError> {
        self.find_session(name)
    }

    fn head(&self, name: &str, id: u64) -> Result<HeadClaim, JournalError> {
        self.head_of(name, id)
    }

    fn create(
        &self,
        name: &str,
        meta: &SessionMeta,
        genesis: &Hash,
        batch: &Batch,
    ) -> Result<Head, JournalError> {
        self.create_session(name, meta, genesis, batch)
    }

    /// Every append is acknowledged after its commit: `Ack::Buffered` saves nothing worth a
    /// weaker promise on a server (the commit's flush is shared by the whole batch).
    fn append(
        &self,
        name: &str,
        id: u64,
        expected: u64,
        batch: &Batch,
        _ack: Ack,
    ) -> Result<Head, JournalError> {
        self.append_records(name, id, expected, batch)
    }

    fn scan(&self, name: &str, id: u64, from: u64) -> Result<Box<dyn Scan>, JournalError> {
        Ok(Box::new(self.scan_of(name, id, from)?))
    }

    fn retractions(&self, name: &str, id: u64) -> Result<Vec<(u64, u64)>, JournalError> {
        self.retractions_of(name, id)
    }

    fn put_snapshot(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
        bytes: &[u8],
    ) -> Result<(), JournalError> {
        self.store_snapshot(name, id, seq, rules_version, bytes)
    }

    fn snapshot_before(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
    ) -> Result<Option<(u64, Vec<u8>)>, JournalError> {
        self.snapshot_of(name, id, seq, rules_version)
    }

    fn discard_snapshots(&self, name: &str, id: u64, keep_rules_version: u32) -> Result<usize, JournalError> {
        self.remove_snapshots(name, id, keep_rules_version)
    }

    /// Nothing is left to flush: every append returned after its commit.
    fn flush(&self) -> Result<(), JournalError> {
        Ok(())
    }

    /// The server loses no committed row silently (its own log is replayed whole or the
    /// server does not start); rows removed or changed behind the journal's back are damage,
    /// which the walk names as such.
    fn losses(&self) -> Result<Vec<Loss>, JournalError> {
        Ok(Vec::new())
    }

    fn accept_loss(&self, _name: &str) -> Result<Option<Loss>, JournalError> {
        self.writable()?;
        Ok(None)
    }

    /// A server's database is never removed: it was not made by this process.
    fn remove_if_empty(self: Box<Self>) -> Result<bool, JournalError> {
        Ok(false)
    }
}
