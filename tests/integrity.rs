//! Record integrity at the command line: logs that end owing consequences, fields that
//! round-trip, one rule for `import` and `record`, a piped `record` that says what it
//! stored, `fork` and `diff` telling one truth, and fixture expectations written beside the
//! record they name.

mod common;

use common::Sandbox;

/// A Keridwyn fixture whose log stops right after the violation it breaks.
const CUT_SHORT: &str = "fixtures/keridwyn-fight/break-block.arb";

#[test]
fn a_log_that_ends_owing_consequences_is_reported_and_strict_fails_it() {
    let s = Sandbox::new();
    let out = s.run(&["verify", CUT_SHORT]).expect(1).out();
    assert!(
        out.contains("incomplete: the log ends after 24 records and the rules still owe `miss A`"),
        "{out}"
    );
    // A clean log cut short: exit 0 by default (nothing broke a rule), 1 with --strict.
    let clean = s.derive("clean-cut.arb", "fixtures/keridwyn-fight/wyvern-sample-round.arb", |lines| {
        let at = lines.iter().rposition(|l| l.starts_with("roll")).expect("a roll");
        lines.truncate(at + 1);
    });
    let out = s.run(&["verify", &clean]).expect(0).out();
    assert!(out.contains("incomplete:") && out.contains("but the log is incomplete"), "{out}");
    s.run(&["verify", &clean, "--strict"]).expect(1);
    let json: serde_json::Value =
        serde_json::from_str(&s.run(&["verify", &clean, "--json"]).expect(0).out()).expect("JSON");
    assert!(json["incomplete"]["owed"].as_array().is_some_and(|o| !o.is_empty()), "{json}");
    // A complete log owes nothing.
    let out = s.run(&["verify", "fixtures/proving-grounds/game-won.arb", "--strict"]).expect(0).out();
    assert!(!out.contains("incomplete"), "{out}");
}

#[test]
fn fixtures_can_expect_an_incomplete_end_and_a_violation_here() {
    let s = Sandbox::new();
    let owed = s.run(&["verify", CUT_SHORT, "--json"]).out();
    let owed: serde_json::Value = serde_json::from_str(&owed).expect("JSON");
    let first = owed["incomplete"]["owed"][0].as_str().expect("owed").to_string();
    let good = s.path("good.arb");
    let text = std::fs::read_to_string(CUT_SHORT).expect("fixture");
    std::fs::write(&good, format!("{text}\n@expect incomplete {first}\n")).expect("write");
    std::fs::copy("fixtures/keridwyn-fight/wyvern-sample-round.arb", s.path("wyvern-sample-round.arb")).ok();
    let run = |path: &std::path::Path| s.run(&["fixtures", &path.to_string_lossy()]);
    run(&good).expect(0);
    let wrong = s.path("wrong.arb");
    std::fs::write(&wrong, format!("{text}\n@expect incomplete hit A\n")).expect("write");
    let out = run(&wrong).expect(1).out();
    assert!(out.contains(&format!("but the rules first owe `{first}`")), "{out}");
    let complete = s.path("complete.arb");
    let won = std::fs::read_to_string("fixtures/proving-grounds/game-won.arb").expect("fixture");
    std::fs::write(&complete, format!("{won}\n@expect incomplete\n")).expect("write");
    assert!(run(&complete).expect(1).out().contains("ends with nothing owed"));
    // `@expect here RULE` names the record just above it.
    let here = s.derive("here.arb", "fixtures/proving-grounds/break-resolve-separate-dice.arb", |lines| {
        let at =
            lines.iter().position(|l| l.trim_start().starts_with("up 1 2")).expect("the breaking record");
        lines.insert(at + 1, "@expect here pg.resolve.separate-dice   # right after the record".into());
    });
    run(std::path::Path::new(&here)).expect(0);
    let misplaced =
        s.derive("misplaced.arb", "fixtures/proving-grounds/break-resolve-separate-dice.arb", |lines| {
            let at =
                lines.iter().position(|l| l.trim_start().starts_with("up 1 2")).expect("the breaking record");
            lines.insert(at, "@expect here pg.resolve.separate-dice".into());
        });
    let out = run(std::path::Path::new(&misplaced)).expect(1).out();
    assert!(out.contains("not found; record 7 has no violation"), "{out}");
}

