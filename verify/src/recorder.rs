//! `arbiter record SESSION`: check each line as it is entered, then append it.
//!
//! A recorder may stay open at the table for hours, so it must not keep the database from
//! everyone else: opened with [`Recorder::open_detached`] it holds the database only while
//! it writes. Each accepted line opens the journal, checks that the session's head is still
//! the one this recorder wrote last (so a concurrent writer is detected, never overwritten),
//! appends, and closes it again; in between, `sessions`, `log`, `verify` and the rest run
//! freely, waiting at most for one append.

use crate::error::{ErrorKind, VerifyError};
use crate::open::{build_game, with_game, Peeked, WithGame};
use crate::report::{
    uncertain_view, RecordView, StateView, StepErrorView, Taints, UncertainView, UnverifiedView,
    ViolationView,
};
use crate::session::{from_journal, journal, Journal};
use crate::shown::shown;
use crate::snapshots::{cache_findings, CachedFinding};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::{Findings, Game};
use arbiter_journal::Record;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// A snapshot of the state is cached in the journal every this many records, so that
/// `replay --to N` on a long session starts near N.
pub const SNAPSHOT_EVERY: u64 = 256;

/// What became of one submitted line. `Deserialize` too: a client of `arbiter serve` reads
/// it back from the server's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Submitted {
    /// The record as understood (`undo` for a retraction), with the sequence it has or
    /// would have had.
    pub record: RecordView,
    /// Whether it was appended to the journal (false when `--strict` refused it, or when it
    /// cannot be applied at all).
    pub written: bool,
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
    /// Findings that may follow from an earlier unverified effect (not violations).
    pub uncertain: Vec<UncertainView>,
    /// Set when the event cannot be applied to the table; it is never written.
    pub error: Option<StepErrorView>,
    /// For an `undo`: the record it retracted.
    pub retracted: Option<u64>,
    /// The consequence the rules require next, in notation, when one is due.
    pub next_consequence: Option<String>,
}

impl fmt::Display for Submitted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(e) = &self.error {
            writeln!(f, "{e}; not recorded")?;
        }
        crate::report::write_findings(f, &self.violations, &self.unverified, &self.uncertain)?;
        match (self.written, self.retracted) {
            (true, Some(t)) => writeln!(f, "recorded #{}: undo (retracts record {t})", self.record.index)?,
            (true, None) => writeln!(f, "recorded #{}: {}", self.record.index, self.record.notation)?,
            (false, _) if self.error.is_none() => writeln!(f, "refused (--strict): nothing was recorded")?,
            (false, _) => {}
        }
        if let Some(c) = &self.next_consequence {
            writeln!(f, "next, the rules require: {c}")?;
        }
        Ok(())
    }
}

/// The game-erased operations of a recorder.
trait Recording {
    fn submit(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError>;
    fn undo(&mut self) -> Result<Submitted, VerifyError>;
    fn state(&self) -> StateView;
    fn len(&self) -> u64;
    fn next_consequence(&self) -> Option<String>;
    fn names(&self) -> Vec<String>;
}

/// A session opened for recording, holding its replayed state.
pub struct Recorder<'j> {
    inner: Box<dyn Recording + Send + 'j>,
    game: String,
    summary: &'static str,
}

impl<'j> Recorder<'j> {
    /// Open `session` in the context's journal (held open by the caller) and replay it. A
    /// session with a record that cannot be applied cannot be recorded on (its state is
    /// unknown past that record).
    pub fn open<R: Games>(ctx: &Context<'j, R>, session: &str) -> Result<Recorder<'j>, VerifyError> {
        with_game(
            ctx,
            &Source::session(session),
            Open { ctx, name: session, store: Store::Open(journal(ctx, session)?) },
        )
    }

    /// Open `session` in the database at `db` and replay it, then close the database: every
    /// later write opens it, checks the head, appends and closes it again, so other commands
    /// are never locked out for longer than one append.
    pub fn open_detached<R: Games>(
        games: R,
        db: &Path,
        session: &str,
    ) -> Result<Recorder<'static>, VerifyError> {
        let journal = Journal::open(db).map_err(from_journal)?;
        let ctx = Context::with_games(games, Some(&journal));
        let opened = with_game(
            &ctx,
            &Source::session(session),
            Open { ctx: &ctx, name: session, store: Store::Path(db.to_path_buf()) },
        )?;
        drop(journal);
        Ok(opened)
    }

