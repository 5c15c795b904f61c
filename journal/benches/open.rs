//! What opening a database costs, part by part, and what a read-only command pays: plain
//! timing, medians of repeated runs.
//! `cargo bench -p arbiter-journal --bench open [-- EVENTS]` (default 1,000,000 events in
//! one long session, plus 2,000 short sessions beside it).
//!
//! Rows: sled's own open (its recovery: the last snapshot of its page table plus the log
//! since), the journal's read-write open and close (sled, the directory lock, the
//! write-ahead log read and checked, the record of heads, and on close a checkpoint with
//! its `fdatasync`s), the read-only open and close (no write-ahead log made, no checkpoint),
//! a read-only open plus reading 1,000 records from the middle of the long session (what
//! `replay --to N` from a snapshot reads), an open that redoes a full write-ahead log, and
//! the wait for the lock right after this process closed the database.

mod corpus;

use arbiter_journal::{Journal, Record};
use corpus::{event, meta, Ev};
use std::path::Path;
use std::time::{Duration, Instant};

const RUNS: usize = 31;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(
    mut f: impl FnMut() -> Result<(), Box<dyn std::error::Error>>,
) -> Result<Duration, Box<dyn std::error::Error>> {
    let mut samples = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let start = Instant::now();
        f()?;
        samples.push(start.elapsed());
    }
    Ok(median(samples))
}

fn row(what: &str, d: Duration) {
    println!("| {what} | {:.2} ms |", d.as_secs_f64() * 1e3);
}

fn build(path: &Path, events: u64) -> Result<(), Box<dyn std::error::Error>> {
    let j = Journal::open(path)?;
    j.create_session("long", &meta())?;
    let mut done = 0;
    while done < events {
        let end = (done + 1000).min(events);
        let batch: Vec<Record<Ev>> = (done..end).map(event).collect();
        j.append("long", done, &batch)?;
        done = end;
    }
    for s in 0..2000u64 {
        let batch: Vec<Record<Ev>> = (0..100).map(|i| event(s * 100 + i)).collect();
        j.import(&format!("s{s}"), &meta(), &batch)?;
    }
    Ok(())
}

/// The child that fills a write-ahead log: 2,000 durable single appends, then exit without
/// closing the journal (no checkpoint), as a killed process would.
fn fill_wal(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let j = Journal::open(path)?;
    for i in 0..2000 {
        j.append("s", i, &[event(i)])?;
    }
    std::process::exit(0);
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("__fill-wal") {
        return fill_wal(&args[2]);
    }
    let events: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::Builder::new().prefix("open-bench").tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
    let path = dir.path().join("db");
    build(&path, events)?;
    // Once, so that sled's first recovery after the load (a new snapshot) is not counted.
    drop(Journal::open(&path)?);
    println!("opening a database of {events} + 200,000 events (2,001 sessions); medians of {RUNS} runs\n");
    println!("| what | median |\n| --- | --- |");
    let config = arbiter_journal::layout::sled_config(&path);
    row("sled's own open and close (its recovery)", time(|| Ok(drop(config.open()?)))?);
    row("`Journal::open` and close (read-write)", time(|| Ok(drop(Journal::open(&path)?)))?);
    row("`Journal::open_read_only` and close", time(|| Ok(drop(Journal::open_read_only(&path)?)))?);
    let mid = events / 2;
    row(
        "read-only open, 1,000 records from the middle of the long session, close",
        time(|| {
            let j = Journal::open_read_only(&path)?;
            let read = j.events::<Ev>("long", mid)?.take(1000).count();
            assert_eq!(read, 1000);
            Ok(())
        })?,
    );
    row(
        "read-write open, the same 1,000 records, close",
        time(|| {
            let j = Journal::open(&path)?;
            let read = j.events::<Ev>("long", mid)?.take(1000).count();
            assert_eq!(read, 1000);
            Ok(())
        })?,
    );
    // The lock: reopening at once after a close, in the same process.
    let mut waits = Vec::new();
    for _ in 0..RUNS {
        drop(Journal::open(&path)?);
        let start = Instant::now();
        drop(Journal::open_read_only(&path)?);
        waits.push(start.elapsed());
    }
    row("read-only open and close right after a close (lock released lazily)", median(waits));
    // A full write-ahead log to redo: appends made durable through it, then the process
    // "dies" (the journal is leaked, so it neither checkpoints nor closes).
    let redo_path = dir.path().join("redo");
    let mut redo = Vec::new();
    for _ in 0..5 {
        let _ = std::fs::remove_dir_all(&redo_path);
        {
            let j = Journal::open(&redo_path)?;
            j.create_session("s", &meta())?;
        }
        let child = std::process::Command::new(std::env::current_exe()?)
            .arg("__fill-wal")
            .arg(&redo_path)
            .status()?;
        assert!(child.success());
        let start = Instant::now();
        drop(Journal::open(&redo_path)?);
        redo.push(start.elapsed());
    }
    row("read-write open that redoes a write-ahead log of 2,000 appends, close", median(redo));
    Ok(())
}
