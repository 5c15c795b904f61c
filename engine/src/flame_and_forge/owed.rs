//! What the rules owe: a consequence ([`Due`]), the player it concerns ([`Owed`]) and the
//! rule it carries out ([`Why`]). Plain data, below the table's state (which keeps the last
//! one found) and the two halves of the step that produce it: the settle (`flow.rs`) and the
//! consequence chain (`consequence.rs`).

use super::catalog::{CardId, EventId};
use super::city::{Tile, Tiles};
use super::event::{Colour, Rank};
use super::icon::Gem;
use super::source::Src;

/// Where a health change or a success comes from (the rule it carries out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    Icons(Src),
    Beast,
    Campfire,
    ForgeEvent,
    WinEvent,
}

/// A consequence owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    Bonus {
        seat: u8,
        n: u8,
    },
    Turn {
        seat: u8,
    },
    /// An event action's icon: a fire (or a gem) on one of `tiles`.
    EventIcon {
        fire: bool,
        gem: Gem,
        tiles: Tiles,
    },
    RetIcon {
        fire: bool,
        gem: Gem,
        tile: Tile,
    },
    Scorch {
        tile: Tile,
    },
    Horde {
        tile: Tile,
        monster: CardId,
    },
    Retreat {
        seat: u8,
    },
    Health {
        seat: u8,
        delta: i8,
        to: u8,
        why: Why,
    },
    Burn {
        seat: u8,
        n: u8,
        to: u8,
    },
    Gain {
        seat: u8,
        gem: Gem,
        src: Src,
    },
    Pick {
        seat: u8,
        tile: Tile,
    },
    Haste {
        seat: u8,
        src: Src,
    },
    Footprint {
        seat: u8,
        src: Src,
    },
    Extinguish {
        seat: u8,
        tiles: Tiles,
        src: Src,
        warrior: bool,
    },
    Success {
        seat: u8,
        add: u8,
        to: u8,
        why: Why,
    },
    Frenzy {
        seat: u8,
        to: u8,
        src: Src,
    },
    Pay {
        seat: u8,
        gem: Gem,
        missing: Option<u8>,
        src: Src,
    },
    Won {
        seat: u8,
    },
    PassedOut {
        seat: u8,
    },
    Shuffle {
        seat: u8,
    },
    DiscardEvent {
        seat: u8,
        forge: bool,
        first: EventId,
        left: [u8; 3],
    },
    Drop {
        seat: u8,
        gem: Gem,
    },
    GameOver {
        won: bool,
    },
    ScoreDragon {
        n: u16,
    },
    ScorePlayer {
        seat: u8,
        n: i16,
    },
    ScoreTeam {
        n: i16,
        rank: Rank,
    },
}

/// A due with the colour of the player it concerns (for its notation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owed {
    pub due: Due,
    pub who: Colour,
}

impl Due {
    /// The seat a due concerns, if one.
    pub fn seat(&self) -> Option<u8> {
        match *self {
            Due::Bonus { seat, .. }
            | Due::Turn { seat }
            | Due::Retreat { seat }
            | Due::Health { seat, .. }
            | Due::Burn { seat, .. }
            | Due::Gain { seat, .. }
            | Due::Pick { seat, .. }
            | Due::Haste { seat, .. }
            | Due::Footprint { seat, .. }
            | Due::Extinguish { seat, .. }
            | Due::Success { seat, .. }
            | Due::Frenzy { seat, .. }
            | Due::Pay { seat, .. }
            | Due::Won { seat }
            | Due::PassedOut { seat }
            | Due::Shuffle { seat }
            | Due::DiscardEvent { seat, .. }
            | Due::Drop { seat, .. }
            | Due::ScorePlayer { seat, .. } => Some(seat),
            _ => None,
        }
    }
}
