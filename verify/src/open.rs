//! Turning a source into a configured game and a stream of typed records.
//!
//! Records are parsed as they are replayed, not all up front, so diffing two long logs that
//! split early reads (and parses) only as far as the split. Retractions are known before
//! replay starts: a file's `undo` lines are resolved by the syntax step, a session's by the
//! journal, so a retracted record is skipped when replay reaches it.

use crate::error::{ErrorKind, VerifyError};
use crate::logfile::{Header, Lent, LogReader, RawBody};
use crate::retraction::Retracted;
use crate::shown::shown;
use crate::source::{Origin, Source};
use crate::Context;
use crate::Games;
use arbiter_engine::{Game, Setup};
use serde::Deserialize;
use std::any::TypeId;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A record of a log, typed for game `E`'s events.
#[derive(Debug, Clone, PartialEq)]
pub enum Body<E> {
    Event(E),
    /// Retracts the record with this index.
    Retract(u64),
}

/// One typed record.
#[derive(Debug, Clone)]
pub(crate) struct Record<E> {
    pub index: u64,
    /// The file line it came from (sessions have none).
    pub line: Option<usize>,
    pub body: Body<E>,
}

/// The records of an opened log, typed as replay asks for them.
///
/// Both kinds of stream are concrete types, not boxed iterators, so that the plain verify
/// loop can be compiled for each (see `verify::checking`): verifying a league steps every
/// record of thousands of sessions or files, and a dynamic call and the copies of an owned
/// event through each layer per record showed in its profile.
// One per opened log, moved a few times and never stored in bulk: boxing the larger
// variant would only add an allocation per session.
#[allow(clippy::large_enum_variant)]
pub(crate) enum RecordStream<G: Game> {
    /// A session's records, decoded as they are read.
    Session(arbiter_journal::Events<G::Event>),
    /// A file's records, parsed as they are read.
    File(Box<FileRecords<G>>),
}

impl<G: Game> Iterator for RecordStream<G> {
    type Item = Result<Record<G::Event>, VerifyError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            RecordStream::Session(events) => events.next().map(crate::session::record),
            RecordStream::File(file) => {
                file.next_with(|index, line, body| Ok(Record { index, line: Some(line), body }))
            }
        }
    }
}

/// A file's records, parsed by the game as its reader reaches them.
pub(crate) struct FileRecords<G: Game> {
    reader: Box<LogReader>,
    /// The game, for its parser.
    parser: G,
    /// Every retraction the scan before replay found: the reader must find no other.
    known: Retracted,
    /// The file, named in messages.
    path: PathBuf,
    /// The next record's index.
    index: u64,
}

impl<G: Game> FileRecords<G> {
    /// The next record handed to `f` with its index and line: the event is parsed straight
    /// from the reader's line and given to `f` where it was parsed, not moved up through a
    /// record, a `Result` and an `Option` per layer (what `f` returns is).
    #[inline]
    pub fn next_with<T>(
        &mut self,
        f: impl FnOnce(u64, usize, Body<G::Event>) -> Result<T, VerifyError>,
    ) -> Option<Result<T, VerifyError>> {
        let i = self.index;
        self.index += 1;
        let FileRecords { reader, parser, known, path, .. } = self;
        let path = path.as_path();
        reader.next_with(|line, raw| f(i, line, body(parser, known, path, line, raw)?))
    }

    /// Every record left handed to `f` as [`Self::next_with`] hands one, until `f` returns
    /// `false`. The loop runs inside the reader: this is `arbiter verify FILE`'s path, and
    /// handing records out one call at a time cost about a tenth of the crate's own part of
    /// a record.
    #[inline]
    pub fn each(
        &mut self,
        mut f: impl FnMut(u64, usize, &Body<G::Event>) -> Result<bool, VerifyError>,
    ) -> Result<(), VerifyError> {
        let FileRecords { reader, parser, known, path, index } = self;
        let path = path.as_path();
        reader.each_with(|line, raw| {
            let i = *index;
            *index += 1;
            f(i, line, &body(parser, known, path, line, raw)?)
        })
    }
}

