//! Sections 1 and 2: durable appends, one event at a time and in batches of 1,000.

use super::fsync::{self, Write64};
use super::measure::{median, rate};
use super::report::{Row, Unit};
use super::stores::{self, Kind};
use super::Run;
use crate::Fallible;
use arbiter_engine::Game;
use std::time::{Duration, Instant};

/// Appends per store at most, and the time allowed each store, for the one-by-one test:
/// enough samples for a stable median without letting a slow disk eat the run.
const SINGLE_MAX: usize = 1_000;
const SINGLE_BUDGET: Duration = Duration::from_secs(3);
/// Events appended in the batched test, and the batch size the issue names.
const BATCHED_EVENTS: usize = 200_000;
pub const BATCH: usize = 1_000;

/// write+fsync pairs timed before each store's turn; all of them make the reference.
const FSYNC_SAMPLES: usize = 100;

/// Section 1: the median latency of a durable append of one event, against the bare fsync
/// of the same disk, sampled just before each store's turn so that a change in the disk's
/// speed during the run does not favour one store.
pub fn single<G: Game>(run: &mut Run<G>) -> Fallible {
    // A tenth of a small corpus, so a test run on a slow disk stays short.
    let events = run.corpus.first(SINGLE_MAX.min(run.corpus.events as usize / 10).max(10));
    let (mut appended, mut in_place) = (Vec::new(), Vec::new());
    let mut row = Row::new("1", "durable append of 1 event (median latency)", Unit::Micros);
    for kind in stores::ALL {
        appended.extend(fsync::samples(&run.dir, FSYNC_SAMPLES, Write64::Append)?);
        in_place.extend(fsync::samples(&run.dir, FSYNC_SAMPLES, Write64::InPlace)?);
        let result = (|| -> Fallible<(f64, usize)> {
            let mut store = stores::create::<G>(kind, &run.dir, "single")?;
            let mut samples = Vec::with_capacity(events.len());
            let start = Instant::now();
            for (seq, e) in events.iter().enumerate() {
                let t = Instant::now();
                store.append_one("durable", seq as u64, e)?;
                samples.push(t.elapsed().as_secs_f64());
                if start.elapsed() > SINGLE_BUDGET {
                    break;
                }
            }
            Ok((median(samples.clone()) * 1e6, samples.len()))
        })();
        match result {
            Ok((us, n)) => {
                run.raw(format!("single append {}: median {us:.1} µs over {n} appends", kind.name()));
                row = set(row, kind, us);
            }
            Err(e) => row = failed(row, kind, &e),
        }
    }
    let fsync_us = median(appended.clone()) * 1e6;
    let floor_us = median(in_place.clone()) * 1e6;
    run.raw(format!(
        "fsync reference: median {fsync_us:.1} µs appending 64 B + fsync, {floor_us:.1} µs rewriting 64 B in \
         place + fdatasync ({} times each, {FSYNC_SAMPLES} before each store)",
        appended.len()
    ));
    for (what, us) in [("append 64 B + fsync", fsync_us), ("rewrite 64 B in place + fdatasync", floor_us)] {
        run.rows.push(
            Row::new("1", format!("reference: {what} on this disk"), Unit::Micros)
                .arbiter(us)
                .sqlite(us)
                .jsonl(us),
        );
    }
    if let Some(a) = row.arbiter {
        let (ratio, floor) = (a / fsync_us, a / floor_us);
        row = row
            .target(format!("≤ 1.5× append+fsync ({ratio:.2}×)"), ratio <= 1.5)
            .target(format!("≤ 1.5× in-place fdatasync ({floor:.2}×)"), floor <= 1.5);
    }
    run.rows.push(row);
    Ok(())
}

/// Section 2: durable appends with one flush (one commit, one fsync) per 1,000 events.
pub fn batched<G: Game>(run: &mut Run<G>) -> Fallible {
    let events = run.corpus.first(BATCHED_EVENTS);
    let mut row =
        Row::new("2", format!("durable append, batches of {BATCH} ({} events)", events.len()), Unit::Rate);
    for kind in stores::ALL {
        // Best of two passes, each into a fresh store: one pass is a few hundred
        // milliseconds, short enough for a neighbour's burst to spoil.
        let result = (|| -> Fallible<f64> {
            let mut best = 0f64;
            for pass in 0..2 {
                let mut store = stores::create::<G>(kind, &run.dir, &format!("batched{pass}"))?;
                let start = Instant::now();
                for (i, chunk) in events.chunks(BATCH).enumerate() {
                    store.append_batch("batched", (i * BATCH) as u64, chunk)?;
                }
                best = best.max(rate(events.len() as u64, start.elapsed().as_secs_f64()));
            }
            Ok(best)
        })();
        match result {
            Ok(r) => {
                run.raw(format!("batched append {}: {r:.0} events/s (best of 2)", kind.name()));
                row = set(row, kind, r);
            }
            Err(e) => row = failed(row, kind, &e),
        }
    }
    if let Some(a) = row.arbiter {
        row = row.target("≥ 200 k/s", a >= 200_000.0);
        if let Some(s) = row.sqlite {
            row = row.target("faster than SQLite", a > s);
        }
    }
    run.rows.push(row);
    Ok(())
}

/// Put a store's figure in its column.
pub fn set(row: Row, kind: Kind, v: f64) -> Row {
    match kind {
        Kind::Arbiter => row.arbiter(v),
        Kind::Sqlite => row.sqlite(v),
        Kind::Jsonl => row.jsonl(v),
    }
}

/// Record why a store could not be measured; the run goes on without that figure.
pub fn failed(row: Row, kind: Kind, e: &dyn std::fmt::Display) -> Row {
    eprintln!("  {} failed: {e}", kind.name());
    let note = if row.note.is_empty() {
        format!("{}: {e}", kind.name())
    } else {
        format!("{}; {}: {e}", row.note, kind.name())
    };
    row.note(note)
}
