//! Square-grid basics: fields (written `x,y` or, as players read a board, `c4`), the
//! board's bounds, the four facings and what lies in front, to the sides and behind, steps
//! and turns relative to a facing, Chebyshev distance (diagonal steps count as one), and
//! line of sight: which fields the segment between two field centres crosses or only
//! touches at a corner.
//!
//! Convention (docs of the grid games): fields are `(x, y)`, `N` is `+y`. For a figure
//! facing `N`, its Front is `(x, y+1)`, its Back `(x, y-1)`, left `(x-1, y)`, right
//! `(x+1, y)`. Offsets "in the figure's frame" have forward = `+y` and right = `+x`.
//! Shortest movement over facings is in [`super::paths`].

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

impl Pos {
    /// The field as players name it on a lettered board: column letter from `a` (x = 0),
    /// row number from 1 (y = 0): `(2, 3)` is `c4`.
    pub fn algebraic(self) -> Algebraic {
        Algebraic(self)
    }

    /// Read `c4` (columns `a`-`z`, rows 1-99).
    pub fn from_algebraic(word: &str) -> Option<Pos> {
        let mut chars = word.chars();
        let col = chars.next().filter(char::is_ascii_lowercase)?;
        let row: &str = chars.as_str();
        if row.is_empty() || row.len() > 2 || !row.bytes().all(|b| b.is_ascii_digit()) || row.starts_with('0')
        {
            return None;
        }
        let row: i16 = row.parse().ok()?;
        Some(Pos::new(i16::from(col as u8 - b'a'), row - 1))
    }
}

/// A field written `c4` (see [`Pos::algebraic`]); `?` for a field no letter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Algebraic(pub Pos);

impl fmt::Display for Algebraic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Pos { x, y } = self.0;
        match u8::try_from(x).ok().filter(|&x| x < 26) {
            Some(col) if y >= 0 => write!(f, "{}{}", (b'a' + col) as char, y + 1),
            _ => write!(f, "?{},{}", x, y),
        }
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
    /// Every field, row by row from `(0, 0)`.
    pub fn fields(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }
}

super::named::named_enum! {
    /// Where a figure faces: one of the four orthogonal directions.
    pub enum Facing ("a facing (n, e, s, w)") { N = "n", E = "e", S = "s", W = "w" }
}

super::named::named_enum! {
    /// A step relative to a figure's facing, the facing kept: forward, to the side, the
    /// front diagonals, and backwards.
    pub enum Rel ("a step (f, l, r, fl, fr, b, bl, br)") {
        F = "f", L = "l", R = "r", Fl = "fl", Fr = "fr", B = "b", Bl = "bl", Br = "br"
    }
}

impl Rel {
    /// The offset in the figure's frame (forward = `+y`, right = `+x`).
    pub fn frame(self) -> (i16, i16) {
        match self {
            Rel::F => (0, 1),
            Rel::L => (-1, 0),
            Rel::R => (1, 0),
            Rel::Fl => (-1, 1),
            Rel::Fr => (1, 1),
            Rel::B => (0, -1),
            Rel::Bl => (-1, -1),
            Rel::Br => (1, -1),
        }
    }
}

