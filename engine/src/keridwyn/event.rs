//! The facts a fight is recorded as, and their notation (`Display`; notation.rs reads it
//! back). Participants are named as written: a player's seat label (`A`) or a card id
//! (`steve`, `wyvern`); the step function resolves the names once, as the event enters.
//!
//! Variants are named for what happened (`Joined`, `DamageDealt`); their serialized names
//! are the ones logs were stored under (`Join`, `Damage`), so JSONL files and journals
//! written before keep reading. New variants are only ever appended (a stored event is its
//! variant's index).

use super::effect::{Ailment, Skill};
use super::name::Name;
use crate::kit::dice::Roll;
use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// Where a monster is: its number counts the seats from the first actor.
    pub enum Place ("a place") { Cage = "cage", Zone = "zone" }
}

/// One card of a reveal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Play {
    Lure,
    Balance,
    Focus,
    /// `primary:CARD` or `primary:CARD@WHO` (a non-attack spell granted to another character).
    Primary {
        card: Name,
        on: Option<Name>,
    },
    Secondary {
        card: Name,
        on: Option<Name>,
    },
    /// `maneuver` or `maneuver:GEAR`.
    Maneuver {
        card: Option<Name>,
    },
    /// `immune:AILMENT`: Maneuver's Immunity for the round.
    Immune(Ailment),
}

/// One fact at the table. The first group are decisions and random outcomes; the rest are
/// consequences the engine derives and checks (`is_consequence`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// `join A steve [worn GEAR] [merc MERC]...`
    #[serde(rename = "Join")]
    Joined { player: Name, character: Name, worn: Option<Name>, mercs: Vec<Name> },
    /// `monster wyvern cage 4`
    #[serde(rename = "Monster")]
    MonsterPlaced { monster: Name, place: Place, number: u32 },
    /// `begin`: every joiner is in; the Priority token and start-of-fight effects follow.
    #[serde(rename = "Begin")]
    Begun,
    /// `reveal A lure maneuver:heavy-shield immune:burn`
    #[serde(rename = "Reveal")]
    Revealed { who: Name, plays: Vec<Play> },
    /// `action wyvern 6`: the monster's d6.
    #[serde(rename = "MonsterAction")]
    MonsterActionRolled { monster: Name, face: u8 },
    /// `target B`: the random pick when neither targeting condition chooses.
    #[serde(rename = "Target")]
    TargetPicked { who: Name },
    /// `roll wyvern might 9 8 4 1` (the dice are kept highest first: their order is not a fact)
    #[serde(rename = "Roll")]
    Rolled { who: Name, skill: Skill, dice: Roll },
    /// `reroll A 9 -> 6 fame 2`: A pays the Fame, any die of the current roll.
    #[serde(rename = "Reroll")]
    Rerolled { payer: Name, from: u8, to: u8, fame: i32 },
    /// `recall B chargo +1`
    #[serde(rename = "Recall")]
    Recalled { who: Name, merc: Name, bonus: i32 },
    // ---- consequences ----
    /// `priority wyvern`
    #[serde(rename = "Priority")]
    TokenGained { who: Name },
    /// `afflict B burn +4 -> 6`
    #[serde(rename = "Afflict")]
    Afflicted { who: Name, ailment: Ailment, add: u32, total: u32 },
    /// `cure A burn 2 -> 0`: Immunity removes the ailment.
    #[serde(rename = "Cure")]
    Cured { who: Name, ailment: Ailment, from: u32 },
    /// `act A heavy-shield`: the next action on the Priority track.
    #[serde(rename = "Act")]
    Acted { who: Name, card: Name },
    /// `hit B` / `miss A`
    Outcome { target: Name, hit: bool },
    /// `damage B 6 block 2 injury 4`
    #[serde(rename = "Damage")]
    DamageDealt { who: Name, damage: i32, block: i32, injury: i32 },
    /// `tick B burn 6 -> 5 injury 1` (injury only for Burn)
    #[serde(rename = "Tick")]
    Ticked { who: Name, ailment: Ailment, from: u32, to: u32, injury: Option<i32> },
    /// `end round 1`
    #[serde(rename = "EndRound")]
    RoundEnded { round: u32 },
    /// `defeated B`
    Defeated { who: Name },
    /// `fame B +6 -> 8`
    #[serde(rename = "Fame")]
    FameGained { who: Name, delta: i32, total: i32 },
    /// `trophy B wyvern`
    #[serde(rename = "Trophy")]
    TrophyTaken { who: Name, monster: Name },
}

