//! The command line as a new user meets it (issue 16), run as the binary: help that
//! describes every argument with examples and exit codes, `--db` only where a database is
//! opened, shell completions, `--json` for the listings and typed values in `replay --json`,
//! what `verify` says it checked when replay stops early, `simulate --games/--force`, and the
//! whole-database audit `verify --all` against its stored verdicts.

mod common;

use common::Sandbox;
use serde_json::Value;

/// Every command, and whether it opens a database.
const COMMANDS: &[(&str, bool)] = &[
    ("demo", true),
    ("games", false),
    ("rules", false),
    ("sessions", true),
    ("new", true),
    ("record", true),
    ("import", true),
    ("snapshot", true),
    ("export", true),
    ("log", true),
    ("replay", true),
    ("verify", true),
    ("explain", true),
    ("diff", true),
    ("fork", true),
    ("fixtures", false),
    ("check", true),
    ("seal", true),
    ("simulate", true),
    ("completions", false),
];

/// The options and arguments of a short help (`-h`), each with what follows its name.
fn described(help: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_list = false;
    for line in help.lines() {
        if line == "Arguments:" || line == "Options:" {
            in_list = true;
            continue;
        }
        if !line.starts_with("  ") {
            in_list = false;
            continue;
        }
        if in_list {
            let item = line.trim_start();
            // `-h, --help  Print help`, `<SESSION>  The session ...`, `--db <PATH>  The ...`
            let (name, rest) = match item.find("  ") {
                Some(at) => (&item[..at], item[at..].trim()),
                None => (item, ""),
            };
            out.push((name.to_string(), rest.to_string()));
        }
    }
    out
}

#[test]
fn every_argument_is_described_and_every_command_has_examples_and_exit_codes() {
    let s = Sandbox::new();
    let top = s.run(&["--help"]).expect(0).out();
    for part in
        ["SOURCE@NAME=VALUE", "EXIT STATUS:", "0  clean", "1  violations", "2  unusable input", "$ARBITER_DB"]
    {
        assert!(top.contains(part), "`arbiter --help` lacks `{part}`:\n{top}");
    }
    for (command, opens_db) in COMMANDS {
        let help = s.run(&[command, "-h"]).expect(0).out();
        let items = described(&help);
        assert!(!items.is_empty(), "{command}: no arguments listed:\n{help}");
        for (name, what) in &items {
            assert!(!what.is_empty(), "`arbiter {command}`: `{name}` has no description:\n{help}");
        }
        assert!(help.contains("EXAMPLES:\n  arbiter "), "`arbiter {command} -h` has no EXAMPLES:\n{help}");
        assert!(help.contains("Exit status: 0"), "`arbiter {command} -h` gives no exit status:\n{help}");
        let db = items.iter().filter(|(name, _)| name.starts_with("--db")).count();
        assert_eq!(db, usize::from(*opens_db), "`arbiter {command}`: --db shown {db} time(s):\n{help}");
        if *opens_db {
            let line =
                items.iter().find(|(n, _)| n.starts_with("--db")).map(|(_, w)| w.clone()).unwrap_or_default();
            assert_eq!(line.matches("ARBITER_DB").count(), 1, "--db worded twice: {line}");
        }
    }
    // A command that opens no database refuses --db after its name.
    s.run(&["games", "--db", "x"]).expect(2);
    // The long help of a command shows the same examples.
    let long = s.run(&["help", "verify"]).expect(0).out();
    assert!(long.contains("arbiter verify --all --junit audit.xml"), "{long}");
}

#[test]
fn completions_are_generated_for_each_shell() {
    let s = Sandbox::new();
    for shell in ["bash", "zsh", "fish"] {
        let script = s.run(&["completions", shell]).expect(0).out();
        for word in ["verify", "max-findings", "simulate", "games"] {
            assert!(script.contains(word), "{shell} completion lacks `{word}`");
        }
    }
    let bash = s.run(&["completions", "bash"]).expect(0).out();
    let checked = std::process::Command::new("bash").args(["-n", "-c", &bash]).output().expect("bash");
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    s.run(&["completions", "tcsh"]).expect(2);
}

