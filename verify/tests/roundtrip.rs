//! Property tests: one validation for both formats, and every stored field round-trips.
//!
//! - A JSONL event that is accepted reads back from its notation line as itself, and a
//!   notation line that is accepted reads back from its JSONL form as itself: both formats
//!   go through the game's `parse_event`, so neither accepts what the other refuses. The
//!   events are the real games' (taken from the shipped fixtures), with their numbers and
//!   words mutated at random.
//! - Any title, catalog name and setup value survives notation and JSONL, in a file and
//!   through a session (import, export, import again).

mod toy;

use arbiter_verify::{
    export_string, header_to_json, header_to_notation, import_file, parse_jsonl, parse_notation, Context,
    Format, Header, RawBody, Source,
};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (header line of a JSONL file, event values) of shipped fixtures of every game, read once.
fn pool() -> &'static [(String, Vec<Value>)] {
    static POOL: std::sync::OnceLock<Vec<(String, Vec<Value>)>> = std::sync::OnceLock::new();
    POOL.get_or_init(read_pool)
}

fn read_pool() -> Vec<(String, Vec<Value>)> {
    let ctx = Context::files();
    let mut out = Vec::new();
    for game in ["proving-grounds", "keridwyn-fight"] {
        let dir = root().join("fixtures").join(game);
        let mut files = arbiter_verify::fixture_files(&dir).unwrap_or_default();
        files.truncate(12);
        for path in files {
            let Ok(jsonl) = export_string(&ctx, &Source::file(&path), Format::Jsonl) else { continue };
            let mut lines = jsonl.lines();
            let Some(header) = lines.next() else { continue };
            // Catalogs are named relative to the fixture; the test files live elsewhere.
            let mut header: Value = serde_json::from_str(header).unwrap();
            if let Some(c) = header.get("catalog").and_then(Value::as_str) {
                let beside = path.parent().unwrap().join(c);
                if beside.is_file() {
                    header["catalog"] = beside.display().to_string().into();
                }
            }
            let events: Vec<Value> = lines
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter_map(|v| v.get("event").cloned())
                .collect();
            out.push((header.to_string(), events));
        }
    }
    assert!(out.len() >= 10, "too few fixtures to draw events from");
    out
}

/// `value` with its `n`-th leaf (numbers and strings, in document order) replaced.
fn mutate(value: &Value, n: &mut usize, number: i64, word: &str) -> Value {
    match value {
        Value::Number(_) | Value::String(_) => {
            let replaced = *n == 0;
            *n = n.wrapping_sub(1);
            match (replaced, value) {
                (true, Value::Number(_)) => number.into(),
                (true, Value::String(_)) => word.into(),
                _ => value.clone(),
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| mutate(v, n, number, word)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), mutate(v, n, number, word))).collect())
        }
        other => other.clone(),
    }
}

