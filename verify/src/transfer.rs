//! Moving logs between files and the journal, and listing them: `new`, `import`,
//! `export`, `log`, `check` — each erased over the game the log names.

use crate::error::{ErrorKind, VerifyError};
use crate::header::Header;
use crate::logfile::{header_to_json, header_to_notation};
use crate::open::{build_game, open, unknown_game, with_game, Peeked, WithGame};
use crate::records::Body;
use crate::replay::{Outcome, Replayer};
use crate::session::{from_journal, journal};
use crate::shown::shown;
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::{Game, GameVisitor};
use arbiter_journal::{Record, SessionMeta};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::Path;

/// Seconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// What `new` and `import` created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Created {
    pub session: String,
    pub game: String,
    pub records: u64,
    pub rules_version: u32,
    /// Fixture expectation lines (`@expect`, `@assert`, `@derive`) the imported file held: a session is
    /// a record of play, not a test, so they are not stored (the file stays the fixture).
    pub expectations_not_stored: usize,
}

impl Created {
    /// The note that the file's fixture expectation lines were not stored, when it held any:
    /// one sentence for every front end (the command line, the server).
    pub fn expectations_note(&self) -> Option<String> {
        (self.expectations_not_stored > 0).then(|| {
            format!(
                "note: the file's {} fixture expectation line(s) (@expect, @assert, @derive) are not part of a \
                 session and were not stored; the file stays the fixture",
                self.expectations_not_stored
            )
        })
    }
}

impl fmt::Display for Created {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "session `{}`: {} with {} record(s), rules version {}",
            shown(&self.session),
            self.game,
            self.records,
            self.rules_version
        )
    }
}

/// The catalog as a session stores it: a built-in name as is, a file as an absolute path,
/// so replaying the session later does not depend on the directory it was imported from,
/// with the SHA-256 of the file's content (see [`Header::catalog_sha256`]).
fn stored_catalog<G: Game>(
    catalog: &Option<String>,
    base: Option<&Path>,
) -> (Option<String>, Option<String>) {
    let Some(name) = catalog.as_ref() else { return (None, None) };
    if G::builtin_catalog(name).is_some() {
        return (Some(name.clone()), None);
    }
    let path = match base {
        Some(dir) if Path::new(name).is_relative() => dir.join(name),
        _ => Path::new(name).to_path_buf(),
    };
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let hash = crate::logfile::read_bounded(&path, "catalog", crate::open::MAX_CATALOG_BYTES)
        .ok()
        .map(|text| crate::session::catalog_sha256(text.as_bytes()));
    (Some(path.display().to_string()), hash)
}

/// The longest title a session takes, in bytes. Export writes the title on one line
/// (`@title "..."`, or inside the JSONL header), escaped, and import refuses a line past
/// [`crate::MAX_LINE_BYTES`]: at most six bytes per escaped byte keeps it well inside, so
/// every session arbiter stores can be exported and imported again.
pub const MAX_TITLE_BYTES: usize = 4096;

/// Refuse a title too long to round-trip, in one sentence.
fn check_title(title: Option<&str>) -> Result<(), VerifyError> {
    match title {
        Some(t) if t.len() > MAX_TITLE_BYTES => Err(VerifyError::argument(format!(
            "the title is {} bytes long, the limit is {MAX_TITLE_BYTES}: give a shorter one",
            t.len()
        ))),
        _ => Ok(()),
    }
}

/// A session's metadata for `header`, its catalog stored as [`stored_catalog`] says.
fn session_meta<G: Game>(
    header: &Header,
    base: Option<&Path>,
    rules_version: u32,
) -> Result<SessionMeta, VerifyError> {
    check_title(header.title.as_deref())?;
    let (catalog, hash) = stored_catalog::<G>(&header.catalog, base);
    let mut setup = header.setup.clone();
    if let Some(hash) = hash {
        setup.insert(crate::session::CATALOG_SHA256_KEY.to_string(), hash);
    }
    Ok(SessionMeta {
        game: header.game.clone(),
        setup,
        catalog,
        rules_version,
        created: now(),
        title: header.title.clone().unwrap_or_default(),
        parent: None,
    })
}

