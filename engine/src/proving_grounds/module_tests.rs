//! Given / when / then tests of the modules: each interpretation's two readings, completion
//! of module logs by `next_consequence`, and setup and catalog validation.

use super::*;
use crate::testkit;

const TOWERS: &str = include_str!("../../../fixtures/proving-grounds/towers.pgcat");
const DRAWS: [&str; 6] = [
    "draw 1 tower-1",
    "draw 2 tower-2",
    "draw 3 tower-3",
    "draw 4 tower-4",
    "draw 5 tower-5",
    "draw 6 wall-6",
];

fn game(params: &[&str]) -> ProvingGrounds {
    let setup = Setup::from_pairs(params.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
    ProvingGrounds::new(&setup, TOWERS).unwrap_or_else(|e| panic!("{e}"))
}

/// Replay the six tower draws then `given`, each legal; return the state.
#[track_caller]
fn given(g: &ProvingGrounds, given: &[&str]) -> State {
    testkit::given(g, &lines(given)).state().clone()
}

fn lines<'a>(given: &[&'a str]) -> Vec<&'a str> {
    DRAWS.iter().copied().chain(given.iter().copied()).collect()
}

/// Given these events, when this one, then exactly these rules break; the state after.
#[track_caller]
fn check(params: &[&str], before: &[&str], when: &str, then: &[&str]) -> State {
    testkit::given(&game(params), &lines(before)).when(when).then_breaks(then).state().clone()
}

#[track_caller]
fn next(g: &ProvingGrounds, s: &State) -> String {
    g.next_consequence(s).map(|e| e.to_string()).unwrap_or_default()
}

const SHIELDED: [&str; 7] =
    ["roll 1 1 2 2 3 3g 6y 6b", "stop", "shield 1", "shield 2", "shield 3", "shield 6", "recover"];

#[test]
fn a_reflected_set_keeps_or_removes_the_shield_by_interpretation() {
    let mut before = SHIELDED.to_vec();
    before.extend(["roll 2 2 2 6 6 6 6g 6y 6b", "stop"]);
    let kept = check(&["modules=shields"], &before, "down 2", &[]);
    assert_eq!(kept.mods.shields.shielded & 0b10, 0b10);
    let removed = check(&["modules=shields", "shield-reflect=removed"], &before, "down 2", &[]);
    assert_eq!(removed.mods.shields.shielded & 0b10, 0);
    // A reflected set is not a hit, and a single against a shielded enemy leaves the marker.
    assert_eq!(kept.mods.sun_moon.hits, 0);
    check(&["modules=shields"], &before, "up 2", &[rules::SHIELD_REFLECTED]);
}

#[test]
fn sun_and_moon_positions_follow_the_interpretation() {
    let g = game(&["modules=sun-moon"]);
    let s = given(&g, &["face 1", "roll 1 1 1 2 3 3g 5y 5b", "stop", "up 1", "down 2", "hold 3", "hold 5"]);
    assert_eq!(next(&g, &s), "moon 4", "faced-opposite: the moon is across from slot 1");
    let g = game(&["modules=sun-moon", "sun-moon-positions=neighbours"]);
    let s = given(&g, &["face 1", "roll 1 1 1 2 3 3g 5y 5b", "stop", "up 1", "down 2", "hold 3", "hold 5"]);
    // Sun is slot 2 (hit? no: a single moved it down), moon is slot 6 (the wall, not hit).
    assert_eq!(next(&g, &s), "moon 6");
    assert!(!g.borrow_owed(&s), "the sun enemy (slot 2) was not hit");
}

#[test]
fn a_hit_on_the_sun_owes_a_borrow_derived_with_the_dials_first_color() {
    let g = game(&["modules=sun-moon"]);
    let s = given(
        &g,
        &["face 1", "roll 1 1 1 2 3 3g 5y 5b", "stop", "up 1", "down 2", "hold 3", "hold 5", "moon 4"],
    );
    assert!(g.borrow_owed(&s));
    // The color is the player's choice; derived (and owed at the end of a log), the first one.
    assert_eq!(next(&g, &s), "borrow g");
    check(
        &["modules=sun-moon"],
        &["face 1", "roll 1 1 1 2 3 3g 5y 5b", "stop", "up 1", "down 2", "hold 3", "hold 5", "moon 4"],
        "recover",
        &[rules::SUN_BORROW],
    );
}

