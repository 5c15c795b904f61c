//! Section 3 (full scan + decode, full replay + verify) and the disk half of section 7,
//! on the whole corpus loaded into each store.

use super::append::{failed, set, BATCH};
use super::journal_store::JOURNAL_DIR;
use super::measure::rate;
use super::report::{Row, Unit};
use super::stores::{self, Kind};
use super::Run;
use crate::Fallible;
use arbiter_engine::{Findings, Game};
use arbiter_journal::codec;
use std::time::Instant;

/// Passes over the corpus per store; the best counts.
const PASSES: usize = 3;

/// Load every session of the corpus into a fresh store of each kind (batches of 1,000, one
/// flush each), then time reading it back.
pub fn scan_and_replay<G: Game>(run: &mut Run<G>) -> Fallible {
    let n = run.corpus.events;
    let mut scan = Row::new("3", format!("full scan + decode ({n} events)"), Unit::Rate);
    let mut replay = Row::new("3", format!("full replay + verify ({n} events)"), Unit::Rate);
    let mut disk = Row::new("7", "disk bytes per event", Unit::BytesPerEvent);
    for kind in stores::ALL {
        match measure_store(run, kind) {
            Ok(m) => {
                run.raw(format!(
                    "{}: load {:.0} events/s, scan+decode {:.0} events/s, replay+verify {:.0} events/s, \
                     disk {} bytes",
                    kind.name(),
                    m.load,
                    m.scan,
                    m.replay,
                    m.disk
                ));
                scan = set(scan, kind, m.scan);
                replay = set(replay, kind, m.replay);
                disk = set(disk, kind, m.disk as f64 / n as f64);
            }
            Err(e) => {
                scan = failed(scan, kind, &e);
                replay = failed(replay, kind, &e);
                disk = failed(disk, kind, &e);
            }
        }
    }
    if let (Some(r), Some(s)) = (replay.arbiter, scan.arbiter) {
        // Rates, so time(replay) / time(scan) = scan rate / replay rate.
        let slowdown = s / r;
        replay = replay
            .target("≥ 1 M/s", r >= 1e6)
            .target(format!("≤ 1.5× the scan's time ({slowdown:.2}×)"), slowdown <= 1.5);
    }
    let raw_bytes = raw_payload_bytes(run)?;
    let raw_per_event = raw_bytes as f64 / n as f64;
    run.raw(format!("raw encoded payload: {raw_bytes} bytes, {raw_per_event:.2} bytes/event"));
    if let Some(d) = disk.arbiter {
        let ratio = d / raw_per_event;
        disk = disk.target(format!("≤ 2.5× raw payload {raw_per_event:.1} B ({ratio:.2}×)"), ratio <= 2.5);
    }
    let through_verify = verify_sessions(run);
    let scan_rate = scan.arbiter;
    run.rows.push(scan);
    run.rows.push(replay);
    match through_verify {
        Ok(rate) => {
            let mut row = Row::new("3", "`arbiter verify SESSION` path, every session", Unit::Rate)
                .arbiter(rate)
                .note(format!("verify crate end to end: journal stream, step, report; best of {PASSES} passes, as the scan"));
            if let Some(s) = scan_rate {
                let slowdown = s / rate;
                row = row
                    .target("≥ 1 M/s", rate >= 1e6)
                    .target(format!("≤ 1.5× the scan's time ({slowdown:.2}×)"), slowdown <= 1.5);
            }
            run.rows.push(row);
        }
        Err(e) => run.raw(format!("verify over the journal's sessions failed: {e}")),
    }
    run.disk_row = Some(disk);
    Ok(())
}

/// The verify crate over every session of the corpus journal (closed by now, so it can be
/// opened again): what `arbiter verify SESSION` does for each. Best of [`PASSES`], as the
/// scan it is compared with is, so that both sides of the ratio are measured the same way.
fn verify_sessions<G: Game>(run: &mut Run<G>) -> Fallible<f64> {
    let path = run.dir.join("corpus-arbiter").join(JOURNAL_DIR);
    let journal = arbiter_journal::Journal::open(&path)?;
    let ctx = arbiter_verify::Context::new(&journal);
    // As `arbiter verify` runs without --json: no final facts (they are only printed as JSON).
    let options = arbiter_verify::VerifyOptions { skip_final_facts: true, ..Default::default() };
    let (mut best, mut records) = (f64::INFINITY, 0);
    for _ in 0..PASSES {
        let start = Instant::now();
        records = 0;
        for (name, _) in &run.corpus.sessions {
            let report = arbiter_verify::verify(&ctx, &arbiter_verify::Source::session(name), &options)
                .map_err(|e| format!("verify {name}: {e}"))?;
            if !report.is_clean() {
                return Err(format!("verify {name}: the simulated session is not clean").into());
            }
            records += report.records;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    run.raw(format!(
        "verify crate over {} journal sessions: {records} records in {best:.3} s (best of {PASSES})",
        run.corpus.sessions.len()
    ));
    Ok(rate(records, best))
}

struct Measured {
    load: f64,
    scan: f64,
    replay: f64,
    disk: u64,
}

fn measure_store<G: Game>(run: &mut Run<G>, kind: Kind) -> Fallible<Measured> {
    let corpus = run.corpus;
    let mut store = stores::create::<G>(kind, &run.dir, "corpus")?;
    let start = Instant::now();
    for (name, events) in &corpus.sessions {
        for (i, chunk) in events.chunks(BATCH).enumerate() {
            store.append_batch(name, (i * BATCH) as u64, chunk)?;
        }
    }
    let load = rate(corpus.events, start.elapsed().as_secs_f64());

    // Best of three, scan and replay interleaved, so a busy neighbour on the shared
    // machine does not decide the ratio between them.
    let (mut scan, mut replay) = (0f64, 0f64);
    for _ in 0..PASSES {
        let start = Instant::now();
        let mut read = 0;
        for (name, _) in &corpus.sessions {
            read += store.scan(name, &mut |e| {
                std::hint::black_box(&e);
                Ok(())
            })?;
        }
        scan = scan.max(rate(read, start.elapsed().as_secs_f64()));
        check_count(kind, read, corpus.events)?;

        let start = Instant::now();
        let (mut read, mut violations) = (0, 0);
        let mut findings = Findings::default();
        for (name, _) in &corpus.sessions {
            let mut state = corpus.game.initial_state();
            read += store.scan(name, &mut |e| {
                findings.clear();
                corpus.game.step(&mut state, &e, &mut findings)?;
                violations += findings.violations.len();
                Ok(())
            })?;
        }
        replay = replay.max(rate(read, start.elapsed().as_secs_f64()));
        check_count(kind, read, corpus.events)?;
        if violations > 0 {
            return Err(format!(
                "the simulated corpus replayed with {violations} violations; it must be clean"
            )
            .into());
        }
    }
    let disk = store.disk_bytes()?;
    Ok(Measured { load, scan, replay, disk })
}

fn check_count(kind: Kind, read: u64, want: u64) -> Fallible {
    if read == want {
        Ok(())
    } else {
        Err(format!("{} read back {read} events of {want}", kind.name()).into())
    }
}

/// The bytes of every event encoded alone with the journal's codec: the floor a store is
/// compared with.
fn raw_payload_bytes<G: Game>(run: &Run<G>) -> Fallible<u64> {
    let mut total = 0;
    let mut buf = Vec::new();
    for (_, events) in &run.corpus.sessions {
        for e in events {
            buf.clear();
            total += codec::encode_into(e, &mut buf)? as u64;
        }
    }
    Ok(total)
}
