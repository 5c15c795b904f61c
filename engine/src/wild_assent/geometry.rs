//! The board as the rules see it, built on the kit's grid and paths: how a miniature may move
//! (a `Mover` whose sets of fields are the obstacles and the other miniatures), what an
//! attack's line of sight crosses, and whether it comes from behind. Checking a recorded
//! move and searching a Creature's paths use the same `Mover`, so they cannot disagree.

use super::cards::Movement;
use super::rules::{BackDiagonal, CoverStack, LosCorner, PartialCross, PitPath};
use super::state::{Obstacle, State, Unit, UnitIx};
use super::WildAssent;
use crate::kit::grid::{sight_line, Facing, Pos, Rel, Touch};
use crate::kit::paths::{Cells, Mover, Place};

/// The step directions of a movement type.
const WALK: &[Rel] = &[Rel::F, Rel::L, Rel::R];
const SWIFT: &[Rel] = &[Rel::F, Rel::L, Rel::R, Rel::Fl, Rel::Fr];

/// What stops a line of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocker {
    Miniature(UnitIx),
    Obstacle(Obstacle),
}

/// The fields that block a line of sight (`all`: Full Cover, the hazards, miniatures) and
/// those of them that are Full Cover or a hazard (`cover`): `los-corner` may tell the corner
/// of one from the corner of the other.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blockers {
    pub all: Cells,
    pub cover: Cells,
}

/// A line of sight whatever the reading of a corner touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStatus {
    Clear,
    /// It only touches a blocker's corner: clear or blocked by `los-corner`.
    Corner(Pos),
    Blocked(Pos),
}

/// A line of sight from a place to a field, as an attack checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sight {
    /// The target is in the frontal arc.
    pub arc: bool,
    /// The first field on the line that blocks it, and what is there.
    pub blocked: Option<(Pos, Blocker, Touch)>,
    /// Fields counted with diagonal steps.
    pub range: u32,
    /// Every field the line crosses or touches, in order.
    pub line: Vec<(Pos, Touch)>,
}

impl WildAssent {
    /// Fields holding a miniature on the board, but `except`.
    pub(crate) fn occupied(&self, s: &State, except: &[UnitIx]) -> Cells {
        // A regular table's kept set, less the fields of those left out (each stands alone
        // on its own: `Occupancy`).
        if let Some(mut c) = s.occupied_fields() {
            for &i in except {
                if let Some(u) = s.units.get(usize::from(i)).filter(|u| u.on_board()) {
                    c.remove(u.at);
                }
            }
            return c;
        }
        let mut c = Cells::new();
        for (i, u) in s.units.iter().enumerate() {
            if u.on_board() && !except.contains(&(i as UnitIx)) {
                c.insert(u.at);
            }
        }
        c
    }

