//! What a log holds: decisions, random outcomes (reveals) and consequences, each printed as
//! one notation line (`Display`; `notation.rs` reads it back).
//!
//! Catalog ids (cards, events, Retaliation cards, tokens, boards) are kept as [`Label`]s
//! (`label.rs`), a short inline string: an event is plain `Copy` data that prints itself and
//! survives any catalog, and the step function resolves a label to the catalog's id once.

use super::catalog::{Dwarf, Subject};
use super::city::{Territory, Tile};
use super::icon::Gem;
use super::label::Label;
use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// A player, by the colour of their dwarfs.
    pub enum Colour ("a colour") { Blue = "blue", Red = "red", Yellow = "yellow", Green = "green" }
}
named_enum! {
    /// The team's rank (l.380-385); `none` for a negative score.
    pub enum Rank ("a rank") { Rookie = "rookie", Guardian = "guardian", Warrior = "warrior", King = "king", Hero = "hero", Unranked = "-" }
}

/// What a challenge is against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Foe {
    Monster(Label),
    Dragon,
}

impl fmt::Display for Foe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Foe::Monster(m) => write!(f, "{m}"),
            Foe::Dragon => f.write_str("dragon"),
        }
    }
}

/// One record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    // Setup.
    /// A player joins, in turn order, with a board side (and, under `book-tokens=single`,
    /// the subject of their first book token).
    Seat {
        who: Colour,
        side: Label,
        books: Option<Subject>,
    },
    Bonus {
        who: Colour,
        n: u8,
    },
    /// Items revealed into the Forge's empty spots, left to right.
    Market {
        items: [Option<Label>; 3],
    },
    Retaliation {
        card: Label,
        territory: Territory,
    },
    /// The monster drawn for a Retaliation, and the tile its card marks.
    Monster {
        card: Label,
        tile: Tile,
    },
    Deal {
        who: Colour,
        cards: [Label; 2],
    },
    Slayer {
        who: Colour,
        card: Label,
    },
    // The turn.
    Turn {
        who: Colour,
    },
    Fire {
        tile: Tile,
    },
    PlaceGem {
        gem: Gem,
        tile: Tile,
    },
    Scorch {
        tile: Tile,
    },
    Horde {
        monster: Label,
    },
    Draw {
        card: Label,
    },
    Raid {
        who: Colour,
        dwarf: Dwarf,
        tile: Tile,
        spot: Option<u8>,
    },
    Regroup {
        who: Colour,
        dwarf: Dwarf,
        spot: Option<u8>,
    },
    Retreat {
        who: Colour,
    },
    Drop {
        who: Colour,
        gem: Gem,
    },
    Health {
        who: Colour,
        delta: i8,
        to: u8,
    },
    Burn {
        who: Colour,
        n: u8,
        to: u8,
    },
    Gain {
        who: Colour,
        gem: Gem,
    },
    Pick {
        who: Colour,
        tile: Tile,
    },
    Haste {
        who: Colour,
    },
    Footprint {
        who: Colour,
    },
    Extinguish {
        who: Colour,
        tile: Tile,
    },
    Success {
        who: Colour,
        add: u8,
        to: u8,
    },
    Frenzy {
        who: Colour,
        add: u8,
        to: u8,
    },
    /// A gem-exchange icon: the gem paid, or (`missing`: the health reached) 1 damage instead.
    Pay {
        who: Colour,
        gem: Gem,
        missing: Option<u8>,
    },
    // Challenges.
    Challenge {
        who: Colour,
        foe: Foe,
    },
    Reveal {
        who: Colour,
        card: Label,
    },
    Shuffle {
        who: Colour,
    },
    Flee {
        who: Colour,
    },
    Won {
        who: Colour,
    },
    PassedOut {
        who: Colour,
    },
    DiscardEvent {
        who: Colour,
        card: Label,
    },
    // Forge, retire, research.
    Forge {
        who: Colour,
        item: Label,
    },
    Refresh {
        who: Colour,
    },
    Retire {
        who: Colour,
        card: Label,
    },
    /// A research action: an exchange, and/or a subject with the level its book token reaches.
    Research {
        who: Colour,
        subject: Option<(Subject, u8)>,
        exchange: Option<(Gem, Gem, Gem)>,
    },
    Upgrade {
        who: Colour,
        dwarf: Dwarf,
    },
    Advanced {
        who: Colour,
        tokens: [Option<Label>; 3],
    },
    Keep {
        who: Colour,
        token: Label,
    },
    Use {
        who: Colour,
        token: Label,
    },
    Activate {
        who: Colour,
        token: Label,
    },
    Hero {
        who: Colour,
    },
    Pass {
        who: Colour,
    },
    // The end.
    GameOver {
        won: bool,
    },
    ScoreDragon {
        n: u16,
    },
    ScorePlayer {
        who: Colour,
        n: i16,
    },
    ScoreTeam {
        n: i16,
        rank: Rank,
    },
}

