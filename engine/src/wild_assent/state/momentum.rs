//! An Arena side's Momentum dice as the table holds them: a die's face, dice counted per
//! face, and a side's pool for the round. The rules that roll, reroll, assign and spend them
//! are `momentum.rs`'s.

use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// A Momentum die's result.
    pub enum Face ("a Momentum die (dmg, def, spd, heal, blank)") {
        Damage = "dmg", Defense = "def", Speed = "spd", Heal = "heal", Blank = "blank"
    }
}

impl Face {
    /// The face's bit in a Gladiator's set of held dice.
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Momentum dice as counts per face (order is not a fact).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Dice(pub [u8; 5]);

impl Dice {
    /// The most dice one event names.
    pub const MAX: u8 = 30;

    pub fn of(&self, f: Face) -> u8 {
        self.0[f as usize]
    }
    pub fn add(&mut self, f: Face) {
        self.0[f as usize] = self.0[f as usize].saturating_add(1);
    }
    pub fn count(&self) -> u8 {
        self.0.iter().fold(0u8, |a, &n| a.saturating_add(n))
    }
    /// Every die of `other` is among these.
    pub fn holds(&self, other: &Dice) -> bool {
        self.0.iter().zip(other.0).all(|(&a, b)| a >= b)
    }
    pub fn minus(&self, other: &Dice) -> Dice {
        let mut d = *self;
        d.0.iter_mut().zip(other.0).for_each(|(a, b)| *a = a.saturating_sub(b));
        d
    }
    pub fn plus(&self, other: &Dice) -> Dice {
        let mut d = *self;
        d.0.iter_mut().zip(other.0).for_each(|(a, b)| *a = a.saturating_add(b));
        d
    }
    /// The faces present, each once.
    pub(crate) fn faces(&self) -> impl Iterator<Item = Face> + '_ {
        Face::ALL.iter().copied().filter(|f| self.of(*f) > 0)
    }
}

impl fmt::Display for Dice {
    /// `dmg dmg heal blank`: faces in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for face in Face::ALL {
            for _ in 0..self.of(*face) {
                if !first {
                    f.write_str(" ")?;
                }
                first = false;
                f.write_str(face.name())?;
            }
        }
        Ok(())
    }
}

/// One side's Momentum dice this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Pool {
    /// Rolled and not yet assigned, rerolled away or discarded.
    pub dice: Dice,
    pub rolled: bool,
    /// The one reroll is used.
    pub rerolled: bool,
    /// A die has been assigned since the roll.
    pub assigned: bool,
    /// The rerolls' results still in `dice` (`momentum-reroll-count=per-die`): a die's
    /// second result stands, so these are never rerolled again.
    #[serde(default)]
    pub second: Dice,
    /// The roll was left out of the log (reported once): its dice are taken from what the
    /// side assigns, rerolls and discards (audit r6 D13), each adding to the pool as needed.
    #[serde(default)]
    pub guessed: bool,
}
