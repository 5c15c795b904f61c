//! Section 3's "verify a whole database" rows: every session of the corpus journal through
//! the verify crate (the API `arbiter verify` calls), on one thread and then on a thread per
//! core, each thread taking the next session from a shared counter. The figure is events
//! per second over the whole database, and the ratio of the two is how well verifying
//! scales with cores.

use super::corpus::Corpus;
use super::measure::{median, rate};
use super::report::{Row, Unit};
use crate::Fallible;
use arbiter_engine::Game;
use arbiter_journal::Journal;
use arbiter_verify::{Context, Source, VerifyOptions};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Passes of each (one thread, every core), alternating; the medians count.
const PASSES: usize = 3;

/// The raw line and the two rows.
pub fn verify_all<G: Game>(
    journal: &Journal,
    corpus: &Corpus<G>,
    options: &VerifyOptions,
) -> Fallible<(String, Vec<Row>)> {
    let names: Vec<&str> = corpus.sessions.iter().map(|(n, _)| n.as_str()).collect();
    let cores = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
    let (mut one, mut all) = (Vec::new(), Vec::new());
    for _ in 0..PASSES {
        one.push(pass(journal, &names, options, 1)?);
        all.push(pass(journal, &names, options, cores)?);
    }
    let records = one.first().map(|p| p.0).unwrap_or(0);
    let single = median(one.iter().map(|p| rate(p.0, p.1)).collect());
    let parallel = median(all.iter().map(|p| rate(p.0, p.1)).collect());
    let speedup = parallel / single;
    let line = format!(
        "whole database through the verify crate: {} sessions, {records} records; 1 thread {single:.0} \
         records/s, {cores} threads {parallel:.0} records/s ({speedup:.2}×; medians of {PASSES} alternating passes)",
        names.len()
    );
    let rows = vec![
        Row::new("3", "verify a whole database, 1 thread", Unit::Rate).arbiter(single),
        Row::new(
            "3",
            format!("verify a whole database, {cores} threads on {cores} cores ({speedup:.2}× one thread)"),
            Unit::Rate,
        )
        .arbiter(parallel),
    ];
    Ok((line, rows))
}

/// Verify every session on `threads` threads; the records verified and the seconds taken.
fn pass(journal: &Journal, names: &[&str], options: &VerifyOptions, threads: usize) -> Fallible<(u64, f64)> {
    let next = AtomicUsize::new(0);
    let ctx = Context::new(journal);
    let start = Instant::now();
    let results: Vec<Fallible<u64>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Fallible<u64> {
                    let mut records = 0;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(name) = names.get(i) else { return Ok(records) };
                        let report = arbiter_verify::verify(&ctx, &Source::session(*name), options)
                            .map_err(|e| format!("verify {name}: {e}"))?;
                        if !report.is_clean() {
                            return Err(format!("verify {name}: the simulated session is not clean").into());
                        }
                        records += report.records;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a verify thread panicked".into())))
            .collect()
    });
    let secs = start.elapsed().as_secs_f64();
    let mut records = 0;
    for r in results {
        records += r?;
    }
    Ok((records, secs))
}
