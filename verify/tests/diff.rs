//! `diff` on the toy game: every split reason, at the first, a middle and the last record.

mod toy;

use arbiter_verify::{diff, DiffOptions, DiffReport, Source, SplitReason};

fn run(a: &str, b: &str, options: &DiffOptions) -> DiffReport {
    let d = toy::dir(&format!(
        "diff-{:x}",
        a.len() * 7919 + b.len() * 31 + a.bytes().map(usize::from).sum::<usize>()
    ));
    let pa = toy::log(&d, "a.arb", a);
    let pb = toy::log(&d, "b.arb", b);
    diff(&toy::ctx(), &Source::file(pa), &Source::file(pb), options).unwrap()
}

const BASE: &str = "roll 1\nadd 1\nroll 2\nadd 2\nroll 3\nadd 3\n";

#[test]
fn identical_logs() {
    let r = run(BASE, BASE, &DiffOptions::default());
    assert!(r.identical);
    assert_eq!(r.exit_code, 0);
    assert_eq!(r.compared, 6);
    assert_eq!(r.last_agreement.as_ref().unwrap().a.index, 5);
    assert_eq!(r.last_agreement.as_ref().unwrap().digest.len(), 64);
    assert!(r.to_string().contains("identical: 6 records compared"), "{r}");
}

#[test]
fn split_at_the_first_record() {
    let r = run(BASE, "roll 4\nadd 4\n", &DiffOptions::default());
    assert_eq!(r.exit_code, 1);
    assert!(r.last_agreement.is_none());
    let d = &r.divergences[0];
    assert_eq!(d.reason, SplitReason::EventsDiffer);
    assert_eq!((d.a.as_ref().unwrap().index, d.b.as_ref().unwrap().notation.as_str()), (0, "roll 4"));
    assert_eq!(r.divergences.len(), 1);
}

#[test]
fn split_in_the_middle_with_context_and_state_diff() {
    let b = "roll 1\nadd 1\nroll 2\nadd 2\nroll 5\nadd 5\n";
    let r = run(BASE, b, &DiffOptions { context: 2, ..Default::default() });
    let l = r.last_agreement.as_ref().unwrap();
    assert_eq!((l.a.index, l.a.notation.as_str()), (3, "add 2"));
    assert_eq!(r.context.iter().map(|c| c.a.index).collect::<Vec<_>>(), vec![2, 3]);
    let d = &r.divergences[0];
    assert_eq!(d.a.as_ref().unwrap().index, 4);
    assert_eq!(d.state_diff.iter().find(|f| f.key == "pending").unwrap().b.as_deref(), Some("5"));
    let text = r.to_string();
    assert!(
        text.contains("first split: the events differ — A records `roll 3`, B records `roll 5`"),
        "{text}"
    );
    assert!(text.contains("pending: 3 -> 5"), "{text}");
}

#[test]
fn split_at_the_last_record_by_verdict() {
    let b = "roll 1\nadd 1\nroll 2\nadd 2\nroll 3\nadd 4\n";
    let r = run(BASE, b, &DiffOptions::default());
    let d = &r.divergences[0];
    assert_eq!(d.reason, SplitReason::EventsDiffer);
    assert_eq!(d.a.as_ref().unwrap().index, 5);
    assert_eq!(d.b_verdict.len(), 1);
    assert!(d.b_verdict[0].starts_with("toy.add.matches-roll"));
}

#[test]
fn split_by_prefix() {
    let r = run(BASE, "roll 1\nadd 1\nroll 2\n", &DiffOptions::default());
    let d = &r.divergences[0];
    assert_eq!(d.reason, SplitReason::Prefix);
    assert!(d.b.is_none());
    assert_eq!(d.a.as_ref().unwrap().notation, "add 2");
    assert_eq!(r.last_agreement.as_ref().unwrap().a.index, 2);
    assert!(
        d.explanation.starts_with("B ends after 3 compared records; A goes on with `add 2`"),
        "{}",
        d.explanation
    );
}

#[test]
fn split_by_variant_same_events_different_states() {
    let d = toy::dir("diff-variant");
    let p = toy::log(&d, "a.arb", "roll 1\nadd 1\nroll 2\nadd 2\n");
    let a = Source::file(&p);
    let b = Source::file(&p).with_variant("double", "yes");
    let r = diff(&toy::ctx(), &a, &b, &DiffOptions::default()).unwrap();
    let first = &r.divergences[0];
    // The add itself is a violation under double=yes, with the same state: the verdict splits.
    assert_eq!(first.reason, SplitReason::VerdictsDiffer);
    assert_eq!(first.a.as_ref().unwrap().index, 1);
    assert!(r.to_string().contains(&format!("B: {}@double=yes", p.display())));
}

