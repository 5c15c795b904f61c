//! Rule coverage: which rule ids of a game at least one fixture breaks (and expects to).

use crate::Games;
use arbiter_engine::{Game, GameVisitor};
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt;

/// Coverage of one game's catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameCoverage {
    pub game: String,
    /// Rule ids broken by at least one fixture whose `@expect violation` matched.
    pub covered: Vec<String>,
    /// Rule ids no fixture breaks.
    pub missing: Vec<String>,
}

impl GameCoverage {
    pub fn is_full(&self) -> bool {
        self.missing.is_empty()
    }
}

impl fmt::Display for GameCoverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.covered.len() + self.missing.len();
        writeln!(f, "coverage {}: {}/{total} rules broken by a fixture", self.game, self.covered.len())?;
        for id in &self.covered {
            writeln!(f, "  covered {id}")?;
        }
        for id in &self.missing {
            writeln!(f, "  MISSING {id}")?;
        }
        Ok(())
    }
}

struct RuleIds;

impl GameVisitor for RuleIds {
    type Output = Vec<&'static str>;
    fn visit<G: Game>(self) -> Vec<&'static str> {
        G::rules().iter().map(|r| r.id).collect()
    }
}

/// The rule ids of a game's catalog (empty for an unknown id).
pub fn rule_ids<R: Games>(games: &R, game: &str) -> Vec<&'static str> {
    games.dispatch(game, RuleIds).unwrap_or_default()
}

/// Coverage of `game` given the rule ids matched by its fixtures.
pub(crate) fn coverage<R: Games>(games: &R, game: &str, matched: &BTreeSet<String>) -> GameCoverage {
    let mut out = GameCoverage { game: game.to_string(), covered: Vec::new(), missing: Vec::new() };
    for id in rule_ids(games, game) {
        if matched.contains(id) {
            out.covered.push(id.to_string());
        } else {
            out.missing.push(id.to_string());
        }
    }
    out
}