/// The events of a log as JSON values, in order.
fn events_of(jsonl: &str) -> Vec<Value> {
    jsonl
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<Value>(l).ok()?.get("event").cloned())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_jsonl_event_that_imports_reads_back_from_notation(
        pick in any::<prop::sample::Index>(),
        event in any::<prop::sample::Index>(),
        leaf in 0usize..12,
        number in prop_oneof![-3i64..12, 0i64..300],
        word in "[a-z0-9-]{0,10}",
    ) {
        let pool = pool();
        let (header, events) = &pool[pick.index(pool.len())];
        prop_assume!(!events.is_empty());
        let original = &events[event.index(events.len())];
        let mutated = mutate(original, &mut leaf.clone(), number, &word);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("one.jsonl");
        std::fs::write(&file, format!("{header}\n{}\n", serde_json::json!({ "event": mutated }))).unwrap();
        let ctx = Context::files();
        if let Ok(notation) = export_string(&ctx, &Source::file(&file), Format::Notation) {
            let back = dir.path().join("back.arb");
            std::fs::write(&back, &notation).unwrap();
            let jsonl = export_string(&ctx, &Source::file(&back), Format::Jsonl)
                .map_err(|e| TestCaseError::fail(format!("{notation}\nwas accepted as JSONL but not as notation: {e}")))?;
            // The event as read (a game may put it in a canonical form, such as dice in
            // order) is the event that comes back.
            let read = export_string(&ctx, &Source::file(&file), Format::Jsonl).unwrap();
            prop_assert_eq!(events_of(&jsonl), events_of(&read));
        }
    }

    #[test]
    fn a_notation_line_that_imports_reads_back_from_jsonl(
        pick in any::<prop::sample::Index>(),
        event in any::<prop::sample::Index>(),
        word in any::<prop::sample::Index>(),
        replacement in prop_oneof![(-3i64..12).prop_map(|n| n.to_string()), "[a-z0-9>=-]{1,6}"],
    ) {
        let pool = pool();
        let (header, events) = &pool[pick.index(pool.len())];
        prop_assume!(!events.is_empty());
        let dir = tempfile::tempdir().unwrap();
        let ctx = Context::files();
        // The notation line of one shipped event, one word replaced.
        let seed = dir.path().join("seed.jsonl");
        std::fs::write(&seed, format!("{header}\n{}\n", serde_json::json!({ "event": events[event.index(events.len())] }))).unwrap();
        let notation = export_string(&ctx, &Source::file(&seed), Format::Notation).unwrap();
        let mut lines: Vec<String> = notation.lines().map(str::to_string).collect();
        let last = lines.pop().unwrap();
        let mut words: Vec<&str> = last.split(' ').collect();
        let at = word.index(words.len());
        words[at] = &replacement;
        lines.push(words.join(" "));
        let file = dir.path().join("one.arb");
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        if let Ok(jsonl) = export_string(&ctx, &Source::file(&file), Format::Jsonl) {
            let back = dir.path().join("back.jsonl");
            std::fs::write(&back, &jsonl).unwrap();
            let again = export_string(&ctx, &Source::file(&back), Format::Notation)
                .map_err(|e| TestCaseError::fail(format!("{jsonl}\nwas accepted as notation but not as JSONL: {e}")))?;
            let first = export_string(&ctx, &Source::file(&file), Format::Notation).unwrap();
            prop_assert_eq!(again.lines().last(), first.lines().last());
        }
    }

    #[test]
    fn any_title_catalog_and_setup_value_round_trips_in_both_formats(
        title in any::<String>(),
        catalog in "\\PC{1,20}",
        value in any::<String>(),
    ) {
        let header = Header {
            game: "toy".into(),
            setup: [("start".to_string(), value)].into_iter().collect(),
            catalog: Some(catalog).filter(|c| !c.trim().is_empty()),
            catalog_sha256: None,
            title: Some(title).filter(|t| !t.is_empty()),
            rules_version: Some(2),
        };
        let notation = header_to_notation(&header);
        let read = parse_notation(Path::new("t.arb"), &notation).map_err(|e| TestCaseError::fail(format!("{notation:?}: {e}")))?;
        prop_assert_eq!(&read.header, &header);
        let jsonl = header_to_json(&header);
        prop_assert_eq!(&parse_jsonl(Path::new("t.jsonl"), &jsonl).unwrap().header, &header);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_title_survives_a_session_export_and_import(title in any::<String>()) {
        let d = toy::dir("rt-title");
        let journal = arbiter_journal::Journal::open(d.join("db")).unwrap();
        let ctx = Context::with_games(toy::ToyGames, Some(&journal));
        let header = Header { game: "toy".into(), title: Some(title.clone()).filter(|t| !t.is_empty()), ..Header::default() };
        let file = d.join("a.arb");
        std::fs::write(&file, format!("{}roll 3\nadd 3\n", header_to_notation(&header))).unwrap();
        import_file(&ctx, &file, Some("a")).unwrap();
        for (format, name) in [(Format::Notation, "b.arb"), (Format::Jsonl, "b.jsonl")] {
            let text = export_string(&ctx, &Source::session("a"), format).unwrap();
            let again = d.join(name);
            std::fs::write(&again, &text).unwrap();
            let session = name.replace('.', "-");
            import_file(&ctx, &again, Some(&session)).unwrap();
            prop_assert_eq!(journal.session(&session).unwrap().title, journal.session("a").unwrap().title.clone());
            prop_assert_eq!(journal.session(&session).unwrap().title, title.clone());
            let records = match format {
                Format::Notation => parse_notation(&again, &text).unwrap().records,
                Format::Jsonl => parse_jsonl(&again, &text).unwrap().records,
            };
            prop_assert_eq!(records.len(), 2);
            prop_assert!(!matches!(records[0].body, RawBody::Retract(_)));
        }
    }
}

#[test]
fn values_notation_refuses_are_refused_in_jsonl_too() {
    let (header, events) =
        pool().iter().find(|(h, _)| h.contains("proving-grounds")).expect("a Proving Grounds fixture");
    let roll = events.iter().find(|e| e.to_string().contains("Rolled")).expect("a roll among the events");
    let d = toy::dir("rt-die");
    for die in [0, 7, 200] {
        // Leaves in key order: the first die's colour, then its value.
        let bad = mutate(roll, &mut 1usize.clone(), die, "");
        assert!(bad.to_string().contains(&format!("\"value\":{die}")), "{bad}");
        let file = d.join(format!("die{die}.jsonl"));
        std::fs::write(&file, format!("{header}\n{}\n", serde_json::json!({ "event": bad }))).unwrap();
        let e = export_string(&Context::files(), &Source::file(&file), Format::Notation).unwrap_err();
        assert!(
            e.message.contains(":2:1:") && e.message.contains("is not a valid proving-grounds event"),
            "{e}"
        );
    }
}