impl Event {
    /// Whether the event is a consequence: derived by the rules from the state (some with a
    /// choice a player makes, derived with the first option, such as the tile of a fire when
    /// several qualify).
    pub fn is_consequence(&self) -> bool {
        matches!(
            self,
            Event::Bonus { .. }
                | Event::Turn { .. }
                | Event::Fire { .. }
                | Event::PlaceGem { .. }
                | Event::Scorch { .. }
                | Event::Horde { .. }
                | Event::Retreat { .. }
                | Event::Drop { .. }
                | Event::Health { .. }
                | Event::Burn { .. }
                | Event::Gain { .. }
                | Event::Pick { .. }
                | Event::Haste { .. }
                | Event::Footprint { .. }
                | Event::Extinguish { .. }
                | Event::Success { .. }
                | Event::Frenzy { .. }
                | Event::Pay { .. }
                | Event::Shuffle { .. }
                | Event::Won { .. }
                | Event::PassedOut { .. }
                | Event::DiscardEvent { .. }
                | Event::GameOver { .. }
                | Event::ScoreDragon { .. }
                | Event::ScorePlayer { .. }
                | Event::ScoreTeam { .. }
        )
    }

    /// The player an event is about, if one.
    pub fn who(&self) -> Option<Colour> {
        use Event::*;
        match *self {
            Seat { who, .. } | Bonus { who, .. } | Deal { who, .. } | Slayer { who, .. } | Turn { who } => {
                Some(who)
            }
            Raid { who, .. }
            | Regroup { who, .. }
            | Retreat { who }
            | Drop { who, .. }
            | Health { who, .. } => Some(who),
            Burn { who, .. } | Gain { who, .. } | Pick { who, .. } | Haste { who } | Footprint { who } => {
                Some(who)
            }
            Extinguish { who, .. } | Success { who, .. } | Frenzy { who, .. } | Pay { who, .. } => Some(who),
            Challenge { who, .. } | Reveal { who, .. } | Shuffle { who } | Flee { who } | Won { who } => {
                Some(who)
            }
            PassedOut { who } | DiscardEvent { who, .. } | Forge { who, .. } | Refresh { who } => Some(who),
            Retire { who, .. } | Research { who, .. } | Upgrade { who, .. } => Some(who),
            Advanced { who, .. }
            | Keep { who, .. }
            | Use { who, .. }
            | Activate { who, .. }
            | Hero { who } => Some(who),
            Pass { who } | ScorePlayer { who, .. } => Some(who),
            Market { .. }
            | Retaliation { .. }
            | Monster { .. }
            | Fire { .. }
            | PlaceGem { .. }
            | Scorch { .. } => None,
            Horde { .. } | Draw { .. } | GameOver { .. } | ScoreDragon { .. } | ScoreTeam { .. } => None,
        }
    }
}

