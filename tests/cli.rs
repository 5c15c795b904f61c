//! End-to-end tests of the `arbiter` binary: every command and every exit code, run as a
//! user runs them, on the shipped Proving Grounds fixtures and on logs derived from them.

mod common;

use common::Sandbox;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const WON: &str = "fixtures/proving-grounds/game-won.arb";
const BREAKS_SEPARATE_DICE: &str = "fixtures/proving-grounds/break-resolve-separate-dice.arb";

/// The index of the line `needle` among a log's records (events and `undo`), counting from 0.
fn record_index(path: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(path).expect("log");
    let records: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('@'))
        .collect();
    records.iter().position(|r| *r == needle).unwrap_or_else(|| panic!("`{needle}` not in {path}"))
}

#[test]
fn games_and_rules_list_the_catalogs() {
    let s = Sandbox::new();
    let games = s.run(&["games"]).expect(0).out();
    assert!(games.contains("proving-grounds") && games.contains("keridwyn-fight"), "{games}");
    let rules = s.run(&["rules", "proving-grounds"]).expect(0).out();
    assert!(rules.contains("pg.resolve.single-moves-down"), "{rules}");
    assert!(rules.contains("Interpretations") && rules.contains("exhaust-from"), "{rules}");
    let json: serde_json::Value =
        serde_json::from_str(&s.run(&["rules", "proving-grounds", "--json"]).expect(0).out())
            .expect("rules --json is JSON");
    assert!(json["rules"].as_array().is_some_and(|r| r.len() > 10));
    s.run(&["rules", "chess"]).expect_refused("unknown game `chess`");
}

#[test]
fn verify_files_exit_0_clean_1_violations_2_unusable() {
    let s = Sandbox::new();
    let clean = s.run(&["verify", WON]).expect(0).out();
    assert!(clean.contains("clean"), "{clean}");
    let broken = s.run(&["verify", BREAKS_SEPARATE_DICE]).expect(1).out();
    assert!(broken.contains("pg.resolve.separate-dice") && broken.contains("record #8"), "{broken}");
    assert!(broken.contains("expected") && broken.contains("up 1"), "{broken}");
    let json: serde_json::Value =
        serde_json::from_str(&s.run(&["verify", BREAKS_SEPARATE_DICE, "--json"]).expect(1).out())
            .expect("JSON");
    assert_eq!(json["findings"][0]["kind"], "violation");
    assert_eq!(json["findings"][0]["rule"], "pg.resolve.separate-dice");
    assert_eq!(json["exit_code"], 1);
    assert!(json["final_facts"].as_array().is_some_and(|f| !f.is_empty()), "JSON carries the final facts");
    assert_eq!(json["final_digest"].as_str().map(str::len), Some(64));

    s.run(&["verify", "no-such-file.arb"]).expect_refused("no-such-file.arb");
    s.run(&["verify", "no-such-session"]).expect_refused("no-such-session");
    let garbled = s.derive("garbled.arb", WON, |l| l.push("roll 9 9 x".into()));
    s.run(&["verify", &garbled]).expect_refused("garbled.arb:");
    let binary = s.path("binary.jsonl");
    std::fs::write(&binary, [0xffu8, 0xfe, 0x00, 0x9c, 0x80]).expect("write");
    s.run(&["verify", &binary.to_string_lossy()]).expect_refused("binary.jsonl");
    s.run(&["verify", WON, "--variant", "no-such-rule=1"]).expect_refused("no-such-rule");
    // Checking a file must not create a database as a side effect.
    assert!(!s.db().exists());
}