super::named::named_enum! {
    /// A turn on the spot: a quarter left, a quarter right, or about.
    pub enum Turn ("a turn (tl, tr, tb)") { Left = "tl", Right = "tr", About = "tb" }
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
    /// The facing after a turn.
    pub fn turned(self, t: Turn) -> Facing {
        match t {
            Turn::Left => self.left(),
            Turn::Right => self.right(),
            Turn::About => self.right().right(),
        }
    }
    /// The turn from `self` to `to` (`None` when they are the same).
    pub fn turn_to(self, to: Facing) -> Option<Turn> {
        Turn::ALL.iter().copied().find(|&t| self.turned(t) == to)
    }
    /// The world offset of a step relative to this facing.
    pub fn toward(self, rel: Rel) -> (i16, i16) {
        let (x, y) = rel.frame();
        match self {
            Facing::N => (x, y),
            Facing::E => (y, -x),
            Facing::S => (-x, -y),
            Facing::W => (-y, x),
        }
    }
    /// The field directly behind a figure at `at`.
    pub fn back_of(self, at: Pos) -> Pos {
        let (dx, dy) = self.forward();
        at.offset(-dx, -dy)
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

/// How the segment between two field centres meets a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// It passes through the field's interior.
    Through,
    /// It only touches one of the field's corners.
    Corner,
}

/// How the line through the centres of `from` and `to` meets the square of `cell`: exact
/// (fields doubled so that corners are integers), `None` when it misses.
pub fn touch(from: Pos, to: Pos, cell: Pos) -> Option<Touch> {
    let (dx, dy) = from.delta(to);
    let (cx, cy) = from.delta(cell);
    let (mut lo, mut hi) = (i32::MAX, i32::MIN);
    for (sx, sy) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let cross = dx * (2 * cy + sy) - dy * (2 * cx + sx);
        lo = lo.min(cross);
        hi = hi.max(cross);
    }
    if lo < 0 && hi > 0 {
        Some(Touch::Through)
    } else if (lo == 0) != (hi == 0) {
        Some(Touch::Corner)
    } else {
        None
    }
}

/// The fields the segment from the centre of `from` to the centre of `to` crosses or
/// touches, other than those two, in order along the segment ("an invisible line from the
/// center of the field the attacker occupies to the center of the field the target
/// occupies").
pub fn sight_line(from: Pos, to: Pos) -> impl Iterator<Item = (Pos, Touch)> {
    let (dx, dy) = from.delta(to);
    let line = line_offsets(dx, dy);
    (0..line.len()).map(move |i| {
        let (x, y, t) = line[i];
        (from.offset(i16::from(x), i16::from(y)), t)
    })
}

/// The longest offset whose line is kept in the table (longer ones are computed each time).
const TABLE: i32 = 15;

/// The fields a line crosses, as offsets from its start, for every offset up to [`TABLE`]
/// fields away: computed once, then shared.
fn line_offsets(dx: i32, dy: i32) -> std::borrow::Cow<'static, [(i8, i8, Touch)]> {
    use std::sync::OnceLock;
    static LINES: OnceLock<Vec<Vec<(i8, i8, Touch)>>> = OnceLock::new();
    if dx.abs() > TABLE || dy.abs() > TABLE {
        return std::borrow::Cow::Owned(compute_line(dx, dy));
    }
    let side = (2 * TABLE + 1) as usize;
    let lines = LINES.get_or_init(|| {
        (0..side * side).map(|i| compute_line((i % side) as i32 - TABLE, (i / side) as i32 - TABLE)).collect()
    });
    let i = (dy + TABLE) as usize * side + (dx + TABLE) as usize;
    std::borrow::Cow::Borrowed(&lines[i])
}

