//! The bridge to the journal: session headers and record streams, typed for a game.

use crate::error::{ErrorKind, VerifyError};
use crate::logfile::Header;
use crate::open::RecordStream;
use crate::{Context, Games};
use arbiter_engine::Game;
use std::collections::BTreeSet;

/// Placeholder until the journal crate lands.
pub struct Journal;

fn journal<'a, R: Games>(ctx: &Context<'a, R>, name: &str) -> Result<&'a Journal, VerifyError> {
    ctx.journal.ok_or_else(|| {
        VerifyError::new(ErrorKind::Session, format!("`{name}` is not a file, and no journal is open to look it up as a session"))
    })
}

/// A session's metadata as a log header.
pub(crate) fn header<R: Games>(ctx: &Context<'_, R>, name: &str) -> Result<Header, VerifyError> {
    let _j = journal(ctx, name)?;
    Err(VerifyError::new(ErrorKind::Session, format!("sessions are not available yet (`{name}`)")))
}

/// A session's retracted records and its record stream from `from`.
pub(crate) fn records<'a, R: Games, G: Game>(
    ctx: &Context<'a, R>,
    name: &str,
    _from: u64,
) -> Result<(BTreeSet<u64>, RecordStream<'a, G::Event>), VerifyError> {
    let _j = journal(ctx, name)?;
    Err(VerifyError::new(ErrorKind::Session, format!("sessions are not available yet (`{name}`)")))
}
