//! Every clean fixture of every game can be completed from its decisions and random
//! outcomes alone: drop its consequences, then insert what `next_consequence` owes before
//! each decision (unless the game says the decision may come first,
//! `precedes_consequences`) and at the end. The result must be the fixture itself, record
//! for record (a run of consequences between two decisions compared as a multiset: the
//! rules name no order for some of them), followed only by the consequences a log cut short
//! still owes. This is what `verify --derive` does, and the rulebooks' worked examples
//! (the Wyvern's sample round among them) must survive it.
//!
//! Generic over the kernel: each game of the registry is visited through `dispatch`. A
//! game is held to it once its consequence chain is derived (`kit::due`): Proving Grounds'
//! optional records (a `hold` a table may leave out) do not complete yet, and join the list
//! when its port to the kit lands.

/// The games whose clean fixtures must complete exactly.
const HELD: &[&str] = &["keridwyn-fight"];

mod common;

use arbiter_engine::{dispatch, game_ids, Findings, Game, GameVisitor};
use common::{fixtures_of, Fixture};

/// Complete a log of decisions and random outcomes.
fn complete<G: Game>(game: &G, decisions: Vec<G::Event>) -> Result<Vec<G::Event>, String> {
    let mut state = game.initial_state();
    let mut completed = Vec::new();
    let mut queue = decisions.into_iter().peekable();
    for _ in 0..1_000_000 {
        let first = queue.peek().is_some_and(|d| game.precedes_consequences(&state, d));
        let e = match game.next_consequence(&state) {
            Some(c) if !first => c,
            _ => match queue.next() {
                Some(d) => d,
                None => return Ok(completed),
            },
        };
        let mut f = Findings::default();
        game.step(&mut state, &e, &mut f).map_err(|err| format!("`{e}`: {err}"))?;
        if !f.is_clean() {
            return Err(format!("`{e}`: {:?}", f.violations));
        }
        completed.push(e);
    }
    Err("no end".into())
}

/// The log without the consequences that change nothing (a table may write `damage A 0
/// block 0 injury 0` for a hit that did nothing): the rules never owe them, so completion
/// does not produce them, and the verdict is clean either way.
fn without_no_op_consequences<G: Game>(game: &G, events: Vec<G::Event>) -> Vec<G::Event> {
    let mut state = game.initial_state();
    let mut kept = Vec::new();
    for e in events {
        let before = state.clone();
        let mut f = Findings::default();
        if game.step(&mut state, &e, &mut f).is_err() || !(G::is_consequence(&e) && state == before) {
            kept.push(e);
        }
    }
    kept
}

/// Whether the completed log is the fixture, record for record, except that the
/// consequences between two decisions may stand in another order: a log may write the ones
/// the rules name no order for (a Keridwyn hit's "Slow and Weak", l.58) either way, and
/// completion writes them in the order the rules' chain derives them. Each run of
/// consequences is compared as a multiset (by its notation), every decision in place.
fn same_up_to_free_order<G: Game>(done: &[G::Event], full: &[G::Event]) -> bool {
    if done.len() != full.len() {
        return false;
    }
    let mut i = 0;
    while i < full.len() {
        if !G::is_consequence(&full[i]) {
            if done[i] != full[i] {
                return false;
            }
            i += 1;
            continue;
        }
        let end = (i..full.len()).find(|&j| !G::is_consequence(&full[j])).unwrap_or(full.len());
        let sorted = |run: &[G::Event]| {
            let mut v: Vec<String> = run.iter().map(|e| e.to_string()).collect();
            v.sort();
            v
        };
        if sorted(&done[i..end]) != sorted(&full[i..end]) {
            return false;
        }
        i = end;
    }
    true
}

#[derive(Clone, Copy)]
struct Completes;

impl GameVisitor for Completes {
    type Output = usize;
    fn visit<G: Game>(self) -> usize {
        let id = G::info().id;
        let mut checked = 0;
        let mut failures = Vec::new();
        for path in fixtures_of(id) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            // Clean fixtures without retractions: completion works on the effective records.
            let Some(fixture) = Fixture::parse(&text).filter(|f| f.clean) else { continue };
            let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let Some(game) = fixture.game::<G>(&path) else { continue };
            let parsed: Vec<G::Event> =
                fixture.lines.iter().filter_map(|l| game.parse_event(l).ok()).collect();
            let full = without_no_op_consequences(&game, parsed);
            let decisions = full.iter().filter(|e| !G::is_consequence(e)).cloned().collect();
            match complete(&game, decisions) {
                // A log that ends owing consequences completes with them (and nothing else).
                Ok(done)
                    if same_up_to_free_order::<G>(&done[..full.len().min(done.len())], &full)
                        && done[full.len()..].iter().all(G::is_consequence) =>
                {
                    checked += 1
                }
                Ok(done) => {
                    let at = done
                        .iter()
                        .zip(&full)
                        .position(|(a, b)| a != b)
                        .unwrap_or(done.len().min(full.len()));
                    failures.push(format!(
                        "{name}: record {at} completes as `{}`, the fixture has `{}`",
                        done.get(at).map(|e| e.to_string()).unwrap_or_default(),
                        full.get(at).map(|e| e.to_string()).unwrap_or_default()
                    ));
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
        if !HELD.contains(&id) {
            eprintln!("{id}: {checked} clean fixtures complete, {} do not (not held yet)", failures.len());
            return usize::MAX;
        }
        assert!(
            failures.is_empty(),
            "{id}: clean fixtures that do not complete from their decisions:\n{}",
            failures.join("\n")
        );
        checked
    }
}

#[test]
fn every_clean_fixture_completes_from_its_decisions_alone() {
    let checked: Vec<(String, usize)> =
        game_ids().into_iter().map(|id| (id.to_string(), dispatch(id, Completes).unwrap_or(0))).collect();
    for (id, n) in &checked {
        assert!(*n >= 5, "{id}: only {n} clean fixtures completed");
    }
    assert!(HELD.iter().all(|h| checked.iter().any(|(id, _)| id == h)), "a held game is not in the registry");
}
