//! A seeded random legal fight: the decisions and random outcomes are drawn from the kit's
//! generator, every consequence is the one `next_consequence` owes, and each event is
//! stepped as it is made, so the log is legal by construction. Between a roll and its
//! outcomes the player sometimes recalls a mercenary or pays Fame for a reroll.
//!
//! `Game::simulate` is this fight. Many of its changed dice or decisions stay legal (a roll
//! counts only its highest die, so raising a low die or turning one miss into another
//! changes nothing the rules owe): engine/tests/simulation.rs checks that such a changed log
//! is a legal log, not that it is flagged.

use super::cards::CardKind;
use super::compute::Targets;
use super::effect::{Ailment, Skill};
use super::event::{Event, Place, Play};
use super::name::Name;
use super::rules::{DeclaredRepeat, ManeuverOptions};
use super::state::{CardId, HandCard, Phase, Seat, State};
use super::KeridwynFight;
use crate::kit::dice::Roll;
use crate::kit::rng::SplitMix64;
use crate::{Findings, Game};

/// Seat labels, in join order.
const SEATS: [&str; 3] = ["A", "B", "C"];

impl KeridwynFight {
    /// A seeded random legal fight of at most `events` events (whole fights end sooner):
    /// the same seed gives the same log, a shorter request a prefix of it.
    pub fn random_fight(&self, seed: u64, events: usize) -> Vec<Event> {
        let mut rng = SplitMix64::new(seed);
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
        if self.step(&mut next, &ev, &mut f).is_err() || !f.is_clean() || !f.uncertain.is_empty() {
            return false;
        }
        *s = next;
        out.push(ev);
        true
    }

    /// The joins, the monster (or none: a fight between two characters) and `begin`.
    fn opening(&self, rng: &mut SplitMix64) -> Vec<Event> {
        let mut roster: Vec<&str> = self.catalog.characters.names().collect();
        let monsters: Vec<&str> = self.catalog.monsters.names().collect();
        let duel = monsters.is_empty() || rng.one_in(4);
        let count = if duel { 2 } else { 1 + rng.below(3) }.min(roster.len());
        let mut out = Vec::new();
        let mut taken: Vec<&str> = Vec::new();
        for seat in SEATS.iter().take(count) {
            let character = roster.remove(rng.below(roster.len()));
            let worn: Vec<CardId> = self
                .catalog
                .characters
                .by_name(character)
                .map(|c| {
                    c.cards
                        .iter()
                        .copied()
                        .filter(|&k| self.catalog.cards.get(k).is_some_and(|k| k.worn))
                        .collect()
                })
                .unwrap_or_default();
            // One worn gear must be chosen when there are several (it is implied for one).
            let worn = (worn.len() > 1)
                .then(|| rng.pick(&worn).map(|w| Name::new(self.catalog.cards.name(*w))))
                .flatten();
            // A mercenary nobody has brought yet, sometimes.
            let free: Vec<&str> = self.catalog.mercs.names().filter(|m| !taken.contains(m)).collect();
            let mercs: Vec<Name> = if rng.one_in(2) {
                rng.pick(&free).map(|m| Name::new(m)).into_iter().collect()
            } else {
                Vec::new()
            };
            taken.extend(mercs.iter().filter_map(|m| free.iter().find(|f| **f == m.as_str()).copied()));
            out.push(Event::Joined { player: Name::new(seat), character: Name::new(character), worn, mercs });
        }
        if !duel {
            if let Some(m) = rng.pick(&monsters) {
                let place = if rng.one_in(2) { Place::Cage } else { Place::Zone };
                out.push(Event::MonsterPlaced {
                    monster: Name::new(m),
                    place,
                    number: 1 + rng.below(6) as u32,
                });
            }
        }
        out.push(Event::Begun);
        out
    }

    /// The next decision or random outcome the state waits for; `None` once the fight is over.
    fn decision(&self, s: &State, rng: &mut SplitMix64) -> Option<Event> {
        match &s.phase {
            Phase::TieBreak { tied, rolls, .. } => {
                let who = tied.iter().copied().find(|t| !rolls.iter().any(|(r, _)| r == t))?;
                Some(self.roll_event(s, who, Skill::Finesse, rng))
            }
            Phase::Reveal => {
                let who = self.next_revealer(s)?;
                // Under `focus-refresh=on-reveal` Focus itself never comes back: once the hand
                // is down to one card no legal reveal is left, and the simulated log stops.
                if s.fighter(who).hand.len() < 2 {
                    return None;
                }
                Some(Event::Revealed { who: Name::new(self.label(s, who)), plays: self.plays(s, who, rng) })
            }
            Phase::MonsterRoll { .. } => {
                let m = s.monster()?;
                Some(Event::MonsterActionRolled {
                    monster: Name::new(self.label(s, m)),
                    face: rng.die(self.params.die.sides()),
                })
            }
            Phase::AwaitTarget => {
                let c = s.current.as_ref()?;
                let candidates = match self.targets(s, c.who, super::cards::Area::Single) {
                    Targets::Chosen(t) | Targets::Random(t) => t,
                    Targets::Balance(b) => smallvec::smallvec![b],
                };
                let t = *rng.pick(&candidates)?;
                Some(Event::TargetPicked { who: Name::new(self.label(s, t)) })
            }
            Phase::AwaitRoll => {
                let c = s.current.as_ref()?;
                Some(self.roll_event(s, c.who, c.skill, rng))
            }
            _ => None,
        }
    }

