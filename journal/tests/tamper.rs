//! `check` against a log tampered with directly in sled: each kind of damage is reported at
//! the first sequence number it affects, and reads of damaged records fail naming them.

mod common;

use arbiter_journal::layout::{self, key_seq};
use arbiter_journal::{codec, Journal, JournalError, ProblemKind, Record, SessionMeta, BLOCK_RECORDS};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Note(String),
    Roll(Vec<u8>),
}

type TestResult = Result<(), Box<dyn std::error::Error>>;

const LEN: u64 = BLOCK_RECORDS * 3 + 10;

/// Notes of equal length ("note-00017"), so two can be swapped byte for byte.
fn note(i: u64) -> String {
    format!("note-{i:05}")
}

/// A database with one session "s" of `LEN` notes, with retractions at 50 and 200.
fn build(path: &Path) -> Result<(), JournalError> {
    let records: Vec<Record<Ev>> = (0..LEN)
        .map(|i| match i {
            50 => Record::Retract(49),
            200 => Record::Retract(3),
            _ => Record::Event(Ev::Note(note(i))),
        })
        .collect();
    let j = Journal::open(path)?;
    j.import("s", &common::meta(), &records)?;
    assert!(j.check::<Ev>("s")?.is_ok());
    Ok(())
}

/// Open the database with sled alone and change it.
fn tamper(path: &Path, change: impl FnOnce(&sled::Tree) -> sled::Result<()>) -> TestResult {
    let db = common::open_raw(path)?;
    change(&db.open_tree(layout::EVENTS_TREE)?)?;
    db.flush()?;
    Ok(())
}

/// The key of the block holding record `seq` (one session, so the only id present).
fn block_key(events: &sled::Tree, seq: u64) -> sled::Result<sled::IVec> {
    let mut found = None;
    for item in events.iter() {
        let (k, _) = item?;
        if key_seq(&k).is_some_and(|first| first <= seq) {
            found = Some(k);
        }
    }
    found.ok_or_else(|| sled::Error::Unsupported("no block".to_string()))
}

/// The block stored under `key` in its plain form (blocks may be stored compressed), to
/// edit and store back plain: the journal reads both forms.
fn plain_value(events: &sled::Tree, key: &[u8]) -> sled::Result<Vec<u8>> {
    let value = events.get(key)?.ok_or_else(|| sled::Error::Unsupported("no block".to_string()))?;
    layout::plain_block(&value).map_err(sled::Error::Unsupported)
}

/// Replace the first occurrence of `from` in the block holding `seq` by `to` (same length).
fn replace_in_block(events: &sled::Tree, seq: u64, from: &[u8], to: &[u8]) -> sled::Result<()> {
    let key = block_key(events, seq)?;
    let mut value = plain_value(events, &key)?;
    let at = value.windows(from.len()).position(|w| w == from);
    let at = at.ok_or_else(|| sled::Error::Unsupported("pattern not in block".to_string()))?;
    value[at..at + to.len()].copy_from_slice(to);
    events.insert(key, value)?;
    Ok(())
}

/// Check the tampered session: the first problem must be `kind` at `seq`.
fn expect_problem(path: &Path, seq: u64, kind: ProblemKind) -> TestResult {
    let j = Journal::open(path)?;
    let report = j.check::<Ev>("s")?;
    let problem = report.problem.clone().ok_or("check found nothing")?;
    assert_eq!((problem.seq, problem.kind), (seq, kind), "{}", problem.message);
    assert!(problem.message.contains(&format!("record {seq}")), "{}", problem.message);
    // The chain is walked up to the damage; the index is compared after a whole walk.
    let verified = if kind == ProblemKind::Retractions { LEN } else { seq };
    assert_eq!(report.verified, verified);
    Ok(())
}

fn fresh() -> Result<(tempfile::TempDir, std::path::PathBuf), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    build(&path)?;
    Ok((dir, path))
}