#[test]
fn states_differ_when_the_same_events_mean_different_things() {
    let d = toy::dir("diff-states");
    let p = toy::log(&d, "a.arb", "@setup start=1\nroll 2\n");
    let q = toy::log(&d, "b.arb", "roll 2\n");
    let r = diff(&toy::ctx(), &Source::file(&p), &Source::file(&q), &DiffOptions::default()).unwrap();
    assert_eq!(r.divergences[0].reason, SplitReason::SetupDiffers);
    let r = diff(
        &toy::ctx(),
        &Source::file(&p),
        &Source::file(&q),
        &DiffOptions { all: true, ..Default::default() },
    )
    .unwrap();
    assert_eq!(r.divergences.len(), 1, "same event on unequal states is no new split: {r}");
    // States differ after the same event under the old rules, where a 6 adds nothing.
    let s = toy::log(&d, "c.arb", "roll 6\nadd 6\nroll 1\n");
    let r = diff(
        &toy::ctx(),
        &Source::file(&s),
        &Source::file(&s).with_variant("rules", "1"),
        &DiffOptions::default(),
    )
    .unwrap();
    assert_eq!(r.divergences[0].reason, SplitReason::VerdictsDiffer);
}

#[test]
fn split_by_interpretation_that_changes_the_state() {
    let d = toy::dir("diff-cap");
    let p = toy::log(&d, "a.arb", "roll 6\nadd 6\nroll 6\nadd 6\nroll 1\nadd 1\n");
    let r = diff(
        &toy::ctx(),
        &Source::file(&p),
        &Source::file(&p).with_variant("cap", "10"),
        &DiffOptions::default(),
    )
    .unwrap();
    let first = &r.divergences[0];
    assert_eq!(first.reason, SplitReason::StatesDiffer);
    assert_eq!(first.a.as_ref().unwrap().index, 3);
    assert_eq!(r.last_agreement.as_ref().unwrap().a.index, 2);
    assert_eq!(first.state_diff[0].a.as_deref(), Some("12"));
    assert_eq!(first.state_diff[0].b.as_deref(), Some("10"));
    assert_eq!(first.explanation, "`add 6` leaves different states (cap: A none, B 10)");
}

#[test]
fn all_reports_every_later_divergence() {
    let b = "roll 2\nadd 2\nroll 2\nadd 2\nroll 3\nadd 9\n";
    let r = run(BASE, b, &DiffOptions { all: true, ..Default::default() });
    let reasons: Vec<(SplitReason, u64)> =
        r.divergences.iter().map(|d| (d.reason, d.a.as_ref().map_or(99, |v| v.index))).collect();
    assert_eq!(
        reasons,
        vec![(SplitReason::EventsDiffer, 0), (SplitReason::EventsDiffer, 1), (SplitReason::EventsDiffer, 5)],
        "{r}"
    );
}

#[test]
fn retracted_records_do_not_split_and_indices_of_both_sides_are_reported() {
    let b = "roll 1\nadd 7\nundo\nadd 1\nroll 2\nadd 2\nroll 3\nadd 3\n";
    let r = run(BASE, b, &DiffOptions::default());
    assert!(r.identical, "{r}");
    let l = r.last_agreement.as_ref().unwrap();
    assert_eq!((l.a.index, l.b.index), (5, 7));
}

#[test]
fn diffing_against_another_game_or_a_broken_file_is_unusable() {
    let d = toy::dir("diff-bad");
    let p = toy::log(&d, "a.arb", BASE);
    let q = d.join("b.arb");
    std::fs::write(&q, "@game chess\n").unwrap();
    assert!(diff(&toy::ctx(), &Source::file(&p), &Source::file(&q), &DiffOptions::default()).is_err());
}

#[test]
fn the_split_is_found_without_reading_past_it() {
    // B has a line that does not parse after the split: diff must stop before reading it.
    let r = run(BASE, "roll 6\nthis is not toy notation\n", &DiffOptions::default());
    assert_eq!(r.divergences[0].reason, SplitReason::EventsDiffer);
}

