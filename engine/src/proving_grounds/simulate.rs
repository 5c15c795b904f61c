//! A seeded random player producing legal, complete logs (consequences included).
//!
//! The log is one game: it stops when the game is won or lost, or after the requested
//! number of events, whichever comes first; callers wanting more events use more seeds.
//! The PRNG is the kit's splitmix64, so the same seed gives the same log on every machine.

use super::dice::{Color, Dice, Die};
use super::event::{Action, Event};
use super::params::ReplaceWithoutWhite;
use super::params::{InspirationReuse, Module};
use super::state::{Phase, State, SLOTS};
use super::ProvingGrounds;
use crate::kit::rng::SplitMix64;
use crate::Findings;

impl ProvingGrounds {
    pub(super) fn simulate_log(&self, seed: u64, events: usize) -> Vec<Event> {
        let mut rng = SplitMix64::new(seed);
        let mut deck: Vec<u8> = (0..self.cards.enemies.len() as u8).collect();
        rng.shuffle(&mut deck);
        let mut next_card = 0usize;
        // Module decks are shuffled only when a module is in play, so a training game's log
        // for a seed stays what it always was.
        let mut decks = ModuleDecks::default();
        if !self.config.modules.is_empty() {
            decks.conspirators = shuffled(self.cards.conspirators.len(), &mut rng);
            decks.chariots = shuffled(self.cards.chariots.len(), &mut rng);
        }
        let mut s = self.initial();
        let mut out = Vec::with_capacity(events.min(1 << 20));
        let mut clock = 0u16;
        let mut findings = Findings::default();
        while out.len() < events && s.phase != Phase::Over {
            let module_move = if self.config.modules.is_empty() {
                None
            } else {
                self.module_decision(&s, &mut decks, &mut rng)
            };
            // Every consequence is the one `next_consequence` derives, a wound's and a borrow's
            // die included (the choice a player who does not say makes).
            // The simulated player makes every replacement it may (`random_replace`).
            let event = match module_move.or_else(|| self.consequence_unless(&s, true)) {
                Some(a) => Event::new(a),
                None => match s.phase {
                    Phase::Draw => match (0..SLOTS).find(|&i| s.slots[i].card.is_none()) {
                        Some(i) if next_card < deck.len() => {
                            let card = deck[next_card];
                            next_card += 1;
                            Event::new(Action::EnemyDrawn {
                                slot: i as u8 + 1,
                                card: self.enemy(card).id.clone(),
                            })
                        }
                        _ => {
                            clock = 0;
                            let mut dice = Dice::new();
                            for d in s.pool.iter() {
                                dice.push(Die::new(rng.die(6), d.color));
                            }
                            Event::at(Action::DiceRolled { dice }, 0)
                        }
                    },
                    Phase::Roll => {
                        clock += 1 + rng.below(15) as u16;
                        let faces = s.pool.faces();
                        let sets: Vec<u8> = (1..=6u8).filter(|&f| faces[f as usize] >= 2).collect();
                        // The `timer` reading in force says when a reroll is late (t=60 is late
                        // under `strict`), so the player stops rerolling there.
                        if clock <= self.config.last_reroll_second
                            && !sets.is_empty()
                            && self.may_reroll(&s)
                            && rng.below(3) != 0
                        {
                            let face = sets[rng.below(sets.len())];
                            let mut dice = Dice::new();
                            for d in s.pool.iter().filter(|d| d.value == face) {
                                dice.push(Die::new(rng.die(6), d.color));
                            }
                            Event::at(Action::SetRerolled { faces: 1 << face, dice }, clock)
                        } else {
                            Event::at(Action::RollingStopped, clock.min(60))
                        }
                    }
                    Phase::Move | Phase::Check if s.replace_owed => self.random_replace(&s, &mut rng),
                    Phase::Move | Phase::Check | Phase::Over => break,
                },
            };
            findings.clear();
            if self.apply(&mut s, &event, &mut findings).is_err() {
                break;
            }
            debug_assert!(findings.is_clean(), "simulated `{event}` broke {:?}", findings.violations);
            out.push(event);
        }
        out
    }

    /// Whether the modules allow another reroll (the Rolls tracker, an active conspirator).
    fn may_reroll(&self, s: &State) -> bool {
        if self.config.modules.has(Module::Rolls) && s.mods.rolls.left == 0 {
            return false;
        }
        !self.rerolls_forbidden(s)
    }

