//! Turning a source into a configured game and a stream of typed records.
//!
//! Records are parsed as they are replayed, not all up front, so diffing two long logs that
//! split early reads (and parses) only as far as the split. Retractions are known before
//! replay starts: a file's `undo` lines are resolved by the syntax step, a session's by the
//! journal, so a retracted record is skipped when replay reaches it.

use crate::error::{ErrorKind, VerifyError};
use crate::header::Header;
use crate::logfile::LogReader;
use crate::records::{FileRecords, RecordStream};
use crate::retraction::Retracted;
use crate::shown::shown;
use crate::source::{Origin, Source};
use crate::Context;
use crate::Games;
use arbiter_engine::{Game, Setup};
use std::any::TypeId;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A log opened for one game: what replay needs.
pub(crate) struct Opened<G: Game> {
    pub header: Header,
    pub game: G,
    /// Records later retracted; replay skips them.
    pub retracted: Retracted,
    pub records: RecordStream<G>,
}

/// A source read as far as its header: enough to pick the game. A session is looked up
/// once: its reader (retractions and a record stream not yet typed) is kept for `open`, its
/// metadata moved out into the header.
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
            let mut reader = crate::session::journal(ctx, name)?
                .read_session::<()>(name, 0)
                .map_err(crate::error::from_journal)?;
            let header = crate::session::take_header(&mut reader.meta);
            Ok(Peeked::Session(name.clone(), header, Box::new(reader)))
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
    // The header's own setup built the last game: it was checked then, and its catalog is a
    // built-in one. Verifying a league's sessions takes this way for all but the first.
    if overrides.is_empty() {
        if let Some(game) = last_built::<G>(&header.setup, &header.catalog) {
            return Ok(game);
        }
    }
    let mut setup = Setup { params: header.setup.clone(), catalog: header.catalog.clone() };
    for (name, value) in overrides {
        if name == "rules" && !G::params().iter().any(|p| p.name == "rules") {
            let current = G::info().rules_version;
            if value.parse::<u32>().ok() == Some(current) {
                continue;
            }
            let why = match value.parse::<u32>() {
                Ok(v) if v > current => format!("version {v} is newer than this build's {current}; a newer arbiter replays it"),
                Ok(_) => format!("this build implements version {current} and declares no `rules` interpretation for older ones"),
                Err(_) => format!("a rules version is a number (this build implements version {current})"),
            };
            return Err(VerifyError::setup(format!(
                "{label}: {} cannot replay rules version {value}: {why}",
                G::info().id
            )));
        }
        setup = setup.with(name, value);
    }
    // Checked here as well as in the game so that the sentence is the same for every game.
    check_setup::<G>(label, &setup)?;
    let name = setup.catalog.clone().unwrap_or_else(|| G::default_catalog().to_string());
    // A built-in catalog is borrowed, not copied: the game may recognise it and reuse its parse.
    let text: String = match G::builtin_catalog(&name) {
        Some(t) => return built_in::<G>(label, setup, t),
        None => {
            let path = match base_dir {
                Some(dir) if Path::new(&name).is_relative() => dir.join(&name),
                _ => PathBuf::from(&name),
            };
            crate::logfile::read_bounded(&path, "catalog", MAX_CATALOG_BYTES).map_err(|e| {
                VerifyError::setup(format!(
                    "{label}: catalog `{}` is neither a built-in catalog of {} nor a usable file ({e})",
                    shown(&name),
                    G::info().id,
                ))
            })?
        }
    };
    // A session records its catalog file's content when it is created: a file changed since
    // would silently change the verdicts of recorded events, so it is refused. (An override
    // naming another catalog is not the session's file, and a log file records no hash.)
    if let Some(expected) = header.catalog_sha256.as_ref().filter(|_| setup.catalog == header.catalog) {
        if crate::session::catalog_sha256(text.as_bytes()) != *expected {
            return Err(VerifyError::setup(format!(
                "{label}: catalog file `{}` has changed since the session was recorded (its content no longer matches the SHA-256 stored with the session); restore the file as it was to replay the session",
                shown(&name)
            )));
        }
    }
    // Editors on some systems start a UTF-8 file with a byte-order mark: skipped, as a log
    // file's is (the hash above is of the file as it is).
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    G::new(&setup, text).map_err(|e| VerifyError::setup(format!("{label}: {e}")))
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
    if let Some(game) = last_built::<G>(&setup.params, &setup.catalog) {
        return Ok(game);
    }
    let game = G::new(&setup, text).map_err(|e| VerifyError::setup(format!("{label}: {e}")))?;
    if let Ok(mut last) = LAST_BUILT.lock() {
        *last = Some((TypeId::of::<G>(), setup, Box::new(game.clone())));
    }
    Ok(game)
}

/// A copy of the last game built, if it is a `G` built from these setup parameters and
/// this catalog.
fn last_built<G: Game>(params: &BTreeMap<String, String>, catalog: &Option<String>) -> Option<G> {
    let id = TypeId::of::<G>();
    let last = LAST_BUILT.lock().ok()?;
    let (_, _, game) =
        last.as_ref().filter(|(g, s, _)| *g == id && s.params == *params && s.catalog == *catalog)?;
    game.downcast_ref::<G>().cloned()
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
            let records = FileRecords::new(file, game.clone(), retracted.clone(), path);
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

/// A game's setup as a report prints it.
#[derive(Debug, Clone)]
pub(crate) struct SetupText {
    /// Every parameter with defaults filled in, `name=value ...`.
    pub setup: String,
    /// The [`interpretations`] that differ from their default.
    pub interpretations: Vec<String>,
    /// The setup parameters given with a value other than their default, `name=value ...`:
    /// what the head line of a verify report shows people.
    pub changed: String,
}

/// A game's [`SetupText`].
///
/// All three are pure functions of the game's setup (its type fixes the parameter specs),
/// and formatting them cost more per session than the rest of opening it (a game declares
/// dozens of parameters, each looked up in the setup), so the last description is kept and
/// reused while sessions share a setup. A poisoned lock only skips it.
pub(crate) fn describe_setup<G: Game>(game: &G) -> SetupText {
    type Described = Option<(TypeId, Setup, SetupText)>;
    static LAST_DESCRIBED: Mutex<Described> = Mutex::new(None);
    let id = TypeId::of::<G>();
    let setup = game.setup();
    if let Ok(last) = LAST_DESCRIBED.lock() {
        if let Some((_, _, text)) = last.as_ref().filter(|(g, s, _)| *g == id && s == setup) {
            return text.clone();
        }
    }
    let changed: Vec<String> = G::params()
        .iter()
        .filter(|p| p.kind == arbiter_engine::ParamKind::Setup)
        .filter_map(|p| {
            setup.params.get(p.name).filter(|v| *v != p.default).map(|v| format!("{}={v}", p.name))
        })
        .collect();
    let described = SetupText {
        setup: setup.to_string(),
        interpretations: interpretations(game),
        changed: changed.join(" "),
    };
    if let Ok(mut last) = LAST_DESCRIBED.lock() {
        *last = Some((id, setup.clone(), described.clone()));
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
