//! Sessions in the journal, on the toy game: new, record (strict, undo), import, export_string,
//! log, fork, check, and replay from a snapshot.

mod toy;

use arbiter_journal::Journal;
use arbiter_verify::{
    check, diff, export_string, fork, import_file, log, new_session, replay, verify, Context, DiffOptions,
    ErrorKind, Format, Recorder, Source, SplitReason, VerifyOptions,
};

fn journal(test: &str) -> (toy::Dir, Journal) {
    let d = toy::dir(test);
    let j = Journal::open(d.join("db")).unwrap();
    (d, j)
}

#[test]
fn record_strict_undo_and_verify_a_session() {
    let (_d, j) = journal("s-record");
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let created =
        new_session(&ctx, "s1", "toy", &[("start".into(), "1".into())], None, Some("first")).unwrap();
    assert_eq!((created.records, created.rules_version), (0, 2));
    let mut rec = Recorder::open(&ctx, "s1").unwrap();
    let s = rec.submit("roll 3", false).unwrap();
    assert!(s.written && s.violations.is_empty());
    assert_eq!(s.next_consequence.as_deref(), Some("add 3"));
    let refused = rec.submit("add 4", true).unwrap();
    assert!(!refused.written);
    assert_eq!(refused.violations[0].rule, "toy.add.matches-roll");
    assert!(refused.to_string().contains("refused (--strict)"), "{refused}");
    assert_eq!(rec.len(), 1, "strict wrote nothing");
    let kept = rec.submit("add 4   # a mistake", false).unwrap();
    assert!(kept.written);
    assert_eq!(kept.violations.len(), 1);
    let undone = rec.submit("undo", false).unwrap();
    assert_eq!(undone.retracted, Some(1));
    assert_eq!(rec.state().facts[0].value, "1");
    assert_eq!(rec.state().facts[1].value, "3", "the roll is pending again");
    rec.submit("add 3", false).unwrap();
    let bad = rec.submit("roll 500", false).unwrap();
    assert!(!bad.written && bad.error.is_some());
    let e = rec.submit("roll x", false).unwrap_err();
    assert_eq!(e.message, "column 6: expected a number, found x");
    assert_eq!(rec.len(), 4);

    let report = verify(&ctx, &Source::session("s1"), &VerifyOptions::default()).unwrap();
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.retracted()[0].record.index, 1);
    assert_eq!(report.title.as_deref(), Some("first"));
    assert_eq!(report.final_facts[0].value, "4");
    let l = log(&ctx, &Source::session("s1")).unwrap();
    assert_eq!(l.entries[1].retracted_by, Some(2));
    assert_eq!(l.entries[2].retracts, Some(1));
    assert!(l.to_string().contains("add 4   [retracted by 2]"), "{l}");
    // The session survives a reopen; the recorder rebuilds the same table.
    drop(rec);
    let rec = Recorder::open(&ctx, "s1").unwrap();
    assert_eq!(rec.state().facts[0].value, "4");
    assert_eq!(check(&ctx, "s1").unwrap().exit_code, 0);
}

#[test]
fn import_export_round_trip_and_refusals() {
    let (d, j) = journal("s-import");
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let p = toy::log(&d, "game.arb", "@setup start=2\n@title imported\nroll 1\nadd 9\nundo\nadd 1\n");
    let c = import_file(&ctx, &p, None).unwrap();
    assert_eq!((c.session.as_str(), c.records), ("game", 4));
    let notation = export_string(&ctx, &Source::session("game"), Format::Notation).unwrap();
    assert_eq!(
        notation,
        "@game toy\n@setup start=2\n@catalog none\n@title imported\n@rules 2\nroll 1\nadd 9\nundo\nadd 1\n"
            .replace("@catalog none\n", "")
    );
    let jsonl = export_string(&ctx, &Source::session("game"), Format::Jsonl).unwrap();
    let q = d.join("again.jsonl");
    std::fs::write(&q, &jsonl).unwrap();
    import_file(&ctx, &q, Some("again")).unwrap();
    let r = diff(&ctx, &Source::session("game"), &Source::session("again"), &DiffOptions::default()).unwrap();
    assert!(r.identical, "{r}");
    let e = import_file(&ctx, &p, None).unwrap_err();
    assert!(e.message.contains("already exists"), "{e}");
    let broken = toy::log(&d, "broken.arb", "roll 1\nfly\n");
    assert!(import_file(&ctx, &broken, None).is_err());
    let e = verify(&ctx, &Source::session("broken"), &VerifyOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Session, "a failed import leaves no session: {e}");
    let e = new_session(&ctx, "x", "chess", &[], None, None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownGame);
    let e = new_session(&ctx, "x", "toy", &[("colour".into(), "red".into())], None, None).unwrap_err();
    assert!(e.message.contains("unknown parameter `colour`"), "{e}");
}

