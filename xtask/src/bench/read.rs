//! Section 3 (full scan + decode, full replay + verify) and the disk half of section 7,
//! on the whole corpus loaded into each store.

use super::append::{failed, set, BATCH};
use super::measure::rate;
use super::report::{Row, Unit};
use super::stores::{self, Kind};
use super::Run;
use crate::Fallible;
use arbiter_engine::{Findings, Game};
use arbiter_journal::codec;
use std::time::Instant;

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
    run.rows.push(scan);
    run.rows.push(replay);
    run.disk_row = Some(disk);
    Ok(())
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

    let start = Instant::now();
    let mut read = 0;
    for (name, _) in &corpus.sessions {
        read += store.scan(name, &mut |e| {
            std::hint::black_box(&e);
            Ok(())
        })?;
    }
    let scan = rate(read, start.elapsed().as_secs_f64());
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
    let replay = rate(read, start.elapsed().as_secs_f64());
    check_count(kind, read, corpus.events)?;
    if violations > 0 {
        return Err(
            format!("the simulated corpus replayed with {violations} violations; it must be clean").into()
        );
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