/// A record the reader lent, parsed by the game. The scan before replay must have seen every
/// retraction the reader finds (`known`).
#[inline(always)]
fn body<G: Game>(
    parser: &G,
    known: &Retracted,
    path: &Path,
    line: usize,
    raw: Lent<'_>,
) -> Result<Body<G::Event>, VerifyError> {
    Ok(match raw {
        Lent::Notation(text, column) => Body::Event(parse_line(parser, path, text, column, line)?),
        Lent::Other(RawBody::Retract(t)) if known.contains(t) => Body::Retract(t),
        Lent::Other(RawBody::Retract(_)) => return Err(unknown_retraction(path, line)),
        // The reader lends every event line; an owned one parses the same.
        Lent::Other(RawBody::Notation(text, column)) => {
            Body::Event(parse_line(parser, path, &text, column, line)?)
        }
        Lent::Other(RawBody::Json(value)) => Body::Event(json_event(parser, value, path, line)?),
    })
}

/// A retraction the reader found that the scan before replay did not: the file changed
/// between the two reads.
fn unknown_retraction(path: &Path, line: usize) -> VerifyError {
    VerifyError::parse(format!(
        "{}:{line}: a retraction the scan for retractions did not find",
        shown(&path.display().to_string()),
    ))
}

/// A log opened for one game: what replay needs.
pub(crate) struct Opened<G: Game> {
    pub header: Header,
    pub game: G,
    /// Records later retracted; replay skips them.
    pub retracted: Retracted,
    pub records: RecordStream<G>,
}

/// A source read as far as its header: enough to pick the game. A session is looked up
/// once: its reader (retractions and a record stream not yet typed) is kept for `open`.
pub(crate) enum Peeked {
    File(Box<LogReader>),
    Session(String, Header, Box<arbiter_journal::SessionReader<()>>),
}

impl Peeked {
    pub fn header(&self) -> &Header {
        match self {
            Peeked::File(f) => &f.header,
            Peeked::Session(_, h, _) => h,
        }
    }
}

/// Read a source up to the point where its game is known.
pub(crate) fn peek<R: Games>(ctx: &Context<'_, R>, source: &Source) -> Result<Peeked, VerifyError> {
    match &source.origin {
        Origin::File(path) => {
            let mut reader = LogReader::open(path)?;
            reader.cache = ctx.retraction_cache.clone();
            Ok(Peeked::File(Box::new(reader)))
        }
        Origin::Session(name) => {
            let reader = crate::session::journal(ctx, name)?
                .read_session::<()>(name, 0)
                .map_err(crate::session::from_journal)?;
            Ok(Peeked::Session(name.clone(), crate::session::header_of(&reader.meta), Box::new(reader)))
        }
    }
}

/// The "unknown game" sentence.
pub(crate) fn unknown_game<R: Games>(ctx: &Context<'_, R>, label: &str, id: &str) -> VerifyError {
    VerifyError::new(
        ErrorKind::UnknownGame,
        format!("{label}: unknown game `{id}` (known games: {})", ctx.games.ids().join(", ")),
    )
}

