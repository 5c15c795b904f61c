//! Given / when / then tests of rules the fixtures' illustrative catalog does not reach
//! (effects such as `accuracy-difficulty`, `roll +N`, `priority +N`, a card's Immunity),
//! with a small catalog of their own, and checks of the game's static description.

use super::*;
use crate::{Game, ParamKind};

const CATALOG: &str = "
hand lure priority 10
character ann
  grit 10
  fame 1
  skills might 2 finesse 2 wit 2
  card jab keen-eye quick-boots salve fire-ward
character bo
  grit 10
  fame 5
  skills might 2 finesse 2 wit 2
  card jab
  trait hard-to-hit
base jab
  priority 5
  attack might vs might
  effect damage 2
gear keen-eye
  priority 9
  effect roll +1
  effect accuracy-difficulty -1
gear quick-boots
  priority 12
  rounds 2
  effect priority +3
spell fire-ward
  priority 11
  effect immunity burn
spell salve
  priority 3
  text Heal 2 Grit.
trait hard-to-hit
  effect accuracy-difficulty +2
";

fn game(pairs: &[&str]) -> KeridwynFight {
    let setup = Setup::from_pairs(pairs.iter().copied()).unwrap_or_default();
    match KeridwynFight::new(&setup, CATALOG) {
        Ok(g) => g,
        Err(e) => panic!("test catalog refused: {e}"),
    }
}

/// Step every line; the rules each line broke.
#[track_caller]
fn play(g: &KeridwynFight, lines: &[&str]) -> (State, Vec<Vec<&'static str>>) {
    let mut s = g.initial_state();
    let mut out = Vec::new();
    for l in lines {
        let e = g.parse_event(l).unwrap_or_else(|e| panic!("{l}: {e}"));
        let mut f = Findings::default();
        if let Err(err) = g.step(&mut s, &e, &mut f) {
            panic!("{l}: {err}");
        }
        out.push(f.violations.iter().map(|v| v.rule).collect());
    }
    (s, out)
}

fn fact(g: &KeridwynFight, s: &State, key: &str) -> String {
    g.facts(s).into_iter().find(|(k, _)| k == key).map(|(_, v)| v).unwrap_or_default()
}

const DUEL: &[&str] = &["join A ann", "join B bo", "begin", "priority B"];

#[test]
fn roll_modifiers_raise_every_die_and_accuracy_difficulties_add_up() {
    let g = game(&[]);
    let mut lines = DUEL.to_vec();
    // Keen Eye: +1 to rolls and Accuracy at 8; Bo's trait raises it by 2: 9 + 1 = 10.
    lines.extend([
        "reveal A primary:keen-eye secondary:jab",
        "reveal B primary:jab balance",
        "act A keen-eye",
        "act B jab",
        "roll B might 3 1",
        "miss A",
        "act A jab",
        "roll A might 9 8",
        "hit B",
        // Accuracy needs 9 - 1 (Keen Eye) + 2 (Bo's trait) = 10: only the 9 + 1 counts, so 2 + 1.
        "damage B 3 block 0 injury 3",
    ]);
    let (s, v) = play(&g, &lines);
    assert!(v.iter().all(Vec::is_empty), "{v:?}");
    assert_eq!(fact(&g, &s, "B.grit"), "7");
    let (rolled, _) = play(&g, &lines[..lines.len() - 2]);
    assert_eq!(fact(&g, &rolled, "roll.value"), "10");
}

#[test]
fn a_priority_effect_moves_tokens_and_ends_with_its_duration() {
    let g = game(&[]);
    let mut lines = DUEL.to_vec();
    lines.extend(["reveal A primary:quick-boots focus", "reveal B secondary:jab lure", "act A quick-boots"]);
    let (s, v) = play(&g, &lines);
    assert!(v.iter().all(Vec::is_empty), "{v:?}");
    assert_eq!(fact(&g, &s, "A.effects"), "quick-boots[priority +3](2)");
    // Round 2: Ann's Jab goes on 5 + 3 = 8, after her Lure (10), before Bo's Jab (5).
    let mut more = lines.clone();
    more.extend([
        "act B lure",
        "act B jab",
        "roll B might 2 2",
        "miss A",
        "end round 1",
        "reveal A primary:jab lure",
        "reveal B primary:jab focus",
        "act A lure",
        "act A jab",
    ]);
    let (s, v) = play(&g, &more);
    assert!(v.iter().all(Vec::is_empty), "{v:?}");
    assert_eq!(fact(&g, &s, "track"), "5:B:jab");
    assert_eq!(fact(&g, &s, "A.hand"), "secondary balance maneuver focus");
}

