//! Attack resolution: what the dice assigned to one enemy do to its battle marker.
//!
//! The Shields module extends it into the reference card's full table (a shielded enemy turns
//! a correct set into a marker down, an incorrect set into a shield) and an active conspirator
//! may raise every requirement: it takes the enemy, the marker, the dice and those changes,
//! and says what the rules require, without touching the state.

use super::dice::{Color, ColorCounts};
use super::enemy::Enemy;

/// Why a marker stays where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Hold {
    /// No die shows the slot's number: the enemy was not attacked.
    NoDice,
    /// A set with fewer dice than the space above requires.
    TooFew,
    /// A set with enough dice but without the colors the space above requires.
    MissingColor,
    /// The marker is already on the top space (a defeat not yet resolved).
    AtTop,
    /// Shields: an incorrect set (too few dice or colors missing) against a shielded enemy.
    Shielded,
}

/// What the rules require of one battle marker this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Expected {
    Down,
    /// Up this many spaces: as far as the set's separate dice reach.
    Up(u8),
    Hold(Hold),
    /// Shields: a correct set against a shielded enemy moves its marker down one.
    Reflected,
    /// Shields: an incorrect set gives an unshielded enemy a shield.
    Shield,
    /// Shields: a single removes a shielded enemy's shield.
    Unshield,
}

/// What the modules change about one attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AttackMods {
    /// The Shields module is in play (the reference card's full table applies).
    pub shields: bool,
    /// The enemy carries a shield.
    pub shielded: bool,
    /// Every space needs this many more dice (an active conspirator's `require +N`).
    pub extra_count: u8,
}

/// Resolve the attack of `dice` (the dice showing this enemy's slot number, by color) on an
/// enemy whose marker is on `marker`.
pub fn resolve_attack(enemy: &Enemy, marker: u8, dice: ColorCounts) -> Expected {
    resolve_attack_with(enemy, marker, dice, AttackMods::default())
}

/// `resolve_attack` with the modules' changes: the reference card's attack resolution table.
///
/// | situation | result |
/// | --- | --- |
/// | single, shielded | remove the shield |
/// | single, unshielded | marker down |
/// | correct set, unshielded | marker up |
/// | correct set, shielded | marker down one (reflected) |
/// | incorrect set, unshielded | give the enemy a shield |
/// | incorrect set, shielded | no movement |
pub fn resolve_attack_with(enemy: &Enemy, marker: u8, dice: ColorCounts, m: AttackMods) -> Expected {
    let plain = match dice.total() {
        0 => Expected::Hold(Hold::NoDice),
        1 => Expected::Down,
        n => {
            if marker >= enemy.top() {
                return Expected::Hold(Hold::AtTop);
            }
            let spaces = spaces_with(enemy, marker, dice, m.extra_count);
            if spaces > 0 {
                Expected::Up(spaces)
            } else if n < enemy.requirement(marker + 1).count.saturating_add(m.extra_count) {
                Expected::Hold(Hold::TooFew)
            } else {
                Expected::Hold(Hold::MissingColor)
            }
        }
    };
    if !m.shields {
        return plain;
    }
    match (plain, m.shielded) {
        (Expected::Down, true) => Expected::Unshield,
        (Expected::Up(_), true) => Expected::Reflected,
        (Expected::Hold(Hold::TooFew | Hold::MissingColor), false) => Expected::Shield,
        (Expected::Hold(Hold::TooFew | Hold::MissingColor), true) => Expected::Hold(Hold::Shielded),
        (e, _) => e,
    }
}

/// The most spaces `avail` can move the marker up from `marker`, each space paid for with
/// separate dice. Which dice pay for the uncolored part of a requirement matters for later
/// spaces (a blue die spent early may be missing later), so every split is tried; sets hold
/// a handful of dice, so this stays tiny, and it allocates nothing.
pub fn max_spaces(enemy: &Enemy, marker: u8, avail: ColorCounts) -> u8 {
    spaces_with(enemy, marker, avail, 0)
}

