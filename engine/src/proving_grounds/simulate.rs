//! A seeded random player producing legal, complete logs (consequences included).
//!
//! The log is one game: it stops when the game is won or lost, or after the requested
//! number of events, whichever comes first; callers wanting more events use more seeds.
//! The PRNG is splitmix64, written here so the same seed gives the same log on every
//! machine and no dependency is needed.

use super::dice::{Color, Dice, Die};
use super::event::{Action, Event};
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
        let mut s = self.initial();
        let mut out = Vec::with_capacity(events.min(1 << 20));
        let mut clock = 0u16;
        let mut findings = Findings::default();
        while out.len() < events && s.phase != Phase::Over {
            let event = match self.consequence(&s) {
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
                        if clock <= 60 && !sets.is_empty() && rng.below(3) != 0 {
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
                    Phase::Move | Phase::Check => match self.pending_wound(&s) {
                        Some(i) => {
                            let slot = i as u8 + 1;
                            let exhausted = self.random_exhaust(&s, slot, &mut rng);
                            Event::new(Action::WoundSuffered { slot, exhausted })
                        }
                        None => break,
                    },
                    Phase::Over => break,
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

    fn random_exhaust(&self, s: &State, slot: u8, rng: &mut SplitMix64) -> Color {
        let from_enemy = self.config.exhaust_from == super::params::ExhaustFrom::WoundingEnemy
            && s.pool.iter().any(|d| d.value == slot);
        let allowed: Vec<Color> =
            s.pool.iter().filter(|d| !from_enemy || d.value == slot).map(|d| d.color).collect();
        if allowed.is_empty() {
            return Color::White;
        }
        allowed[rng.below(allowed.len() as u64) as usize]
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
