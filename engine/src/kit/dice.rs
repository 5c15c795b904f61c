//! Dice: checking a recorded roll against its pool, a modifier applied to every use of a
//! roll, and dice with symbols instead of numbers.
//!
//! **Order within a roll is not a fact.** A [`Roll`] keeps its dice highest first, however
//! they were typed or decoded, so two logs that list the same dice in another order are the
//! same log (equal events, equal states, no split). A game whose dice are told apart (by
//! colour, by position) keeps its own type.
//!
//! A [`Modified`] roll is the one view of a roll with its modifier: the highest die, the
//! dice reaching a number, and the comparison of two rolls die by die all go through it, so
//! a modifier (an ailment's -1, a bonus) cannot be forgotten at one use and applied at another.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::cmp::Ordering;
use std::fmt;

/// The dice of a roll, kept inline up to 16 (no allocation to decode, copy or drop a roll;
/// a longer recorded roll spills to the heap). Encoded as a sequence, exactly as a `Vec<u8>`.
type Dice = SmallVec<[u8; 16]>;

/// Numeric dice, highest first.
#[derive(Debug, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(from = "Dice")]
pub struct Roll(Dice);

impl Clone for Roll {
    /// A copy of the bytes (`SmallVec`'s own `clone` goes die by die).
    fn clone(&self) -> Roll {
        Roll(Dice::from_slice(&self.0))
    }
}

