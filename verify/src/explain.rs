//! `arbiter explain SOURCE N`: the referee's view of one record.

use crate::error::VerifyError;
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::report::{
    views_of, RecordView, StateView, StepErrorView, Taints, UncertainView, UnverifiedView, ViolationView,
};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::Serialize;
use std::fmt;

/// One record judged in context.
///
/// Its JSON form (`arbiter explain --json`) is `schemas/explain.json`: `source`, `game`, `record` (`{index, line,
/// notation}`), `status` (`"applied"`, `"retracted"` — a later record retracts it, so replay
/// skips it — `"retraction"` or `"unapplicable"`), `retracts` (null or the index this
/// record retracts), `consequence` (`is_consequence`: whether the record is a consequence
/// the rules derive), `rules_say` (null or the consequence the rules require at this point,
/// in notation), `before` and `after` (`{board, facts, digest}`; `after` is null when the
/// record cannot be applied), `violations`, `unverified`, `uncertain`, `error` as in
/// `verify --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExplainReport {
    pub source: String,
    pub game: String,
    pub record: RecordView,
    pub status: String,
    pub retracts: Option<u64>,
    pub consequence: bool,
    pub rules_say: Option<String>,
    pub before: StateView,
    pub after: Option<StateView>,
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
    /// Findings that may follow from an earlier unverified effect (not violations).
    pub uncertain: Vec<UncertainView>,
    pub error: Option<StepErrorView>,
}

/// Explain record `n`.
pub fn explain<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    n: u64,
    variants: &[(String, String)],
) -> Result<ExplainReport, VerifyError> {
    with_game(ctx, source, Work { ctx, source, n, variants, cached: true })
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    source: &'c Source,
    n: u64,
    variants: &'c [(String, String)],
    /// Whether a snapshot may be the starting point.
    cached: bool,
}

impl<'c, 'a, R: Games> WithGame<'a> for Work<'c, 'a, R> {
    type Output = ExplainReport;
    fn run<G: Game>(self, peeked: Peeked) -> Result<ExplainReport, VerifyError> {
        // A session replayed as recorded starts from its nearest snapshot at or before N.
        let as_recorded = self.variants.is_empty() && self.source.variants.is_empty();
        let snapshot = match (&peeked, as_recorded && self.cached) {
            (Peeked::Session(name, header, _), true) => {
                crate::state::snapshot::<R, G>(self.ctx, name, header, Some(self.n))?
            }
            _ => None,
        };
        // The unverified effects so far, which an uncertain finding names; unknown when the
        // snapshot replay starts from kept no findings.
        let (mut replay, mut seen, mut taints) = match snapshot {
            Some(s) => {
                let taints = s.findings.as_deref().map(crate::snapshots::taints);
                let mut replay = Replayer::new(s.opened);
                replay.state = s.state;
                (replay, s.at, taints)
            }
            None => {
                (Replayer::new(open::<G>(self.source, peeked, self.variants)?), 0, Some(Taints::default()))
            }
        };
        loop {
            let before = replay.state.clone();
            let Some(step) = replay.step() else {
                return Err(VerifyError::argument(if replay.stopped() {
                    format!(
                        "{}: replay stops before record {} (an earlier record cannot be applied)",
                        self.source, self.n
                    )
                } else {
                    format!("{}: no record {}: the log holds {seen} records", self.source, self.n)
                }));
            };
            let step = step?;
            seen += 1;
            if let (Outcome::Applied(f), Some(t)) = (&step.outcome, taints.as_mut()) {
                t.saw(step.index, f);
            }
            if step.index != self.n {
                continue;
            }
            let game = replay.game();
            let mut views = views_of::<G>(&step);
            match &taints {
                Some(t) => t.resolve(&mut views.uncertain),
                None if !views.uncertain.is_empty() => {
                    // Naming the effect needs every record before: replay from record 0, so
                    // the answer does not depend on the cache.
                    let peeked = crate::open::peek(self.ctx, self.source)?;
                    return Work { cached: false, ..self }.run::<G>(peeked);
                }
                None => {}
            }
            let (status, retracts) = match &step.outcome {
                Outcome::Applied(_) => ("applied", None),
                Outcome::Retracted => ("retracted", None),
                Outcome::Retraction(t) => ("retraction", Some(*t)),
                Outcome::Failed(_) => ("unapplicable", None),
            };
            let after = match step.outcome {
                Outcome::Failed(_) => None,
                _ => Some(StateView::of(game, &replay.state)),
            };
            return Ok(ExplainReport {
                source: self.source.to_string(),
                game: G::info().id.to_string(),
                record: RecordView::of(&step),
                status: status.to_string(),
                retracts,
                consequence: step.event.as_ref().is_some_and(G::is_consequence),
                rules_say: game.next_consequence(&before).map(|e| e.to_string()),
                before: StateView::of(game, &before),
                after,
                violations: views.violations,
                unverified: views.unverified,
                uncertain: views.uncertain,
                error: views.error,
            });
        }
    }
}

impl fmt::Display for ExplainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {} record {}", self.source, self.game, self.record)?;
        writeln!(f, "before:")?;
        write!(f, "{}", self.before)?;
        writeln!(f, "recorded: {}", self.record.notation)?;
        let legal = self.violations.is_empty() && self.error.is_none() && self.uncertain.is_empty();
        match &self.rules_say {
            // A consequence owed together with the one the chain puts first, the rules setting
            // no order between them (an area attack's targets): legal as recorded.
            Some(c)
                if self.consequence
                    && legal
                    && self.status == "applied"
                    && !c.split_whitespace().eq(self.record.notation.split_whitespace()) =>
            {
                writeln!(
                    f,
                    "the rules say: `{c}` comes next in the engine's own order; the record is another \
                     consequence owed at this same point, in an order the rules leave open"
                )?
            }
            Some(c) => writeln!(f, "the rules say: `{c}` comes next (a consequence the state determines)")?,
            None => writeln!(
                f,
                "the rules say: a decision or a random outcome comes next (no consequence is due)"
            )?,
        }
        match self.status.as_str() {
            "retracted" => writeln!(f, "verdict: retracted by a later record; replay skips it")?,
            "retraction" => writeln!(f, "verdict: retracts record {}", self.retracts.unwrap_or_default())?,
            _ if self.violations.is_empty() && self.error.is_none() && self.uncertain.is_empty() => {
                writeln!(f, "verdict: legal")?
            }
            _ => writeln!(f, "verdict:")?,
        }
        for v in &self.violations {
            write!(f, "  {v}")?;
        }
        for u in &self.unverified {
            writeln!(f, "  unverified: {}", u.effect)?;
        }
        for u in &self.uncertain {
            write!(f, "  {u}")?;
        }
        if let Some(e) = &self.error {
            writeln!(f, "  {e}")?;
        }
        if let Some(a) = &self.after {
            writeln!(f, "after:")?;
            write!(f, "{a}")?;
        }
        Ok(())
    }
}