#[test]
fn listings_have_json_and_replay_json_has_typed_values() {
    let s = Sandbox::new();
    let games: Value = serde_json::from_str(&s.run(&["games", "--json"]).expect(0).out()).expect("JSON");
    let ids: Vec<&str> =
        games["games"].as_array().expect("games").iter().filter_map(|g| g["id"].as_str()).collect();
    assert!(ids.contains(&"proving-grounds") && ids.contains(&"keridwyn-fight"), "{games}");
    assert!(games["games"][0]["rules_version"].is_u64(), "{games}");

    s.run(&["import", "examples/disputed-wound.arb", "--session", "friday"]).expect(0);
    s.run(&["fork", "friday", "--at", "8", "--into", "rematch"]).expect(0);
    let sessions: Value =
        serde_json::from_str(&s.run(&["sessions", "--json"]).expect(0).out()).expect("JSON");
    let list = sessions["sessions"].as_array().expect("sessions");
    assert_eq!(list.len(), 2);
    assert_eq!((list[0]["name"].as_str(), list[0]["records"].as_u64()), (Some("friday"), Some(16)));
    assert_eq!(list[1]["parent"], serde_json::json!({ "session": "friday", "at": 8 }));

    let replay: Value =
        serde_json::from_str(&s.run(&["replay", "friday", "--to", "10", "--json"]).expect(0).out())
            .expect("JSON");
    let state = &replay["state"];
    assert_eq!(state["values"]["health"], 1, "a number is a number: {state}");
    assert_eq!(state["values"]["phase"], "move");
    assert_eq!(state["values"]["pool"], "1 1g 2y 4 4 6 6 6b", "a list of dice stays the game's words");
    let health =
        state["facts"].as_array().expect("facts").iter().find(|f| f["key"] == "health").expect("health");
    assert_eq!(health["value"], 1);
    assert!(state["board"].as_str().is_some_and(|b| b.contains("green-warden")), "the text board is kept");
}

#[test]
fn verify_says_what_it_checked_when_replay_stops_early() {
    let s = Sandbox::new();
    let log = s.derive("stops.arb", "fixtures/keridwyn-fight/break-sequence-unapplicable.arb", |lines| {
        lines.push("miss wyvern".into());
        lines.push("act wyvern fire-breath".into());
    });
    let run = s.run(&["verify", &log]).expect(1);
    let out = run.out();
    let head = out.lines().next().unwrap_or_default();
    assert!(head.ends_with("stops.arb: keridwyn-fight (rules version 16)"), "a brief head: {head}");
    assert!(
        out.contains("0 violation(s) in the first 8 of 10 records: replay stopped at #7, which cannot be applied; the 2 record(s) after it were not checked"),
        "{out}"
    );
    let json: Value =
        serde_json::from_str(&s.run(&["verify", &log, "--json"]).expect(1).out()).expect("JSON");
    assert_eq!((json["records"].as_u64(), json["total"].as_u64()), (Some(8), Some(10)));
    // A log that replays to its end: records and total agree.
    let json: Value =
        serde_json::from_str(&s.run(&["verify", "examples/disputed-wound.arb", "--json"]).expect(1).out())
            .expect("JSON");
    assert_eq!((json["records"].as_u64(), json["total"].as_u64()), (Some(16), Some(16)));
    // Only interpretations that differ from their default are named.
    let under = s.run(&["verify", "examples/disputed-wound.arb@exhaust-from=wounding-enemy"]).expect(1).out();
    let second = under.lines().nth(1).unwrap_or_default();
    assert_eq!(second, "interpretations: exhaust-from=wounding-enemy", "{under}");
    let plain = s.run(&["verify", "examples/disputed-wound.arb"]).expect(1).out();
    assert!(!plain.contains("interpretations:"), "{plain}");
}