#[test]
fn new_record_undo_log_export_check() {
    let s = Sandbox::new();
    s.run(&["new", "t1", "--game", "proving-grounds", "--title", "table one"]).expect(0);
    s.run(&["new", "t1", "--game", "proving-grounds"]).expect_refused("t1");
    s.run(&["new", "t2", "--game", "chess"]).expect_refused("unknown game");

    let draws = "draw 1 pit-brawler\ndraw 2 net-thrower\ndraw 3 spear-dancer\ndraw 4 green-warden\ndraw 5 sand-stalker\ndraw 6 blue-champion\n";
    let out = s.run_with_stdin(&["record", "t1"], draws).expect(0).out();
    assert!(out.contains("recorded #5"), "{out}");
    // A violation is recorded and shown at once with its rule; exit 1.
    let out = s.run_with_stdin(&["record", "t1"], "roll 1g 1 2y 4 4 6 6 6b\nstop\nup 1 2\n").expect(1).out();
    assert!(out.contains("pg.resolve.separate-dice") && out.contains("recorded #8"), "{out}");
    // undo retracts it; the history keeps both.
    let out = s.run_with_stdin(&["record", "t1"], "undo\nup 1\n").expect(0).out();
    assert!(out.contains("retracts record 8"), "{out}");
    // --strict refuses an illegal event and writes nothing.
    let out = s.run_with_stdin(&["record", "t1", "--strict"], "up 2 3\n").expect(1).out();
    assert!(out.contains("refused"), "{out}");
    // A malformed line from a pipe stops with exit 2; what came before is kept.
    s.run_with_stdin(&["record", "t1"], "down 2\nthrow dice\nhold 3\n").expect_refused("line 2");

    let log = s.run(&["log", "t1"]).expect(0).out();
    assert!(log.contains("retracted"), "{log}");
    assert!(!log.contains("hold 3"), "a line after the malformed one was recorded:\n{log}");
    let verify = s.run(&["verify", "t1"]).expect(0).out();
    assert!(verify.contains("retracted"), "{verify}");

    let exported = s.run(&["export", "t1"]).expect(0).out();
    std::fs::write(s.path("t1.arb"), &exported).expect("write");
    s.run(&["import", &s.path("t1.arb").to_string_lossy(), "--session", "t1-copy"]).expect(0);
    assert_eq!(s.run(&["export", "t1-copy"]).expect(0).out(), exported);
    let jsonl = s.run(&["export", "t1", "--format", "jsonl"]).expect(0).out();
    std::fs::write(s.path("t1.jsonl"), &jsonl).expect("write");
    s.run(&["diff", "t1", &s.path("t1.jsonl").to_string_lossy()]).expect(0);

    let check = s.run(&["check", "t1"]).expect(0).out();
    assert!(check.contains("intact") || check.contains("ok"), "{check}");
    s.run(&["check", "t9"]).expect_refused("t9");
    let sessions = s.run(&["sessions"]).expect(0).out();
    assert!(sessions.contains("t1") && sessions.contains("t1-copy"), "{sessions}");
}

#[test]
fn import_is_all_or_nothing_and_refuses_existing_names() {
    let s = Sandbox::new();
    // Refused input leaves nothing behind, not even an empty database.
    s.run(&["new", "a/b", "--game", "proving-grounds"]).expect_refused("a/b");
    let garbled = s.derive("garbled.arb", WON, |l| l.push("roll 9".into()));
    s.run(&["import", &garbled]).expect_refused("garbled.arb:");
    assert!(!s.db().exists(), "a refused command created a database");
    s.run(&["import", WON, "--session", "won"]).expect(0);
    s.run(&["import", WON, "--session", "won"]).expect_refused("won");
    let bad = s.derive("bad.arb", WON, |l| {
        let at = l.len() / 2;
        l.insert(at, "reroll banana".into())
    });
    s.run(&["import", &bad, "--session", "bad"]).expect_refused("bad.arb:");
    let sessions = s.run(&["sessions"]).expect(0).out();
    assert!(!sessions.contains("bad"), "a failed import left a session:\n{sessions}");
    s.run(&["import", "missing.arb"]).expect_refused("missing.arb");
}