struct NewSession<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    name: &'c str,
    header: Header,
}

impl<'c, 'a, R: Games> GameVisitor for NewSession<'c, 'a, R> {
    type Output = Result<Created, VerifyError>;
    fn visit<G: Game>(self) -> Self::Output {
        // Built only to check the setup and catalog now rather than at the first replay.
        build_game::<G>(&self.name, &self.header, &[], None)?;
        let meta = session_meta::<G>(&self.header, None, G::info().rules_version)?;
        journal(self.ctx, self.name)?.create_session(self.name, &meta).map_err(from_journal)?;
        Ok(Created {
            session: self.name.to_string(),
            game: meta.game,
            records: 0,
            rules_version: meta.rules_version,
            expectations_not_stored: 0,
        })
    }
}

/// `arbiter new SESSION --game GAME --setup NAME=VALUE...`: check the setup and catalog with
/// the game, then create an empty session.
pub fn new_session<R: Games>(
    ctx: &Context<'_, R>,
    name: &str,
    game: &str,
    setup: &[(String, String)],
    catalog: Option<&str>,
    title: Option<&str>,
) -> Result<Created, VerifyError> {
    check_title(title)?;
    let header = Header {
        game: game.to_string(),
        setup: setup.iter().cloned().collect::<BTreeMap<_, _>>(),
        catalog: catalog.map(str::to_string),
        catalog_sha256: None,
        title: title.filter(|t| !t.is_empty()).map(str::to_string),
        rules_version: None,
    };
    ctx.games
        .dispatch(game, NewSession { ctx, name, header })
        .unwrap_or_else(|| Err(unknown_game(ctx, name, game)))
}

struct Import<'c, 'a, 'p, R: Games> {
    ctx: &'c Context<'a, R>,
    name: &'c str,
    progress: Option<&'p mut dyn FnMut(u64, u64)>,
}

/// How often (in records) an import reports its progress.
const PROGRESS_EVERY: u64 = 4096;

impl<'c, 'a, R: Games> WithGame<'a> for Import<'c, 'a, '_, R> {
    type Output = Created;
    fn run<G: Game>(self, peeked: Peeked) -> Result<Created, VerifyError> {
        let Peeked::File(file) = peeked else {
            return Err(VerifyError::argument("import reads a file, not a session"));
        };
        let path = file.path().to_path_buf();
        let base = path.parent().map(Path::to_path_buf);
        // The interpretations a log was recorded under are part of its table: the file's
        // `@variant`s are stored in the session's setup (where every later command reads
        // them), and export writes them back as `@variant` lines.
        let mut setup = file.header.setup.clone();
        setup.extend(file.variants.iter().cloned());
        let header = Header { setup, ..file.header.clone() };
        let source = Source::file(&path);
        // Every record is read, parsed and stepped before anything is written: import is all
        // or nothing, and it holds each record to the rule `record` holds a typed line to (a
        // record the table cannot apply, such as a card the catalog lacks, is refused; a
        // record that breaks a rule is stored, to be reported by `verify`).
        let mut replay = Replayer::new(open::<G>(&source, Peeked::File(file), &[])?);
        let mut records = Vec::new();
        let mut progress = self.progress;
        let lines = match progress {
            Some(_) => crate::logfile::count_lines(&path)?,
            None => 0,
        };
        while let Some(step) = replay.step() {
            let step = step?;
            if let Some(report) = progress.as_mut().filter(|_| step.index % PROGRESS_EVERY == 0) {
                report(step.line.unwrap_or(0) as u64, lines);
            }
            if let Outcome::Failed(e) = &step.outcome {
                return Err(VerifyError::new(
                    ErrorKind::Parse,
                    format!(
                        "{}:{}: record {} `{}` cannot be applied ({}); `arbiter record` refuses it too, so nothing was imported",
                        shown(&path.display().to_string()),
                        step.line.unwrap_or(0),
                        step.index,
                        shown(&step.notation()),
                        shown(&e.to_string())
                    ),
                ));
            }
            records.push(match (step.event, step.outcome) {
                (_, Outcome::Retraction(t)) => Record::Retract(t),
                (Some(e), _) => Record::Event(e),
                (None, _) => continue,
            });
        }
        let expectations_not_stored = crate::logfile::LogFile::read(&path)?.expectations.len();
        let meta = session_meta::<G>(
            &header,
            base.as_deref(),
            header.rules_version.unwrap_or(G::info().rules_version),
        )?;
        let len = journal(self.ctx, self.name)?.import(self.name, &meta, &records).map_err(from_journal)?;
        Ok(Created {
            session: self.name.to_string(),
            game: meta.game,
            records: len,
            rules_version: meta.rules_version,
            expectations_not_stored,
        })
    }
}

