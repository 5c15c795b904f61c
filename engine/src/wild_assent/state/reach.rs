//! The searches one Creature activation's checks share (a [`Reach`]): how the Creature
//! moves, where it can get within its Speed, and the goals worked out so far. Kept with the
//! table between steps (`State::memo`); the AI that fills it in is `ai.rs`.

use super::UnitIx;
use crate::kit::grid::Pos;
use crate::kit::paths::{Cells, Distances, Mover, Place, Places, Search};
use smallvec::SmallVec;

/// A goal worked out with a reach: for the target (and the field it stood on), where the
/// card's movement heads, or (the flag set) where it could attack the target from; and,
/// once asked, the cost of its nearest place it may end on (`WildAssent::nearest_within`).
pub(crate) type Goal = ((UnitIx, Pos, bool), Option<Places>, Option<Option<u8>>);

/// The searches one Creature activation's checks share.
#[derive(Clone)]
pub(crate) struct Reach {
    pub mover: Mover<'static>,
    /// Where the activation began.
    pub start: Place,
    pub speed: u8,
    /// The search from where the activation began, up to its Speed: begun when first asked
    /// (some checks need only the mover), and carried only as far as the checks so far
    /// needed (the nearest goal, say), to go on when a later one needs more.
    pub(crate) search: Option<Search>,
    /// Every field it can reach, once the search is over.
    pub(crate) fields: Option<Cells>,
    /// The last goal headed for out of reach, and where on the way the Creature may end.
    /// Boxed: few activations ask (a Creature whose goal is out of its reach), and the
    /// ~260 bytes were copied with every move of the reach between the state and its checks.
    pub(crate) toward: Option<Box<(Places, Option<Places>)>>,
    /// The goals worked out with this reach, per target ([`WildAssent::reach_goal`]): the
    /// target's check and the movement's ask for the same one. Inline: most reaches work out
    /// one or two, and a `Vec` allocated and freed them for every reach.
    pub(crate) goals: SmallVec<[Goal; 2]>,
}

/// The costs of a reach not yet searched.
static NOT_SEARCHED: Distances = Distances::new();

impl Reach {
    /// The mover and its search, begun: borrowed apart, so that the ~160-byte mover is not
    /// copied out to grow the search with (every check that searches did).
    fn begun(&mut self) -> (&Mover<'static>, &mut Search) {
        let Reach { mover, start, speed, search, .. } = self;
        (mover, search.get_or_insert_with(|| mover.search(*start, *speed)))
    }
    /// Carry the search to its end: every place within Speed.
    pub fn complete(&mut self) {
        let (mover, search) = self.begun();
        mover.go_on(search, |_| false);
    }
    /// The cheapest cost of each place from where the activation began, up to its Speed.
    pub fn costs(&mut self) -> &Distances {
        self.complete();
        self.searched()
    }
    /// The layers searched so far: every one up to Speed after [`Reach::complete`] (or
    /// [`Reach::costs`], [`Reach::fields`], or a [`Reach::nearest`] that found none); after
    /// a [`Reach::nearest`] that found one at cost `d`, those up to `d`.
    pub fn searched(&self) -> &Distances {
        self.search.as_ref().map_or(&NOT_SEARCHED, Search::distances)
    }
    /// Every field the Creature can reach, whatever the facing.
    pub fn fields(&mut self) -> Cells {
        if let Some(f) = self.fields {
            return f;
        }
        let f = fields_of(self.costs());
        self.fields = Some(f);
        f
    }
    /// The cheapest cost, within Speed, of a place of `goal` (already cut down to the
    /// fields it may end on): searched only until the first layer that has one.
    pub fn nearest(&mut self, goal: &Places) -> Option<u8> {
        let (mover, search) = self.begun();
        if let Some(d) = search.distances().first_in(goal) {
            return Some(d);
        }
        // The layers made so far have none: the first new one that has one is the nearest
        // (it is the last made then: a layer with places is never dropped as trailing).
        let mut met = false;
        mover.go_on(search, |l| {
            met = (0..4).any(|f| !l[f].and(goal[f]).is_empty());
            met
        });
        met.then(|| (search.distances().len() - 1) as u8)
    }
}

pub(crate) fn fields_of(d: &Distances) -> Cells {
    let all = d.all();
    all[0].union(all[1]).union(all[2]).union(all[3])
}
