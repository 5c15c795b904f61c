//! The city's geometry: 21 tiles in 6 lines and the Dragon's Castle above them.
//!
//! Tiles are named by territory, line within the territory and position from the left:
//! `O1a`-`O1d` (the Outskirts' bottom line of 4), `O2a`-`O2c` (its line of 3), then `V1`,
//! `V2`, `W1`, `W2` the same way, and `castle`. Counted from the bottom the lines are 1 to 6
//! and the Castle is line 7. Line sizes alternate 4, 3 (the book pins only the Wastelands'
//! upper line of 3, l.176): a tile of a line of 4 at position i touches the tiles i-1 and i
//! of the line of 3 above it, a tile of a line of 3 at position j touches the tiles j and
//! j+1 of the line of 4 above it, and neighbours in a line touch. The Castle touches the 3
//! upper Wastelands tiles (l.176).

use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// The three territories, bottom up.
    pub enum Territory ("a territory") { Outskirts = "outskirts", Valley = "valley", Wastelands = "wastelands" }
}

impl Territory {
    /// The letter of its tile names.
    pub const fn letter(self) -> char {
        match self {
            Territory::Outskirts => 'O',
            Territory::Valley => 'V',
            Territory::Wastelands => 'W',
        }
    }
    /// Its 7 tiles, bottom line first.
    pub fn tiles(self) -> impl Iterator<Item = Tile> {
        let first = self.index() as u8 * 7;
        (first..first + 7).map(Tile)
    }
}

/// The number of city tiles.
pub const TILES: usize = 21;
/// The first tile of each line (1-6), and the end.
const LINE_START: [u8; 7] = [0, 4, 7, 11, 14, 18, 21];
/// The Castle's line.
pub const CASTLE_LINE: u8 = 7;
/// The line of each tile, the Castle's last (built from `LINE_START` at compile time).
const LINE_OF: [u8; TILES + 1] = {
    let mut out = [CASTLE_LINE; TILES + 1];
    let (mut t, mut line) = (0, 0);
    while t < TILES {
        while LINE_START[line + 1] as usize <= t {
            line += 1;
        }
        out[t] = line as u8 + 1;
        t += 1;
    }
    out
};

