//! The optional modules: which ones a setup puts in play, and their part of the table.
//!
//! The rulebook calls Proving Grounds "a core game ... and six modules that can be added, in
//! any combination"; the reference card adds the Rolls tracker. A setup names them as a
//! comma-separated list (`modules=shields,sun-moon`). Their state is one small inline
//! struct (`ModState`, no heap) inside `State`, so a training game carries a few idle bytes
//! and steps exactly as before.

use super::dice::{ColorCounts, Dice};
use serde::{Deserialize, Serialize};

/// One optional module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Module {
    Shields,
    SunMoon,
    Conspirators,
    Dragonling,
    Chariots,
    Inspiration,
    Rolls,
}

impl Module {
    pub const ALL: [Module; 7] = [
        Module::Shields,
        Module::SunMoon,
        Module::Conspirators,
        Module::Dragonling,
        Module::Chariots,
        Module::Inspiration,
        Module::Rolls,
    ];

    /// The name used in `modules=...`.
    pub fn name(self) -> &'static str {
        match self {
            Module::Shields => "shields",
            Module::SunMoon => "sun-moon",
            Module::Conspirators => "conspirators",
            Module::Dragonling => "dragonling",
            Module::Chariots => "chariots",
            Module::Inspiration => "inspiration",
            Module::Rolls => "rolls",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modules(u8);

impl Modules {
    pub const NONE: Modules = Modules(0);

    pub fn has(self, m: Module) -> bool {
        self.0 & m.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn with(self, m: Module) -> Modules {
        Modules(self.0 | m.bit())
    }

    /// Read `none` or a comma-separated list of module names; every unknown or repeated
    /// name is reported.
    pub fn parse(text: &str) -> Result<Modules, Vec<String>> {
        let mut out = Modules::NONE;
        let mut errors = Vec::new();
        if text.trim() == "none" {
            return Ok(out);
        }
        for word in text.split(',').map(str::trim) {
            match Module::ALL.iter().find(|m| m.name() == word) {
                Some(&m) if out.has(m) => errors.push(format!("module `{word}` is listed twice")),
                Some(&m) => out = out.with(m),
                None => {
                    let known: Vec<&str> = Module::ALL.iter().map(|m| m.name()).collect();
                    errors.push(format!("unknown module `{word}` (known: none, {})", known.join(", ")))
                }
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// The modules in play, by name, in the canonical order.
    pub fn names(self) -> Vec<&'static str> {
        Module::ALL.iter().filter(|&&m| self.has(m)).map(|m| m.name()).collect()
    }
}

/// The modules' part of the table. Every field is idle (zero) when its module is not in play.
/// Slots are bits (bit i = slot i+1); module cards are catalog indices and bitsets over them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModState {
    /// Shields: the slots whose enemy carries a shield token.
    pub shields: u8,
    /// Slots whose marker moved up this round (a hit on that enemy), for the sun position.
    pub hits: u8,
    /// Sun and Moon: the slot Maia faces this round (1-6), 0 before the dial is turned.
    pub facing: u8,
    /// The enemy card faced this round and the one faced last round ("never the same enemy
    /// two rounds in a row").
    pub faced_card: Option<u8>,
    pub faced_last: Option<u8>,
    /// The colored dice on the dial.
    pub dial: ColorCounts,
    /// Dice borrowed this round: in the pool next round, back to the dial at its recovery.
    pub borrowed_new: ColorCounts,
    /// Dice borrowed last round: back to the dial at this round's recovery.
    pub borrowed: ColorCounts,
    pub borrow_done: bool,
    pub moon_done: bool,
    /// Conspirators: this round's conspirator die (0 = not rolled yet).
    pub conspire: u8,
    /// Revealed conspirators, and those active this round (bit per catalog index).
    pub revealed: u32,
    pub active: u32,
    /// Conspirators to reveal for the defeats so far (while any remain); those of the setup
    /// are counted from the setup (see `reveals_owed`).
    pub reveal_owed: u8,
    /// Dragonling: the dragonling die's face this round (0 = not rolled).
    pub dragon: u8,
    /// The previous event rolled or rerolled dice, so the dragonling die may go with it.
    pub dragon_may: bool,
    /// Chariots: the chariot in play, the chariot cards drawn so far, the dice placed on it.
    pub chariot: Option<u8>,
    pub chariots_drawn: u32,
    pub chariot_dice: Dice,
    /// The chariot in play was resolved (met or activated) this round.
    pub chariot_resolved: bool,
    /// Dice of met chariots, back to the pool at recovery.
    pub reserve: ColorCounts,
    pub chariots_met: u8,
    /// Inspiration: cards played (bit per catalog index).
    pub inspired: u32,
    /// An inspiration card allows rerolling one single this round.
    pub single_reroll: bool,
    /// Rolls tracker: rerolls left.
    pub rolls_left: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_lists_parse_in_any_order_and_report_every_bad_name() {
        let m = Modules::parse("sun-moon,shields").unwrap_or_default();
        assert!(m.has(Module::Shields) && m.has(Module::SunMoon) && !m.has(Module::Rolls));
        assert_eq!(m.names(), ["shields", "sun-moon"]);
        assert_eq!(Modules::parse("none"), Ok(Modules::NONE));
        assert_eq!(Modules::parse("shields,sheilds,shields").map_err(|e| e.len()), Err(2));
    }
}
