//! Sessions, appends, imports, reads, retractions, snapshots and the database lock, through
//! the public API.

use arbiter_journal::{ErrorKind, Journal, JournalError, Parent, Record, SessionMeta, BLOCK_RECORDS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

mod common;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Roll(Vec<u8>),
    Note(String),
    Move { slot: u8, up: bool },
}

fn meta(game: &str) -> SessionMeta {
    SessionMeta {
        game: game.to_string(),
        setup: BTreeMap::from([("health".to_string(), "8".to_string())]),
        catalog: Some("illustrative".to_string()),
        rules_version: 1,
        created: 1_700_000_000,
        title: "test".to_string(),
        parent: None,
    }
}

fn ev(i: u64) -> Record<Ev> {
    match i % 3 {
        0 => Record::Event(Ev::Roll(vec![(i % 6) as u8 + 1; (i % 8) as usize + 1])),
        1 => Record::Event(Ev::Note(format!("note-{i}"))),
        _ => Record::Event(Ev::Move { slot: (i % 6) as u8, up: i & 1 == 0 }),
    }
}

fn read_all(j: &Journal, name: &str, from: u64) -> Result<Vec<(u64, Record<Ev>)>, JournalError> {
    j.events::<Ev>(name, from)?.collect()
}

fn kind<T: std::fmt::Debug>(r: Result<T, JournalError>) -> ErrorKind {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.kind(),
    }
}

#[test]
fn sessions_are_created_listed_and_refused_twice() -> TestResult {
    common::on_each_backend("sessions_are_created_listed_and_refused_twice", |db| {
        let j = Journal::open(db)?;
        j.create_session("carter", &meta("proving-grounds"))?;
        j.create_session("league-final", &meta("keridwyn"))?;
        assert_eq!(j.session("carter")?, meta("proving-grounds"));
        let names: Vec<String> = j.sessions()?.into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["carter", "league-final"]);
        assert_eq!(j.len("carter")?, 0);

        let again = j.create_session("carter", &meta("x"));
        assert_eq!(kind(again), ErrorKind::SessionExists);
        assert_eq!(j.session("carter")?.game, "proving-grounds", "the refused create changed nothing");

        let missing = j.session("cartr").err().map(|e| (e.kind(), e.message().to_string()));
        assert_eq!(
            missing,
            Some((
                ErrorKind::SessionNotFound,
                "session `cartr` not found; did you mean `carter`?".to_string()
            ))
        );
        let far = j.len("zzz").err().map(|e| e.message().to_string());
        assert_eq!(far.as_deref(), Some("session `zzz` not found"));
        assert_eq!(kind(j.create_session("a b", &meta("x"))), ErrorKind::InvalidName);
        Ok(())
    })
}

/// The same records as [`Ev`], a second type to read them as (`Events::cast`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Same {
    Roll(Vec<u8>),
    Note(String),
    Move { slot: u8, up: bool },
}

#[test]
fn a_stream_cast_after_its_first_record_hands_out_every_later_one_once() -> TestResult {
    common::on_each_backend("a_stream_cast_after_its_first_record_hands_out_every_later_one_once", |db| {
        // The stream decodes records ahead of its reader: a cast after the first record must
        // read those again as the new type, neither dropping nor repeating one.
        let n = BLOCK_RECORDS + 40;
        let j = Journal::open(db)?;
        j.import("s", &meta("g"), &(0..n).map(ev).collect::<Vec<_>>())?;
        let mut events = j.events::<Ev>("s", 3)?;
        let first = events.next().transpose()?;
        assert_eq!(first, Some((3, ev(3))));
        let rest: Vec<(u64, Record<Same>)> = events.cast::<Same>().collect::<Result<_, _>>()?;
        assert_eq!(rest.iter().map(|(seq, _)| *seq).collect::<Vec<_>>(), (4..n).collect::<Vec<_>>());
        assert!(matches!(rest[0].1, Record::Event(Same::Note(ref s)) if s == "note-4"));
        Ok(())
    })
}