impl Serialize for Roll {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl From<Dice> for Roll {
    fn from(mut dice: Dice) -> Roll {
        dice.sort_unstable_by(|a, b| b.cmp(a));
        Roll(dice)
    }
}

impl From<Vec<u8>> for Roll {
    fn from(dice: Vec<u8>) -> Roll {
        Roll::from(Dice::from_slice(&dice))
    }
}

impl FromIterator<u8> for Roll {
    fn from_iter<I: IntoIterator<Item = u8>>(dice: I) -> Roll {
        Roll::from(dice.into_iter().collect::<Dice>())
    }
}

impl From<Roll> for Vec<u8> {
    fn from(r: Roll) -> Vec<u8> {
        r.0.into_vec()
    }
}

impl Roll {
    pub fn new(dice: Vec<u8>) -> Roll {
        Roll::from(dice)
    }
    /// The dice, highest first.
    pub fn dice(&self) -> &[u8] {
        &self.0
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The first die outside `1..=sides`, if any.
    pub fn off_die(&self, sides: u8) -> Option<u8> {
        self.0.iter().copied().find(|d| !(1..=sides).contains(d))
    }
    /// Replace one die showing `from` by `to` (a reroll); `false` when none shows `from`.
    pub fn reroll(&mut self, from: u8, to: u8) -> bool {
        match self.0.iter().position(|&d| d == from) {
            Some(i) => {
                self.0[i] = to;
                self.0.sort_unstable_by(|a, b| b.cmp(a));
                true
            }
            None => false,
        }
    }
    /// The roll with `modifier` on every die.
    pub fn with(&self, modifier: i32) -> Modified<'_> {
        Modified { roll: self, modifier }
    }
}

impl fmt::Display for Roll {
    /// The dice separated by spaces, highest first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A roll seen with a modifier on every die.
#[derive(Debug, Clone, Copy)]
pub struct Modified<'a> {
    roll: &'a Roll,
    modifier: i32,
}

impl Modified<'_> {
    /// Each die after the modifier, highest first.
    pub fn values(&self) -> impl Iterator<Item = i32> + '_ {
        self.roll.0.iter().map(move |&d| i32::from(d).saturating_add(self.modifier))
    }
    /// The highest die after the modifier (0 for no dice).
    pub fn highest(&self) -> i32 {
        self.values().next().unwrap_or(0)
    }
    /// How many dice reach `n` after the modifier.
    pub fn reaching(&self, n: i32) -> usize {
        self.values().filter(|&v| v >= n).count()
    }
    /// Compare two rolls die by die, highest first, after their modifiers ("comparing
    /// second highest and lower dice if higher values match"); a roll that runs out of dice
    /// first is lower.
    pub fn compare(&self, other: &Modified<'_>) -> Ordering {
        self.values().cmp(other.values())
    }
    /// Compare two rolls die by die, highest first, after their modifiers, only as far as
    /// both have dice: a roll with dice left over once every pair matched is equal to the
    /// other, not higher (for a game that reads unequal rolls matching that far as a tie).
    pub fn compare_paired(&self, other: &Modified<'_>) -> Ordering {
        self.values()
            .zip(other.values())
            .map(|(a, b)| a.cmp(&b))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

/// Whether a recorded number of dice is the pool's (`Err` says what it should be).
pub fn check_count(rolled: usize, pool: usize) -> Result<(), String> {
    if rolled == pool {
        Ok(())
    } else {
        Err(format!("{pool} dice, not {rolled}"))
    }
}

/// Dice whose faces are symbols (`Success`, `Special`, `Blank`): a die is its faces, a roll
/// is the symbols shown, and what counts is how many of each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolRoll<S>(pub Vec<S>);

impl<S: Copy + PartialEq> SymbolRoll<S> {
    /// How many dice show `symbol`.
    pub fn count(&self, symbol: S) -> usize {
        self.0.iter().filter(|&&s| s == symbol).count()
    }
    /// Whether every symbol is a face of `die` (a die's six faces, say).
    pub fn on_faces(&self, die: &[S]) -> bool {
        self.0.iter().all(|s| die.contains(s))
    }
    /// Replace one die showing `from` by `to`; `false` when none shows `from`.
    pub fn reroll(&mut self, from: S, to: S) -> bool {
        match self.0.iter().position(|&s| s == from) {
            Some(i) => {
                self.0[i] = to;
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_within_a_roll_is_not_a_fact() {
        let a = Roll::new(vec![4, 9, 1, 8]);
        let b = Roll::new(vec![9, 8, 4, 1]);
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "9 8 4 1");
        let config = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec(vec![1u8, 5, 3], config).unwrap();
        let (decoded, _): (Roll, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert_eq!(decoded.dice(), &[5, 3, 1]);
        // Encoded exactly as the dice as a `Vec<u8>` (highest first), inline or spilled.
        assert_eq!(bincode::serde::encode_to_vec(&decoded, config).unwrap(), {
            bincode::serde::encode_to_vec(vec![5u8, 3, 1], config).unwrap()
        });
        let many: Roll = (0..40u8).collect();
        let bytes = bincode::serde::encode_to_vec(&many, config).unwrap();
        assert_eq!(bytes, bincode::serde::encode_to_vec(Vec::from(many.clone()), config).unwrap());
        let (back, _): (Roll, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert_eq!((back.len(), back.dice()[0], back), (40, 39, many));
    }

    #[test]
    fn a_modifier_applies_to_every_use() {
        let mut r = Roll::new(vec![9, 8, 4, 1]);
        assert_eq!(r.with(-1).highest(), 8);
        assert_eq!(r.with(1).reaching(9), 2);
        assert!(r.reroll(9, 6));
        assert_eq!(r.dice(), &[8, 6, 4, 1]);
        assert!(!r.reroll(10, 2));
        // Tie-break: 7 2 Dazzled (6 1) loses to 6 5 on the second die.
        let a = Roll::new(vec![7, 2]);
        let b = Roll::new(vec![6, 5]);
        assert_eq!(a.with(-1).compare(&b.with(0)), Ordering::Less);
        assert_eq!(a.with(0).compare(&b.with(0)), Ordering::Greater);
        // Unequal numbers of dice: the one that runs out first is lower, or paired only as far
        // as both go (8 3 against 8: equal).
        let (long, short) = (Roll::new(vec![8, 3]), Roll::new(vec![8]));
        assert_eq!(short.with(0).compare(&long.with(0)), Ordering::Less);
        assert_eq!(short.with(0).compare_paired(&long.with(0)), Ordering::Equal);
        assert_eq!(long.with(0).compare_paired(&Roll::new(vec![9]).with(0)), Ordering::Less);
        assert_eq!(a.with(-1).compare_paired(&b.with(0)), Ordering::Less);
        assert_eq!(Roll::new(vec![3, 11]).off_die(10), Some(11));
        assert!(check_count(2, 3).is_err() && check_count(3, 3).is_ok());
        assert_eq!(Roll::default().with(5).highest(), 0);
    }

    #[test]
    fn symbol_dice_count_their_faces() {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum Face {
            Success,
            Special,
            Blank,
        }
        let die = [Face::Success, Face::Success, Face::Special, Face::Blank, Face::Blank, Face::Blank];
        let mut r = SymbolRoll(vec![Face::Success, Face::Blank, Face::Special]);
        assert!(r.on_faces(&die));
        assert_eq!(r.count(Face::Success), 1);
        assert!(r.reroll(Face::Blank, Face::Success));
        assert_eq!(r.count(Face::Success), 2);
    }
}
