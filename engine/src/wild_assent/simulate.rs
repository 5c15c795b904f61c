//! A seeded random player (placeholder while the game is built).

use super::event::Event;
use super::WildAssent;

impl WildAssent {
    pub(crate) fn random_encounter(&self, _seed: u64, _events: usize) -> Vec<Event> {
        Vec::new()
    }
}