fn list(f: &mut fmt::Formatter<'_>, items: &[Option<Label>]) -> fmt::Result {
    for l in items.iter().flatten() {
        write!(f, " {l}")?;
    }
    Ok(())
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Event::*;
        match self {
            Seat { who, side, books } => {
                write!(f, "seat {who} {side}")?;
                if let Some(s) = books {
                    write!(f, " books {s}")?;
                }
                Ok(())
            }
            Bonus { who, n } => write!(f, "bonus {who} {n}"),
            Market { items } => {
                f.write_str("market")?;
                list(f, items)
            }
            Retaliation { card, territory } => write!(f, "retaliation {card} {territory}"),
            Monster { card, tile } => write!(f, "monster {card} {tile}"),
            Deal { who, cards } => write!(f, "deal {who} {} {}", cards[0], cards[1]),
            Slayer { who, card } => write!(f, "slayer {who} {card}"),
            Turn { who } => write!(f, "turn {who}"),
            Fire { tile } => write!(f, "fire {tile}"),
            PlaceGem { gem, tile } => write!(f, "gem {gem} {tile}"),
            Scorch { tile } => write!(f, "scorch {tile}"),
            Horde { monster } => write!(f, "horde {monster}"),
            Draw { card } => write!(f, "event {card}"),
            Raid { who, dwarf, tile, spot } => {
                write!(f, "raid {who} {dwarf} {tile}")?;
                if let Some(s) = spot {
                    write!(f, " spot {}", u16::from(*s) + 1)?;
                }
                Ok(())
            }
            Regroup { who, dwarf, spot } => {
                write!(f, "regroup {who} {dwarf}")?;
                if let Some(s) = spot {
                    write!(f, " spot {}", u16::from(*s) + 1)?;
                }
                Ok(())
            }
            Retreat { who } => write!(f, "retreat {who}"),
            Drop { who, gem } => write!(f, "drop {who} {gem}"),
            Health { who, delta, to } => write!(f, "health {who} {delta:+} -> {to}"),
            Burn { who, n, to } => write!(f, "burn {who} {n} -> {to}"),
            Gain { who, gem } => write!(f, "gain {who} {gem}"),
            Pick { who, tile } => write!(f, "pick {who} {tile}"),
            Haste { who } => write!(f, "haste {who}"),
            Footprint { who } => write!(f, "footprint {who}"),
            Extinguish { who, tile } => write!(f, "extinguish {who} {tile}"),
            Success { who, add, to } => write!(f, "success {who} +{add} -> {to}"),
            Frenzy { who, add, to } => write!(f, "frenzy {who} +{add} -> {to}"),
            Pay { who, gem, missing: None } => write!(f, "pay {who} {gem}"),
            Pay { who, gem, missing: Some(to) } => write!(f, "pay {who} {gem} missing -> {to}"),
            Challenge { who, foe } => write!(f, "challenge {who} {foe}"),
            Reveal { who, card } => write!(f, "reveal {who} {card}"),
            Shuffle { who } => write!(f, "shuffle {who}"),
            Flee { who } => write!(f, "flee {who}"),
            Won { who } => write!(f, "won {who}"),
            PassedOut { who } => write!(f, "passed-out {who}"),
            DiscardEvent { who, card } => write!(f, "discard-event {who} {card}"),
            Forge { who, item } => write!(f, "forge {who} {item}"),
            Refresh { who } => write!(f, "refresh {who}"),
            Retire { who, card } => write!(f, "retire {who} {card}"),
            Research { who, subject, exchange } => {
                write!(f, "research {who}")?;
                if let Some((s, level)) = subject {
                    write!(f, " {s} -> {level}")?;
                }
                if let Some((a, b, c)) = exchange {
                    write!(f, " exchange {a}+{b}->{c}")?;
                }
                Ok(())
            }
            Upgrade { who, dwarf } => write!(f, "upgrade {who} {dwarf}"),
            Advanced { who, tokens } => {
                write!(f, "advanced {who}")?;
                list(f, tokens)
            }
            Keep { who, token } => write!(f, "keep {who} {token}"),
            Use { who, token } => write!(f, "use {who} {token}"),
            Activate { who, token } => write!(f, "activate {who} {token}"),
            Hero { who } => write!(f, "hero {who}"),
            Pass { who } => write!(f, "pass {who}"),
            GameOver { won: true } => f.write_str("game won"),
            GameOver { won: false } => f.write_str("game lost"),
            ScoreDragon { n } => write!(f, "score dragon {n}"),
            ScorePlayer { who, n } => write!(f, "score {who} {n}"),
            ScoreTeam { n, rank } => write!(f, "score team {n} {rank}"),
        }
    }
}
