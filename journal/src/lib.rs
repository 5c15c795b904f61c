//! The event store: sessions, append-only logs of records with a hash chain, a retraction
//! index and state snapshots, behind one storage boundary (`store::Store`) with sled as its
//! embedded backend (`sled_store/`).
//!
//! **Invariant:** this is the only crate that touches sled, and inside it only
//! `sled_store/` does; it knows no game's rules: records carry any serde type `E`, encoded
//! by `codec`.
//!
//! **Invariant:** a stored record is never rewritten. An append names the sequence number it
//! expects to write at and fails whole, writing nothing, when the log has moved on.
//!
//! **Invariant:** an append that returned `Ok` is on disk: in sled's data file, flushed and
//! synced, or in the write-ahead log beside it (`sled_store/wal.rs`), which `Journal::open`
//! redoes into sled before anything else (`sled_store/recover.rs`).
//!
//! **Invariant:** every read verifies the chain of what it reads (`walk`): a changed
//! record is an error naming it, never a silently different record.
//!
//! ```text
//! sessions ──► heads ──► events: blocks of records under big-endian keys; the last
//!              │         block's header is the session's head (length, last hash)
//!              ├► retractions: index of Retract records
//!              └► snapshots: cached states, tagged by rules version
//! arbiter-wal: single appends not yet flushed into sled (arbiter-wal-mark: the last synced)
//! arbiter-heads: every session's acknowledged head, to catch what sled loses
//! ```
//!
//! `sled_store/layout.rs` documents the trees, `sled_store/block.rs` the value format,
//! `chain` the hash chain, `sled_store/write.rs` how writes are made whole and durable.
//!
//! ```
//! use arbiter_journal::{Journal, Record, SessionMeta};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! let journal = Journal::open(dir.path().join("arbiter.db"))?;
//! let meta = SessionMeta {
//!     game: "proving-grounds".into(),
//!     setup: Default::default(),
//!     catalog: None,
//!     rules_version: 1,
//!     created: 1_700_000_000,
//!     title: "Carter's first round".into(),
//!     parent: None,
//! };
//! journal.create_session("carter", &meta)?;
//! // Each append names the sequence number it expects to write at.
//! journal.append("carter", 0, &[Record::Event("roll 1 1 3 3 4 5g 6b 6y".to_string())])?;
//! journal.append("carter", 1, &[Record::Event("reroll 1 -> 4 6".to_string()), Record::Retract(1)])?;
//! let stale = journal.append("carter", 1, &[Record::Event("stop".to_string())]);
//! assert!(stale.is_err(), "someone else wrote record 1 already");
//!
//! let log: Vec<(u64, Record<String>)> = journal.events("carter", 0)?.collect::<Result<_, _>>()?;
//! assert_eq!(log.len(), 3);
//! assert_eq!(journal.retracted("carter")?.into_iter().collect::<Vec<_>>(), [1]);
//! assert!(journal.check::<String>("carter")?.is_ok());
//! # Ok(())
//! # }
//! ```

// Layers (tests/tidy.rs enforces them: a module imports only from layers below its own):
// 0 pure: error, codec, record, meta, limits, problem
// 1 pure: name, chain, batch, receipt
// 2 the storage boundary: store
// 3 shared over any store: walk, then events, check, copy
// 4 backends: sled_store/ and pg_store/ (their own files layered inside, see their
//   module docs)
// 5 the facade: journal
mod batch;
mod chain;
mod check;
pub mod codec;
mod copy;
mod error;
mod events;
mod journal;
mod limits;
mod location;
mod meta;
mod name;
mod pg_store;
mod problem;
mod receipt;
mod record;
mod sled_store;
mod store;
#[doc(hidden)]
pub mod test_server;
mod walk;

pub use chain::{genesis, hex, link, Hash, TAG_LEN};
pub use check::CheckReport;
pub use codec::{CodecError, CodecErrorKind};
pub use copy::Copied;
pub use error::{ErrorKind, JournalError};
pub use events::{Events, SessionReader};
pub use journal::Journal;
pub use limits::MAX_RECORD_BYTES;
pub use location::{beside, display as display_location, is_server};
pub use meta::{Parent, SessionMeta};
pub use name::{validate_name, MAX_NAME_LEN};
pub use problem::{Problem, ProblemKind};
pub use receipt::{Receipt, SealKey};
pub use record::Record;
pub use sled_store::tools as layout;
pub use sled_store::{Durability, BLOCK_BYTES, BLOCK_RECORDS};
pub use store::Loss;
