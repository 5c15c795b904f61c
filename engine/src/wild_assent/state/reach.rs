//! The searches one Creature activation's checks share (a [`Reach`]): how the Creature
//! moves, where it can get within its Speed, and the goals worked out so far. Kept with the
//! table between steps (`State::memo`, a [`Kept`]: the reach and its room, used again for
//! the next activation's); the AI that fills it in is `ai.rs`.

use super::UnitIx;
use crate::kit::grid::Pos;
use crate::kit::paths::{meet, Cells, Distances, Mover, Place, Places, Search};
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
    /// (`begun`; some checks need only the mover), and carried only as far as the checks so
    /// far needed (the nearest goal, say), to go on when a later one needs more. Not begun,
    /// it holds the room of an earlier reach's search ([`Reach::renew`]).
    search: Search,
    begun: bool,
    /// Every field it can reach, once the search is over.
    pub(crate) fields: Option<Cells>,
    /// Every place it can reach, per facing, once the search is over ([`Reach::all`]): the
    /// union of all its layers, which a Careful Advance's target check asked for once per
    /// target (beside [`Reach::fields`], the same union over the facings), and the stop's
    /// check again.
    all: Option<Places>,
    /// The last goal headed for out of reach, and where on the way the Creature may end.
    /// Inline: the reach is no longer moved between the state and its checks ([`Kept`]), and
    /// a box was allocated and freed for every search toward a goal.
    pub(crate) toward: Option<(Places, Option<Places>)>,
    /// The layers of the last search back from a goal out of reach (`WildAssent::toward_set`):
    /// room kept for the next, which is made in it.
    pub(crate) back: Distances,
    /// The goals worked out with this reach, per target ([`WildAssent::reach_goal`]): the
    /// target's check and the movement's ask for the same one. Inline: most reaches work out
    /// one or two, and a `Vec` allocated and freed them for every reach.
    pub(crate) goals: SmallVec<[Goal; 2]>,
}

/// The costs of a reach not yet searched.
static NOT_SEARCHED: Distances = Distances::new();

impl Reach {
    /// The reach of a Creature moving with `mover` from `start` with `speed`, nothing
    /// searched yet.
    pub fn new(mover: Mover<'static>, start: Place, speed: u8) -> Reach {
        Reach {
            mover,
            start,
            speed,
            search: Search::default(),
            begun: false,
            fields: None,
            all: None,
            toward: None,
            back: Distances::new(),
            goals: SmallVec::new(),
        }
    }
    /// Make this the reach [`Reach::new`] makes, in place: its search's layers keep their
    /// memory for the new search.
    pub fn renew(&mut self, mover: Mover<'static>, start: Place, speed: u8) {
        (self.mover, self.start, self.speed) = (mover, start, speed);
        self.begun = false;
        self.fields = None;
        self.all = None;
        self.toward = None;
        self.goals.clear();
    }
    /// The mover and its search, begun: borrowed apart, so that the ~160-byte mover is not
    /// copied out to grow the search with (every check that searches did).
    fn begun(&mut self) -> (&Mover<'static>, &mut Search) {
        let Reach { mover, start, speed, search, begun, .. } = self;
        if !*begun {
            mover.restart(search, *start, *speed);
            *begun = true;
        }
        (mover, search)
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
        if self.begun {
            self.search.distances()
        } else {
            &NOT_SEARCHED
        }
    }
    /// Every field the Creature can reach, whatever the facing.
    pub fn fields(&mut self) -> Cells {
        if let Some(f) = self.fields {
            return f;
        }
        let all = self.all();
        let f = all[0].union(all[1]).union(all[2]).union(all[3]);
        self.fields = Some(f);
        f
    }
    /// Every place the Creature can reach, per facing (`Distances::all` of [`Reach::costs`]):
    /// worked out once per reach.
    pub fn all(&mut self) -> Places {
        if let Some(a) = self.all {
            return a;
        }
        let a = self.costs().all();
        self.all = Some(a);
        a
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
            met = meet(l, goal);
            met
        });
        met.then(|| (search.distances().len() - 1) as u8)
    }
}

/// A Creature activation's reach as the checks of its records share it (`State::memo`): the
/// one made for this activation, once one is (`ready`), else the room of the last one. A new
/// reach is made in that room ([`Reach::renew`]), and the checks work on it where it lies:
/// the ~900-byte reach was moved between the state and its checks two or three times a
/// record, and its box and its search's layers were freed and allocated for every reach.
#[derive(Default)]
pub(crate) struct Kept {
    room: Option<Box<Reach>>,
    ready: bool,
}

impl Kept {
    /// The reach made for this activation, if any.
    pub fn get(&self) -> Option<&Reach> {
        self.room.as_deref().filter(|_| self.ready)
    }
    /// No reach is kept any more (a new activation, a moved Creature): its room stays.
    pub fn forget(&mut self) {
        self.ready = false;
    }
    /// The reach made for this activation, else a new one (`new`: its mover, start and
    /// Speed), made in the room of the last.
    pub fn get_or_make(&mut self, new: impl FnOnce() -> (Mover<'static>, Place, u8)) -> &mut Reach {
        let ready = std::mem::replace(&mut self.ready, true);
        let room = match (self.room.take(), ready) {
            (Some(r), true) => r,
            (room, _) => {
                let (mover, start, speed) = new();
                match room {
                    Some(mut r) => {
                        r.renew(mover, start, speed);
                        r
                    }
                    None => Box::new(Reach::new(mover, start, speed)),
                }
            }
        };
        self.room.insert(room)
    }
}

/// A copy of the state keeps the reach, when there is one, and not the room.
impl Clone for Kept {
    fn clone(&self) -> Self {
        match self.get() {
            Some(r) => Kept { room: Some(Box::new(r.clone())), ready: true },
            None => Kept::default(),
        }
    }
}
