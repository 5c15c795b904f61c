//! Every `--json` output of the binary, and every line of an exported JSONL log, against the
//! JSON Schemas published in `schemas/`: the documentation of the machine interfaces is
//! checked, so it cannot drift from what the tool prints.
//!
//! The schemas forbid unknown properties, so a field added to a report without its schema
//! fails here, and each is exercised on outputs that fill its optional parts (findings of
//! every kind, an unapplicable record, an incomplete log, every split reason, coverage
//! cases, error objects).

mod common;

use common::Sandbox;
use serde_json::Value;
use std::path::Path;

const WON: &str = "fixtures/proving-grounds/game-won.arb";
const BREAKS: &str = "fixtures/proving-grounds/break-resolve-separate-dice.arb";
const UNVERIFIED: &str = "fixtures/keridwyn-fight/break-attack-target.arb";
const UNAPPLICABLE: &str = "fixtures/keridwyn-fight/break-sequence-unapplicable.arb";
const SPLIT: &str = "fixtures/proving-grounds/interp-health-8.arb";

/// The validators, one per schema file, with `defs.json` registered for their `$ref`s.
struct Schemas {
    dir: std::path::PathBuf,
}

impl Schemas {
    fn new() -> Schemas {
        Schemas { dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas") }
    }

    fn load(&self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"))
    }

    fn validator(&self, name: &str) -> jsonschema::Validator {
        let registry = jsonschema::Registry::new()
            .add("urn:arbiter:defs", self.load("defs.json"))
            .and_then(|r| r.prepare())
            .unwrap_or_else(|e| panic!("defs.json: {e}"));
        jsonschema::options()
            .with_registry(&registry)
            .build(&self.load(name))
            .unwrap_or_else(|e| panic!("{name} is not a valid schema: {e}"))
    }

    /// Validate `instance` against schema `name`, naming every error.
    #[track_caller]
    fn check(&self, name: &str, instance: &Value) {
        let validator = self.validator(name);
        let errors: Vec<String> =
            validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{name}:\n{}\n{instance:#}", errors.join("\n"));
    }
}

/// A derived log whose first roll is recorded twice and the copy undone.
fn undone(s: &Sandbox) -> String {
    s.derive("undone.arb", WON, |lines| {
        let at = lines.iter().position(|l| l.starts_with("roll")).expect("a roll");
        lines.insert(at + 1, "undo".into());
        lines.insert(at + 1, lines[at].clone());
    })
}

/// The JSON a command printed (and its exit code checked).
#[track_caller]
fn json(s: &Sandbox, args: &[&str], code: i32) -> Value {
    let run = s.run(args).expect(code);
    serde_json::from_str(&run.out())
        .unwrap_or_else(|e| panic!("{args:?} did not print JSON ({e}):\n{}", run.out()))
}

#[test]
fn every_schema_is_a_valid_schema_and_refuses_what_it_should() {
    let schemas = Schemas::new();
    for entry in std::fs::read_dir(&schemas.dir).expect("schemas/") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") {
            schemas.validator(&name);
        }
    }
    // The schemas can fail: an unknown field, a wrong type, a missing field.
    let v = schemas.validator("error.json");
    assert!(v.is_valid(&serde_json::json!({"error": "x", "kind": "io", "exit_code": 2})));
    assert!(!v.is_valid(&serde_json::json!({"error": "x", "kind": "io", "exit_code": 2, "extra": 1})));
    assert!(!v.is_valid(&serde_json::json!({"error": "x", "kind": "io", "exit_code": 1})));
    assert!(!v.is_valid(&serde_json::json!({"kind": "io", "exit_code": 2})));
}

