//! A database directory whose files were damaged gives one clear error, never a panic and
//! never a silently empty journal.

mod common;

use arbiter_journal::{ErrorKind, Journal};

#[test]
fn damaged_database_files_are_errors() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    // (what, new content of sled's `conf`, new content of its data file `db`)
    type Case = (&'static str, Option<&'static [u8]>, Option<&'static [u8]>);
    let cases: [Case; 3] = [
        ("garbage config", Some(b"garbage\n\xff\xfe"), None),
        ("garbage data file", None, Some(&[0xAA; 4096])),
        ("truncated data file", None, Some(b"")),
    ];
    for (i, (what, conf, data)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("db{i}"));
        Journal::open(&path)?.create_session("s", &common::meta())?;
        if let Some(c) = conf {
            std::fs::write(path.join("conf"), c)?;
        }
        if let Some(d) = data {
            std::fs::write(path.join("db"), d)?;
        }
        let opened = std::panic::catch_unwind(|| Journal::open(&path).map(|j| j.sessions().map(|s| s.len())));
        let Ok(result) = opened else { panic!("{what}: opening panicked") };
        let err = result.err().ok_or_else(|| format!("{what}: opened as if nothing happened"))?;
        assert_eq!(err.kind(), ErrorKind::Storage, "{what}: {err}");
        assert!(err.message().contains(&format!("database `{}`", path.display())), "{what}: {err}");
    }
    Ok(())
}

#[test]
fn another_journal_format_is_refused() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    drop(Journal::open(&path)?);
    {
        let db = common::open_raw(&path)?;
        db.insert(arbiter_journal::layout::FORMAT_KEY, &b"99"[..])?;
        db.flush()?;
    }
    let err = Journal::open(&path).err().ok_or("opened a format-99 journal")?;
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().contains("format \"99\""), "{err}");
    Ok(())
}

/// sled drops everything after the first bad checksum in its data file, so a damaged
/// database can open as an older one; the record of heads catches a lost session, which is
/// named until the loss is accepted.
#[test]
fn lost_sessions_are_reported_until_the_loss_is_accepted() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    let meta = common::meta();
    {
        let j = Journal::open(&path)?;
        j.create_session("first", &meta)?;
        j.create_session("second", &meta)?;
    }
    assert_eq!(Journal::open(&path)?.sessions()?.len(), 2, "a clean reopen is fine");
    {
        // What a truncated log looks like to the journal: the second session is gone.
        let db = common::open_raw(&path)?;
        db.open_tree(arbiter_journal::layout::SESSIONS_TREE)?.remove("second")?;
        db.flush()?;
    }
    let j = Journal::open(&path)?;
    let err = j.sessions().err().ok_or("listed sessions as if none was lost")?;
    assert_eq!(err.kind(), ErrorKind::Lost);
    assert!(err.message().contains("session `second` should hold 0 records"), "{err}");
    assert!(err.message().contains("--accept-loss"), "{err}");
    assert_eq!(j.session("second").err().map(|e| e.kind()), Some(ErrorKind::Lost));
    assert_eq!(j.losses()?.len(), 1);
    assert!(j.check::<String>("first")?.is_ok(), "the other session is intact");
    let accepted = j.accept_loss("second")?.ok_or("no loss to accept")?;
    assert!(accepted.vanished);
    assert_eq!(j.sessions()?.len(), 1);
    drop(j);
    let j = Journal::open(&path)?;
    assert_eq!(j.sessions()?.len(), 1, "the decision is kept");
    assert_eq!(j.session("second").err().map(|e| e.kind()), Some(ErrorKind::SessionNotFound));
    Ok(())
}