#[test]
fn the_dragonling_weakness_is_unverified_or_an_extra_die() {
    let before = ["roll 1 1 6 6 6 6g 6y 6b", "dragon 1", "stop"];
    // A pair against tower-1 is an incorrect set; weak to the dragonling's 1, it may become a triple.
    let g = game(&["modules=dragonling"]);
    let mut s = given(&g, &before);
    let mut f = Findings::default();
    let hold = g.parse_event("hold 1").unwrap_or_else(|e| panic!("{e}"));
    g.step(&mut s, &hold, &mut f).unwrap_or_else(|e| panic!("{e}"));
    assert!(f.is_clean() && f.unverified.len() == 1, "{f:?}");
    let g = game(&["modules=dragonling", "dragonling-weakness=extra-die"]);
    let s = given(&g, &before);
    assert_eq!(next(&g, &s), "up 1");
}

#[test]
fn chariot_dice_rules_follow_their_interpretations() {
    let before = ["chariot bronze-chariot", "roll 1 1 1 5 5 6g 6y 6b"];
    check(&["modules=chariots"], &before, "load 5 5 1", &[rules::CHARIOT_PLACE_REQUIRED]);
    check(&["modules=chariots", "chariot-dice=any"], &before, "load 5 5 1", &[]);
    // An unmet chariot's dice come back at recovery, or stay on it.
    let round = [
        "chariot bronze-chariot",
        "roll 1 1 1 5 5 6g 6y 6b",
        "load 5",
        "stop",
        "chariot-unmet",
        "up 1",
        "down 5",
        "hold 6",
    ];
    let back = check(&["modules=chariots"], &round, "recover", &[]);
    assert_eq!(back.mods.chariots.dice.len(), 0);
    assert_eq!(back.pool.len(), 9);
    let stay = check(&["modules=chariots", "chariot-unmet-dice=stay"], &round, "recover", &[]);
    assert_eq!(stay.mods.chariots.dice.to_string(), "5");
    assert_eq!(stay.pool.len(), 8);
    // A marker moved before the chariot was resolved.
    check(
        &["modules=chariots"],
        &["chariot bronze-chariot", "roll 1 1 1 5 5 6g 6y 6b", "stop"],
        "up 1",
        &[rules::CHARIOT_RESOLVE],
    );
}

#[test]
fn the_rolls_tracker_refills_per_round_or_once_per_game() {
    let round =
        ["roll 1 1 2 2 3 3g 6y 6b", "reroll 1 -> 6 6", "stop", "hold 2", "hold 3", "hold 6", "recover"];
    let per_round = check(&["modules=rolls", "rolls-size=1"], &round, "roll 1 1 2 2 3 3 6g 6y 6b", &[]);
    assert_eq!(per_round.mods.rolls.left, 1);
    let once = check(
        &["modules=rolls", "rolls-size=1", "rolls-reset=game"],
        &round,
        "roll 1 1 2 2 3 3 6g 6y 6b",
        &[],
    );
    assert_eq!(once.mods.rolls.left, 0);
    // An inspiration card adds rerolls to the tracker.
    let mut more = round.to_vec();
    more.extend(["roll 1 1 2 2 3 3 6g 6y 6b", "inspire second-wind"]);
    check(&["modules=rolls,inspiration", "rolls-size=1", "rolls-reset=game"], &more, "reroll 1 -> 6 6", &[]);
    check(
        &["modules=rolls", "rolls-size=1", "rolls-reset=game"],
        &more[..8],
        "reroll 1 -> 6 6",
        &[rules::ROLLS_OUT],
    );
}

#[test]
fn inspiration_cards_are_spent_or_free_by_interpretation() {
    let before = ["roll 1 2 3 3 6 6g 6y 6b", "inspire steady-hand", "reroll 1 -> 6"];
    check(&["modules=inspiration"], &before, "inspire steady-hand", &[rules::INSPIRATION_ONCE]);
    check(&["modules=inspiration", "inspiration-reuse=free"], &before, "inspire steady-hand", &[]);
    // Without the card, the single cannot be rerolled.
    check(&["modules=inspiration"], &["roll 1 2 3 3 6 6g 6y 6b"], "reroll 1 -> 6", &[rules::ROLL_SINGLE]);
}

