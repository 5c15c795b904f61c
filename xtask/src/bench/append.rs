//! Sections 1 and 2: durable appends, one event at a time and in batches of 1,000.

use super::fsync::{self, Write64};
use super::measure::{mean, median, percentile, rate};
use super::report::{Row, Unit};
use super::stores::{self, Kind};
use super::Run;
use crate::Fallible;
use arbiter_engine::Game;
use std::time::{Duration, Instant};

/// Appends per store at most, and the time allowed each store, for the one-by-one test:
/// enough samples for a stable median and p99 without letting a slow disk eat the run.
const SINGLE_MAX: usize = 1_000;
const SINGLE_BUDGET: Duration = Duration::from_secs(3);
/// Appends made to each store before the measured ones: a fresh SQLite file's write-ahead
/// log is still growing (each commit extends the file), while arbiter's is preallocated.
/// After about 3,000 appends both are in their steady state, and arbiter has been through a
/// checkpoint (one every ~2,900 appends of the bench's events), which the p99 then shows.
const WARM_UP: usize = 3_000;
/// Events appended in the batched test, and the batch size the issue names.
const BATCHED_EVENTS: usize = 200_000;
pub const BATCH: usize = 1_000;

/// write+fsync pairs timed before each store's turn; all of them make the reference.
const FSYNC_SAMPLES: usize = 100;

/// Section 1: the latency of a durable append of one event (median, mean and p99) to a
/// warmed store, against the bare fsync of the same disk, sampled just before each store's
/// turn so that a change in the disk's speed during the run does not favour one store.
pub fn single<G: Game>(run: &mut Run<G>) -> Fallible {
    // A small corpus (a test) warms and measures less, so a slow disk keeps the test short.
    let available = run.corpus.events as usize;
    let warm_up = WARM_UP.min(available / 4);
    let measured = SINGLE_MAX.min(available / 10).max(10);
    let events = run.corpus.first(warm_up + measured);
    let (mut appended, mut in_place) = (Vec::new(), Vec::new());
    let title = "durable append of 1 event";
    let mut rows = [
        Row::new("1", format!("{title} (median latency)"), Unit::Micros),
        Row::new("1", format!("{title} (mean latency)"), Unit::Micros),
        Row::new("1", format!("{title} (p99 latency)"), Unit::Micros),
    ];
    for kind in stores::ALL {
        appended.extend(fsync::samples(&run.dir, FSYNC_SAMPLES, Write64::Append)?);
        in_place.extend(fsync::samples(&run.dir, FSYNC_SAMPLES, Write64::InPlace)?);
        let result = (|| -> Fallible<Vec<f64>> {
            let mut store = stores::create::<G>(kind, &run.dir, "single")?;
            let (warm, timed) = events.split_at(warm_up.min(events.len()));
            for (seq, e) in warm.iter().enumerate() {
                store.append_one("durable", seq as u64, e)?;
            }
            let mut samples = Vec::with_capacity(timed.len());
            let start = Instant::now();
            for (i, e) in timed.iter().enumerate() {
                let t = Instant::now();
                store.append_one("durable", (warm.len() + i) as u64, e)?;
                samples.push(t.elapsed().as_secs_f64());
                if start.elapsed() > SINGLE_BUDGET {
                    break;
                }
            }
            Ok(samples)
        })();
        match result {
            Ok(samples) => {
                let (med, avg, p99) = (
                    median(samples.clone()) * 1e6,
                    mean(&samples) * 1e6,
                    percentile(samples.clone(), 99.0) * 1e6,
                );
                run.raw(format!(
                    "single append {}: median {med:.1} µs, mean {avg:.1} µs, p99 {p99:.1} µs over {} appends \
                     after {warm_up} warm-up appends",
                    kind.name(),
                    samples.len()
                ));
                for (row, v) in rows.iter_mut().zip([med, avg, p99]) {
                    *row = set(row.clone(), kind, v);
                }
            }
            Err(e) => {
                for row in rows.iter_mut() {
                    *row = failed(row.clone(), kind, &e);
                }
            }
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
    let [mut median_row, mean_row, p99_row] = rows;
    if let Some(a) = median_row.arbiter {
        let (ratio, floor) = (a / fsync_us, a / floor_us);
        median_row = median_row
            .target_with("≤ 1.5× append+fsync", format!("{ratio:.2}×"), ratio <= 1.5)
            .target_with("≤ 1.5× in-place fdatasync", format!("{floor:.2}×"), floor <= 1.5);
    }
    run.rows.extend([median_row, mean_row, p99_row]);
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