/// A changed byte in the record of heads' only (last) entry is damage, not a torn append:
/// reading it as torn would drop the heads, and a session the data file then lost would
/// vanish without a word.
#[test]
fn a_damaged_last_entry_of_the_record_of_heads_is_refused() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    {
        let j = Journal::open(&path)?;
        j.import("game", &common::meta(), &[arbiter_journal::Record::Event("roll".to_string())])?;
    }
    let heads = path.join(arbiter_journal::layout::HEADS_FILE);
    let mut bytes = std::fs::read(&heads)?;
    bytes[20] ^= 0x55;
    std::fs::write(&heads, &bytes)?;
    {
        // The session's data lost as well.
        let db = common::open_raw(&path)?;
        db.open_tree(arbiter_journal::layout::SESSIONS_TREE)?.remove("game")?;
        db.flush()?;
    }
    let err = Journal::open(&path).err().ok_or("opened as a database with no sessions")?;
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().contains("record of session heads"), "{err}");
    assert!(err.message().contains("is damaged at byte"), "{err}");
    Ok(())
}

/// A read-only open looks a session's head up in the record of heads without putting the
/// whole record in a map until many sessions are asked for: a lost session is named either
/// way, the first session a command reads as much as the fortieth.
#[test]
fn a_lost_session_is_named_among_many_by_a_read_only_open() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    let meta = common::meta();
    let names: Vec<String> = (0..40).map(|i| format!("s{i}")).collect();
    {
        let j = Journal::open(&path)?;
        for name in &names {
            j.import(name, &meta, &[arbiter_journal::Record::Event(format!("roll {name}"))])?;
        }
    }
    {
        let db = common::open_raw(&path)?;
        db.open_tree(arbiter_journal::layout::SESSIONS_TREE)?.remove("s7")?;
        db.flush()?;
    }
    // The session a command reads first.
    let j = Journal::open_read_only(&path)?;
    let err = j.session("s7").err().ok_or("read a lost session as if nothing happened")?;
    assert_eq!(err.kind(), ErrorKind::Lost);
    assert!(err.message().contains("session `s7` should hold 1 records"), "{err}");
    drop(j);
    // After every other session was read.
    let j = Journal::open_read_only(&path)?;
    for name in names.iter().filter(|n| *n != "s7") {
        assert_eq!(j.len(name)?, 1, "{name}");
    }
    assert_eq!(j.session("s7").err().map(|e| e.kind()), Some(ErrorKind::Lost));
    assert_eq!(j.losses()?.len(), 1);
    Ok(())
}

#[test]
fn a_directory_of_other_files_is_not_turned_into_a_database() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("notes.txt"), "mine")?;
    let err = Journal::open(dir.path()).err().ok_or("opened a folder of other files")?;
    assert_eq!(err.kind(), ErrorKind::Storage);
    assert!(err.message().contains("not an arbiter database"), "{err}");
    assert!(!dir.path().join("db").exists(), "no sled files were created");
    // An empty directory is fine.
    let empty = tempfile::tempdir()?;
    assert!(Journal::open(empty.path())?.sessions()?.is_empty());
    Ok(())
}

/// sled writes a snapshot to `snap.<lsn>.generating` and renames it into place once whole;
/// a full disk leaves a zero-length one, which sled would then read as its newest snapshot
/// and refuse every later open as corrupted. A read-only open reads around it; a read-write
/// open removes it (sled's previous snapshot and its log give the same state).
#[test]
fn an_unfinished_sled_snapshot_is_recovered_from() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    Journal::open(&path)?.import(
        "s",
        &common::meta(),
        &[arbiter_journal::Record::Event("roll 1 2".to_string())],
    )?;
    let leftover = path.join("snap.FFFFFFFFFFFFFFFF.generating");
    std::fs::write(&leftover, b"")?;
    let ro = Journal::open_read_only(&path)?;
    assert_eq!(ro.len("s")?, 1);
    drop(ro);
    assert!(leftover.exists(), "a read-only open removes nothing");
    let j = Journal::open(&path)?;
    assert_eq!(j.len("s")?, 1);
    assert!(!leftover.exists());
    Ok(())
}
