//! Model-based test, after sled's own (`tests/tree/mod.rs`): named operations, generated and
//! shrunk by proptest, run against the journal and against a plain `Vec` per session, every
//! observable compared after every step. A failure shrinks to a short list of operations;
//! each one found is kept below as a regression test (`journal_bug_NN`) with a postmortem.
//!
//! `cargo test` runs a few dozen cases; `PROPTEST_CASES=2000 cargo test -p arbiter-journal
//! --test model` runs more. The suite runs once per backend (`common::backends`): sled, and
//! PostgreSQL when a server is there, each case on a fresh database.

mod common;

use arbiter_journal::{codec, link, ErrorKind, Journal, JournalError, Record, SessionMeta};
use common::Backend;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// An event: the journal does not look inside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Roll(Vec<u8>),
    Note(String),
}

/// What the test does to the journal, one step at a time.
#[derive(Debug, Clone)]
enum Op {
    /// A durable single append (through the write-ahead log when it fits the last block).
    Append {
        session: usize,
        event: Ev,
    },
    /// A durable batch (a transaction; blocks are compressed).
    AppendBatch {
        session: usize,
        events: Vec<Ev>,
    },
    /// Appends left to a later flush.
    AppendUnflushed {
        session: usize,
        events: Vec<Ev>,
    },
    /// An append that names a stale (`behind` > 0) or future (`behind` = 0) length:
    /// refused, nothing written.
    Stale {
        session: usize,
        behind: u8,
    },
    /// Retract the record `back` places before the end (when there is one).
    Retract {
        session: usize,
        back: u8,
    },
    Flush,
    /// Drop the journal and open it again.
    Restart,
    /// Drop the journal, compare everything through a read-only open, open it again.
    RestartReadOnly,
    /// The integrity check finds nothing.
    Check {
        session: usize,
    },
    /// Read from a position (a page boundary, the middle of one, the end, past it).
    ReadFrom {
        session: usize,
        from: u16,
    },
}

const SESSIONS: [&str; 2] = ["alpha", "beta"];

fn meta(title: &str) -> SessionMeta {
    SessionMeta { title: title.to_string(), ..common::meta() }
}

fn event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        prop::collection::vec(1u8..7, 0..9).prop_map(Ev::Roll),
        "[a-z ]{0,40}".prop_map(Ev::Note),
        // Larger records fill blocks by bytes before they fill them by count.
        "[a-z]{200,600}".prop_map(Ev::Note),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let session = 0..SESSIONS.len();
    prop_oneof![
        6 => (session.clone(), event()).prop_map(|(session, event)| Op::Append { session, event }),
        1 => (session.clone(), prop::collection::vec(event(), 1..300))
            .prop_map(|(session, events)| Op::AppendBatch { session, events }),
        1 => (session.clone(), prop::collection::vec(event(), 1..40))
            .prop_map(|(session, events)| Op::AppendUnflushed { session, events }),
        1 => (session.clone(), any::<u8>()).prop_map(|(session, behind)| Op::Stale { session, behind }),
        1 => (session.clone(), any::<u8>()).prop_map(|(session, back)| Op::Retract { session, back }),
        1 => Just(Op::Flush),
        1 => Just(Op::Restart),
        1 => Just(Op::RestartReadOnly),
        1 => session.clone().prop_map(|session| Op::Check { session }),
        1 => (session, any::<u16>()).prop_map(|(session, from)| Op::ReadFrom { session, from }),
    ]
}

/// The model of one session: its records, and the chain hash after each prefix (computed
/// with the public `link`, so the journal's chain is checked against the documented one).
struct Session {
    records: Vec<Record<Ev>>,
    /// `hashes[n]`: the chain hash after the first `n` records (`hashes[0]` the genesis).
    hashes: Vec<arbiter_journal::Hash>,
}

impl Session {
    fn push(&mut self, record: Record<Ev>) -> Result<(), TestCaseError> {
        let seq = self.records.len() as u64;
        let last = *self.hashes.last().ok_or_else(|| fail("no genesis"))?;
        self.hashes.push(link(&last, seq, &codec::encode(&record).map_err(|e| fail(e.message))?));
        self.records.push(record);
        Ok(())
    }

    fn len(&self) -> u64 {
        self.records.len() as u64
    }
}

type Model = BTreeMap<&'static str, Session>;

/// Compare what is observable about one session with its model: length, the records from
/// `from` on, retractions, and the chain hash at the end and half-way.
fn compare(j: &Journal, name: &str, model: &Session, from: u64) -> Result<(), TestCaseError> {
    let len = model.len();
    prop_assert_eq!(j.len(name).map_err(fail)?, len);
    let from = from.min(len + 1);
    let read: Vec<(u64, Record<Ev>)> =
        j.events(name, from).map_err(fail)?.collect::<Result<_, _>>().map_err(fail)?;
    let expected: Vec<(u64, Record<Ev>)> =
        (from..len).map(|s| (s, model.records[s as usize].clone())).collect();
    prop_assert_eq!(read, expected, "{} from {}", name, from);
    let retracted: BTreeSet<u64> = model
        .records
        .iter()
        .filter_map(|r| if let Record::Retract(t) = r { Some(*t) } else { None })
        .collect();
    prop_assert_eq!(j.retracted(name).map_err(fail)?, retracted);
    for at in [len, len / 2] {
        prop_assert_eq!(
            j.hash_at(name, at).map_err(fail)?,
            model.hashes[at as usize],
            "{} hash after {}",
            name,
            at
        );
    }
    Ok(())
}

