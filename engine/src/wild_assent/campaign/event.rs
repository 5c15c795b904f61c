//! The campaign's events between encounters, and their notation: one `Event::Camp`
//! variant of the game's event holds one of these (so the encounter's vocabulary stays as
//! it is). Cards drawn are written several to an event (`worker-draw a b c`); a longer draw
//! is written as several events, so every event stays `Copy` and small.

use super::super::event::Lineup;
use super::super::names::{lineup, name};
use super::catalog::Building;
use crate::kit::name::Name;
use crate::kit::words::Words;
use crate::ParseError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most card names one draw event holds (`worker-draw a b c`; a longer draw is written
/// as several events).
pub const DRAW_MAX: usize = 3;

/// One fact of the campaign outside an encounter. The last group are consequences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CampEvent {
    /// `build BUILDING`: at setup, one of the two buildings of the players' choice.
    Build { building: Building },
    /// `worker-draw W...`: random, Workers drawn (three at setup, two at the Markets).
    WorkerDraw { cards: Lineup },
    /// `hire W [replacing V]`: a drawn Worker kept (at setup) or hired (at the Markets).
    Hire { worker: Name, replacing: Option<Name> },
    /// `scouting SEEKER SEEKER`: two Seekers go Scouting.
    Scout { a: Name, b: Name },
    /// `scout-draw C...`: random, Scout cards drawn.
    ScoutDraw { cards: Lineup },
    /// `scout-pick C`: the Scout card of the next encounter.
    ScoutPick { card: Name },
    /// `temple SEEKER`: 1 action to heal at the Temple of Vil.
    Temple { seeker: Name },
    /// `craft SEEKER EQUIPMENT`: 1 action at the Workshop.
    Craft { seeker: Name, card: Name },
    /// `upgrade BUILDING`: gold, no action.
    Upgrade { building: Building },
    /// `market SEEKER SEEKER`: two Seekers visit the Markets (3 actions each).
    Market { a: Name, b: Name },
    /// `sell CREATURE`: a housed Creature sold at the Markets.
    Sell { creature: Name },
    /// `buy BUILDING`: a new building bought at the Markets.
    Buy { building: Building },
    /// `release CREATURE`: a housed Creature let go (no gold).
    Release { creature: Name },
    // ---- consequences
    /// `season N`: a Season begins with its Encounter phase.
    Season { n: u8 },
    /// `encampment`: the Encampment phase begins.
    Encampment,
    /// `derelict`: no two Seekers can Scout; a new Encampment phase, the Encampment Derelict.
    Derelict,
    /// `campaign won`: the last Season survived.
    Won,
}

impl CampEvent {
    pub fn is_consequence(&self) -> bool {
        matches!(
            self,
            CampEvent::Season { .. } | CampEvent::Encampment | CampEvent::Derelict | CampEvent::Won
        )
    }
}

impl fmt::Display for CampEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CampEvent::Build { building } => write!(f, "build {building}"),
            CampEvent::WorkerDraw { cards } => write!(f, "worker-draw {cards}"),
            CampEvent::Hire { worker, replacing: None } => write!(f, "hire {worker}"),
            CampEvent::Hire { worker, replacing: Some(v) } => write!(f, "hire {worker} replacing {v}"),
            CampEvent::Scout { a, b } => write!(f, "scouting {a} {b}"),
            CampEvent::ScoutDraw { cards } => write!(f, "scout-draw {cards}"),
            CampEvent::ScoutPick { card } => write!(f, "scout-pick {card}"),
            CampEvent::Temple { seeker } => write!(f, "temple {seeker}"),
            CampEvent::Craft { seeker, card } => write!(f, "craft {seeker} {card}"),
            CampEvent::Upgrade { building } => write!(f, "upgrade {building}"),
            CampEvent::Market { a, b } => write!(f, "market {a} {b}"),
            CampEvent::Sell { creature } => write!(f, "sell {creature}"),
            CampEvent::Buy { building } => write!(f, "buy {building}"),
            CampEvent::Release { creature } => write!(f, "release {creature}"),
            CampEvent::Season { n } => write!(f, "season {n}"),
            CampEvent::Encampment => f.write_str("encampment"),
            CampEvent::Derelict => f.write_str("derelict"),
            CampEvent::Won => f.write_str("campaign won"),
        }
    }
}

/// One to [`DRAW_MAX`] card names to the end of the line.
fn cards(w: &mut Words<'_>, what: &str) -> Result<Lineup, ParseError> {
    lineup(w, what, DRAW_MAX, &format!("at most {DRAW_MAX} cards an event; write two"))
}

/// The campaign's verbs.
pub const VERBS: &[&str] = &[
    "build",
    "worker-draw",
    "hire",
    "scouting",
    "scout-draw",
    "scout-pick",
    "temple",
    "craft",
    "upgrade",
    "market",
    "sell",
    "buy",
    "release",
    "season",
    "encampment",
    "derelict",
    "campaign",
];

/// Read the rest of a line whose verb is one of [`VERBS`].
pub fn parse(verb: &str, w: &mut Words<'_>) -> Result<CampEvent, ParseError> {
    let ev = match verb {
        "build" => CampEvent::Build { building: w.named::<Building>()? },
        "worker-draw" => CampEvent::WorkerDraw { cards: cards(w, "a Worker card")? },
        "hire" => {
            let worker = name(w, "a Worker card")?;
            let replacing = if w.optional("replacing") { Some(name(w, "a hired Worker")?) } else { None };
            CampEvent::Hire { worker, replacing }
        }
        "scouting" => CampEvent::Scout { a: name(w, "a Seeker")?, b: name(w, "a second Seeker")? },
        "scout-draw" => CampEvent::ScoutDraw { cards: cards(w, "a Scout card")? },
        "scout-pick" => CampEvent::ScoutPick { card: name(w, "a Scout card")? },
        "temple" => CampEvent::Temple { seeker: name(w, "a Seeker")? },
        "craft" => CampEvent::Craft { seeker: name(w, "a Seeker")?, card: name(w, "an Equipment card")? },
        "upgrade" => CampEvent::Upgrade { building: w.named::<Building>()? },
        "market" => CampEvent::Market { a: name(w, "a Seeker")?, b: name(w, "a second Seeker")? },
        "sell" => CampEvent::Sell { creature: name(w, "a housed Creature")? },
        "buy" => CampEvent::Buy { building: w.named::<Building>()? },
        "release" => CampEvent::Release { creature: name(w, "a housed Creature")? },
        "season" => CampEvent::Season { n: w.number_in(1..=99u8, "a Season 1-99")? },
        "encampment" => CampEvent::Encampment,
        "derelict" => CampEvent::Derelict,
        _ => {
            w.keyword("won")?;
            CampEvent::Won
        }
    };
    w.end()?;
    Ok(ev)
}