/// Build the game a header describes, under the given overrides, loading its catalog.
pub(crate) fn build_game<G: Game>(
    label: &dyn std::fmt::Display,
    header: &Header,
    overrides: &[(String, String)],
    base_dir: Option<&Path>,
) -> Result<G, VerifyError> {
    let mut setup = Setup { params: header.setup.clone(), catalog: header.catalog.clone() };
    for (name, value) in overrides {
        if name == "rules" && !G::params().iter().any(|p| p.name == "rules") {
            let current = G::info().rules_version;
            if value.parse::<u32>().ok() == Some(current) {
                continue;
            }
            return Err(VerifyError::setup(format!(
                "{label}: {} cannot replay rules version {value}: this build implements version {current} and declares no `rules` interpretation for older ones",
                G::info().id
            )));
        }
        setup = setup.with(name, value);
    }
    // Checked here as well as in the game so that the sentence is the same for every game.
    check_setup::<G>(label, &setup)?;
    let name = setup.catalog.clone().unwrap_or_else(|| G::default_catalog().to_string());
    // A built-in catalog is borrowed, not copied: the game may recognise it and reuse its parse.
    let text: std::borrow::Cow<'static, str> = match G::builtin_catalog(&name) {
        Some(t) => return built_in::<G>(label, setup, t),
        None => {
            let path = match base_dir {
                Some(dir) if Path::new(&name).is_relative() => dir.join(&name),
                _ => PathBuf::from(&name),
            };
            crate::logfile::read_bounded(&path, "catalog", MAX_CATALOG_BYTES)
                .map_err(|e| {
                    VerifyError::setup(format!(
                        "{label}: catalog `{}` is neither a built-in catalog of {} nor a usable file ({e})",
                        shown(&name),
                        G::info().id,
                    ))
                })?
                .into()
        }
    };
    G::new(&setup, &text).map_err(|e| VerifyError::setup(format!("{label}: {e}")))
}

/// The last game built on a built-in catalog, with its type and setup: `Game::new` is a
/// pure function of the setup and the catalog's text, and a built-in catalog's text never
/// changes, so verifying a league's thousands of sessions recorded under one setup builds
/// the game once and clones it (reading the setup again cost as much per session as
/// stepping a dozen events). A poisoned lock only skips it.
type Built = Option<(TypeId, Setup, Box<dyn std::any::Any + Send>)>;
static LAST_BUILT: Mutex<Built> = Mutex::new(None);

fn built_in<G: Game>(
    label: &dyn std::fmt::Display,
    setup: Setup,
    text: &'static str,
) -> Result<G, VerifyError> {
    let id = TypeId::of::<G>();
    if let Ok(last) = LAST_BUILT.lock() {
        if let Some((_, _, game)) = last.as_ref().filter(|(g, s, _)| *g == id && *s == setup) {
            if let Some(game) = game.downcast_ref::<G>() {
                return Ok(game.clone());
            }
        }
    }
    let game = G::new(&setup, text).map_err(|e| VerifyError::setup(format!("{label}: {e}")))?;
    if let Ok(mut last) = LAST_BUILT.lock() {
        *last = Some((id, setup, Box::new(game.clone())));
    }
    Ok(game)
}

/// The largest catalog file read. The shipped catalogs are a few kilobytes; the bound keeps
/// `@catalog /dev/zero` or a mistaken multi-gigabyte path from exhausting memory.
pub const MAX_CATALOG_BYTES: u64 = 16 << 20;

/// The last setup [`check_setup`] accepted, with its game's type: verifying a league
/// checks thousands of sessions recorded under one setup, and resolving it again for each
/// cost as much per session as stepping a hundred events. A poisoned lock only skips it.
static LAST_ACCEPTED: Mutex<Option<(TypeId, Setup)>> = Mutex::new(None);

/// Refuse a setup `G` does not accept, naming every reason. `Setup::resolve` is a pure
/// function of the setup and `G::params()`, so a setup accepted once for `G` is accepted
/// again without resolving it.
fn check_setup<G: Game>(label: &dyn std::fmt::Display, setup: &Setup) -> Result<(), VerifyError> {
    let game = TypeId::of::<G>();
    let seen = |last: &Option<(TypeId, Setup)>| last.as_ref().is_some_and(|(g, s)| *g == game && s == setup);
    if LAST_ACCEPTED.lock().is_ok_and(|last| seen(&last)) {
        return Ok(());
    }
    setup.resolve(G::params()).map_err(|e| VerifyError::setup(format!("{label}: {e}")))?;
    if let Ok(mut last) = LAST_ACCEPTED.lock() {
        *last = Some((game, setup.clone()));
    }
    Ok(())
}