/// `arbiter import FILE [--session NAME]`: the whole file into a new session (named after
/// the file's stem by default), all or nothing.
pub fn import_file<R: Games>(
    ctx: &Context<'_, R>,
    path: &Path,
    session: Option<&str>,
) -> Result<Created, VerifyError> {
    import_file_with(ctx, path, session, None)
}

/// [`import_file`], telling `progress` now and then how far it read: (line, lines in the
/// file), for a progress bar.
pub fn import_file_with<R: Games>(
    ctx: &Context<'_, R>,
    path: &Path,
    session: Option<&str>,
    progress: Option<&mut dyn FnMut(u64, u64)>,
) -> Result<Created, VerifyError> {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = session.map(str::to_string).unwrap_or(stem);
    if !path.is_file() {
        return Err(crate::source::missing(path));
    }
    with_game(ctx, &Source::file(path), Import { ctx, name: &name, progress })
}

/// The two log formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Notation,
    Jsonl,
}

struct Export<'c> {
    source: &'c Source,
    format: Format,
    out: &'c mut dyn Write,
}

/// A failed write of an export: the error kind is kept so the caller can tell a closed
/// pipe (quiet) from a full disk (reported).
fn write_error(e: std::io::Error) -> VerifyError {
    VerifyError::new(ErrorKind::Io, format!("cannot write the export: {e}"))
}

/// A header whose setup holds interpretations (as a session's does), split the way a reader
/// expects: setup parameters stay in `@setup`, interpretations become `@variant` lines, then
/// `overrides` (later ones win on import and replay, as they did here).
pub(crate) fn split_interpretations<G: Game>(
    header: Header,
    overrides: &[(String, String)],
) -> (Header, Vec<(String, String)>) {
    let is_interpretation = |name: &str| {
        G::params().iter().any(|p| p.name == name && p.kind == arbiter_engine::ParamKind::Interpretation)
    };
    let mut variants: Vec<(String, String)> = Vec::new();
    let mut setup = BTreeMap::new();
    for (k, v) in &header.setup {
        if is_interpretation(k) {
            variants.push((k.clone(), v.clone()));
        } else {
            setup.insert(k.clone(), v.clone());
        }
    }
    variants.extend(overrides.iter().cloned());
    (Header { setup, ..header }, variants)
}

