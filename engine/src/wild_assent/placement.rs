//! Placement (Arena, `scope=match`): each side places one obstacle of each kind (Partial
//! Cover, Full Cover, Spinning Blades, Pit) in its half, never adjacent to another obstacle,
//! the sides alternating from Player 1; then Player 2 places a Gladiator, Player 1 the next,
//! and so on (a side whose Gladiators are all placed is skipped), each in its side's two
//! start lines. With `placement=simultaneous` (by agreement) the turns are not checked.
//!
//! An `obstacle` line names no side: an obstacle is charged to the side whose half holds it,
//! or to the side due when that side may not have placed it (it has its obstacle of that
//! kind already) or when it lies in neither half. So an obstacle placed out of turn is one
//! `wa.arena.place.obstacle-turns` finding, and the due side's obstacle off its half one
//! `wa.arena.place.obstacle-zone` finding; the turn then goes by how many each side has
//! placed, so the other side catching up is in turn.
//!
//! The book calls the numbered lines 1-10 "columns" and also "rows"; here they are the
//! board's numbered lines (notation rows): red starts on lines 1-2 and places obstacles on
//! 3-5, blue starts on the last two lines and places obstacles on the three before them
//! (9-10 and 6-8 on the 10-line board).

use super::cards::UnitKind;
use super::rules::{self, Placement, Scope};
use super::state::{Obstacle, Side, State};
use super::WildAssent;
use crate::kit::grid::Pos;
use crate::kit::name::Name;
use crate::{Findings, Violation};

/// The Arena's obstacle kinds: each side places one of each.
const KINDS: [Obstacle; 4] = [Obstacle::Partial, Obstacle::Full, Obstacle::Blades, Obstacle::Pit];

impl WildAssent {
    fn matching(&self) -> bool {
        self.params.scope == Scope::Match
    }

    fn alternate(&self) -> bool {
        self.params.placement == Placement::Alternate
    }

