//! The storage boundary: what a backend provides so that the journal above it is an
//! append-only, hash-chained, conditional log of sessions.
//!
//! Everything a backend needs only to be durable and fast stays behind this trait, in the
//! backend's own module: for sled (`sled_store/`) the blocks, the write-ahead log, the
//! record of heads and the compare-and-swap. What is the same for every backend stays
//! above it: names, encoding (`batch`), the chain's genesis, and every check of the chain
//! (`walk`), so that every backend chains, verifies and reports damage alike.
//!
//! A backend hands records back a **page** at a time: a run of consecutive records with the
//! chain hash it stored before the first and after the last (a sled block; a page of rows).
//! The walk above verifies each record's link against its stored tag (and its stored full
//! link, where a backend keeps one per record) and the page's hashes against the records,
//! so no backend can return a changed record unnoticed.

use crate::batch::Batch;
use crate::chain::{Hash, TAG_LEN};
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::problem::ProblemKind;

/// The head of a session's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    /// Records in the log (the next sequence number).
    pub len: u64,
    /// Chain link of the last record (the genesis when the log is empty).
    pub last: Hash,
}

/// What a backend can say about a session's head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HeadClaim {
    /// The head, as stored.
    Known(Head),
    /// The head cannot be read (the record holding it is missing or damaged); the records
    /// before `from` may still be walked.
    Unreadable { from: u64, what: String },
    /// The store holds fewer records than it acknowledged: `holds` is what it has, and the
    /// loss is refused until accepted.
    Lost(Loss),
}

/// Records a store acknowledged and no longer holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    /// The session.
    pub session: String,
    /// How many records it was acknowledged to hold.
    pub expected: u64,
    /// How many it holds now (0 when the whole session is gone).
    pub holds: u64,
    /// Whether the session itself is gone.
    pub vanished: bool,
    /// One sentence for people, saying how to decide.
    pub message: String,
}

/// A session found by name: its key in the backend and its metadata.
pub(crate) struct Found {
    pub id: u64,
    pub meta: SessionMeta,
}

/// When an append may return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ack {
    /// Once it survives a crash (and, under `Durability::Fsync`, a power cut).
    Durable,
    /// At once; a later flush makes it durable.
    Buffered,
}

/// One record of a page: its stored chain tag and where its bytes are in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub tag: [u8; TAG_LEN],
    pub start: usize,
    pub end: usize,
}

/// A run of consecutive records as a backend stores them, read into a reusable buffer.
#[derive(Debug, Default)]
pub(crate) struct Page {
    /// Sequence number of its first record, as stored.
    pub first: u64,
    /// The stored chain hash before its first record.
    pub before: Hash,
    /// How many records the backend says it holds.
    pub count: u64,
    /// The stored chain hash after its last record.
    pub after: Hash,
    /// The records' bytes, each at its span.
    pub bytes: Vec<u8>,
    pub spans: Vec<Span>,
    /// Each record's full stored link, for a backend that keeps one per record (empty for
    /// one that keeps only the tags and the page's hashes): the walk holds each record to
    /// it in full.
    pub links: Vec<Hash>,
    /// Why the records after `spans` cannot be read (broken framing), when they cannot.
    pub broken: Option<String>,
}

impl Page {
    /// Record `i`'s bytes.
    pub fn record(&self, i: usize) -> &[u8] {
        let span = self.spans[i];
        &self.bytes[span.start..span.end]
    }
}

/// Why a scan could not give its next page.
#[derive(Debug)]
pub(crate) enum ScanError {
    /// A page that cannot be read at all. `at` is the sequence number it is stored under,
    /// when the backend can tell.
    Damage { at: Option<u64>, kind: ProblemKind, what: String },
    /// The store failed.
    Storage(JournalError),
}

/// A session's pages in order.
pub(crate) trait Scan: Send {
    /// Read the next page into `page`; `Ok(false)` after the last one.
    fn next_page(&mut self, page: &mut Page) -> Result<bool, ScanError>;
}