    /// Open `session` in a journal shared with other threads (a server's) and replay it.
    /// Every write checks the head first, as [`Recorder::open_detached`]'s do, so another
    /// writer on the same journal is detected, never overwritten.
    pub fn open_shared<R: Games>(
        games: R,
        journal: std::sync::Arc<Journal>,
        session: &str,
    ) -> Result<Recorder<'static>, VerifyError> {
        let ctx = Context::with_games(games, Some(&*journal));
        let store = Store::Shared(std::sync::Arc::clone(&journal));
        with_game(&ctx, &Source::session(session), Open { ctx: &ctx, name: session, store })
    }

    /// Parse one notation line, check it on a copy of the table, and append it unless
    /// `strict` and it breaks a rule. The line `undo` retracts the latest event still in
    /// force. A parse error writes nothing and says where the line went wrong.
    pub fn submit(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError> {
        self.inner.submit(line, strict)
    }

    /// Append a retraction of the latest event still in force and rebuild the table.
    pub fn undo(&mut self) -> Result<Submitted, VerifyError> {
        self.inner.undo()
    }

    /// The table now.
    pub fn state(&self) -> StateView {
        self.inner.state()
    }

    /// The session's length (the sequence of the next record).
    pub fn len(&self) -> u64 {
        self.inner.len()
    }

    /// Whether the session holds no record yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game id.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The consequence the rules require next, in notation, when the table determines one.
    pub fn next_consequence(&self) -> Option<String> {
        self.inner.next_consequence()
    }

    /// The game's notation at a glance (`Game::notation_summary`; empty when it gives none).
    pub fn notation_summary(&self) -> &'static str {
        self.summary
    }

    /// The event words of the notation: the first word of each line of the summary.
    pub fn event_words(&self) -> Vec<String> {
        event_words(self.summary)
    }

    /// The names a line may use now: card ids of the catalog, names at the table.
    pub fn names(&self) -> Vec<String> {
        self.inner.names()
    }
}

/// The event words of a notation summary (`Game::notation_summary`): the first word of each
/// of its lines.
pub(crate) fn event_words(summary: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for line in summary.lines() {
        let Some(word) = line.split_whitespace().next() else { continue };
        let plain = word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
        if plain && !words.iter().any(|w| w == word) {
            words.push(word.to_string());
        }
    }
    words
}

/// Where a recorder writes: a journal its caller holds open, or a database it opens for
/// each write and closes again.
enum Store<'j> {
    Open(&'j Journal),
    Path(PathBuf),
    /// A journal shared with other threads (`open_shared`).
    Shared(std::sync::Arc<Journal>),
}

impl Store<'_> {
    fn with<T>(&self, work: impl FnOnce(&Journal) -> Result<T, VerifyError>) -> Result<T, VerifyError> {
        match self {
            Store::Open(journal) => work(journal),
            Store::Shared(journal) => work(journal),
            Store::Path(db) => {
                let journal = Journal::open(db).map_err(from_journal)?;
                work(&journal)
            }
        }
    }
}

struct Typed<'j, G: Game> {
    store: Store<'j>,
    name: String,
    game: G,
    state: G::State,
    next: u64,
    /// The chain hash after the last record this recorder read or wrote: a write first
    /// checks the session still ends there.
    head: arbiter_journal::Hash,
    /// Events in force (not retracted), in order, to rebuild the table after an undo.
    live: Vec<(u64, G::Event)>,
    /// The findings of the events in force, for the snapshots (which carry them).
    findings: Vec<CachedFinding>,
    /// The unverified effects of the events in force, which uncertain findings name.
    taints: Taints,
}

impl<'j, G: Game> Typed<'j, G> {
    fn rebuild(&mut self) -> Result<(), VerifyError> {
        let mut state = self.game.initial_state();
        let mut findings = Findings::default();
        let mut cached = Vec::new();
        let mut taints = Taints::default();
        for (seq, e) in &self.live {
            self.game.step(&mut state, e, &mut findings).map_err(|err| {
                VerifyError::new(
                    ErrorKind::Argument,
                    format!(
                        "session `{}` cannot be recorded on: record {seq} `{e}` cannot be applied ({err})",
                        self.name
                    ),
                )
            })?;
            if !findings.is_empty() {
                taints.saw(*seq, &findings);
                let record = RecordView::event(*seq, None, e);
                cache_findings::<G>(&record, &findings, &mut cached);
                findings.clear();
            }
        }
        self.state = state;
        self.findings = cached;
        self.taints = taints;
        Ok(())
    }

    /// Append one record at `self.next`, after checking that the session still ends where
    /// this recorder last saw it; `state` and `findings` are those after the record.
    fn append(
        &mut self,
        record: Record<G::Event>,
        state: &G::State,
        findings: &[CachedFinding],
    ) -> Result<(), VerifyError> {
        let (name, next, head) = (self.name.as_str(), self.next, self.head);
        let new_head = self.store.with(|j| {
            let len = j.len(name).map_err(from_journal)?;
            let same = len == next && j.hash_at(name, next).map_err(from_journal)? == head;
            if !same {
                return Err(VerifyError::new(
                    ErrorKind::Journal,
                    format!(
                        "session `{}` was changed by another writer (it holds {len} records; this recorder expected {next} ending where it last wrote): nothing more was recorded; start `arbiter record` again to continue from the session as it is now",
                        shown(name)
                    ),
                ));
            }
            j.append(name, next, &[record]).map_err(from_journal)?;
            if (next + 1) % SNAPSHOT_EVERY == 0 {
                // A snapshot is a cache: failing to store one only costs a longer replay later.
                if let Some(bytes) = crate::snapshots::encode(state, findings) {
                    let _ = j.put_snapshot(name, next + 1, G::info().rules_version, &bytes);
                }
            }
            j.hash_at(name, next + 1).map_err(from_journal)
        })?;
        self.head = new_head;
        self.next += 1;
        Ok(())
    }
}

