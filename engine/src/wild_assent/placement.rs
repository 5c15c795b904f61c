//! Placement (Arena, `scope=match`): each side places one obstacle of each kind (Partial
//! Cover, Full Cover, Spinning Blades, Pit) in its half, never adjacent to another obstacle,
//! the sides alternating from Player 1; then Player 2 places a Gladiator, Player 1 the next,
//! and so on (a side whose Gladiators are all placed is skipped), each in its side's two
//! start lines. With `placement=simultaneous` (by agreement) the turns are not checked.
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

    /// Player 1: the drafting roll's winner, or else the side of the first obstacle placed.
    pub(crate) fn player_one(&self, s: &State) -> Option<Side> {
        s.draft.first.or_else(|| s.obstacles.first().and_then(|(p, _)| self.obstacle_zone(p.y)))
    }

    /// An Arena match's `obstacle`, before it is placed.
    pub(crate) fn check_obstacle(&self, s: &State, at: Pos, kind: Obstacle, f: &mut Findings) {
        if !self.matching() {
            return;
        }
        let k = s.obstacles.len();
        let due = if self.alternate() {
            self.player_one(s).map(|p1| if k % 2 == 0 { p1 } else { p1.other() })
        } else {
            None
        };
        let side = due.or_else(|| self.obstacle_zone(at.y));
        match side {
            Some(side) if self.obstacle_zone(at.y) != Some(side) => f.violate(Violation::new(
                rules::OBSTACLE_ZONE,
                format!(
                    "{side}'s obstacle goes in its half (lines {}), not on {}",
                    self.zone_lines(side, false),
                    at.algebraic()
                ),
            )),
            None => f.violate(Violation::new(
                rules::OBSTACLE_ZONE,
                format!("{} is in neither side's obstacle lines", at.algebraic()),
            )),
            _ => {}
        }
        if self.alternate() && s.units.iter().any(|u| u.kind != UnitKind::Summon) {
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
        } else if let Some(side) = side {
            let twice = s.obstacles.iter().any(|(p, o)| *o == kind && self.obstacle_zone(p.y) == Some(side));
            if twice {
                f.violate(Violation::new(
                    rules::OBSTACLE_TURNS,
                    format!("{side} has placed its {kind}: each side takes one obstacle of each kind"),
                ));
            }
        }
        if let Some((p, o)) = s.obstacles.iter().find(|(p, _)| p.adjacent(at)) {
            f.violate(Violation::new(
                rules::OBSTACLE_SPACING,
                format!("{} is adjacent to the {o} on {}", at.algebraic(), p.algebraic()),
            ));
        }
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
        if s.obstacles.len() < KINDS.len() * 2 {
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
        if s.obstacles.len() != KINDS.len() * 2 {
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