#[test]
fn replay_and_explain_show_the_board() {
    let s = Sandbox::new();
    let out = s.run(&["replay", WON, "--to", "8"]).expect(0).out();
    assert!(out.contains("after 8 of 85 record") && out.contains("#6"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&s.run(&["replay", WON, "--json"]).expect(0).out()).expect("JSON");
    assert!(json.to_string().contains("won"), "{json}");
    s.run(&["replay", WON, "--to", "100000"]).expect_refused("100000");

    let out = s.run(&["explain", BREAKS_SEPARATE_DICE, "8"]).expect(0).out();
    for part in ["before:", "recorded: up 1 2", "the rules say", "pg.resolve.separate-dice", "after:"] {
        assert!(out.contains(part), "explain lacks `{part}`:\n{out}");
    }
    s.run(&["explain", BREAKS_SEPARATE_DICE, "99"]).expect_refused("99");

    // A consequence owed together with the one the engine's own order puts first (Hunt
    // Example 10's targets in the book's narrated order): legal, and said so.
    let narrated = "fixtures/wild-assent/hunt-ex10-targets-as-narrated.arb";
    let out = s.run(&["explain", narrated, "12"]).expect(0).out();
    for part in [
        "recorded: damage berlyne 1",
        "`damage illithena 1` comes next in the engine's own order",
        "in an order the rules leave open",
        "verdict: legal",
    ] {
        assert!(out.contains(part), "explain lacks `{part}`:\n{out}");
    }
}

/// `diff` of long files remembers which records each retracts, once the files have settled,
/// in `$ARBITER_CACHE_DIR/retractions`, and answers the same from it; `off` keeps nothing.
#[test]
fn diff_of_long_files_remembers_their_retractions_and_answers_the_same() {
    let s = Sandbox::new();
    // Over 1 MiB (the shortest file the index keeps) of comments, then a retraction: the
    // last record undone and recorded again.
    let long = |l: &mut Vec<String>| {
        let last =
            l.iter().rev().find(|x| !x.starts_with('#') && !x.starts_with('@') && !x.trim().is_empty());
        let last = last.expect("a record").clone();
        l.extend(std::iter::repeat_n(format!("# {}", "x".repeat(98)), 11_000));
        l.extend(["undo".to_string(), last]);
    };
    let a = s.derive("long-a.arb", WON, long);
    let b = s.derive("long-b.arb", WON, |l| {
        let i = l.iter().position(|x| x.starts_with("draw 1 ")).expect("draw");
        l[i] = "draw 1 net-thrower".into();
        long(l);
    });
    s.run(&["verify", &a]).expect(0);
    // The index keeps a file whose times are two seconds old, not one just written.
    std::thread::sleep(std::time::Duration::from_millis(2_200));
    let cache = s.path("kept");
    let kept = [("ARBITER_CACHE_DIR", cache.to_str().expect("utf-8 path"))];
    let first = s.run_with_env(&["diff", &a, &b], &kept).expect(1).out();
    assert!(first.contains("first split") && first.contains("#0"), "{first}");
    let entries = std::fs::read_dir(cache.join("retractions")).expect("the index").count();
    assert_eq!(entries, 2, "one entry per file");
    assert_eq!(s.run_with_env(&["diff", &a, &b], &kept).expect(1).out(), first);
    let off = s.run_with_env(&["diff", &a, &b], &[("ARBITER_CACHE_DIR", "off")]).expect(1).out();
    assert_eq!(off, first);
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("off").exists());
}

