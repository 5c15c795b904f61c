//! The single long session behind sections 5, 6 and 7: a campaign of 10^6 events (see
//! `campaign`) stored four times in one journal: as is, with snapshots, and with one event
//! changed at index 10 and near the end, for the diffs.

use super::campaign::{Campaign, CampaignEvent};
use super::journal_store::{meta, JOURNAL_DIR};
use super::stores::{self, Kind};
use crate::Fallible;
use arbiter_engine::{Findings, Game};
use arbiter_journal::{Journal, Record};
use std::path::Path;

pub const PLAIN: &str = "campaign";
/// The stores' directory names under the run's scratch directory: `long-<kind>`.
pub const PURPOSE: &str = "long";
pub const SNAPPED: &str = "campaign-snapshots";

/// The session name of the copy changed at `index`.
pub fn split_name(index: u64) -> String {
    format!("campaign-split-{index}")
}

pub struct Long<G: Game> {
    pub game: Campaign<G>,
    pub journal: Journal,
    pub len: u64,
    /// The snapshot interval of `SNAPPED`.
    pub every: u64,
}

/// Simulate the campaign, store it (batches of 1,000), and write snapshots every `every`
/// records into the `SNAPPED` copy.
pub fn build<G: Game>(dir: &Path, game: &G, len: usize, every: u64, splits: &[u64]) -> Fallible<Long<G>> {
    let game = Campaign { inner: game.clone() };
    let events = game.simulate(1, len).ok_or("the game has no simulator")?;
    let journal = Journal::open(stores::dir_of(Kind::Arbiter, dir, PURPOSE).join(JOURNAL_DIR))?;
    let meta = meta::<Campaign<G>>();
    let store = |name: &str, events: &[CampaignEvent<G::Event>]| -> Fallible {
        journal.create_session(name, &meta)?;
        for (i, chunk) in events.chunks(1_000).enumerate() {
            let records: Vec<Record<&CampaignEvent<G::Event>>> = chunk.iter().map(Record::Event).collect();
            journal.append(name, (i * 1_000) as u64, &records)?;
        }
        Ok(())
    };
    store(PLAIN, &events)?;
    store(SNAPPED, &events)?;
    // The baselines hold the plain copy too, for the peak-memory comparison.
    for kind in [Kind::Sqlite, Kind::Jsonl] {
        let mut other = stores::create::<Campaign<G>>(kind, dir, PURPOSE)?;
        for (i, chunk) in events.chunks(1_000).enumerate() {
            other.append_batch(PLAIN, (i * 1_000) as u64, chunk)?;
        }
    }
    for &at in splits {
        let mut changed = events.clone();
        let i = at as usize;
        // Any other event of the log differs from this one: the diff must find the split
        // here, as "the events differ".
        let other = events.iter().find(|e| **e != events[i]).ok_or("a log of one repeated event")?;
        changed[i] = other.clone();
        store(&split_name(at), &changed)?;
    }
    drop(events);
    let long = Long { game, journal, len: len as u64, every };
    long.snapshot()?;
    Ok(long)
}

impl<G: Game> Long<G> {
    /// Replay `SNAPPED` once and store the state every `every` records, as the journal's
    /// snapshot cache holds it (in verify's snapshot layout, tagged with the rules version).
    fn snapshot(&self) -> Fallible {
        let version = Campaign::<G>::info().rules_version;
        let mut state = self.game.initial_state();
        let mut findings = Findings::default();
        for item in self.journal.events::<CampaignEvent<G::Event>>(SNAPPED, 0)? {
            let (seq, record) = item?;
            if let Record::Event(e) = record {
                findings.clear();
                self.game.step(&mut state, &e, &mut findings)?;
            }
            let after = seq + 1;
            if after % self.every == 0 {
                let bytes = arbiter_verify::snapshot_bytes(&state).ok_or("a state did not encode")?;
                self.journal.put_snapshot(SNAPPED, after, version, &bytes)?;
            }
        }
        self.journal.flush()?;
        Ok(())
    }

    /// The state after the first `n` records of `session`: from the nearest snapshot when
    /// `use_snapshots`, else from the start; the rest streamed and stepped.
    pub fn state_at(&self, session: &str, n: u64, use_snapshots: bool) -> Fallible<G::State> {
        let version = Campaign::<G>::info().rules_version;
        let (from, mut state) = match use_snapshots {
            true => match self.journal.snapshot_before(session, n, version)? {
                Some((at, bytes)) => (
                    at,
                    arbiter_verify::snapshot_state::<G::State>(&bytes).ok_or("a snapshot did not decode")?,
                ),
                None => (0, self.game.initial_state()),
            },
            false => (0, self.game.initial_state()),
        };
        let mut findings = Findings::default();
        for item in self.journal.events::<CampaignEvent<G::Event>>(session, from)?.take((n - from) as usize) {
            if let (_, Record::Event(e)) = item? {
                findings.clear();
                self.game.step(&mut state, &e, &mut findings)?;
            }
        }
        Ok(state)
    }

    /// The first index where two sessions split (events or states differ), streaming both
    /// in lockstep and stopping there: the driver's own diff, used when verify's cannot run.
    pub fn first_split(&self, a: &str, b: &str) -> Fallible<Option<u64>> {
        let mut ia = self.journal.events::<CampaignEvent<G::Event>>(a, 0)?;
        let mut ib = self.journal.events::<CampaignEvent<G::Event>>(b, 0)?;
        let (mut sa, mut sb) = (self.game.initial_state(), self.game.initial_state());
        let (mut fa, mut fb) = (Findings::default(), Findings::default());
        loop {
            match (ia.next().transpose()?, ib.next().transpose()?) {
                (None, None) => return Ok(None),
                (Some((i, _)), None) | (None, Some((i, _))) => return Ok(Some(i)),
                (Some((i, ra)), Some((_, rb))) => {
                    if ra != rb {
                        return Ok(Some(i));
                    }
                    if let (Record::Event(ea), Record::Event(eb)) = (&ra, &rb) {
                        fa.clear();
                        fb.clear();
                        self.game.step(&mut sa, ea, &mut fa)?;
                        self.game.step(&mut sb, eb, &mut fb)?;
                        if sa != sb || fa != fb {
                            return Ok(Some(i));
                        }
                    }
                }
            }
        }
    }
}
