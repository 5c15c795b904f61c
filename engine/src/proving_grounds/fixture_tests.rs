//! Runs the fixture files of `fixtures/proving-grounds/` through this game's parser and
//! step function, comparing what happens with their `@expect` and `@assert` lines.
//!
//! The generic runner lives in the verify crate; this small one keeps the game's own
//! fixtures checked from the engine's tests, and checks that every rule id is broken by
//! at least one fixture.

use super::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/proving-grounds")
}

enum Record {
    Event(Event),
    Undo,
}

/// Run one fixture; `Err` lists what did not match. Returns the rule ids it expected.
fn run(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut pairs: Vec<String> = Vec::new();
    let mut catalog = ILLUSTRATIVE.to_string();
    let mut records = Vec::new();
    let mut expects: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut expect_error: Option<usize> = None;
    let mut expect_clean = false;
    let mut expect_unverified: BTreeSet<usize> = BTreeSet::new();
    let mut asserts: Vec<(Option<usize>, String, String, usize)> = Vec::new();
    let mut first = true;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let lineno = n + 1;
        if let Some(d) = line.strip_prefix('@') {
            let (name, rest) = d.split_once(' ').unwrap_or((d, ""));
            let rest = rest.trim();
            match name {
                "game" if rest == "proving-grounds" => {}
                "game" => return Err(format!("line {lineno}: wrong game `{rest}`")),
                "setup" | "variant" => pairs.extend(rest.split_whitespace().map(str::to_string)),
                "catalog" if rest == "illustrative" => {}
                "catalog" => {
                    let p = path.parent().unwrap_or(Path::new(".")).join(rest);
                    catalog =
                        std::fs::read_to_string(&p).map_err(|e| format!("catalog {}: {e}", p.display()))?;
                }
                "title" => {}
                "expect" => {
                    let w: Vec<&str> = rest.split_whitespace().collect();
                    match w.as_slice() {
                        ["clean"] => expect_clean = true,
                        ["violation", i, rule] => {
                            let i = i.parse().map_err(|_| format!("line {lineno}: bad index"))?;
                            expects.insert((i, rule.to_string()));
                        }
                        ["error", i] => expect_error = i.parse().ok(),
                        // Where two readings split is a property of the diff, which the
                        // verify crate's runner checks (`arbiter fixtures`).
                        ["split", _, _] => {}
                        ["unverified", i] => {
                            expect_unverified
                                .insert(i.parse().map_err(|_| format!("line {lineno}: bad index"))?);
                        }
                        _ => return Err(format!("line {lineno}: unknown expectation `{rest}`")),
                    }
                }
                "assert" => {
                    let (lhs, value) =
                        rest.split_once('=').ok_or(format!("line {lineno}: `@assert N KEY = VALUE`"))?;
                    let mut lw = lhs.split_whitespace();
                    let at = match lw.next() {
                        Some("end") => None,
                        Some(i) => Some(i.parse().map_err(|_| format!("line {lineno}: bad index"))?),
                        None => return Err(format!("line {lineno}: bad assert")),
                    };
                    let key = lw.next().ok_or(format!("line {lineno}: no key"))?.to_string();
                    asserts.push((at, key, value.trim().to_string(), lineno));
                }
                _ => return Err(format!("line {lineno}: unknown directive @{name}")),
            }
            if first && name != "game" {
                return Err(format!("line {lineno}: `@game` must come first"));
            }
            first = false;
            continue;
        }
        if line == "undo" {
            records.push(Record::Undo);
        } else {
            let e = notation::parse_event(line).map_err(|e| format!("line {lineno}: {e}"))?;
            records.push(Record::Event(e));
        }
    }
    let setup = Setup::from_pairs(pairs.iter().map(String::as_str)).map_err(|e| e.to_string())?;
    let game = ProvingGrounds::new(&setup, &catalog).map_err(|e| e.to_string())?;
    let mut retracted = vec![false; records.len()];
    for i in 0..records.len() {
        if let Record::Undo = records[i] {
            if let Some(j) = (0..i).rev().find(|&j| matches!(records[j], Record::Event(_)) && !retracted[j]) {
                retracted[j] = true;
            }
        }
    }
    let mut state = game.initial_state();
    let mut seen: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut problems = Vec::new();
    let mut findings = Findings::default();
    let mut stopped = None;
    let check_asserts = |at: Option<usize>, state: &State, problems: &mut Vec<String>| {
        let facts = game.facts(state);
        for (when, key, value, lineno) in &asserts {
            if *when == at {
                match facts.iter().find(|(k, _)| k == key) {
                    Some((_, v)) if v == value => {}
                    Some((_, v)) => problems.push(format!("line {lineno}: {key} = {v}, expected {value}")),
                    None => problems.push(format!("line {lineno}: no fact `{key}`")),
                }
            }
        }
    };
    for (i, r) in records.iter().enumerate() {
        if let (Record::Event(e), false) = (r, retracted[i]) {
            findings.clear();
            if let Err(err) = game.step(&mut state, e, &mut findings) {
                stopped = Some(i);
                if expect_error != Some(i) {
                    problems.push(format!("record {i} `{e}` cannot be applied: {err}"));
                }
                break;
            }
            if !findings.unverified.is_empty() {
                expect_unverified.remove(&i);
            }
            for v in &findings.violations {
                seen.insert((i, v.rule.to_string()));
                if !expects.contains(&(i, v.rule.to_string())) {
                    problems.push(format!("record {i} `{e}`: unexpected {v}"));
                }
            }
        }
        check_asserts(Some(i), &state, &mut problems);
    }
    if stopped.is_none() {
        check_asserts(None, &state, &mut problems);
    }
    for (when, key, _, lineno) in &asserts {
        if let Some(i) = when.filter(|&i| i >= records.len() || stopped.is_some_and(|s| i >= s)) {
            problems.push(format!("line {lineno}: `@assert {i} {key}` names a record never replayed"));
        }
    }
    if expect_error.is_some() && stopped != expect_error {
        problems.push(format!("expected an error at record {expect_error:?}"));
    }
    for (i, rule) in expects.difference(&seen) {
        problems.push(format!("record {i}: expected {rule}, not reported"));
    }
    for i in expect_unverified {
        problems.push(format!("record {i}: expected an unverified effect, none reported"));
    }
    if expect_clean && !seen.is_empty() {
        problems.push("expected clean".into());
    }
    if problems.is_empty() {
        Ok(expects.into_iter().map(|(_, r)| r).collect())
    } else {
        Err(problems.join("\n  "))
    }
}

#[test]
fn every_fixture_passes_and_every_rule_is_broken_by_one() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|x| x == "arb"));
    paths.sort();
    assert!(paths.len() > 20, "fixtures not found in {}", fixture_dir().display());
    let mut failures = Vec::new();
    let mut covered = BTreeSet::new();
    for p in &paths {
        match run(p) {
            Ok(rules) => covered.extend(rules),
            Err(why) => failures.push(format!("{}:\n  {why}", p.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
    let missing: Vec<&str> = RULES.iter().map(|r| r.id).filter(|id| !covered.contains(*id)).collect();
    assert!(missing.is_empty(), "rules no fixture breaks: {missing:?}");
}
