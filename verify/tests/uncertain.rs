//! Uncertain findings (a finding that may follow from an earlier unverified effect) reach every
//! view of a record: verify, replay, explain, the recorder, a snapshot, and the fixture runner,
//! which holds them to `@expect uncertain N RULE` as it holds violations to their lines.
//! `verify --derive` keeps the interpretations a log was replayed under.

mod toy;

use arbiter_journal::Journal;
use arbiter_verify::{
    explain, import_file, replay, run_fixture, snapshot, verify, Context, Recorder, Source, VerifyOptions,
};

/// A log whose record 3 (`add 9`) is wrong, but after a note (record 2) that may explain it.
const TAINTED: &str = "roll 1\nadd 1\nroll 3\nnote the die was turned\nadd 9\nroll 2\nadd 2\n";

#[test]
fn replay_and_explain_show_what_verify_shows() {
    let d = toy::dir("u-views");
    let p = toy::log(&d, "t.arb", TAINTED);
    let s = Source::file(&p);
    let ctx = toy::ctx();
    let v = verify(&ctx, &s, &VerifyOptions::default()).unwrap();
    assert!(v.is_clean(), "{v}");
    assert_eq!(v.summary.uncertain, 1);
    let u = v.uncertain()[0].clone();
    assert_eq!((u.finding.record.index, u.after, u.after_record), (4, 0, Some(3)));

    let r = replay(&ctx, &s, None, &[]).unwrap();
    assert_eq!(r.uncertain, vec![u.clone()], "replay lists the uncertain finding as verify does");
    assert!(r.violations.is_empty());
    assert!(
        r.to_string().contains("record #4 (line 6) `add 9`: uncertain after unverified effect at #3"),
        "{r}"
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["uncertain"][0]["after_record"], 3);
    assert_eq!(json["uncertain"][0]["finding"]["rule"], "toy.add.matches-roll");

    let x = explain(&ctx, &s, 4, &[]).unwrap();
    assert_eq!(x.uncertain, vec![u.clone()]);
    let text = x.to_string();
    assert!(!text.contains("verdict: legal"), "an uncertain record is not called legal:\n{text}");
    assert!(
        text.contains("uncertain after unverified effect at #3 (not counted): toy.add.matches-roll"),
        "{text}"
    );
}

#[test]
fn the_recorder_and_a_snapshot_keep_uncertain_findings() {
    let d = toy::dir("u-session");
    let j = Journal::open(d.join("db")).unwrap();
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let p = toy::log(&d, "t.arb", TAINTED);
    import_file(&ctx, &p, Some("s")).unwrap();
    let mut rec = Recorder::open(&ctx, "s").unwrap();
    rec.submit("roll 4", false).unwrap();
    rec.submit("note again", false).unwrap();
    let at_table = rec.submit("add 1", false).unwrap();
    assert!(at_table.written && at_table.violations.is_empty());
    assert_eq!(at_table.uncertain.len(), 1, "{at_table}");
    assert_eq!((at_table.uncertain[0].after, at_table.uncertain[0].after_record), (1, Some(8)));
    assert!(at_table.to_string().contains("uncertain after unverified effect at #8"), "{at_table}");
    drop(rec);

    let session = Source::session("s");
    let from_zero = replay(&ctx, &session, None, &[]).unwrap();
    assert_eq!(from_zero.uncertain.len(), 2);
    snapshot(&ctx, "s", 5).unwrap();
    let mut cached = replay(&ctx, &session, None, &[]).unwrap();
    assert_eq!(cached.from_snapshot, Some(10), "replay started from the snapshot");
    cached.from_snapshot = None;
    assert_eq!(cached, from_zero, "the snapshot carries the uncertain findings before it");
    let x = explain(&ctx, &session, 9, &[]).unwrap();
    assert_eq!(x.uncertain[0].after_record, Some(8));
}

#[test]
fn fixtures_name_every_uncertain_finding() {
    let d = toy::dir("u-fixtures");
    let named = toy::log(
        &d,
        "named.arb",
        &format!("{TAINTED}@expect clean\n@expect uncertain 4 toy.add.matches-roll\n"),
    );
    let r = run_fixture(&toy::ctx(), &named);
    assert!(r.passed, "{r}");
    // Not a violation: a fixture that does not name it still passes, as with unverified effects.
    let unnamed = toy::log(&d, "unnamed.arb", &format!("{TAINTED}@expect clean\n"));
    let r = run_fixture(&toy::ctx(), &unnamed);
    assert!(r.passed, "{r}");
    let wrong = toy::log(
        &d,
        "wrong.arb",
        &format!(
            "{TAINTED}@expect uncertain 6 toy.add.matches-roll\n@expect uncertain 4 toy.add.matches-roll\n"
        ),
    );
    let r = run_fixture(&toy::ctx(), &wrong);
    assert_eq!(
        r.failures,
        vec![
            "line 9: `@expect uncertain 6 toy.add.matches-roll` not found; record 6 has no uncertain finding"
                .to_string()
        ]
    );
}

#[test]
fn derive_writes_the_interpretations_back() {
    let d = toy::dir("u-derive");
    let p = toy::log(&d, "v.arb", "@variant double=yes\nroll 3\nroll 2\n");
    let s = Source::file(&p).with_variant("cap", "10");
    let options = VerifyOptions { derive: true, ..VerifyOptions::default() };
    let r = verify(&toy::ctx(), &s, &options).unwrap();
    let completed = r.completed.unwrap();
    assert!(completed.contains("@variant double=yes\n@variant cap=10\n"), "{completed}");
    assert!(completed.contains("add 6   # derived"), "derived under the file's reading:\n{completed}");
    // The completed log replays the same way: written to a file, it verifies clean with no
    // override given.
    let back = d.join("completed.arb");
    std::fs::write(&back, &completed).unwrap();
    let again = verify(&toy::ctx(), &Source::file(&back), &VerifyOptions::default()).unwrap();
    assert!(again.is_clean() && again.incomplete.is_none(), "{again}");
    assert_eq!(again.interpretations, vec!["double=yes".to_string(), "cap=10".to_string()]);
}