    /// How `unit` moves with `movement`: everything it may pass, end on, hop over, and the
    /// Pits that end a walk. `avoid_pits` leaves Pits out of a Creature's search (a path
    /// into a Pit reaches no destination): a walker neither passes nor ends on one, a flyer
    /// passes over them but ends on none. Under `pit-path=into` a walker's search takes a
    /// Pit as open ground instead.
    pub(crate) fn mover(
        &self,
        s: &State,
        unit: UnitIx,
        movement: Movement,
        avoid_pits: bool,
    ) -> Mover<'static> {
        let board = self.params.board;
        let all = self.params.fields;
        // As `occupied(s, &[unit])`, the one miniature left out by taking those before it and
        // those after it, in two loops (this runs for every move checked and every Creature
        // search, and an index compared for each miniature was a sixth of it).
        // On a regular table (`state::Occupancy`), the kept set of fields stood on less its
        // own (it stands alone there), without the walk.
        let others = match s.occupied_fields() {
            Some(mut c) => {
                if let Some(u) = s.units.get(usize::from(unit)).filter(|u| u.on_board()) {
                    c.remove(u.at);
                }
                c
            }
            None => {
                let mut others = Cells::new();
                let (before, after) = s.units.split_at(usize::from(unit).min(s.units.len()));
                let mut add = |units: &[Unit]| {
                    for u in units {
                        if u.on_board() {
                            others.insert(u.at);
                        }
                    }
                };
                add(before);
                add(after.get(1..).unwrap_or_default());
                others
            }
        };
        // The three sets of obstacles, kept with the state as they are placed.
        let (cover, partial, pits) = s.obstacle_cells();
        let hop_cost = match self.params.partial {
            PartialCross::Hop3 => 3,
            PartialCross::Enter3 => 4,
        };
        // Each set worked out once and the mover built once, in place (not built, then
        // changed for Flying, then copied again without its Pits).
        let free = all.minus(others).minus(cover);
        let (mut pass, mut end, mut stop) = if movement == Movement::Flying {
            // "ignores other miniatures and obstacles while moving": Pits too, until it ends.
            (all, free, Cells::new())
        } else {
            (free, free, pits)
        };
        if avoid_pits {
            if movement == Movement::Flying {
                // A Flying Creature soars over a Pit as over any obstacle (l.76, Example 3):
                // its search only never ends in one (a Pit reaches no destination).
                end = end.minus(pits);
            } else if self.params.pit_path == PitPath::Around {
                // As `avoiding`: a walker's step into a Pit ends its activation there.
                (pass, end, stop) = (pass.minus(pits), end.minus(pits), Cells::new());
            } else {
                // `pit-path=into`: the Pit is open ground to the search (the walk that
                // follows stops in it).
                stop = Cells::new();
            }
        }
        Mover {
            board,
            steps: if movement == Movement::Swift { SWIFT } else { WALK },
            turn_cost: 1,
            hop_cost: Some(hop_cost),
            pass,
            end,
            hop_over: partial,
            stop,
        }
    }

    /// The line of sight from `from` (a miniature standing there with that facing) to `to`.
    /// `ignore`: miniatures that are not where the state says (a Creature considering a
    /// field it has not moved to yet leaves its own field empty).
    pub(crate) fn sight(&self, s: &State, from: Place, to: Pos, ignore: &[UnitIx]) -> Sight {
        self.sight_with(s, from, to, ignore, true)
    }

    /// As [`WildAssent::sight`], without the fields of the line (left empty): what judging
    /// an attack needs.
    pub(crate) fn sight_judged(&self, s: &State, from: Place, to: Pos, ignore: &[UnitIx]) -> Sight {
        self.sight_with(s, from, to, ignore, false)
    }

    fn sight_with(&self, s: &State, from: Place, to: Pos, ignore: &[UnitIx], keep_line: bool) -> Sight {
        let arc = from.facing.in_arc(from.at, to);
        // Most fields of a line hold no Full Cover: told from the kept set, and the list of
        // obstacles walked only for a field that holds some.
        let full = s.full_cover_cells();
        let mut blocked = None;
        let mut line = Vec::new();
        for (p, touch) in sight_line(from.at, to) {
            if keep_line {
                line.push((p, touch));
            } else if blocked.is_some() {
                break;
            }
            if blocked.is_some() {
                continue;
            }
            let cover = if full.contains(p) { s.obstacle(p).filter(|o| o.is_full()) } else { None };
            if touch == Touch::Corner && !self.corner_blocks(cover.is_some()) {
                continue;
            }
            if let Some(o) = cover {
                blocked = Some((p, Blocker::Obstacle(o), touch));
            } else if let Some(u) = s.at(p).filter(|u| !ignore.contains(u)) {
                blocked = Some((p, Blocker::Miniature(u), touch));
            }
        }
        Sight { arc, blocked, range: from.at.distance(to), line }
    }

    /// How the line from `from` to `to` fares whatever the reading of a corner touch: clear,
    /// only touching a blocker's corner (the first such field), or blocked through a field.
    pub(crate) fn line_status(&self, s: &State, from: Pos, to: Pos) -> LineStatus {
        let mut corner = None;
        for (p, touch) in sight_line(from, to) {
            let blocker = s.obstacle(p).is_some_and(|o| o.is_full()) || s.at(p).is_some();
            match (blocker, touch) {
                (true, Touch::Through) => return LineStatus::Blocked(p),
                (true, Touch::Corner) if corner.is_none() => corner = Some(p),
                _ => {}
            }
        }
        corner.map_or(LineStatus::Clear, LineStatus::Corner)
    }

    /// Whether a line that only touches the corner of a blocker's field is blocked by it
    /// (`cover`: the blocker is Full Cover or a hazard, else a miniature), as `los-corner`
    /// reads it: by default "no aiming around corners" is Full Cover's alone (l.169).
    pub(crate) fn corner_blocks(&self, cover: bool) -> bool {
        match self.params.corner {
            LosCorner::FullCover => cover,
            LosCorner::Clear => false,
            LosCorner::Blocked => true,
        }
    }

    /// The fields that block a line of sight: Full Cover, the hazards, and every miniature
    /// but `ignore`.
    pub(crate) fn blockers(&self, s: &State, ignore: &[UnitIx]) -> Blockers {
        // Kept with the state as the obstacles are placed (every check of a line of sight
        // asks, and the list was walked for each).
        let cover = s.full_cover_cells();
        Blockers { all: self.occupied(s, ignore).union(cover), cover }
    }

    /// Whether the line from `from` to `to` crosses no field of `blockers` (a corner touched
    /// as `los-corner` says).
    pub(crate) fn clear_through(&self, blockers: &Blockers, from: Pos, to: Pos) -> bool {
        sight_line(from, to).all(|(p, touch)| {
            !blockers.all.contains(p)
                || (touch == Touch::Corner && !self.corner_blocks(blockers.cover.contains(p)))
        })
    }

    /// Whether the line from `from` to `to` is clear, `ignore` standing elsewhere.
    pub(crate) fn clear_line(&self, s: &State, from: Pos, to: Pos, ignore: &[UnitIx]) -> bool {
        self.clear_through(&self.blockers(s, ignore), from, to)
    }

    /// Whether a miniature at `from` could attack a target on `to` with `range`: arc, line
    /// of sight and range.
    pub(crate) fn can_see(&self, s: &State, from: Place, to: Pos, range: u8, ignore: &[UnitIx]) -> bool {
        from.at.distance(to) <= u32::from(range)
            && from.facing.in_arc(from.at, to)
            && self.clear_line(s, from.at, to, ignore)
    }

    /// As [`WildAssent::can_see`], the blockers already known.
    pub(crate) fn can_see_through(&self, blockers: &Blockers, from: Place, to: Pos, range: u8) -> bool {
        from.at.distance(to) <= u32::from(range)
            && from.facing.in_arc(from.at, to)
            && self.clear_through(blockers, from.at, to)
    }

    /// Whether an attack from `from` on a miniature at `at` facing `facing` crosses its Back.
    pub(crate) fn from_behind(&self, at: Pos, facing: Facing, from: Pos) -> bool {
        let (x, y) = facing.to_frame(at.delta(from));
        y <= -1 && (x.abs() < y.abs() || (x.abs() == y.abs() && self.params.back == BackDiagonal::Yes))
    }

    /// How many Partial Covers are next to a field.
    pub(crate) fn partial_covers_by(&self, s: &State, at: Pos) -> usize {
        s.obstacles.iter().filter(|(p, o)| *o == Obstacle::Partial && p.adjacent(at)).count()
    }

    /// The Defense Partial Cover gives a miniature on `at`: +1, or +1 for each Partial Cover
    /// beside it under `partial-cover-stack=each`.
    pub(crate) fn cover_defense(&self, s: &State, at: Pos) -> i32 {
        match self.params.cover_stack {
            CoverStack::Once => i32::from(self.partial_covers_by(s, at) > 0),
            CoverStack::Each => i32::try_from(self.partial_covers_by(s, at)).unwrap_or(i32::MAX),
        }
    }
}

/// `m` with the Pits `pits` left out of a Creature's search: a path into a Pit reaches no
/// destination, so the search neither passes nor ends on one, and stops on none.
pub(crate) fn avoiding(m: Mover<'static>, pits: Cells) -> Mover<'static> {
    Mover { pass: m.pass.minus(pits), end: m.end.minus(pits), stop: Cells::new(), ..m }
}

/// `m` with its Pits taken as open ground (`pit-path=into`): the search passes and ends on
/// them, and stops on none.
pub(crate) fn open_pits(m: Mover<'static>) -> Mover<'static> {
    Mover { stop: Cells::new(), ..m }
}
