//! A seeded random legal fight: the decisions and random outcomes are drawn from a tiny
//! PRNG, every consequence is the one `next_consequence` owes, and each event is stepped as
//! it is made, so the log is legal by construction. Between a roll and its outcomes the
//! player sometimes recalls a mercenary or pays Fame for a reroll.
//!
//! `Game::simulate` is this fight. Many of its changed dice or decisions stay legal (a roll
//! counts only its highest die, so raising a low die or turning one miss into another
//! changes nothing the rules owe): engine/tests/simulation.rs checks that such a changed log
//! is a legal log, not that it is flagged.

use super::cards::{Area, CardKind};
use super::effect::Ailment;
use super::event::{Event, Place, Play};
use super::state::{HandCard, Phase, State};
use super::KeridwynFight;
use crate::{Findings, Game};

/// splitmix64: deterministic on every machine, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// 0..n (0 when n is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
    fn die(&mut self, sides: u8) -> u8 {
        1 + self.below(usize::from(sides)) as u8
    }
}

/// Seat labels, in join order.
const SEATS: [&str; 3] = ["A", "B", "C"];

impl KeridwynFight {
    /// A seeded random legal fight of at most `events` events (whole fights end sooner):
    /// the same seed gives the same log, a shorter request a prefix of it.
    pub fn random_fight(&self, seed: u64, events: usize) -> Vec<Event> {
        let mut rng = Rng(seed);
        let mut s = self.initial_state();
        let mut out = Vec::new();
        for ev in self.opening(&mut rng) {
            if out.len() >= events || !self.play(&mut s, ev, &mut out) {
                return out;
            }
        }
        while out.len() < events {
            let ev = match self.sim_reroll_or_recall(&s, &mut rng).or_else(|| self.next_consequence(&s)) {
                Some(c) => c,
                None => match self.decision(&s, &mut rng) {
                    Some(d) => d,
                    None => break,
                },
            };
            if !self.play(&mut s, ev, &mut out) {
                break;
            }
        }
        out
    }

    /// Step one event and keep it; `false` (and nothing kept) if the rules flag it, which
    /// would be a simulator bug: the log stops there rather than hold an illegal record.
    fn play(&self, s: &mut State, ev: Event, out: &mut Vec<Event>) -> bool {
        let mut f = Findings::default();
        let mut next = s.clone();
        if self.step(&mut next, &ev, &mut f).is_err() || !f.is_clean() {
            return false;
        }
        *s = next;
        out.push(ev);
        true
    }

    /// The joins, the monster (or none: a fight between two characters) and `begin`.
    fn opening(&self, rng: &mut Rng) -> Vec<Event> {
        let mut roster: Vec<&String> = self.catalog.characters.keys().collect();
        let monsters: Vec<&String> = self.catalog.monsters.keys().collect();
        let duel = monsters.is_empty() || rng.below(4) == 0;
        let count = if duel { 2 } else { 1 + rng.below(3) }.min(roster.len());
        let mut out = Vec::new();
        let mut taken: Vec<String> = Vec::new();
        for seat in SEATS.iter().take(count) {
            let character = roster.remove(rng.below(roster.len())).clone();
            let worn: Vec<&String> = self.catalog.characters[&character]
                .cards
                .iter()
                .filter(|c| self.catalog.cards.get(*c).is_some_and(|k| k.worn))
                .collect();
            // One worn gear must be chosen when there are several (it is implied for one).
            let worn = (worn.len() > 1).then(|| rng.pick(&worn).map(|w| (*w).clone())).flatten();
            // A mercenary nobody has brought yet, sometimes.
            let free: Vec<&String> = self.catalog.mercs.keys().filter(|m| !taken.contains(*m)).collect();
            let mercs: Vec<String> = if rng.below(2) == 0 {
                rng.pick(&free).map(|m| (*m).clone()).into_iter().collect()
            } else {
                Vec::new()
            };
            taken.extend(mercs.iter().cloned());
            out.push(Event::Join { player: seat.to_string(), character, worn, mercs });
        }
        if !duel {
            if let Some(m) = rng.pick(&monsters) {
                let place = if rng.below(2) == 0 { Place::Cage } else { Place::Zone };
                out.push(Event::Monster { monster: (*m).clone(), place, number: 1 + rng.below(6) as u32 });
            }
        }
        out.push(Event::Begin);
        out
    }

