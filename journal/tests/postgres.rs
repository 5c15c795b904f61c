//! The PostgreSQL backend against a real server (`arbiter_journal::test_server`: the one
//! `.ci/run` starts, or a throwaway cluster; without one each test says it did not run):
//! rows tampered with in SQL are named by `check` and by reads at the first broken record;
//! many clients on separate connections, threads and processes, racing for one session's
//! sequence numbers and writing their own sessions, each number won by exactly one; a
//! read-only open, an unreachable server and a foreign database are one sentence each.

mod common;

use arbiter_journal::{ErrorKind, Journal, JournalError, ProblemKind, Record};
use common::Backend;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Note(String),
    Roll(Vec<u8>),
}

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Records in the tampered session: several pages' worth (a page is 1,024 rows).
const LEN: u64 = 2_500;

/// Notes of equal length, so two can be swapped.
fn note(i: u64) -> String {
    format!("note-{i:05}")
}

/// A fresh database on the test server, `None` (said on the terminal) without one.
fn fresh(test: &str) -> Result<Option<PathBuf>, Box<dyn std::error::Error>> {
    if !common::backends(test).contains(&Backend::Postgres) {
        return Ok(None);
    }
    Ok(Some(Backend::Postgres.fresh(test)?.location))
}

/// A session "s" of `LEN` notes with retractions at 50 and 2,000.
fn build(url: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let records: Vec<Record<Ev>> = (0..LEN)
        .map(|i| match i {
            50 => Record::Retract(49),
            2_000 => Record::Retract(3),
            _ => Record::Event(Ev::Note(note(i))),
        })
        .collect();
    let j = Journal::open(url)?;
    j.import("s", &common::meta(), &records)?;
    assert!(j.check::<Ev>("s")?.is_ok());
    Ok(())
}

/// Run SQL on the database directly, as someone with access to the server would.
fn sql(url: &Path, statements: &str) -> TestResult {
    let url = url.to_str().ok_or("a URL")?;
    let mut client = postgres::Client::connect(url, postgres::NoTls)?;
    client.batch_execute(statements)?;
    Ok(())
}

/// The first problem `check` finds must be `kind` at `seq`, and reading from 0 must fail
/// there too (never hand out a changed record).
fn expect_problem(url: &Path, seq: u64, kind: ProblemKind) -> TestResult {
    let j = Journal::open(url)?;
    let report = j.check::<Ev>("s")?;
    let problem = report.problem.clone().ok_or("check found nothing")?;
    assert_eq!((problem.seq, problem.kind), (seq, kind), "{}", problem.message);
    assert!(problem.message.contains(&format!("record {seq}")), "{}", problem.message);
    if kind != ProblemKind::Extra {
        let read: Vec<_> = j.events::<Ev>("s", 0)?.collect();
        let err = read.iter().find_map(|r| r.as_ref().err()).ok_or("read through the damage")?;
        assert_eq!((err.kind(), err.seq()), (ErrorKind::Corrupt, Some(seq)), "{err}");
        // Records before it may come first (whole runs that verified), never one at or past it.
        assert!(read.last().is_some_and(|r| r.is_err()), "the error ends the read");
        assert!(read.iter().filter_map(|r| r.as_ref().ok()).all(|(s, _)| *s < seq));
    }
    Ok(())
}

/// The body of record `seq` as the codec stores `Ev::Note(note(other))`.
fn body_of(other: u64) -> Result<String, Box<dyn std::error::Error>> {
    let bytes = arbiter_journal::codec::encode(&Record::Event(Ev::Note(note(other))))?;
    Ok(format!("'\\x{}'::bytea", arbiter_journal::hex(&bytes)))
}