#[test]
fn appends_are_conditional_and_read_back_across_blocks() -> TestResult {
    common::on_each_backend("appends_are_conditional_and_read_back_across_blocks", |db| {
        let path = db;
        let n = BLOCK_RECORDS * 2 + 5;
        let all: Vec<Record<Ev>> = (0..n).map(ev).collect();
        {
            let j = Journal::open(&path)?;
            j.create_session("s", &meta("g"))?;
            assert_eq!(j.append("s", 0, &all[..1])?, 1);
            // One by one across the first block boundary, then a batch across the second.
            for i in 1..BLOCK_RECORDS + 3 {
                assert_eq!(j.append("s", i, &all[i as usize..i as usize + 1])?, i + 1);
            }
            let len = j.append("s", BLOCK_RECORDS + 3, &all[(BLOCK_RECORDS + 3) as usize..])?;
            assert_eq!(len, n);

            let stale = j.append("s", 3, &[ev(99)]);
            let err = stale.err();
            assert_eq!(err.as_ref().map(|e| e.kind()), Some(ErrorKind::Conflict));
            assert_eq!(err.as_ref().and_then(|e| e.seq()), Some(n));
            assert!(err.map(|e| e.message().contains(&format!("has {n} records"))).unwrap_or(false));
            assert_eq!(kind(j.append("s", n + 1, &[ev(1)])), ErrorKind::Conflict);
            assert_eq!(j.len("s")?, n, "conflicting appends wrote nothing");
        }
        // Reopen: everything acknowledged is there, in order, readable from any position.
        let j = Journal::open(&path)?;
        let expected: Vec<(u64, Record<Ev>)> = (0..n).zip(all.iter().cloned()).collect();
        assert_eq!(read_all(&j, "s", 0)?, expected);
        for from in [1, BLOCK_RECORDS - 1, BLOCK_RECORDS, BLOCK_RECORDS + 1, n - 1, n, n + 7] {
            let start = from.min(n) as usize;
            assert_eq!(read_all(&j, "s", from)?, expected[start..], "from {from}");
        }
        assert!(j.check::<Ev>("s")?.is_ok());
        Ok(())
    })
}

#[test]
fn the_hash_chain_is_the_same_however_records_were_batched() -> TestResult {
    common::on_each_backend("the_hash_chain_is_the_same_however_records_were_batched", |db| {
        let j = Journal::open(db)?;
        let all: Vec<Record<Ev>> = (0..300).map(ev).collect();
        j.import("batched", &meta("g"), &all)?;
        // Genesis binds the name, so compare against a session whose only difference is batching.
        j.create_session("single", &meta("g"))?;
        for (i, r) in all.iter().enumerate() {
            j.append("single", i as u64, std::slice::from_ref(r))?;
        }
        assert_ne!(j.hash_at("batched", 0)?, j.hash_at("single", 0)?, "genesis differs by name");
        let mut previous = j.hash_at("single", 0)?;
        for at in 1..=300u64 {
            let h = j.hash_at("single", at)?;
            assert_ne!(h, previous);
            let record = arbiter_journal::codec::encode(&all[at as usize - 1])?;
            assert_eq!(h, arbiter_journal::link(&previous, at - 1, &record), "link of record {}", at - 1);
            previous = h;
        }
        assert_eq!(kind(j.hash_at("single", 301)), ErrorKind::OutOfRange);
        let report = j.check::<Ev>("single")?;
        assert!(report.is_ok(), "{report:?}");
        assert_eq!((report.verified, report.hash), (300, j.hash_at("single", 300)?));
        Ok(())
    })
}