#[test]
fn cards_played_on_an_enemy_name_it_or_stay_unverified() {
    let g = game(&["modules=inspiration"]);
    let before = lines(&["roll 1 1 1 3 3g 6 6y 6b", "stop", "up 1", "hold 3", "hold 6"]);
    let played = testkit::given(&g, &before).when("inspire true-aim 1").then_clean();
    assert_eq!(played.state().slots[0].marker, 4, "marker +1 from space 3: the top");
    assert_eq!(next(&g, played.state()), "defeat 1");
    // Without the enemy named, the move cannot be applied: unverified, the marker stays, and
    // the table's defeat is uncertain, not a violation.
    testkit::given(&g, &before).when("inspire true-aim").then_unverified(1).then_fact("slot.1.marker", "3");
    let mut s = testkit::given(&g, &before).state().clone();
    let mut f = Findings::default();
    for line in ["inspire true-aim", "defeat 1"] {
        f.clear();
        let e = g.parse_event(line).unwrap_or_else(|e| panic!("{e}"));
        g.step(&mut s, &e, &mut f).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(f.is_clean(), "{:?}", f.violations);
    assert_eq!((f.uncertain[0].rule, f.uncertain[0].uncertain), (rules::DEFEAT_AT_TOP, Some(0)));
    // A card that is not played on an enemy cannot name one; an empty slot cannot be named.
    testkit::given(&g, &before).when("inspire second-wind 3").then_error(None);
    testkit::given(&g, &lines(&["roll 1 1 1 1 1 1g 6y 6b", "stop", "up 1 2", "hold 6", "defeat 1"]))
        .when("inspire true-aim 1")
        .then_error(None);
    // Favour of the Crowd removes the named enemy's shield.
    let s = check(&["modules=shields,inspiration"], &SHIELDED, "inspire crowd-favour 2", &[]);
    assert_eq!(s.mods.shields.shielded, 0b10_0101);
}

#[test]
fn findings_after_an_unverified_effect_are_uncertain_until_the_round_ends() {
    // The Captain of Guard (`Enemies with a shield cannot lose it this round.`) is active: its
    // text is not read, so it may act from the event after `conspire` on.
    let g = game(&["modules=conspirators", "conspirators-start=1"]);
    let round =
        lines(&["reveal captain-guard", "conspire 5", "roll 1 2 2 2 6 6g 6y 6b", "stop", "down 1", "up 2"]);
    let given = testkit::given(&g, &round);
    let mut s = given.state().clone();
    let mut f = Findings::default();
    let mut step = |line: &str| {
        f.clear();
        let e = g.parse_event(line).unwrap_or_else(|e| panic!("{e}"));
        g.step(&mut s, &e, &mut f).unwrap_or_else(|e| panic!("{e}"));
        (
            f.violations.iter().map(|v| v.rule).collect::<Vec<_>>(),
            f.uncertain.iter().map(|v| v.rule).collect::<Vec<_>>(),
        )
    };
    // A wrong marker move in the round of the effect: uncertain (after effect #0).
    assert_eq!(step("up 6"), (vec![], vec![rules::INCORRECT_SET]));
    // The wall moved up as played, to its top: the defeat left out is uncertain too.
    assert_eq!(step("recover"), (vec![], vec![rules::CHECK_MISSING]));
    // The next round is judged as usual: the skipped turns of enemies 1 and 2 are violations.
    // Only the wall's resolution stays uncertain: the round of the effect left its marker on
    // the top space, unresolved, so where it really is depends on the effect (rules version 5).
    assert_eq!(step("conspire 3"), (vec![], vec![]));
    assert_eq!(step("roll 1 2 2 2 6 6 6g 6y 6b"), (vec![], vec![]));
    assert_eq!(
        step("up 6"),
        (vec![rules::RESOLVE_MISSING, rules::RESOLVE_MISSING], vec![rules::INCORRECT_SET])
    );
}

#[test]
fn a_conspirator_text_taints_from_where_it_can_first_act() {
    // The Poisoner (`When you suffer a wound this round, exhaust one extra die.`) can first act
    // at a wound: a wrong move before it is a violation, a finding from the wound on uncertain.
    let g = game(&["modules=conspirators", "conspirators-start=1"]);
    let round = lines(&["reveal poisoner", "conspire 3", "roll 1 2 2 2 6 6g 6y 6b", "stop", "down 1"]);
    let mut s = testkit::given(&g, &round).state().clone();
    let mut f = Findings::default();
    let mut step = |line: &str| {
        f.clear();
        let e = g.parse_event(line).unwrap_or_else(|e| panic!("{e}"));
        g.step(&mut s, &e, &mut f).unwrap_or_else(|e| panic!("{e}"));
        (f.violations.len(), f.uncertain.len())
    };
    assert_eq!(step("up 2"), (0, 0));
    assert_eq!(step("up 6"), (1, 0), "before any wound the text cannot act");
    assert_eq!(step("wound 1 exhaust w"), (0, 1), "from the wound on (its own finding included)");
}

#[test]
fn chariot_effects_on_the_markers_are_applied() {
    // Chariot of Dusk (`3b`, `markers -1`): unmet, every marker moves down one before the turns.
    let g = game(&["modules=chariots"]);
    let s = given(&g, &["chariot chariot-of-dusk", "roll 1 2 3 3 4 5g 6y 6b", "stop", "chariot-unmet"]);
    assert_eq!(s.slots.iter().map(|sl| sl.marker).collect::<Vec<_>>(), [1, 1, 1, 1, 1, 0]);
    // The wall's marker reached the bottom: a wound is owed at the checks.
    let s = given(
        &g,
        &[
            "chariot chariot-of-dusk",
            "roll 1 2 3 3 4 5g 6y 6b",
            "stop",
            "chariot-unmet",
            "down 1",
            "down 2",
            "up 3",
            "down 4",
            "down 5",
            "hold 6",
        ],
    );
    assert_eq!(next(&g, &s), "wound 1 exhaust w");
    // Iron Chariot (`2 2`, `shield 2`): applied with the shields module, unverified without it.
    let g = game(&["modules=shields,chariots"]);
    let s = given(&g, &["chariot iron-chariot", "roll 1 1 3 3 4 5g 6y 6b", "stop", "chariot-unmet"]);
    assert_eq!(s.mods.shields.shielded, 0b10);
    let g = game(&["modules=chariots"]);
    testkit::given(&g, &lines(&["chariot iron-chariot", "roll 1 1 3 3 4 5g 6y 6b", "stop"]))
        .when("chariot-unmet")
        .then_clean()
        .then_unverified(1);
}

#[test]
fn conspirators_revealed_at_setup_follow_the_interpretation() {
    let g = game(&["modules=conspirators", "conspirators-start=0"]);
    assert_eq!(g.reveals_owed(&g.initial_state()), 0);
    let two = game(&["modules=conspirators", "conspirators-start=2"]);
    assert_eq!(two.reveals_owed(&two.initial_state()), 2);
    assert_eq!(two.initial_state(), g.initial_state(), "readings split at a reveal, not before");
    check(
        &["modules=conspirators", "conspirators-start=0"],
        &[],
        "reveal spymaster",
        &[rules::CONSPIRATOR_REVEAL],
    );
    check(&["modules=conspirators", "conspirators-start=2"], &["reveal spymaster"], "reveal poisoner", &[]);
    // Card text the engine cannot apply is reported when the card becomes active.
    let g = game(&["modules=conspirators", "conspirators-start=1"]);
    let mut s = given(&g, &["reveal poisoner"]);
    let mut f = Findings::default();
    let roll = g.parse_event("conspire 3").unwrap_or_else(|e| panic!("{e}"));
    g.step(&mut s, &roll, &mut f).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(f.unverified.len(), 1, "{f:?}");
}

/// The clean all-modules session of `fixtures/proving-grounds/modules-all.arb`.
const ALL: &str = "modules=shields,sun-moon,conspirators,dragonling,chariots,inspiration,rolls";
const ALL_LOG: [&str; 37] = [
    "draw 1 tower-1",
    "draw 2 tower-2",
    "draw 3 tower-3",
    "draw 4 tower-4",
    "draw 5 tower-5",
    "draw 6 wall-6",
    "reveal spymaster",
    "face 1",
    "conspire 5",
    "chariot bronze-chariot",
    "roll 1 1 1 3g 5 5 6y 6b",
    "dragon 2",
    "reroll 1 -> 1 1 1",
    "dragon 3",
    "load 5 5",
    "inspire second-wind",
    "stop",
    "chariot-met",
    "up 1",
    "down 3",
    "shield 6",
    "moon 4",
    "borrow g",
    "recover",
    "face 2",
    "conspire 2",
    "chariot light-chariot",
    "roll 2 2 2 4 4g 6 6 6g 6y 6b",
    "dragon 6",
    "stop",
    "chariot-unmet",
    "up 2",
    "up 4",
    "hold 6",
    "moon 5",
    "borrow y",
    "recover",
];

#[test]
fn a_module_log_of_decisions_alone_is_completed_by_next_consequence() {
    let g = game(&[ALL, "conspirators-start=1"]);
    let full: Vec<Event> =
        ALL_LOG.iter().map(|l| g.parse_event(l).unwrap_or_else(|e| panic!("{e}"))).collect();
    let (s, f, rebuilt) = super::tests::complete(&g, &full);
    assert!(f.is_clean(), "{:?}", f.violations);
    assert_eq!(rebuilt, full);
    let board = g.board(&s);
    for part in [
        "shields  #6",
        "on the dial g b",
        "conspirators revealed spymaster",
        "dragonling die",
        "chariot  light-chariot",
        "rolls tracker",
    ] {
        assert!(board.contains(part), "`{part}` not on the board:\n{board}");
    }
}

#[test]
fn a_module_without_its_cards_or_with_bad_cards_is_refused_with_every_reason() {
    let enemies = TOWERS.split("[conspirators]").next().unwrap_or_default();
    let setup = Setup::from_pairs(["modules=conspirators,chariots,inspiration"]).unwrap_or_default();
    let err = ProvingGrounds::new(&setup, enemies).err().map(|e| e.reasons).unwrap_or_default();
    assert_eq!(err.len(), 3, "{err:?}");
    let bad = format!(
        "{enemies}\n[conspirators]\nx | X | 7 | require +1\n[chariots]\ny | Y | 5 q | health -1\n[inspiration]\nz | Z\n[wagons]\n"
    );
    let err = parse_full_catalog(&bad).err().unwrap_or_default();
    assert_eq!(err.len(), 4, "{err:?}");
    assert!(err.iter().all(|e| e.starts_with("catalog line ")), "{err:?}");
}

#[test]
fn simulated_games_with_modules_verify_clean_and_complete_themselves() {
    let illustrative = |params: &[&str]| {
        let setup = Setup::from_pairs(params.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
        ProvingGrounds::new(&setup, ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut used = std::collections::BTreeSet::new();
    for params in [
        &[ALL][..],
        &[
            ALL,
            "sun-moon-positions=neighbours",
            "chariot-dice=any",
            "dragonling-weakness=extra-die",
            "rolls-size=3",
        ][..],
        &["modules=shields"][..],
        &["modules=sun-moon,chariots", "chariot-unmet-dice=stay"][..],
        &["modules=shields,chariots,inspiration", "chariot-unmet=discarded", "chariot-draw=optional"][..],
        &["modules=conspirators,rolls", "rolls-reset=game", "conspirators-start=0"][..],
    ] {
        let g = illustrative(params);
        for seed in 0..12u64 {
            let log = g.simulate(seed, 3_000).unwrap_or_default();
            let mut s = g.initial_state();
            let mut f = Findings::default();
            for e in &log {
                assert_eq!(g.parse_event(&e.to_string()).as_ref(), Ok(e), "{e}");
                if ProvingGrounds::is_consequence(e) {
                    let derived = g.next_consequence(&s);
                    assert!(
                        derived.as_ref().is_some_and(|d| super::tests::same_but_choice(d, e)),
                        "{params:?} seed {seed}: {derived:?} for `{e}`"
                    );
                }
                f.clear();
                g.step(&mut s, e, &mut f).unwrap_or_else(|err| panic!("{params:?} seed {seed} `{e}`: {err}"));
                assert!(f.is_clean(), "{params:?} seed {seed} `{e}`: {:?}", f.violations);
                used.insert(e.to_string().split(' ').next().unwrap_or_default().to_string());
            }
            assert_ne!(s.outcome, Outcome::Playing, "{params:?} seed {seed}: the game should end");
        }
    }
    for word in [
        "shield",
        "unshield",
        "face",
        "borrow",
        "moon",
        "conspire",
        "reveal",
        "dragon",
        "chariot",
        "load",
        "chariot-met",
        "chariot-unmet",
        "inspire",
    ] {
        assert!(used.contains(word), "no simulated `{word}`: {used:?}");
    }
}
