//! `cargo xtask bench --profile kinds --game ID --events N`: the rules' step timed record by
//! record and summed by the record's kind (the first word of its notation that is not a
//! number), so that the cost of verifying is seen where it is spent: which kinds of record
//! are dear, and how much of the whole each takes. Wall-clock time, not instructions: what
//! callgrind counts misses what a record costs in cache misses and mispredicted branches,
//! and on this path those are most of it. The corpus is stepped `PASSES` times and each kind
//! keeps the sum, so a neighbour's burst is spread over all of them; the clock's own cost
//! (two reads of `Instant` around each step) is measured and given beside.

use super::corpus::Corpus;
use arbiter_engine::{Findings, Game};
use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times over the corpus.
const PASSES: usize = 5;
/// The kinds printed, dearest first.
const SHOWN: usize = 30;

/// Step every session of `corpus` `PASSES` times, timing each record; print the table. The
/// records stepped in one pass.
pub fn by_kind<G: Game>(corpus: &Corpus<G>) -> u64 {
    let mut findings = Findings::default();
    // Each event's kind, worked out once (formatting is dearer than the step).
    let kinds: Vec<Vec<String>> = corpus
        .sessions
        .iter()
        .map(|(_, events)| events.iter().map(|e| kind(&e.to_string())).collect())
        .collect();
    let mut by: HashMap<&str, (u64, Duration)> = HashMap::new();
    let mut stepped = 0u64;
    for _ in 0..PASSES {
        for ((_, events), kinds) in corpus.sessions.iter().zip(&kinds) {
            let mut state = corpus.game.initial_state();
            for (e, k) in events.iter().zip(kinds) {
                findings.clear();
                let start = Instant::now();
                let result = corpus.game.step(&mut state, e, &mut findings);
                let took = start.elapsed();
                let entry = by.entry(k.as_str()).or_default();
                entry.0 += 1;
                entry.1 += took;
                if result.is_err() {
                    break;
                }
                stepped += 1;
            }
            black_box(&state);
        }
    }
    let clock = clock_cost();
    let total: Duration = by.values().map(|v| v.1).sum();
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by_key(|(_, (_, t))| std::cmp::Reverse(*t));
    println!(
        "{:>7} {:>9} {:>9}  kind (the clock's own cost, {:.1} ns a record, is in each)",
        "share", "records", "ns each", clock
    );
    for (k, (n, t)) in rows.iter().take(SHOWN) {
        let share = t.as_secs_f64() / total.as_secs_f64() * 100.0;
        println!("{share:>6.2}% {:>9} {:>9.1}  {k}", n / PASSES as u64, t.as_secs_f64() * 1e9 / *n as f64);
    }
    println!("every record: {:.1} ns each", total.as_secs_f64() * 1e9 / stepped.max(1) as f64);
    stepped / PASSES as u64
}

/// A record's kind: the first word of its notation that does not start with a digit.
fn kind(line: &str) -> String {
    line.split_whitespace().find(|w| !w.starts_with(|c: char| c.is_ascii_digit())).unwrap_or("").to_string()
}

/// What two reads of the clock cost, in nanoseconds: the floor under every figure.
fn clock_cost() -> f64 {
    let n = 100_000;
    let start = Instant::now();
    for _ in 0..n {
        black_box(Instant::now().elapsed());
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(n)
}
