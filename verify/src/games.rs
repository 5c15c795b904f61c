//! Which games verify can reach: the engine's registry, or a test's own list.
//!
//! Every operation dispatches on the game id a log names. Going through this trait instead of
//! calling `arbiter_engine::dispatch` directly lets this crate's tests run on a toy game that
//! the engine does not ship, so they stay independent of any real game.

use arbiter_engine::GameVisitor;

/// A set of games reachable by id.
pub trait Games {
    /// Run `visitor` on the game with this id; `None` when there is none.
    fn dispatch<V: GameVisitor>(&self, id: &str, visitor: V) -> Option<V::Output>;
    /// Every id, for "unknown game" messages and per-game coverage.
    fn ids(&self) -> Vec<&'static str>;
}

/// The games built into the engine: what the command line uses.
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineGames;

impl Games for EngineGames {
    fn dispatch<V: GameVisitor>(&self, id: &str, visitor: V) -> Option<V::Output> {
        arbiter_engine::dispatch(id, visitor)
    }
    fn ids(&self) -> Vec<&'static str> {
        arbiter_engine::game_ids()
    }
}
