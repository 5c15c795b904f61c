//! The crash test: a writer killed (SIGKILL) at random points, again and again on the same
//! database, never loses or changes an acknowledged record.
//!
//! Each iteration starts this test binary again as a child (`CRASH_WRITER` set) that opens
//! the database and writes a seeded mix of single appends, batches, retractions, buffered
//! appends made durable by a flush, new sessions and snapshots, printing each
//! acknowledgement. The parent kills it after a random number of acknowledgements and a
//! random delay (so the kill lands inside an operation), then opens the database and
//! checks that every session holds at least what was acknowledged, every record is the one
//! written at its place (records are a function of session and sequence), and `check`
//! passes; every few iterations it also reads everything through a read-only open.
//!
//! `ARBITER_CRASH_ITERATIONS=N` (and `ARBITER_CRASH_SEED`) run more: `cargo xtask crash`
//! runs the same test in release with a large count. The summary line is what
//! docs/RELIABILITY.md reports.

mod common;

use arbiter_journal::{Journal, Record};
use common::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

const CRASH_WRITER: &str = "ARBITER_CRASH_WRITER";
/// Kills per database before a fresh one is started.
const PER_DATABASE: u64 = 50;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Roll(Vec<u8>),
    Note(String),
}

/// The record at `seq` of session number `s`: every writer writes the same one there, so
/// the parent knows what each place must hold. Every 17th record retracts an earlier one.
fn record(s: u64, seq: u64) -> Record<Ev> {
    match seq % 17 {
        9 => Record::Retract(seq - 1 - (seq / 17) % 8),
        0 | 5 => {
            Record::Event(Ev::Note(format!("session {s} note {seq} {}", "x".repeat((seq % 50) as usize))))
        }
        _ => Record::Event(Ev::Roll(vec![(seq % 6) as u8 + 1, (s % 6) as u8 + 1, ((seq * 7) % 6) as u8 + 1])),
    }
}

fn name(s: u64) -> String {
    format!("s{s}")
}

/// The child: write until killed, printing `ACK s len` after each durable write.
fn writer(path: &str, seed: u64) -> TestResult {
    let j = Journal::open(path)?;
    let mut rng = Rng(seed | 1);
    let mut lens: BTreeMap<u64, u64> = BTreeMap::new();
    for (n, _) in j.sessions()? {
        if let Some(s) = n.strip_prefix('s').and_then(|s| s.parse().ok()) {
            lens.insert(s, j.len(&n)?);
        }
    }
    let mut out = std::io::stdout();
    loop {
        let roll = rng.below(100);
        if lens.is_empty() || roll < 3 {
            let s = lens.keys().next_back().map_or(0, |s| s + 1);
            let records: Vec<Record<Ev>> = (0..rng.below(40)).map(|seq| record(s, seq)).collect();
            let len = j.import(&name(s), &common::meta(), &records)?;
            lens.insert(s, len);
            writeln!(out, "ACK {s} {len}")?;
            out.flush()?;
            continue;
        }
        let keys: Vec<u64> = lens.keys().copied().collect();
        let s = keys[rng.below(keys.len() as u64) as usize];
        let len = lens[&s];
        let count = match roll {
            0..=64 => 1,
            65..=84 => 2 + rng.below(40),
            _ => 1 + rng.below(30),
        };
        let records: Vec<Record<Ev>> = (len..len + count).map(|seq| record(s, seq)).collect();
        let now = if roll >= 85 && roll < 95 {
            let now = j.append_unflushed(&name(s), len, &records)?;
            j.flush()?;
            now
        } else {
            j.append(&name(s), len, &records)?
        };
        lens.insert(s, now);
        writeln!(out, "ACK {s} {now}")?;
        out.flush()?;
        if roll >= 95 {
            // A cached state: not acknowledged data, never part of the chain.
            j.put_snapshot(&name(s), now, 1, &now.to_be_bytes())?;
        }
    }
}