#[test]
fn fork_then_diff_splits_at_the_fork_point() {
    let (d, j) = journal("s-fork");
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let p = toy::log(&d, "main.arb", "roll 1\nadd 1\nroll 2\nadd 2\nroll 3\nadd 3\n");
    import_file(&ctx, &p, None).unwrap();
    let f = fork(&ctx, "main", 4, "what-if").unwrap();
    assert_eq!(f.at, 4);
    assert_eq!(f.parent_hash, arbiter_journal::hex(&j.hash_at("main", 4).unwrap()));
    assert_eq!(j.session("what-if").unwrap().parent.unwrap().session, "main");
    let mut rec = Recorder::open(&ctx, "what-if").unwrap();
    rec.submit("roll 6", false).unwrap();
    let r =
        diff(&ctx, &Source::session("main"), &Source::session("what-if"), &DiffOptions::default()).unwrap();
    assert_eq!(r.divergences[0].reason, SplitReason::EventsDiffer);
    assert_eq!(r.divergences[0].a.as_ref().unwrap().index, 4);
    assert_eq!(r.last_agreement.as_ref().unwrap().a.index, 3);
    assert_eq!(j.len("main").unwrap(), 6, "the parent is never modified");
    assert!(fork(&ctx, "main", 7, "too-far").is_err());
    assert!(fork(&ctx, "main", 2, "what-if").is_err());
}

#[test]
fn replay_starts_from_a_snapshot_unless_a_later_undo_reaches_behind_it() {
    let (d, j) = journal("s-snap");
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let p = toy::log(&d, "long.arb", &"roll 1\nadd 1\n".repeat(10));
    import_file(&ctx, &p, None).unwrap();
    // A deliberately different cached state proves the snapshot is what replay starts from.
    let cached = toy::State { count: 100, pending: None, notes: 0, taint: None };
    j.put_snapshot("long", 10, 2, &arbiter_verify::snapshot_bytes(&cached).unwrap()).unwrap();
    let r = replay(&ctx, &Source::session("long"), Some(12), &[]).unwrap();
    assert_eq!(r.from_snapshot, Some(10));
    assert_eq!(r.replayed, 12);
    assert_eq!(r.state.facts[0].value, "101");
    // Under a variant the cache (made under the stored setup) is not used.
    let v = replay(&ctx, &Source::session("long").with_variant("double", "yes"), Some(12), &[]).unwrap();
    assert_eq!((v.from_snapshot, v.state.facts[0].value.as_str()), (None, "6"));
    let early = replay(&ctx, &Source::session("long"), Some(4), &[]).unwrap();
    assert_eq!((early.from_snapshot, early.state.facts[0].value.as_str()), (None, "2"));
    // An undo after the snapshot retracting a record before it makes the snapshot stale.
    let mut rec = Recorder::open(&ctx, "long").unwrap();
    rec.submit("roll 2", false).unwrap();
    j.append::<toy::Event>("long", 21, &[arbiter_journal::Record::Retract(3)]).unwrap();
    let r = replay(&ctx, &Source::session("long"), None, &[]).unwrap();
    assert_eq!(r.from_snapshot, None);
    assert_eq!(r.state.facts[0].value, "9");
    assert!(replay(&ctx, &Source::session("long"), Some(99), &[]).is_err());
}

#[test]
fn a_snapshot_carries_the_findings_before_it_so_replay_reports_the_same() {
    let (d, j) = journal("s-snapfind");
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let p = toy::log(&d, "v.arb", &"roll 9\nadd 9\n".repeat(10));
    import_file(&ctx, &p, None).unwrap();
    let cold = replay(&ctx, &Source::session("v"), Some(15), &[]).unwrap();
    assert_eq!(cold.from_snapshot, None);
    arbiter_verify::snapshot(&ctx, "v", 4).unwrap();
    let warm = replay(&ctx, &Source::session("v"), Some(15), &[]).unwrap();
    assert_eq!(warm.from_snapshot, Some(12), "replay started from the snapshot");
    assert_eq!(warm.violations.len(), 8, "the roll violations of records 0..15");
    assert_eq!(cold.to_string(), warm.to_string());
    assert_eq!(serde_json::to_value(&cold).unwrap(), serde_json::to_value(&warm).unwrap());
}
