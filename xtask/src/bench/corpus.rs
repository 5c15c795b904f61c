//! The corpus every measurement shares: whole games played by the game's own seeded
//! simulator, cut to an exact event count.
//!
//! A simulated game ends (won or lost) after some hundreds of events, and a session holds
//! one game, so a corpus of N events is many sessions, one per seed, the last one cut short
//! (a prefix of a legal game is a legal session). That is also what the measured use looks
//! like: a league re-verifying thousands of recorded sessions.

use crate::Fallible;
use arbiter_engine::{Game, Setup};

/// Simulated sessions of one game.
pub struct Corpus<G: Game> {
    pub game: G,
    /// One entry per session: its name and its events.
    pub sessions: Vec<(String, Vec<G::Event>)>,
    /// Total events across the sessions.
    pub events: u64,
    /// How many sessions ended before the simulator was asked to stop (whole games).
    pub whole_games: usize,
}

impl<G: Game> Corpus<G> {
    /// The first `n` events of the corpus, sessions one after another. For the append tests
    /// only: storage does not care where one game ends, and these are never replayed.
    pub fn first(&self, n: usize) -> Vec<G::Event> {
        self.sessions.iter().flat_map(|(_, events)| events.iter()).take(n).cloned().collect()
    }
}

/// The game with its default setup and default built-in catalog.
pub fn default_game<G: Game>() -> Fallible<G> {
    let catalog_name = G::default_catalog();
    let catalog = G::builtin_catalog(catalog_name).ok_or_else(|| {
        format!("game `{}` names a default catalog `{catalog_name}` it does not have", G::info().id)
    })?;
    G::new(&Setup::default(), catalog).map_err(|e| format!("{}: {e}", G::info().id).into())
}

/// The longest session asked of the simulator at once: a game that never ends would
/// otherwise become one session holding the whole corpus.
pub const MAX_SESSION: usize = 100_000;

/// Simulate seeds 1, 2, ... until `events` events are collected.
pub fn build<G: Game>(events: u64) -> Fallible<Corpus<G>> {
    let game = default_game::<G>()?;
    let mut sessions = Vec::new();
    let mut total = 0u64;
    let mut whole_games = 0;
    let mut seed = 0u64;
    while total < events {
        seed += 1;
        let want = (events - total).min(MAX_SESSION as u64) as usize;
        let played = game.simulate(seed, want).ok_or_else(|| {
            format!(
                "game `{}` has no simulator yet (`Game::simulate` returned None), so there is \
                 no corpus to measure; implement `simulate` for it or pass --game",
                G::info().id
            )
        })?;
        if played.is_empty() {
            return Err(format!("the simulator of `{}` played no event for seed {seed}", G::info().id).into());
        }
        if played.len() < want {
            whole_games += 1;
        }
        total += played.len() as u64;
        sessions.push((format!("s{seed:06}"), played));
    }
    Ok(Corpus { game, sessions, events: total, whole_games })
}
