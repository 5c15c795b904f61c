//! `cargo xtask bench --profile per-session --game ID --events N`: what the journal's scan,
//! the rules' step and the verify crate each cost per session and per record, apart. Every
//! session of a stored corpus is scanned, replayed (scan + step) and verified (`arbiter
//! verify SESSION`'s path), one after the other, their order alternating from round to
//! round, and each difference (replay - scan, verify - replay) is fitted by least squares
//! to `a + b * records`: `a` is what a session costs whatever its length (opening it, the
//! report), `b` what each record adds. Section 3's ratios are over a corpus of many short
//! sessions, where `a` weighs more than on one long session; this tells the two apart.
//! Wall-clock time: not for callgrind.

use super::corpus::Corpus;
use crate::Fallible;
use arbiter_engine::{Findings, Game};
use arbiter_journal::{Journal, Record};
use std::hint::black_box;
use std::time::Instant;

/// Rounds over the corpus; the first only warms the caches and is not counted.
const ROUNDS: usize = 7;

/// Time every session of `corpus` (stored in `journal`) three ways and print the fits.
pub fn measure<G: Game>(journal: &Journal, corpus: &Corpus<G>) -> Fallible<u64> {
    let ctx = arbiter_verify::Context::new(journal);
    let options = super::verify_options();
    let k = corpus.sessions.len();
    // Seconds per session, summed over the counted rounds: scan, replay, verify.
    let mut took = vec![[0f64; 3]; k];
    for round in 0..ROUNDS {
        let order = if round % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
        for (i, (name, _)) in corpus.sessions.iter().enumerate() {
            for way in order {
                let start = Instant::now();
                match way {
                    0 => {
                        for item in journal.events::<G::Event>(name, 0)? {
                            black_box(item?);
                        }
                    }
                    1 => {
                        let mut findings = Findings::default();
                        let mut state = corpus.game.initial_state();
                        for item in journal.events::<G::Event>(name, 0)? {
                            if let (_, Record::Event(e)) = item? {
                                findings.clear();
                                corpus.game.step(&mut state, &e, &mut findings)?;
                            }
                        }
                        black_box(&state);
                    }
                    _ => {
                        let source = arbiter_verify::Source::session(name);
                        black_box(arbiter_verify::verify(&ctx, &source, &options)?);
                    }
                }
                if round > 0 {
                    took[i][way] += start.elapsed().as_secs_f64();
                }
            }
        }
    }
    let counted = (ROUNDS - 1) as f64;
    let lengths: Vec<f64> = corpus.sessions.iter().map(|(_, e)| e.len() as f64).collect();
    let column = |f: &dyn Fn(&[f64; 3]) -> f64| -> Vec<f64> { took.iter().map(|t| f(t) / counted).collect() };
    let rows = [
        ("scan", column(&|t| t[0])),
        ("replay - scan (the step)", column(&|t| t[1] - t[0])),
        ("verify - replay (the verify crate)", column(&|t| t[2] - t[1])),
    ];
    println!(
        "{k} sessions, {} records; least squares of the time per session on its records:",
        corpus.events
    );
    for (what, y) in rows {
        let (a, b) = fit(&lengths, &y);
        println!("  {what}: {:.2} µs a session + {:.1} ns a record", a * 1e6, b * 1e9);
    }
    Ok(corpus.events)
}

/// The least-squares line `y = a + b x`: `(a, b)`.
fn fit(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = x.iter().map(|x| (x - mx) * (x - mx)).sum();
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - b * mx, b)
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn the_fit_finds_a_line_it_was_given() {
        let x = [10.0, 20.0, 40.0, 80.0];
        let y: Vec<f64> = x.iter().map(|x| 3.0 + 0.5 * x).collect();
        let (a, b) = fit(&x, &y);
        assert!((a - 3.0).abs() < 1e-9 && (b - 0.5).abs() < 1e-9, "{a} {b}");
    }
}