/// A city tile (0-20) or the Castle (21). Read back from storage only within that range.
/// The geometry's answers, worked out once at compile time from the line sizes (see the
/// module doc): for each tile (and the Castle, last), the tiles it touches above it
/// (`ABOVE`) and all the tiles it touches (`ADJACENT`), a bit per tile.
const fn line_of(t: usize) -> u8 {
    LINE_OF[t]
}
const fn position_of(t: usize) -> u8 {
    if t == TILES {
        0
    } else {
        t as u8 - LINE_START[line_of(t) as usize - 1]
    }
}
const fn touches_above(a: usize, b: usize) -> bool {
    let line = line_of(a);
    if line_of(b) != line + 1 {
        return false;
    }
    if b == TILES {
        return line == 6;
    }
    let (i, j) = (position_of(a) as i16, position_of(b) as i16);
    if line % 2 == 1 {
        // A line of 4 under a line of 3.
        j == i - 1 || j == i
    } else {
        j == i || j == i + 1
    }
}
const fn adjacent(a: usize, b: usize) -> bool {
    if a == b {
        return false;
    }
    if line_of(a) == line_of(b) {
        return a != TILES && position_of(a).abs_diff(position_of(b)) == 1;
    }
    touches_above(a, b) || touches_above(b, a)
}
const ABOVE: [u32; TILES + 1] = table(false);
const ADJACENT: [u32; TILES + 1] = table(true);
/// `touches_above` (or, with `any`, `adjacent`) as a bit set per tile.
const fn table(any: bool) -> [u32; TILES + 1] {
    let mut out = [0u32; TILES + 1];
    let mut a = 0;
    while a <= TILES {
        let mut b = 0;
        while b <= TILES {
            if (any && adjacent(a, b)) || (!any && touches_above(a, b)) {
                out[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Tile(pub u8);

impl TryFrom<u8> for Tile {
    type Error = String;
    fn try_from(n: u8) -> Result<Tile, String> {
        if usize::from(n) <= TILES {
            Ok(Tile(n))
        } else {
            Err(format!("{n} is no tile (0-{TILES})"))
        }
    }
}

impl From<Tile> for u8 {
    fn from(t: Tile) -> u8 {
        t.0
    }
}

impl Tile {
    pub const CASTLE: Tile = Tile(TILES as u8);

    pub fn all() -> impl Iterator<Item = Tile> {
        (0..TILES as u8).map(Tile)
    }
    pub fn is_castle(self) -> bool {
        self == Tile::CASTLE
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// Its line, 1 (the Outskirts' bottom) to 7 (the Castle).
    pub fn line(self) -> u8 {
        // A table, not a search: the step asks for lines on every raid, fire and spot.
        LINE_OF.get(self.index()).copied().unwrap_or(CASTLE_LINE)
    }
    /// Its position in its line from the left, 0-based.
    pub fn position(self) -> u8 {
        if self.is_castle() {
            return 0;
        }
        self.0 - LINE_START[self.line() as usize - 1]
    }
    pub fn territory(self) -> Option<Territory> {
        (!self.is_castle()).then(|| Territory::ALL[(self.line() as usize - 1) / 2])
    }
    /// The tiles of a line (1-6), left to right; the Castle for line 7.
    pub fn line_tiles(line: u8) -> impl Iterator<Item = Tile> {
        let (a, b) = Tile::line_range(line);
        (a..b).map(Tile)
    }
    /// The tile numbers of a line, as a range (empty for no line).
    fn line_range(line: u8) -> (u8, u8) {
        match line {
            1..=6 => (LINE_START[line as usize - 1], LINE_START[line as usize]),
            7 => (TILES as u8, TILES as u8 + 1),
            _ => (0, 0),
        }
    }
    /// The tile at a Retaliation card's relative position (`1a`: the territory's bottom line,
    /// first tile).
    pub fn relative(territory: Territory, row: u8, position: u8) -> Option<Tile> {
        let line = territory.index() as u8 * 2 + row;
        let (a, b) = Tile::line_range(line);
        let t = u16::from(a) + u16::from(position);
        (t < u16::from(b)).then_some(Tile(t as u8))
    }
    /// Whether `above` is in the next line up and touches this tile.
    pub fn touches_above(self, above: Tile) -> bool {
        // A table, not arithmetic: raids and fire ask on every placement.
        ABOVE.get(self.index()).is_some_and(|&m| above.0 <= TILES as u8 && m & (1 << above.0) != 0)
    }
    /// Whether two tiles touch: neighbours in a line, or one above the other.
    pub fn adjacent(self, other: Tile) -> bool {
        ADJACENT.get(self.index()).is_some_and(|&m| other.0 <= TILES as u8 && m & (1 << other.0) != 0)
    }
    /// The tiles (and the Castle) next to this one, a bit per tile.
    pub fn neighbours(self) -> u32 {
        ADJACENT.get(self.index()).copied().unwrap_or(0)
    }
    pub fn name(self) -> String {
        self.to_string()
    }
    /// Read a tile name.
    pub fn parse(word: &str) -> Option<Tile> {
        if word == "castle" {
            return Some(Tile::CASTLE);
        }
        let mut c = word.chars();
        let territory = match c.next()? {
            'O' => Territory::Outskirts,
            'V' => Territory::Valley,
            'W' => Territory::Wastelands,
            _ => return None,
        };
        let row = match c.next()? {
            '1' => 1,
            '2' => 2,
            _ => return None,
        };
        let position = c.next()?;
        if c.next().is_some() || !position.is_ascii_lowercase() {
            return None;
        }
        Tile::relative(territory, row, position as u8 - b'a')
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.territory() {
            None => f.write_str("castle"),
            Some(t) => {
                let row = (self.line() - 1) % 2 + 1;
                write!(f, "{}{}{}", t.letter(), row, (b'a' + self.position()) as char)
            }
        }
    }
}

/// A set of tiles (bit per tile, bit 21 the Castle).
pub type Tiles = u32;

pub fn tiles_of(mask: Tiles) -> impl Iterator<Item = Tile> {
    let mut left = mask & ((1 << (TILES + 1)) - 1);
    std::iter::from_fn(move || {
        let t = first(left)?;
        left &= left - 1;
        Some(t)
    })
}
/// The tiles of a territory (its two lines).
pub fn territory_tiles(terr: Territory) -> Tiles {
    // A territory's two lines are 7 tiles in a row (`Territory::tiles`).
    0x7F << (terr.index() * 7)
}
pub fn first(mask: Tiles) -> Option<Tile> {
    (mask != 0).then(|| Tile(mask.trailing_zeros() as u8))
}
pub fn has(mask: Tiles, t: Tile) -> bool {
    t.0 <= TILES as u8 && mask & (1 << t.0) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lines_and_adjacency() {
        for t in Tile::all().chain([Tile::CASTLE]) {
            assert_eq!(Tile::parse(&t.to_string()), Some(t));
        }
        assert_eq!(Tile::parse("O1e"), None);
        assert_eq!(Tile::parse("O2d"), None);
        let t = |s: &str| Tile::parse(s).unwrap();
        assert_eq!((t("O1a").line(), t("O2c").line(), t("W2b").line(), Tile::CASTLE.line()), (1, 2, 6, 7));
        assert_eq!(t("V1c").territory(), Some(Territory::Valley));
        // FE1: the Outskirts' top-left tile sits on the two bottom-left tiles.
        assert!(t("O1a").touches_above(t("O2a")) && t("O1b").touches_above(t("O2a")));
        assert!(!t("O1c").touches_above(t("O2a")));
        assert!(t("O2c").touches_above(t("V1d")) && t("O2c").touches_above(t("V1c")));
        assert!(t("W2a").touches_above(Tile::CASTLE) && !t("W1a").touches_above(Tile::CASTLE));
        assert!(t("O1a").adjacent(t("O1b")) && t("O2a").adjacent(t("O1b")) && !t("O1a").adjacent(t("O1c")));
        assert_eq!(Tile::line_tiles(5).count(), 4);
        assert_eq!(Tile::relative(Territory::Valley, 2, 0), Some(t("V2a")));
        assert_eq!(
            (Tile::relative(Territory::Valley, 2, 2), Tile::relative(Territory::Valley, 2, 3)),
            (Some(t("V2c")), None)
        );
        assert_eq!(Tile::relative(Territory::Wastelands, 3, 0), Some(Tile::CASTLE));
        // A territory is 7 tiles in a row (what masks of a territory count on).
        for terr in Territory::ALL {
            let lines: Vec<Tile> = Tile::line_tiles(terr.index() as u8 * 2 + 1)
                .chain(Tile::line_tiles(terr.index() as u8 * 2 + 2))
                .collect();
            assert_eq!(lines, terr.tiles().collect::<Vec<_>>());
        }
        // The tables say what the geometry of the module doc says.
        let all = || Tile::all().chain([Tile::CASTLE]);
        for a in all() {
            for b in all() {
                let above = b.line() == a.line() + 1
                    && if b.is_castle() {
                        a.line() == 6
                    } else if a.line() % 2 == 1 {
                        b.position() + 1 == a.position() || b.position() == a.position()
                    } else {
                        b.position() == a.position() || b.position() == a.position() + 1
                    };
                assert_eq!(a.touches_above(b), above, "{a} under {b}");
                let beside = a != b
                    && a.line() == b.line()
                    && !a.is_castle()
                    && a.position().abs_diff(b.position()) == 1;
                assert_eq!(a.adjacent(b), beside || above || b.touches_above(a), "{a} by {b}");
            }
        }
        // From storage: only tiles that exist.
        let config = bincode::config::standard();
        let read = |n: u8| bincode::serde::decode_from_slice::<Tile, _>(&[n], config).map(|(t, _)| t);
        assert_eq!(read(21).ok(), Some(Tile::CASTLE));
        assert!(read(22).is_err());
    }
}
