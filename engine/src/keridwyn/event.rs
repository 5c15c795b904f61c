//! The facts a fight is recorded as, and their notation (`Display`; notation.rs reads it
//! back). Participants are named as written: a player's seat label (`A`) or a card id
//! (`steve`, `wyvern`); the step function resolves the name.

use super::effect::{Ailment, Skill};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a monster is: its number counts the seats from the first actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    Cage,
    Zone,
}

/// One card of a reveal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Play {
    Lure,
    Balance,
    Focus,
    /// `primary:CARD` or `primary:CARD@WHO` (a non-attack spell granted to another character).
    Primary {
        card: String,
        on: Option<String>,
    },
    Secondary {
        card: String,
        on: Option<String>,
    },
    /// `maneuver` or `maneuver:GEAR`.
    Maneuver {
        card: Option<String>,
    },
    /// `immune:AILMENT`: Maneuver's Immunity for the round.
    Immune(Ailment),
}

/// One fact at the table. The first group are decisions and random outcomes; the rest are
/// consequences the engine derives and checks (`is_consequence`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// `join A steve [worn GEAR] [merc MERC]...`
    Join { player: String, character: String, worn: Option<String>, mercs: Vec<String> },
    /// `monster wyvern cage 4`
    Monster { monster: String, place: Place, number: u32 },
    /// `begin`: every joiner is in; the Priority token and start-of-fight effects follow.
    Begin,
    /// `reveal A lure maneuver:heavy-shield immune:burn`
    Reveal { who: String, plays: Vec<Play> },
    /// `action wyvern 6`: the monster's d6.
    MonsterAction { monster: String, face: u8 },
    /// `target B`: the random pick when neither targeting condition chooses.
    Target { who: String },
    /// `roll wyvern might 9 8 4 1`
    Roll { who: String, skill: Skill, dice: Vec<u8> },
    /// `reroll A 9 -> 6 fame 2`: A pays the Fame, any die of the current roll.
    Reroll { payer: String, from: u8, to: u8, fame: i32 },
    /// `recall B chargo +1`
    Recall { who: String, merc: String, bonus: i32 },
    // ---- consequences ----
    /// `priority wyvern`
    Priority { who: String },
    /// `afflict B burn +4 -> 6`
    Afflict { who: String, ailment: Ailment, add: u32, total: u32 },
    /// `cure A burn 2 -> 0`: Immunity removes the ailment.
    Cure { who: String, ailment: Ailment, from: u32 },
    /// `act A heavy-shield`: the next action on the Priority track.
    Act { who: String, card: String },
    /// `hit B` / `miss A`
    Outcome { target: String, hit: bool },
    /// `damage B 6 block 2 injury 4`
    Damage { who: String, damage: i32, block: i32, injury: i32 },
    /// `tick B burn 6 -> 5 injury 1` (injury only for Burn)
    Tick { who: String, ailment: Ailment, from: u32, to: u32, injury: Option<i32> },
    /// `end round 1`
    EndRound { round: u32 },
    /// `defeated B`
    Defeated { who: String },
    /// `fame B +6 -> 8`
    Fame { who: String, delta: i32, total: i32 },
    /// `trophy B wyvern`
    Trophy { who: String, monster: String },
}

impl Event {
    pub fn is_consequence(&self) -> bool {
        matches!(
            self,
            Event::Priority { .. }
                | Event::Afflict { .. }
                | Event::Cure { .. }
                | Event::Act { .. }
                | Event::Outcome { .. }
                | Event::Damage { .. }
                | Event::Tick { .. }
                | Event::EndRound { .. }
                | Event::Defeated { .. }
                | Event::Fame { .. }
                | Event::Trophy { .. }
        )
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |o: &Option<String>| o.as_ref().map(|w| format!("@{w}")).unwrap_or_default();
        match self {
            Play::Lure => f.write_str("lure"),
            Play::Balance => f.write_str("balance"),
            Play::Focus => f.write_str("focus"),
            Play::Primary { card, on: o } => write!(f, "primary:{card}{}", on(o)),
            Play::Secondary { card, on: o } => write!(f, "secondary:{card}{}", on(o)),
            Play::Maneuver { card: None } => f.write_str("maneuver"),
            Play::Maneuver { card: Some(c) } => write!(f, "maneuver:{c}"),
            Play::Immune(a) => write!(f, "immune:{a}"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Join { player, character, worn, mercs } => {
                write!(f, "join {player} {character}")?;
                if let Some(w) = worn {
                    write!(f, " worn {w}")?;
                }
                for m in mercs {
                    write!(f, " merc {m}")?;
                }
                Ok(())
            }
            Event::Monster { monster, place, number } => {
                let p = match place {
                    Place::Cage => "cage",
                    Place::Zone => "zone",
                };
                write!(f, "monster {monster} {p} {number}")
            }
            Event::Begin => f.write_str("begin"),
            Event::Reveal { who, plays } => {
                write!(f, "reveal {who}")?;
                for p in plays {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Event::MonsterAction { monster, face } => write!(f, "action {monster} {face}"),
            Event::Target { who } => write!(f, "target {who}"),
            Event::Roll { who, skill, dice } => {
                write!(f, "roll {who} {skill}")?;
                for d in dice {
                    write!(f, " {d}")?;
                }
                Ok(())
            }
            Event::Reroll { payer, from, to, fame } => write!(f, "reroll {payer} {from} -> {to} fame {fame}"),
            Event::Recall { who, merc, bonus } => write!(f, "recall {who} {merc} {bonus:+}"),
            Event::Priority { who } => write!(f, "priority {who}"),
            Event::Afflict { who, ailment, add, total } => {
                write!(f, "afflict {who} {ailment} +{add} -> {total}")
            }
            Event::Cure { who, ailment, from } => write!(f, "cure {who} {ailment} {from} -> 0"),
            Event::Act { who, card } => write!(f, "act {who} {card}"),
            Event::Outcome { target, hit } => write!(f, "{} {target}", if *hit { "hit" } else { "miss" }),
            Event::Damage { who, damage, block, injury } => {
                write!(f, "damage {who} {damage} block {block} injury {injury}")
            }
            Event::Tick { who, ailment, from, to, injury } => {
                write!(f, "tick {who} {ailment} {from} -> {to}")?;
                if let Some(i) = injury {
                    write!(f, " injury {i}")?;
                }
                Ok(())
            }
            Event::EndRound { round } => write!(f, "end round {round}"),
            Event::Defeated { who } => write!(f, "defeated {who}"),
            Event::Fame { who, delta, total } => write!(f, "fame {who} {delta:+} -> {total}"),
            Event::Trophy { who, monster } => write!(f, "trophy {who} {monster}"),
        }
    }
}
