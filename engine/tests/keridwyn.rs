//! Runs every fixture in fixtures/keridwyn-fight through the engine alone (until the verify
//! crate's runner covers them): each event line is parsed and stepped, violations are
//! compared with `@expect violation N RULE` (all of them, both ways), `@expect error N` with
//! the record that cannot be applied, `@expect unverified N`, and facts with `@assert`.
//! Also checks that every rule id is broken by some fixture and that printing an event
//! parses back to it.

use arbiter_engine::keridwyn::{Event, KeridwynFight};
use arbiter_engine::{Findings, Game, Setup};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Fixture {
    setup: Vec<String>,
    variants: Vec<String>,
    records: Vec<(usize, Option<String>)>,
    clean: bool,
    violations: BTreeSet<(usize, String)>,
    errors: Vec<usize>,
    unverified: BTreeSet<usize>,
    asserts: Vec<(Option<usize>, String, String, usize)>,
}

fn read(path: &Path) -> Result<Fixture, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut fx = Fixture::default();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("{}:{}: malformed directive `{line}`", path.display(), n + 1);
        if let Some(d) = line.strip_prefix('@') {
            let (name, rest) = d.split_once(' ').unwrap_or((d, ""));
            let words: Vec<&str> = rest.split_whitespace().collect();
            match name {
                "game" if rest.trim() == "keridwyn-fight" => {}
                "game" => return Err(format!("{}: not a keridwyn-fight log", path.display())),
                "catalog" if rest.trim() == "illustrative" => {}
                "title" => {}
                "setup" => fx.setup.extend(words.iter().map(|w| w.to_string())),
                "variant" => fx.variants.extend(words.iter().map(|w| w.to_string())),
                "expect" => match words.as_slice() {
                    ["clean"] => fx.clean = true,
                    ["violation", i, rule] => {
                        fx.violations.insert((i.parse().map_err(|_| bad())?, rule.to_string()));
                    }
                    ["error", i] => fx.errors.push(i.parse().map_err(|_| bad())?),
                    ["unverified", i] => {
                        fx.unverified.insert(i.parse().map_err(|_| bad())?);
                    }
                    _ => return Err(bad()),
                },
                "assert" => {
                    let (lhs, value) = rest.split_once('=').ok_or_else(bad)?;
                    let mut l = lhs.split_whitespace();
                    let at = l.next().ok_or_else(bad)?;
                    let key = l.next().ok_or_else(bad)?.to_string();
                    let at = if at == "end" { None } else { Some(at.parse().map_err(|_| bad())?) };
                    fx.asserts.push((at, key, value.trim().to_string(), n + 1));
                }
                _ => return Err(bad()),
            }
        } else if line == "undo" {
            fx.records.push((n + 1, None));
        } else {
            fx.records.push((n + 1, Some(line.to_string())));
        }
    }
    Ok(fx)
}

