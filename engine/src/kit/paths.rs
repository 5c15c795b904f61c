//! Shortest movement of a figure that has a facing, on a square grid: steps relative to the
//! facing (which keep it), turns on the spot, and hops over a field to the one beyond, each
//! with its cost. What may be passed, ended on, hopped over, and what ends a move when
//! entered, are sets of fields the game fills in ([`Mover`]): the game's rules as data, so
//! that checking one recorded move ([`Mover::apply`]) and searching every path
//! ([`Mover::from`], [`Mover::to`]) cannot disagree.
//!
//! Boards are at most [`Cells::SIDE`] fields a side. A search is Dial's algorithm (a
//! bucket queue: costs are small integers) over the board's places, at most 1024.

use super::grid::{Board, Facing, Pos, Rel, Turn};
use std::fmt;

/// A set of fields of a board of at most [`Cells::SIDE`] x [`Cells::SIDE`].
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Cells([u64; 4]);

impl Cells {
    /// The longest side of a board a set (and a search) covers.
    pub const SIDE: i16 = 16;

    fn index(p: Pos) -> Option<usize> {
        ((0..Cells::SIDE).contains(&p.x) && (0..Cells::SIDE).contains(&p.y))
            .then(|| p.y as usize * Cells::SIDE as usize + p.x as usize)
    }
    pub const fn new() -> Cells {
        Cells([0; 4])
    }
    /// Every field of `board`.
    pub fn all(board: Board) -> Cells {
        let mut c = Cells::new();
        for p in board.fields() {
            c.insert(p);
        }
        c
    }
    pub fn insert(&mut self, p: Pos) {
        if let Some(i) = Cells::index(p) {
            self.0[i / 64] |= 1 << (i % 64);
        }
    }
    pub fn remove(&mut self, p: Pos) {
        if let Some(i) = Cells::index(p) {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }
    pub fn contains(&self, p: Pos) -> bool {
        Cells::index(p).is_some_and(|i| self.0[i / 64] & (1 << (i % 64)) != 0)
    }
    /// The fields in `self` and not in `other`.
    pub fn minus(self, other: Cells) -> Cells {
        Cells([0, 1, 2, 3].map(|i| self.0[i] & !other.0[i]))
    }
    /// The fields in either.
    pub fn union(self, other: Cells) -> Cells {
        Cells([0, 1, 2, 3].map(|i| self.0[i] | other.0[i]))
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = Board { width: Cells::SIDE, height: Cells::SIDE };
        f.debug_set().entries(board.fields().filter(|p| self.contains(*p))).finish()
    }
}

/// Where a figure stands and where it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Place {
    pub at: Pos,
    pub facing: Facing,
}

impl Place {
    pub const fn new(at: Pos, facing: Facing) -> Place {
        Place { at, facing }
    }
    /// An index below [`PLACES`] (fields of a [`Cells::SIDE`]-wide board, four facings each).
    fn index(self) -> Option<usize> {
        Cells::index(self.at).map(|i| i * 4 + self.facing.index())
    }
}

/// How many places a search covers.
pub const PLACES: usize = (Cells::SIDE as usize) * (Cells::SIDE as usize) * 4;

/// One move of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// One field in a direction relative to the facing; the facing is kept.
    Step(Rel),
    /// A turn on the spot.
    Turn(Turn),
    /// Over the next field in that direction (one that may be hopped over) to the field
    /// beyond it.
    Hop(Rel),
}

/// Why a move cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not a step this figure may take (a direction its rules do not allow).
    NotAStep(Rel),
    /// It cannot hop at all, or not over that field.
    NoHop(Pos),
    /// Off the board.
    OffBoard(Pos),
    /// A field it may not enter or pass.
    Blocked(Pos),
    /// It stands on a field that ended its move.
    Stopped(Pos),
}