#[test]
fn tampering_in_sql_is_named_at_the_first_broken_record() -> TestResult {
    // Each case: what is done to the rows, and the first problem `check` must name.
    let cases: Vec<(&str, String, u64, ProblemKind)> = vec![
        (
            "a record's body changed",
            format!("UPDATE arbiter_records SET body = {} WHERE seq = 1500", body_of(1501)?),
            1500,
            ProblemKind::HashMismatch,
        ),
        ("a record removed", "DELETE FROM arbiter_records WHERE seq = 700".into(), 700, ProblemKind::Gap),
        ("the first record removed", "DELETE FROM arbiter_records WHERE seq = 0".into(), 0, ProblemKind::Gap),
        ("the last record removed", format!("DELETE FROM arbiter_records WHERE seq = {}", LEN - 1), LEN - 1, ProblemKind::Gap),
        (
            "two records swapped",
            format!(
                "UPDATE arbiter_records SET body = CASE seq WHEN 20 THEN {} ELSE {} END WHERE seq IN (20, 21)",
                body_of(21)?,
                body_of(20)?
            ),
            20,
            ProblemKind::HashMismatch,
        ),
        (
            "the metadata changed",
            format!(
                "UPDATE arbiter_sessions SET meta = '\\x{}'::bytea",
                arbiter_journal::hex(&arbiter_journal::codec::encode(&arbiter_journal::SessionMeta {
                    title: "rewritten".into(),
                    ..common::meta()
                })?)
            ),
            0,
            ProblemKind::HashMismatch,
        ),
        (
            "a stored link changed",
            "UPDATE arbiter_records SET link = overlay(link placing '\\xffff'::bytea from 20) WHERE seq = 1200".into(),
            1200,
            ProblemKind::HashMismatch,
        ),
        (
            "a retraction index entry changed",
            "UPDATE arbiter_records SET retracts = 4 WHERE seq = 2000".into(),
            2000,
            ProblemKind::Retractions,
        ),
        (
            "a record added past the head",
            format!(
                "INSERT INTO arbiter_records (session, seq, link, body) \
                 SELECT session, {LEN}, link, body FROM arbiter_records WHERE seq = 5"
            ),
            LEN,
            ProblemKind::Extra,
        ),
        ("the head shortened", "UPDATE arbiter_sessions SET len = 900".into(), 900, ProblemKind::Extra),
    ];
    let mut ran = 0;
    for (what, statement, seq, kind) in cases {
        let Some(url) = fresh("tamper")? else { return Ok(()) };
        build(&url)?;
        sql(&url, &statement)?;
        expect_problem(&url, seq, kind).map_err(|e| format!("{what}: {e}"))?;
        ran += 1;
    }
    assert_eq!(ran, 10);
    Ok(())
}

#[test]
fn reads_from_the_middle_start_at_the_stored_link_before_them() -> TestResult {
    let Some(url) = fresh("middle")? else { return Ok(()) };
    build(&url)?;
    let j = Journal::open(&url)?;
    for from in [1, 1023, 1024, 1025, 2047, LEN - 1, LEN] {
        let read: Vec<(u64, Record<Ev>)> = j.events("s", from)?.collect::<Result<_, _>>()?;
        assert_eq!(read.len() as u64, LEN - from, "from {from}");
        assert_eq!(read.first().map(|(seq, _)| *seq), (from < LEN).then_some(from));
    }
    // A damaged record is named by a read that starts after it only where the chain runs
    // through it: from record 1,501 on, the stored link of 1,500 is what the read starts at.
    sql(&url, &format!("UPDATE arbiter_records SET body = {} WHERE seq = 1500", body_of(1501)?))?;
    let after: Result<Vec<_>, _> = j.events::<Ev>("s", 1501)?.collect();
    assert_eq!(after?.len() as u64, LEN - 1501, "the records after it are intact");
    let through = j.events::<Ev>("s", 1400)?.find_map(Result::err).ok_or("read a changed record")?;
    assert_eq!(through.seq(), Some(1500));
    Ok(())
}

#[test]
fn a_session_whose_last_record_is_gone_is_not_continued() -> TestResult {
    let Some(url) = fresh("continued")? else { return Ok(()) };
    build(&url)?;
    sql(&url, &format!("DELETE FROM arbiter_records WHERE seq = {}", LEN - 1))?;
    let j = Journal::open(&url)?;
    let err =
        j.append("s", LEN, &[Record::Event(Ev::Note(note(LEN)))]).err().ok_or("appended over the damage")?;
    assert_eq!((err.kind(), err.seq()), (ErrorKind::Corrupt, Some(LEN - 1)), "{err}");
    assert!(err.message().contains("cannot be continued"), "{err}");
    // Nothing was written: the head is where it was.
    assert_eq!(j.len("s")?, LEN);
    Ok(())
}

/// Env var that makes this test binary a racing client (the value: the database URL).
const RACER: &str = "ARBITER_PG_TEST_RACER";
/// Env var naming the racing client (its writer number).
const RACER_ID: &str = "ARBITER_PG_TEST_RACER_ID";

/// Batches each client must win on the shared session, and single records each appends to
/// a session of its own.
const WINS: u64 = 30;
const OWN: u64 = 40;