/// The line from `(0, 0)` to `(dx, dy)`, field by field along it.
fn compute_line(dx: i32, dy: i32) -> Vec<(i8, i8, Touch)> {
    // Walk the longer axis; at each of its fields the line spans at most three of the other.
    let x_major = dx.abs() >= dy.abs();
    let (n, m) = if x_major { (dx, dy) } else { (dy, dx) };
    let (sn, sm) = (n.signum(), m.signum());
    let (n, m) = (n.abs(), m.abs());
    let origin = Pos::new(0, 0);
    let to = Pos::new(dx as i16, dy as i16);
    let mut out = Vec::new();
    for i in 0..=n {
        // The minor coordinate at the centre of major field i is i*m/n.
        let mid = if n == 0 { 0 } else { (i * m + n / 2) / n };
        for j in mid - 1..=mid + 1 {
            if j < 0 || j > m {
                continue;
            }
            let (a, b) = (i * sn, j * sm);
            let (x, y) = if x_major { (a, b) } else { (b, a) };
            let cell = Pos::new(x as i16, y as i16);
            if cell == origin || cell == to {
                continue;
            }
            if let Some(t) = touch(origin, to, cell) {
                out.push((x as i8, y as i8, t));
            }
        }
    }
    out
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
    fn relative_steps_turns_and_algebraic_fields() {
        assert_eq!(Facing::N.toward(Rel::Fl), (-1, 1));
        assert_eq!(Facing::E.toward(Rel::F), (1, 0));
        assert_eq!(Facing::E.toward(Rel::L), (0, 1));
        assert_eq!(Facing::S.toward(Rel::R), (-1, 0));
        assert_eq!(Facing::W.toward(Rel::Fr), (-1, 1));
        for f in Facing::ALL {
            for r in Rel::ALL {
                let (dx, dy) = f.toward(*r);
                let (fx, fy) = f.to_frame((i32::from(dx), i32::from(dy)));
                assert_eq!((fx as i16, fy as i16), r.frame(), "{f} {r}");
            }
            assert_eq!(f.turned(Turn::About).turned(Turn::About), *f);
            assert_eq!(f.turn_to(f.right()), Some(Turn::Right));
            assert_eq!(f.turn_to(*f), None);
        }
        assert_eq!(Facing::N.back_of(Pos::new(2, 2)), Pos::new(2, 1));
        assert_eq!(Pos::new(2, 3).algebraic().to_string(), "c4");
        assert_eq!(Pos::from_algebraic("c4"), Some(Pos::new(2, 3)));
        assert_eq!(Pos::from_algebraic("j10"), Some(Pos::new(9, 9)));
        for bad in ["c", "c0", "C4", "c04", "4c", "c123", "c-1"] {
            assert_eq!(Pos::from_algebraic(bad), None, "{bad}");
        }
        assert_eq!(Board { width: 2, height: 2 }.fields().count(), 4);
    }

    fn line(from: (i16, i16), to: (i16, i16)) -> Vec<((i16, i16), Touch)> {
        sight_line(Pos::new(from.0, from.1), Pos::new(to.0, to.1)).map(|(p, t)| ((p.x, p.y), t)).collect()
    }

    #[test]
    fn sight_lines_cross_fields_and_touch_corners() {
        use Touch::*;
        // Straight and diagonal lines.
        assert_eq!(line((0, 0), (0, 3)), [((0, 1), Through), ((0, 2), Through)]);
        assert_eq!(
            line((0, 0), (2, 2)),
            [((0, 1), Corner), ((1, 0), Corner), ((1, 1), Through), ((1, 2), Corner), ((2, 1), Corner)]
        );
        // Hunt Example 6: (0,0) to (2,3) crosses the Daemonspawn's field (1,2).
        let l = line((0, 0), (2, 3));
        assert!(l.contains(&((1, 2), Through)), "{l:?}");
        assert!(l.contains(&((1, 1), Through)));
        // Offset (1,3) only touches the corner shared by (0,1),(1,1),(0,2),(1,2).
        let l = line((0, 0), (1, 3));
        assert_eq!(l, [((0, 1), Through), ((1, 1), Corner), ((0, 2), Corner), ((1, 2), Through)]);
        // The same in every direction.
        assert_eq!(line((5, 5), (4, 2)).len(), 4);
        assert_eq!(line((3, 3), (3, 3)), []);
        assert_eq!(line((3, 3), (4, 4)), [((3, 4), Corner), ((4, 3), Corner)]);
        // Adjacent fields: nothing between.
        assert_eq!(line((3, 3), (3, 4)), []);
        // Hunt Example 6's back attack: from (2,-3) the line crosses the Back field (0,-1).
        assert_eq!(touch(Pos::new(0, 0), Pos::new(3, -2), Pos::new(0, -1)), None);
        assert_eq!(touch(Pos::new(0, 0), Pos::new(2, -3), Pos::new(0, -1)), Some(Through));
        assert_eq!(touch(Pos::new(0, 0), Pos::new(2, -2), Pos::new(0, -1)), Some(Corner));
        // Beyond the table, the same lines.
        assert_eq!(line((0, 0), (0, 20)).len(), 19);
        assert_eq!(sight_line(Pos::new(0, 0), Pos::new(3, 20)).count(), compute_line(3, 20).len());
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
