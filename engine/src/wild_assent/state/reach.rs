//! The searches one Creature activation's checks share (a [`Reach`]): how the Creature
//! moves, where it can get within its Speed, and the goals worked out so far. Kept with the
//! table between steps (`State::memo`); the AI that fills it in is `ai.rs`.

use super::UnitIx;
use crate::kit::grid::Pos;
use crate::kit::paths::{Cells, Distances, Mover, Place, Places};
use smallvec::SmallVec;
use std::sync::OnceLock;

/// A goal worked out with a reach: for the target (and the field it stood on), where the
/// card's movement heads.
pub(crate) type Goal = ((UnitIx, Pos), Option<Places>);

/// The searches one Creature activation's checks share.
#[derive(Clone)]
pub(crate) struct Reach {
    pub mover: Mover<'static>,
    /// Where the activation began.
    pub start: Place,
    pub speed: u8,
    /// Cheapest cost from where the activation began, up to its Speed (searched when first
    /// asked: some checks need only the mover).
    pub(crate) costs: OnceLock<(Distances, Cells)>,
    /// The last goal headed for out of reach, and where on the way the Creature may end.
    pub(crate) toward: Option<(Places, Option<Places>)>,
    /// The goals worked out with this reach, per target ([`WildAssent::reach_goal`]): the
    /// target's check and the movement's ask for the same one. Inline: most reaches work out
    /// one or two, and a `Vec` allocated and freed them for every reach.
    pub(crate) goals: SmallVec<[Goal; 2]>,
}

impl Reach {
    /// The cheapest cost of each place from where the activation began, up to its Speed.
    pub fn costs(&self) -> &Distances {
        &self.searched().0
    }
    /// Every field the Creature can reach, whatever the facing.
    pub fn fields(&self) -> Cells {
        self.searched().1
    }
    fn searched(&self) -> &(Distances, Cells) {
        self.costs.get_or_init(|| {
            let d = self.mover.from(self.start, self.speed);
            let fields = fields_of(&d);
            (d, fields)
        })
    }
}

pub(crate) fn fields_of(d: &Distances) -> Cells {
    let all = d.all();
    all[0].union(all[1]).union(all[2]).union(all[3])
}