/// An embedded or server store of sessions. Every method that takes `(name, id)` is given
/// what `find` returned; `name` is for messages.
pub(crate) trait Store: Send + Sync {
    /// Every session name, ordered.
    fn names(&self) -> Result<Vec<String>, JournalError>;

    /// Every session with its metadata, ordered by name. An error when a session the store
    /// acknowledged is gone.
    fn sessions(&self) -> Result<Vec<(String, SessionMeta)>, JournalError>;

    /// A session by name; `None` when there is none (an error of kind `Lost` when the store
    /// acknowledged it and lost it).
    fn find(&self, name: &str) -> Result<Option<Found>, JournalError>;

    /// A session's head.
    fn head(&self, name: &str, id: u64) -> Result<HeadClaim, JournalError>;

    /// Create a session holding `batch`, durably, all or nothing; `SessionExists` when the
    /// name is taken. `genesis` is the hash its chain starts from.
    fn create(
        &self,
        name: &str,
        meta: &SessionMeta,
        genesis: &Hash,
        batch: &Batch,
    ) -> Result<Head, JournalError>;

    /// Append `batch` at `expected` (the log's length), all or nothing; `Conflict`, writing
    /// nothing, when the log's length is another. Links are computed with `chain::link`.
    fn append(
        &self,
        name: &str,
        id: u64,
        expected: u64,
        batch: &Batch,
        ack: Ack,
    ) -> Result<Head, JournalError>;

    /// The session's pages from the one holding record `from` (every page, past the head
    /// too, for `from = 0`).
    fn scan(&self, name: &str, id: u64, from: u64) -> Result<Box<dyn Scan>, JournalError>;

    /// Every retraction in log order: `(sequence of the Retract record, sequence it retracts)`.
    fn retractions(&self, name: &str, id: u64) -> Result<Vec<(u64, u64)>, JournalError>;

    /// Cache the state after `seq` records, made under `rules_version` (not part of the chain).
    fn put_snapshot(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
        bytes: &[u8],
    ) -> Result<(), JournalError>;

    /// The cached state at the greatest sequence at or before `seq` made under
    /// `rules_version`.
    fn snapshot_before(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
    ) -> Result<Option<(u64, Vec<u8>)>, JournalError>;

    /// Delete the cached states made under any other rules version; how many.
    fn discard_snapshots(&self, name: &str, id: u64, keep_rules_version: u32) -> Result<usize, JournalError>;

    /// Make everything written so far durable.
    fn flush(&self) -> Result<(), JournalError>;

    /// Every loss the store knows of.
    fn losses(&self) -> Result<Vec<Loss>, JournalError>;

    /// Accept that a session holds only what the store still has, so that it may be read
    /// and continued again; the loss given up, `None` when there was none.
    fn accept_loss(&self, name: &str) -> Result<Option<Loss>, JournalError>;

    /// Remove the whole store if it holds no session, with no other writer able to store
    /// one in between; whether it was removed.
    fn remove_if_empty(self: Box<Self>) -> Result<bool, JournalError>;

    /// Let go of the store as its process ends (see `Journal::close_at_exit`). A store
    /// that has nothing to do on closing may skip its destructor; the default closes it.
    fn close_at_exit(self: Box<Self>) {}
}

/// The refusal of an append that expected another length: nothing was written. Every
/// backend says it in these words.
pub(crate) fn conflict(name: &str, len: u64, expected_next: u64) -> JournalError {
    JournalError::new(
        ErrorKind::Conflict,
        format!(
            "session `{name}` has {len} records, but the append expected {expected_next}; \
             nothing was written (someone else appended first?)"
        ),
    )
    .in_session(name)
    .at(len)
}

/// The refusal of a new session whose name is taken: nothing was written.
pub(crate) fn exists(name: &str) -> JournalError {
    JournalError::new(
        ErrorKind::SessionExists,
        format!("session `{name}` already exists; choose another name"),
    )
    .in_session(name)
}
