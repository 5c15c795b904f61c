//! Journal throughput on this machine: fsync latency, single and batched durable appends,
//! full scan + decode, and disk bytes per event. Plain timing (no criterion), one run:
//! `cargo bench -p arbiter-journal --bench journal [-- EVENTS]` (default 1,000,000 events).
//! With `JOURNAL_BENCH_FILES=1` it also prints the live block bytes and sled's files, to
//! tell the journal's own overhead from sled's (about 2x: its log keeps segments until
//! they are half garbage).
//!
//! Disk is measured twice: on the one long session, and on a corpus shaped like the
//! project's bench (`cargo xtask bench`): many sessions of `SESSION_EVENTS` events, each
//! created and then written in one append, which is what its disk row measures.

mod corpus;

use arbiter_journal::{codec, Durability, Journal, Record};
use corpus::{event, meta, Ev};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn dir_size(p: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(p) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

/// Events per session in the corpus-shaped disk figure: a simulated game of the project's
/// bench corpus holds about this many (10^6 events in 8,548 sessions).
const SESSION_EVENTS: u64 = 117;

/// Write `events` events as sessions of `SESSION_EVENTS`, one append each, into a new
/// database at `path`; returns (disk bytes, raw encoded bytes, live block bytes).
fn corpus_disk(path: &Path, events: u64) -> Result<(u64, u64, u64), Box<dyn std::error::Error>> {
    let j = Journal::open(path)?;
    let mut raw = 0u64;
    let mut done = 0;
    let mut session = 0;
    while done < events {
        let end = (done + SESSION_EVENTS).min(events);
        let batch: Vec<Record<Ev>> = (done..end).map(event).collect();
        raw += batch.iter().map(|r| codec::encode(r).map(|b| b.len() as u64).unwrap_or(0)).sum::<u64>();
        let name = format!("s{session}");
        j.create_session(&name, &meta())?;
        j.append(&name, 0, &batch)?;
        done = end;
        session += 1;
    }
    j.flush()?;
    drop(j);
    let disk = dir_size(path);
    let db = arbiter_journal::layout::sled_config(path).open()?;
    let live: usize =
        db.open_tree(arbiter_journal::layout::EVENTS_TREE)?.iter().values().flatten().map(|v| v.len()).sum();
    if std::env::var_os("JOURNAL_BENCH_FILES").is_some() {
        for e in std::fs::read_dir(path)?.flatten() {
            println!("  corpus {:?} {}", e.file_name(), e.metadata().map(|m| m.len()).unwrap_or(0));
        }
    }
    Ok((disk, raw, live as u64))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let events: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    // `JOURNAL_BENCH_SCAN=DIR` only scans the database a run left in `JOURNAL_BENCH_KEEP=DIR`,
    // so that `/usr/bin/time -v` shows the peak memory of a replay alone.
    if let Some(path) = std::env::var_os("JOURNAL_BENCH_SCAN") {
        let j = Journal::open(Path::new(&path).join("db"))?;
        let count = j.events::<Ev>("batched", 0)?.filter(|r| r.is_ok()).count();
        println!("scanned {count} records");
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let keep = std::env::var_os("JOURNAL_BENCH_KEEP");

    // fsync latency of this disk, the floor for any durable single append, measured
    // alternately with the appends so that both see the same load on a shared machine.
    let mut file = std::fs::File::create(dir.path().join("fsync"))?;
    let j = Journal::open(dir.path().join("db"))?;
    j.create_session("single", &meta())?;
    let light = Journal::open_with(dir.path().join("db-light"), Durability::SledFlush)?;
    light.create_session("single", &meta())?;
    let (mut fsyncs, mut singles, mut lights) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..500u64 {
        let t = Instant::now();
        file.write_all(b"0123456789abcdef")?;
        file.sync_data()?;
        fsyncs.push(t.elapsed());
        let t = Instant::now();
        j.append("single", i, &[event(i)])?;
        singles.push(t.elapsed());
        let t = Instant::now();
        light.append("single", i, &[event(i)])?;
        lights.push(t.elapsed());
    }
    drop(light);
    let fsync = median(fsyncs);
    let single = median(singles);
    let light = median(lights);

    j.create_session("batched", &meta())?;
    let t = Instant::now();
    let mut len = 0;
    let mut raw = 0u64;
    while len < events {
        let batch: Vec<Record<Ev>> = (len..(len + 1000).min(events)).map(event).collect();
        raw += batch.iter().map(|r| codec::encode(r).map(|b| b.len() as u64).unwrap_or(0)).sum::<u64>();
        len = j.append("batched", len, &batch)?;
    }
    let batched = t.elapsed();
    let all: Vec<Record<Ev>> = (0..events).map(event).collect();
    let other = Journal::open(dir.path().join("db-import"))?;
    let t = Instant::now();
    other.import("imported", &meta(), &all)?;
    let imported = t.elapsed();
    drop((all, other));
    drop(j);
    let disk = dir_size(&dir.path().join("db"));
    let (corpus_disk, corpus_raw, corpus_live) = corpus_disk(&dir.path().join("db-corpus"), events)?;
    if std::env::var_os("JOURNAL_BENCH_FILES").is_some() {
        let db = arbiter_journal::layout::sled_config(&dir.path().join("db")).open()?;
        let live: usize = db
            .open_tree(arbiter_journal::layout::EVENTS_TREE)?
            .iter()
            .values()
            .flatten()
            .map(|v| v.len())
            .sum();
        println!("  live block bytes {live}");
        drop(db);
        for e in std::fs::read_dir(dir.path().join("db"))?.flatten() {
            println!("  {:?} {}", e.file_name(), e.metadata().map(|m| m.len()).unwrap_or(0));
        }
    }

    let j = Journal::open(dir.path().join("db"))?;
    let t = Instant::now();
    let mut count = 0u64;
    for item in j.events::<Ev>("batched", 0)? {
        let (_, record) = item?;
        count += u64::from(matches!(record, Record::Event(_)));
    }
    let scan = t.elapsed();
    assert_eq!(count, events);

    let t = Instant::now();
    let report = j.check::<Ev>("batched")?;
    let check = t.elapsed();
    if let Some(problem) = report.problem {
        return Err(problem.message.into());
    }

    let rate = |n: u64, d: Duration| n as f64 / d.as_secs_f64();
    println!("fsync (median of 500)            {:>10.3} ms", fsync.as_secs_f64() * 1e3);
    println!(
        "durable single append (median)   {:>10.3} ms   {:.2}x fsync   (target <= 1.5x)",
        single.as_secs_f64() * 1e3,
        single.as_secs_f64() / fsync.as_secs_f64()
    );
    println!(
        "  same, Durability::SledFlush    {:>10.3} ms   {:.2}x fsync",
        light.as_secs_f64() * 1e3,
        light.as_secs_f64() / fsync.as_secs_f64()
    );
    println!(
        "batched durable append (1000)    {:>10.0} events/s   (target >= 200,000)",
        rate(events, batched)
    );
    println!("import (one transaction)         {:>10.0} events/s", rate(events, imported));
    println!(
        "scan + decode                    {:>10.0} events/s   (target >= 1,000,000)",
        rate(events, scan)
    );
    println!("check (chain + decode)           {:>10.0} events/s", rate(events, check));
    println!(
        "disk                             {:>10.2} bytes/event, {:.2}x the {:.2} raw encoded bytes/event   (target <= 2.5x)",
        disk as f64 / events as f64,
        disk as f64 / raw as f64,
        raw as f64 / events as f64
    );
    println!(
        "disk, sessions of {SESSION_EVENTS} events  {:>10.2} bytes/event, {:.2}x the {:.2} raw encoded bytes/event   (target <= 2.5x; live blocks {:.2} bytes/event)",
        corpus_disk as f64 / events as f64,
        corpus_disk as f64 / corpus_raw as f64,
        corpus_raw as f64 / events as f64,
        corpus_live as f64 / events as f64
    );
    if let Some(keep) = keep {
        drop(j);
        std::fs::rename(dir.path(), &keep)?;
    }
    Ok(())
}