/// How a figure moves: the game's movement rules as data.
#[derive(Debug, Clone, Copy)]
pub struct Mover<'a> {
    pub board: Board,
    /// The directions of a step (cost 1, facing kept).
    pub steps: &'a [Rel],
    /// The cost of a turn, whatever its angle.
    pub turn_cost: u8,
    /// The cost of a hop over a `hop_over` field, in a step direction; `None`: no hops.
    pub hop_cost: Option<u8>,
    /// Fields it may be on during the move (its own field included).
    pub pass: Cells,
    /// Fields it may end its move on.
    pub end: Cells,
    /// Fields a hop may cross.
    pub hop_over: Cells,
    /// Fields that end the move when entered (nothing follows from them).
    pub stop: Cells,
}

/// The cost of every place reached by a search, up to its bound.
#[derive(Clone)]
pub struct Distances {
    cost: Box<[u8; PLACES]>,
}

impl Distances {
    const UNREACHED: u8 = u8::MAX;
    fn new() -> Distances {
        Distances { cost: Box::new([Distances::UNREACHED; PLACES]) }
    }
    /// The cost at `place`, when the search reached it.
    pub fn get(&self, place: Place) -> Option<u8> {
        let c = self.cost[place.index()?];
        (c != Distances::UNREACHED).then_some(c)
    }
    /// Every place reached, with its cost (in index order).
    pub fn reached(&self) -> impl Iterator<Item = (Place, u8)> + '_ {
        self.cost.iter().enumerate().filter(|(_, &c)| c != Distances::UNREACHED).map(|(i, &c)| {
            let field = i / 4;
            let at = Pos::new((field % Cells::SIDE as usize) as i16, (field / Cells::SIDE as usize) as i16);
            (Place::new(at, Facing::ALL[i % 4]), c)
        })
    }
}

impl fmt::Debug for Distances {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.reached()).finish()
    }
}

fn shifted(p: Pos, (dx, dy): (i16, i16), times: i16) -> Pos {
    p.offset(dx * times, dy * times)
}