/// Compare every session, each read whole.
fn compare_all(j: &Journal, model: &Model) -> Result<(), TestCaseError> {
    for (name, m) in model {
        compare(j, name, m, 0)?;
    }
    Ok(())
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// Run `ops` on a fresh database of `backend`, comparing with the model after every step.
fn run(backend: Backend, ops: &[Op]) -> Result<(), TestCaseError> {
    let fresh = backend.fresh("model").map_err(fail)?;
    let path = fresh.location.clone();
    let open = |p: &std::path::Path| -> Result<Journal, JournalError> { Journal::open(p) };
    let mut j = Some(open(&path).map_err(fail)?);
    let mut model: Model = BTreeMap::new();
    for name in SESSIONS {
        let journal = j.as_ref().ok_or_else(|| fail("closed"))?;
        journal.create_session(name, &meta(name)).map_err(fail)?;
        let genesis = journal.hash_at(name, 0).map_err(fail)?;
        prop_assert_eq!(genesis, arbiter_journal::genesis(name, &meta(name)).map_err(fail)?);
        model.insert(name, Session { records: Vec::new(), hashes: vec![genesis] });
    }
    for (step, op) in ops.iter().enumerate() {
        let journal = j.as_ref().ok_or_else(|| fail("closed"))?;
        // Each step reads the last records of every session back; some read more.
        let mut from = None;
        match op {
            Op::Append { session, event } => {
                let (name, m) = pick(&mut model, *session)?;
                let len = m.len();
                prop_assert_eq!(
                    journal.append(name, len, &[Record::Event(event.clone())]).map_err(fail)?,
                    len + 1
                );
                m.push(Record::Event(event.clone()))?;
            }
            Op::AppendBatch { session, events } | Op::AppendUnflushed { session, events } => {
                let (name, m) = pick(&mut model, *session)?;
                let len = m.len();
                let records: Vec<Record<Ev>> = events.iter().cloned().map(Record::Event).collect();
                let now = match op {
                    Op::AppendBatch { .. } => journal.append(name, len, &records),
                    _ => journal.append_unflushed(name, len, &records),
                };
                prop_assert_eq!(now.map_err(fail)?, len + records.len() as u64);
                for record in records {
                    m.push(record)?;
                }
            }
            Op::Stale { session, behind } => {
                let (name, m) = pick(&mut model, *session)?;
                let len = m.len();
                let wrong = if *behind > 0 && len > 0 { len - 1 - u64::from(*behind) % len } else { len + 1 };
                let err = journal.append(name, wrong, &[Record::Event(Ev::Note("stale".into()))]).err();
                prop_assert_eq!(err.map(|e| e.kind()), Some(ErrorKind::Conflict), "step {}", step);
            }
            Op::Retract { session, back } => {
                let (name, m) = pick(&mut model, *session)?;
                let len = m.len();
                if len > 0 {
                    let target = len - 1 - u64::from(*back) % len;
                    prop_assert_eq!(
                        journal.append(name, len, &[Record::<Ev>::Retract(target)]).map_err(fail)?,
                        len + 1
                    );
                    m.push(Record::Retract(target))?;
                }
            }
            Op::Flush => journal.flush().map_err(fail)?,
            Op::Restart => {
                drop(j.take());
                j = Some(open(&path).map_err(fail)?);
                from = Some(0);
            }
            Op::RestartReadOnly => {
                drop(j.take());
                let read_only = Journal::open_read_only(&path).map_err(fail)?;
                compare_all(&read_only, &model)?;
                let refused = read_only.append(SESSIONS[0], 0, &[Record::Event(Ev::Roll(vec![]))]).err();
                prop_assert_eq!(refused.map(|e| e.kind()), Some(ErrorKind::ReadOnly));
                drop(read_only);
                j = Some(open(&path).map_err(fail)?);
            }
            Op::Check { session } => {
                let (name, m) = pick(&mut model, *session)?;
                let report = journal.check::<Ev>(name).map_err(fail)?;
                prop_assert!(report.is_ok(), "step {}: {:?}", step, report);
                prop_assert_eq!(report.verified, m.len());
                prop_assert_eq!(report.hash, m.hashes[m.records.len()]);
            }
            Op::ReadFrom { session, from: f } => {
                let (name, m) = pick(&mut model, *session)?;
                compare(journal, name, m, u64::from(*f) % (m.len() + 2))?;
            }
        }
        let journal = j.as_ref().ok_or_else(|| fail("closed"))?;
        for (name, m) in &model {
            compare(journal, name, m, from.unwrap_or(m.len().saturating_sub(30)))?;
        }
    }
    Ok(())
}

fn pick(model: &mut Model, session: usize) -> Result<(&'static str, &mut Session), TestCaseError> {
    let name = SESSIONS[session % SESSIONS.len()];
    let m = model.get_mut(name).ok_or_else(|| fail("no model"))?;
    Ok((name, m))
}

/// Run the generated cases on `backend`.
fn behaves_like_a_vec(backend: Backend) {
    // A few dozen cases keep `cargo test` fast; PROPTEST_CASES runs more.
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(16);
    let config = Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&prop::collection::vec(op(), 0..48), |ops| run(backend, &ops));
    if let Err(e) = result {
        panic!("{}: {e}", backend.name());
    }
}

#[test]
fn the_journal_behaves_like_a_vec_per_session_on_sled() {
    behaves_like_a_vec(Backend::Sled);
}

/// The same cases on PostgreSQL (a test of its own, so the two backends run side by side).
#[test]
fn the_journal_behaves_like_a_vec_per_session_on_postgres() {
    if common::backends("the model test").contains(&Backend::Postgres) {
        behaves_like_a_vec(Backend::Postgres);
    }
}
