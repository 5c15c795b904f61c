//! `arbiter snapshot SESSION`: cache the state every K records in the journal, so that
//! `replay --to N` and `explain N` start near N instead of at record 0. Sessions recorded
//! line by line get snapshots as they grow (`Recorder`); imported, simulated and forked ones
//! get them here. Snapshots are tagged with the rules version, so a rules change makes them
//! invisible until they are built again.

use crate::error::VerifyError;
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::session::{from_journal, journal};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::Serialize;
use std::fmt;

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
        while let Some(step) = replay.step() {
            let step = step?;
            if matches!(step.outcome, Outcome::Failed(_)) {
                break;
            }
            done.replayed = step.index + 1;
            if done.replayed % self.every == 0 {
                let bytes = arbiter_journal::codec::encode(&replay.state).map_err(|e| {
                    VerifyError::argument(format!("session `{}`: a state did not encode ({e})", self.name))
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
