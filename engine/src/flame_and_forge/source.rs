//! Where a list of icons comes from: a spot of the city, a board, a special dwarf, a card,
//! a challenge's pending actions, a token or a Dragon Slayer. The table's frames hold it, and
//! so does what the rules owe (`owed.rs`) for the rule a consequence carries out.

use super::catalog::{CardId, Dwarf, SlayerId, TokenId};
use super::city::Tile;
use serde::{Deserialize, Serialize};

/// Where a list of icons comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Src {
    Spot {
        tile: Tile,
        spot: u8,
    },
    Board {
        spot: u8,
    },
    Special(Dwarf),
    Card(CardId),
    /// The pending actions of the challenge at this index of `State::challenges`.
    Pending(u8),
    Token(TokenId),
    Slayer(SlayerId),
}