impl<'a> WithGame<'a> for Export<'_> {
    type Output = ();
    fn run<G: Game>(self, peeked: Peeked) -> Result<(), VerifyError> {
        let header = peeked.header().clone();
        let file_variants = match &peeked {
            Peeked::File(f) => f.variants.clone(),
            Peeked::Session(..) => Vec::new(),
        };
        let opened = open::<G>(self.source, peeked, &[])?;
        let (header, variants) = split_interpretations::<G>(header, &file_variants);
        let out = self.out;
        match self.format {
            Format::Notation => {
                out.write_all(header_to_notation(&header).as_bytes()).map_err(write_error)?;
                for (k, v) in &variants {
                    writeln!(out, "@variant {k}={v}").map_err(write_error)?;
                }
            }
            Format::Jsonl => {
                writeln!(out, "{}", header_to_json(&header)).map_err(write_error)?;
                for (k, v) in &variants {
                    let line = serde_json::json!({ "directive": format!("@variant {k}={v}") });
                    writeln!(out, "{line}").map_err(write_error)?;
                }
            }
        }
        // Notation's `undo` always retracts the latest event still in force; a log whose
        // retraction targets another record can only be written as JSONL.
        let mut live = crate::retraction::Live::default();
        for r in opened.records {
            let r = r?;
            match (self.format, r.body) {
                (Format::Notation, Body::Event(e)) => {
                    crate::records::notation_round_trip(&opened.game, &e).map_err(|why| {
                        VerifyError::argument(format!(
                            "{}: record {}: {why}; export it as JSONL",
                            self.source, r.index
                        ))
                    })?;
                    live.push(r.index);
                    writeln!(out, "{e}").map_err(write_error)?;
                }
                (Format::Notation, Body::Retract(t)) => {
                    if live.pop() != Some(t) {
                        return Err(VerifyError::argument(format!(
                            "{}: record {} retracts record {t}, which `undo` cannot express; export it as JSONL",
                            self.source, r.index
                        )));
                    }
                    writeln!(out, "undo").map_err(write_error)?;
                }
                (Format::Jsonl, Body::Event(e)) => {
                    let v = serde_json::to_value(&e).map_err(|e| {
                        VerifyError::argument(format!(
                            "{}: record {} has no JSON form ({e})",
                            self.source, r.index
                        ))
                    })?;
                    writeln!(out, "{}", serde_json::json!({ "event": v })).map_err(write_error)?;
                }
                (Format::Jsonl, Body::Retract(t)) => {
                    writeln!(out, "{}", serde_json::json!({ "retract": t })).map_err(write_error)?
                }
            }
        }
        out.flush().map_err(write_error)
    }
}

/// `arbiter export SESSION --format notation|jsonl` (a file works too): the log as text,
/// written to `out` as it is read.
pub fn export<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    format: Format,
    out: &mut dyn Write,
) -> Result<(), VerifyError> {
    with_game(ctx, source, Export { source, format, out })
}

/// [`export`] into a string (tests, small logs).
pub fn export_string<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    format: Format,
) -> Result<String, VerifyError> {
    let mut out = Vec::new();
    export(ctx, source, format, &mut out)?;
    String::from_utf8(out).map_err(|_| VerifyError::argument("the export is not UTF-8"))
}

/// One line of `arbiter log`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    pub index: u64,
    pub line: Option<usize>,
    pub notation: String,
    /// The record that retracts this one, if any.
    pub retracted_by: Option<u64>,
    /// The record this one retracts, if it is a retraction.
    pub retracts: Option<u64>,
}

/// `arbiter log`: every record with its index and retraction marks.
///
/// Its JSON form (`arbiter log --json`) is `schemas/log.json`: `source`, `game`, `entries` (array of `{index, line, notation,
/// retracted_by, retracts}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogReport {
    pub source: String,
    pub game: String,
    pub entries: Vec<LogEntry>,
}

impl fmt::Display for LogReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.entries {
            f.write_str(&e.line_text())?;
        }
        Ok(())
    }
}

/// Where `log_streaming` sends a listing as it reads it.
pub trait LogSink {
    /// Called once, before any entry, with `source` and `game` set.
    fn head(&mut self, report: &LogReport) -> Result<(), VerifyError>;
    fn entry(&mut self, entry: &LogEntry) -> Result<(), VerifyError>;
}

struct Log<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    source: &'c Source,
    sink: &'c mut dyn LogSink,
}

impl<'c, 'a, R: Games> WithGame<'a> for Log<'c, 'a, R> {
    type Output = LogReport;
    fn run<G: Game>(self, peeked: Peeked) -> Result<LogReport, VerifyError> {
        // Which record retracts which, known before the records are listed (memory in the
        // number of retractions only), so each entry is complete when it is handed on.
        let mut retracted_by: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
        match &peeked {
            Peeked::File(file) => {
                file.scan_target().each(|by, target| {
                    retracted_by.insert(target, by);
                })?;
            }
            Peeked::Session(name, _, _) => {
                for (by, target) in journal(self.ctx, name)?.retractions(name).map_err(from_journal)? {
                    retracted_by.insert(target, by);
                }
            }
        }
        let opened = open::<G>(self.source, peeked, &[])?;
        let report = LogReport {
            source: self.source.to_string(),
            game: G::info().id.to_string(),
            entries: Vec::new(),
        };
        self.sink.head(&report)?;
        for r in opened.records {
            let r = r?;
            let (notation, retracts) = match &r.body {
                Body::Event(e) => (e.to_string(), None),
                Body::Retract(t) => ("undo".to_string(), Some(*t)),
            };
            let retracted_by = retracted_by.get(&r.index).copied();
            self.sink.entry(&LogEntry { index: r.index, line: r.line, notation, retracted_by, retracts })?;
        }
        Ok(report)
    }
}