impl Event {
    pub fn is_consequence(&self) -> bool {
        matches!(
            self,
            Event::TokenGained { .. }
                | Event::Afflicted { .. }
                | Event::Cured { .. }
                | Event::Acted { .. }
                | Event::Outcome { .. }
                | Event::DamageDealt { .. }
                | Event::Ticked { .. }
                | Event::RoundEnded { .. }
                | Event::Defeated { .. }
                | Event::FameGained { .. }
                | Event::TrophyTaken { .. }
        )
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |f: &mut fmt::Formatter<'_>, o: &Option<Name>| match o {
            Some(w) => write!(f, "@{w}"),
            None => Ok(()),
        };
        match self {
            Play::Lure => f.write_str("lure"),
            Play::Balance => f.write_str("balance"),
            Play::Focus => f.write_str("focus"),
            Play::Primary { card, on: o } => {
                write!(f, "primary:{card}")?;
                on(f, o)
            }
            Play::Secondary { card, on: o } => {
                write!(f, "secondary:{card}")?;
                on(f, o)
            }
            Play::Maneuver { card: None } => f.write_str("maneuver"),
            Play::Maneuver { card: Some(c) } => write!(f, "maneuver:{c}"),
            Play::Immune(a) => write!(f, "immune:{a}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Joined { player, character, worn, mercs } => {
                write!(f, "join {player} {character}")?;
                if let Some(w) = worn {
                    write!(f, " worn {w}")?;
                }
                for m in mercs {
                    write!(f, " merc {m}")?;
                }
                Ok(())
            }
            Event::MonsterPlaced { monster, place, number } => {
                write!(f, "monster {monster} {place} {number}")
            }
            Event::Begun => f.write_str("begin"),
            Event::Revealed { who, plays } => {
                write!(f, "reveal {who}")?;
                for p in plays {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Event::MonsterActionRolled { monster, face } => write!(f, "action {monster} {face}"),
            Event::TargetPicked { who } => write!(f, "target {who}"),
            Event::Rolled { who, skill, dice } => write!(f, "roll {who} {skill} {dice}"),
            Event::Rerolled { payer, from, to, fame } => {
                write!(f, "reroll {payer} {from} -> {to} fame {fame}")
            }
            Event::Recalled { who, merc, bonus } => write!(f, "recall {who} {merc} {bonus:+}"),
            Event::TokenGained { who } => write!(f, "priority {who}"),
            Event::Afflicted { who, ailment, add, total } => {
                write!(f, "afflict {who} {ailment} +{add} -> {total}")
            }
            Event::Cured { who, ailment, from } => write!(f, "cure {who} {ailment} {from} -> 0"),
            Event::Acted { who, card } => write!(f, "act {who} {card}"),
            Event::Outcome { target, hit } => write!(f, "{} {target}", if *hit { "hit" } else { "miss" }),
            Event::DamageDealt { who, damage, block, injury } => {
                write!(f, "damage {who} {damage} block {block} injury {injury}")
            }
            Event::Ticked { who, ailment, from, to, injury } => {
                write!(f, "tick {who} {ailment} {from} -> {to}")?;
                if let Some(i) = injury {
                    write!(f, " injury {i}")?;
                }
                Ok(())
            }
            Event::RoundEnded { round } => write!(f, "end round {round}"),
            Event::Defeated { who } => write!(f, "defeated {who}"),
            Event::FameGained { who, delta, total } => write!(f, "fame {who} {delta:+} -> {total}"),
            Event::TrophyTaken { who, monster } => write!(f, "trophy {who} {monster}"),
        }
    }
}
