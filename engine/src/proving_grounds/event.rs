//! The events of the training game: random outcomes, decisions and consequences, named for
//! the fact they record. `Display` prints the notation line `notation::parse_event` reads.

use super::dice::{Color, Dice};
use super::params::Module;
use super::state::SLOTS;
use crate::StepError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One fact at the table, with the optional time it happened (whole seconds since the
/// round's roll started the timer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub action: Action,
    /// Seconds since the start of the round's one-minute timer, when recorded (`t=42`).
    pub time: Option<u16>,
}

impl Event {
    pub fn new(action: Action) -> Event {
        Event { action, time: None }
    }
    pub fn at(action: Action, seconds: u16) -> Event {
        Event { action, time: Some(seconds) }
    }
}

impl Event {
    /// Events read from JSONL skip the notation parser, so the ranges it guarantees (slots 1-6,
    /// faces 1-6, at least one die) are checked again before anything indexes with them.
    // Inlined into `apply`: every event passes here, and the call cost about as much as the checks.
    #[inline]
    pub fn check_shape(&self) -> Result<(), StepError> {
        let e = self;
        // One match, since every event passes here: each kind has at most one range to check
        // (a reroll two, dice first, as the messages were always ordered).
        let bad_dice = |dice: &Dice| dice.is_empty() || dice.iter().any(|d| !(1..=6).contains(&d.value));
        match &e.action {
            Action::EnemyDrawn { slot, .. }
            | Action::MarkerMovedUp { slot, .. }
            | Action::MarkerMovedDown { slot }
            | Action::MarkerHeld { slot }
            | Action::EnemyDefeated { slot }
            | Action::WoundSuffered { slot, .. }
            | Action::ShieldGained { slot }
            | Action::ShieldRemoved { slot }
            | Action::DialTurned { slot }
            | Action::MoonStruck { slot }
            | Action::InspirationPlayedOn { slot, .. }
                if !(1..=SLOTS as u8).contains(slot) =>
            {
                return Err(StepError::new(format!("`{e}` names a slot outside 1-{SLOTS}")));
            }
            Action::ConspiratorRolled { value } | Action::DragonlingRolled { value }
                if !(1..=6).contains(value) =>
            {
                return Err(StepError::new(format!("`{e}` needs a die value 1-6")));
            }
            Action::DiceRolled { dice } | Action::ChariotLoaded { dice } if bad_dice(dice) => {
                return Err(StepError::new(format!("`{e}` needs one or more die values 1-6")));
            }
            Action::SetRerolled { faces, dice } => {
                if bad_dice(dice) {
                    return Err(StepError::new(format!("`{e}` needs one or more die values 1-6")));
                }
                if *faces == 0 || faces & !0b0111_1110 != 0 {
                    return Err(StepError::new(format!("`{e}` must name sets by faces 1-6")));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

impl From<Action> for Event {
    fn from(action: Action) -> Event {
        Event::new(action)
    }
}

/// What happened. Slots are numbered 1-6 as on the encounter board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Random: the top card of the enemy deck was placed in a slot (`draw 1 pit-brawler`).
    EnemyDrawn { slot: u8, card: String },
    /// Random: the whole pool was rolled (`roll 1 1 3 3 4 5g 6b 6y`).
    DiceRolled { dice: Dice },
    /// Decision and outcome: the set(s) showing `faces` (a bitmask, bit n = face n) were
    /// rerolled and came up `dice` (`reroll 1 -> 4 6`).
    SetRerolled { faces: u8, dice: Dice },
    /// Decision: rolling is over ("Battle End" or the timer went off) (`stop`).
    RollingStopped,
    /// Consequence: a battle marker moved up (`up 6`, `up 6 2`).
    MarkerMovedUp { slot: u8, spaces: u8 },
    /// Consequence: a battle marker moved down one space (`down 2`).
    MarkerMovedDown { slot: u8 },
    /// Consequence: a battle marker stayed where it was (`hold 3`); optional in a log, useful
    /// to say so explicitly.
    MarkerHeld { slot: u8 },
    /// Consequence: the enemy was defeated and discarded (`defeat 1`).
    EnemyDefeated { slot: u8 },
    /// Consequence carrying a choice: a wound from this enemy; a die of this color went to
    /// the exhaustion track, health went down one, the marker went back to start
    /// (`wound 2 exhaust w`).
    WoundSuffered { slot: u8, exhausted: Color },
    /// Decision: on entering the ring space, `discarded` left the pool (none under
    /// `replace-without-white=add`) and `taken` came from the stack (`replace w -> y`).
    DieReplaced { discarded: Option<Color>, taken: Color },
    /// Consequence: step 3, dice back to the pool, exhaustion track down one (`recover`).
    Recovered,
    // The modules' events follow. New variants are only ever appended, so that stored
    // sessions keep their encoding (tests/encoding_vectors.rs).
    /// Shields, consequence: an incorrect set gave this unshielded enemy a shield (`shield 3`).
    ShieldGained { slot: u8 },
    /// Shields, consequence: a single removed this enemy's shield (`unshield 3`).
    ShieldRemoved { slot: u8 },
    /// Sun and Moon, decision: at the start of a round, Maia faces this slot (`face 2`).
    DialTurned { slot: u8 },
    /// Sun and Moon, decision: a hit on the sun enemy borrowed this colored die (`borrow g`).
    DieBorrowed { color: Color },
    /// Sun and Moon, consequence: no hit on the moon enemy moved its marker down (`moon 5`).
    MoonStruck { slot: u8 },
    /// Conspirators, random: the conspirator die showed this (`conspire 4`).
    ConspiratorRolled { value: u8 },
    /// Conspirators, random: this conspirator card was revealed (`reveal spymaster`).
    ConspiratorRevealed { card: String },
    /// Dragonling, random: the dragonling die, rolled with the pool or a set, showed this
    /// (`dragon 3`, right after the `roll` or `reroll` it went with).
    DragonlingRolled { value: u8 },
    /// Chariots, random: this chariot card came into play (`chariot bronze-chariot`).
    ChariotDrawn { card: String },
    /// Chariots, decision: these dice (face and color, from the pool) went on the chariot
    /// (`load 5 5b`).
    ChariotLoaded { dice: Dice },
    /// Chariots, consequence: the chariot's condition was met and it was discarded
    /// (`chariot-met`), or not and its effect activated (`chariot-unmet`).
    ChariotResolved { met: bool },
    /// Inspiration, decision: this inspiration card was played (`inspire second-wind`).
    InspirationPlayed { card: String },
    /// Inspiration, decision: this inspiration card was played on the enemy in this slot
    /// (`inspire true-aim 3`), for a card whose effect acts on one enemy.
    InspirationPlayedOn { card: String, slot: u8 },
    /// Decision: a card's text (unverified, in effect this round) sent a die of this color from
    /// the pool to the top space of the exhaustion track, beyond a wound's one (`exhaust w`:
    /// the Poisoner's "exhaust one extra die"), so that it comes back as the track moves down.
    DieExhausted { color: Color },
}

impl Action {
    /// The module an event belongs to, `None` for the training game's events.
    pub fn module(&self) -> Option<Module> {
        Some(match self {
            Action::ShieldGained { .. } | Action::ShieldRemoved { .. } => Module::Shields,
            Action::DialTurned { .. } | Action::DieBorrowed { .. } | Action::MoonStruck { .. } => {
                Module::SunMoon
            }
            Action::ConspiratorRolled { .. } | Action::ConspiratorRevealed { .. } => Module::Conspirators,
            Action::DragonlingRolled { .. } => Module::Dragonling,
            Action::ChariotDrawn { .. } | Action::ChariotLoaded { .. } | Action::ChariotResolved { .. } => {
                Module::Chariots
            }
            Action::InspirationPlayed { .. } | Action::InspirationPlayedOn { .. } => Module::Inspiration,
            _ => return None,
        })
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.action)?;
        if let Some(t) = self.time {
            write!(f, " t={t}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::EnemyDrawn { slot, card } => write!(f, "draw {slot} {card}"),
            Action::DiceRolled { dice } => write!(f, "roll {dice}"),
            Action::SetRerolled { faces, dice } => {
                f.write_str("reroll")?;
                for face in 1..=6u8 {
                    if faces & (1 << face) != 0 {
                        write!(f, " {face}")?;
                    }
                }
                write!(f, " -> {dice}")
            }
            Action::RollingStopped => f.write_str("stop"),
            Action::MarkerMovedUp { slot, spaces: 1 } => write!(f, "up {slot}"),
            Action::MarkerMovedUp { slot, spaces } => write!(f, "up {slot} {spaces}"),
            Action::MarkerMovedDown { slot } => write!(f, "down {slot}"),
            Action::MarkerHeld { slot } => write!(f, "hold {slot}"),
            Action::EnemyDefeated { slot } => write!(f, "defeat {slot}"),
            Action::WoundSuffered { slot, exhausted } => {
                write!(f, "wound {slot} exhaust {}", exhausted)
            }
            Action::DieReplaced { discarded, taken } => match discarded {
                Some(c) => write!(f, "replace {} -> {}", c, taken),
                None => write!(f, "replace - -> {}", taken),
            },
            Action::Recovered => f.write_str("recover"),
            Action::ShieldGained { slot } => write!(f, "shield {slot}"),
            Action::ShieldRemoved { slot } => write!(f, "unshield {slot}"),
            Action::DialTurned { slot } => write!(f, "face {slot}"),
            Action::DieBorrowed { color } => write!(f, "borrow {}", color),
            Action::MoonStruck { slot } => write!(f, "moon {slot}"),
            Action::ConspiratorRolled { value } => write!(f, "conspire {value}"),
            Action::ConspiratorRevealed { card } => write!(f, "reveal {card}"),
            Action::DragonlingRolled { value } => write!(f, "dragon {value}"),
            Action::ChariotDrawn { card } => write!(f, "chariot {card}"),
            Action::ChariotLoaded { dice } => write!(f, "load {dice}"),
            Action::ChariotResolved { met: true } => f.write_str("chariot-met"),
            Action::ChariotResolved { met: false } => f.write_str("chariot-unmet"),
            Action::InspirationPlayed { card } => write!(f, "inspire {card}"),
            Action::InspirationPlayedOn { card, slot } => write!(f, "inspire {card} {slot}"),
            Action::DieExhausted { color } => write!(f, "exhaust {color}"),
        }
    }
}
