//! What an Arena match adds to the table: the draft so far, the troupes laid out, the
//! Silvestrem cards out of their deck, and the round's counters. The rules that move them
//! on are `draft.rs`'s, `troupe.rs`'s, `silvestrem.rs`'s and `round.rs`'s.

use super::super::cards::{Silvestrem, Skill};
use super::taint::TextScope;
use super::Side;
use crate::kit::catalog::Id;
use crate::kit::name::Name;
use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};

named_enum! {
    /// What a pick of the draft takes.
    pub enum Pick ("a pick") { Large = "large", Medium = "medium", Assent = "assent", Equipment = "equipment" }
}

/// The draft so far.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Draft {
    /// Each side's symbols in the current drafting roll (red, blue).
    pub rolls: [Option<u8>; 2],
    /// Player 1, once the roll decides.
    pub first: Option<Side>,
    /// Picks made, in order.
    pub picks: Vec<Name>,
    /// The side that made each pick, as recorded (the side owns the card whatever the turn).
    pub sides: Vec<Side>,
    /// Where in the book's order the picks so far may have brought the draft, each as (the
    /// index of the next pick, whether the current phase's turns run with the sides swapped):
    /// after a pick out of turn or one left out, every reading of the picks as played that
    /// the next pick could follow (draft.rs). Empty: the one reading, in the book's order.
    pub aligns: Vec<(u16, bool)>,
}

/// The deck's cards out of it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Deck {
    /// Every card drawn, in order.
    pub drawn: Vec<Id<Silvestrem>>,
    /// Edicts in force.
    pub edicts: Vec<Id<Silvestrem>>,
    /// This round's Demand.
    pub demand: Option<Id<Silvestrem>>,
    /// The Whim just drawn, until the next activation begins (it is resolved at once).
    pub whim: Option<Id<Silvestrem>>,
    /// Each drawn card's unverified texts: the card, the text's scope, its ordinal. A text
    /// marks findings only while its card is in force (taint.rs).
    pub texts: Vec<(Id<Silvestrem>, TextScope, u32)>,
}

/// One player's troupe: its side and its cards in activation order (the Assent first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Troupe {
    pub side: Side,
    pub cards: Vec<Name>,
}

/// The troupes laid out, and the Skill cards each Assent took.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Troupes {
    pub troupes: Vec<Troupe>,
    pub skills: Vec<(Name, Vec<Id<Skill>>)>,
}

impl Troupes {
    /// The troupe (player) a card belongs to.
    pub fn of(&self, card: &Name) -> Option<usize> {
        self.troupes.iter().position(|t| t.cards.contains(card))
    }
}

/// Where the Arena round stands.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Match {
    /// The side whose Assent goes first this round (round 1: Player 1; without a recorded
    /// draft or obstacles, the side of the first Assent to activate).
    pub first: Option<Side>,
    /// Assent activations this round.
    pub assents: u8,
    /// The side of this round's last Creature activation: the next is the other side's
    /// (alternating as played, so one out of turn is reported once).
    pub last_creature: Option<Side>,
    /// Creature activations this round, per troupe.
    pub per_troupe: Vec<u8>,
    /// This round's Silvestrem card is drawn; each side's Momentum dice are rolled.
    pub drawn: bool,
    pub rolled: [bool; 2],
    /// An activation of this round has begun.
    pub started: bool,
    /// The Momentum dice each miniature held last round (`momentum-duration=next-round`:
    /// their bonuses count in this round).
    pub carried: Vec<u8>,
    /// Each side's slain Creatures as the round began (red, blue), for a Demand's Condition.
    pub slain_at_start: [u8; 2],
    /// The round's Demand has been judged for the side (red, blue).
    pub judged: [bool; 2],
    /// This round's Silvestrem card, and each side's Momentum roll, has been reported missing
    /// where it was due: one omission is one finding, not one per record that follows.
    pub missed: [bool; 3],
    /// The side whose Assent activated first this round (interpretation `lone-assent-order`).
    pub lead: Option<Side>,
}