/// List a log's records, handing each entry to `sink` as it is read; the report returned
/// has no entries.
pub fn log_streaming<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    sink: &mut dyn LogSink,
) -> Result<LogReport, VerifyError> {
    with_game(ctx, source, Log { ctx, source, sink })
}

/// A sink that keeps the entries.
struct KeepEntries(Vec<LogEntry>);

impl LogSink for KeepEntries {
    fn head(&mut self, _report: &LogReport) -> Result<(), VerifyError> {
        Ok(())
    }
    fn entry(&mut self, entry: &LogEntry) -> Result<(), VerifyError> {
        self.0.push(entry.clone());
        Ok(())
    }
}

/// List a log's records.
pub fn log<R: Games>(ctx: &Context<'_, R>, source: &Source) -> Result<LogReport, VerifyError> {
    let mut keep = KeepEntries(Vec::new());
    let mut report = log_streaming(ctx, source, &mut keep)?;
    report.entries = keep.0;
    Ok(report)
}

impl LogEntry {
    /// The entry as `arbiter log` prints it, one line.
    pub fn line_text(&self) -> String {
        let mut out = format!("{:>5}  {}", self.index, self.notation);
        if let Some(t) = self.retracts {
            out.push_str(&format!("   (retracts {t})"));
        }
        if let Some(by) = self.retracted_by {
            out.push_str(&format!("   [retracted by {by}]"));
        }
        out.push('\n');
        out
    }
}

/// `arbiter check SESSION`: the journal's integrity check, with the game's event type.
///
/// Its JSON form (`arbiter check --json`) is `schemas/check.json`: `session`, `records` (the length the head claims), `verified` (records
/// read and verified before the first problem), `hash` (hex chain hash after them),
/// `problem` (null or `{seq, kind, message}`), `exit_code` (0 intact, 1 damaged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckView {
    pub session: String,
    pub records: u64,
    pub verified: u64,
    pub hash: String,
    pub problem: Option<ProblemView>,
    pub exit_code: i32,
}

/// The first damage `check` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemView {
    pub seq: u64,
    pub kind: String,
    pub message: String,
}

impl fmt::Display for CheckView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            None => writeln!(
                f,
                "session `{}`: {} records intact, chain hash {}",
                self.session, self.verified, self.hash
            ),
            Some(p) => writeln!(
                f,
                "session `{}`: damaged at record {} ({}): {} ({} of {} records verified)",
                self.session, p.seq, p.kind, p.message, self.verified, self.records
            ),
        }
    }
}

struct Check<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    name: &'c str,
}

impl<'c, 'a, R: Games> WithGame<'a> for Check<'c, 'a, R> {
    type Output = CheckView;
    fn run<G: Game>(self, peeked: Peeked) -> Result<CheckView, VerifyError> {
        let report = journal(self.ctx, self.name)?.check::<G::Event>(self.name).map_err(from_journal)?;
        // The records are intact, but their verdicts also depend on the session's catalog:
        // a catalog file changed since the session was recorded is refused here too, so
        // `check` never calls intact a session that no other command will replay.
        if report.problem.is_none() {
            build_game::<G>(&self.name, peeked.header(), &[], None)?;
        }
        let problem = report.problem.map(|p| ProblemView {
            seq: p.seq,
            kind: format!("{:?}", p.kind),
            message: p.message,
        });
        Ok(CheckView {
            session: report.session,
            records: report.expected_len,
            verified: report.verified,
            hash: arbiter_journal::hex(&report.hash),
            exit_code: if problem.is_some() { 1 } else { 0 },
            problem,
        })
    }
}

/// Check a session's integrity.
pub fn check<R: Games>(ctx: &Context<'_, R>, session: &str) -> Result<CheckView, VerifyError> {
    with_game(ctx, &Source::session(session), Check { ctx, name: session })
}