#[test]
fn verify_outputs_match_their_schema() {
    let (s, schemas) = (Sandbox::new(), Schemas::new());
    let mut outputs = vec![
        json(&s, &["verify", WON, "--json"], 0),
        json(&s, &["verify", BREAKS, "--json"], 1),
        json(&s, &["verify", BREAKS, "--json", "--max-findings", "0"], 1),
        json(&s, &["verify", UNVERIFIED, "--json"], 1),
        json(&s, &["verify", UNAPPLICABLE, "--json"], 1),
        json(&s, &["verify", UNVERIFIED, "--json", "--strict"], 1),
        json(&s, &["verify", WON, "--json", "--derive"], 0),
    ];
    let undone = undone(&s);
    outputs.push(json(&s, &["verify", &undone, "--json"], 0));
    // A line that cannot be read after the head was printed: the document is closed with
    // `fatal` and still parses.
    let garbled = s.derive("garbled.arb", WON, |l| l.push("roll 9 9 x".into()));
    outputs.push(json(&s, &["verify", &garbled, "--json"], 2));
    let kinds: Vec<String> = outputs
        .iter()
        .flat_map(|o| o["findings"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f["kind"].as_str().map(str::to_string))
        .collect();
    for kind in ["violation", "unverified", "retracted"] {
        assert!(kinds.iter().any(|k| k == kind), "no `{kind}` finding was exercised");
    }
    assert!(outputs.iter().any(|o| o["incomplete"].is_object()), "no incomplete log was exercised");
    assert!(outputs.iter().any(|o| o["error"].is_object()), "no unapplicable record was exercised");
    assert!(outputs.iter().any(|o| o["fatal"].is_object()), "no fatal error was exercised");
    for o in &outputs {
        schemas.check("verify.json", o);
    }
}

#[test]
fn replay_explain_and_diff_outputs_match_their_schemas() {
    let (s, schemas) = (Sandbox::new(), Schemas::new());
    schemas.check("replay.json", &json(&s, &["replay", WON, "--json"], 0));
    schemas.check("replay.json", &json(&s, &["replay", BREAKS, "--to", "9", "--json"], 0));
    schemas.check("replay.json", &json(&s, &["replay", UNAPPLICABLE, "--json"], 0));
    let undone = undone(&s);
    for n in ["6", "7", "8"] {
        schemas.check("explain.json", &json(&s, &["explain", &undone, n, "--json"], 0));
    }
    schemas.check("explain.json", &json(&s, &["explain", BREAKS, "8", "--json"], 0));
    let stops = json(&s, &["verify", UNAPPLICABLE, "--json"], 1)["error"]["record"]["index"].to_string();
    let unapplicable = json(&s, &["explain", UNAPPLICABLE, &stops, "--json"], 0);
    assert_eq!(unapplicable["status"], "unapplicable");
    schemas.check("explain.json", &unapplicable);

    let other = s.derive("other.arb", WON, |lines| {
        let at = lines.len() - 5;
        lines.insert(at, "stop".into());
    });
    let short = s.derive("short.arb", WON, |lines| lines.truncate(lines.len() - 3));
    let mut reasons = Vec::new();
    for (a, b, code, extra) in [
        (WON, WON, 0, ""),
        (WON, other.as_str(), 1, "--all"),
        (WON, short.as_str(), 1, ""),
        (WON, &format!("{WON}@modules=shields"), 1, ""),
        // The same state, judged otherwise: which die a wound exhausts.
        (WON, &format!("{WON}@exhaust-from=wounding-enemy"), 1, ""),
        (SPLIT, &format!("{SPLIT}@health=6"), 1, ""),
    ] {
        let mut args = vec!["diff", a, b, "--json", "--context", "2"];
        if !extra.is_empty() {
            args.push(extra);
        }
        let out = json(&s, &args, code);
        schemas.check("diff.json", &out);
        for d in out["divergences"].as_array().cloned().unwrap_or_default() {
            reasons.push(d["reason"].as_str().unwrap_or_default().to_string());
        }
    }
    for reason in ["events-differ", "prefix", "verdicts-differ", "states-differ"] {
        assert!(reasons.iter().any(|r| r == reason), "no `{reason}` split was exercised: {reasons:?}");
    }
}

#[test]
fn fixtures_log_check_rules_and_error_outputs_match_their_schemas() {
    let (s, schemas) = (Sandbox::new(), Schemas::new());
    let all = json(&s, &["fixtures", "fixtures", "--json", "--require-full-coverage"], 0);
    assert!(all["fixtures"].as_array().is_some_and(|f| f.iter().any(|c| c["kind"] == "coverage")));
    schemas.check("fixtures.json", &all);
    let suite = s.path("suite");
    std::fs::create_dir_all(&suite).expect("dir");
    std::fs::copy(BREAKS, suite.join("a.arb")).expect("copy");
    std::fs::write(suite.join("b.arb"), "@game proving-grounds\n@expect clean\nroll 9\n").expect("write");
    std::fs::write(suite.join("c.arb"), "not a log\n").expect("write");
    let failing = json(&s, &["fixtures", &suite.to_string_lossy(), "--json", "--require-full-coverage"], 1);
    schemas.check("fixtures.json", &failing);
    let empty = s.path("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    schemas.check("fixtures.json", &json(&s, &["fixtures", &empty.to_string_lossy(), "--json"], 1));

    s.run(&["import", WON, "--session", "won"]).expect(0);
    let undone = undone(&s);
    s.run(&["import", &undone, "--session", "undone"]).expect(0);
    schemas.check("log.json", &json(&s, &["log", "undone", "--json"], 0));
    schemas.check("log.json", &json(&s, &["log", WON, "--json"], 0));
    let garbled = s.derive("garbled.arb", WON, |l| l.push("roll 9 9 x".into()));
    let closed = json(&s, &["log", &garbled, "--json"], 2);
    assert!(closed["fatal"].is_object(), "{closed}");
    schemas.check("log.json", &closed);
    schemas.check("check.json", &json(&s, &["check", "won", "--json"], 0));
    for game in ["proving-grounds", "keridwyn-fight"] {
        schemas.check("rules.json", &json(&s, &["rules", game, "--json"], 0));
    }
    for args in [
        vec!["verify", "no-such-file.arb", "--json"],
        vec!["replay", "nosuch", "--json"],
        vec!["explain", WON, "9999", "--json"],
        vec!["diff", WON, "fixtures/keridwyn-fight/wyvern-sample-round.arb", "--json"],
        vec!["fixtures", "no/such/dir", "--json"],
        vec!["log", "nosuch", "--json"],
        vec!["check", "nosuch", "--json"],
        vec!["rules", "chess", "--json"],
        vec!["verify", "--json", "--no-such-option"],
    ] {
        let out = json(&s, &args, 2);
        schemas.check("error.json", &out);
    }
}

#[test]
fn games_sessions_and_audit_outputs_match_their_schemas() {
    let (s, schemas) = (Sandbox::new(), Schemas::new());
    schemas.check("games.json", &json(&s, &["games", "--json"], 0));
    s.run(&["import", WON, "--session", "won"]).expect(0);
    s.run(&["import", BREAKS, "--session", "breaks"]).expect(0);
    s.run(&["fork", "won", "--at", "5", "--into", "branch"]).expect(0);
    s.run(&["new", "empty", "--game", "keridwyn-fight", "--title", "nothing yet"]).expect(0);
    schemas.check("sessions.json", &json(&s, &["sessions", "--json"], 0));
    let first = json(&s, &["verify", "--all", "--json"], 0);
    assert!(first["sessions"]
        .as_array()
        .is_some_and(|l| l.iter().any(|x| x["verdict"]["verdict"] == "violations")));
    schemas.check("audit.json", &first);
    // Another reading: a changed verdict, with its sentences.
    let changed = json(&s, &["verify", "--all", "--json", "--no-save", "--variant", "modules=shields"], 1);
    assert!(changed["summary"]["changed"].as_u64().is_some_and(|n| n > 0), "{changed}");
    schemas.check("audit.json", &changed);
}

#[test]
fn exported_jsonl_lines_match_the_log_file_schemas() {
    let (s, schemas) = (Sandbox::new(), Schemas::new());
    let undone = undone(&s);
    for source in
        [WON, BREAKS, UNVERIFIED, "fixtures/proving-grounds/interp-exhaust-from-wounding-enemy.arb", &undone]
    {
        let text = s.run(&["export", source, "--format", "jsonl"]).expect(0).out();
        let mut lines = text.lines();
        let header: Value = serde_json::from_str(lines.next().expect("a header")).expect("JSON");
        schemas.check("jsonl-header.json", &header);
        for line in lines {
            let record: Value = serde_json::from_str(line).expect("JSON");
            schemas.check("jsonl-record.json", &record);
        }
    }
}