/// Run one fixture; `Err` lists every mismatch.
fn run(path: &Path) -> Result<BTreeSet<String>, String> {
    let fx = read(path)?;
    let pairs: Vec<&str> = fx.setup.iter().chain(fx.variants.iter()).map(String::as_str).collect();
    let setup = Setup::from_pairs(pairs).map_err(|e| e.to_string())?;
    let game = KeridwynFight::new(&setup, KeridwynFight::builtin_catalog("illustrative").unwrap_or(""))
        .map_err(|e| e.to_string())?;
    let mut problems = Vec::new();
    let mut parsed = Vec::new();
    for (line, text) in &fx.records {
        match text {
            None => parsed.push(None),
            Some(t) => match game.parse_event(t) {
                Ok(e) => {
                    if game.parse_event(&e.to_string()).as_ref() != Ok(&e) {
                        problems.push(format!("line {line}: `{e}` does not parse back"));
                    }
                    parsed.push(Some(e))
                }
                Err(e) => return Err(format!("{}:{line}: {e}", path.display())),
            },
        }
    }
    // An `undo` retracts the latest record not yet retracted.
    let mut live = vec![true; parsed.len()];
    for i in 0..parsed.len() {
        if parsed[i].is_none() {
            live[i] = false;
            if let Some(j) = (0..i).rev().find(|&j| live[j] && parsed[j].is_some()) {
                live[j] = false;
            }
        }
    }
    let mut state = game.initial_state();
    let mut seen = BTreeSet::new();
    let mut unverified = BTreeSet::new();
    let mut rules_hit = BTreeSet::new();
    let mut stopped = None;
    let check_asserts =
        |at: Option<usize>, state: &<KeridwynFight as Game>::State, problems: &mut Vec<String>| {
            let facts = game.facts(state);
            for (when, key, value, line) in &fx.asserts {
                if *when == at {
                    match facts.iter().find(|(k, _)| k == key) {
                        Some((_, v)) if v == value => {}
                        Some((_, v)) => problems.push(format!("line {line}: {key} is `{v}`, not `{value}`")),
                        None => problems.push(format!("line {line}: no fact `{key}`")),
                    }
                }
            }
        };
    for (i, e) in parsed.iter().enumerate() {
        let Some(e) = e.as_ref().filter(|_| live[i]) else {
            check_asserts(Some(i), &state, &mut problems);
            continue;
        };
        let mut f = Findings::default();
        if let Err(err) = game.step(&mut state, e, &mut f) {
            stopped = Some(i);
            if !fx.errors.contains(&i) {
                problems.push(format!("record {i} `{e}`: unexpected error: {err}"));
            }
            if let Some(r) = err.rule {
                rules_hit.insert(r.to_string());
            }
            break;
        }
        for v in &f.violations {
            seen.insert((i, v.rule.to_string()));
            rules_hit.insert(v.rule.to_string());
            if !fx.violations.contains(&(i, v.rule.to_string())) {
                problems.push(format!("record {i} `{e}`: unexpected violation {v}"));
            }
        }
        if !f.unverified.is_empty() {
            unverified.insert(i);
        }
        check_asserts(Some(i), &state, &mut problems);
    }
    if stopped.is_none() {
        check_asserts(None, &state, &mut problems);
    }
    for (i, rule) in &fx.violations {
        if !seen.contains(&(*i, rule.clone())) {
            problems.push(format!("record {i}: expected violation {rule} did not happen"));
        }
    }
    for i in &fx.errors {
        if stopped != Some(*i) {
            problems.push(format!("record {i}: expected an error, replay stopped at {stopped:?}"));
        }
    }
    if unverified != fx.unverified {
        problems.push(format!("unverified records {unverified:?}, expected {:?}", fx.unverified));
    }
    if fx.clean && !seen.is_empty() {
        problems.push("expected clean".into());
    }
    if problems.is_empty() {
        Ok(rules_hit)
    } else {
        Err(format!("{}:\n  {}", path.display(), problems.join("\n  ")))
    }
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/keridwyn-fight")
}

