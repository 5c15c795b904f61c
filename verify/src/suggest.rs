//! What could be recorded next: the events the rules accept at the end of a log, for a
//! recorder that offers them as buttons or completions (the web app's record view).
//!
//! No game lists its legal moves, so the candidates come from what the game already says:
//! the consequence the rules require next, the events recorded earlier in the log (`stop`,
//! `up 4` recur every round) and the events of the game's seeded random player. Each one is
//! stepped on a copy of the table and kept only when the step function applies it without a
//! violation: the offer is judged by the same code as a recorded event, never guessed.

use crate::error::VerifyError;
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::{Findings, Game};
use serde::Serialize;
use std::collections::BTreeSet;

/// Seeds of the random player whose events are candidates.
const SIMULATED_SEEDS: [u64; 4] = [1, 2, 3, 4];
/// Events each simulated game plays.
const SIMULATED_EVENTS: usize = 400;
/// Earlier events of the log considered (the latest ones).
const RECENT_EVENTS: usize = 2_000;

/// The offer at the end of a log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestions {
    pub source: String,
    pub game: String,
    /// The log's length: the sequence the next record gets.
    pub next: u64,
    /// The consequence the rules require next, in notation, when the state determines one.
    pub next_consequence: Option<String>,
    /// Candidates the rules accept now (applied with no violation), the required
    /// consequence first, then the latest earlier events, then the random player's; at most
    /// `limit`.
    pub legal: Vec<String>,
    /// Every candidate's notation, legal or not, sorted: completions for typing an event.
    pub completions: Vec<String>,
    /// Set when the log holds a record that cannot be applied: nothing can follow it.
    pub stopped: Option<String>,
    /// The names a line may use now (cards of the catalog, names at the table), sorted.
    pub names: Vec<String>,
    /// The event words of the game's notation, and the notation at a glance
    /// (`Game::notation_summary`; empty when the game gives none): what `arbiter record`
    /// completes and prints for `help`.
    pub event_words: Vec<String>,
    pub notation_summary: String,
}

/// The events the rules accept after the whole of `source`, at most `limit` of them.
pub fn suggest<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    limit: usize,
) -> Result<Suggestions, VerifyError> {
    with_game(ctx, source, Work { source, limit })
}

struct Work<'c> {
    source: &'c Source,
    limit: usize,
}

impl<'a> WithGame<'a> for Work<'_> {
    type Output = Suggestions;
    fn run<G: Game>(self, peeked: Peeked) -> Result<Suggestions, VerifyError> {
        let mut replay = Replayer::new(open::<G>(self.source, peeked, &[])?);
        let mut recent: Vec<G::Event> = Vec::new();
        let mut next = 0;
        let mut stopped = None;
        while let Some(step) = replay.step() {
            let step = step?;
            next = step.index + 1;
            if let Outcome::Failed(e) = &step.outcome {
                stopped =
                    Some(format!("record {} `{}` cannot be applied ({e})", step.index, step.notation()));
            }
            if let (Outcome::Applied(_), Some(event)) = (&step.outcome, step.event) {
                recent.push(event);
            }
        }
        let game = replay.game();
        let required = game.next_consequence(&replay.state);
        let mut candidates: Vec<G::Event> = required.iter().cloned().collect();
        candidates.extend(recent.iter().rev().take(RECENT_EVENTS).cloned());
        for seed in SIMULATED_SEEDS {
            candidates.extend(game.simulate(seed, SIMULATED_EVENTS).unwrap_or_default());
        }
        let mut seen = BTreeSet::new();
        let mut legal = Vec::new();
        let mut completions = BTreeSet::new();
        for event in candidates {
            let notation = event.to_string();
            if !seen.insert(notation.clone()) {
                continue;
            }
            completions.insert(notation.clone());
            if stopped.is_some() || legal.len() >= self.limit {
                continue;
            }
            let mut state = replay.state.clone();
            let mut findings = Findings::default();
            if game.step(&mut state, &event, &mut findings).is_ok() && findings.violations.is_empty() {
                legal.push(notation);
            }
        }
        let mut names = game.names(&replay.state);
        names.sort();
        names.dedup();
        Ok(Suggestions {
            names,
            event_words: crate::recorder::event_words(G::notation_summary()),
            notation_summary: G::notation_summary().to_string(),
            source: self.source.to_string(),
            game: G::info().id.to_string(),
            next,
            next_consequence: required.map(|e| e.to_string()),
            legal,
            completions: completions.into_iter().collect(),
            stopped,
        })
    }
}