#[test]
fn import_is_all_or_nothing() -> TestResult {
    common::on_each_backend("import_is_all_or_nothing", |db| {
        let j = Journal::open(db)?;
        // Record 2 retracts record 5, which is not before it: the import fails whole.
        let bad = vec![ev(0), ev(1), Record::Retract(5), ev(3)];
        let err = j.import("s", &meta("g"), &bad).err();
        assert_eq!(err.as_ref().map(|e| (e.kind(), e.seq())), Some((ErrorKind::InvalidRecord, Some(2))));
        assert_eq!(kind(j.session("s")), ErrorKind::SessionNotFound);
        assert!(j.sessions()?.is_empty());

        let good: Vec<Record<Ev>> = (0..500).map(ev).collect();
        assert_eq!(j.import("s", &meta("g"), &good)?, 500);
        assert_eq!(kind(j.import("s", &meta("g"), &good)), ErrorKind::SessionExists);
        assert_eq!(j.len("s")?, 500);
        Ok(())
    })
}

#[test]
fn retractions_are_indexed_and_kept_in_the_history() -> TestResult {
    common::on_each_backend("retractions_are_indexed_and_kept_in_the_history", |db| {
        let j = Journal::open(db)?;
        j.import("s", &meta("g"), &[ev(0), ev(1), Record::Retract(1)])?;
        j.append("s", 3, &[ev(3), Record::Retract(3), Record::Retract(0)])?;
        assert_eq!(j.retractions("s")?, vec![(2, 1), (4, 3), (5, 0)]);
        assert_eq!(j.retracted("s")?.into_iter().collect::<Vec<_>>(), vec![0, 1, 3]);
        let history = read_all(&j, "s", 0)?;
        assert_eq!(history.len(), 6);
        assert_eq!(history[4], (4, Record::Retract(3)));
        assert_eq!(kind(j.append("s", 6, &[Record::<Ev>::Retract(6)])), ErrorKind::InvalidRecord);
        Ok(())
    })
}

#[test]
fn read_session_gives_metadata_retractions_and_records_in_one_call() -> TestResult {
    common::on_each_backend("read_session_gives_metadata_retractions_and_records_in_one_call", |db| {
        let j = Journal::open(db)?;
        let records: Vec<Record<Ev>> = (0..BLOCK_RECORDS + 5).map(ev).chain([Record::Retract(2)]).collect();
        j.import("s", &meta("g"), &records)?;
        let whole = j.read_session::<Ev>("s", 0)?;
        assert_eq!(whole.meta, j.session("s")?);
        assert_eq!(whole.retractions, j.retractions("s")?);
        assert_eq!(whole.events.collect::<Result<Vec<_>, _>>()?, read_all(&j, "s", 0)?);
        let tail = j.read_session::<Ev>("s", BLOCK_RECORDS + 1)?;
        assert_eq!(tail.events.collect::<Result<Vec<_>, _>>()?, read_all(&j, "s", BLOCK_RECORDS + 1)?);
        assert_eq!(kind(j.read_session::<Ev>("nope", 0).map(|r| r.meta)), ErrorKind::SessionNotFound);
        Ok(())
    })
}

#[test]
fn snapshots_are_found_by_position_and_rules_version() -> TestResult {
    common::on_each_backend("snapshots_are_found_by_position_and_rules_version", |db| {
        let j = Journal::open(db)?;
        let all: Vec<Record<Ev>> = (0..50).map(ev).collect();
        j.import("s", &meta("g"), &all)?;
        j.import("other", &meta("g"), &all)?;
        j.put_snapshot("s", 10, 1, b"ten")?;
        j.put_snapshot("s", 20, 1, b"twenty")?;
        j.put_snapshot("s", 30, 2, b"thirty-v2")?;
        j.put_snapshot("other", 5, 1, b"other")?;
        assert_eq!(j.snapshot_before("s", 9, 1)?, None);
        assert_eq!(j.snapshot_before("s", 10, 1)?, Some((10, b"ten".to_vec())));
        assert_eq!(j.snapshot_before("s", 19, 1)?, Some((10, b"ten".to_vec())));
        assert_eq!(j.snapshot_before("s", 50, 1)?, Some((20, b"twenty".to_vec())), "version 2 ignored");
        assert_eq!(j.snapshot_before("s", 50, 2)?, Some((30, b"thirty-v2".to_vec())));
        assert_eq!(j.snapshot_before("s", 29, 2)?, None);
        assert_eq!(kind(j.put_snapshot("s", 51, 1, b"past the end")), ErrorKind::InvalidRecord);
        assert_eq!(j.discard_snapshots("s", 2)?, 2);
        assert_eq!(j.snapshot_before("s", 50, 1)?, None);
        assert_eq!(
            j.snapshot_before("other", 50, 1)?,
            Some((5, b"other".to_vec())),
            "other sessions untouched"
        );
        assert!(j.check::<Ev>("s")?.is_ok(), "snapshots are not part of the chain");
        Ok(())
    })
}

