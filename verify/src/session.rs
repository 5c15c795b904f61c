//! The bridge to the journal: session headers and record streams, typed for a game.
//!
//! `arbiter_journal` is the only crate that touches sled; this module is the only place in
//! verify that calls it for reading, and it turns its errors into [`VerifyError`]s.

use crate::error::{ErrorKind, VerifyError};
use crate::logfile::Header;
use crate::open::{Body, Record, RecordStream};
use crate::retraction::Retracted;
use crate::{Context, Games};
use arbiter_engine::Game;
use arbiter_journal::{JournalError, SessionMeta};

pub use arbiter_journal::Journal;

/// The journal of a context, or the sentence saying there is none.
pub(crate) fn journal<'a, R: Games>(ctx: &Context<'a, R>, name: &str) -> Result<&'a Journal, VerifyError> {
    ctx.journal.ok_or_else(|| {
        VerifyError::new(
            ErrorKind::Session,
            format!("`{name}` is not a file, and no journal is open to look it up as a session"),
        )
    })
}

/// A journal error as a verify error: an unknown session is a `Session` error, the rest
/// `Journal`; the journal's sentence is kept as it is (it names session and sequence).
pub(crate) fn from_journal(e: JournalError) -> VerifyError {
    let kind = match e.kind() {
        arbiter_journal::ErrorKind::SessionNotFound => ErrorKind::Session,
        arbiter_journal::ErrorKind::InUse => ErrorKind::Busy,
        _ => ErrorKind::Journal,
    };
    VerifyError::new(kind, e.message().to_string())
}

/// A session's metadata as a log header.
pub fn header_of(meta: &SessionMeta) -> Header {
    Header {
        game: meta.game.clone(),
        setup: meta.setup.clone(),
        catalog: meta.catalog.clone(),
        title: (!meta.title.is_empty()).then(|| meta.title.clone()),
        rules_version: Some(meta.rules_version),
    }
}

/// A session's retracted records and its record stream from `from`.
///
/// One journal call reads both ([`Journal::read_session`]): verifying a league's thousands
/// of short sessions pays the session lookup once per session instead of once for the
/// retractions and again for the stream.
pub(crate) fn records<R: Games, G: Game>(
    ctx: &Context<'_, R>,
    name: &str,
    from: u64,
) -> Result<(Retracted, RecordStream<G>), VerifyError> {
    let reader = journal(ctx, name)?.read_session::<G::Event>(name, from).map_err(from_journal)?;
    let retracted = reader.retractions.iter().map(|&(_, target)| target).collect();
    Ok((retracted, RecordStream::Session(reader.events)))
}

/// A journal record as a record of a log (sessions have no lines).
pub(crate) fn record<E>(
    item: Result<(u64, arbiter_journal::Record<E>), JournalError>,
) -> Result<Record<E>, VerifyError> {
    let (seq, record) = item.map_err(from_journal)?;
    let body = match record {
        arbiter_journal::Record::Event(e) => Body::Event(e),
        arbiter_journal::Record::Retract(t) => Body::Retract(t),
    };
    Ok(Record { index: seq, line: None, body })
}