/// After a kill: every acknowledged record is there, as written, and checks.
fn verify(j: &Journal, acknowledged: &BTreeMap<u64, u64>) -> Result<u64, Box<dyn std::error::Error>> {
    let mut records = 0;
    for (&s, &acked) in acknowledged {
        let len = j.len(&name(s))?;
        assert!(len >= acked, "session {s}: {len} records, {acked} acknowledged");
        let mut seq = 0;
        for item in j.events::<Ev>(&name(s), 0)? {
            let (at, r) = item?;
            assert_eq!((at, &r), (seq, &record(s, seq)), "session {s}");
            seq += 1;
        }
        assert_eq!(seq, len, "session {s}: read {seq} of {len}");
        let report = j.check::<Ev>(&name(s))?;
        assert!(report.is_ok(), "session {s}: {report:?}");
        records += len;
    }
    Ok(records)
}

#[test]
fn killed_writers_never_lose_or_change_an_acknowledged_record() -> TestResult {
    if let Ok(path) = std::env::var(CRASH_WRITER) {
        let seed = std::env::var("ARBITER_CRASH_CHILD_SEED")?.parse()?;
        return writer(&path, seed);
    }
    let iterations: u64 =
        std::env::var("ARBITER_CRASH_ITERATIONS").ok().and_then(|n| n.parse().ok()).unwrap_or(6);
    let seed: u64 = std::env::var("ARBITER_CRASH_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(0xC4A5);
    let dir = tempfile::tempdir()?;
    let mut rng = Rng(seed);
    let mut acknowledged: BTreeMap<u64, u64> = BTreeMap::new();
    let (mut acks, mut kills, mut read_only_checks, mut records) = (0u64, 0u64, 0u64, 0u64);
    let mut path = dir.path().join("db-0");
    for iteration in 0..iterations {
        // A fresh database every `PER_DATABASE` kills keeps each check's cost bounded.
        if iteration > 0 && iteration % PER_DATABASE == 0 {
            records += verify(&Journal::open(&path)?, &acknowledged)?;
            std::fs::remove_dir_all(&path)?;
            path = dir.path().join(format!("db-{iteration}"));
            acknowledged.clear();
        }
        let mut child = Command::new(std::env::current_exe()?)
            .args(["--exact", "killed_writers_never_lose_or_change_an_acknowledged_record", "--nocapture"])
            .env(CRASH_WRITER, &path)
            .env("ARBITER_CRASH_CHILD_SEED", rng.next().to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().ok_or("no child stdout")?;
        let wanted = 1 + rng.below(60);
        let mut seen = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line?;
            let mut words = line.split_whitespace();
            if words.next() != Some("ACK") {
                continue;
            }
            let (Some(s), Some(len)) = (words.next(), words.next()) else { continue };
            acknowledged.insert(s.parse()?, len.parse()?);
            seen += 1;
            acks += 1;
            if seen >= wanted {
                // Somewhere in the next operation (or the one after).
                std::thread::sleep(Duration::from_micros(rng.below(3_000)));
                break;
            }
        }
        child.kill()?;
        child.wait()?;
        kills += 1;
        let j = Journal::open(&path).map_err(|e| format!("iteration {iteration}: reopening: {e}"))?;
        verify(&j, &acknowledged).map_err(|e| format!("iteration {iteration}: {e}"))?;
        drop(j);
        if iteration % 4 == 3 {
            verify(&Journal::open_read_only(&path)?, &acknowledged)?;
            read_only_checks += 1;
        }
    }
    records += verify(&Journal::open(&path)?, &acknowledged)?;
    println!(
        "crash test: {iterations} iterations (seed {seed:#x}), {kills} writers killed, {acks} acknowledged writes, \
         {records} records verified at the end of each database, {read_only_checks} read-only checks, \
         0 acknowledged records lost or changed"
    );
    Ok(())
}