/// Open a peeked source for game `G`, under the source's and the caller's overrides.
pub(crate) fn open<G: Game>(
    source: &Source,
    peeked: Peeked,
    extra: &[(String, String)],
) -> Result<Opened<G>, VerifyError> {
    open_scanned(source, peeked, extra, None)
}

/// What the scan for a peeked file's retractions needs, `None` for a session.
pub(crate) fn scan_target(peeked: &Peeked) -> Option<crate::logfile::ScanTarget> {
    match peeked {
        Peeked::File(file) => Some(file.scan_target()),
        Peeked::Session(..) => None,
    }
}

/// [`open`], with a file's retractions already scanned (`logfile::retracted_records`) when
/// given.
pub(crate) fn open_scanned<G: Game>(
    source: &Source,
    peeked: Peeked,
    extra: &[(String, String)],
    scanned: Option<Retracted>,
) -> Result<Opened<G>, VerifyError> {
    // Named in messages only: formatted when one is written, not for every opened log.
    let label = source;
    match peeked {
        Peeked::File(file) => {
            let mut overrides = file.variants.clone();
            overrides.extend(source.variants.iter().cloned());
            overrides.extend(extra.iter().cloned());
            let path = file.path().to_path_buf();
            let game: G = build_game(label, &file.header, &overrides, path.parent())?;
            let retracted = match scanned {
                Some(r) => r,
                None => crate::logfile::retracted_records_of(&file)?,
            };
            let header = file.header.clone();
            let records =
                FileRecords { reader: file, parser: game.clone(), known: retracted.clone(), path, index: 0 };
            Ok(Opened { header, game, retracted, records: RecordStream::File(Box::new(records)) })
        }
        Peeked::Session(_, header, reader) => {
            let mut overrides = source.variants.clone();
            overrides.extend(extra.iter().cloned());
            let game: G = build_game(label, &header, &overrides, None)?;
            let retracted = reader.retractions.iter().map(|&(_, target)| target).collect();
            Ok(Opened { header, game, retracted, records: RecordStream::Session(reader.events.cast()) })
        }
    }
}

/// A notation event line of a file, parsed by the game; an error names file, line and
/// column.
#[inline]
fn parse_line<G: Game>(
    game: &G,
    path: &Path,
    text: &str,
    column: usize,
    line: usize,
) -> Result<G::Event, VerifyError> {
    game.parse_event(text).map_err(|e| {
        VerifyError::parse(format!(
            "{}:{line}:{}: expected {}, found {}",
            shown(&path.display().to_string()),
            column + e.column.saturating_sub(1),
            e.expected,
            shown(&e.found)
        ))
    })
}

/// A JSONL event, held to the same rules as a notation line: every key it holds must be one
/// the game reads (serde would silently ignore a misspelt one), and it must read back from
/// its notation as itself (`parse_event` is the one place an event's values are checked, so
/// a die of 7 is refused in JSONL exactly as in notation, and a file that imports always
/// exports to notation and back).
pub(crate) fn json_event<G: Game>(
    game: &G,
    value: serde_json::Value,
    path: &Path,
    line: usize,
) -> Result<G::Event, VerifyError> {
    // Built only for a message: every JSONL event passes here.
    let at = || format!("{}:{line}:1", shown(&path.display().to_string()));
    let event = G::Event::deserialize(&value).map_err(|e| {
        VerifyError::parse(format!(
            "{}: expected a {} event, found one that does not fit ({})",
            at(),
            G::info().id,
            shown(&e.to_string())
        ))
    })?;
    let back = serde_json::to_value(&event).unwrap_or(serde_json::Value::Null);
    if let Some(key) = crate::jsonl::ignored_key(&value, &back) {
        return Err(VerifyError::parse(format!(
            "{}: expected a {} event, found unknown key `{}`",
            at(),
            G::info().id,
            shown(&key)
        )));
    }
    notation_round_trip(game, &event).map_err(|why| VerifyError::parse(format!("{}: {why}", at())))?;
    Ok(event)
}