    /// Sometimes, between a roll and its first outcome: a character pays Fame to reroll one
    /// die, or the roller recalls a mercenary.
    fn sim_reroll_or_recall(&self, s: &State, rng: &mut SplitMix64) -> Option<Event> {
        let c = s.current.as_ref().filter(|c| c.rolled && !c.outcomes_started && s.phase == Phase::Rolled)?;
        if c.targets.is_empty() || rng.one_in(2) {
            return None;
        }
        let roller = s.fighter(c.who);
        if let Some((merc, _)) = roller.mercs.iter().find(|(_, last)| !self.recalled(*last, s.round)) {
            let bonus = self.catalog.merc(*merc)?.roll_bonus;
            let merc = Name::new(self.catalog.mercs.name(*merc));
            return Some(Event::Recalled { who: Name::new(&roller.label), merc, bonus });
        }
        let cost = self.params.reroll_cost;
        let payers: Vec<&str> = s
            .fighters
            .iter()
            .filter(|f| !f.is_monster() && !f.defeated && f.fame >= cost)
            .map(|f| f.label.as_str())
            .collect();
        let payer = Name::new(rng.pick(&payers)?);
        let from = *rng.pick(c.dice.dice())?;
        Some(Event::Rerolled { payer, from, to: rng.die(self.params.die.sides()), fame: cost })
    }

    fn roll_event(&self, s: &State, who: Seat, skill: Skill, rng: &mut SplitMix64) -> Event {
        let sides = self.params.die.sides();
        let dice = (0..s.fighter(who).tier(skill)).map(|_| rng.die(sides)).collect();
        Event::Rolled { who: Name::new(self.label(s, who)), skill, dice: Roll::new(dice) }
    }

    /// Two cards from the hand, each with a legal declaration.
    fn plays(&self, s: &State, who: Seat, rng: &mut SplitMix64) -> Vec<Play> {
        let f = s.fighter(who);
        let usable: Vec<CardId> = self
            .cards_of(f)
            .iter()
            .copied()
            .filter(|&c| self.catalog.cards.get(c).is_some_and(|k| !k.worn))
            .collect();
        // Primary and Secondary need a card to declare (a catalog may give a character none).
        let mut hand: Vec<HandCard> = f
            .hand
            .iter()
            .copied()
            .filter(|h| !usable.is_empty() || !matches!(h, HandCard::Primary | HandCard::Secondary))
            .collect();
        let distinct = self.params.declared_repeat == DeclaredRepeat::Refused;
        let mut chosen = Vec::new();
        while chosen.len() < 2 && !hand.is_empty() {
            let h = hand.remove(rng.below(hand.len()));
            // `declared-card-repeat=refused` with one card to declare: Primary or Secondary,
            // not both.
            if distinct && usable.len() < 2 && matches!(h, HandCard::Primary | HandCard::Secondary) {
                hand.retain(|x| !matches!(x, HandCard::Primary | HandCard::Secondary));
            }
            chosen.push(h);
        }
        if distinct {
            // Primary and Secondary declare first, so Maneuver's optional gear never takes the
            // card one of them needs.
            chosen.sort_by_key(|h| !matches!(h, HandCard::Primary | HandCard::Secondary));
        }
        let mut declared: Vec<CardId> = Vec::new();
        let gear: Vec<CardId> = usable
            .iter()
            .copied()
            .filter(|&c| {
                self.catalog.cards.get(c).is_some_and(|k| k.kind == CardKind::Gear && k.attack.is_none())
            })
            .collect();
        let allies: Vec<&str> = s
            .fighters
            .iter()
            .enumerate()
            .filter(|(i, x)| *i != who.i() && !x.is_monster() && !x.defeated)
            .map(|(_, x)| x.label.as_str())
            .collect();
        let name = |c: CardId| Name::new(self.catalog.cards.name(c));
        let mut plays = Vec::new();
        for h in chosen {
            match h {
                HandCard::Lure => plays.push(Play::Lure),
                HandCard::Balance => plays.push(Play::Balance),
                HandCard::Focus => plays.push(Play::Focus),
                HandCard::Primary | HandCard::Secondary => {
                    let free: Vec<CardId> =
                        usable.iter().copied().filter(|c| !declared.contains(c)).collect();
                    let Some(&card) = rng.pick(if distinct { &free } else { &usable }) else { continue };
                    declared.push(card);
                    let support = self.catalog.cards.get(card).is_some_and(|k| k.is_support_spell());
                    let on =
                        if support && rng.one_in(3) { rng.pick(&allies).map(|a| Name::new(a)) } else { None };
                    let card = name(card);
                    plays.push(if h == HandCard::Primary {
                        Play::Primary { card, on }
                    } else {
                        Play::Secondary { card, on }
                    });
                }
                HandCard::Maneuver => {
                    let free: Vec<CardId> = gear.iter().copied().filter(|c| !declared.contains(c)).collect();
                    let pool = if distinct { &free } else { &gear };
                    let card = if rng.one_in(2) { rng.pick(pool).map(|g| name(*g)) } else { None };
                    // A Maneuver declares gear or an Immunity (l.31): with no gear, an Immunity.
                    let immune = card.is_none()
                        || (self.params.maneuver == ManeuverOptions::GearAndImmunity && rng.one_in(2));
                    plays.push(Play::Maneuver { card });
                    if immune {
                        if let Some(a) = rng.pick(Ailment::ALL) {
                            plays.push(Play::Immune(*a));
                        }
                    }
                }
            }
        }
        plays
    }
}