#[test]
fn a_modified_record_is_found_where_it_changed() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| replace_in_block(t, 140, note(140).as_bytes(), note(141).as_bytes()))?;
    expect_problem(&path, 140, ProblemKind::HashMismatch)?;
    // Reads verify the chain of what they read: the changed record is never handed out
    // (nor any other of its block), and the error names it.
    let j = Journal::open(&path)?;
    let read: Vec<_> = j.events::<Ev>("s", 0)?.collect();
    assert_eq!(read.len(), 1, "the error first, then nothing");
    let err = read.into_iter().find_map(Result::err).ok_or("read a changed record")?;
    assert_eq!((err.kind(), err.seq()), (arbiter_journal::ErrorKind::Corrupt, Some(140)));
    assert!(err.message().contains("record 140"), "{err}");
    // From a later block, the damage is not read and not in the way.
    let later: Result<Vec<_>, _> = j.events::<Ev>("s", BLOCK_RECORDS)?.collect();
    assert_eq!(later?.len() as u64, LEN - BLOCK_RECORDS);
    Ok(())
}

#[test]
fn reordered_records_are_found_at_the_first_moved_one() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        // Swap records 20 and 21 inside their block, tags and all.
        let key = block_key(t, 20)?;
        let mut v = plain_value(t, &key)?;
        let find = |v: &[u8], s: &str| v.windows(s.len()).position(|w| w == s.as_bytes());
        let (a, b) = (find(&v, &note(20)), find(&v, &note(21)));
        let (Some(a), Some(b)) = (a, b) else { return Err(sled::Error::Unsupported("notes".into())) };
        // Each record is [0][len][bytes][tag], its bytes ending with the 10-byte note; equal
        // lengths make the distance between two notes the size of a whole record.
        let (end_a, end_b) = (a + 10 + arbiter_journal::TAG_LEN, b + 10 + arbiter_journal::TAG_LEN);
        let start_a = end_a - (b - a);
        let whole_a = v[start_a..end_a].to_vec();
        let whole_b = v[end_a..end_b].to_vec();
        v[start_a..start_a + whole_b.len()].copy_from_slice(&whole_b);
        v[start_a + whole_b.len()..end_b].copy_from_slice(&whole_a);
        t.insert(key, v)?;
        Ok(())
    })?;
    expect_problem(&path, 20, ProblemKind::HashMismatch)
}

#[test]
fn a_removed_block_is_a_gap() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        let key = block_key(t, BLOCK_RECORDS)?;
        t.remove(key).map(|_| ())
    })?;
    expect_problem(&path, BLOCK_RECORDS, ProblemKind::Gap)?;
    let j = Journal::open(&path)?;
    let err = j.events::<Ev>("s", 0)?.find_map(Result::err).ok_or("reading went through a gap")?;
    assert_eq!((err.session(), err.seq()), (Some("s"), Some(BLOCK_RECORDS)));
    Ok(())
}

#[test]
fn a_removed_tail_is_a_gap() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        let key = block_key(t, LEN - 1)?;
        t.remove(key).map(|_| ())
    })?;
    expect_problem(&path, BLOCK_RECORDS * 3, ProblemKind::Gap)
}

#[test]
fn swapped_blocks_are_misplaced() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        let (k1, k2) = (block_key(t, BLOCK_RECORDS)?, block_key(t, BLOCK_RECORDS * 2)?);
        let (v1, v2) = (t.get(&k1)?, t.get(&k2)?);
        t.insert(&k1, v2.unwrap_or_default())?;
        t.insert(&k2, v1.unwrap_or_default())?;
        Ok(())
    })?;
    expect_problem(&path, BLOCK_RECORDS, ProblemKind::Misplaced)?;
    let j = Journal::open(&path)?;
    let err = j.events::<Ev>("s", 5)?.find_map(Result::err).ok_or("reading went through swapped blocks")?;
    assert_eq!(err.seq(), Some(BLOCK_RECORDS));
    Ok(())
}