impl Mover<'_> {
    fn free(&self, p: Pos) -> bool {
        self.board.contains(p) && self.pass.contains(p)
    }

    /// Check one move from `from`: where it leads and what it costs.
    pub fn apply(&self, from: Place, m: Move) -> Result<(Place, u8), Refusal> {
        if self.stop.contains(from.at) {
            return Err(Refusal::Stopped(from.at));
        }
        match m {
            Move::Turn(t) => Ok((Place::new(from.at, from.facing.turned(t)), self.turn_cost)),
            Move::Step(r) => {
                if !self.steps.contains(&r) {
                    return Err(Refusal::NotAStep(r));
                }
                let to = shifted(from.at, from.facing.toward(r), 1);
                if !self.board.contains(to) {
                    Err(Refusal::OffBoard(to))
                } else if !self.pass.contains(to) {
                    Err(Refusal::Blocked(to))
                } else {
                    Ok((Place::new(to, from.facing), 1))
                }
            }
            Move::Hop(r) => {
                if !self.steps.contains(&r) {
                    return Err(Refusal::NotAStep(r));
                }
                let d = from.facing.toward(r);
                let over = shifted(from.at, d, 1);
                let (Some(cost), true) = (self.hop_cost, self.hop_over.contains(over)) else {
                    return Err(Refusal::NoHop(over));
                };
                let to = shifted(from.at, d, 2);
                if !self.board.contains(to) {
                    Err(Refusal::OffBoard(to))
                } else if !self.pass.contains(to) {
                    Err(Refusal::Blocked(to))
                } else {
                    Ok((Place::new(to, from.facing), cost))
                }
            }
        }
    }

    /// Every move that can be made from `from`, with where it leads and its cost.
    pub fn moves(&self, from: Place) -> impl Iterator<Item = (Move, Place, u8)> + '_ {
        let turns = Turn::ALL.iter().map(|&t| Move::Turn(t));
        let steps = self.steps.iter().flat_map(|&r| [Move::Step(r), Move::Hop(r)]);
        turns.chain(steps).filter_map(move |m| self.apply(from, m).ok().map(|(p, c)| (m, p, c)))
    }

    /// The cheapest cost of reaching each place from `start`, up to `bound`.
    pub fn from(&self, start: Place, bound: u8) -> Distances {
        let mut d = Distances::new();
        self.dial(&mut d, std::iter::once(start), bound, |p, push| {
            for (_, to, c) in self.moves(p) {
                push(to, c);
            }
        });
        d
    }

    /// The cheapest cost from each place to some place `goal` accepts that the figure may
    /// end on, up to `bound`: the distances to the goal, for checking that a path is a
    /// shortest one and for walking one.
    pub fn to(&self, goal: impl Fn(Place) -> bool, bound: u8) -> Distances {
        let mut d = Distances::new();
        let goals = self
            .board
            .fields()
            .filter(|p| self.end.contains(*p))
            .flat_map(|at| Facing::ALL.iter().map(move |&f| Place::new(at, f)))
            .filter(|p| goal(*p));
        self.dial(&mut d, goals, bound, |p, push| {
            // The places one move before `p`: the reverse of `moves`.
            if !self.free(p.at) {
                return;
            }
            let open = |q: Pos| self.free(q) && !self.stop.contains(q);
            if !self.stop.contains(p.at) {
                for &f in Facing::ALL {
                    if f != p.facing {
                        push(Place::new(p.at, f), self.turn_cost);
                    }
                }
            }
            for &r in self.steps {
                let d = p.facing.toward(r);
                let q = shifted(p.at, d, -1);
                if open(q) {
                    push(Place::new(q, p.facing), 1);
                }
                if let Some(cost) = self.hop_cost {
                    let q = shifted(p.at, d, -2);
                    if self.hop_over.contains(shifted(p.at, d, -1)) && open(q) {
                        push(Place::new(q, p.facing), cost);
                    }
                }
            }
        });
        d
    }

    /// Dial's algorithm from `starts` (cost 0), `next` pushing each neighbour with the
    /// cost of the move to it.
    fn dial(
        &self,
        d: &mut Distances,
        starts: impl Iterator<Item = Place>,
        bound: u8,
        next: impl Fn(Place, &mut dyn FnMut(Place, u8)),
    ) {
        const RING: usize = 16;
        let bound = bound.min(Distances::UNREACHED - 1);
        let mut buckets: [Vec<Place>; RING] = Default::default();
        for s in starts {
            if let Some(i) = s.index() {
                if d.cost[i] != 0 {
                    d.cost[i] = 0;
                    buckets[0].push(s);
                }
            }
        }
        let mut pending: usize = buckets[0].len();
        let mut cost: u8 = 0;
        while pending > 0 && cost <= bound {
            let mut here = std::mem::take(&mut buckets[usize::from(cost) % RING]);
            pending -= here.len();
            for p in here.drain(..) {
                let Some(i) = p.index() else { continue };
                if d.cost[i] != cost {
                    continue; // reached cheaper after it was queued
                }
                next(p, &mut |to, c| {
                    let Some(j) = to.index() else { return };
                    let nc = cost.saturating_add(c.max(1));
                    if nc <= bound && nc < d.cost[j] && usize::from(c) < RING {
                        d.cost[j] = nc;
                        buckets[usize::from(nc) % RING].push(to);
                        pending += 1;
                    }
                });
            }
            // Keep the allocation for the next time this bucket comes round.
            buckets[usize::from(cost) % RING] = here;
            cost += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALK: &[Rel] = &[Rel::F, Rel::L, Rel::R];

    fn mover(board: Board, blocked: &[(i16, i16)]) -> Mover<'static> {
        let mut pass = Cells::all(board);
        for &(x, y) in blocked {
            pass.remove(Pos::new(x, y));
        }
        Mover {
            board,
            steps: WALK,
            turn_cost: 1,
            hop_cost: None,
            pass,
            end: pass,
            hop_over: Cells::new(),
            stop: Cells::new(),
        }
    }

    #[test]
    fn cells_are_a_set_of_fields() {
        let mut c = Cells::new();
        c.insert(Pos::new(15, 15));
        c.insert(Pos::new(16, 0));
        assert!(c.contains(Pos::new(15, 15)) && !c.contains(Pos::new(16, 0)));
        assert!(!c.contains(Pos::new(-1, 0)));
        c.remove(Pos::new(15, 15));
        assert!(c.is_empty());
        let b = Board { width: 3, height: 2 };
        assert_eq!(
            format!("{:?}", Cells::all(b).minus(Cells::all(Board { width: 3, height: 1 })))
                .matches("Pos")
                .count(),
            3
        );
    }

    #[test]
    fn moves_are_checked_one_at_a_time() {
        let m = mover(Board { width: 5, height: 5 }, &[(2, 3)]);
        let at = Place::new(Pos::new(2, 2), Facing::N);
        assert_eq!(m.apply(at, Move::Step(Rel::F)), Err(Refusal::Blocked(Pos::new(2, 3))));
        assert_eq!(m.apply(at, Move::Step(Rel::L)), Ok((Place::new(Pos::new(1, 2), Facing::N), 1)));
        assert_eq!(m.apply(at, Move::Step(Rel::Fl)), Err(Refusal::NotAStep(Rel::Fl)));
        assert_eq!(m.apply(at, Move::Hop(Rel::F)), Err(Refusal::NoHop(Pos::new(2, 3))));
        assert_eq!(m.apply(at, Move::Turn(Turn::About)), Ok((Place::new(Pos::new(2, 2), Facing::S), 1)));
        let edge = Place::new(Pos::new(0, 0), Facing::W);
        assert_eq!(m.apply(edge, Move::Step(Rel::F)), Err(Refusal::OffBoard(Pos::new(-1, 0))));
        assert_eq!(m.moves(at).count(), 5, "three turns, left and right");
    }

    #[test]
    fn walking_round_a_figure_costs_six_hunt_example_1() {
        // Fani (2,1) facing N wants the Back field (2,4) of the Golem at (2,3), facing S.
        let m = mover(Board { width: 6, height: 6 }, &[(2, 3)]);
        let from = m.from(Place::new(Pos::new(2, 1), Facing::N), 20);
        assert_eq!(from.get(Place::new(Pos::new(2, 4), Facing::S)), Some(6));
        let to = m.to(|p| p == Place::new(Pos::new(2, 4), Facing::S), 20);
        assert_eq!(to.get(Place::new(Pos::new(2, 1), Facing::N)), Some(6));
        // Forward and reverse agree everywhere.
        for (p, c) in from.reached() {
            let back = m.to(|q| q == p, 20);
            assert_eq!(back.get(Place::new(Pos::new(2, 1), Facing::N)), Some(c), "{p:?}");
        }
    }

    #[test]
    fn hops_cross_a_field_and_stops_end_the_move() {
        let mut m = mover(Board { width: 5, height: 5 }, &[(2, 2)]);
        m.hop_cost = Some(3);
        m.hop_over.insert(Pos::new(2, 2));
        let start = Place::new(Pos::new(2, 1), Facing::N);
        assert_eq!(m.apply(start, Move::Hop(Rel::F)), Ok((Place::new(Pos::new(2, 3), Facing::N), 3)));
        assert_eq!(m.from(start, 9).get(Place::new(Pos::new(2, 3), Facing::N)), Some(3));
        m.stop.insert(Pos::new(1, 1));
        let d = m.from(start, 20);
        assert_eq!(d.get(Place::new(Pos::new(1, 1), Facing::N)), Some(1));
        let stop = Place::new(Pos::new(1, 1), Facing::N);
        assert_eq!(m.apply(stop, Move::Turn(Turn::Left)), Err(Refusal::Stopped(Pos::new(1, 1))));
        // (0,1) is two side-steps away, but only through the stop field: the way round is longer.
        let beyond = Facing::ALL.iter().filter_map(|&f| d.get(Place::new(Pos::new(0, 1), f))).min();
        assert_eq!(beyond, Some(5));
        let to = m.to(|p| p.at == Pos::new(0, 1), 20);
        assert_eq!(to.get(start), beyond, "forward and reverse agree");
    }
}
