//! Shared by the engine's benches: simulated sessions of every game that has a simulator.
//!
//! The benches are generic over the kernel: each runs once per game the registry knows,
//! and a game whose `simulate` returns `None` is skipped with a note, not an error.

use arbiter_engine::{dispatch, game_ids, Game, GameVisitor, Setup};

/// Whole simulated games of one game, seeds 1.., about `events` events in all.
pub struct Sessions<G: Game> {
    pub game: G,
    pub sessions: Vec<Vec<G::Event>>,
    pub events: u64,
}

/// The game with its default setup and built-in catalog, and its simulated sessions;
/// `None` when it has no simulator (or no usable default catalog).
pub fn sessions<G: Game>(events: u64) -> Option<Sessions<G>> {
    let catalog = G::builtin_catalog(G::default_catalog())?;
    let game = G::new(&Setup::default(), catalog).ok()?;
    let mut sessions = Vec::new();
    let mut total = 0u64;
    let mut seed = 0;
    while total < events {
        seed += 1;
        let played = game.simulate(seed, (events - total) as usize)?;
        if played.is_empty() {
            return None;
        }
        total += played.len() as u64;
        sessions.push(played);
    }
    Some(Sessions { game, sessions, events: total })
}

/// Run a generic bench body once per game of the registry.
pub fn for_each_game<V: GameVisitor<Output = ()> + Clone>(visitor: V) {
    for id in game_ids() {
        dispatch(id, visitor.clone());
    }
}

/// Said when a game cannot be benched, so an empty bench run is explained.
pub fn skipped<G: Game>() {
    eprintln!("{}: no simulator, skipped", G::info().id);
}