    /// The side whose obstacle zone holds line `y` (0-based), if any.
    fn obstacle_zone(&self, y: i16) -> Option<Side> {
        let h = self.params.board.height;
        if (2..=4).contains(&y) {
            Some(Side::Red)
        } else if (h - 5..=h - 3).contains(&y) {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// Whether line `y` is one of the side's two start lines.
    fn start_zone(&self, side: Side, y: i16) -> bool {
        let h = self.params.board.height;
        match side {
            Side::Red => (0..=1).contains(&y),
            _ => (h - 2..=h - 1).contains(&y),
        }
    }

    fn zone_lines(&self, side: Side, start: bool) -> String {
        let h = self.params.board.height;
        match (side, start) {
            (Side::Red, true) => "1-2".to_string(),
            (Side::Red, false) => "3-5".to_string(),
            (_, true) => format!("{}-{}", h - 1, h),
            (_, false) => format!("{}-{}", h - 4, h - 2),
        }
    }

    /// Player 1: the drafting roll's winner, or else the side of the first obstacle placed
    /// when the sides alternate (Player 1 places first, l.502). Under
    /// `placement=simultaneous` nobody places first (l.504), so the order the obstacle lines
    /// happen to be written in says nothing of who won the roll: Player 1 is unknown, and the
    /// first Assent to activate is taken as played.
    pub(crate) fn player_one(&self, s: &State) -> Option<Side> {
        s.draft.first.or_else(|| {
            if !self.alternate() {
                return None;
            }
            s.obstacles.first().and_then(|(p, _)| self.obstacle_zone(p.y))
        })
    }

    /// The side due to place the next obstacle, with the sides the obstacles placed so far
    /// are charged to: the side that has placed fewer, Player 1 when both have placed as
    /// many. Counting, not the record's parity: after one side has placed out of turn, the
    /// other catching up is its due turn, so one obstacle out of turn is one finding.
    fn obstacle_due(&self, s: &State, owners: &[Option<Side>]) -> Option<Side> {
        let n = |side| owners.iter().filter(|o| **o == Some(side)).count();
        let (red, blue) = (n(Side::Red), n(Side::Blue));
        if red == blue {
            self.player_one(s)
        } else if red < blue {
            Some(Side::Red)
        } else {
            Some(Side::Blue)
        }
    }

    /// Which side placed the obstacle of `kind` on `at`, given the sides `owners` the
    /// obstacles `placed` before it are charged to and the side `due` to place. The record
    /// names no side: an obstacle in the due side's half, or in neither half, is the due
    /// side's (in turn; in neither half, on a wrong field). One in the other side's half is
    /// that side's, placed out of turn, unless that side has already placed its obstacle of
    /// this kind (it takes one of each): then it is the due side's, on the wrong half.
    fn obstacle_owner(
        &self,
        placed: &[(Pos, Obstacle)],
        owners: &[Option<Side>],
        due: Option<Side>,
        at: Pos,
        kind: Obstacle,
    ) -> Option<Side> {
        let zone = self.obstacle_zone(at.y);
        let (Some(due), Some(z)) = (due, zone) else { return due.or(zone) };
        if z == due {
            return Some(due);
        }
        let has = placed.iter().zip(owners).any(|((_, o), w)| *o == kind && *w == Some(z));
        let full = owners.iter().filter(|w| **w == Some(z)).count() >= KINDS.len();
        Some(if has || full { due } else { z })
    }

    /// The side each obstacle placed so far is charged to ([`WildAssent::obstacle_owner`]),
    /// in order. With `placement=simultaneous` an obstacle is its half's side's.
    fn obstacle_owners(&self, s: &State) -> Vec<Option<Side>> {
        let mut owners = Vec::with_capacity(s.obstacles.len());
        for (k, &(at, kind)) in s.obstacles.iter().enumerate() {
            let owner = if self.alternate() {
                let due = self.obstacle_due(s, &owners);
                self.obstacle_owner(&s.obstacles[..k], &owners, due, at, kind)
            } else {
                self.obstacle_zone(at.y)
            };
            owners.push(owner);
        }
        owners
    }

    /// Whether `side` placing the next obstacle keeps a turn order of the obstacles as
    /// played: the book's (`due`: the side that has placed fewer, Player 1 when even) or the
    /// alternation from the side that placed last (the other side, while it has obstacles
    /// left). One obstacle out of turn or left out is one finding: after it either order
    /// of the records that follow is the alternation going on from the table's play.
    fn obstacle_in_turn(&self, owners: &[Option<Side>], due: Option<Side>, side: Side) -> bool {
        let placed = |x: Side| owners.iter().filter(|o| **o == Some(x)).count();
        let alternate =
            owners.last().copied().flatten().map(Side::other).filter(|x| placed(*x) < KINDS.len());
        due.is_none_or(|d| d == side) || alternate == Some(side)
    }

    /// The sides passed over as the obstacles were placed: each time a side placed out of
    /// turn, the side due (it was reported there; its obstacle left out is no second finding).
    fn obstacles_passed_over(&self, s: &State) -> Vec<Side> {
        let mut out = Vec::new();
        if !self.alternate() {
            return out;
        }
        let owners = self.obstacle_owners(s);
        for k in 0..owners.len() {
            let due = self.obstacle_due(s, &owners[..k]);
            if let (Some(o), Some(d)) = (owners[k], due) {
                if !self.obstacle_in_turn(&owners[..k], due, o) {
                    out.push(d);
                }
            }
        }
        out
    }

    /// An Arena match's `obstacle`, before it is placed. One fault is one finding, under the
    /// most specific rule: an obstacle in the other side's half that side may still place is
    /// that side's, out of turn (`wa.arena.place.obstacle-turns`), not the due side's on the
    /// wrong half; `wa.arena.place.obstacle-zone` is for the due side's obstacle off its
    /// half ([`WildAssent::obstacle_owner`]).
    pub(crate) fn check_obstacle(&self, s: &State, at: Pos, kind: Obstacle, f: &mut Findings) {
        if !self.matching() {
            return;
        }
        let owners = self.obstacle_owners(s);
        let due = if self.alternate() { self.obstacle_due(s, &owners) } else { None };
        let owner = if self.alternate() {
            self.obstacle_owner(&s.obstacles, &owners, due, at, kind)
        } else {
            self.obstacle_zone(at.y)
        };
        let zone = self.obstacle_zone(at.y);
        // An obstacle of a kind its side has placed already is one too many: that is the
        // fault (below), not the half it lies in.
        let twice = KINDS.contains(&kind)
            && owner.is_some_and(|side| {
                s.obstacles.iter().zip(&owners).any(|((_, o), w)| *o == kind && *w == Some(side))
            });
        match (owner, due) {
            (Some(o), Some(d)) if !self.obstacle_in_turn(&owners, due, o) => f.violate(Violation::new(
                rules::OBSTACLE_TURNS,
                format!(
                    "{d} places the next obstacle (the sides alternate from Player 1, {}), not {o}: {} is in {o}'s half",
                    self.player_one(s).unwrap_or(d),
                    at.algebraic()
                ),
            )),
            (Some(o), _) if zone != Some(o) && !twice => {
                let why = match zone {
                    Some(z) => format!(" ({z} has placed its {kind})"),
                    None => String::new(),
                };
                f.violate(Violation::new(
                    rules::OBSTACLE_ZONE,
                    format!(
                        "{o}'s obstacle goes in its half (lines {}), not on {}{why}",
                        self.zone_lines(o, false),
                        at.algebraic()
                    ),
                ))
            }
            (None, _) => f.violate(Violation::new(
                rules::OBSTACLE_ZONE,
                format!("{} is in neither side's obstacle lines", at.algebraic()),
            )),
            _ => {}
        }
        // One of the eight placed late, after a Gladiator: the first Gladiator was reported
        // for it ("N of the 8 obstacles are placed"), or the side passed over where it was
        // left out; placed now it is the same mistake, no second finding (audit r6 D7). A
        // ninth is still one too many (below, and here).
        if self.alternate()
            && s.obstacles.len() >= KINDS.len() * 2
            && s.units.iter().any(|u| u.kind != UnitKind::Summon)
        {
            f.violate(Violation::new(
                rules::OBSTACLE_TURNS,
                "every obstacle is placed before the first Gladiator",
            ));
        }
        if !KINDS.contains(&kind) {
            f.violate(Violation::new(
                rules::OBSTACLE_TURNS,
                format!("{kind} is no Arena obstacle (partial-cover, full-cover, spinning-blades, pit)"),
            ));
        } else if let Some(side) = owner.filter(|_| twice) {
            f.violate(Violation::new(
                rules::OBSTACLE_TURNS,
                format!("{side} has placed its {kind}: each side takes one obstacle of each kind"),
            ));
        }
        if let Some((p, o)) = s.obstacles.iter().find(|(p, _)| p.adjacent(at)) {
            f.violate(Violation::new(
                rules::OBSTACLE_SPACING,
                format!("{} is adjacent to the {o} on {}", at.algebraic(), p.algebraic()),
            ));
        }
    }

    /// Whether every side short of its four obstacles was passed over as they were placed:
    /// that finding stands for the obstacle left out.
    fn obstacle_short_reported(&self, s: &State) -> bool {
        let owners = self.obstacle_owners(s);
        let passed = self.obstacles_passed_over(s);
        let short: Vec<Side> = [Side::Red, Side::Blue]
            .into_iter()
            .filter(|x| owners.iter().filter(|o| **o == Some(*x)).count() < KINDS.len())
            .collect();
        !short.is_empty() && short.iter().all(|x| passed.contains(x))
    }

    /// How many of the side's troupe miniatures are not placed yet (`None`: no troupe known).
    fn unplaced(&self, s: &State, side: Side) -> Option<usize> {
        let mut known = false;
        let mut n = 0;
        for t in s.troupes.troupes.iter().filter(|t| t.side == side) {
            known = true;
            n += t.cards.iter().filter(|c| s.find(c).is_none()).count();
        }
        known.then_some(n)
    }

    /// An Arena match's `place` of a Gladiator, before it is placed.
    pub(crate) fn check_gladiator(&self, s: &State, unit: Name, side: Side, at: Pos, f: &mut Findings) {
        if !self.matching() {
            return;
        }
        match s.troupes.of(&unit).map(|t| s.troupes.troupes[t].side) {
            Some(t) if t == side => {}
            _ => f.violate(Violation::new(
                rules::TROUPE_DRAFTED,
                format!("`{unit}` is in none of {side}'s troupes: only a troupe's miniatures are placed"),
            )),
        }
        if !self.start_zone(side, at.y) {
            f.violate(Violation::new(
                rules::GLADIATOR_ZONE,
                format!(
                    "{side}'s Gladiators start on lines {}, not on {}",
                    self.zone_lines(side, true),
                    at.algebraic()
                ),
            ));
        }
        if !self.alternate() {
            return;
        }
        // Reported once, at the first Gladiator, and not when the side short of obstacles
        // was passed over (its obstacle left out was the finding there).
        let first = !s.units.iter().any(|u| u.kind != UnitKind::Summon);
        if first && s.obstacles.len() < KINDS.len() * 2 && !self.obstacle_short_reported(s) {
            f.violate(Violation::new(
                rules::OBSTACLE_TURNS,
                format!(
                    "{} of the 8 obstacles are placed: every obstacle comes before the Gladiators",
                    s.obstacles.len()
                ),
            ));
        }
        let last = s.units.iter().rev().find(|u| u.kind != UnitKind::Summon).map(|u| u.side);
        let due = match last {
            None => self.player_one(s).map(Side::other),
            Some(l) if self.unplaced(s, l.other()) == Some(0) => Some(l),
            Some(l) => Some(l.other()),
        };
        if let Some(due) = due.filter(|d| *d != side) {
            let why =
                if last.is_none() { "Player 2 places the first Gladiator" } else { "the sides alternate" };
            f.violate(Violation::new(
                rules::GLADIATOR_TURNS,
                format!("{due} places the next Gladiator ({why}), not {side}"),
            ));
        }
    }

    /// At `begin`: every obstacle and every troupe miniature placed.
    pub(crate) fn placement_complete(&self, s: &State, f: &mut Findings) {
        if !self.matching() {
            return;
        }
        // Too few obstacles was reported at the first Gladiator (or where a side was passed
        // over) when the sides alternate.
        let gladiators = s.units.iter().any(|u| u.kind != UnitKind::Summon);
        let reported = self.alternate()
            && s.obstacles.len() < KINDS.len() * 2
            && (gladiators || self.obstacle_short_reported(s));
        if s.obstacles.len() != KINDS.len() * 2 && !reported {
            f.violate(Violation::new(
                rules::OBSTACLE_TURNS,
                format!(
                    "{} obstacles are placed: each side places one of each of the four kinds",
                    s.obstacles.len()
                ),
            ));
        }
        for side in [Side::Red, Side::Blue] {
            if let Some(n) = self.unplaced(s, side).filter(|n| *n > 0) {
                f.violate(Violation::new(
                    rules::GLADIATOR_TURNS,
                    format!(
                        "{n} of {side}'s Gladiators are not placed: all are placed before the match begins"
                    ),
                ));
            }
        }
    }
}
