//! The sled-backed event store: sessions, append-only logs of records with a hash chain,
//! a retraction index and state snapshots.
//!
//! **Invariant:** this is the only crate that touches sled, and it knows no game's rules:
//! records carry any serde type `E`, encoded by `codec`.
//!
//! **Invariant:** a stored record is never rewritten. An append names the sequence number it
//! expects to write at and fails whole, writing nothing, when the log has moved on.
//!
//! ```text
//! sessions ──► heads (length, last hash) ──► events: blocks of records under big-endian keys
//!                                           ├► retractions: index of Retract records
//!                                           └► snapshots: cached states, tagged by rules version
//! ```
//!
//! `layout` documents the trees; `block` the value format; `chain` the hash chain.

mod block;
mod chain;
mod check;
pub mod codec;
mod error;
mod journal;
pub mod layout;
mod meta;
mod name;
mod read;
mod record;
mod snapshot;

pub use block::{BLOCK_BYTES, BLOCK_RECORDS};
pub use chain::{genesis, hex, link, Hash, TAG_LEN};
pub use check::{CheckReport, Problem, ProblemKind};
pub use codec::{CodecError, CodecErrorKind};
pub use error::{ErrorKind, JournalError};
pub use journal::{Durability, Journal, MAX_RECORD_BYTES};
pub use meta::{Parent, SessionMeta};
pub use name::{validate_name, MAX_NAME_LEN};
pub use read::Events;
pub use record::Record;
