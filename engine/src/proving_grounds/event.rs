//! The events of the training game: random outcomes, decisions and consequences, named for
//! the fact they record. `Display` prints the notation line `notation::parse_event` reads.

use super::dice::{Color, Dice};
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
                write!(f, "wound {slot} exhaust {}", exhausted.letter())
            }
            Action::DieReplaced { discarded, taken } => match discarded {
                Some(c) => write!(f, "replace {} -> {}", c.letter(), taken.letter()),
                None => write!(f, "replace - -> {}", taken.letter()),
            },
            Action::Recovered => f.write_str("recover"),
        }
    }
}
