//! The corruption sweep: damaged copies of a database, every file of its directory in
//! turn, each damaged one way (a flipped bit, an erased 4 KiB page, a cut, garbage written
//! over it, the file deleted), then opened read-write and read-only and read back whole.
//! Every outcome must be one of three: **identical** (everything reads back as in the
//! undamaged database), a **clean error** (a `JournalError` with one sentence), or a
//! **check finding** naming the first bad record. Never a panic, and never a **silently
//! different** read: a session missing, shorter, longer or changed without an error.
//!
//! The database has what the journal writes in every way: compressed blocks from an import,
//! a plain tail from single appends, retractions, snapshots, and appends acknowledged
//! through the write-ahead log by a writer that was then killed, so that opening must redo
//! them.
//!
//! `ARBITER_SWEEP_COPIES=N` (and `ARBITER_SWEEP_SEED`) damage more copies: `cargo xtask
//! crash` runs the same test in release with over a thousand. The summary lines are what
//! docs/RELIABILITY.md reports.

mod common;

use arbiter_journal::{Journal, JournalError, Record};
use common::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BUILD: &str = "ARBITER_SWEEP_BUILD";

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Roll(Vec<u8>),
    Note(String),
}

fn ev(i: u64) -> Record<Ev> {
    match i % 23 {
        11 if i > 3 => Record::Retract(i - 3),
        0 | 7 => Record::Event(Ev::Note(format!("note {i}"))),
        _ => Record::Event(Ev::Roll(vec![(i % 6) as u8 + 1, ((i / 6) % 6) as u8 + 1])),
    }
}

/// The child: build the database, then append through the write-ahead log and wait to be
/// killed, so the log holds live entries.
fn build(path: &str) -> TestResult {
    {
        let j = Journal::open(path)?;
        j.import("imported", &common::meta(), &(0..1300).map(ev).collect::<Vec<_>>())?;
        j.create_session("single", &common::meta())?;
        for i in 0..300 {
            j.append("single", i, &[ev(i)])?;
        }
        j.put_snapshot("single", 200, 1, b"cached state")?;
    }
    // Opened again, sled writes a snapshot of its page table (`snap.*`): damaged too.
    let j = Journal::open(path)?;
    j.import("small", &common::meta(), &(0..20).map(ev).collect::<Vec<_>>())?;
    for i in 300..340 {
        j.append("single", i, &[ev(i)])?;
    }
    println!("READY");
    std::io::stdout().flush()?;
    std::thread::sleep(std::time::Duration::from_secs(60));
    Ok(())
}

/// What a database gives back: its sessions, each with its records and retraction index,
/// and whether `check` found a problem.
#[derive(Debug, PartialEq)]
struct Contents {
    sessions: BTreeMap<String, (Vec<(u64, Record<Ev>)>, Vec<(u64, u64)>)>,
}

/// How one damaged copy read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Identical,
    CleanError,
    CheckFinding,
    SilentlyDifferent,
    Panicked,
}

/// Read everything back; an error ends it as a clean error, a check problem (with reads
/// that gave what they should) is a finding.
fn examine(j: &Journal, reference: &Contents) -> Result<(Outcome, String), JournalError> {
    let listed: Vec<String> = j.sessions()?.into_iter().map(|(n, _)| n).collect();
    let expected: Vec<&String> = reference.sessions.keys().collect();
    if listed.iter().collect::<Vec<_>>() != expected {
        return Ok((Outcome::SilentlyDifferent, format!("sessions {listed:?}, expected {expected:?}")));
    }
    let mut finding = None;
    for (name, (records, retractions)) in &reference.sessions {
        let reader = j.read_session::<Ev>(name, 0)?;
        let read: Vec<(u64, Record<Ev>)> = reader.events.collect::<Result<_, _>>()?;
        if &read != records || &reader.retractions != retractions {
            return Ok((
                Outcome::SilentlyDifferent,
                format!("session `{name}` read back {} records", read.len()),
            ));
        }
        if let Some(problem) = j.check::<Ev>(name)?.problem {
            finding = Some(problem.message);
        }
    }
    Ok(match finding {
        Some(message) => (Outcome::CheckFinding, message),
        None => (Outcome::Identical, String::new()),
    })
}

fn contents(j: &Journal) -> Result<Contents, JournalError> {
    let mut sessions = BTreeMap::new();
    for (name, _) in j.sessions()? {
        let reader = j.read_session::<Ev>(&name, 0)?;
        let read = reader.events.collect::<Result<_, _>>()?;
        sessions.insert(name, (read, reader.retractions));
    }
    Ok(Contents { sessions })
}

/// Open with `open`, examine, and classify (a panic anywhere is its own class).
fn outcome(open: impl FnOnce() -> Result<Journal, JournalError>, reference: &Contents) -> (Outcome, String) {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let j = open()?;
        examine(&j, reference)
    }));
    match result {
        Err(_) => (Outcome::Panicked, "panicked".to_string()),
        Ok(Err(e)) => (Outcome::CleanError, e.message().to_string()),
        Ok(Ok(found)) => found,
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// Every regular file under `dir`, relative to it.
fn files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir.join(under))? {
        let entry = entry?;
        let rel = under.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            files(dir, &rel, out)?;
        } else {
            out.push(rel);
        }
    }
    Ok(())
}

const FAULTS: [&str; 5] = ["bit flip", "4 KiB erased", "cut", "garbage", "deleted"];

