//! `replay` and `explain` on the toy game.

mod toy;

use arbiter_verify::{explain, replay, ErrorKind, Source};

#[test]
fn replay_to_n_shows_the_state_after_records_0_to_n() {
    let d = toy::dir("r-replay");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 4\nroll 2\nadd 2\n");
    let s = Source::file(&p);
    let r = replay(&toy::ctx(), &s, Some(2), &[]).unwrap();
    assert_eq!(r.replayed, 2);
    assert_eq!(r.state.facts[0].value, "4");
    assert_eq!(r.violations.len(), 1, "findings so far");
    assert!(r.to_string().contains("counter at 4"), "{r}");
    assert_eq!(r.state.digest.len(), 64);
    let zero = replay(&toy::ctx(), &s, Some(0), &[]).unwrap();
    assert_eq!(zero.state.facts[0].value, "0");
    let all = replay(&toy::ctx(), &s, None, &[]).unwrap();
    assert_eq!((all.replayed, all.total), (4, 4));
    assert_eq!(r.total, 4, "the log length, however far replay went");
    assert_ne!(all.state.digest, r.state.digest);
    let e = replay(&toy::ctx(), &s, Some(5), &[]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Argument);
    assert!(e.message.ends_with("cannot replay to record 5: the log holds 4 records"), "{e}");
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["state"]["facts"][0]["key"], "count");
}

#[test]
fn explain_shows_before_rules_verdict_and_after() {
    let d = toy::dir("r-explain");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 4\nundo\nadd 3\nroll 300\n");
    let s = Source::file(&p);
    let ctx = toy::ctx();
    let x = explain(&ctx, &s, 1, &[]).unwrap();
    assert_eq!(x.status, "retracted");
    assert!(x.to_string().contains("retracted by a later record"), "{x}");
    let x = explain(&ctx, &s, 3, &[("double".into(), "yes".into())]).unwrap();
    assert_eq!(x.record.notation, "add 3");
    assert!(x.consequence);
    assert_eq!(x.rules_say.as_deref(), Some("add 6"));
    assert_eq!(x.violations[0].rule, "toy.add.matches-roll");
    assert_eq!(x.before.facts[1].value, "3");
    assert_eq!(x.after.as_ref().unwrap().facts[0].value, "3");
    let text = x.to_string();
    assert!(text.contains("the rules say: `add 6` comes next"), "{text}");
    assert!(text.contains("violation of toy.add.matches-roll"), "{text}");
    assert!(text.contains("rule:     Add what the die shows. [Adding]"), "{text}");
    let legal = explain(&ctx, &s, 0, &[]).unwrap();
    assert!(legal.to_string().contains("verdict: legal"));
    assert!(legal.rules_say.is_none());
    let undo = explain(&ctx, &s, 2, &[]).unwrap();
    assert_eq!((undo.status.as_str(), undo.retracts), ("retraction", Some(1)));
    let stop = explain(&ctx, &s, 4, &[]).unwrap();
    assert_eq!(stop.status, "unapplicable");
    assert!(stop.after.is_none());
    let e = explain(&ctx, &s, 9, &[]).unwrap_err();
    assert!(e.message.ends_with("replay stops before record 9 (an earlier record cannot be applied)"), "{e}");
    let q = toy::log(&d, "b.arb", "roll 3\n");
    let e = explain(&ctx, &Source::file(&q), 1, &[]).unwrap_err();
    assert!(e.message.ends_with("no record 1: the log holds 1 records"), "{e}");
}

#[test]
fn replay_total_counts_records_not_directives_in_both_formats() {
    let d = toy::dir("r-total");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 3\n@expect clean\nroll 2\nundo\n");
    let j = d.join("a.jsonl");
    std::fs::write(
        &j,
        "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":3}}\n{\"directive\":\"@expect clean\"}\n{\"event\":{\"Add\":3}}\n\n{\"event\":{\"Roll\":2}}\n{\"retract\":2}\n",
    )
    .unwrap();
    for s in [Source::file(&p), Source::file(&j)] {
        let r = replay(&toy::ctx(), &s, Some(1), &[]).unwrap();
        assert_eq!((r.replayed, r.total), (1, 4), "{s}");
    }
}