    /// A module's decision or random outcome due now (before any consequence), if any.
    fn module_decision(&self, s: &State, decks: &mut ModuleDecks, rng: &mut SplitMix64) -> Option<Action> {
        let m = &s.mods;
        let mods = self.config.modules;
        if self.reveal_pending(s) && matches!(s.phase, Phase::Draw | Phase::Check) {
            if let Some(k) = decks.next_conspirator(m.conspirators.revealed) {
                return Some(Action::ConspiratorRevealed { card: self.cards.conspirators[k].id.clone() });
            }
        }
        match s.phase {
            // Start of round, once the refills are done.
            Phase::Draw
                if (0..SLOTS).all(|i| s.slots[i].card.is_some())
                    || s.drawn_count() as usize >= self.cards.enemies.len() =>
            {
                if mods.has(Module::SunMoon) && m.sun_moon.facing == 0 {
                    // An enemy other than last round's; with none left, any slot.
                    let mut slots: Vec<usize> = (0..SLOTS)
                        .filter(|&i| s.slots[i].card.is_some() && s.slots[i].card != m.sun_moon.faced_last)
                        .collect();
                    if slots.is_empty() {
                        slots = (0..SLOTS).collect();
                    }
                    let i = slots.get(rng.below(slots.len())).copied().unwrap_or(0);
                    return Some(Action::DialTurned { slot: i as u8 + 1 });
                }
                if mods.has(Module::Conspirators) && m.conspirators.die == 0 {
                    return Some(Action::ConspiratorRolled { value: rng.die(6) });
                }
                if mods.has(Module::Chariots) && m.chariots.chariot.is_none() {
                    if let Some(k) = decks.next_chariot(m.chariots.drawn) {
                        return Some(Action::ChariotDrawn { card: self.cards.chariots[k].id.clone() });
                    }
                }
                None
            }
            Phase::Roll => {
                if m.dragonling.may_roll && (m.dragonling.face == 0 || rng.below(2) == 0) {
                    return Some(Action::DragonlingRolled { value: rng.die(6) });
                }
                if let Some(d) = self.die_for_chariot(s) {
                    let mut dice = Dice::new();
                    dice.push(d);
                    return Some(Action::ChariotLoaded { dice });
                }
                if mods.has(Module::Inspiration) && rng.below(8) == 0 {
                    let k = rng.below(self.cards.inspirations.len());
                    if m.inspiration.played & (1 << k) == 0
                        || self.config.inspiration_reuse == InspirationReuse::Free
                    {
                        let card = self.cards.inspirations[k].id.clone();
                        if !self.cards.inspirations[k].effect.targets_an_enemy() {
                            return Some(Action::InspirationPlayed { card });
                        }
                        let slots: Vec<u8> =
                            (0..SLOTS as u8).filter(|&i| s.slots[i as usize].card.is_some()).collect();
                        if let Some(&i) = slots.get(rng.below(slots.len())) {
                            return Some(Action::InspirationPlayedOn { card, slot: i + 1 });
                        }
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// A pool die that fills a still unfilled part of the chariot's condition.
    fn die_for_chariot(&self, s: &State) -> Option<Die> {
        let chariot = self.cards.chariots.get(s.mods.chariots.chariot? as usize)?;
        let on = |extra: Option<&Die>| {
            chariot.fill(s.mods.chariots.dice.iter().chain(extra).map(|d| (d.value, d.color)))
        };
        let (missing, _) = on(None);
        if missing == 0 {
            return None;
        }
        s.pool
            .iter()
            .find(|d| {
                let (m, unused) = on(Some(d));
                unused == 0 && m.count_ones() < missing.count_ones()
            })
            .copied()
    }

    fn random_replace(&self, s: &State, rng: &mut SplitMix64) -> Event {
        let stacked: Vec<Color> = Color::COLORED.into_iter().filter(|&c| s.stack.get(c) > 0).collect();
        let taken = stacked.get(rng.below(stacked.len())).copied().unwrap_or(Color::Green);
        let discarded = if s.pool.iter().any(|d| d.color == Color::White) {
            Some(Color::White)
        } else {
            match self.config.replace_without_white {
                ReplaceWithoutWhite::Add => None,
                _ => s.pool.iter().map(|d| d.color).next(),
            }
        };
        Event::new(Action::DieReplaced { discarded, taken })
    }
}

/// The module card decks, shuffled once per simulated game.
#[derive(Default)]
struct ModuleDecks {
    conspirators: Vec<usize>,
    chariots: Vec<usize>,
}

impl ModuleDecks {
    fn next_conspirator(&self, revealed: u32) -> Option<usize> {
        self.conspirators.iter().copied().find(|&k| revealed & (1 << k) == 0)
    }
    fn next_chariot(&self, drawn: u32) -> Option<usize> {
        self.chariots.iter().copied().find(|&k| drawn & (1 << k) == 0)
    }
}

fn shuffled(n: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut v);
    v
}
