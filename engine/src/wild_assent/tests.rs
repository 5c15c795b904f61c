//! Unit tests of the rules, given / when / then.

use super::*;
use crate::Game;

fn game(pairs: &[&str]) -> WildAssent {
    let setup = Setup::from_pairs(pairs.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
    WildAssent::new(&setup, ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"))
}

/// Replay a simulated log and return the first flagged record with its findings.
fn first_flag(g: &WildAssent, log: &[Event]) -> Option<(usize, String)> {
    let mut s = g.initial_state();
    for (i, e) in log.iter().enumerate() {
        let mut f = Findings::default();
        match g.step(&mut s, e, &mut f) {
            Err(err) => return Some((i, format!("`{e}`: error {err}"))),
            Ok(()) if !f.is_clean() => return Some((i, format!("`{e}`: {:?}", f.violations))),
            Ok(()) => {}
        }
    }
    None
}

#[test]
fn simulated_encounters_verify_clean() {
    for pairs in [&[][..], &["scope=combat"][..], &["mode=arena", "scope=combat"][..]] {
        let g = game(pairs);
        for seed in 1..=8 {
            let log = g.random_encounter(seed, 3000);
            assert!(!log.is_empty());
            if let Some((i, why)) = first_flag(&g, &log) {
                let ctx: Vec<String> = log[i.saturating_sub(12)..=i].iter().map(|e| e.to_string()).collect();
                panic!("{pairs:?} seed {seed}: record {i} flagged: {why}\n{}", ctx.join("\n"));
            }
        }
    }
}

// ---- the Arena match (scope=match)

#[test]
fn simulated_arena_matches_play_to_victory_verify_clean_and_replay_from_text() {
    let mut demands = 0;
    for pairs in [
        &["mode=arena", "scope=match"][..],
        &["mode=arena", "scope=match", "players=4"][..],
        // An Escaped Assent is not slain for Last Man Standing by default, so a match whose
        // Assent escapes may never be won: `gone` keeps every simulated match decidable.
        &[
            "mode=arena",
            "scope=match",
            "victory=last-standing",
            "last-standing-escape=gone",
            "round-start-order=momentum-first",
        ][..],
        &["mode=arena", "scope=match", "silvestrem=off", "momentum-duration=next-round"][..],
    ] {
        let g = game(pairs);
        for seed in 1..=6 {
            let log = g.random_encounter(seed, 20_000);
            if let Some((i, why)) = first_flag(&g, &log) {
                let ctx: Vec<String> = log[i.saturating_sub(16)..=i].iter().map(|e| e.to_string()).collect();
                panic!("{pairs:?} seed {seed}: record {i} flagged: {why}\n{}", ctx.join("\n"));
            }
            // The whole match: from the drafting roll to the victory.
            assert!(matches!(log.first(), Some(Event::DraftRoll { .. })), "{pairs:?} seed {seed}");
            assert!(
                matches!(log.last(), Some(Event::Victory { .. })),
                "{pairs:?} seed {seed}: {:?}",
                log.last()
            );
            assert!(
                log.iter().any(|e| matches!(e, Event::Round { n: 2 })),
                "{pairs:?} seed {seed}: one round only"
            );
            // Written as notation and read back, the log replays to the simulator's state.
            let mut direct = g.initial_state();
            let mut from_text = g.initial_state();
            for e in &log {
                let mut f = Findings::default();
                g.step(&mut direct, e, &mut f).unwrap_or_else(|err| panic!("{err}"));
                let read = g.parse_event(&e.to_string()).unwrap_or_else(|err| panic!("`{e}`: {err:?}"));
                g.step(&mut from_text, &read, &mut f).unwrap_or_else(|err| panic!("{err}"));
            }
            assert_eq!(direct, from_text);
            demands += log.iter().filter(|e| matches!(e, Event::Demand { .. })).count();
            assert_eq!(direct.phase, state::Phase::Over);
            assert!(direct.winner.is_some());
        }
    }
    // Trial of Valor's Condition is judged at the end of its round.
    assert!(demands > 0);
}

// ---- Cooldown (Hunt l.91)

#[test]
fn an_unlockable_active_skill_used_again_is_reported_unverified_for_its_cooldown() {
    // Taunt is unlocked by the Temple in the illustrative catalog: an Unlockable Active Skill.
    let g = game(&["scope=combat"]);
    let mut s = g.initial_state();
    let mut cooldown = Vec::new();
    let log = [
        "place zaxos e4 n",
        "place gryphon h8 s t1",
        "begin",
        "activate zaxos",
        "skill zaxos taunt",
        "end zaxos",
        "activate zaxos",
        "skill zaxos taunt",
        "end zaxos",
    ];
    for (i, line) in log.iter().enumerate() {
        let e = g.parse_event(line).unwrap_or_else(|err| panic!("{line}: {err:?}"));
        let mut f = Findings::default();
        g.step(&mut s, &e, &mut f).unwrap_or_else(|err| panic!("{line}: {err}"));
        assert!(f.is_clean(), "{line}: {:?}", f.violations);
        if f.unverified.iter().any(|u| u.contains("Cooldown")) {
            cooldown.push(i);
        }
    }
    assert_eq!(cooldown, vec![7], "only the second use may be on Cooldown");
}

// ---- Momentum dice with four players (interpretation `momentum-4p`)

/// Under `momentum-4p=player` a side's roll holds five dice for each of its players (troupes)
/// with a Gladiator on the board: ten while both play, five once one player's troupe is gone;
/// under the default `team`, five whatever the troupes.
#[test]
fn four_player_momentum_rolls_count_the_players_still_on_the_board() {
    let text = include_str!("../../../fixtures/wild-assent/interp-momentum-4p-player.arb");
    let setup: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('@'))
        .take_while(|l| !l.starts_with("momentum"))
        .collect();
    let count_findings = |reading: &str, gone: &[&str], roll: &str| -> usize {
        let g = game(&["mode=arena", "scope=match", "players=4", reading]);
        let mut s = g.initial_state();
        for line in &setup {
            let e = g.parse_event(line).unwrap_or_else(|err| panic!("{line}: {err:?}"));
            g.step(&mut s, &e, &mut Findings::default()).unwrap_or_else(|err| panic!("{line}: {err}"));
        }
        // Amalia's troupe slain (set directly: only the count of the roll is under test).
        for u in s.units.iter_mut().filter(|u| gone.contains(&u.name.as_str())) {
            u.presence = state::Presence::Slain;
        }
        s.units_changed();
        let e = g.parse_event(roll).unwrap_or_else(|err| panic!("{roll}: {err:?}"));
        let mut f = Findings::default();
        g.step(&mut s, &e, &mut f).unwrap_or_else(|err| panic!("{roll}: {err}"));
        f.violations.iter().filter(|v| v.rule == rules::MOMENTUM_COUNT).count()
    };
    let five = "momentum red dmg spd blank blank blank";
    let ten = "momentum red dmg spd blank blank blank dmg def blank blank blank";
    let amalia = ["amalia", "exalted-effigy", "streamcaller"];
    assert_eq!(count_findings("momentum-4p=player", &[], ten), 0);
    assert_eq!(count_findings("momentum-4p=player", &[], five), 1);
    assert_eq!(count_findings("momentum-4p=player", &amalia, five), 0);
    assert_eq!(count_findings("momentum-4p=player", &amalia, ten), 1);
    assert_eq!(count_findings("momentum-4p=team", &[], five), 0);
    assert_eq!(count_findings("momentum-4p=team", &amalia, ten), 1);
}

// ---- the board

/// Audit r4 O5: the heading said "the Creatures' turn" while a Seeker activated (it named
/// whose activation comes next). During a Seeker's own activation it names the Seekers' turn
/// and the Seeker; between activations, the side that activates next.
#[test]
fn the_board_heading_names_the_turn_in_progress_and_the_one_after_it() {
    let g = game(&["scope=encounter"]);
    let log = g.random_encounter(2, 3000);
    let mut s = g.initial_state();
    let mut seen = 0;
    for e in &log {
        let mut f = Findings::default();
        g.step(&mut s, e, &mut f).unwrap_or_else(|err| panic!("`{e}`: {err}"));
        let head = g.render_board(&s).lines().next().unwrap_or_default().to_string();
        if let Some(a) = s.act.as_ref().filter(|a| !a.free && s.unit(a.unit).side == state::Side::Seekers) {
            let name = s.unit(a.unit).name;
            assert!(head.contains(&format!("the Seekers' turn, {name} activating; next: ")), "`{e}`: {head}");
            seen += 1;
        } else if s.act.is_none() && matches!(s.phase, state::Phase::Play) {
            let next = match g.next_side(&s) {
                Some(state::Side::Seekers) => "the Seekers' turn",
                Some(_) => "the Creatures' turn",
                None => "the round is over",
            };
            assert!(head.ends_with(next), "`{e}`: {head}");
        }
    }
    assert!(seen > 0, "no Seeker activation in the simulated encounter");
}

/// Audit r4 O6: after a Knockback the attack summary worked the knocked target's range out
/// again from the field it was knocked to (`range 2 of 1` for an attack made at range 1).
/// Through simulated matches (every attack legal), no range shown exceeds the attack's, and
/// a knocked target is shown as after its Knockback.
#[test]
fn the_attack_summary_shows_no_range_worked_out_after_a_knockback() {
    let g = game(&["mode=arena", "scope=match"]);
    let mut knocked = 0;
    for seed in 1..=3 {
        let log = g.random_encounter(seed, 20_000);
        let mut s = g.initial_state();
        for e in &log {
            let mut f = Findings::default();
            g.step(&mut s, e, &mut f).unwrap_or_else(|err| panic!("`{e}`: {err}"));
            if s.attack.is_none() {
                continue;
            }
            let board = g.render_board(&s);
            for line in board.lines().filter(|l| l.trim_start().starts_with("-> ")) {
                if line.contains("after its Knockback") {
                    knocked += 1;
                    continue;
                }
                let range = line.split(", range ").nth(1).unwrap_or_else(|| panic!("`{e}`: {line}"));
                let mut words = range.split(|c: char| c == ' ' || c == ';' || c == ',');
                let (shown, of) = (words.next(), words.nth(1));
                let shown: i32 = shown.and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("{line}"));
                let of: i32 = of.and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("{line}"));
                assert!(shown <= of, "seed {seed} after `{e}`: {line}");
            }
        }
    }
    assert!(knocked > 0, "no Knockback in the simulated matches");
}
