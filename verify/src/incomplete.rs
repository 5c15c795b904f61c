//! A log that ends while the rules still owe consequences: `wound 2 exhaust w` never
//! recorded after the marker reached the bottom space.
//!
//! Nothing in such a log breaks a rule, so it is not a violation; but it is not a finished
//! account of the table either, and calling it "clean" would mislead a referee. Every report
//! that reaches the end of a log asks the game (`Game::next_consequence`, the same code that
//! checks a recorded consequence) what is still owed and names it.

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
}

impl fmt::Display for IncompleteView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let owed: Vec<String> = self.owed.iter().map(|c| format!("`{c}`")).collect();
        writeln!(
            f,
            "incomplete: the log ends after {} records and the rules still owe {}",
            self.after,
            owed.join(", ")
        )
    }
}

/// The consequences the rules still owe in `state`, in notation (empty when none is due).
pub(crate) fn owed<G: Game>(game: &G, state: &G::State) -> Vec<String> {
    let mut owed = Vec::new();
    let Some(first) = game.next_consequence(state) else { return owed };
    let mut state = state.clone();
    let mut next = Some(first);
    let mut findings = Findings::default();
    // `next_consequence` answers consequences only; a game that slips a decision in would
    // make the list claim the players owe a choice, so the list stops there.
    while let Some(c) = next.take().filter(G::is_consequence) {
        owed.push(c.to_string());
        if owed.len() >= MAX_OWED || game.step(&mut state, &c, &mut findings).is_err() {
            break;
        }
        findings.clear();
        next = game.next_consequence(&state);
    }
    owed
}
