//! `arbiter record SESSION`: check each line as it is entered, then append it.

use crate::error::{ErrorKind, VerifyError};
use crate::open::{build_game, with_game, Peeked, WithGame};
use crate::report::{RecordView, StateView, StepErrorView, UnverifiedView, ViolationView};
use crate::session::{from_journal, journal, Journal};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::{Findings, Game};
use arbiter_journal::Record;
use serde::Serialize;
use std::fmt;

/// A snapshot of the state is cached in the journal every this many records, so that
/// `replay --to N` on a long session starts near N.
pub const SNAPSHOT_EVERY: u64 = 256;

/// What became of one submitted line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Submitted {
    /// The record as understood (`undo` for a retraction), with the sequence it has or
    /// would have had.
    pub record: RecordView,
    /// Whether it was appended to the journal (false when `--strict` refused it, or when it
    /// cannot be applied at all).
    pub written: bool,
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
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
        for v in &self.violations {
            write!(f, "{v}")?;
        }
        for u in &self.unverified {
            write!(f, "{u}")?;
        }
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
}

/// A session opened for recording, holding its replayed state.
pub struct Recorder<'j> {
    inner: Box<dyn Recording + 'j>,
    game: String,
}

impl<'j> Recorder<'j> {
    /// Open `session` and replay it. A session with a record that cannot be applied cannot
    /// be recorded on (its state is unknown past that record).
    pub fn open<R: Games>(ctx: &Context<'j, R>, session: &str) -> Result<Recorder<'j>, VerifyError> {
        with_game(ctx, &Source::session(session), Open { ctx, name: session })
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
}

struct Typed<'j, G: Game> {
    journal: &'j Journal,
    name: String,
    game: G,
    state: G::State,
    next: u64,
    /// Events in force (not retracted), in order, to rebuild the table after an undo.
    live: Vec<(u64, G::Event)>,
}

impl<'j, G: Game> Typed<'j, G> {
    fn rebuild(&mut self) -> Result<(), VerifyError> {
        let mut state = self.game.initial_state();
        let mut findings = Findings::default();
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
            findings.clear();
        }
        self.state = state;
        Ok(())
    }

    fn append(&mut self, record: Record<G::Event>) -> Result<(), VerifyError> {
        self.journal.append(&self.name, self.next, &[record]).map_err(from_journal)?;
        self.next += 1;
        if self.next % SNAPSHOT_EVERY == 0 {
            // A snapshot is a cache: failing to store one only costs a longer replay later.
            if let Ok(bytes) = arbiter_journal::codec::encode(&self.state) {
                let _ = self.journal.put_snapshot(&self.name, self.next, G::info().rules_version, &bytes);
            }
        }
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
        let record = RecordView { index: self.next, line: None, notation: event.to_string() };
        let mut next_state = self.state.clone();
        let mut findings = Findings::default();
        let stepped = self.game.step(&mut next_state, &event, &mut findings);
        let violations: Vec<ViolationView> =
            findings.violations.iter().map(|v| ViolationView::of::<G>(&record, v)).collect();
        let unverified = findings
            .unverified
            .iter()
            .map(|u| UnverifiedView { record: record.clone(), effect: u.clone() })
            .collect();
        let mut out = Submitted {
            record: record.clone(),
            written: false,
            violations,
            unverified,
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
        self.state = next_state;
        self.append(Record::Event(event.clone()))?;
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
        self.append(Record::Retract(target))?;
        self.live.pop();
        self.rebuild()?;
        Ok(Submitted {
            record,
            written: true,
            violations: Vec::new(),
            unverified: Vec::new(),
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
}

struct Open<'c, 'j, R: Games> {
    ctx: &'c Context<'j, R>,
    name: &'c str,
}

impl<'c, 'j, R: Games> WithGame<'j> for Open<'c, 'j, R> {
    type Output = Recorder<'j>;
    fn run<G: Game>(self, peeked: Peeked) -> Result<Recorder<'j>, VerifyError> {
        let j = journal(self.ctx, self.name)?;
        let game: G = build_game(self.name, peeked.header(), &[], None)?;
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
        let state = game.initial_state();
        let mut typed = Typed { journal: j, name: self.name.to_string(), game, state, next, live };
        typed.rebuild()?;
        Ok(Recorder { inner: Box::new(typed), game: G::info().id.to_string() })
    }
}
