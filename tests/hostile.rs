//! Hostile inputs and long files, run as a user (or an attacker) would: only regular files
//! of bounded size are read, input never reaches the terminal raw, messages stay short, and
//! a log file is a stream (a diff that splits early never parses the rest).

mod common;

use common::Sandbox;
use std::time::{Duration, Instant};

const WON: &str = "fixtures/proving-grounds/game-won.arb";

/// A log naming `catalog` (as `@catalog`), written into the sandbox.
fn with_catalog(s: &Sandbox, name: &str, catalog: &str) -> String {
    s.derive(name, WON, |lines| {
        let at = lines.iter().position(|l| l.starts_with("@catalog")).expect("@catalog");
        lines[at] = format!("@catalog {catalog}");
    })
}

/// The text of the shipped catalog `game-won.arb`'s `@catalog illustrative` names, to write
/// as a catalog file.
fn illustrative_catalog() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("engine/catalogs/proving-grounds/illustrative.pgcat"),
    )
    .expect("the illustrative catalog")
}

#[test]
fn a_catalog_that_is_a_fifo_a_device_or_huge_is_refused_at_once() {
    let s = Sandbox::new();
    let fifo = s.path("cards.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let huge = s.path("huge.cat");
    // Sparse: as large as a catalog may not be, without writing it.
    std::fs::File::create(&huge)
        .expect("create")
        .set_len(arbiter_verify::MAX_CATALOG_BYTES + 1)
        .expect("set_len");
    for (name, catalog, says) in [
        ("fifo.arb", fifo.to_string_lossy().into_owned(), "not a regular file"),
        ("zero.arb", "/dev/zero".to_string(), "not a regular file"),
        ("huge.arb", huge.to_string_lossy().into_owned(), "larger than"),
        ("dir.arb", s.path("").to_string_lossy().into_owned(), "not a regular file"),
    ] {
        let log = with_catalog(&s, name, &catalog);
        let started = Instant::now();
        s.run(&["verify", &log]).expect_refused(says);
        assert!(started.elapsed() < Duration::from_secs(10), "{name} took {:?}", started.elapsed());
    }
    // A log that is not a regular file is refused the same way.
    s.run(&["verify", &fifo.to_string_lossy()]).expect(2);
}

#[test]
fn control_characters_are_escaped_and_long_input_is_cut_in_messages() {
    let s = Sandbox::new();
    let evil = s.derive("evil.arb", WON, |lines| lines.push("up \u{1b}]0;pwned\u{7}\u{1b}[2J 1".into()));
    let run = s.run(&["verify", &evil]).expect(2);
    assert!(!run.err().contains('\u{1b}') && !run.err().contains('\u{7}'), "{:?}", run.err());
    assert!(run.err().contains("\\x1b"), "{}", run.err());
    let long = s.derive("long.arb", WON, |lines| lines.push(format!("up {}", "9".repeat(60_000))));
    let run = s.run(&["verify", &long]).expect(2);
    assert!(run.err().len() < 1_000, "a {}-byte message", run.err().len());
    let longer = s.derive("longer.arb", WON, |lines| lines.push("x".repeat(200_000)));
    let run = s.run(&["verify", &longer]).expect_refused("longer than");
    assert!(run.err().len() < 1_000, "a {}-byte message", run.err().len());
    let run = s.run(&["verify", "\u{1b}[31mred\u{1b}[0m"]).expect(2);
    assert!(!run.err().contains('\u{1b}'), "{:?}", run.err());
    // The same in a human report: a title with an escape sequence.
    let titled = s.derive("titled.arb", WON, |lines| {
        let at = lines.iter().position(|l| l.starts_with("@title")).expect("@title");
        lines[at] = "@title \"\\u001b[2Jgone\"".into();
    });
    let out = s.run(&["verify", &titled, "--json"]).expect(0).out();
    assert!(!out.contains('\u{1b}'), "{out:?}");
}

#[test]
fn a_diff_that_splits_early_never_parses_the_rest_of_the_files() {
    let s = Sandbox::new();
    // Two logs that split at record 9, followed by lines that are not events at all: if
    // diff parsed past the split it would fail on them.
    let tail: String = (0..2_000).map(|i| format!("this is not an event {i}\n")).collect();
    let a = s.derive("a.arb", "fixtures/proving-grounds/break-resolve-separate-dice.arb", |lines| {
        lines.push(tail.clone())
    });
    let b = s.derive("b.arb", "fixtures/proving-grounds/break-resolve-separate-dice.arb", |lines| {
        let at = lines.iter().position(|l| l.starts_with("up 1 2")).expect("record 8");
        lines[at] = "up 1".into();
        lines.push(tail.clone());
    });
    let out = s.run(&["diff", &a, &b]).expect(1).out();
    assert!(out.contains("first split: the events differ"), "{out}");
    // verify reads it all and finds the garbage.
    s.run(&["verify", &a]).expect_refused("a.arb:");
}

#[test]
fn undo_lines_are_honoured_in_a_streamed_file_wherever_they_reach() {
    let s = Sandbox::new();
    // An undo late in the file withdrawing records long before it: the early records are
    // skipped by replay, as if the retractions had been read first.
    let far = s.derive("far.arb", WON, |lines| {
        let start = lines.iter().position(|l| l.starts_with("roll")).expect("a roll");
        let extra: Vec<String> = (0..300).map(|_| "stop".to_string()).collect();
        let undos: Vec<String> = (0..300).map(|_| "undo".to_string()).collect();
        let tail: Vec<String> = lines.split_off(start);
        lines.extend(extra);
        lines.extend(undos);
        lines.extend(tail);
    });
    let report: serde_json::Value =
        serde_json::from_str(&s.run(&["verify", &far, "--json"]).expect(0).out()).expect("JSON");
    assert_eq!(report["summary"]["retracted"], 300, "{}", report["summary"]);
    assert_eq!(report["summary"]["violations"], 0);
    let won: serde_json::Value =
        serde_json::from_str(&s.run(&["verify", WON, "--json"]).out()).expect("JSON");
    assert_eq!(report["final_digest"], won["final_digest"], "the retracted stops left no trace");
    s.run(&["diff", WON, &far]).expect(0);
}

#[test]
fn max_findings_keeps_a_report_of_many_violations_short() {
    let s = Sandbox::new();
    let many = s.derive("many.arb", WON, |lines| {
        for _ in 0..500 {
            lines.push("recover".into());
        }
    });
    let out = s.run(&["verify", &many, "--max-findings", "3"]).expect(1).out();
    assert_eq!(out.matches("violation of").count(), 3, "{out}");
    assert!(out.contains("violations by rule:") && out.contains("500  pg.end.game-over"), "{out}");
    assert!(out.contains("3 finding(s) shown, 497 more not shown"), "{out}");
    assert!(out.lines().count() < 40, "{out}");
}

/// A session stores its catalog file's SHA-256 when it is created (by `import` or `new`):
/// replaying it after the file changed would silently change the verdicts of recorded
/// events, so every command refuses, naming the file; restoring the file restores it.
#[test]
fn a_session_whose_catalog_file_changed_is_refused_not_replayed_under_the_new_one() {
    let s = Sandbox::new();
    // The shipped catalog the fixture's `@catalog illustrative` names, as a file.
    let original = illustrative_catalog();
    let cat = s.path("ill.pgcat");
    std::fs::write(&cat, &original).unwrap();
    let cat = cat.to_string_lossy().into_owned();
    let log = with_catalog(&s, "gw.arb", &cat);
    s.run(&["import", &log, "--session", "gw", "--snapshot-every", "10"]).expect(0);
    s.run(&["new", "fresh", "--game", "proving-grounds", "--catalog", &cat]).expect(0);
    s.run(&["verify", "gw"]).expect(0);
    // One more comment line: the content (and so its hash) changes, the cards do not.
    std::fs::write(&cat, format!("{original}# edited\n")).unwrap();
    for args in [
        &["verify", "gw"][..],
        &["check", "gw"],
        &["replay", "gw", "--to", "80"],
        &["log", "gw"],
        &["export", "gw"],
        &["verify", "fresh"],
    ] {
        s.run(args).expect_refused("has changed since the session was recorded");
    }
    std::fs::write(&cat, &original).unwrap();
    s.run(&["verify", "gw"]).expect(0);
    s.run(&["check", "gw"]).expect(0);
    // The hash is not part of the setup anyone reads.
    let out = s.run(&["export", "gw"]);
    assert!(!out.out().contains("sha256"), "{}", out.out());
}

/// A file in the working directory never silently stands in for a session of the same
/// name: a log file is named by `.arb`/`.jsonl` or a path with `/` (as `arbiter --help`
/// says), and a bare name that is also a file there is refused as ambiguous.
#[test]
fn a_file_in_the_working_directory_does_not_shadow_a_session() {
    let s = Sandbox::new();
    s.run(&["import", WON, "--session", "gw"]).expect(0);
    // The first dozen lines of the same game: a shorter history, as the audit's stray file.
    s.derive("gw", WON, |lines| lines.truncate(12));
    // Run from the sandbox, where the stray file is.
    let run = |args: &[&str]| {
        common::Run(
            std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .current_dir(s.path(""))
                .arg("--db")
                .arg(s.db())
                .args(args)
                .env_remove("ARBITER_DB")
                .env_remove("ARBITER_SERVER")
                .output()
                .expect("run arbiter"),
        )
    };
    for cmd in ["log", "verify", "export", "replay"] {
        run(&[cmd, "gw"]).expect_refused("write `./gw` to read the file");
    }
    // `check` takes only a session: nothing is ambiguous.
    run(&["check", "gw"]).expect(0);
    run(&["diff", "gw", "./gw"]).expect_refused("there is also a file `gw`");
    // Named as a path, the file is read; elsewhere, the name is the session's.
    assert!(run(&["log", "./gw"]).expect(0).out().lines().count() < 12);
    assert!(s.run(&["log", "gw"]).expect(0).out().lines().count() > 80);
}

/// A title too long for export's one line is refused when it is given (`new --title`, an
/// imported file's `@title`), so every stored session can be exported and imported again.
#[test]
fn an_over_long_title_is_refused_where_it_is_given() {
    let s = Sandbox::new();
    let long = "a".repeat(70_000);
    s.run(&["new", "bt", "--game", "proving-grounds", "--title", &long]).expect_refused("the limit is 4096");
    // Nothing was created.
    s.run(&["check", "bt"]).expect(2);
    let jsonl = s.path("long.jsonl");
    std::fs::write(&jsonl, format!("{{\"game\":\"proving-grounds\",\"title\":\"{}\"}}\n", "b".repeat(5000)))
        .unwrap();
    s.run(&["import", &jsonl.to_string_lossy(), "--session", "lt"]).expect_refused("the limit is 4096");
    // At the limit, the session round-trips.
    let ok = "c".repeat(4096);
    s.run(&["new", "ok", "--game", "proving-grounds", "--title", &ok]).expect(0);
    let out = s.path("ok.arb");
    std::fs::write(&out, s.run(&["export", "ok"]).expect(0).out()).unwrap();
    s.run(&["import", &out.to_string_lossy(), "--session", "ok2"]).expect(0);
}

/// A setting given twice on the command line is refused in every spelling, as
/// `--variant a=1 --variant a=2` is: only one of the values could count.
#[test]
fn a_setting_given_twice_is_refused_in_every_spelling() {
    let s = Sandbox::new();
    let twice = "`health` is given twice (`health=8` and `health=9`)";
    for args in [
        &["verify", WON, "--variant", "health=8", "--variant", "health=9"][..],
        &["verify", &format!("{WON}@health=8@health=9")],
        &["verify", &format!("{WON}@health=8"), "--variant", "health=9"],
        &["replay", &format!("{WON}@health=8"), "--variant", "health=9"],
        &["explain", &format!("{WON}@health=8"), "3", "--variant", "health=9"],
        &["diff", WON, &format!("{WON}@health=8"), "--variant", "health=9"],
    ] {
        s.run(args).expect_refused(twice);
    }
    let log = s.derive("dupcat.arb", WON, |lines| {
        let at = lines.iter().position(|l| l.starts_with("@catalog")).expect("@catalog");
        let line = lines[at].clone();
        lines.insert(at, line);
    });
    s.run(&["verify", &log]).expect_refused("expected one `@catalog` line, found a second one");
}

/// A UTF-8 byte-order mark at the start is skipped wherever arbiter reads text: a log file
/// (as before), `record`'s standard input, and a catalog file.
#[test]
fn a_byte_order_mark_is_skipped_on_stdin_and_in_catalogs() {
    let s = Sandbox::new();
    let original = illustrative_catalog();
    let cat = s.path("bom.pgcat");
    std::fs::write(&cat, format!("\u{feff}{original}")).unwrap();
    let log = with_catalog(&s, "bom.arb", &cat.to_string_lossy());
    s.run(&["verify", &log]).expect(0);
    s.run(&["new", "r", "--game", "proving-grounds"]).expect(0);
    s.run_with_stdin(&["record", "r"], "\u{feff}draw 1 shield-bearer\n").expect(0);
    assert_eq!(s.run(&["log", "r"]).expect(0).out().lines().count(), 1);
}

/// Bad input is exit 2 and one sentence: a `--signer` that is no key, a `simulate` corpus
/// whose seeds would wrap, a directory where `verify --all` keeps its verdicts.
#[test]
fn a_bad_signer_a_wrapping_seed_and_a_verdict_directory_are_refused() {
    let s = Sandbox::new();
    s.run(&["import", WON, "--session", "gw"]).expect(0);
    s.run(&["check", "gw", "--receipt", "none.receipt", "--signer", "zz"])
        .expect_refused("`zz` is not a public key");
    let out = s.path("w.arb");
    let out = out.to_string_lossy();
    s.run(&["simulate", "proving-grounds", "--seed", "18446744073709551615", "--games", "2", "--out", &out])
        .expect_refused("runs past the largest seed");
    assert!(!s.path("w-1.arb").exists() && !s.path("w-0.arb").exists());
    let verdicts = format!("{}.verdicts.json", s.db().display());
    std::fs::create_dir(&verdicts).unwrap();
    let run =
        s.run(&["verify", "--all"]).expect_refused("is a directory, where `verify --all` keeps its verdicts");
    assert_eq!(run.err().trim().lines().count(), 1, "{}", run.err());
    s.run(&["verify", "--all", "--no-save"]).expect(0);
}

/// Messages say what is wrong in the project's words, on one line (audit D8): a bad argument
/// is not clap's 3-7 lines, an operating system error carries no `(os error N)`, a JSONL
/// value too large for its field says the range, and an envelope mistake names what was
/// found once.
#[test]
fn messages_are_one_plain_line() {
    let s = Sandbox::new();
    let one_line = |run: common::Run, says: &str| {
        let err = run.expect_refused(says).err();
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!err.contains("os error") && !err.contains("something else"), "{err}");
    };
    one_line(s.run(&["replay", WON, "--to", "-1"]), "unexpected argument '-1'");
    one_line(s.run(&["replay"]), "usage: arbiter replay");
    let key = s.path("key");
    std::fs::write(&key, "taken").expect("key");
    one_line(s.run(&["seal", "--new-key", &key.to_string_lossy()]), "already exists");
    let head = r#"{"catalog":"illustrative","game":"proving-grounds","setup":{}}"#;
    let big = s.path("big.jsonl");
    std::fs::write(
        &big,
        format!(
            "{head}\n{}\n",
            r#"{"event":{"action":{"EnemyDrawn":{"card":"shield-bearer","slot":18446744073709551616}},"time":null}}"#
        ),
    )
    .expect("big");
    one_line(s.run(&["verify", &big.to_string_lossy()]), "where a whole number from 0 to 255 goes");
    let extra = s.path("extra.jsonl");
    std::fs::write(
        &extra,
        format!(
            "{head}\n{}\n",
            r#"{"event":{"action":{"EnemyDrawn":{"card":"shield-bearer","slot":1}},"time":null},"y":2}"#
        ),
    )
    .expect("extra");
    one_line(s.run(&["verify", &extra.to_string_lossy()]), "found unknown key `y`");
    let array = s.path("array.jsonl");
    std::fs::write(&array, r#"{"game":"proving-grounds","catalog":"illustrative","setup":{"health":[6]}}"#)
        .expect("array");
    one_line(s.run(&["verify", &array.to_string_lossy()]), "found an array");
}
