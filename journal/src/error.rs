//! The one error type of the journal: a kind callers branch on, and one sentence for people.

use std::fmt;

/// What went wrong, for callers that react differently (the CLI maps kinds to exit codes and
/// hints; a recorder retries after a `Conflict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Another process has the database open: a writer holds an exclusive lock for as long
    /// as its `Journal` is open.
    InUse,
    /// The store itself failed: the directory cannot be created or read, the disk is full,
    /// the database files are damaged beyond what the store recovers, or its format is not
    /// ours.
    Storage,
    /// A session name that no session has (the message suggests a close name when one exists).
    SessionNotFound,
    /// `create_session` or `import` with a name a session already has.
    SessionExists,
    /// A session name that is empty, too long, or has characters outside `A-Z a-z 0-9 . _ -`.
    InvalidName,
    /// An append stated a next sequence number that is not the log's length: someone else
    /// appended first, or the caller's view is stale. Nothing was written.
    Conflict,
    /// Stored bytes that do not read back: a record, block, metadata or snapshot that does
    /// not decode or is framed wrongly. The message names the session and sequence.
    Corrupt,
    /// A record or snapshot the journal refuses before writing: a retraction naming a record
    /// that is not before it, a record encoding to more than `MAX_RECORD_BYTES`, a snapshot
    /// past the end of the log. Nothing was written.
    InvalidRecord,
    /// A sequence number past the end of the log (`hash_at` beyond the length).
    OutOfRange,
    /// A value that cannot be encoded (its `Serialize` impl failed).
    Encode,
    /// Records the journal acknowledged are no longer in its store (its data file lost
    /// them): the session is refused until the loss is accepted (`Journal::accept_loss`).
    Lost,
    /// A write to a journal opened read-only (`Journal::open_read_only`).
    ReadOnly,
    /// A receipt or key file that cannot be read, or whose signature does not verify.
    InvalidReceipt,
}

/// A journal failure: its kind, one clear sentence, and the session and sequence it concerns
/// when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalError {
    kind: ErrorKind,
    message: String,
    session: Option<String>,
    seq: Option<u64>,
}

impl JournalError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        JournalError { kind, message: message.into(), session: None, seq: None }
    }

    pub(crate) fn in_session(mut self, session: &str) -> Self {
        self.session = Some(session.to_string());
        self
    }

    pub(crate) fn at(mut self, seq: u64) -> Self {
        self.seq = Some(seq);
        self
    }

    /// A storage failure while doing `what` ("append to session `x`").
    pub(crate) fn storage(what: &str, err: impl fmt::Display) -> Self {
        JournalError::new(ErrorKind::Storage, format!("storage failure while {what}: {err}"))
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The sentence to show a person.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The session concerned, when there is one.
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The sequence number concerned, when there is one.
    pub fn seq(&self) -> Option<u64> {
        self.seq
    }
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JournalError {}
