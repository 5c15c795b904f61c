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
    // Two rounds' duration: gone when round 2 ends.
    more.extend(["roll A might 1 1", "miss B", "act B jab", "roll B might 1 1", "miss A", "end round 2"]);
    let (s, v) = play(&g, &more);
    assert!(v.iter().all(Vec::is_empty), "{v:?}");
    assert_eq!(fact(&g, &s, "A.effects"), "-");
}

#[test]
fn using_a_card_again_replaces_its_ongoing_effect() {
    let g = game(&[]);
    let mut lines = DUEL.to_vec();
    lines.extend([
        "reveal A primary:quick-boots focus",
        "reveal B secondary:jab lure",
        "act A quick-boots",
        "act B lure",
        "act B jab",
        "roll B might 2 2",
        "miss A",
        "end round 1",
        // Focus returned the hand: Quick Boots again, one instance, its duration anew.
        "reveal A primary:quick-boots lure",
        "reveal B primary:jab focus",
        "act A quick-boots",
    ]);
    let (s, v) = play(&g, &lines);
    assert!(v.iter().all(Vec::is_empty), "{v:?}");
    assert_eq!(fact(&g, &s, "A.effects"), "quick-boots[priority +3](2)");
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

/// splitmix64: a tiny deterministic generator for the robustness test.
fn next(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn arbitrary_event_sequences_never_panic() {
    // Any sequence of well-formed events, legal or not, with extreme numbers: `step` must
    // return (a violation or an error), never panic.
    let g = KeridwynFight::new(&Setup::default(), ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"));
    let names = ["A", "B", "C", "wyvern", "steve", "nobody"];
    let cards =
        ["strike", "unicorn-blade", "enhance-power", "heavy-shield", "fire-breath", "lure", "mend", "x"];
    let nums = ["0", "1", "2", "6", "9", "10", "11", "255", "2147483647"];
    let mut seed = 7u64;
    let mut stepped = 0;
    let start = |f: &mut Findings| {
        let mut s = g.initial_state();
        for l in [
            "join A steve",
            "join B yahmra merc chargo",
            "join C kael worn chain-mail",
            "monster wyvern cage 4",
            "begin",
        ] {
            let e = g.parse_event(l).unwrap_or_else(|e| panic!("{e}"));
            let _ = g.step(&mut s, &e, f);
        }
        s
    };
    let mut deepest = 0;
    let mut ended = 0;
    for _ in 0..40 {
        let mut f = Findings::default();
        let mut s = start(&mut f);
        for _ in 0..600 {
            let mut pick = |xs: &[&'static str]| xs[(next(&mut seed) % xs.len() as u64) as usize];
            let (n, m, w, c) = (pick(&nums), pick(&nums), pick(&names), pick(&cards));
            let line = match next(&mut seed) % 100 {
                0 => format!("reveal {w} primary:{c} secondary:{c}@{w}"),
                1 => format!("reveal {w} lure maneuver:{c} immune:burn"),
                2 => format!("action {w} {n}"),
                3 => format!("roll {w} might {n} {m} 3"),
                4 => format!("reroll {w} {n} -> {m} fame {n}"),
                5 => format!("recall {w} chargo +{n}"),
                6 => format!("afflict {w} burn +{n} -> {m}"),
                7 => format!("damage {w} {n} block {m} injury -{n}"),
                8 => format!("tick {w} slow {n} -> {m} injury {n}"),
                9 => format!("fame {w} +{n} -> {m}"),
                10 => format!("act {w} {c}"),
                11 => format!("{} {w}", if n == "0" { "miss" } else { "hit" }),
                12 => format!("target {w}"),
                13 => format!("end round {n}"),
                14 => format!("defeated {w}"),
                _ => plausible(&g, &s, &mut seed),
            };
            let Ok(e) = g.parse_event(&line) else { continue };
            f.clear();
            stepped += 1;
            if g.step(&mut s, &e, &mut f).is_err() {
                s = start(&mut f);
            }
            deepest = deepest.max(s.round);
            if s.phase == Phase::Over && g.next_consequence(&s).is_none() {
                ended += 1;
                s = start(&mut f);
            }
            let _ = g.board(&s);
            let _ = g.facts(&s);
        }
    }
    assert!(stepped > 5_000);
    assert!(deepest >= 2, "the random fights never got past round 1");
    assert!(ended >= 1, "no random fight reached its end");
}

/// A legal-looking next event for the state (what a table would record), to drive the
/// robustness test deep into fights.
fn plausible(g: &KeridwynFight, s: &State, seed: &mut u64) -> String {
    if let Some(c) = g.next_consequence(s) {
        return c.to_string();
    }
    let mut r = |n: usize| (next(seed) % n.max(1) as u64) as usize;
    let dice = |tier: u8, r: &mut dyn FnMut(usize) -> usize| {
        (0..tier.max(1)).map(|_| (r(10) + 1).to_string()).collect::<Vec<_>>().join(" ")
    };
    match &s.phase {
        Phase::Reveal => {
            let Some(i) = g.next_revealer(s) else { return "begin".into() };
            let f = &s.fighters[i];
            let playable: Vec<&String> =
                f.cards.iter().filter(|c| g.catalog.cards.get(*c).is_some_and(|k| !k.worn)).collect();
            let mut hand = f.hand.clone();
            let mut plays = Vec::new();
            for _ in 0..2 {
                if hand.is_empty() {
                    break;
                }
                let h = hand.remove(r(hand.len()));
                let card = playable.get(r(playable.len())).map(|c| c.to_string()).unwrap_or_default();
                plays.push(match h {
                    HandCard::Primary => format!("primary:{card}"),
                    HandCard::Secondary => format!("secondary:{card}"),
                    HandCard::Maneuver => "maneuver immune:burn".to_string(),
                    other => other.name().to_string(),
                });
            }
            format!("reveal {} {}", f.label, plays.join(" "))
        }
        Phase::MonsterRoll { .. } => {
            let m = g.monster(s).map(|m| s.fighters[m].label.clone()).unwrap_or_default();
            format!("action {m} {}", r(6) + 1)
        }
        Phase::AwaitTarget => {
            let chars: Vec<&Fighter> = s.fighters.iter().filter(|f| !f.monster && !f.defeated).collect();
            format!("target {}", chars.get(r(chars.len())).map(|f| f.label.as_str()).unwrap_or("A"))
        }
        Phase::AwaitRoll => match &s.current {
            Some(c) => {
                let f = &s.fighters[c.who];
                format!("roll {} {} {}", f.label, c.skill, dice(f.tier(c.skill), &mut r))
            }
            None => "begin".into(),
        },
        Phase::TieBreak { tied, rolls, .. } => {
            let who = tied.iter().find(|t| !rolls.iter().any(|(x, _)| x == *t)).copied().unwrap_or(0);
            let f = &s.fighters[who];
            format!("roll {} finesse {}", f.label, dice(f.tier(Skill::Finesse), &mut r))
        }
        Phase::Rolled => match &s.current {
            Some(c) if !c.dice.is_empty() => format!("reroll A {} -> {} fame 2", c.dice[0], r(10) + 1),
            _ => "begin".into(),
        },
        _ => "begin".into(),
    }
}