#[test]
fn forks_record_their_parent() -> TestResult {
    common::on_each_backend("forks_record_their_parent", |db| {
        let j = Journal::open(db)?;
        let all: Vec<Record<Ev>> = (0..40).map(ev).collect();
        j.import("main", &meta("g"), &all)?;
        let mut fork_meta = meta("g");
        fork_meta.parent = Some(Parent { session: "main".to_string(), at: 25, hash: j.hash_at("main", 25)? });
        j.import("what-if", &fork_meta, &all[..25])?;
        assert_eq!(j.session("what-if")?.parent, fork_meta.parent);
        assert_eq!(read_all(&j, "what-if", 0)?, read_all(&j, "main", 0)?[..25]);
        Ok(())
    })
}

/// Env var that turns this test binary into the child that holds the database open.
const HOLD: &str = "ARBITER_JOURNAL_TEST_HOLD";
/// Env var that turns this test binary into the child that appends until killed.
const CRASH: &str = "ARBITER_JOURNAL_TEST_CRASH";

/// As the parent: a second process opening a held database gets `InUse`, at once, and can
/// open it once the holder is gone. As the child (`HOLD` set): hold it until stdin closes.
#[test]
fn a_second_process_gets_database_in_use() -> Result<(), Box<dyn std::error::Error>> {
    if let Ok(path) = std::env::var(HOLD) {
        let _j = Journal::open(&path)?;
        println!("READY");
        std::io::stdout().flush()?;
        let mut line = String::new();
        std::io::stdin().read_line(&mut line)?;
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    Journal::open(&path)?.create_session("s", &meta("g"))?;
    let mut child = Command::new(std::env::current_exe()?)
        .args(["--exact", "a_second_process_gets_database_in_use", "--nocapture", "--test-threads=1"])
        .env(HOLD, &path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no child stdout")?;
    // Keep reading the child's output to the end, so it never writes into a closed pipe.
    let mut lines = BufReader::new(stdout).lines();
    let ready = lines.by_ref().map_while(Result::ok).any(|l| l.contains("READY"));
    assert!(ready, "the child never opened the database");

    let started = std::time::Instant::now();
    let err = Journal::open(&path).err();
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "opening must not wait for the lock");
    assert_eq!(err.as_ref().map(|e| e.kind()), Some(ErrorKind::InUse));
    let shown = format!("database `{}` is in use by another process", path.display());
    assert!(err.map(|e| e.message().starts_with(&shown)).unwrap_or(false));

    drop(child.stdin.take());
    lines.for_each(drop);
    assert!(child.wait()?.success());
    assert_eq!(Journal::open(&path)?.len("s")?, 0, "free again once the holder exits");
    Ok(())
}

/// As the parent: kill a child in the middle of appending; the reopened log holds at least
/// every append the child acknowledged and passes `check` (on each backend: on PostgreSQL
/// the child is a client killed mid-transaction). As the child (`CRASH` set):
/// append single records and batches forever, printing each acknowledged length.
#[test]
fn a_killed_writer_leaves_an_intact_prefix() -> Result<(), Box<dyn std::error::Error>> {
    if let Ok(path) = std::env::var(CRASH) {
        let j = Journal::open(&path)?;
        let mut len = j.len("s")?;
        let mut out = std::io::stdout();
        loop {
            let batch: Vec<Record<Ev>> = (len..len + 1 + len % 40).map(ev).collect();
            len = j.append("s", len, &batch)?;
            writeln!(out, "{len}")?;
            out.flush()?;
        }
    }
    common::on_each_backend("a_killed_writer_leaves_an_intact_prefix", |path| killed_writer_on(path))
}

fn killed_writer_on(path: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    Journal::open(path)?.create_session("s", &meta("g"))?;
    let mut child = Command::new(std::env::current_exe()?)
        .args(["--exact", "a_killed_writer_leaves_an_intact_prefix", "--nocapture", "--test-threads=1"])
        .env(CRASH, &path)
        .stdout(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no child stdout")?;
    let mut acknowledged = 0u64;
    for line in BufReader::new(stdout).lines() {
        if let Ok(n) = line?.trim().parse::<u64>() {
            acknowledged = n;
        }
        if acknowledged >= 600 {
            child.kill()?;
            break;
        }
    }
    child.wait()?;
    assert!(acknowledged >= 600, "the child stopped early at {acknowledged}");
    let j = Journal::open(path)?;
    let len = j.len("s")?;
    assert!(len >= acknowledged, "lost acknowledged records: {len} < {acknowledged}");
    let report = j.check::<Ev>("s")?;
    assert!(report.is_ok(), "{report:?}");
    let expected: Vec<(u64, Record<Ev>)> = (0..len).map(|i| (i, ev(i))).collect();
    assert_eq!(read_all(&j, "s", 0)?, expected);
    Ok(())
}

/// Two threads race for the same sequence numbers: each append either lands whole or fails
/// with `Conflict`, so every record is stored exactly once and none is overwritten.
#[test]
fn racing_writers_never_overwrite_each_other() -> TestResult {
    common::on_each_backend("racing_writers_never_overwrite_each_other", |db| {
        let j = Journal::open_with(db, arbiter_journal::Durability::SledFlush)?;
        j.create_session("s", &meta("g"))?;
        const EACH: u64 = 150;
        std::thread::scope(|scope| {
            let writers: Vec<_> = (0..2u8)
                .map(|writer| {
                    let j = &j;
                    scope.spawn(move || -> Result<(), JournalError> {
                        let mut written = 0;
                        while written < EACH {
                            let len = j.len("s")?;
                            let moves = 1 + written % 3;
                            let note = Record::Event(Ev::Note(format!("{writer}:{written}:{moves}")));
                            let batch: Vec<Record<Ev>> = std::iter::once(note)
                                .chain((0..moves).map(|k| {
                                    Record::Event(Ev::Move { slot: writer, up: (written + k) & 1 == 0 })
                                }))
                                .collect();
                            match j.append("s", len, &batch) {
                                Ok(_) => written += 1,
                                // Lost the race: nothing was written; read the new length, retry.
                                Err(e) if e.kind() == ErrorKind::Conflict => {}
                                Err(e) => return Err(e),
                            }
                        }
                        Ok(())
                    })
                })
                .collect();
            writers.into_iter().try_for_each(|w| w.join().unwrap_or_else(|_| panic!("writer panicked")))
        })?;
        // Every batch is a note naming its writer, index and size, followed by exactly that many
        // moves of that writer: a torn or overwritten batch breaks the pattern.
        let records = read_all(&j, "s", 0)?;
        let mut seen = [0u64; 2];
        let mut i = 0;
        while i < records.len() {
            let Record::Event(Ev::Note(note)) = &records[i].1 else { panic!("record {i} starts no batch") };
            let parts: Vec<u64> = note.split(':').filter_map(|p| p.parse().ok()).collect();
            let (writer, index, size) = (parts[0] as usize, parts[1], parts[2] as usize);
            assert_eq!(index, seen[writer], "writer {writer}'s batches in order, none lost or repeated");
            seen[writer] += 1;
            for k in 1..=size {
                assert!(
                    matches!(&records[i + k].1, Record::Event(Ev::Move { slot, .. }) if *slot as usize == writer)
                );
            }
            i += size + 1;
        }
        assert_eq!(seen, [EACH, EACH]);
        assert!(j.check::<Ev>("s")?.is_ok());
        Ok(())
    })
}

#[test]
fn large_records_split_blocks_and_oversized_ones_are_refused() -> TestResult {
    common::on_each_backend("large_records_split_blocks_and_oversized_ones_are_refused", |db| {
        let j = Journal::open(db)?;
        // 3 KB notes: a block closes by size long before it has BLOCK_RECORDS of them.
        let big: Vec<Record<Ev>> =
            (0..40).map(|i| Record::Event(Ev::Note(format!("{i:03}").repeat(1000)))).collect();
        j.import("s", &meta("g"), &big[..20])?;
        for (i, r) in big.iter().enumerate().skip(20) {
            j.append("s", i as u64, std::slice::from_ref(r))?;
        }
        let expected: Vec<(u64, Record<Ev>)> = (0..40).zip(big.iter().cloned()).collect();
        assert_eq!(read_all(&j, "s", 0)?, expected);
        assert_eq!(read_all(&j, "s", 33)?, expected[33..]);
        assert!(j.check::<Ev>("s")?.is_ok());

        let huge = Record::Event(Ev::Note("x".repeat(arbiter_journal::MAX_RECORD_BYTES + 1)));
        let err = j.append("s", 40, &[ev(40), huge.clone()]).err();
        assert_eq!(err.as_ref().map(|e| (e.kind(), e.seq())), Some((ErrorKind::InvalidRecord, Some(41))));
        assert_eq!(j.len("s")?, 40, "the whole append was refused");
        assert_eq!(kind(j.import("t", &meta("g"), &[huge])), ErrorKind::InvalidRecord);
        assert_eq!(kind(j.session("t")), ErrorKind::SessionNotFound);
        Ok(())
    })
}

#[test]
fn a_path_that_is_not_a_database_is_a_clear_error() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"not a database")?;
    let err = Journal::open(&file).err().ok_or("opened a plain file")?;
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().starts_with(&format!("cannot open database `{}`", file.display())), "{err}");
    Ok(())
}

