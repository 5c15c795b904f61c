//! The list of games, and the one place that turns a game id into a concrete type.
//!
//! Code that works on any game (verify, the command line) implements `GameVisitor` once and
//! calls `dispatch`; adding a game means adding one line here and nothing anywhere else.

use crate::catalog::GameInfo;
use crate::flame_and_forge::FlameAndForge;
use crate::game::Game;
use crate::keridwyn::KeridwynFight;
use crate::proving_grounds::ProvingGrounds;
use crate::wild_assent::WildAssent;

/// Generic code run on whichever game an id names.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// Run `visitor` on the game with this id; `None` when no game has it.
pub fn dispatch<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
    if id == ProvingGrounds::info().id {
        Some(visitor.visit::<ProvingGrounds>())
    } else if id == KeridwynFight::info().id {
        Some(visitor.visit::<KeridwynFight>())
    } else if id == FlameAndForge::info().id {
        Some(visitor.visit::<FlameAndForge>())
    } else if id == WildAssent::info().id {
        Some(visitor.visit::<WildAssent>())
    } else {
        None
    }
}

/// Every game this build supports.
pub fn games() -> Vec<GameInfo> {
    vec![ProvingGrounds::info(), KeridwynFight::info(), WildAssent::info(), FlameAndForge::info()]
}

/// The ids of every game, for "unknown game" messages.
pub fn game_ids() -> Vec<&'static str> {
    games().into_iter().map(|g| g.id).collect()
}