/// Check that an event reads back from its notation line as itself; `Err` says why not.
pub(crate) fn notation_round_trip<G: Game>(game: &G, event: &G::Event) -> Result<(), String> {
    let text = event.to_string();
    if text.contains(['#', '\n', '\r']) || text.trim() != text || text.is_empty() || text == "undo" {
        return Err(format!("the event `{}` has no notation line that reads back as itself", shown(&text)));
    }
    match game.parse_event(&text) {
        Ok(back) if back == *event => Ok(()),
        Ok(back) => Err(format!(
            "the event `{}` reads back from notation as `{}`",
            shown(&text),
            shown(&back.to_string())
        )),
        Err(e) => Err(format!(
            "the event `{}` is not a valid {} event: column {}: expected {}, found {}",
            shown(&text),
            G::info().id,
            e.column,
            e.expected,
            shown(&e.found)
        )),
    }
}

/// Open a session (no overrides) with its records from `from` on: replay from a snapshot.
pub(crate) fn open_session_from<R: Games, G: Game>(
    ctx: &Context<'_, R>,
    name: &str,
    header: Header,
    from: u64,
) -> Result<Opened<G>, VerifyError> {
    let game: G = build_game(&name, &header, &[], None)?;
    let (retracted, records) = crate::session::records::<R, G>(ctx, name, from)?;
    Ok(Opened { header, game, retracted, records })
}

/// The interpretations that differ from their default, as `name=value`, for reports.
pub(crate) fn interpretations<G: Game>(game: &G) -> Vec<String> {
    game.setup()
        .non_default_interpretations(G::params())
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect()
}

/// A game's setup as a report prints it: `name=value ...` and [`interpretations`].
///
/// Both are pure functions of the game's setup (its type fixes the parameter specs), and
/// formatting them cost more per session than the rest of opening it, so the last
/// description is kept and reused while sessions share a setup. A poisoned lock only
/// skips it.
pub(crate) fn describe_setup<G: Game>(game: &G) -> (String, Vec<String>) {
    type Described = Option<(TypeId, Setup, String, Vec<String>)>;
    static LAST_DESCRIBED: Mutex<Described> = Mutex::new(None);
    let id = TypeId::of::<G>();
    let setup = game.setup();
    if let Ok(last) = LAST_DESCRIBED.lock() {
        if let Some((_, _, text, interps)) = last.as_ref().filter(|(g, s, _, _)| *g == id && s == setup) {
            return (text.clone(), interps.clone());
        }
    }
    let described = (setup.to_string(), interpretations(game));
    if let Ok(mut last) = LAST_DESCRIBED.lock() {
        *last = Some((id, setup.clone(), described.0.clone(), described.1.clone()));
    }
    described
}

/// Run generic code on the game a source names: the bridge from erased calls to `G`.
pub(crate) trait WithGame<'a> {
    type Output;
    fn run<G: Game>(self, peeked: Peeked) -> Result<Self::Output, VerifyError>;
}

struct Visit<'a, W> {
    inner: W,
    peeked: Peeked,
    _p: std::marker::PhantomData<&'a ()>,
}

impl<'a, W: WithGame<'a>> arbiter_engine::GameVisitor for Visit<'a, W> {
    type Output = Result<W::Output, VerifyError>;
    fn visit<G: Game>(self) -> Self::Output {
        self.inner.run::<G>(self.peeked)
    }
}

/// Peek at a source, then run `work` on its game.
pub(crate) fn with_game<'a, R: Games, W: WithGame<'a>>(
    ctx: &Context<'a, R>,
    source: &Source,
    work: W,
) -> Result<W::Output, VerifyError> {
    let peeked = peek(ctx, source)?;
    let id = peeked.header().game.clone();
    ctx.games
        .dispatch(&id, Visit { inner: work, peeked, _p: std::marker::PhantomData })
        .unwrap_or_else(|| Err(unknown_game(ctx, &source.to_string(), &id)))
}
