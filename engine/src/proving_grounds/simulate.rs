//! A seeded random player producing legal, complete logs (consequences included).
//!
//! The log is one game: it stops when the game is won or lost, or after the requested
//! number of events, whichever comes first; callers wanting more events use more seeds.
//! The PRNG is splitmix64, written here so the same seed gives the same log on every
//! machine and no dependency is needed.

use super::cards::Effect;
use super::dice::{Color, Dice, Die};
use super::event::{Action, Event};
use super::modules::Module;
use super::params::ReplaceWithoutWhite;
use super::state::{Phase, State, SLOTS};
use super::ProvingGrounds;
use crate::Findings;

/// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for dice.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant for dice.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    fn face(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

impl ProvingGrounds {
    pub(super) fn simulate_log(&self, seed: u64, events: usize) -> Vec<Event> {
        let mut rng = SplitMix64::new(seed);
        let mut deck: Vec<u8> = (0..self.enemies.len() as u8).collect();
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut next_card = 0usize;
        // Module decks are shuffled only when a module is in play, so a training game's log
        // for a seed stays what it always was.
        let mut decks = ModuleDecks::default();
        if !self.config.modules.is_empty() {
            decks.conspirators = shuffled(self.conspirators.len(), &mut rng);
            decks.chariots = shuffled(self.chariots.len(), &mut rng);
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
            let event = match module_move.or_else(|| self.consequence(&s)) {
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
                                dice.push(Die::new(rng.face(), d.color));
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
                            let face = sets[rng.below(sets.len() as u64) as usize];
                            let mut dice = Dice::new();
                            for d in s.pool.iter().filter(|d| d.value == face) {
                                dice.push(Die::new(rng.face(), d.color));
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
        if self.config.modules.has(Module::Rolls) && s.mods.rolls_left == 0 {
            return false;
        }
        !self
            .conspirators
            .iter()
            .enumerate()
            .any(|(k, c)| s.mods.active & (1 << k) != 0 && c.effect == Effect::NoRerolls)
    }

    /// A module's decision or random outcome due now (before any consequence), if any.
    fn module_decision(&self, s: &State, decks: &mut ModuleDecks, rng: &mut SplitMix64) -> Option<Action> {
        let m = &s.mods;
        let mods = self.config.modules;
        if self.reveal_pending(s) && matches!(s.phase, Phase::Draw | Phase::Check) {
            if let Some(k) = decks.next_conspirator(m.revealed) {
                return Some(Action::ConspiratorRevealed { card: self.conspirators[k].id.clone() });
            }
        }
        match s.phase {
            // Start of round, once the refills are done.
            Phase::Draw
                if (0..SLOTS).all(|i| s.slots[i].card.is_some())
                    || s.drawn_count() as usize >= self.enemies.len() =>
            {
                if mods.has(Module::SunMoon) && m.facing == 0 {
                    let slots: Vec<usize> = (0..SLOTS)
                        .filter(|&i| s.slots[i].card.is_none() || s.slots[i].card != m.faced_last)
                        .collect();
                    let i = slots.get(rng.below(slots.len() as u64) as usize).copied().unwrap_or(0);
                    return Some(Action::DialTurned { slot: i as u8 + 1 });
                }
                if mods.has(Module::Conspirators) && m.conspire == 0 {
                    return Some(Action::ConspiratorRolled { value: rng.below(6) as u8 + 1 });
                }
                if mods.has(Module::Chariots) && m.chariot.is_none() {
                    if let Some(k) = decks.next_chariot(m.chariots_drawn) {
                        return Some(Action::ChariotDrawn { card: self.chariots[k].id.clone() });
                    }
                }
                None
            }
            Phase::Roll => {
                if m.dragon_may && (m.dragon == 0 || rng.below(2) == 0) {
                    return Some(Action::DragonlingRolled { value: rng.below(6) as u8 + 1 });
                }
                if let Some(d) = self.die_for_chariot(s) {
                    let mut dice = Dice::new();
                    dice.push(d);
                    return Some(Action::ChariotLoaded { dice });
                }
                if mods.has(Module::Inspiration) && rng.below(8) == 0 {
                    let k = rng.below(self.inspirations.len() as u64) as usize;
                    if m.inspired & (1 << k) == 0 || !self.config.inspiration_once {
                        let card = self.inspirations[k].id.clone();
                        if !self.inspirations[k].effect.targets_an_enemy() {
                            return Some(Action::InspirationPlayed { card });
                        }
                        let slots: Vec<u8> =
                            (0..SLOTS as u8).filter(|&i| s.slots[i as usize].card.is_some()).collect();
                        if let Some(&i) = slots.get(rng.below(slots.len() as u64) as usize) {
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
        let chariot = self.chariots.get(s.mods.chariot? as usize)?;
        let on = |extra: Option<&Die>| {
            chariot.fill(s.mods.chariot_dice.iter().chain(extra).map(|d| (d.value, d.color)))
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
        let taken = stacked.get(rng.below(stacked.len() as u64) as usize).copied().unwrap_or(Color::Green);
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
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
    v
}