#[test]
fn diff_exit_codes_and_split_points() {
    let s = Sandbox::new();
    s.run(&["diff", WON, WON]).expect(0);

    let records = {
        let text = std::fs::read_to_string(WON).expect("log");
        text.lines()
            .filter(|l| {
                let t = l.split('#').next().unwrap_or("").trim();
                !t.is_empty() && !t.starts_with('@')
            })
            .count()
    };
    // Split at the first record: another enemy drawn into slot 1.
    let first = s.derive("first.arb", WON, |l| {
        let i = l.iter().position(|x| x.starts_with("draw 1 ")).expect("draw");
        l[i] = "draw 1 net-thrower".into();
    });
    let out = s.run(&["diff", WON, &first]).expect(1).out();
    assert!(out.contains("first split") && out.contains("#0"), "{out}");

    // Split in the middle: the first roll's first die shows another face.
    let first_roll = |l: &Vec<String>| l.iter().position(|x| x.starts_with("roll ")).expect("a roll");
    let middle = s.derive("middle.arb", WON, |l| {
        let i = first_roll(l);
        let mut words: Vec<String> = l[i].split_whitespace().map(str::to_string).collect();
        words[1] = if words[1].starts_with('6') {
            words[1].replacen('6', "5", 1)
        } else {
            format!("6{}", &words[1][1..])
        };
        l[i] = words.join(" ");
    });
    let roll_line = std::fs::read_to_string(&middle)
        .expect("log")
        .lines()
        .find(|x| x.starts_with("roll "))
        .map(|x| x.split('#').next().unwrap_or("").trim().to_string())
        .expect("roll");
    let roll_at = record_index(&middle, &roll_line);
    let out = s.run(&["diff", WON, &middle, "--context", "2"]).expect(1).out();
    assert!(
        out.contains("first split") && out.contains(&format!("#{roll_at}")),
        "split not at record {roll_at}:\n{out}"
    );
    assert!(out.contains("context"), "{out}");

    // Split at the last record, and by prefix.
    let changed_last = s.derive("last.arb", WON, |l| {
        let i = l
            .iter()
            .rposition(|x| !x.trim().is_empty() && !x.starts_with('#') && !x.starts_with('@'))
            .expect("last");
        l[i] = "stop".into();
    });
    let out = s.run(&["diff", WON, &changed_last]).expect(1).out();
    assert!(out.contains(&format!("#{}", records - 1)), "{out}");
    let prefix = s.derive("prefix.arb", WON, |l| {
        let i = l
            .iter()
            .rposition(|x| !x.trim().is_empty() && !x.starts_with('#') && !x.starts_with('@'))
            .expect("last");
        l.truncate(i);
    });
    let out = s.run(&["diff", WON, &prefix, "--json"]).expect(1).out();
    let json: serde_json::Value = serde_json::from_str(&out).expect("diff --json");
    assert_eq!(json["exit_code"], 1);
    assert!(out.contains("ends") || out.contains("prefix"), "{out}");

    // Split by interpretation: the same log under another reading.
    let greedy = s.path("greedy.arb");
    std::fs::write(
        &greedy,
        "@game proving-grounds\n@catalog illustrative\ndraw 1 pit-brawler\ndraw 2 net-thrower\n\
         draw 3 spear-dancer\ndraw 4 green-warden\ndraw 5 sand-stalker\ndraw 6 blue-champion\n\
         roll 3 3 3 3 3 3g 3y 3b\nstop\nup 3\n",
    )
    .expect("write");
    let greedy = greedy.to_string_lossy().into_owned();
    let out = s.run(&["diff", &greedy, &format!("{greedy}@multi-space=required")]).expect(1).out();
    assert!(out.contains("first split") && out.contains("#8"), "{out}");
    // Under `required` the single-space move is a violation and the marker is taken where the
    // rules put it, so the two readings leave different states and judge the record differently.
    assert!(out.contains("different states") && out.contains("judged differently"), "{out}");

    // Unusable input.
    s.run(&["diff", WON, "nowhere.arb"]).expect_refused("nowhere.arb");
}

#[test]
fn fork_then_diff_splits_at_the_fork_point() {
    let s = Sandbox::new();
    s.run(&["import", WON, "--session", "won"]).expect(0);
    let out = s.run(&["fork", "won", "--at", "10", "--into", "what-if"]).expect(0).out();
    assert!(out.contains("what-if"), "{out}");
    s.run(&["record", "what-if"]).expect(0);
    // A counterfactual recorded from the fork point (legal or not, it is a different account).
    let _ = s.run_with_stdin(&["record", "what-if"], "hold 2\n");
    let out = s.run(&["diff", "won", "what-if"]).expect(1).out();
    assert!(out.contains("first split") && out.contains("#10"), "{out}");
    // `hold 2` where the rules call for `up 2` is a violation, and the table goes on as the
    // rules say (the marker moves): the boards agree, the states differ in what was corrected.
    assert!(out.contains("states after (A -> B)"), "no state diff:\n{out}");
    // The parent is untouched.
    s.run(&["verify", "won"]).expect(0);
    s.run(&["fork", "won", "--at", "10", "--into", "what-if"]).expect_refused("what-if");
    s.run(&["fork", "won", "--at", "100000", "--into", "too-far"]).expect_refused("100000");
}

#[test]
fn fixtures_suite_reports_junit_and_coverage() {
    let s = Sandbox::new();
    let junit = s.path("junit.xml");
    let out = s
        .run(&[
            "fixtures",
            "fixtures/proving-grounds",
            "--junit",
            &junit.to_string_lossy(),
            "--require-full-coverage",
        ])
        .expect(0)
        .out();
    assert!(out.trim_end().lines().last().is_some_and(|l| l.ends_with(" passed, 0 failed")), "{out}");
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(xml.starts_with("<?xml") && xml.contains("<testsuite") && xml.contains("<testcase"), "{xml}");

    // A fixture whose expectation does not hold fails the suite, saying what happened.
    let dir = s.path("suite");
    std::fs::create_dir(&dir).expect("mkdir");
    let text = std::fs::read_to_string(BREAKS_SEPARATE_DICE).expect("fixture");
    std::fs::write(
        dir.join("wrong.arb"),
        text.replace("@expect violation 8 pg.resolve.separate-dice", "@expect clean"),
    )
    .expect("write");
    let out =
        s.run(&["fixtures", &dir.to_string_lossy(), "--junit", &junit.to_string_lossy()]).expect(1).out();
    assert!(out.contains("pg.resolve.separate-dice") && out.contains("0 passed, 1 failed"), "{out}");
    assert!(std::fs::read_to_string(&junit).expect("junit").contains("<failure"));
    s.run(&["fixtures", "no/such/dir"]).expect_refused("no/such/dir");
}