/// Damage `file` the `fault`-th way, at places drawn from `rng`; a description.
fn damage(file: &Path, fault: usize, rng: &mut Rng) -> std::io::Result<String> {
    let mut bytes = std::fs::read(file)?;
    let len = bytes.len() as u64;
    let what = match FAULTS[fault] {
        "bit flip" if len > 0 => {
            let at = rng.below(len) as usize;
            bytes[at] ^= 1 << rng.below(8);
            format!("bit flipped at byte {at}")
        }
        "4 KiB erased" if len > 0 => {
            let at = (rng.below(len) as usize) & !4095;
            let end = (at + 4096).min(bytes.len());
            bytes[at..end].iter_mut().for_each(|b| *b = 0);
            format!("bytes {at}..{end} zeroed")
        }
        "cut" => {
            let at = rng.below(len + 1) as usize;
            bytes.truncate(at);
            format!("cut to {at} bytes")
        }
        "garbage" if len > 0 => {
            let at = rng.below(len) as usize;
            let end = (at + 1 + rng.below(512) as usize).min(bytes.len());
            bytes[at..end].iter_mut().for_each(|b| *b = rng.next() as u8);
            format!("bytes {at}..{end} overwritten")
        }
        "deleted" => {
            std::fs::remove_file(file)?;
            return Ok("deleted".to_string());
        }
        other => format!("{other}: empty file, unchanged"),
    };
    std::fs::write(file, bytes)?;
    Ok(what)
}

#[test]
fn damaged_copies_read_back_identical_or_fail_clean_never_silently_different() -> TestResult {
    if let Ok(path) = std::env::var(BUILD) {
        return build(&path);
    }
    let copies: u64 = std::env::var("ARBITER_SWEEP_COPIES").ok().and_then(|n| n.parse().ok()).unwrap_or(30);
    let seed: u64 = std::env::var("ARBITER_SWEEP_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(0x5EE9);
    let dir = tempfile::tempdir()?;
    let base = dir.path().join("base");
    let mut child = Command::new(std::env::current_exe()?)
        .args([
            "--exact",
            "damaged_copies_read_back_identical_or_fail_clean_never_silently_different",
            "--nocapture",
        ])
        .env(BUILD, &base)
        .stdout(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no child stdout")?;
    let ready = BufReader::new(stdout).lines().map_while(Result::ok).any(|l| l.contains("READY"));
    child.kill()?;
    child.wait()?;
    assert!(ready, "the database was not built");
    let logged = arbiter_journal::layout::wal_entries(&base)?;
    assert!(logged > 0, "the killed writer left nothing to redo");
    let reference = {
        let copy = dir.path().join("reference");
        copy_dir(&base, &copy)?;
        contents(&Journal::open(&copy)?)?
    };
    assert_eq!(reference.sessions.len(), 3);
    assert_eq!(reference.sessions["single"].0.len(), 340, "the acknowledged appends are redone");

    let mut targets = Vec::new();
    files(&base, Path::new(""), &mut targets)?;
    targets.sort();
    let mut rng = Rng(seed);
    // (file, fault) -> outcome -> count, for read-write and read-only opens.
    let mut table: BTreeMap<(String, &str), BTreeMap<(&str, Outcome), u64>> = BTreeMap::new();
    let mut silent = Vec::new();
    for copy in 0..copies {
        let target = &targets[(copy as usize) % targets.len()];
        let fault = (copy as usize / targets.len()) % FAULTS.len();
        let damaged = dir.path().join(format!("damaged-{copy}"));
        copy_dir(&base, &damaged)?;
        let what = damage(&damaged.join(target), fault, &mut rng)?;
        let read_only_copy = dir.path().join(format!("damaged-{copy}-ro"));
        copy_dir(&damaged, &read_only_copy)?;
        for (mode, path) in [("read-only", &read_only_copy), ("read-write", &damaged)] {
            let (outcome, detail) = if mode == "read-only" {
                outcome(|| Journal::open_read_only(path), &reference)
            } else {
                outcome(|| Journal::open(path), &reference)
            };
            let file = target.display().to_string();
            let file = if file.starts_with("snap.") { "snap.*".to_string() } else { file };
            *table.entry((file, FAULTS[fault])).or_default().entry((mode, outcome)).or_default() += 1;
            if outcome >= Outcome::SilentlyDifferent {
                silent
                    .push(format!("copy {copy}: {} {what}, {mode}: {outcome:?}: {detail}", target.display()));
            }
        }
        std::fs::remove_dir_all(&damaged)?;
        std::fs::remove_dir_all(&read_only_copy)?;
    }
    let mut totals: BTreeMap<Outcome, u64> = BTreeMap::new();
    println!(
        "sweep: {copies} damaged copies (seed {seed:#x}) of {} files, each opened read-only and read-write",
        targets.len()
    );
    for ((file, fault), outcomes) in &table {
        let cells: Vec<String> = outcomes.iter().map(|((mode, o), n)| format!("{mode} {o:?} {n}")).collect();
        println!("sweep: {file} / {fault}: {}", cells.join(", "));
        for ((_, o), n) in outcomes {
            *totals.entry(*o).or_default() += n;
        }
    }
    println!("sweep totals (opens): {totals:?}");
    assert!(
        silent.is_empty(),
        "{} outcomes neither identical, a clean error nor a check finding:\n{}",
        silent.len(),
        silent.join("\n")
    );
    Ok(())
}