#[test]
fn undecodable_bytes_are_named_by_check_and_by_reading() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    {
        // A record whose encoding is valid for another type: the chain holds, decoding fails.
        let j = Journal::open(&path)?;
        let mut records: Vec<Record<Ev>> = (0..30).map(|i| Record::Event(Ev::Note(note(i)))).collect();
        records[7] = Record::Event(Ev::Roll(vec![9, 9]));
        j.import("s", &common::meta(), &records)?;
    }
    #[derive(Debug, Serialize, Deserialize)]
    enum OnlyNotes {
        Note(String),
    }
    let j = Journal::open(&path)?;
    let report = j.check::<OnlyNotes>("s")?;
    let problem = report.problem.ok_or("check found nothing")?;
    assert_eq!((problem.seq, problem.kind), (7, ProblemKind::Undecodable));
    let results: Vec<_> = j.events::<OnlyNotes>("s", 0)?.collect();
    assert_eq!(results.len(), 8, "seven records, then the error, then nothing");
    let err = results.into_iter().find_map(Result::err).ok_or("no error")?;
    assert_eq!((err.session(), err.seq()), (Some("s"), Some(7)));
    assert!(err.message().contains("session `s`") && err.message().contains("record 7"), "{}", err.message());
    Ok(())
}

#[test]
fn broken_framing_and_appended_garbage_are_found() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        // Cut the last block in the middle of a record.
        let key = block_key(t, LEN - 1)?;
        let v = plain_value(t, &key)?;
        t.insert(key, &v[..v.len() - 3]).map(|_| ())
    })?;
    expect_problem(&path, LEN - 1, ProblemKind::Framing)?;

    let (_dir2, path2) = fresh()?;
    tamper(&path2, |t| {
        // A forged extra record after the head's end.
        let key = block_key(t, LEN - 1)?;
        let mut v = plain_value(t, &key)?;
        let forged = codec::encode(&Record::Event(Ev::Note(note(LEN))))
            .map_err(|e| sled::Error::Unsupported(e.message))?;
        v.push(0);
        v.push(forged.len() as u8);
        v.extend_from_slice(&forged);
        v.extend_from_slice(&[0; arbiter_journal::TAG_LEN]);
        t.insert(key, v).map(|_| ())
    })?;
    expect_problem(&path2, LEN, ProblemKind::Extra)
}

#[test]
fn a_dropped_retraction_index_entry_is_found() -> TestResult {
    let (_dir, path) = fresh()?;
    {
        let db = common::open_raw(&path)?;
        let index = db.open_tree(layout::RETRACTIONS_TREE)?;
        let key = index.iter().keys().flatten().find(|k| key_seq(k) == Some(200)).ok_or("no entry")?;
        index.remove(key)?;
        db.flush()?;
    }
    expect_problem(&path, 200, ProblemKind::Retractions)?;
    // Replay skips records by the index, so reading holds the index to the records too.
    let j = Journal::open(&path)?;
    let err = j.events::<Ev>("s", 0)?.find_map(Result::err).ok_or("read past a damaged index")?;
    assert_eq!(err.seq(), Some(200), "{err}");
    let reader = j.read_session::<Ev>("s", 100)?;
    assert!(reader.events.into_iter().any(|r| r.is_err()), "read past a damaged index from 100");
    Ok(())
}

#[test]
fn changed_metadata_breaks_the_chain_at_record_zero() -> TestResult {
    let (_dir, path) = fresh()?;
    {
        let db = common::open_raw(&path)?;
        let sessions = db.open_tree(layout::SESSIONS_TREE)?;
        let value = sessions.get("s")?.ok_or("no session")?;
        let (id, mut m): (u64, SessionMeta) = codec::decode(&value)?;
        m.title = "rewritten history".to_string();
        sessions.insert("s", codec::encode(&(id, &m))?)?;
        db.flush()?;
    }
    expect_problem(&path, 0, ProblemKind::HashMismatch)
}

