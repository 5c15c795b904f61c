//! Stepping a log through its game one record at a time: the loop every report shares.

use crate::error::VerifyError;
use crate::open::Opened;
use crate::records::{Body, Record};
use arbiter_engine::{Findings, Game, StepError};

/// What happened to one record.
#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    /// The event was stepped; these are its findings.
    Applied(Findings),
    /// The event was retracted later in the log, so replay skips it.
    Retracted,
    /// This record retracts an earlier one.
    Retraction(u64),
    /// The event cannot be applied; replay stops here.
    Failed(StepError),
}

/// A record after replay reached it.
#[derive(Debug, Clone)]
pub(crate) struct Stepped<E> {
    pub index: u64,
    pub line: Option<usize>,
    /// The event (`None` for a retraction record).
    pub event: Option<E>,
    pub outcome: Outcome,
    /// Inserted by `derive` rather than read from the log; `index` is then that of the log
    /// record it was inserted before.
    pub derived: bool,
}

impl<E: std::fmt::Display> Stepped<E> {
    /// The record in notation (`undo` for a retraction). Printed on demand: a report shows
    /// only the records it flags, and printing every record cost more than stepping it.
    pub fn notation(&self) -> String {
        match &self.event {
            Some(e) => notation(e),
            None => "undo".to_string(),
        }
    }
}

impl<E> Stepped<E> {
    /// Whether the record counts for the game (diff aligns on these).
    pub fn effective(&self) -> bool {
        matches!(self.outcome, Outcome::Applied(_) | Outcome::Failed(_))
    }
}

/// Cap on consequences derived in a row, so a game whose `next_consequence` never settles
/// cannot hang a replay.
const MAX_DERIVED_IN_A_ROW: usize = 10_000;

/// A replay in progress.
pub(crate) struct Replayer<G: Game> {
    pub opened: Opened<G>,
    pub state: G::State,
    /// Insert `next_consequence` results before decisions and random outcomes.
    pub derive: bool,
    pending: Option<Record<G::Event>>,
    stopped: bool,
    derived_in_a_row: usize,
    /// Whether the record stream has been exhausted.
    exhausted: bool,
    /// Records read from the log so far.
    read: u64,
}

impl<G: Game> Replayer<G> {
    pub fn new(opened: Opened<G>) -> Self {
        let state = opened.game.initial_state();
        Replayer {
            opened,
            state,
            derive: false,
            pending: None,
            stopped: false,
            derived_in_a_row: 0,
            exhausted: false,
            read: 0,
        }
    }

    pub fn game(&self) -> &G {
        &self.opened.game
    }

    /// Whether replay stopped at a record that cannot be applied.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn pull(&mut self) -> Option<Result<Record<G::Event>, VerifyError>> {
        if let Some(r) = self.pending.take() {
            return Some(Ok(r));
        }
        let next = self.opened.records.next();
        match next {
            None => self.exhausted = true,
            Some(_) => self.read += 1,
        }
        next
    }

    /// Step the next record (or derived consequence). `None` at the end of the log or after
    /// a record that could not be applied.
    pub fn step(&mut self) -> Option<Result<Stepped<G::Event>, VerifyError>> {
        if self.stopped {
            return None;
        }
        let record = match self.pull() {
            Some(Ok(r)) => Some(r),
            Some(Err(e)) => {
                self.stopped = true;
                return Some(Err(e));
            }
            None => None,
        };
        if self.derive && self.derived_in_a_row < MAX_DERIVED_IN_A_ROW {
            let wants = match &record {
                None => true,
                Some(r) => match &r.body {
                    Body::Event(_) if self.opened.retracted.contains(r.index) => false,
                    Body::Event(e) if G::is_consequence(e) => self.left_out_before(e),
                    Body::Event(e) => !self.opened.game.precedes_consequences(&self.state, e),
                    Body::Retract(_) => false,
                },
            };
            if wants {
                if let Some(c) = self.opened.game.next_consequence(&self.state) {
                    self.pending = record;
                    self.derived_in_a_row += 1;
                    // A derived consequence is numbered by the log record it is inserted
                    // before (the log's length at the end).
                    let index = self.pending.as_ref().map(|r| r.index).unwrap_or(self.read);
                    return Some(Ok(self.apply(index, None, c, true)));
                }
            }
        }
        self.derived_in_a_row = 0;
        let record = record?;
        Some(Ok(match record.body {
            Body::Retract(target) => Stepped {
                index: record.index,
                line: record.line,
                event: None,
                outcome: Outcome::Retraction(target),
                derived: false,
            },
            Body::Event(e) if self.opened.retracted.contains(record.index) => Stepped {
                index: record.index,
                line: record.line,
                event: Some(e),
                outcome: Outcome::Retracted,
                derived: false,
            },
            Body::Event(e) => self.apply(record.index, record.line, e, false),
        }))
    }

    /// Whether the consequence owed next was left out before the recorded consequence `e`
    /// (so `--derive` inserts it), rather than recorded as `e` with a wrong value (which must
    /// stay a finding). Decided by trying both on copies of the state. The owed one is
    /// derived only when stepping it first leaves strictly fewer findings (violations and
    /// uncertain ones) than stepping `e` as the log has it, and leaves the same state: the
    /// game's own step already applies what `e` shows was left out (a game on the kit's
    /// consequence loop does), so deriving it moves the finding into the completed log and
    /// changes nothing the rest of the log is replayed against. A wrong version of the owed
    /// one gains nothing from it (`e` is then judged against whatever is due next); a game
    /// that reports an omission without applying it leaves another state, and keeps its
    /// finding.
    fn left_out_before(&self, e: &G::Event) -> bool {
        let game = &self.opened.game;
        let Some(owed) = game.next_consequence(&self.state) else { return false };
        if owed == *e {
            return false;
        }
        let run = |events: &[&G::Event]| {
            let mut state = self.state.clone();
            let mut n = 0usize;
            for ev in events {
                let mut f = Findings::default();
                game.step(&mut state, ev, &mut f).ok()?;
                n += f.violations.len() + f.uncertain.len();
            }
            Some((n, state))
        };
        let Some((as_recorded, after_recorded)) = run(&[e]) else { return false };
        if as_recorded == 0 {
            return false;
        }
        run(&[&owed, e]).is_some_and(|(n, after)| n < as_recorded && after == after_recorded)
    }

    fn apply(
        &mut self,
        index: u64,
        line: Option<usize>,
        event: G::Event,
        derived: bool,
    ) -> Stepped<G::Event> {
        let mut findings = Findings::default();
        let outcome = match self.opened.game.step(&mut self.state, &event, &mut findings) {
            Ok(()) => Outcome::Applied(findings),
            Err(e) => {
                self.stopped = true;
                Outcome::Failed(e)
            }
        };
        Stepped { index, line, event: Some(event), outcome, derived }
    }

    /// Whether every record has been read.
    pub fn at_end(&self) -> bool {
        self.exhausted && self.pending.is_none()
    }
}

/// An event in notation. `to_string` would start from an empty string and grow it at each
/// piece the event writes (three or four reallocations for a typical record); almost every
/// record of the shipped games fits in 64 bytes, so that is reserved up front.
pub(crate) fn notation<E: std::fmt::Display>(event: &E) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(64);
    if write!(out, "{event}").is_err() {
        // Only an event whose `Display` fails gets here (a bug): `to_string` treats it as
        // it always does.
        return event.to_string();
    }
    out
}
