//! `arbiter snapshot SESSION`: cache the state every K records in the journal, so that
//! `replay --to N` and `explain N` start near N instead of at record 0. Sessions recorded
//! line by line get snapshots as they grow (`Recorder`); imported, simulated and forked ones
//! get them here. Snapshots are tagged with the rules version, so a rules change makes them
//! invisible until they are built again.
//!
//! A snapshot holds the state after its records *and* the findings of those records (up to
//! [`MAX_CACHED_FINDINGS`]), so that a replay started from it reports exactly what a replay
//! from record 0 reports: the cache only saves time, it never changes an answer. A snapshot
//! of a session with more findings than that holds the state only; `replay` then starts
//! from record 0, while `explain` and `diff` (which need no earlier findings) still use it.

use crate::error::VerifyError;
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::report::{UncertainView, UnverifiedView, ViolationView};
use crate::session::{from_journal, journal};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Findings kept in one snapshot at most.
pub const MAX_CACHED_FINDINGS: usize = 256;

/// Tells this layout from the older one (a bare state): an older snapshot fails to decode
/// and is ignored, as any undecodable cache is.
/// (Layout 3 keeps uncertain findings too: a layout-2 snapshot, which dropped them, is
/// ignored rather than trusted.)
const LAYOUT: u32 = 0x5341_4633;

/// A finding of a record before the snapshot, as a replay report shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum CachedFinding {
    Violation(ViolationView),
    Unverified(UnverifiedView),
    Uncertain(UncertainView),
}

/// The unverified effects among cached findings, in order (what an uncertain finding's
/// ordinal indexes).
pub(crate) fn taints(findings: &[CachedFinding]) -> crate::report::Taints {
    let mut taints = crate::report::Taints::default();
    for f in findings {
        if let CachedFinding::Unverified(u) = f {
            taints.saw_one(u.record.index);
        }
    }
    taints
}

/// The findings a snapshot carries: `None` when there were too many to keep.
pub(crate) type CachedFindings = Option<Vec<CachedFinding>>;

#[derive(Serialize)]
struct Writing<'a, S> {
    layout: u32,
    state: &'a S,
    findings: Option<&'a [CachedFinding]>,
}

#[derive(Deserialize)]
struct Reading<S> {
    layout: u32,
    state: S,
    findings: CachedFindings,
}

/// The bytes of a snapshot; findings past [`MAX_CACHED_FINDINGS`] are not kept.
pub(crate) fn encode<S: Serialize>(state: &S, findings: &[CachedFinding]) -> Option<Vec<u8>> {
    let findings = (findings.len() <= MAX_CACHED_FINDINGS).then_some(findings);
    arbiter_journal::codec::encode(&Writing { layout: LAYOUT, state, findings }).ok()
}

/// The bytes of a snapshot of `state` after records without findings: how tests and tools
/// plant a cached state in the journal.
pub fn snapshot_bytes<S: Serialize>(state: &S) -> Option<Vec<u8>> {
    encode(state, &[])
}

/// The state a snapshot holds, or `None` when its bytes are not a snapshot.
pub fn snapshot_state<S: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<S> {
    decode(bytes).map(|(state, _)| state)
}

/// A snapshot's state and findings, or `None` when it does not decode (it is only a cache).
pub(crate) fn decode<S: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<(S, CachedFindings)> {
    let read: Reading<S> = arbiter_journal::codec::decode(bytes).ok()?;
    (read.layout == LAYOUT).then_some((read.state, read.findings))
}

/// The cached form of one stepped record's findings.
pub(crate) fn cache_findings<G: Game>(
    record: &crate::report::RecordView,
    f: &arbiter_engine::Findings,
    out: &mut Vec<CachedFinding>,
) {
    if out.len() > MAX_CACHED_FINDINGS {
        return;
    }
    out.extend(
        f.violations.iter().map(|v| CachedFinding::Violation(ViolationView::of::<G>(record.clone(), v))),
    );
    out.extend(
        f.unverified
            .iter()
            .map(|u| CachedFinding::Unverified(UnverifiedView { record: record.clone(), effect: u.clone() })),
    );
    if !f.uncertain.is_empty() {
        let taints = taints(out);
        out.extend(f.uncertain.iter().map(|v| {
            CachedFinding::Uncertain(crate::report::uncertain_view::<G>(record.clone(), v, taints.records()))
        }));
    }
}

/// What `snapshot` stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snapshotted {
    pub session: String,
    pub every: u64,
    /// Snapshots written (one per `every` records replayed).
    pub snapshots: u64,
    /// Records replayed; fewer than the session holds when one cannot be applied (no
    /// snapshot is taken past it).
    pub replayed: u64,
}

impl fmt::Display for Snapshotted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "session `{}`: {} snapshot(s), one every {} records ({} records replayed)",
            self.session, self.snapshots, self.every, self.replayed
        )
    }
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    source: Source,
    name: &'c str,
    every: u64,
}

impl<'c, 'a, R: Games> WithGame<'a> for Work<'c, 'a, R> {
    type Output = Snapshotted;
    fn run<G: Game>(self, peeked: Peeked) -> Result<Snapshotted, VerifyError> {
        let journal = journal(self.ctx, self.name)?;
        let mut replay = Replayer::new(open::<G>(&self.source, peeked, &[])?);
        let mut done =
            Snapshotted { session: self.name.to_string(), every: self.every, snapshots: 0, replayed: 0 };
        let mut findings: Vec<CachedFinding> = Vec::new();
        while let Some(step) = replay.step() {
            let step = step?;
            match &step.outcome {
                Outcome::Failed(_) => break,
                Outcome::Applied(f) if !f.is_empty() => {
                    cache_findings::<G>(&crate::report::RecordView::of(&step), f, &mut findings)
                }
                _ => {}
            }
            done.replayed = step.index + 1;
            if done.replayed % self.every == 0 {
                let bytes = encode(&replay.state, &findings).ok_or_else(|| {
                    VerifyError::argument(format!("session `{}`: a state did not encode", self.name))
                })?;
                journal
                    .put_snapshot(self.name, done.replayed, G::info().rules_version, &bytes)
                    .map_err(from_journal)?;
                done.snapshots += 1;
            }
        }
        journal.flush().map_err(from_journal)?;
        Ok(done)
    }
}

/// Replay `session` as recorded and store its state after every `every` records.
pub fn snapshot<R: Games>(
    ctx: &Context<'_, R>,
    session: &str,
    every: u64,
) -> Result<Snapshotted, VerifyError> {
    if every == 0 {
        return Err(VerifyError::argument("snapshots need a spacing of at least 1 record"));
    }
    let source = Source::session(session);
    with_game(ctx, &source.clone(), Work { ctx, source, name: session, every })
}