/// The body kind of the tail block of the only session in the database at `path` (the byte
/// after the header), read with sled alone once the journal is closed.
fn tail_kind(path: &std::path::Path) -> Result<u8, Box<dyn std::error::Error>> {
    let db = common::open_raw(path)?;
    let events = db.open_tree(arbiter_journal::layout::EVENTS_TREE)?;
    let (_, tail) = events.last()?.ok_or("no block")?;
    Ok(*tail.get(arbiter_journal::layout::BODY_KIND_AT).ok_or("short block")?)
}

#[test]
fn batches_compress_their_tail_and_single_appends_leave_it_plain() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    let all: Vec<Record<Ev>> = (0..300).map(ev).collect();
    let check = |n: usize| -> Result<(), Box<dyn std::error::Error>> {
        let j = Journal::open(&path)?;
        assert!(j.check::<Ev>("s")?.is_ok());
        let read: Vec<Record<Ev>> = read_all(&j, "s", 0)?.into_iter().map(|(_, r)| r).collect();
        assert_eq!(read, all[..n]);
        assert_eq!(read_all(&j, "s", 70)?.first().map(|(seq, _)| *seq), Some(70));
        Ok(())
    };
    Journal::open(&path)?.import("s", &meta("g"), &all[..100])?;
    assert_eq!(tail_kind(&path)?, 1, "an import stores its tail deflated");
    check(100)?;
    {
        // A single append inflates the tail and writes it back plain, records kept: a
        // hash inside it reads the same from either form.
        let j = Journal::open(&path)?;
        let inside = j.hash_at("s", 50)?;
        j.append("s", 100, &all[100..101])?;
        j.append("s", 101, &all[101..102])?;
        assert_eq!(j.hash_at("s", 50)?, inside);
    }
    assert_eq!(tail_kind(&path)?, 0, "single appends leave the tail plain");
    check(102)?;
    // A batch deflates it again.
    Journal::open(&path)?.append("s", 102, &all[102..300])?;
    assert_eq!(tail_kind(&path)?, 1);
    check(300)?;
    Ok(())
}

