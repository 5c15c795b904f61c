//! Keridwyn tourney fights (placeholder until the game lands: it accepts no events).

use crate::{Findings, Game, GameInfo, ParamSpec, ParseError, RuleInfo, Setup, SetupError, StepError};
use serde::{Deserialize, Serialize};

/// The game, configured.
#[derive(Debug, Clone)]
pub struct KeridwynFight {
    setup: Setup,
}

/// Placeholder state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State;

/// Placeholder event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event;

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("?")
    }
}

impl Game for KeridwynFight {
    type State = State;
    type Event = Event;
    fn info() -> GameInfo {
        GameInfo {
            id: "keridwyn-fight",
            name: "Keridwyn tourney fights",
            rulebook: "keridwyn-tourney-fights.txt",
            rules_version: 1,
        }
    }
    fn rules() -> &'static [RuleInfo] {
        &[]
    }
    fn params() -> &'static [ParamSpec] {
        &[]
    }
    fn default_catalog() -> &'static str {
        "illustrative"
    }
    fn builtin_catalog(_name: &str) -> Option<&'static str> {
        None
    }
    fn new(setup: &Setup, _catalog_text: &str) -> Result<Self, SetupError> {
        Ok(KeridwynFight { setup: setup.clone() })
    }
    fn setup(&self) -> &Setup {
        &self.setup
    }
    fn initial_state(&self) -> State {
        State
    }
    fn parse_event(&self, line: &str) -> Result<Event, ParseError> {
        Err(ParseError::new(1, "an event of a game that is not implemented yet", line))
    }
    fn step(&self, _s: &mut State, _e: &Event, _f: &mut Findings) -> Result<(), StepError> {
        Err(StepError::new("not implemented yet"))
    }
    fn next_consequence(&self, _s: &State) -> Option<Event> {
        None
    }
    fn is_consequence(_e: &Event) -> bool {
        false
    }
    fn board(&self, _s: &State) -> String {
        String::new()
    }
    fn facts(&self, _s: &State) -> Vec<(String, String)> {
        Vec::new()
    }
}