#[test]
fn simulate_plays_corpora_says_when_games_end_and_never_overwrites_unasked() {
    let s = Sandbox::new();
    let out = s.path("g.arb");
    let out = out.to_string_lossy();
    let one = s
        .run(&["simulate", "proving-grounds", "--seed", "3", "--events", "1000000", "--out", &out])
        .expect(0);
    assert!(one.out().contains("the game ended after 60 events, before --events 1000000"), "{}", one.out());
    let first = std::fs::read_to_string(&*out).expect("written");
    s.run(&["simulate", "proving-grounds", "--seed", "4", "--out", &out])
        .expect_refused("give --force to replace it");
    assert_eq!(std::fs::read_to_string(&*out).expect("kept"), first, "refused means untouched");
    let forced = s.run(&["simulate", "proving-grounds", "--seed", "4", "--out", &out, "--force"]).expect(0);
    assert!(!forced.out().contains("ended after"), "no --events, nothing capped: {}", forced.out());
    assert_ne!(std::fs::read_to_string(&*out).expect("replaced"), first);

    let corpus = s.path("corpus.jsonl");
    let corpus = corpus.to_string_lossy();
    s.run(&["simulate", "keridwyn-fight", "--seed", "1", "--games", "3", "--out", &corpus]).expect(0);
    for i in 0..3 {
        let file = s.path(&format!("corpus-{i}.jsonl"));
        s.run(&["verify", &file.to_string_lossy()]).expect(0);
    }
    let league =
        s.run(&["simulate", "keridwyn-fight", "--seed", "1", "--games", "4", "--into", "league"]).expect(0);
    assert!(league.out().contains("simulated 4 games of keridwyn-fight (seeds 1 to 4)"), "{}", league.out());
    let sessions = s.run(&["sessions"]).expect(0).out();
    for i in 0..4 {
        assert!(sessions.contains(&format!("league-{i} ")), "{sessions}");
    }
    // Game 1 of the corpus is seed 2: the same log as a single game with seed 2.
    let single = s.path("single.jsonl");
    s.run(&["simulate", "keridwyn-fight", "--seed", "2", "--out", &single.to_string_lossy()]).expect(0);
    s.run(&["diff", &single.to_string_lossy(), &s.path("corpus-1.jsonl").to_string_lossy()]).expect(0);
    // A taken name refuses the whole corpus before writing any of it.
    s.run(&["simulate", "keridwyn-fight", "--seed", "9", "--games", "6", "--into", "league"])
        .expect_refused("session `league-0` exists already");
    assert!(!s.run(&["sessions"]).expect(0).out().contains("league-5"));
}

#[test]
fn verify_all_audits_every_session_against_the_stored_verdicts() {
    let s = Sandbox::new();
    s.run(&["import", "examples/disputed-wound.arb", "--session", "friday"]).expect(0);
    s.run(&["simulate", "keridwyn-fight", "--seed", "1", "--games", "2", "--into", "fight"]).expect(0);
    let first = s.run(&["verify", "--all"]).expect(0).out();
    assert!(
        first.contains("audited 3 session(s): 2 clean (0 incomplete), 1 with violations, 0 unusable"),
        "{first}"
    );
    assert!(first.contains("violations by rule:\n         1  pg.resolve.color-requirement"), "{first}");
    assert!(first.contains("against the previous audit: 0 changed, 3 new"), "{first}");
    let verdicts = s.path("arbiter.db.verdicts.json");
    assert!(verdicts.is_file(), "the verdicts are kept beside the database");

    // The same rules: nothing changed.
    let again = s.run(&["verify", "--all"]).expect(0).out();
    assert!(again.contains("0 changed, 0 new, 0 recorded on since"), "{again}");
    // Another reading of the wound rule changes friday's verdict: CHANGED, exit 1, JUnit
    // fails that case; --no-save keeps the stored verdicts.
    let junit = s.path("audit.xml");
    let changed = s
        .run(&[
            "verify",
            "--all",
            "--variant",
            "exhaust-from=wounding-enemy",
            "--no-save",
            "--junit",
            &junit.to_string_lossy(),
        ])
        .expect(1)
        .out();
    assert!(changed.contains("CHANGED friday (proving-grounds)\n    verdict: 1 violation(s) (pg.resolve.color-requirement 1) -> 2 violation(s)"), "{changed}");
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(
        xml.contains("<testsuites name=\"arbiter audit\" tests=\"3\" failures=\"1\" errors=\"0\">"),
        "{xml}"
    );
    assert!(xml.contains("<testcase name=\"friday\" classname=\"audit.proving-grounds\""), "{xml}");
    let json: Value =
        serde_json::from_str(&s.run(&["verify", "--all", "--json"]).expect(0).out()).expect("JSON");
    assert_eq!(json["summary"]["changed"], 0, "--no-save kept the verdicts: {json}");
    assert_eq!(json["summary"]["sessions"], 3);

    // A session recorded on since is not compared (its verdict may change for that alone).
    s.run_with_stdin(&["record", "fight-0"], "").expect(0);
    s.run(&["fork", "friday", "--at", "10", "--into", "branch"]).expect(0);
    s.run_with_stdin(&["record", "branch"], "hold 4\n").expect(0);
    let grown = s.run(&["verify", "--all", "--json"]).expect(0).out();
    let grown: Value = serde_json::from_str(&grown).expect("JSON");
    let branch =
        grown["sessions"].as_array().expect("sessions").iter().find(|x| x["session"] == "branch").cloned();
    assert_eq!(branch.map(|b| b["comparison"].clone()), Some(Value::from("new")));
    // A typo in --variant is one sentence, not a failing audit.
    s.run(&["verify", "--all", "--variant", "exhaust-form=any"]).expect_refused("no game has a parameter");
    // --all names no source; a source names no --all.
    s.run(&["verify", "friday", "--all"]).expect(2);
    s.run(&["verify", "--junit", "x.xml", "friday"]).expect_refused("go with --all");
    s.run(&["verify"]).expect(2);
}

