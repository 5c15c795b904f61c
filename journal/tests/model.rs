//! Model-based test: random operations run against the journal and against a plain `Vec`
//! per session, compared after every step (sled's own `tests/tree` does the same).

mod common;

use arbiter_journal::{codec, link, ErrorKind, Journal, JournalError, Record, SessionMeta};
use common::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Ev {
    Roll(Vec<u8>),
    Note(String),
}

fn meta(title: &str) -> SessionMeta {
    SessionMeta {
        game: "model".to_string(),
        setup: BTreeMap::new(),
        catalog: None,
        rules_version: 3,
        created: 42,
        title: title.to_string(),
        parent: None,
    }
}

fn random_records(rng: &mut Rng, len: u64, count: u64) -> Vec<Record<Ev>> {
    (len..len + count)
        .map(|seq| match rng.below(10) {
            0 if seq > 0 => Record::Retract(rng.below(seq)),
            1..=4 => Record::Event(Ev::Note("n".repeat(rng.below(40) as usize))),
            _ => Record::Event(Ev::Roll((0..rng.below(9)).map(|_| rng.below(6) as u8 + 1).collect())),
        })
        .collect()
}

/// Compare everything observable about one session with its model.
fn compare(j: &Journal, name: &str, model: &[Record<Ev>], rng: &mut Rng) -> Result<(), JournalError> {
    let len = model.len() as u64;
    assert_eq!(j.len(name)?, len);
    let from = rng.below(len + 2);
    let read: Vec<(u64, Record<Ev>)> = j.events(name, from)?.collect::<Result<_, _>>()?;
    let expected: Vec<(u64, Record<Ev>)> = (from..len).map(|s| (s, model[s as usize].clone())).collect();
    assert_eq!(read, expected, "{name} from {from}");
    let retracted: BTreeSet<u64> =
        model.iter().filter_map(|r| if let Record::Retract(t) = r { Some(*t) } else { None }).collect();
    assert_eq!(j.retracted(name)?, retracted);
    // The chain: recompute it from the model with the public link function.
    let at = rng.below(len + 1);
    let mut h = j.hash_at(name, 0)?;
    for (seq, r) in model[..at as usize].iter().enumerate() {
        let bytes = codec::encode(r).map_err(|e| panic!("{e}"))?;
        h = link(&h, seq as u64, &bytes);
    }
    assert_eq!(j.hash_at(name, at)?, h, "{name} hash after {at}");
    Ok(())
}

fn run(seed: u64, dir: &Path) -> Result<(), JournalError> {
    let mut rng = Rng(seed);
    let path = dir.join(format!("db-{seed}"));
    let mut j = Journal::open(&path)?;
    let names = ["alpha", "beta"];
    let mut models: BTreeMap<&str, Vec<Record<Ev>>> = BTreeMap::new();
    for name in names {
        j.create_session(name, &meta(name))?;
        models.insert(name, Vec::new());
    }
    for step in 0..120 {
        let name = names[rng.below(2) as usize];
        let model = models.get_mut(name).ok_or_else(|| panic!("no model"))?;
        let len = model.len() as u64;
        match rng.below(10) {
            0..=2 => {
                let records = random_records(&mut rng, len, 1);
                assert_eq!(j.append(name, len, &records)?, len + 1);
                model.extend(records);
            }
            3 | 4 => {
                let count = 1 + rng.below(300);
                let records = random_records(&mut rng, len, count);
                assert_eq!(j.append(name, len, &records)?, len + records.len() as u64);
                model.extend(records);
            }
            5 => {
                let count = 1 + rng.below(50);
                let records = random_records(&mut rng, len, count);
                j.append_unflushed(name, len, &records)?;
                model.extend(records);
                j.flush()?;
            }
            6 => {
                // A stale or future expectation: refused, nothing written.
                let wrong =
                    if len > 0 && rng.below(2) == 0 { rng.below(len) } else { len + 1 + rng.below(5) };
                let count = 1 + rng.below(5);
                let records = random_records(&mut rng, wrong, count);
                let err = j.append(name, wrong, &records).err().map(|e| e.kind());
                assert_eq!(err, Some(ErrorKind::Conflict), "step {step}");
            }
            7 => {
                drop(j);
                j = Journal::open(&path)?;
            }
            8 => {
                let report = j.check::<Ev>(name)?;
                assert!(report.is_ok(), "seed {seed} step {step}: {report:?}");
                assert_eq!(report.verified, len);
            }
            _ => {}
        }
        for (n, m) in &models {
            compare(&j, n, m, &mut rng)?;
        }
    }
    Ok(())
}

#[test]
fn the_journal_behaves_like_a_vec_per_session() -> Result<(), JournalError> {
    let dir = tempfile::tempdir().map_err(|e| panic!("{e}"))?;
    for seed in [1, 0xdead_beef, 0x1234_5678_9abc] {
        run(seed, dir.path())?;
    }
    Ok(())
}