#[test]
fn an_early_split_in_long_logs_steps_only_up_to_the_split() {
    let d = toy::dir("diff-long");
    let tail = "roll 2\nadd 2\n".repeat(50_000);
    let a = toy::log(&d, "a.arb", &format!("roll 1\nadd 1\n{tail}"));
    let b = toy::log(&d, "b.arb", &format!("roll 1\nadd 5\n{tail}"));
    let r = diff(&toy::ctx(), &Source::file(&a), &Source::file(&b), &DiffOptions::default()).unwrap();
    assert_eq!(r.compared, 2, "stepped only the two pairs up to the split");
    assert_eq!(r.divergences[0].a.as_ref().unwrap().index, 1);
}

#[test]
fn a_retraction_far_past_the_split_still_changes_the_answer() {
    // A and B split at record 1 (`add 1` against `add 5`); far later (past the first chunks
    // the retraction scan reads) B withdraws `add 5`, and then the two split elsewhere.
    let d = toy::dir("diff-late-retract");
    let pairs = 10_000;
    let json = |body: &str| format!("{{\"event\":{body}}}\n");
    let mut a = String::from("{\"game\":\"toy\"}\n");
    let mut b = a.clone();
    a.push_str(&json("{\"Roll\":1}"));
    a.push_str(&json("{\"Add\":1}"));
    b.push_str(&json("{\"Roll\":1}"));
    b.push_str(&json("{\"Add\":5}"));
    for _ in 0..pairs {
        a.push_str(&json("{\"Roll\":2}"));
        a.push_str(&json("{\"Add\":2}"));
    }
    let (pa, pb) = (d.join("a.jsonl"), d.join("b.jsonl"));
    std::fs::write(&pa, &a).unwrap();
    let early = |b: &str| {
        std::fs::write(&pb, b).unwrap();
        diff(&toy::ctx(), &Source::file(&pa), &Source::file(&pb), &DiffOptions::default()).unwrap()
    };
    let tail: String = (0..pairs).map(|_| json("{\"Roll\":2}") + &json("{\"Add\":2}")).collect();
    // Without a retraction: the split is the changed record.
    let r = early(&format!("{b}{tail}"));
    assert_eq!(r.divergences[0].a.as_ref().unwrap().index, 1, "{r}");
    assert!(b.len() + tail.len() > 1 << 18, "the retraction lies past the scan's first chunks");
    // Retracting `add 5` at the end (the key spelt plainly, then with escapes): B's record 1
    // is gone, so B's `roll 2` now meets A's `add 1`.
    for key in ["retract", "\\u0072etract"] {
        let r = early(&format!("{b}{tail}{{\"{key}\":1}}\n"));
        let first = &r.divergences[0];
        assert_eq!(first.reason, SplitReason::EventsDiffer, "{key}: {r}");
        assert_eq!((first.a.as_ref().unwrap().index, first.b.as_ref().unwrap().index), (1, 2), "{key}: {r}");
    }
    // The same in notation: an `undo` of every later record and then of `add 5`.
    let na = toy::log(&d, "a.arb", &format!("roll 1\nadd 1\n{}", "roll 2\nadd 2\n".repeat(pairs)));
    let nb = toy::log(
        &d,
        "b.arb",
        &format!("roll 1\nadd 5\n{}{}", "roll 2\nadd 2\n".repeat(pairs), "undo\n".repeat(2 * pairs + 1)),
    );
    let r = diff(&toy::ctx(), &Source::file(&na), &Source::file(&nb), &DiffOptions::default()).unwrap();
    let first = &r.divergences[0];
    assert_eq!(first.reason, SplitReason::Prefix, "{r}");
    assert_eq!(first.a.as_ref().unwrap().index, 1, "B ends after `roll 1`: {r}");
}

#[test]
fn a_later_verdict_split_on_unequal_states_does_not_call_them_the_same() {
    let b = "roll 1\nadd 1\nroll 3\nadd 2\n";
    let r = run("roll 1\nadd 1\nroll 2\nadd 2\n", b, &DiffOptions { all: true, ..Default::default() });
    let text = r.to_string();
    assert_eq!(r.divergences.len(), 2, "{text}");
    assert_eq!(r.divergences[1].reason, SplitReason::VerdictsDiffer);
    assert!(text.contains("then: same event, different verdicts — `add 2` is judged differently"), "{text}");
    assert!(text.contains("the states already differed"), "{text}");
    assert!(!text.contains("same event and state"), "{text}");
}
