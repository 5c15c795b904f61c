//! `arbiter replay --to N`: the state after records `0..N`, with the findings so far.

use crate::error::VerifyError;
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::report::{views_of, StateView, StepErrorView, UncertainView, UnverifiedView, ViolationView};
use crate::snapshots::{CachedFinding, CachedFindings};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::Serialize;
use std::fmt;

/// The table after a prefix of a log.
///
/// Its JSON form (`arbiter replay --json`) is `schemas/replay.json`: `source`, `game`,
/// `replayed` (records replayed, retracted ones and retractions included), `total` (the
/// number of records in the log, however far replay went), `state` (`{board, facts: [{key,
/// value}], digest}`), `violations`, `unverified`, `uncertain` and `error` (the findings of
/// the records replayed, as in `verify --json`).
///
/// The report is the same whether replay started at record 0 or from a snapshot cached in
/// the journal: a snapshot carries the findings before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplayReport {
    pub source: String,
    pub game: String,
    pub replayed: u64,
    pub total: u64,
    pub state: StateView,
    /// Where replay started: after this many records, from a snapshot cached in the
    /// journal. Not part of the output (which never depends on the cache); for tests.
    #[serde(skip)]
    pub from_snapshot: Option<u64>,
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
    /// Findings that may follow from an earlier unverified effect (not violations).
    pub uncertain: Vec<UncertainView>,
    /// Findings past the first [`MAX_LISTED`], counted only (`verify` lists them all).
    pub omitted: u64,
    pub error: Option<StepErrorView>,
}

/// Findings a replay report lists at most: it is about the table after N records, and a
/// log full of violations must not fill memory with them.
pub const MAX_LISTED: usize = 1000;

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
        let session_len = match &peeked {
            Peeked::Session(name, _, _) => Some(
                crate::session::journal(self.ctx, name)?.len(name).map_err(crate::session::from_journal)?,
            ),
            Peeked::File(_) => None,
        };
        let snapshot = match (&peeked, self.variants.is_empty() && self.source.variants.is_empty()) {
            (Peeked::Session(name, header, _), true) => snapshot::<R, G>(self.ctx, name, header, self.to)?,
            _ => None,
        };
        // Only a snapshot that carries the findings before it gives the same report.
        let snapshot = snapshot.and_then(|s| Some((s.at, s.opened, s.state, s.findings?)));
        let (mut replay, from, cached) = match snapshot {
            Some((at, opened, state, findings)) => {
                let mut replay = Replayer::new(opened);
                replay.state = state;
                (replay, Some(at), findings)
            }
            None => (Replayer::new(open::<G>(self.source, peeked, self.variants)?), None, Vec::new()),
        };
        let mut report = ReplayReport {
            source: self.source.to_string(),
            game: G::info().id.to_string(),
            replayed: from.unwrap_or(0),
            total: 0,
            from_snapshot: from,
            state: StateView::of(replay.game(), &replay.state),
            violations: Vec::new(),
            unverified: Vec::new(),
            uncertain: Vec::new(),
            omitted: 0,
            error: None,
        };
        let mut taints = crate::snapshots::taints(&cached);
        for finding in cached {
            if report.listed() >= MAX_LISTED {
                report.omitted += 1;
                continue;
            }
            match finding {
                CachedFinding::Violation(v) => report.violations.push(v),
                CachedFinding::Unverified(u) => report.unverified.push(u),
                CachedFinding::Uncertain(u) => report.uncertain.push(u),
            }
        }
        while self.to.is_none_or(|to| report.replayed < to) {
            let Some(step) = replay.step() else { break };
            let step = step?;
            report.replayed += 1;
            if let Outcome::Applied(f) = &step.outcome {
                taints.saw(step.index, f);
                let found = (f.violations.len() + f.unverified.len() + f.uncertain.len()) as u64;
                if report.listed() >= MAX_LISTED {
                    report.omitted += found;
                    continue;
                }
            }
            let mut views = views_of::<G>(&step);
            taints.resolve(&mut views.uncertain);
            report.violations.extend(views.violations);
            report.unverified.extend(views.unverified);
            report.uncertain.extend(views.uncertain);
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
        report.total = match (session_len, &self.source.origin) {
            (Some(len), _) => len,
            (None, _) if replay.at_end() => report.replayed,
            // The rest of the file is counted, syntax only, for `total`.
            (None, crate::source::Origin::File(path)) => crate::logfile::count_records(path)?,
            (None, crate::source::Origin::Session(_)) => report.replayed,
        };
        report.state = StateView::of(replay.game(), &replay.state);
        Ok(report)
    }
}

/// A snapshot to start from.
pub(crate) struct Snapshot<G: Game> {
    /// The records it comes after.
    pub at: u64,
    /// The session opened from there.
    pub opened: crate::open::Opened<G>,
    pub state: G::State,
    /// The findings of the records before it, when it kept them.
    pub findings: CachedFindings,
}

/// The latest usable snapshot at or before `to`: its record count, the session opened from
/// there, and the decoded state. A snapshot is unusable when a retraction after it
/// withdraws a record before it (the cached state still holds that record's effect), or
/// when it does not decode (it is only a cache).
pub(crate) fn snapshot<R: Games, G: Game>(
    ctx: &Context<'_, R>,
    name: &str,
    header: &crate::header::Header,
    to: Option<u64>,
) -> Result<Option<Snapshot<G>>, VerifyError> {
    let j = crate::session::journal(ctx, name)?;
    let len = j.len(name).map_err(crate::session::from_journal)?;
    let target = to.unwrap_or(len).min(len);
    let found =
        j.snapshot_before(name, target, G::info().rules_version).map_err(crate::session::from_journal)?;
    let Some((at, bytes)) = found.filter(|(at, _)| *at > 0) else { return Ok(None) };
    let retractions = j.retractions(name).map_err(crate::session::from_journal)?;
    if retractions.iter().any(|(by, target)| *by >= at && *target < at) {
        return Ok(None);
    }
    let Some((state, findings)) = crate::snapshots::decode::<G::State>(&bytes) else { return Ok(None) };
    let opened = crate::open::open_session_from::<R, G>(ctx, name, header.clone(), at)?;
    Ok(Some(Snapshot { at, opened, state, findings }))
}

impl ReplayReport {
    /// Findings listed so far.
    fn listed(&self) -> usize {
        self.violations.len() + self.unverified.len() + self.uncertain.len()
    }
}

impl fmt::Display for ReplayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {} after {} of {} record(s)", self.source, self.game, self.replayed, self.total)?;
        write!(f, "{}", self.state)?;
        crate::report::write_findings(f, &self.violations, &self.unverified, &self.uncertain)?;
        if self.omitted > 0 {
            writeln!(f, "{} more finding(s) not listed (`arbiter verify` lists them all)", self.omitted)?;
        }
        if let Some(e) = &self.error {
            writeln!(f, "{e}")?;
        }
        Ok(())
    }
}
