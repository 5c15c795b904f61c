//! Section 3's "verify a whole database" rows: `arbiter verify --all`'s own call
//! (`arbiter_verify::audit`: every session of the journal verified on all cores, summed up by
//! rule id, each verdict hashed for the next audit to compare with) over the corpus journal,
//! on a pool of one thread and on a pool of a thread per core, alternating. The figure is
//! events per second over the whole database, and the ratio of the two is how well
//! verifying scales with cores.

use super::corpus::Corpus;
use super::measure::{median, rate};
use super::report::{Row, Unit};
use crate::Fallible;
use arbiter_engine::Game;
use arbiter_journal::Journal;
use arbiter_verify::{AuditOptions, Context, Verdicts};
use std::time::Instant;

/// Passes of each (one thread, every core), alternating; the medians count.
const PASSES: usize = 3;

/// The raw line and the two rows.
pub fn verify_all<G: Game>(journal: &Journal, corpus: &Corpus<G>) -> Fallible<(String, Vec<Row>)> {
    let cores = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let all = rayon::ThreadPoolBuilder::new().num_threads(cores).build()?;
    let ctx = Context::new(journal);
    let (mut singles, mut parallels, mut records) = (Vec::new(), Vec::new(), 0);
    for _ in 0..PASSES {
        for (pool, out) in [(&one, &mut singles), (&all, &mut parallels)] {
            let start = Instant::now();
            let report = pool.install(|| {
                arbiter_verify::audit(&ctx, &AuditOptions::default(), &Verdicts::new(), &|_| {})
            })?;
            let secs = start.elapsed().as_secs_f64();
            let s = &report.summary;
            if s.sessions != corpus.sessions.len() as u64 || s.with_violations > 0 || s.unusable > 0 {
                return Err(format!(
                    "the audit of the corpus found {} sessions, {} with violations, {} unusable; want {} clean",
                    s.sessions,
                    s.with_violations,
                    s.unusable,
                    corpus.sessions.len()
                )
                .into());
            }
            records = report.sessions.iter().filter_map(|a| a.verdict.as_ref()).map(|v| v.records).sum();
            out.push(rate(records, secs));
        }
    }
    let (single, parallel) = (median(singles), median(parallels));
    let speedup = parallel / single;
    let line = format!(
        "whole database through arbiter_verify::audit (`arbiter verify --all`): {} sessions, {records} records; \
         1 thread {single:.0} records/s, {cores} threads {parallel:.0} records/s ({speedup:.2}×; medians of \
         {PASSES} alternating passes)",
        corpus.sessions.len()
    );
    let title = "verify a whole database (`arbiter verify --all`)";
    let rows = vec![
        Row::new("3", format!("{title}, 1 thread"), Unit::Rate).arbiter(single),
        Row::new(
            "3",
            format!("{title}, {cores} threads on {cores} cores ({speedup:.2}× one thread)"),
            Unit::Rate,
        )
        .arbiter(parallel),
    ];
    Ok((line, rows))
}
