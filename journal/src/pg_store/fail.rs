//! What a PostgreSQL failure means to the journal: one sentence and an `ErrorKind`.

use crate::error::{ErrorKind, JournalError};

/// Why an operation on the server failed: the client's error (to be put in words with the
/// server and what was being done), or the journal's own refusal.
pub enum Failure {
    Pg(postgres::Error),
    Journal(JournalError),
}

impl From<postgres::Error> for Failure {
    fn from(e: postgres::Error) -> Failure {
        Failure::Pg(e)
    }
}

impl From<JournalError> for Failure {
    fn from(e: JournalError) -> Failure {
        Failure::Journal(e)
    }
}

/// The server's SQLSTATE of an error, when the server sent one.
pub fn code(e: &postgres::Error) -> Option<&str> {
    e.code().map(|c| c.code())
}

/// A unique constraint refused a row (two writers raced for one sequence number or name).
pub const UNIQUE_VIOLATION: &str = "23505";

/// `e`, met while doing `what` on the server shown as `server`, as one sentence.
pub fn sentence(server: &str, what: &str, e: &postgres::Error) -> JournalError {
    let (kind, said) = match code(e) {
        Some("25006") => (ErrorKind::ReadOnly, format!("database `{server}` is open read-only")),
        Some("42P01") => (
            ErrorKind::Storage,
            format!(
                "database `{server}` holds no arbiter journal (`arbiter new` or `arbiter import` with this \
                 --db creates one)"
            ),
        ),
        Some("3D000") => (ErrorKind::Storage, format!("PostgreSQL at `{server}` has no such database ({e})")),
        Some("28000" | "28P01") => {
            (ErrorKind::Storage, format!("PostgreSQL at `{server}` refused the login: {}", detail(e)))
        }
        Some("42501") => (
            ErrorKind::Storage,
            format!("the PostgreSQL user may not do this at `{server}` while {what}: {}", detail(e)),
        ),
        Some("53300") => (
            ErrorKind::InUse,
            format!("PostgreSQL at `{server}` has no connection left for this process (too many clients)"),
        ),
        Some("53100") => {
            (ErrorKind::Storage, format!("PostgreSQL at `{server}` is out of disk space: {}", detail(e)))
        }
        Some(_) => {
            (ErrorKind::Storage, format!("PostgreSQL at `{server}` failed while {what}: {}", detail(e)))
        }
        None if e.is_closed() => {
            (ErrorKind::Storage, format!("the connection to PostgreSQL at `{server}` was lost while {what}"))
        }
        None => {
            (ErrorKind::Storage, format!("cannot reach PostgreSQL at `{server}` while {what}: {}", detail(e)))
        }
    };
    JournalError::new(kind, said)
}

/// The server's own message (or the client's), without the client's prefixes.
fn detail(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                text = format!("{text}: {s}");
                source = s.source();
            }
            text
        }
    }
}
