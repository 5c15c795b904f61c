//! Square-grid basics: fields, the board's bounds, the four facings and what lies in front,
//! to the sides and behind, and Chebyshev distance (diagonal steps count as one).
//!
//! Convention (docs of the grid games): fields are `(x, y)`, `N` is `+y`. For a figure
//! facing `N`, its Front is `(x, y+1)`, its Back `(x, y-1)`, left `(x-1, y)`, right
//! `(x+1, y)`. Offsets "in the figure's frame" have forward = `+y` and right = `+x`.
//! Line of sight and paths are left to the game that needs them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One field of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    pub x: i16,
    pub y: i16,
}

impl Pos {
    pub const fn new(x: i16, y: i16) -> Pos {
        Pos { x, y }
    }
    /// The field `(dx, dy)` away.
    pub fn offset(self, dx: i16, dy: i16) -> Pos {
        Pos { x: self.x.saturating_add(dx), y: self.y.saturating_add(dy) }
    }
    /// `(dx, dy)` from `self` to `to`.
    pub fn delta(self, to: Pos) -> (i32, i32) {
        (i32::from(to.x) - i32::from(self.x), i32::from(to.y) - i32::from(self.y))
    }
    /// Fields counted with diagonal steps allowed: `max(|dx|, |dy|)`.
    pub fn distance(self, to: Pos) -> u32 {
        let (dx, dy) = self.delta(to);
        dx.unsigned_abs().max(dy.unsigned_abs())
    }
    /// One of the 8 surrounding fields.
    pub fn adjacent(self, to: Pos) -> bool {
        self.distance(to) == 1
    }
    /// The 8 surrounding fields, clockwise from the one north.
    pub fn neighbours(self) -> [Pos; 8] {
        [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
            .map(|(dx, dy)| self.offset(dx, dy))
    }
}

impl fmt::Display for Pos {
    /// `x,y`, the form notation writes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl std::str::FromStr for Pos {
    type Err = String;
    fn from_str(s: &str) -> Result<Pos, String> {
        let bad = || format!("a field `x,y`, found `{s}`");
        let (x, y) = s.split_once(',').ok_or_else(bad)?;
        Ok(Pos { x: x.trim().parse().map_err(|_| bad())?, y: y.trim().parse().map_err(|_| bad())? })
    }
}

/// A rectangular board: `0..width` by `0..height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub width: i16,
    pub height: i16,
}

impl Board {
    pub fn contains(&self, p: Pos) -> bool {
        (0..self.width).contains(&p.x) && (0..self.height).contains(&p.y)
    }
}

super::named::named_enum! {
    /// Where a figure faces: one of the four orthogonal directions.
    pub enum Facing ("a facing (n, e, s, w)") { N = "n", E = "e", S = "s", W = "w" }
}

/// Where a field lies as seen by a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The field directly in front.
    Front,
    /// Front-left or front-right (the rest of the frontal arc's first row).
    FrontDiagonal,
    /// Further ahead, within the frontal arc (`dy >= 1`, `|dx| <= dy`).
    Ahead,
    /// The field directly behind.
    Back,
    /// Anywhere else (beside, behind at an angle), or the figure's own field.
    Elsewhere,
}

impl Facing {
    /// The step one field forward.
    pub fn forward(self) -> (i16, i16) {
        match self {
            Facing::N => (0, 1),
            Facing::E => (1, 0),
            Facing::S => (0, -1),
            Facing::W => (-1, 0),
        }
    }
    /// A quarter turn clockwise.
    pub fn right(self) -> Facing {
        match self {
            Facing::N => Facing::E,
            Facing::E => Facing::S,
            Facing::S => Facing::W,
            Facing::W => Facing::N,
        }
    }
    /// A quarter turn counter-clockwise.
    pub fn left(self) -> Facing {
        self.right().right().right()
    }
    /// A world offset `(dx, dy)` in the frame of a figure facing `self` (forward = `+y`,
    /// right = `+x`).
    pub fn to_frame(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        match self {
            Facing::N => (dx, dy),
            Facing::E => (-dy, dx),
            Facing::S => (-dx, -dy),
            Facing::W => (dy, -dx),
        }
    }
    /// Where `to` lies for a figure at `at` facing `self`.
    pub fn side(self, at: Pos, to: Pos) -> Side {
        let (x, y) = self.to_frame(at.delta(to));
        match (x, y) {
            (0, 1) => Side::Front,
            (-1 | 1, 1) => Side::FrontDiagonal,
            (0, -1) => Side::Back,
            _ if y >= 1 && x.abs() <= y => Side::Ahead,
            _ => Side::Elsewhere,
        }
    }
    /// Whether `to` is in the frontal arc of a figure at `at` (the diagonal boundary
    /// included).
    pub fn in_arc(self, at: Pos, to: Pos) -> bool {
        matches!(self.side(at, to), Side::Front | Side::FrontDiagonal | Side::Ahead)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_frames_and_arcs() {
        let at = Pos::new(2, 2);
        assert_eq!(Facing::N.side(at, Pos::new(2, 3)), Side::Front);
        assert_eq!(Facing::N.side(at, Pos::new(2, 1)), Side::Back);
        assert_eq!(Facing::N.side(at, Pos::new(3, 3)), Side::FrontDiagonal);
        assert_eq!(Facing::E.side(at, Pos::new(3, 2)), Side::Front);
        assert_eq!(Facing::E.side(at, Pos::new(1, 2)), Side::Back);
        assert_eq!(Facing::S.side(at, Pos::new(2, 1)), Side::Front);
        assert_eq!(Facing::W.side(at, Pos::new(1, 2)), Side::Front);
        assert!(Facing::N.in_arc(at, Pos::new(5, 5)) && !Facing::N.in_arc(at, Pos::new(5, 4)));
        assert_eq!(Facing::N.side(at, Pos::new(3, 2)), Side::Elsewhere);
        for f in Facing::ALL {
            assert_eq!(f.right().left(), *f);
            let (dx, dy) = f.forward();
            assert_eq!(f.to_frame((i32::from(dx), i32::from(dy))), (0, 1));
        }
    }

    #[test]
    fn distance_is_chebyshev_and_fields_parse() {
        assert_eq!(Pos::new(0, 0).distance(Pos::new(3, -2)), 3);
        assert!(Pos::new(0, 0).adjacent(Pos::new(1, 1)));
        assert_eq!(Pos::new(1, 1).neighbours().iter().filter(|p| p.adjacent(Pos::new(1, 1))).count(), 8);
        assert_eq!("3,-4".parse::<Pos>(), Ok(Pos::new(3, -4)));
        assert!("3".parse::<Pos>().is_err());
        assert!(Board { width: 4, height: 3 }.contains(Pos::new(3, 2)));
        assert!(!Board { width: 4, height: 3 }.contains(Pos::new(4, 0)));
        assert_eq!(Pos::new(-1, 2).to_string(), "-1,2");
    }
}