#[test]
fn a_cards_immunity_cures_at_once_and_stops_later_gains() {
    let g = game(&[]);
    let mut lines = DUEL.to_vec();
    lines.extend([
        "reveal A primary:fire-ward secondary:jab",
        "reveal B primary:jab lure",
        "act A fire-ward",
        "roll A wit 6 1",
        "hit A",
    ]);
    let (s, v) = play(&g, &lines);
    assert!(v.iter().all(Vec::is_empty), "{v:?}");
    assert_eq!(fact(&g, &s, "A.effects"), "fire-ward[immunity burn](fight)");
    // A failed support spell (5 < 6) is reported when recorded as a success.
    let mut failed = DUEL.to_vec();
    failed.extend([
        "reveal A primary:fire-ward secondary:jab",
        "reveal B primary:jab lure",
        "act A fire-ward",
        "roll A wit 5 1",
        "hit A",
    ]);
    let (_, v) = play(&g, &failed);
    assert_eq!(v.last(), Some(&vec![rules::WIT_SIX]));
}

#[test]
fn card_text_the_form_cannot_express_is_reported_unverified() {
    let g = game(&[]);
    let mut s = g.initial_state();
    let mut lines = DUEL.to_vec();
    lines.extend(["reveal A primary:salve secondary:jab", "reveal B primary:jab lure"]);
    for l in lines {
        let mut f = Findings::default();
        let e = g.parse_event(l).unwrap_or_else(|e| panic!("{e}"));
        assert!(g.step(&mut s, &e, &mut f).is_ok());
    }
    let mut unverified = Vec::new();
    // Bo holds the token: his Jab on 5 goes before Ann's.
    for l in [
        "act B lure",
        "act B jab",
        "roll B might 1 1",
        "miss A",
        "act A jab",
        "roll A might 1 1",
        "miss B",
        "act A salve",
    ] {
        let mut f = Findings::default();
        let e = g.parse_event(l).unwrap_or_else(|e| panic!("{e}"));
        assert!(g.step(&mut s, &e, &mut f).is_ok(), "{l}");
        assert!(f.is_clean(), "{l}: {:?}", f.violations);
        unverified.extend(f.unverified);
    }
    assert_eq!(unverified.len(), 1, "{unverified:?}");
    assert!(unverified[0].contains("Heal 2 Grit"));
}

#[test]
fn setup_lists_every_reason_and_the_catalog_is_built_in() {
    let bad = Setup::from_pairs(["colour=red", "reroll-fame-cost=lots"]).unwrap_or_default();
    match KeridwynFight::new(&bad, "character x\n  grit many\n") {
        Ok(_) => panic!("a bad setup was accepted"),
        Err(e) => assert_eq!(e.reasons.len(), 3, "{e}"),
    }
    assert!(KeridwynFight::builtin_catalog("illustrative").is_some());
    assert!(KeridwynFight::builtin_catalog("other").is_none());
    assert!(KeridwynFight::new(&Setup::default(), ILLUSTRATIVE).is_ok());
}

#[test]
fn rule_ids_are_unique_and_interpretations_name_their_default() {
    let mut ids: Vec<&str> = KeridwynFight::rules().iter().map(|r| r.id).collect();
    assert!(ids.iter().all(|id| id.starts_with("kf.")));
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), KeridwynFight::rules().len());
    for p in KeridwynFight::params() {
        assert_eq!(p.kind, ParamKind::Interpretation);
        assert!(p.allowed.contains(&p.default) || p.allowed[0].starts_with('<'), "{}", p.name);
        assert!(p.doc.contains('"'), "{}: an interpretation quotes its passage", p.name);
    }
}

#[test]
fn next_consequence_waits_for_a_tie_break() {
    let g = game(&[]);
    let setup_cat = CATALOG.replace("  fame 5\n", "  fame 1\n");
    let g2 = KeridwynFight::new(&Setup::default(), &setup_cat).unwrap_or_else(|e| panic!("{e}"));
    let (s, _) = play(&g2, &["join A ann", "join B bo", "begin"]);
    assert_eq!(s.phase.name(), "tie-break");
    assert_eq!(g2.next_consequence(&s), None);
    let (s, _) = play(&g, &["join A ann", "join B bo", "begin"]);
    assert_eq!(g.next_consequence(&s).map(|e| e.to_string()), Some("priority B".into()));
}