/// A stored value: `(tree, key, value)`.
type RawValue = (String, Vec<u8>, Vec<u8>);

/// Every value of the database's heads and events trees at `path`, read with sled alone
/// once the journal is closed.
fn raw_values(path: &std::path::Path) -> Result<Vec<RawValue>, Box<dyn std::error::Error>> {
    let db = common::open_raw(path)?;
    let mut out = Vec::new();
    for tree in [arbiter_journal::layout::HEADS_TREE, arbiter_journal::layout::EVENTS_TREE] {
        for item in db.open_tree(tree)?.iter() {
            let (k, v) = item?;
            out.push((tree.to_string(), k.to_vec(), v.to_vec()));
        }
    }
    Ok(out)
}

/// The common append (a few records that fit in the last block) rewrites that block and
/// nothing else: the head is the block's header, so no transaction over two values is needed.
/// Starting a block moves the head pointer as well; an empty session has an empty block.
#[test]
fn an_append_that_fits_changes_only_the_last_block() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    Journal::open(&path)?.create_session("s", &meta("g"))?;
    {
        let j = Journal::open(&path)?;
        assert_eq!((j.len("s")?, j.check::<Ev>("s")?.is_ok()), (0, true));
        j.append("s", 0, &[ev(0)])?;
    }
    let before = raw_values(&path)?;
    Journal::open(&path)?.append("s", 1, &[ev(1), ev(2)])?;
    let after = raw_values(&path)?;
    let changed: Vec<_> =
        before.iter().zip(&after).filter(|(b, a)| b != a).map(|(b, _)| b.0.clone()).collect();
    assert_eq!((before.len(), after.len()), (2, 2), "one head pointer, one block");
    assert_eq!(changed, [arbiter_journal::layout::EVENTS_TREE]);

    // Fill the block one record at a time; the record after it starts a second block.
    let j = Journal::open(&path)?;
    for seq in 3..=BLOCK_RECORDS {
        j.append("s", seq, &[ev(seq)])?;
    }
    assert!(j.check::<Ev>("s")?.is_ok());
    assert_eq!(read_all(&j, "s", 0)?.len() as u64, BLOCK_RECORDS + 1);
    drop(j);
    let heads: Vec<_> = raw_values(&path)?
        .into_iter()
        .filter(|(tree, _, _)| tree == arbiter_journal::layout::HEADS_TREE)
        .collect();
    assert_eq!(heads.first().map(|(_, _, v)| v.clone()), Some(BLOCK_RECORDS.to_be_bytes().to_vec()));
    Ok(())
}