#[test]
fn a_recorder_at_the_table_does_not_lock_readers_out() {
    let s = Sandbox::new();
    s.run(&["new", "t", "--game", "proving-grounds", "--catalog", "illustrative"]).expect(0);
    let mut recorder = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("--db")
        .arg(s.db())
        .args(["record", "t"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = recorder.stdin.take().expect("stdin");
    let mut output = std::io::BufReader::new(recorder.stdout.take().expect("stdout"));
    let mut wait_for = |what: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            let n = std::io::BufRead::read_line(&mut output, &mut line).expect("read");
            assert!(n > 0, "the recorder ended before printing `{what}`");
            if line.contains(what) {
                return;
            }
        }
    };
    writeln!(input, "draw 1 pit-brawler").expect("write");
    wait_for("recorded #0");
    // The recorder is still running, waiting for its next line: every reader gets in.
    let listed = s.run(&["sessions"]).expect(0).out();
    assert!(listed.contains("1 records"), "{listed}");
    let log = s.run(&["log", "t"]).expect(0).out();
    assert!(log.contains("draw 1 pit-brawler"), "{log}");
    s.run(&["verify", "t"]).expect(0);
    writeln!(input, "draw 2 net-thrower").expect("write");
    wait_for("recorded #1");
    // A second recorder at the same time is fine too; their writes are ordered by the head
    // check, so one of two recorders that both think they are at record 2 is refused.
    let other = s.run_with_stdin(&["record", "t"], "draw 3 spear-dancer\n").expect(0).out();
    assert!(other.contains("recorded #2"), "{other}");
    writeln!(input, "draw 3 spear-dancer").expect("write");
    drop(input);
    let done = recorder.wait_with_output().expect("wait");
    assert_eq!(done.status.code(), Some(2), "the stale recorder must be refused");
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(
        err.contains("changed by another writer")
            && err.contains("nothing more was recorded")
            && err.contains("line 3: the error above"),
        "{err}"
    );
    assert_eq!(s.run(&["log", "t"]).expect(0).out().lines().count(), 3, "nothing overwritten");
}

#[test]
fn simulate_plays_the_same_legal_log_for_the_same_seed() {
    let s = Sandbox::new();
    let file = s.path("sim.arb");
    let out = s
        .run(&[
            "simulate",
            "proving-grounds",
            "--seed",
            "7",
            "--events",
            "300",
            "--out",
            &file.to_string_lossy(),
        ])
        .expect(0)
        .out();
    assert!(out.contains("simulated"), "{out}");
    s.run(&["verify", &file.to_string_lossy()]).expect(0);
    s.run(&["simulate", "proving-grounds", "--seed", "7", "--events", "300", "--into", "sim"]).expect(0);
    s.run(&["diff", "sim", &file.to_string_lossy()]).expect(0);
    let other = s.path("other.arb");
    s.run(&[
        "simulate",
        "proving-grounds",
        "--seed",
        "8",
        "--events",
        "300",
        "--out",
        &other.to_string_lossy(),
    ])
    .expect(0);
    s.run(&["diff", &file.to_string_lossy(), &other.to_string_lossy()]).expect(1);
    s.run(&["simulate", "proving-grounds", "--seed", "1", "--events", "10"]).expect_refused("--into");
    s.run(&["simulate", "chess", "--seed", "1", "--events", "10", "--into", "x"]).expect_refused("chess");
}

#[test]
fn check_finds_a_tampered_record_and_reads_refuse_it() {
    let s = Sandbox::new();
    s.run(&["import", WON, "--session", "won"]).expect(0);
    let intact = s.run(&["check", "won"]).expect(0).out();
    assert!(intact.contains("won"), "{intact}");
    {
        // Change one byte of the stored events, as a hand edit of the database would.
        let db = arbiter_journal::layout::sled_config(&s.db()).open().expect("open the database directly");
        let tree = db.open_tree(arbiter_journal::layout::EVENTS_TREE).expect("events tree");
        let (key, value) = tree.iter().next().expect("a block").expect("read the block");
        let mut bytes = value.to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x40;
        tree.insert(key, bytes).expect("overwrite");
        db.flush().expect("flush");
    }
    let damaged = s.run(&["check", "won"]).expect(1).out();
    assert!(damaged.contains("damaged at record 0"), "{damaged}");
    s.run(&["verify", "won"]).expect_refused("won");
}