/// One client: a journal of its own (its own connections), appending batches to the shared
/// session `race` until it has won `WINS` of them (a lost race writes nothing and is tried
/// again at the new length), and single records to its own session.
fn race(url: &Path, writer: u64) -> Result<(), JournalError> {
    let j = Journal::open(url)?;
    let own = format!("own-{writer}");
    j.create_session(&own, &common::meta())?;
    let (mut won, mut mine) = (0, 0);
    while won < WINS || mine < OWN {
        if won < WINS {
            let len = j.len("race")?;
            let size = 1 + (won + writer) % 4;
            let batch: Vec<Record<Ev>> =
                std::iter::once(Record::Event(Ev::Note(format!("{writer}:{won}:{size}"))))
                    .chain((0..size).map(|k| Record::Event(Ev::Roll(vec![writer as u8, k as u8]))))
                    .collect();
            match j.append("race", len, &batch) {
                Ok(_) => won += 1,
                Err(e) if e.kind() == ErrorKind::Conflict => {}
                Err(e) => return Err(e),
            }
        }
        if mine < OWN {
            j.append(&own, mine, &[Record::Event(Ev::Note(format!("{writer}/{mine}")))])?;
            mine += 1;
        }
    }
    Ok(())
}

/// Threads and processes, each its own client, race for the sequence numbers of one
/// session and write sessions of their own: each number is won by exactly one batch,
/// whole, and every client's own session holds exactly what it wrote.
#[test]
fn many_clients_each_sequence_number_won_by_exactly_one() -> TestResult {
    if let (Ok(url), Ok(id)) = (std::env::var(RACER), std::env::var(RACER_ID)) {
        race(Path::new(&url), id.parse()?)?;
        println!("RACED {id}");
        return Ok(());
    }
    let Some(url) = fresh("race")? else { return Ok(()) };
    Journal::open(&url)?.create_session("race", &common::meta())?;
    const THREADS: u64 = 8;
    const PROCESSES: u64 = 3;
    let children: Vec<_> = (THREADS..THREADS + PROCESSES)
        .map(|id| {
            Command::new(std::env::current_exe()?)
                .args(["--exact", "many_clients_each_sequence_number_won_by_exactly_one", "--nocapture"])
                .env(RACER, &url)
                .env(RACER_ID, id.to_string())
                .stdout(Stdio::piped())
                .spawn()
        })
        .collect::<Result<_, _>>()?;
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..THREADS)
            .map(|id| {
                scope.spawn({
                    let url = url.clone();
                    move || race(&url, id)
                })
            })
            .collect();
        threads.into_iter().try_for_each(|t| t.join().unwrap_or_else(|_| panic!("a client panicked")))
    })?;
    for mut child in children {
        let stdout = child.stdout.take().ok_or("no child stdout")?;
        // Read to the end, so the child never writes into a closed pipe.
        let lines: Vec<String> = BufReader::new(stdout).lines().map_while(Result::ok).collect();
        let raced = lines.iter().any(|l| l.starts_with("RACED"));
        assert!(child.wait()?.success() && raced, "a client process failed");
    }
    let clients = THREADS + PROCESSES;
    let j = Journal::open(&url)?;
    let records: Vec<(u64, Record<Ev>)> = j.events("race", 0)?.collect::<Result<_, _>>()?;
    // Every batch is a note naming its writer, its index and its size, followed by that
    // many rolls of that writer: a torn, doubled or overwritten batch breaks the pattern.
    let mut won = vec![0u64; clients as usize];
    let mut i = 0;
    while i < records.len() {
        let Record::Event(Ev::Note(head)) = &records[i].1 else { panic!("record {i} starts no batch") };
        let parts: Vec<u64> = head.split(':').filter_map(|p| p.parse().ok()).collect();
        let (writer, index, size) = (parts[0] as usize, parts[1], parts[2] as usize);
        assert_eq!(index, won[writer], "writer {writer}'s batches in order, none lost or repeated");
        won[writer] += 1;
        for k in 1..=size {
            let Record::Event(Ev::Roll(roll)) = &records[i + k].1 else { panic!("batch at {i} torn") };
            assert_eq!(roll[0] as usize, writer, "batch at {i} mixed with another writer's");
        }
        i += size + 1;
    }
    assert_eq!(won, vec![WINS; clients as usize]);
    assert!(j.check::<Ev>("race")?.is_ok());
    for writer in 0..clients {
        let own = format!("own-{writer}");
        let read: Vec<(u64, Record<Ev>)> = j.events(&own, 0)?.collect::<Result<_, _>>()?;
        let expected: Vec<(u64, Record<Ev>)> =
            (0..OWN).map(|n| (n, Record::Event(Ev::Note(format!("{writer}/{n}"))))).collect();
        assert_eq!(read, expected, "{own}");
    }
    Ok(())
}