#[test]
fn titles_with_hash_signs_newlines_and_escapes_round_trip_through_both_formats() {
    let s = Sandbox::new();
    let title = "Game #3 at Bob's\nsecond line \u{1b}[31m, «ünïcödé» 日本";
    s.run(&["new", "t", "--game", "proving-grounds", "--catalog", "illustrative", "--title", title])
        .expect(0);
    s.run_with_stdin(&["record", "t"], "draw 1 pit-brawler\n").expect(0);
    for (format, file) in [("notation", "t.arb"), ("jsonl", "t.jsonl")] {
        let text = s.run(&["export", "t", "--format", format]).expect(0).out();
        let path = s.path(file);
        std::fs::write(&path, &text).expect("write");
        let session = format!("back-{format}");
        s.run(&["import", &path.to_string_lossy(), "--session", &session]).expect(0);
        assert_eq!(s.run(&["export", &session, "--format", format]).expect(0).out(), text, "{format}");
    }
    let listed = s.run(&["sessions"]).expect(0).out();
    assert!(
        listed.contains("Game #3 at Bob's\\nsecond line \\x1b[31m"),
        "escaped for the terminal: {listed}"
    );
    assert!(!listed.contains('\u{1b}'), "{listed}");
}

#[test]
fn import_follows_the_rule_record_follows_and_stays_all_or_nothing() {
    let s = Sandbox::new();
    let unknown = s.derive("unknown.arb", "fixtures/proving-grounds/game-won.arb", |lines| {
        let at = lines.iter().position(|l| l.starts_with("draw 2")).expect("a draw");
        lines[at] = "draw 2 no-such-card".into();
    });
    s.run(&["import", &unknown, "--session", "u"]).expect_refused("cannot be applied");
    assert!(!s.db().exists(), "a refused import leaves no database behind");
    s.run(&["new", "r", "--game", "proving-grounds", "--catalog", "illustrative"]).expect(0);
    let out = s.run_with_stdin(&["record", "r"], "draw 2 no-such-card\n").expect(1).out();
    assert!(out.contains("cannot be applied") && out.contains("not recorded"), "{out}");
    s.run(&["import", &unknown, "--session", "u"]).expect(2);
    assert!(!s.run(&["sessions"]).expect(0).out().contains("u "), "nothing of the refused file is stored");
}

#[test]
fn a_piped_record_says_exactly_what_it_stored_and_what_not() {
    let s = Sandbox::new();
    s.run(&["new", "p", "--game", "proving-grounds", "--catalog", "illustrative"]).expect(0);
    let input = "draw 1 pit-brawler\ndraw 2 net-thrower\n\ndraw 3 no-such-card\ndraw 3 spear-dancer\nroll 9 9 x\ndraw 4 green-warden\ndraw 5 sand-stalker\n";
    let run = s.run_with_stdin(&["record", "p"], input).expect(2);
    let err = run.err();
    assert!(err.contains("stdin line 6:"), "{err}");
    assert!(err.contains("stored 3 record(s) from stdin (records 0-2, from lines 1-2, 5)"), "{err}");
    assert!(
        err.contains(
            "not stored: line 4 (cannot be applied); line 6: the error above; the 2 line(s) after it were not read"
        ),
        "{err}"
    );
    let log = s.run(&["log", "p"]).expect(0).out();
    assert_eq!(log.lines().count(), 3, "{log}");
    // A line the table cannot apply is skipped and said so, even when all else went well.
    let run = s.run_with_stdin(&["record", "p"], "draw 4 no-such-card\ndraw 4 green-warden\n").expect(1);
    assert!(
        run.err().contains(
            "stored 1 record(s) from stdin (record 3, from line 2); not stored: line 1 (cannot be applied)"
        ),
        "{}",
        run.err()
    );
}

#[test]
fn fork_at_the_end_and_diff_tell_one_truth() {
    let s = Sandbox::new();
    s.run(&["import", "fixtures/proving-grounds/game-won.arb", "--session", "g"]).expect(0);
    let len = s.run(&["log", "g"]).expect(0).out().lines().count().to_string();
    let fork = s.run(&["fork", "g", "--at", &len, "--into", "end"]).expect(0).out();
    assert!(fork.contains("finds them identical"), "{fork}");
    s.run(&["diff", "g", "end"]).expect(0);
    let fork = s.run(&["fork", "g", "--at", "40", "--into", "mid"]).expect(0).out();
    assert!(fork.contains("splits at record 40"), "{fork}");
    let diff = s.run(&["diff", "g", "mid"]).expect(1).out();
    assert!(diff.contains("A #40"), "{diff}");
}

#[test]
fn the_books_examples_cut_short_are_reported_incomplete() {
    let s = Sandbox::new();
    let out = s.run(&["fixtures", "tests/data/incomplete"]).expect(0).out();
    assert!(out.ends_with("2 passed, 0 failed\n"), "{out}");
    for (file, owed) in [
        (
            "tests/data/incomplete/kf-truncated-outcomes.arb",
            "`hit B`, `afflict B burn +4 -> 6`, `damage B 7 block 2 injury 5`",
        ),
        ("tests/data/incomplete/pg-truncated-wound.arb", "`wound 2 exhaust w`, `recover`"),
    ] {
        let out = s.run(&["verify", file]).expect(0).out();
        assert!(out.contains(&format!("the rules still owe {owed}")), "{out}");
        s.run(&["verify", file, "--strict"]).expect(1);
    }
}
