//! A log that ends while the rules still owe consequences: `wound 2 exhaust w` never
//! recorded after the marker reached the bottom space.
//!
//! Nothing in such a log breaks a rule, so it is not a violation; but it is not a finished
//! account of the table either, and calling it "clean" would mislead a referee. Every report
//! that reaches the end of a log asks the game (`Game::next_consequence`, the same code that
//! checks a recorded consequence) what is still owed and names it. Where nothing can be
//! derived because the next event is a decision the rules require and only the player can
//! make (Proving Grounds' replacement under `replacement=mandatory`), the game names that
//! decision (`Game::owed_decision`) without choosing for the player, and the log is
//! incomplete all the same.

use arbiter_engine::{Findings, Game};
use serde::Serialize;
use std::fmt;

/// Consequences listed at most: a game whose `next_consequence` never settles cannot make
/// a report endless.
const MAX_OWED: usize = 32;

/// What the rules still owe when a log ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IncompleteView {
    /// The number of records read: the owed consequences would come after them.
    pub after: u64,
    /// The consequences owed, in order, in notation (the first is what `next_consequence`
    /// derives at the end; each later one what it derives once the earlier ones are applied).
    pub owed: Vec<String>,
    /// The decision the rules require after them, which only the player can make: one
    /// phrase from the game with its notation form, the choice a placeholder
    /// (`Game::owed_decision`); `None` when none is owed.
    pub decision: Option<String>,
}

impl IncompleteView {
    /// What a log ending in `state` still owes, or `None` when nothing is.
    pub(crate) fn of<G: Game>(game: &G, state: &G::State, after: u64) -> Option<Self> {
        let Owed { consequences, decision } = owed(game, state);
        (!consequences.is_empty() || decision.is_some()).then_some(IncompleteView {
            after,
            owed: consequences,
            decision,
        })
    }
}

impl fmt::Display for IncompleteView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut owed: Vec<String> = self.owed.iter().map(|c| format!("`{c}`")).collect();
        if let Some(d) = &self.decision {
            let then = if owed.is_empty() { "" } else { "then " };
            owed.push(format!("{then}{d} (the player's choice, not derived)"));
        }
        writeln!(
            f,
            "incomplete: the log ends after {} records and the rules still owe {}",
            self.after,
            owed.join(", ")
        )
    }
}

/// What the rules still owe in a state: consequences in notation, then possibly a decision.
#[derive(Debug, Default)]
pub(crate) struct Owed {
    /// The consequences owed, in order, in notation (empty when none is due).
    pub consequences: Vec<String>,
    /// The decision owed once they are applied (`Game::owed_decision`).
    pub decision: Option<String>,
}

impl Owed {
    /// The first thing owed, as a report names it: a consequence, else the decision.
    pub(crate) fn first(&self) -> Option<&str> {
        self.consequences.first().or(self.decision.as_ref()).map(String::as_str)
    }
}

/// What the rules still owe in `state`: the consequences in notation, and the decision the
/// game names once they are applied (when the list stops early, at its bound or at a
/// consequence that cannot be applied, no decision is asked for).
pub(crate) fn owed<G: Game>(game: &G, state: &G::State) -> Owed {
    let mut owed = Owed::default();
    let Some(first) = game.next_consequence(state) else {
        owed.decision = game.owed_decision(state);
        return owed;
    };
    let mut state = state.clone();
    let mut next = Some(first);
    let mut findings = Findings::default();
    // `next_consequence` answers consequences only; a game that slips a decision in would
    // make the list claim the players owe a choice, so the list stops there.
    while let Some(c) = next.take().filter(G::is_consequence) {
        owed.consequences.push(c.to_string());
        if owed.consequences.len() >= MAX_OWED || game.step(&mut state, &c, &mut findings).is_err() {
            return owed;
        }
        findings.clear();
        next = game.next_consequence(&state);
    }
    if next.is_none() {
        owed.decision = game.owed_decision(&state);
    }
    owed
}
