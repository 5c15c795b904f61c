//! Section 4: verify without storage: events already in memory, and events read from
//! notation text (the kernel's parser, then the verify crate end to end from `.arb` files).

use super::measure::rate;
use super::report::{Row, Unit};
use super::Run;
use crate::Fallible;
use arbiter_engine::{Findings, Game};
use std::fmt::Write as _;
use std::time::Instant;

/// Best of this many passes: the machine is shared, and the fastest pass is the one least
/// disturbed by the neighbours.
const PASSES: usize = 3;

pub fn in_memory<G: Game>(run: &mut Run<G>) -> Fallible {
    let corpus = run.corpus;
    let mut best = f64::INFINITY;
    for _ in 0..PASSES {
        let start = Instant::now();
        let mut findings = Findings::default();
        let mut violations = 0;
        for (_, events) in &corpus.sessions {
            let mut state = corpus.game.initial_state();
            for e in events {
                findings.clear();
                corpus.game.step(&mut state, e, &mut findings)?;
                violations += findings.violations.len();
            }
            std::hint::black_box(&state);
        }
        best = best.min(start.elapsed().as_secs_f64());
        if violations > 0 {
            return Err(
                format!("the simulated corpus has {violations} violations; it must verify clean").into()
            );
        }
    }
    let r = rate(corpus.events, best);
    run.raw(format!("verify in memory: {} events in {best:.4} s (best of {PASSES})", corpus.events));
    run.rows.push(
        Row::new("4", "verify in memory (step, one core)", Unit::Rate).arbiter(r).target("≥ 5 M/s", r >= 5e6),
    );
    Ok(())
}

/// The engine's own loops beside verify, as the criterion benches in `engine/benches/`
/// time them: `next_consequence` (what `verify --derive` and the recorder ask) before each
/// step, and notation alone, parsed and printed. No targets; they show where a game's time
/// goes.
pub fn engine_loops<G: Game>(run: &mut Run<G>) -> Fallible {
    let corpus = run.corpus;
    let texts = notation(run);
    let best = |f: &mut dyn FnMut() -> Fallible<u64>| -> Fallible<f64> {
        let mut best = f64::INFINITY;
        for _ in 0..PASSES {
            let start = Instant::now();
            let n = f()?;
            best = best.min(start.elapsed().as_secs_f64());
            if n != corpus.events {
                return Err(format!("a loop went over {n} events of {}", corpus.events).into());
            }
        }
        Ok(rate(corpus.events, best))
    };
    let derived = best(&mut || {
        let (mut findings, mut n, mut derived) = (Findings::default(), 0, 0usize);
        for (_, events) in &corpus.sessions {
            let mut state = corpus.game.initial_state();
            for e in events {
                derived += corpus.game.next_consequence(&state).is_some() as usize;
                findings.clear();
                corpus.game.step(&mut state, e, &mut findings)?;
                n += 1;
            }
        }
        std::hint::black_box(derived);
        Ok(n)
    })?;
    let parse = best(&mut || {
        let mut n = 0;
        for text in &texts {
            for line in text.lines() {
                std::hint::black_box(corpus.game.parse_event(line)?);
                n += 1;
            }
        }
        Ok(n)
    })?;
    let mut out = String::new();
    let print = best(&mut || {
        let mut n = 0;
        for (_, events) in &corpus.sessions {
            for e in events {
                out.clear();
                let _ = write!(out, "{e}");
                std::hint::black_box(&out);
                n += 1;
            }
        }
        Ok(n)
    })?;
    run.raw(format!(
        "engine loops (best of {PASSES}): step with next_consequence {derived:.0}/s, parse {parse:.0}/s, \
         print {print:.0}/s"
    ));
    run.rows.extend([
        Row::new(
            "4",
            "verify in memory, with derived consequences (`next_consequence` before each step)",
            Unit::Rate,
        )
        .arbiter(derived),
        Row::new("4", "notation: parse only", Unit::Rate).arbiter(parse),
        Row::new("4", "notation: print only", Unit::Rate).arbiter(print),
    ]);
    Ok(())
}

/// The corpus printed as notation, one text per session, the way a file holds it.
fn notation<G: Game>(run: &Run<G>) -> Vec<String> {
    run.corpus
        .sessions
        .iter()
        .map(|(_, events)| {
            let mut text = String::new();
            for e in events {
                let _ = writeln!(text, "{e}");
            }
            text
        })
        .collect()
}

pub fn from_notation<G: Game>(run: &mut Run<G>) -> Fallible {
    let corpus = run.corpus;
    let texts = notation(run);
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut best = f64::INFINITY;
    for _ in 0..PASSES {
        let start = Instant::now();
        let mut findings = Findings::default();
        let mut read = 0u64;
        for text in &texts {
            let mut state = corpus.game.initial_state();
            for (i, line) in text.lines().enumerate() {
                let event = corpus.game.parse_event(line).map_err(|e| {
                    format!("the game cannot read back its own event `{line}` (line {}): {e}", i + 1)
                })?;
                findings.clear();
                corpus.game.step(&mut state, &event, &mut findings)?;
                read += 1;
            }
            std::hint::black_box(&state);
        }
        best = best.min(start.elapsed().as_secs_f64());
        if read != corpus.events {
            return Err(format!("read {read} events of {} from notation", corpus.events).into());
        }
    }
    let r = rate(corpus.events, best);
    run.raw(format!(
        "verify from notation text (parse_event + step): {} events, {bytes} bytes of text, {best:.4} s (best of {PASSES})",
        corpus.events
    ));
    run.rows.push(
        Row::new("4", "verify from notation text (parse + step)", Unit::Rate)
            .arbiter(r)
            .target("≥ 2 M/s", r >= 2e6),
    );
    Ok(())
}

/// The verify crate end to end, as `arbiter verify FILE` runs it: every session of the
/// corpus written as a `.arb` file (header and events), then each verified (read, header,
/// setup, catalog, parse, step, report).
pub fn verify_files<G: Game>(run: &mut Run<G>) -> Fallible {
    let dir = run.dir.join("arb");
    std::fs::create_dir_all(&dir)?;
    let texts = notation(run);
    let mut files = Vec::with_capacity(texts.len());
    for ((name, _), text) in run.corpus.sessions.iter().zip(&texts) {
        let path = dir.join(format!("{name}.arb"));
        std::fs::write(&path, format!("@game {}\n{text}", G::info().id))?;
        files.push(path);
    }
    drop(texts);
    let ctx = arbiter_verify::Context::files();
    // As `arbiter verify` runs without --json: no final facts (they are only printed as JSON).
    let options = super::verify_options();
    let start = Instant::now();
    let mut records = 0;
    for path in &files {
        let report = arbiter_verify::verify(&ctx, &arbiter_verify::Source::file(path), &options)
            .map_err(|e| format!("verify {}: {e}", path.display()))?;
        if !report.is_clean() {
            return Err(format!("verify {}: the simulated session is not clean", path.display()).into());
        }
        records += report.records;
    }
    let secs = start.elapsed().as_secs_f64();
    let r = rate(records, secs);
    run.raw(format!("verify crate on {} .arb files: {records} records in {secs:.3} s", files.len()));
    run.rows.push(
        Row::new("4", format!("`arbiter verify` path on {} .arb files", files.len()), Unit::Rate)
            .arbiter(r)
            .target("≥ 2 M/s", r >= 2e6)
            .note("end to end: file read, header, catalog, parse, step, report"),
    );
    Ok(())
}