    /// The next decision or random outcome the state waits for; `None` once the fight is over.
    fn decision(&self, s: &State, rng: &mut Rng) -> Option<Event> {
        match &s.phase {
            Phase::TieBreak { tied, rolls, .. } => {
                let who = tied.iter().copied().find(|t| !rolls.iter().any(|(r, _)| r == t))?;
                let skill = super::effect::Skill::Finesse;
                Some(self.roll_event(s, who, skill, rng))
            }
            Phase::Reveal => {
                let who = self.next_revealer(s)?;
                // Under `focus-refresh=on-reveal` Focus itself never comes back: once the hand
                // is down to one card no legal reveal is left, and the simulated log stops.
                if s.fighters[who].hand.len() < 2 {
                    return None;
                }
                Some(Event::Reveal { who: s.fighters[who].label.clone(), plays: self.plays(s, who, rng) })
            }
            Phase::MonsterRoll { .. } => {
                let m = self.monster(s)?;
                Some(Event::MonsterAction { monster: s.fighters[m].label.clone(), face: rng.die(6) })
            }
            Phase::AwaitTarget => {
                let c = s.current.as_ref()?;
                let candidates = match self.targets(s, c.who, Area::Single) {
                    Ok(t) | Err(t) => t,
                };
                let t = *rng.pick(&candidates)?;
                Some(Event::Target { who: s.fighters[t].label.clone() })
            }
            Phase::AwaitRoll => {
                let c = s.current.as_ref()?;
                Some(self.roll_event(s, c.who, c.skill, rng))
            }
            _ => None,
        }
    }

    /// Sometimes, between a roll and its first outcome: a character pays Fame to reroll one
    /// die, or the roller recalls a mercenary (once a fight).
    fn sim_reroll_or_recall(&self, s: &State, rng: &mut Rng) -> Option<Event> {
        let c = s.current.as_ref().filter(|c| c.rolled && !c.outcomes_started && s.phase == Phase::Rolled)?;
        if rng.below(2) == 0 {
            return None;
        }
        let roller = &s.fighters[c.who];
        if let Some((merc, _)) = roller.mercs.iter().find(|(_, used)| !used) {
            let bonus = self.catalog.mercs.get(merc)?.roll_bonus;
            return Some(Event::Recall { who: roller.label.clone(), merc: merc.clone(), bonus });
        }
        let cost = self.params.reroll_cost;
        let payers: Vec<&String> = s
            .fighters
            .iter()
            .filter(|f| !f.monster && !f.defeated && f.fame >= cost)
            .map(|f| &f.label)
            .collect();
        let payer = (*rng.pick(&payers)?).clone();
        let from = *rng.pick(&c.dice)?;
        Some(Event::Reroll { payer, from, to: rng.die(super::decide::DIE_SIDES), fame: cost })
    }

    fn roll_event(&self, s: &State, who: usize, skill: super::effect::Skill, rng: &mut Rng) -> Event {
        let dice = (0..s.fighters[who].tier(skill)).map(|_| rng.die(super::decide::DIE_SIDES)).collect();
        Event::Roll { who: s.fighters[who].label.clone(), skill, dice }
    }

    /// Two cards from the hand, each with a legal declaration.
    fn plays(&self, s: &State, who: usize, rng: &mut Rng) -> Vec<Play> {
        let f = &s.fighters[who];
        let usable: Vec<&String> =
            f.cards.iter().filter(|c| self.catalog.cards.get(*c).is_some_and(|k| !k.worn)).collect();
        // Primary and Secondary need a card to declare (a catalog may give a character none).
        let mut hand: Vec<HandCard> = f
            .hand
            .iter()
            .copied()
            .filter(|h| !usable.is_empty() || !matches!(h, HandCard::Primary | HandCard::Secondary))
            .collect();
        let mut chosen = Vec::new();
        while chosen.len() < 2 && !hand.is_empty() {
            chosen.push(hand.remove(rng.below(hand.len())));
        }
        let gear: Vec<&String> = usable
            .iter()
            .copied()
            .filter(|c| {
                self.catalog.cards.get(*c).is_some_and(|k| k.kind == CardKind::Gear && k.attack.is_none())
            })
            .collect();
        let allies: Vec<&String> = s
            .fighters
            .iter()
            .enumerate()
            .filter(|(i, x)| *i != who && !x.monster && !x.defeated)
            .map(|(_, x)| &x.label)
            .collect();
        let mut plays = Vec::new();
        for h in chosen {
            match h {
                HandCard::Lure => plays.push(Play::Lure),
                HandCard::Balance => plays.push(Play::Balance),
                HandCard::Focus => plays.push(Play::Focus),
                HandCard::Primary | HandCard::Secondary => {
                    let Some(card) = rng.pick(&usable).map(|c| (*c).clone()) else { continue };
                    let support = self
                        .catalog
                        .cards
                        .get(&card)
                        .is_some_and(|k| k.kind == CardKind::Spell && k.attack.is_none());
                    let on = if support && rng.below(3) == 0 {
                        rng.pick(&allies).map(|a| (*a).clone())
                    } else {
                        None
                    };
                    plays.push(if h == HandCard::Primary {
                        Play::Primary { card, on }
                    } else {
                        Play::Secondary { card, on }
                    });
                }
                HandCard::Maneuver => {
                    let card = if rng.below(2) == 0 { rng.pick(&gear).map(|g| (*g).clone()) } else { None };
                    let immune = (card.is_none() || self.params.maneuver_both) && rng.below(2) == 0;
                    plays.push(Play::Maneuver { card });
                    if immune {
                        if let Some(a) = rng.pick(&Ailment::ALL) {
                            plays.push(Play::Immune(*a));
                        }
                    }
                }
            }
        }
        plays
    }
}
