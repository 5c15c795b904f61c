//! What the chain promises and what a receipt adds: a session rewritten with a consistent
//! chain passes `check` (the chain is unkeyed: it catches accidents, not forgers), and is
//! caught by the receipt sealed before the rewrite.

mod common;

use arbiter_journal::{ErrorKind, Journal, Record, SealKey};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn records(moves: &[&str]) -> Vec<Record<String>> {
    moves.iter().map(|m| Record::Event(m.to_string())).collect()
}

const GAME: &[&str] = &["roll 1 1 3 3 4 5g", "up 4", "stop", "recover", "roll 2 2 6b", "down 2"];

#[test]
fn a_receipt_holds_for_the_sealed_history_and_what_is_appended_after() -> TestResult {
    let dir = tempfile::tempdir()?;
    let j = Journal::open(dir.path().join("db"))?;
    j.import("disputed", &common::meta(), &records(GAME))?;
    let key = SealKey::generate()?;
    let receipt = j.seal("disputed", &key, 1_700_000_000)?;
    assert_eq!(
        (receipt.records, receipt.head),
        (GAME.len() as u64, j.hash_at("disputed", GAME.len() as u64)?)
    );
    assert_eq!(j.check_receipt("disputed", &receipt, Some(&key.public()))?, None);
    j.append("disputed", GAME.len() as u64, &records(&["stop"]))?;
    assert_eq!(j.check_receipt("disputed", &receipt, None)?, None, "later records are not covered");
    // Read back from its text, as a file would be.
    let read = arbiter_journal::Receipt::parse(&receipt.to_text())?;
    assert_eq!(j.check_receipt("disputed", &read, None)?, None);
    // Sealing needs no write: a read-only open seals too.
    drop(j);
    let ro = Journal::open_read_only(dir.path().join("db"))?;
    assert_eq!(ro.seal("disputed", &key, 1_700_000_100)?.records, GAME.len() as u64 + 1);
    Ok(())
}

/// The forgery the issue found: the history rewritten (`up 4` -> `hold 4`) and stored again
/// with a consistent chain, as export, an editor and import would. `check` cannot tell; the
/// receipt can.
#[test]
fn a_rewritten_history_passes_check_but_not_its_receipt() -> TestResult {
    let key = SealKey::generate()?;
    let dir = tempfile::tempdir()?;
    let receipt = {
        let j = Journal::open(dir.path().join("db"))?;
        j.import("disputed", &common::meta(), &records(GAME))?;
        j.seal("disputed", &key, 1_700_000_000)?
    };
    let mut forged_game = GAME.to_vec();
    forged_game[1] = "hold 4";
    let forged = Journal::open(dir.path().join("forged"))?;
    forged.import("disputed", &common::meta(), &records(&forged_game))?;
    assert!(forged.check::<String>("disputed")?.is_ok(), "the chain alone cannot tell a careful forger");
    let verdict = forged.check_receipt("disputed", &receipt, Some(&key.public()))?.ok_or("forgery passed")?;
    assert!(verdict.contains("rewritten after it was sealed"), "{verdict}");

    // Removed records, changed metadata: caught too.
    let short = dir.path().join("short");
    let j = Journal::open(&short)?;
    j.import("disputed", &common::meta(), &records(&GAME[..4]))?;
    let verdict = j.check_receipt("disputed", &receipt, None)?.ok_or("removal passed")?;
    assert!(verdict.contains("fewer than the 6 sealed"), "{verdict}");
    let retitled = dir.path().join("retitled");
    let j = Journal::open(&retitled)?;
    let meta = arbiter_journal::SessionMeta { title: "a clean game".into(), ..common::meta() };
    j.import("disputed", &meta, &records(GAME))?;
    assert!(j.check_receipt("disputed", &receipt, None)?.is_some(), "a changed title passed");

    // A receipt edited to match the forgery does not verify; one re-signed with the forger's
    // own key verifies only as the forger's.
    let j = forged;
    let head = j.hash_at("disputed", GAME.len() as u64)?;
    let edited =
        receipt.to_text().replace(&arbiter_journal::hex(&receipt.head), &arbiter_journal::hex(&head));
    let edited = arbiter_journal::Receipt::parse(&edited)?;
    let verdict = j.check_receipt("disputed", &edited, None)?.ok_or("edited receipt passed")?;
    assert!(verdict.contains("signature does not verify"), "{verdict}");
    let forger = SealKey::generate()?;
    let resigned = j.seal("disputed", &forger, 1_700_000_000)?;
    assert_eq!(j.check_receipt("disputed", &resigned, None)?, None);
    let verdict =
        j.check_receipt("disputed", &resigned, Some(&key.public()))?.ok_or("forger's key passed")?;
    assert!(verdict.contains("signed by key"), "{verdict}");
    Ok(())
}

#[test]
fn bad_receipt_and_key_files_are_one_clear_error() {
    for text in ["", "arbiter receipt 1\nsession: x\n", "arbiter receipt 1\nsession: x\nrecords: ten\n"] {
        let err = arbiter_journal::Receipt::parse(text).err().map(|e| e.kind());
        assert_eq!(err, Some(ErrorKind::InvalidReceipt), "{text:?}");
    }
    let err = SealKey::parse("arbiter seal key 1\nsecret: zz\n").err().map(|e| e.kind());
    assert_eq!(err, Some(ErrorKind::InvalidReceipt));
}