#[test]
fn demo_shows_the_disputed_ruling_and_can_run_twice() {
    let s = Sandbox::new();
    let out = s.run(&["demo"]).expect(0).out();
    for part in [
        "pg.resolve.color-requirement",
        "record #10",
        "the rules say: `hold 4`",
        "first split",
        "exhaust-from",
    ] {
        assert!(out.contains(part), "demo lacks `{part}`:\n{out}");
    }
    let again = s.run(&["demo"]).expect(0).out();
    assert!(again.contains("already in"), "{again}");
    s.run(&["verify", "disputed-wound"]).expect(1);
}

/// A whole simulated game (seed 8: 142 records) stored as `session`, a snapshot every 20.
fn simulate_with_snapshots(s: &Sandbox, session: &str) -> String {
    let args = ["simulate", "proving-grounds", "--seed", "8", "--events", "400", "--into", session];
    s.run(&[&args[..], &["--snapshot-every", "20"]].concat()).expect(0).out()
}

#[test]
fn snapshots_give_the_same_answers_as_a_replay_from_the_start() {
    let s = Sandbox::new();
    let out = simulate_with_snapshots(&s, "g");
    assert!(out.contains("snapshot(s), one every 20 records"), "{out}");
    let file = s.path("g.arb");
    std::fs::write(&file, s.run(&["export", "g"]).expect(0).out()).expect("write");
    let file = file.to_string_lossy().into_owned();
    let json = |args: &[&str]| -> serde_json::Value {
        serde_json::from_str(&s.run(args).expect(0).out()).expect("--json output")
    };
    for n in ["21", "40", "59", "100"] {
        let from_session = json(&["replay", "g", "--to", n, "--json"]);
        let from_file = json(&["replay", &file, "--to", n, "--json"]);
        assert_eq!(from_session["state"]["digest"], from_file["state"]["digest"], "replay --to {n}");
        assert_eq!(
            from_session["violations"],
            from_file["violations"]
                .as_array()
                .map(|v| v
                    .iter()
                    .map(|v| {
                        let mut v = v.clone();
                        v["record"]["line"] = serde_json::Value::Null;
                        v
                    })
                    .collect::<Vec<_>>())
                .unwrap_or_default()
                .into_iter()
                .collect::<serde_json::Value>(),
            "replay --to {n}"
        );
        assert_eq!(from_session["total"], from_file["total"], "replay --to {n}");
        let from_session = json(&["explain", "g", n, "--json"]);
        let from_file = json(&["explain", &file, n, "--json"]);
        assert_eq!(from_session["before"]["digest"], from_file["before"]["digest"], "explain {n}");
        assert_eq!(from_session["after"]["digest"], from_file["after"]["digest"], "explain {n}");
        assert_eq!(from_session["violations"], from_file["violations"], "explain {n}");
    }
    let rebuilt = s.run(&["snapshot", "g", "--every", "7"]).expect(0).out();
    assert!(rebuilt.contains("one every 7 records"), "{rebuilt}");
    s.run(&["snapshot", "nosuch"]).expect_refused("nosuch");
    s.run(&["snapshot", "g", "--every", "0"]).expect_refused("at least 1");
}

#[test]
fn diff_of_a_fork_starts_from_the_shared_snapshot_and_agrees_with_a_full_replay() {
    let s = Sandbox::new();
    simulate_with_snapshots(&s, "g");
    s.run(&["fork", "g", "--at", "100", "--into", "h", "--snapshot-every", "20"]).expect(0);
    let _ = s.run_with_stdin(&["record", "h"], "hold 6\n");
    let json = |a: &str, b: &str| -> serde_json::Value {
        serde_json::from_str(&s.run(&["diff", a, b, "--context", "2", "--json"]).expect(1).out())
            .expect("JSON")
    };
    let sessions = json("g", "h");
    for (name, session) in [("g", "g"), ("h", "h")] {
        std::fs::write(s.path(&format!("{name}.arb")), s.run(&["export", session]).expect(0).out())
            .expect("write");
    }
    let files = json(&s.path("g.arb").to_string_lossy(), &s.path("h.arb").to_string_lossy());
    assert_eq!(sessions["compared"], files["compared"], "compared does not depend on the cache");
    assert_eq!(sessions["divergences"][0]["a"]["index"], 100);
    assert_eq!(sessions["divergences"][0]["a"]["index"], files["divergences"][0]["a"]["index"]);
    assert_eq!(sessions["divergences"][0]["reason"], files["divergences"][0]["reason"]);
    assert_eq!(sessions["last_agreement"]["digest"], files["last_agreement"]["digest"]);
    assert_eq!(sessions["context"].as_array().map(Vec::len), Some(2));
}