/// What a recorder's `help` and completion read from a game (`Game::notation_summary`,
/// `Game::names`) is the game's own notation: every event word of the summary is one its
/// parser knows, and the names are names a line may use.
#[test]
fn each_game_summary_names_words_its_notation_reads() {
    use arbiter_engine::{dispatch, game_ids, Game, GameVisitor, Setup};
    struct Check;
    impl GameVisitor for Check {
        type Output = Vec<String>;
        fn visit<G: Game>(self) -> Vec<String> {
            let mut wrong = Vec::new();
            let catalog = G::builtin_catalog(G::default_catalog()).unwrap_or_default();
            let Ok(game) = G::new(&Setup::default(), catalog) else {
                return vec![format!("{}: the default setup does not build", G::info().id)];
            };
            for line in G::notation_summary().lines() {
                let Some(word) = line.split_whitespace().next() else { continue };
                if !word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
                    continue;
                }
                // The word is known when the parser gets past it (or reads it whole).
                if let Err(e) = game.parse_event(word) {
                    if e.column <= 1 {
                        wrong.push(format!("{}: `{word}` is not an event word ({e:?})", G::info().id));
                    }
                }
            }
            if G::notation_summary().is_empty() {
                wrong.push(format!("{}: no notation summary", G::info().id));
            }
            let names = game.names(&game.initial_state());
            if names.is_empty() || names.iter().any(|n| n.is_empty() || n.contains(char::is_whitespace)) {
                wrong.push(format!("{}: names {names:?}", G::info().id));
            }
            wrong
        }
    }
    let mut wrong = Vec::new();
    for id in ["proving-grounds", "keridwyn-fight"] {
        assert!(game_ids().contains(&id));
        wrong.extend(dispatch(id, Check).unwrap_or_default());
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The verify follow-ups as the binary shows them: `--derive` keeps the interpretations a log
/// was replayed under, `replay` and `explain` show an uncertain finding as `verify` does, and
/// a fixture may claim an uncertain finding with `@expect uncertain N RULE` (one it does not claim
/// is not a violation and does not fail it).
#[test]
fn derive_keeps_variants_and_every_view_shows_uncertain_findings() {
    let s = Sandbox::new();
    let derived = s
        .run(&["verify", "fixtures/proving-grounds/interp-exhaust-from-wounding-enemy.arb", "--derive"])
        .out();
    let completed = derived.split("completed log:\n").nth(1).unwrap_or_default();
    assert!(completed.contains("\n@variant exhaust-from=wounding-enemy\n"), "{derived}");
    let log = s.path("completed.arb");
    std::fs::write(&log, completed).expect("write");
    // Its catalog is named relative to the log.
    std::fs::copy("fixtures/proving-grounds/interp.pgcat", s.path("interp.pgcat")).expect("catalog");
    let again = s.run(&["verify", &log.to_string_lossy()]).out();
    assert!(
        again.contains("interpretations: exhaust-from=wounding-enemy"),
        "the completed log replays the same way:\n{again}"
    );

    const TAINTED: &str = "fixtures/proving-grounds/unverified-true-aim-no-target.arb";
    let shown = "record #10 (line 23) `defeat 1`: uncertain after unverified effect at #9 (not counted): pg.check.defeat-at-top";
    for args in [vec!["verify", TAINTED], vec!["replay", TAINTED], vec!["explain", TAINTED, "10"]] {
        let out = s.run(&args).expect(0).out();
        assert!(out.contains(shown), "`{}` drops the uncertain finding:\n{out}", args.join(" "));
    }
    let replay: Value =
        serde_json::from_str(&s.run(&["replay", TAINTED, "--json"]).expect(0).out()).expect("JSON");
    assert_eq!(replay["uncertain"][0]["after_record"], 9);
    let unclaimed = s.derive("unclaimed.arb", TAINTED, |lines| lines.push("@expect clean".into()));
    std::fs::copy("fixtures/proving-grounds/towers.pgcat", s.path("towers.pgcat")).expect("catalog");
    // An uncertain finding is not a violation: a fixture that does not claim it still passes.
    s.run(&["fixtures", &unclaimed]).expect(0);
    s.run(&["fixtures", TAINTED]).expect(0);
}
