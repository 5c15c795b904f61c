//! The bridge to the journal: session headers and record streams, typed for a game.
//!
//! `arbiter_journal` is the only crate that touches sled; this module is the only place in
//! verify that calls it for reading. Its errors become [`VerifyError`]s through
//! `error::from_journal`, re-exported here for the modules that write.

pub(crate) use crate::error::from_journal;
use crate::error::{ErrorKind, VerifyError};
use crate::header::Header;
use crate::records::RecordStream;
use crate::retraction::Retracted;
use crate::{Context, Games};
use arbiter_engine::Game;
use arbiter_journal::SessionMeta;

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

/// The key under which a session's setup holds the SHA-256 of its catalog file (see
/// [`Header::catalog_sha256`]). The setup is the one place of the stored metadata that
/// takes a new entry without changing its encoding, so sessions stored before it (and the
/// journal's format) stay as they were. No game parameter can have this name (a setup given
/// with it is refused as unknown), and it is taken out before anything reads the setup.
pub const CATALOG_SHA256_KEY: &str = "@catalog-sha256";

/// SHA-256 of a catalog file's bytes, lower-case hex.
pub(crate) fn catalog_sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A session's metadata as a log header.
pub fn header_of(meta: &SessionMeta) -> Header {
    take_header(&mut meta.clone())
}

/// A session's metadata as a log header, its fields moved out rather than copied: opening
/// a session reads the metadata for nothing else, and copying its strings and setup (then
/// dropping both copies) was a measurable part of verifying a short session. `meta` is
/// left with empty fields.
pub(crate) fn take_header(meta: &mut SessionMeta) -> Header {
    let title = std::mem::take(&mut meta.title);
    let catalog_sha256 = meta.setup.remove(CATALOG_SHA256_KEY);
    Header {
        game: std::mem::take(&mut meta.game),
        setup: std::mem::take(&mut meta.setup),
        catalog: meta.catalog.take(),
        catalog_sha256,
        title: (!title.is_empty()).then_some(title),
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