impl<'j, G: Game> Recording for Typed<'j, G> {
    fn submit(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError> {
        let text = line.split('#').next().unwrap_or_default().trim();
        if text.is_empty() {
            return Err(VerifyError::argument("nothing to record on an empty line"));
        }
        if text == "undo" {
            return self.undo();
        }
        let offset = line.chars().take_while(|c| c.is_whitespace()).count();
        let event = self.game.parse_event(text).map_err(|e| {
            VerifyError::parse(format!(
                "column {}: expected {}, found {}",
                offset + e.column,
                e.expected,
                e.found
            ))
        })?;
        let record = RecordView::event(self.next, None, &event);
        let mut next_state = self.state.clone();
        let mut findings = Findings::default();
        let stepped = self.game.step(&mut next_state, &event, &mut findings);
        let violations: Vec<ViolationView> =
            findings.violations.iter().map(|v| ViolationView::of::<G>(record.clone(), v)).collect();
        let unverified = findings
            .unverified
            .iter()
            .map(|u| UnverifiedView { record: record.clone(), effect: u.clone() })
            .collect();
        let mut taints = self.taints.clone();
        taints.saw(record.index, &findings);
        let uncertain = findings
            .uncertain
            .iter()
            .map(|v| uncertain_view::<G>(record.clone(), v, taints.records()))
            .collect();
        let mut out = Submitted {
            record: record.clone(),
            written: false,
            violations,
            unverified,
            uncertain,
            error: None,
            retracted: None,
            next_consequence: None,
        };
        if let Err(e) = stepped {
            out.error = Some(StepErrorView { record, rule: e.rule.map(str::to_string), message: e.message });
            return Ok(out);
        }
        if strict && !out.violations.is_empty() {
            return Ok(out);
        }
        let mut cached = self.findings.clone();
        cache_findings::<G>(&record, &findings, &mut cached);
        self.append(Record::Event(event.clone()), &next_state, &cached)?;
        self.state = next_state;
        self.findings = cached;
        self.taints = taints;
        self.live.push((record.index, event));
        out.written = true;
        out.next_consequence = self.game.next_consequence(&self.state).map(|e| e.to_string());
        Ok(out)
    }

    fn undo(&mut self) -> Result<Submitted, VerifyError> {
        let Some((target, _)) = self.live.last().cloned() else {
            return Err(VerifyError::argument(format!("session `{}` has no event left to undo", self.name)));
        };
        let record = RecordView { index: self.next, line: None, notation: "undo".to_string() };
        let popped = self.live.pop();
        self.rebuild()?;
        let (state, findings) = (self.state.clone(), self.findings.clone());
        if let Err(e) = self.append(Record::Retract(target), &state, &findings) {
            // Not written: the table is as it was.
            self.live.extend(popped);
            self.rebuild()?;
            return Err(e);
        }
        Ok(Submitted {
            record,
            written: true,
            violations: Vec::new(),
            unverified: Vec::new(),
            uncertain: Vec::new(),
            error: None,
            retracted: Some(target),
            next_consequence: self.game.next_consequence(&self.state).map(|e| e.to_string()),
        })
    }

    fn state(&self) -> StateView {
        StateView::of(&self.game, &self.state)
    }

    fn len(&self) -> u64 {
        self.next
    }

    fn next_consequence(&self) -> Option<String> {
        self.game.next_consequence(&self.state).map(|e| e.to_string())
    }

    fn names(&self) -> Vec<String> {
        let mut names = self.game.names(&self.state);
        names.sort();
        names.dedup();
        names
    }
}

struct Open<'c, 'a, 'j, R: Games> {
    ctx: &'c Context<'a, R>,
    name: &'c str,
    store: Store<'j>,
}

impl<'c, 'a, 'j, R: Games> WithGame<'a> for Open<'c, 'a, 'j, R> {
    type Output = Recorder<'j>;
    fn run<G: Game>(self, peeked: Peeked) -> Result<Recorder<'j>, VerifyError> {
        let j = journal(self.ctx, self.name)?;
        let game: G = build_game(&self.name, peeked.header(), &[], None)?;
        let retracted = j.retracted(self.name).map_err(from_journal)?;
        let mut live = Vec::new();
        let mut next = 0;
        for item in j.events::<G::Event>(self.name, 0).map_err(from_journal)? {
            let (seq, record) = item.map_err(from_journal)?;
            next = seq + 1;
            if let Record::Event(e) = record {
                if !retracted.contains(&seq) {
                    live.push((seq, e));
                }
            }
        }
        let head = j.hash_at(self.name, next).map_err(from_journal)?;
        let state = game.initial_state();
        let mut typed = Typed {
            store: self.store,
            name: self.name.to_string(),
            game,
            state,
            next,
            head,
            live,
            findings: Vec::new(),
            taints: Taints::default(),
        };
        typed.rebuild()?;
        Ok(Recorder {
            inner: Box::new(typed),
            game: G::info().id.to_string(),
            summary: G::notation_summary(),
        })
    }
}
