//! `arbiter replay --to N`: the state after records `0..N`, with the findings so far.

use crate::error::VerifyError;
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::Replayer;
use crate::report::{views_of, StateView, StepErrorView, UnverifiedView, ViolationView};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::Serialize;
use std::fmt;

/// The table after a prefix of a log.
///
/// JSON schema (`arbiter replay --json`): `source`, `game`, `replayed` (number of records
/// replayed, retracted ones and retractions included), `total` (null, or the number of
/// records when the whole log was read), `state` (`{board, facts: [{key, value}], digest}`),
/// `violations`, `unverified` and `error` as in `verify --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplayReport {
    pub source: String,
    pub game: String,
    pub replayed: u64,
    pub total: Option<u64>,
    pub state: StateView,
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
    pub error: Option<StepErrorView>,
}

/// Replay records `0..to` (all of them when `to` is `None`). Asking for more records than
/// the log holds is an error naming the length, so a typo is not mistaken for the end.
pub fn replay<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    to: Option<u64>,
    variants: &[(String, String)],
) -> Result<ReplayReport, VerifyError> {
    with_game(ctx, source, Work { ctx, source, to, variants })
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    source: &'c Source,
    to: Option<u64>,
    variants: &'c [(String, String)],
}

impl<'c, 'a, R: Games> WithGame<'a> for Work<'c, 'a, R> {
    type Output = ReplayReport;
    fn run<G: Game>(self, peeked: Peeked) -> Result<ReplayReport, VerifyError> {
        let opened = open::<R, G>(self.ctx, self.source, peeked, self.variants)?;
        let mut replay = Replayer::new(opened);
        let mut report = ReplayReport {
            source: self.source.to_string(),
            game: G::info().id.to_string(),
            replayed: 0,
            total: None,
            state: StateView::of(replay.game(), &replay.state),
            violations: Vec::new(),
            unverified: Vec::new(),
            error: None,
        };
        while self.to.is_none_or(|to| report.replayed < to) {
            let Some(step) = replay.step() else { break };
            let step = step?;
            report.replayed += 1;
            let views = views_of::<G>(&step);
            report.violations.extend(views.violations);
            report.unverified.extend(views.unverified);
            if views.error.is_some() {
                report.error = views.error;
            }
        }
        if let Some(to) = self.to {
            if report.replayed < to && report.error.is_none() {
                return Err(VerifyError::argument(format!(
                    "{}: cannot replay to record {to}: the log holds {} records",
                    self.source, report.replayed
                )));
            }
        }
        if replay.at_end() || self.to.is_none() {
            report.total = Some(report.replayed);
        }
        report.state = StateView::of(replay.game(), &replay.state);
        Ok(report)
    }
}

impl fmt::Display for ReplayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {} after {} record(s)", self.source, self.game, self.replayed)?;
        write!(f, "{}", self.state)?;
        for v in &self.violations {
            write!(f, "{v}")?;
        }
        for u in &self.unverified {
            writeln!(f, "record {}: unverified: {}", u.record, u.effect)?;
        }
        if let Some(e) = &self.error {
            writeln!(f, "{e}")?;
        }
        Ok(())
    }
}