#[test]
fn a_read_only_open_writes_nothing_and_needs_a_journal() -> TestResult {
    let Some(url) = fresh("readonly")? else { return Ok(()) };
    let err = Journal::open_read_only(&url).err().ok_or("read-only open of an empty database")?;
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().contains("holds no arbiter journal"), "{err}");
    build(&url)?;
    let j = Journal::open_read_only(&url)?;
    assert_eq!(j.len("s")?, LEN);
    let refused = j.append("s", LEN, &[Record::Event(Ev::Note(note(0)))]).err().map(|e| e.kind());
    assert_eq!(refused, Some(ErrorKind::ReadOnly));
    assert_eq!(j.put_snapshot("s", 3, 1, b"x").err().map(|e| e.kind()), Some(ErrorKind::ReadOnly));
    assert!(j.check::<Ev>("s")?.is_ok());
    Ok(())
}

#[test]
fn a_foreign_or_unreachable_database_is_one_sentence() -> TestResult {
    // No server at all: the password in the URL is never shown.
    let nowhere =
        "postgres://arbiter:hunter2@/arbiter?host=/nonexistent-arbiter-socket-dir&connect_timeout=2";
    let err = Journal::open(nowhere).err().ok_or("opened a database without a server")?;
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().contains("cannot reach PostgreSQL at `postgres://arbiter:***@/arbiter"), "{err}");
    assert!(!err.message().contains("hunter2"), "{err}");
    assert_eq!(err.message().lines().count(), 1);
    let tls = Journal::open("postgres://localhost/arbiter?sslmode=require").err().ok_or("opened with TLS")?;
    assert!(tls.message().contains("sslmode=require"), "{tls}");

    let Some(url) = fresh("foreign")? else { return Ok(()) };
    build(&url)?;
    sql(&url, "UPDATE arbiter_format SET version = 99")?;
    let err = Journal::open(&url).err().ok_or("opened another format")?;
    assert!(err.message().contains("holds journal format 99"), "{err}");
    Ok(())
}

#[test]
fn a_journal_opened_and_dropped_on_an_async_runtime_is_used_from_blocking_threads() -> TestResult {
    // As `arbiter serve` does: open outside, work in `spawn_blocking`, drop inside a task.
    let Some(url) = fresh("async")? else { return Ok(()) };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let journal = std::sync::Arc::new(Journal::open(&url)?);
    runtime.block_on(async move {
        let j = std::sync::Arc::clone(&journal);
        let len = tokio::task::spawn_blocking(move || -> Result<u64, JournalError> {
            j.create_session("live", &common::meta())?;
            j.append("live", 0, &[Record::Event(Ev::Note(note(0)))])
        })
        .await??;
        assert_eq!(len, 1);
        // The last handle is dropped on a runtime thread: connections close on a thread
        // of their own, so this does not panic.
        drop(journal);
        Ok::<(), Box<dyn std::error::Error>>(())
    })?;
    let reopened =
        runtime.block_on(async move { tokio::task::spawn_blocking(move || Journal::open(&url)).await })??;
    assert_eq!(reopened.len("live")?, 1);
    drop(runtime);
    Ok(())
}

#[test]
fn batches_larger_than_one_statement_are_one_transaction() -> TestResult {
    let Some(url) = fresh("large")? else { return Ok(()) };
    let record = |i: u64| match i {
        i if i % 997 == 5 => Record::Retract(i - 1),
        i => Record::Event(Ev::Roll(vec![(i % 6) as u8 + 1; (i % 5) as usize + 1])),
    };
    let j = Journal::open(&url)?;
    let first: Vec<Record<Ev>> = (0..10_000).map(record).collect();
    assert_eq!(j.import("big", &common::meta(), &first)?, 10_000);
    let more: Vec<Record<Ev>> = (10_000..15_000).map(record).collect();
    assert_eq!(j.append("big", 10_000, &more)?, 15_000);
    // A large append at a stale length writes nothing, not even its first chunk.
    let stale = j.append("big", 10_000, &more).err().map(|e| e.kind());
    assert_eq!(stale, Some(ErrorKind::Conflict));
    assert_eq!(j.len("big")?, 15_000);
    let read: Vec<(u64, Record<Ev>)> = j.events("big", 0)?.collect::<Result<_, _>>()?;
    assert_eq!(read, (0..15_000).map(|i| (i, record(i))).collect::<Vec<_>>());
    let retracted: Vec<u64> = (0..15_000).filter(|i| i % 997 == 5).map(|i| i - 1).collect();
    assert_eq!(j.retracted("big")?.into_iter().collect::<Vec<_>>(), retracted);
    assert!(j.check::<Ev>("big")?.is_ok());
    Ok(())
}