#[test]
fn every_fixture_passes_and_every_rule_is_broken_by_one() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("the fixture directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "arb"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut covered = BTreeSet::new();
    for f in &files {
        match run(f) {
            Ok(hit) => covered.extend(hit),
            Err(e) => failures.push(e),
        }
    }
    let uncovered: Vec<&str> =
        KeridwynFight::rules().iter().map(|r| r.id).filter(|id| !covered.contains(*id)).collect();
    assert!(failures.is_empty(), "{} fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
    assert!(uncovered.is_empty(), "rules no fixture breaks: {uncovered:?}");
}

/// Complete a log from its decisions and random outcomes alone, inserting what
/// `next_consequence` owes (a reroll or recall goes before the outcome it changes).
fn complete(game: &KeridwynFight, decisions: Vec<Event>) -> Result<Vec<Event>, String> {
    let mut state = game.initial_state();
    let mut completed = Vec::new();
    let mut queue = decisions.into_iter().peekable();
    loop {
        let roll_change =
            queue.peek().is_some_and(|e| matches!(e, Event::Reroll { .. } | Event::Recall { .. }));
        let e = match game.next_consequence(&state) {
            Some(c) if !(roll_change && matches!(c, Event::Outcome { .. })) => c,
            _ => match queue.next() {
                Some(d) => d,
                None => return Ok(completed),
            },
        };
        let mut f = Findings::default();
        game.step(&mut state, &e, &mut f).map_err(|err| format!("{e}: {err}"))?;
        if !f.is_clean() {
            return Err(format!("{e}: {:?}", f.violations));
        }
        completed.push(e);
    }
}

#[test]
fn every_clean_fixture_can_be_completed_from_its_decisions_alone() {
    let mut checked = 0;
    for entry in std::fs::read_dir(fixture_dir()).expect("the fixture directory exists") {
        let path = entry.expect("a directory entry").path();
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        if !text.lines().any(|l| l.trim() == "@expect clean") {
            continue;
        }
        let fx = read(&path).expect("a well-formed fixture");
        let pairs: Vec<&str> = fx.setup.iter().chain(fx.variants.iter()).map(String::as_str).collect();
        let setup = Setup::from_pairs(pairs).expect("a valid setup");
        let game = KeridwynFight::new(&setup, arbiter_engine::keridwyn::ILLUSTRATIVE).expect("a valid game");
        let full: Vec<Event> = fx
            .records
            .iter()
            .filter_map(|(_, t)| t.as_ref())
            .map(|t| game.parse_event(t).expect("parses"))
            .collect();
        let decisions = full.iter().filter(|e| !KeridwynFight::is_consequence(e)).cloned().collect();
        let completed = complete(&game, decisions).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(completed, full, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} clean fixtures");
}

/// The violations of the last record of a fixture (the break fixtures stop at their break).
fn last_record_violations(name: &str) -> Vec<arbiter_engine::Violation> {
    let fx = read(&fixture_dir().join(name)).unwrap_or_else(|e| panic!("{e}"));
    let game =
        KeridwynFight::new(&Setup::default(), KeridwynFight::builtin_catalog("illustrative").unwrap_or(""))
            .unwrap_or_else(|e| panic!("{e}"));
    let mut state = game.initial_state();
    let mut last = Findings::default();
    for (_, text) in &fx.records {
        let Some(t) = text else { panic!("{name}: no undo expected") };
        let e = game.parse_event(t).unwrap_or_else(|e| panic!("{name}: {e}"));
        last = Findings::default();
        game.step(&mut state, &e, &mut last).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    last.violations
}

#[test]
fn the_specific_ids_for_a_wrong_number_give_expected_and_recorded() {
    let cases = [
        ("break-weak.arb", "kf.ailment.weak", "damage A 4 block 0 injury 4"),
        ("break-dazzle.arb", "kf.ailment.dazzle", "miss C"),
        ("break-slow.arb", "kf.ailment.slow", "act A strike"),
        ("break-effect-replace.arb", "kf.effect.replace", "damage wyvern 8 block 3 injury 5"),
        ("break-whole-fight.arb", "kf.effect.whole-fight", "damage wyvern 8 block 3 injury 5"),
        ("break-accuracy-difficulty.arb", "kf.damage.accuracy-difficulty", "damage boar 6 block 1 injury 5"),
        ("break-extra-priority.arb", "kf.monster.extra-priority", "act boar gore"),
        ("break-seating.arb", "kf.monster.seating", "act boar gore"),
        ("break-attacker-benefit.arb", "kf.attack.attacker-benefit", "miss B"),
        ("break-extra-grit.arb", "kf.monster.extra-grit", "boar at 3 Grit"),
    ];
    for (file, rule, expected) in cases {
        let v = last_record_violations(file);
        assert_eq!(v.len(), 1, "{file}: {v:?}");
        assert_eq!(v[0].rule, rule, "{file}");
        assert_eq!(v[0].expected.as_deref(), Some(expected), "{file}");
        assert!(v[0].recorded.is_some(), "{file}: no recorded value");
    }
}

#[test]
fn a_broad_id_stays_when_no_single_rule_explains_the_number() {
    // 7 instead of 8 with Enhance Power and Accuracy both at +1: either could be the one left
    // out, so it stays kf.damage.amount (and a Block short by 1 stays kf.damage.block).
    for (file, rule) in [("break-damage.arb", "kf.damage.amount"), ("break-block.arb", "kf.damage.block")] {
        let v = last_record_violations(file);
        assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), vec![rule], "{file}");
    }
}

#[test]
fn random_fights_are_legal_whole_and_reproducible() {
    let game =
        KeridwynFight::new(&Setup::default(), KeridwynFight::builtin_catalog("illustrative").unwrap_or(""))
            .unwrap_or_else(|e| panic!("{e}"));
    let mut ended = 0;
    let mut distinct = BTreeSet::new();
    for seed in 1..=20u64 {
        let log = game.random_fight(seed, 2_000);
        assert!(!log.is_empty(), "seed {seed}: no event");
        let mut state = game.initial_state();
        for (i, e) in log.iter().enumerate() {
            if KeridwynFight::is_consequence(e) {
                assert_eq!(game.next_consequence(&state).as_ref(), Some(e), "seed {seed} record {i}");
            }
            let mut f = Findings::default();
            game.step(&mut state, e, &mut f)
                .unwrap_or_else(|err| panic!("seed {seed} record {i} `{e}`: {err}"));
            assert!(f.is_clean(), "seed {seed} record {i} `{e}`: {:?}", f.violations);
        }
        if log.len() < 2_000 {
            ended += 1;
            assert_eq!(game.next_consequence(&state), None, "seed {seed}: ended owing a consequence");
            let phase = game.facts(&state).into_iter().find(|(k, _)| k == "phase").map(|(_, v)| v);
            assert_eq!(phase.as_deref(), Some("over"), "seed {seed}: stopped before the fight ended");
        }
        assert_eq!(game.random_fight(seed, 2_000), log, "seed {seed}: not reproducible");
        let half = log.len() / 2;
        assert_eq!(game.random_fight(seed, half), log[..half].to_vec(), "seed {seed}: not a prefix");
        distinct.insert(format!("{log:?}"));
    }
    assert!(ended >= 15, "only {ended} of 20 fights ended");
    assert_eq!(distinct.len(), 20, "seeds gave the same fight");
    // `Game::simulate` is this fight (engine/tests/simulation.rs runs it with every game).
    assert_eq!(game.simulate(1, 10), Some(game.random_fight(1, 10)));
}