/// `max_spaces` when every space needs `extra` more dice.
fn spaces_with(enemy: &Enemy, marker: u8, avail: ColorCounts, extra_count: u8) -> u8 {
    if marker >= enemy.top() {
        return 0;
    }
    let mut req = enemy.requirement(marker + 1);
    req.count = req.count.saturating_add(extra_count);
    if avail.total() < req.count || Color::COLORED.iter().any(|&c| avail.get(c) < req.colors.get(c)) {
        return 0;
    }
    let mut rem = avail;
    for c in Color::COLORED {
        rem.0[c.index()] -= req.colors.get(c);
    }
    let extra = req.count - req.colors.total();
    let reachable = enemy.top() - marker;
    // When no space above this one requires a color, which dice pay for this space's
    // uncolored part cannot matter later: only how many are left does. Paying the spaces in
    // order while the dice last is then the best split, found without trying them all
    // (the common case, and the one replay meets on almost every marker move).
    let above = (marker as usize + 2).min(enemy.track.len());
    if enemy.track[above..].iter().all(|r| r.colors.is_empty()) {
        let mut left = avail.total() - req.count;
        let mut best = 1;
        for space in marker + 2..=enemy.top() {
            let need = enemy.requirement(space).count.saturating_add(extra_count);
            if left < need {
                break;
            }
            left -= need;
            best += 1;
        }
        return best;
    }
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
                best = best.max(1 + spaces_with(enemy, marker + 1, left, extra_count));
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

    /// Every split tried at every space: the search `spaces_with` shortcuts.
    fn exhaustive(enemy: &Enemy, marker: u8, avail: ColorCounts, extra_count: u8) -> u8 {
        if marker >= enemy.top() {
            return 0;
        }
        let mut req = enemy.requirement(marker + 1);
        req.count = req.count.saturating_add(extra_count);
        if avail.total() < req.count || Color::COLORED.iter().any(|&c| avail.get(c) < req.colors.get(c)) {
            return 0;
        }
        let mut rem = avail;
        for c in Color::COLORED {
            rem.0[c.index()] -= req.colors.get(c);
        }
        let extra = req.count - req.colors.total();
        let [w, g, y, b] = rem.0;
        let mut best = 1;
        for uw in 0..=w.min(extra) {
            for ug in 0..=g.min(extra - uw) {
                for uy in 0..=y.min(extra - uw - ug) {
                    let ub = extra - uw - ug - uy;
                    if ub <= b {
                        let left = ColorCounts([w - uw, g - ug, y - uy, b - ub]);
                        best = best.max(1 + exhaustive(enemy, marker + 1, left, extra_count));
                    }
                }
            }
        }
        best
    }

    #[test]
    fn the_shortcut_agrees_with_trying_every_split() {
        let cards = match super::super::catalog::parse_full_catalog(super::super::catalog::ILLUSTRATIVE) {
            Ok(c) => c.enemies,
            Err(e) => panic!("{e:?}"),
        };
        let mut checked = 0;
        for en in cards.iter().chain([enemy("B *2 2 2"), enemy("B 2 *2 2g 3"), enemy("B *2 2b 2 2")].iter()) {
            for marker in 0..=en.top() {
                for extra in 0..2 {
                    for w in 0..7u8 {
                        for g in 0..2u8 {
                            for y in 0..2u8 {
                                for b in 0..2u8 {
                                    let avail = ColorCounts([w, g, y, b]);
                                    assert_eq!(
                                        spaces_with(en, marker, avail, extra),
                                        exhaustive(en, marker, avail, extra),
                                        "{} marker {marker} +{extra} {avail:?}",
                                        en.id
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn the_reference_cards_attack_table_with_shields() {
        let e = enemy("B 2 *2 2g 3");
        let on = |shielded| AttackMods { shields: true, shielded, extra_count: 0 };
        let dice = |w, g| ColorCounts([w, g, 0, 0]);
        assert_eq!(resolve_attack_with(&e, 2, dice(1, 0), on(true)), Expected::Unshield);
        assert_eq!(resolve_attack_with(&e, 2, dice(1, 0), on(false)), Expected::Down);
        assert_eq!(resolve_attack_with(&e, 2, dice(1, 1), on(false)), Expected::Up(1));
        assert_eq!(resolve_attack_with(&e, 2, dice(1, 1), on(true)), Expected::Reflected);
        assert_eq!(resolve_attack_with(&e, 2, dice(2, 0), on(false)), Expected::Shield);
        assert_eq!(resolve_attack_with(&e, 2, dice(2, 0), on(true)), Expected::Hold(Hold::Shielded));
        assert_eq!(resolve_attack_with(&e, 2, dice(0, 0), on(true)), Expected::Hold(Hold::NoDice));
        // A conspirator's `require +1`: two dice no longer make the 2g space.
        let more = AttackMods { extra_count: 1, ..AttackMods::default() };
        assert_eq!(resolve_attack_with(&e, 2, dice(1, 1), more), Expected::Hold(Hold::TooFew));
        assert_eq!(resolve_attack_with(&e, 2, dice(2, 1), more), Expected::Up(1));
    }
}