#[test]
fn appending_to_a_tampered_tail_is_refused() -> TestResult {
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        // Drop the last record whole: "new record" byte, length byte, the 13-byte encoded
        // note, tag.
        let key = block_key(t, LEN - 1)?;
        let v = plain_value(t, &key)?;
        let framed = 2 + 13 + arbiter_journal::TAG_LEN;
        t.insert(key, &v[..v.len() - framed]).map(|_| ())
    })?;
    expect_problem(&path, LEN - 1, ProblemKind::Gap)?;
    let j = Journal::open(&path)?;
    let err = j.append("s", LEN, &[Record::Event(Ev::Note(note(LEN)))]).err().map(|e| e.kind());
    assert_eq!(err, Some(arbiter_journal::ErrorKind::Corrupt));
    assert_eq!(j.len("s")?, LEN, "nothing was written");
    Ok(())
}

/// Whatever single byte of whatever block changes, `check` reports a problem and reading
/// returns (records or an error) without panicking.
#[test]
fn any_changed_byte_in_a_block_is_caught() -> TestResult {
    let (_dir, path) = fresh()?;
    {
        // Sealed blocks are stored compressed: their bytes are changed here too.
        let db = common::open_raw(&path)?;
        let events = db.open_tree(layout::EVENTS_TREE)?;
        let compressed = events
            .iter()
            .values()
            .filter(|v| v.as_ref().is_ok_and(|v| v.get(layout::BODY_KIND_AT) == Some(&1)))
            .count();
        assert!(compressed >= 3, "{compressed} compressed blocks");
    }
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..40 {
        let (key, original, at) = {
            let db = common::open_raw(&path)?;
            let events = db.open_tree(layout::EVENTS_TREE)?;
            let keys: Vec<sled::IVec> = events.iter().keys().collect::<Result<_, _>>()?;
            let key = keys[(next() % keys.len() as u64) as usize].clone();
            let original = events.get(&key)?.ok_or("block vanished")?;
            let at = (next() % original.len() as u64) as usize;
            let mut changed = original.to_vec();
            changed[at] ^= 1 + (next() % 255) as u8;
            events.insert(&key, changed)?;
            db.flush()?;
            (key, original, at)
        };
        {
            let j = Journal::open(&path)?;
            let report = j.check::<Ev>("s")?;
            let first = key_seq(&key).unwrap_or(0);
            assert!(report.problem.is_some(), "round {round}: byte {at} of block {first} changed unnoticed");
            // Reading gives the untouched records before the damaged block, then an error
            // naming a record of that block (never a changed record).
            if let Ok(events) = j.events::<Ev>("s", 0) {
                let read: Vec<_> = events.collect();
                let good = read.iter().take_while(|r| r.is_ok()).count() as u64;
                assert!(good <= first, "round {round}: read past damage at block {first}");
                let err = read.into_iter().find_map(Result::err);
                assert!(err.is_some(), "round {round}: byte {at} of block {first} read unnoticed");
            }
        }
        let db = common::open_raw(&path)?;
        db.open_tree(layout::EVENTS_TREE)?.insert(&key, original)?;
        db.flush()?;
    }
    assert!(Journal::open(&path)?.check::<Ev>("s")?.is_ok(), "restored after the last round");
    Ok(())
}

/// A sealed block's header counts its records and holds the hash after the last one
/// (format 1 byte, first sequence 8, previous hash 32, count 4, last hash 32): each is
/// held to the records, so changing either is found at that block.
#[test]
fn a_changed_count_or_last_hash_in_a_block_header_is_found() -> TestResult {
    const COUNT: std::ops::Range<usize> = 41..45;
    const LAST: std::ops::Range<usize> = 45..77;
    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        let key = block_key(t, BLOCK_RECORDS)?;
        let mut v = plain_value(t, &key)?;
        v[COUNT].copy_from_slice(&(BLOCK_RECORDS as u32 + 1).to_be_bytes());
        t.insert(key, v).map(|_| ())
    })?;
    expect_problem(&path, BLOCK_RECORDS * 2, ProblemKind::Gap)?;

    let (_dir, path) = fresh()?;
    tamper(&path, |t| {
        let key = block_key(t, BLOCK_RECORDS)?;
        let mut v = plain_value(t, &key)?;
        v[LAST.start] ^= 1;
        t.insert(key, v).map(|_| ())
    })?;
    expect_problem(&path, BLOCK_RECORDS * 2 - 1, ProblemKind::HashMismatch)
}
