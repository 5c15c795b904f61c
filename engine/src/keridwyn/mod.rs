//! Keridwyn tourney fights (`keridwyn-fight`): characters against a monster or each other,
//! skill rolls against defenses, a Priority track, hands of action cards, ailments and
//! ongoing effects. Rulebook: keridwyn-tourney-fights.txt; notation and catalog format:
//! docs/notation/keridwyn-fight.md.
//!
//! **Invariant:** every number a log records as a consequence (the token holder, outcomes,
//! damage, Block, Injury, ailment durations, awards) is recomputed here from the catalog and
//! the recorded dice and choices, and compared.

mod board;
mod cards;
mod compute;
mod decide;
mod effect;
mod event;
mod explain;
mod flow;
mod notation;
mod resolve;
mod rules;
mod simulate;
mod state;

pub use cards::{
    ActionCard, Area, Attack, CardKind, Catalog, CharacterCard, Condition, MercCard, MonsterCard, TraitCard,
};
pub use effect::{Ailment, DamageBase, Effect, Skill};
pub use event::{Event, Place, Play};
pub use state::{Fighter, HandCard, Phase, State};

use crate::{Findings, Game, GameInfo, ParamSpec, ParseError, RuleInfo, Setup, SetupError, StepError};

/// The illustrative catalog shipped for the fixtures (invented cards; see its header).
pub const ILLUSTRATIVE: &str = include_str!("../../catalogs/keridwyn-fight/illustrative.cat");

/// The interpretations, resolved once from the setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Params {
    pub rank_to_all: bool,
    pub lure_wit_six: bool,
    pub maneuver_both: bool,
    pub balance_next_attack_only: bool,
    pub immunity_whole_attack: bool,
    pub holder_keeps: bool,
    pub focus_on_reveal: bool,
    pub reroll_cost: i32,
}

/// The game, configured: setup, catalog and interpretations.
#[derive(Debug, Clone)]
pub struct KeridwynFight {
    setup: Setup,
    pub(crate) catalog: Catalog,
    pub(crate) params: Params,
}

impl KeridwynFight {
    /// The catalog this game was built with.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
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
        rules::RULES
    }
    fn params() -> &'static [ParamSpec] {
        rules::PARAMS
    }
    fn default_catalog() -> &'static str {
        "illustrative"
    }
    fn builtin_catalog(name: &str) -> Option<&'static str> {
        (name == "illustrative").then_some(ILLUSTRATIVE)
    }

    fn new(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError> {
        let mut reasons = Vec::new();
        let values = setup.resolve(rules::PARAMS).map_err(|e| reasons.extend(e.reasons)).unwrap_or_default();
        let get = |n: &str| values.get(n).map(String::as_str).unwrap_or("");
        let reroll_cost = match get(rules::P_REROLL).parse::<i32>() {
            Ok(n) if n >= 0 => n,
            _ => {
                reasons.push(format!("`{}` must be a number of Fame, 0 or more", rules::P_REROLL));
                2
            }
        };
        let params = Params {
            rank_to_all: get(rules::P_FAME) == "rank-to-all",
            lure_wit_six: get(rules::P_LURE) == "wit-six",
            maneuver_both: get(rules::P_MANEUVER) != "gear-or-immunity",
            balance_next_attack_only: get(rules::P_BALANCE) == "next-attack",
            immunity_whole_attack: get(rules::P_IMMUNITY) == "whole-attack",
            holder_keeps: get(rules::P_RECHECK) != "roll",
            focus_on_reveal: get(rules::P_FOCUS) == "on-reveal",
            reroll_cost,
        };
        let catalog = Catalog::parse(catalog_text).map_err(|e| reasons.extend(e)).unwrap_or_default();
        if reasons.is_empty() {
            Ok(KeridwynFight { setup: setup.clone(), catalog, params })
        } else {
            Err(SetupError { reasons })
        }
    }
    fn setup(&self) -> &Setup {
        &self.setup
    }
    fn initial_state(&self) -> State {
        State {
            fighters: Vec::new(),
            pending_monster: None,
            characters: 0,
            round: 0,
            phase: Phase::Joining,
            holder: None,
            track: Vec::new(),
            done: Vec::new(),
            steps: Vec::new(),
            current: None,
            lured: false,
            monster_rolled: false,
            balance: None,
            alternate: false,
            last_hit: None,
            winner: None,
        }
    }
    fn parse_event(&self, line: &str) -> Result<Event, ParseError> {
        notation::parse_event(line)
    }
    fn step(&self, state: &mut State, event: &Event, findings: &mut Findings) -> Result<(), StepError> {
        self.step_event(state, event, findings)
    }
    fn next_consequence(&self, state: &State) -> Option<Event> {
        let mut s = state.clone();
        self.settle(&mut s);
        if matches!(s.phase, Phase::TieBreak { .. }) {
            return None;
        }
        let head = s.steps.first()?;
        self.expected(&s, head)
    }
    fn is_consequence(event: &Event) -> bool {
        event.is_consequence()
    }
    fn board(&self, state: &State) -> String {
        self.render_board(state)
    }
    fn facts(&self, state: &State) -> Vec<(String, String)> {
        self.state_facts(state)
    }
    fn simulate(&self, seed: u64, events: usize) -> Option<Vec<Event>> {
        Some(self.random_fight(seed, events))
    }
}

#[cfg(test)]
mod tests;
