//! Attack resolution: what the dice assigned to one enemy do to its battle marker.
//!
//! This is the seam the Shields module will extend (a shielded enemy turns a correct set
//! into a marker down, an incorrect set into a shield): it takes the enemy, the marker and
//! the dice, and says what the rules require, without touching the state.

use super::dice::{Color, ColorCounts};
use super::enemy::Enemy;

/// Why a marker stays where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// No die shows the slot's number: the enemy was not attacked.
    NoDice,
    /// A set with fewer dice than the space above requires.
    TooFew,
    /// A set with enough dice but without the colors the space above requires.
    MissingColor,
    /// The marker is already on the top space (a defeat not yet resolved).
    AtTop,
}

/// What the rules require of one battle marker this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Down,
    /// Up this many spaces: as far as the set's separate dice reach.
    Up(u8),
    Hold(Hold),
}

/// Resolve the attack of `dice` (the dice showing this enemy's slot number, by color) on an
/// enemy whose marker is on `marker`.
pub fn resolve_attack(enemy: &Enemy, marker: u8, dice: ColorCounts) -> Expected {
    match dice.total() {
        0 => Expected::Hold(Hold::NoDice),
        1 => Expected::Down,
        n => {
            if marker >= enemy.top() {
                return Expected::Hold(Hold::AtTop);
            }
            let spaces = max_spaces(enemy, marker, dice);
            if spaces > 0 {
                Expected::Up(spaces)
            } else if n < enemy.requirement(marker + 1).count {
                Expected::Hold(Hold::TooFew)
            } else {
                Expected::Hold(Hold::MissingColor)
            }
        }
    }
}

/// The most spaces `avail` can move the marker up from `marker`, each space paid for with
/// separate dice. Which dice pay for the uncolored part of a requirement matters for later
/// spaces (a blue die spent early may be missing later), so every split is tried; sets hold
/// a handful of dice, so this stays tiny, and it allocates nothing.
pub fn max_spaces(enemy: &Enemy, marker: u8, avail: ColorCounts) -> u8 {
    if marker >= enemy.top() {
        return 0;
    }
    let req = enemy.requirement(marker + 1);
    if avail.total() < req.count || Color::COLORED.iter().any(|&c| avail.get(c) < req.colors.get(c)) {
        return 0;
    }
    let mut rem = avail;
    for c in Color::COLORED {
        rem.0[c.index()] -= req.colors.get(c);
    }
    let extra = req.count - req.colors.total();
    let reachable = enemy.top() - marker;
    let mut best = 1;
    let [w, g, y, b] = rem.0;
    for uw in (0..=w.min(extra)).rev() {
        for ug in 0..=g.min(extra - uw) {
            for uy in 0..=y.min(extra - uw - ug) {
                let ub = extra - uw - ug - uy;
                if ub > b {
                    continue;
                }
                let left = ColorCounts([w - uw, g - ug, y - uy, b - ub]);
                best = best.max(1 + max_spaces(enemy, marker + 1, left));
                if best == reachable {
                    return best;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::catalog::parse_catalog;
    use super::*;

    fn enemy(track: &str) -> Enemy {
        let text = format!(
            "x | X | {track} | - | -\na | A | B *2 2 | - | -\nb | B | B *2 2 | - | -\n\
             c | C | B *2 2 | - | -\nd | D | B *2 2 | - | -\ne | E | B *2 2 | - | -"
        );
        match parse_catalog(&text) {
            Ok(mut v) => v.remove(0),
            Err(e) => panic!("{e:?}"),
        }
    }

    #[track_caller]
    fn resolves(track: &str, w: u8, g: u8, y: u8, b: u8, expected: Expected) {
        let e = enemy(track);
        assert_eq!(
            resolve_attack(&e, e.start, ColorCounts([w, g, y, b])),
            expected,
            "{track} w{w} g{g} y{y} b{b}"
        );
    }

    #[test]
    fn attacks_resolve_as_the_rulebook_says() {
        resolves("B 2 *2 2", 0, 0, 0, 0, Expected::Hold(Hold::NoDice));
        resolves("B 2 *2 2", 1, 0, 0, 0, Expected::Down);
        resolves("B 2 *2 2", 0, 1, 0, 0, Expected::Down);
        resolves("B 2 *2 2", 2, 0, 0, 0, Expected::Up(1));
        resolves("B 2 *2 3 3", 2, 0, 0, 0, Expected::Hold(Hold::TooFew));
        resolves("B 2 *2 2g 3", 2, 0, 0, 0, Expected::Hold(Hold::MissingColor));
        resolves("B 2 *2 2g 3", 1, 1, 0, 0, Expected::Up(1));
        resolves("B 2 *3 3b", 2, 0, 0, 1, Expected::Up(1));
        // Multiple spaces need separate dice for each.
        resolves("B *2 2 2", 3, 0, 0, 0, Expected::Up(1));
        resolves("B *2 2 2", 4, 0, 0, 0, Expected::Up(2));
        resolves("B *2 2 2", 9, 0, 0, 0, Expected::Up(2));
        // The blue die must be kept for the second space: spending it on the first loses a space.
        resolves("B *2 2 2b", 1, 0, 0, 1, Expected::Up(1));
        resolves("B *2 2 2b", 2, 1, 0, 1, Expected::Up(2));
        resolves("B *2 2 2b", 0, 2, 1, 1, Expected::Up(2));
    }
}