/// A setup parameter that changes the table (the board's size) is a split before the first
/// record, never "identical" (audit r4 D1); an interpretation is compared by the states its
/// reading leads to, so the split is where it first changes the game; a split whose states
/// differ only in what the table does not show names the values that differ instead of
/// printing "states after: equal" (D4).
#[test]
fn diff_under_another_setup_splits_before_the_first_record_and_always_says_why() {
    let s = Sandbox::new();
    // The won game never reaches health space 6: under either reading it is the same game.
    s.run(&["diff", WON, &format!("{WON}@health=6")]).expect(0);
    let wa = s.path("wa.arb");
    s.run(&[
        "simulate",
        "wild-assent",
        "--seed",
        "3",
        "--setup",
        "scope=encounter",
        "--out",
        &wa.to_string_lossy(),
    ])
    .expect(0);
    let board = format!("{}@board=12x12", wa.display());
    let out = s.run(&["diff", &wa.to_string_lossy(), &board]).expect(1).out();
    assert!(out.contains("the setups differ") && out.contains("board: A 10x10, B 12x12"), "{out}");
    // A catalog value not yet on the table (the Wyvern's Grit) splits the states at once.
    let catalog = s.path("grit.cat");
    let illustrative = std::fs::read_to_string("engine/catalogs/keridwyn-fight/illustrative.cat")
        .expect("the illustrative Keridwyn catalog");
    std::fs::write(&catalog, illustrative.replacen("grit 12", "grit 14", 1)).expect("catalog");
    let kf = s.path("kf.arb");
    s.run(&["simulate", "keridwyn-fight", "--seed", "3", "--out", &kf.to_string_lossy()]).expect(0);
    let kf2 = s.derive("kf2.arb", &kf.to_string_lossy(), |l| {
        let at = l.iter().position(|x| x.starts_with("@game")).expect("@game");
        l.insert(at + 1, format!("@catalog {}", catalog.display()));
    });
    let json: serde_json::Value =
        serde_json::from_str(&s.run(&["diff", &kf.to_string_lossy(), &kf2, "--json"]).expect(1).out())
            .expect("JSON");
    let first = &json["divergences"][0];
    assert_eq!(first["reason"], "states-differ", "{json}");
    let keys: Vec<&str> = first["state_diff"]
        .as_array()
        .expect("state_diff")
        .iter()
        .filter_map(|f| f["key"].as_str())
        .collect();
    assert!(keys.iter().any(|k| k.ends_with("grit")), "{keys:?}");
}

/// `fork` predicts the record `diff` names, or names none when the parent's later
/// retractions withdraw a record the fork keeps (audit r4 D3).
#[test]
fn fork_names_the_split_diff_reports_or_none_after_a_retraction() {
    let s = Sandbox::new();
    // Record 14 (a wound) undone at record 15 and made again at 16.
    let undone = s.derive("undone.arb", WON, |l| {
        let at = l.iter().position(|x| x.starts_with("wound 5 exhaust b")).expect("the wound");
        l.insert(at + 1, "undo".into());
        l.insert(at + 2, "wound 5 exhaust b".into());
    });
    s.run(&["import", &undone, "--session", "p"]).expect(0);
    let out = s.run(&["fork", "p", "--at", "15", "--into", "f"]).expect(0).out();
    assert!(out.contains("shows where they split") && !out.contains("splits at record"), "{out}");
    s.run(&["diff", "p", "f"]).expect(1);
    // Before the retraction's target, the prediction holds.
    let out = s.run(&["fork", "p", "--at", "10", "--into", "g"]).expect(0).out();
    assert!(out.contains("splits at record 10"), "{out}");
    assert!(s.run(&["diff", "p", "g"]).expect(1).out().contains("A #10"));
}
