//! Section 9: command latency as a user meets it, from process start to exit: the release
//! `arbiter` binary spawned many times on the corpus database (thousands of sessions), for
//! `replay SESSION --to N`, `explain SESSION N` and `diff A B` of two stored sessions that
//! split early. Opening the database is part of every command, so it is part of the figure.
//! The three commands take turns, so a busy moment of the machine is spread over all three.

use super::journal_store::{meta, JOURNAL_DIR};
use super::measure::{median, percentile};
use super::report::{Row, Unit};
use super::stores::{self, Kind};
use super::Run;
use crate::Fallible;
use arbiter_engine::Game;
use arbiter_journal::{Journal, Record};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Timed runs of each command (after one untimed run each).
const RUNS: usize = 30;
/// The session `diff` compares the corpus's longest session with.
const SPLIT_SESSION: &str = "latency-split";
/// Where that copy differs (or its last record, in a shorter session).
const SPLIT_AT: usize = 10;

pub fn measure<G: Game>(run: &mut Run<G>) -> Fallible {
    let db = stores::dir_of(Kind::Arbiter, &run.dir, "corpus").join(JOURNAL_DIR);
    let (session, events) =
        run.corpus.sessions.iter().max_by_key(|(_, e)| e.len()).ok_or("the corpus has no session")?;
    let len = events.len();
    let mid = len / 2;
    store_split_copy::<G>(&db, events)?;
    let db_arg = db.display().to_string();
    let commands: [(String, Vec<String>); 3] = [
        (
            format!("`arbiter replay SESSION --to N` ({len}-record session, N = {mid})"),
            vec!["replay".into(), session.clone(), "--to".into(), mid.to_string()],
        ),
        (
            format!("`arbiter explain SESSION N` ({len}-record session, N = {mid})"),
            vec!["explain".into(), session.clone(), mid.to_string()],
        ),
        (
            format!("`arbiter diff A B` (two {len}-record sessions splitting at {})", SPLIT_AT.min(len - 1)),
            vec!["diff".into(), session.clone(), SPLIT_SESSION.into()],
        ),
    ];
    let Some(bin) = run.opts.arbiter_bin.clone() else {
        for (what, _) in commands {
            run.rows.push(
                Row::new("9", format!("{what}, process start to exit"), Unit::Millis)
                    .note("not measured: no release `arbiter` binary beside this driver (`cargo xtask bench` builds it)"),
            );
        }
        return Ok(());
    };
    let mut samples: Vec<Fallible<Vec<f64>>> = commands.iter().map(|_| Ok(Vec::new())).collect();
    for round in 0..=RUNS {
        for ((_, args), times) in commands.iter().zip(samples.iter_mut()) {
            if times.is_err() {
                continue;
            }
            match (spawn(&bin, &db_arg, args), times.as_mut()) {
                // The first round warms the page cache and is not counted.
                (Ok(secs), Ok(times)) if round > 0 => times.push(secs),
                (Ok(_), _) => {}
                (Err(e), _) => *times = Err(e),
            }
        }
    }
    for ((what, _), times) in commands.into_iter().zip(samples) {
        let row = Row::new("9", format!("{what}, process start to exit"), Unit::Millis);
        let row = match times {
            Ok(times) => {
                let (med, p90) = (median(times.clone()) * 1e3, percentile(times.clone(), 90.0) * 1e3);
                run.raw(format!("{what}: median {med:.2} ms, p90 {p90:.2} ms over {} runs", times.len()));
                row.arbiter(med).target_with("< 10 ms median", format!("p90 {p90:.1} ms"), med < 10.0)
            }
            Err(e) => row.note(e.to_string()),
        };
        run.rows.push(row);
    }
    Ok(())
}

/// Copy `events` into the corpus database as `SPLIT_SESSION`, one record changed, so that
/// `diff` has two stored sessions that split early.
fn store_split_copy<G: Game>(db: &Path, events: &[G::Event]) -> Fallible {
    let at = SPLIT_AT.min(events.len().saturating_sub(1));
    let other = events.iter().find(|e| **e != events[at]).ok_or("a session of one repeated event")?;
    let mut changed = events.to_vec();
    changed[at] = other.clone();
    let journal = Journal::open(db)?;
    let records: Vec<Record<&G::Event>> = changed.iter().map(Record::Event).collect();
    journal.import(SPLIT_SESSION, &meta::<G>(), &records)?;
    journal.flush()?;
    Ok(())
}

/// Run the binary once; the seconds from spawn to exit. Exit 0 or 1 (a split, findings) is
/// a completed command; anything else is an error with what it printed.
fn spawn(bin: &PathBuf, db: &str, args: &[String]) -> Fallible<f64> {
    let start = Instant::now();
    let out = Command::new(bin).arg("--db").arg(db).args(args).output()?;
    let secs = start.elapsed().as_secs_f64();
    match out.status.code() {
        Some(0 | 1) => Ok(secs),
        _ => Err(format!(
            "`arbiter {}` failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )
        .into()),
    }
}