const KILLED_AFTER_LOGGING: &str = "ARBITER_JOURNAL_TEST_KILLED_AFTER_LOGGING";

/// Single appends a child makes before it is killed: enough that the write-ahead log is
/// checkpointed and started afresh on the way (its entries here are about 70 bytes), so
/// recovery also skips the older entries still lying in the file.
const LOGGED: u64 = 5_000;

/// As the parent: a child appends single records (acknowledged through the write-ahead log,
/// sled left to write them out later) and is killed at once; reopening redoes the log and
/// every acknowledged record is there, checked, and the log holds no live entry again. As the child:
/// append, say how many, wait to be killed.
#[test]
fn appends_acknowledged_through_the_log_survive_a_kill() -> Result<(), Box<dyn std::error::Error>> {
    if let Ok(path) = std::env::var(KILLED_AFTER_LOGGING) {
        let j = Journal::open(&path)?;
        for seq in 0..LOGGED {
            j.append("s", seq, &[ev(seq)])?;
        }
        println!("ACKNOWLEDGED {LOGGED}");
        std::io::stdout().flush()?;
        std::thread::sleep(std::time::Duration::from_secs(60));
        return Ok(());
    }
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    Journal::open(&path)?.create_session("s", &meta("g"))?;
    let mut child = Command::new(std::env::current_exe()?)
        .args([
            "--exact",
            "appends_acknowledged_through_the_log_survive_a_kill",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(KILLED_AFTER_LOGGING, &path)
        .stdout(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no child stdout")?;
    let acknowledged = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .any(|l| l.contains(&format!("ACKNOWLEDGED {LOGGED}")));
    child.kill()?;
    child.wait()?;
    assert!(acknowledged, "the child did not finish appending");
    let live = |dir: &std::path::Path| -> Result<usize, Box<dyn std::error::Error>> {
        Ok(arbiter_journal::layout::wal_entries(dir)?)
    };
    let logged = live(&path)? as u64;
    assert!(
        0 < logged && logged < LOGGED,
        "{logged} appends live in the log: it was started afresh on the way"
    );
    let j = Journal::open(&path)?;
    assert_eq!(read_all(&j, "s", 0)?, (0..LOGGED).map(|i| (i, ev(i))).collect::<Vec<_>>());
    assert!(j.check::<Ev>("s")?.is_ok());
    drop(j);
    assert_eq!(live(&path)?, 0, "redone, then started afresh");
    Ok(())
}

/// A new database uses the journal's segment size, and one made with sled's default segment
/// size (every database made before) still opens, takes appends and reads back.
#[test]
fn a_database_keeps_the_segment_size_it_was_made_with() -> TestResult {
    let dir = tempfile::tempdir()?;
    let new = dir.path().join("new");
    Journal::open(&new)?.create_session("s", &meta("g"))?;
    let conf = String::from_utf8_lossy(&std::fs::read(new.join("conf"))?).into_owned();
    assert!(conf.contains("segment_size: 131072"), "{conf}");

    // sled's default, recorded in its `conf` file when sled first opens the directory.
    let old = dir.path().join("old");
    drop(sled::Config::new().path(&old).open()?);
    for round in 0..2u64 {
        let j = Journal::open(&old)?;
        if round == 0 {
            j.create_session("s", &meta("g"))?;
        }
        j.append("s", round, &[ev(round)])?;
        let read: Vec<_> = j.events::<Ev>("s", 0)?.collect::<Result<_, _>>()?;
        assert_eq!(read.len() as u64, round + 1);
    }
    let conf = String::from_utf8_lossy(&std::fs::read(old.join("conf"))?).into_owned();
    assert!(conf.contains("segment_size: 524288"), "{conf}");

    // A read-write open keeps a copy of `conf`; a lost `conf` is put back from it (in a
    // scratch copy for a read-only open, which writes nothing in place).
    let saved = std::fs::read(old.join("conf"))?;
    assert_eq!(std::fs::read(old.join("arbiter-sled-conf"))?, saved);
    std::fs::remove_file(old.join("conf"))?;
    let read: Vec<_> = Journal::open_read_only(&old)?.events::<Ev>("s", 0)?.collect::<Result<_, _>>()?;
    assert_eq!(read.len(), 2);
    assert!(!old.join("conf").exists(), "a read-only open wrote in place");
    let read: Vec<_> = Journal::open(&old)?.events::<Ev>("s", 0)?.collect::<Result<_, _>>()?;
    assert_eq!(read.len(), 2);
    assert_eq!(std::fs::read(old.join("conf"))?, saved);

    // Without `conf` and its copy, sled cannot tell how the data file is laid out: the open
    // refuses before sled starts, and putting `conf` back opens the database as it was.
    std::fs::remove_file(old.join("conf"))?;
    std::fs::remove_file(old.join("arbiter-sled-conf"))?;
    for attempt in [Journal::open(&old).map(drop), Journal::open_read_only(&old).map(drop)] {
        let e = attempt.err().ok_or("opened without sled's conf")?;
        assert!(e.to_string().contains("`conf` file is missing"), "{e}");
    }
    std::fs::write(old.join("conf"), saved)?;
    let read: Vec<_> = Journal::open(&old)?.events::<Ev>("s", 0)?.collect::<Result<_, _>>()?;
    assert_eq!(read.len(), 2);
    Ok(())
}
