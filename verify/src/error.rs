//! The one error type of this crate: input that cannot be used at all (exit code 2).
//!
//! Violations are not errors: they are the findings a report carries. An error means there
//! is nothing to judge (no such file, a line that does not parse, an unknown game).

use std::fmt;

/// Why an input is unusable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ErrorKind {
    /// A file could not be read or written.
    Io,
    /// A log line (header, directive or event) could not be parsed.
    Parse,
    /// The log names a game this build does not know.
    UnknownGame,
    /// The setup, a variant or the catalog was refused by the game.
    Setup,
    /// A session name that the journal does not hold, or no journal was opened.
    Session,
    /// The journal refused an operation (conflict, corrupt bytes).
    Journal,
    /// Another process holds the database right now; trying again later may succeed.
    Busy,
    /// An argument that makes no sense (a record index past the end, a bad source spec).
    Argument,
}

/// Unusable input, described in one sentence that names the file, session or argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    pub kind: ErrorKind,
    pub message: String,
}

impl VerifyError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        VerifyError { kind, message: message.into() }
    }
    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Parse, message)
    }
    pub fn argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Argument, message)
    }
    pub fn setup(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Setup, message)
    }
    pub fn io(what: &str, err: &std::io::Error) -> Self {
        Self::new(ErrorKind::Io, format!("cannot read {what}: {err}"))
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Exit code for unusable input, shared by every command (`verify`, `diff`, `fixtures`...).
pub const EXIT_UNUSABLE: i32 = 2;

/// A journal error as a verify error: an unknown session is a `Session` error, the rest
/// `Journal`; the journal's sentence is kept as it is (it names session and sequence).
pub(crate) fn from_journal(e: arbiter_journal::JournalError) -> VerifyError {
    let kind = match e.kind() {
        arbiter_journal::ErrorKind::SessionNotFound => ErrorKind::Session,
        arbiter_journal::ErrorKind::InUse => ErrorKind::Busy,
        _ => ErrorKind::Journal,
    };
    VerifyError::new(kind, e.message().to_string())
}
