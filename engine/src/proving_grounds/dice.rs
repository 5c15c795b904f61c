//! Attack dice: a color, a face, and a small fixed-size collection of them.
//!
//! The pool never holds more than the box's 14 attack dice, so dice live in a fixed array
//! with a length: stepping an event never allocates, and two pools holding the same dice
//! compare equal because they are kept sorted.

use crate::kit::named::named_enum;
use serde::de::{SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The most dice any collection can hold: every attack die in the box.
pub const MAX_DICE: usize = 14;

named_enum! {
    /// The color of an attack die, named by its notation letter. White dice are
    /// interchangeable; each colored die may be required by a space of an enemy's battle track.
    #[derive(Default)]
    pub enum Color ("a color (w white, g green, y yellow, b blue)") {
        #[default]
        White = "w",
        Green = "g",
        Yellow = "y",
        Blue = "b",
    }
}

impl Color {
    pub const COLORED: [Color; 3] = [Color::Green, Color::Yellow, Color::Blue];

    /// The suffix a die value carries in notation (white has none).
    pub fn suffix(self) -> &'static str {
        match self {
            Color::White => "",
            c => c.name(),
        }
    }

    /// The color a notation letter names, read a byte at a time.
    pub fn from_letter(b: u8) -> Option<Color> {
        Color::ALL.iter().copied().find(|c| c.name().as_bytes() == [b])
    }

    /// The color's word in messages: `white`, `green`, `yellow`, `blue`.
    pub fn word(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Green => "green",
            Color::Yellow => "yellow",
            Color::Blue => "blue",
        }
    }
}

/// How many dice of each color (indexed by `Color::index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ColorCounts(pub [u8; 4]);

impl ColorCounts {
    pub fn get(&self, c: Color) -> u8 {
        self.0[c.index()]
    }
    pub fn add(&mut self, c: Color) {
        self.0[c.index()] = self.0[c.index()].saturating_add(1);
    }
    pub fn total(&self) -> u8 {
        self.0.iter().sum()
    }
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
    /// Both counts together.
    pub fn plus(self, other: ColorCounts) -> ColorCounts {
        ColorCounts(std::array::from_fn(|k| self.0[k].saturating_add(other.0[k])))
    }
    /// The dice of `self` that `other` does not have, color by color.
    pub fn minus(self, other: ColorCounts) -> ColorCounts {
        ColorCounts(std::array::from_fn(|k| self.0[k].saturating_sub(other.0[k])))
    }
}

impl fmt::Display for ColorCounts {
    /// `w w g`, or `-` when empty; in words with `{:#}`: `2 white, 1 green`, or `no dice`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            let mut first = true;
            for &c in Color::ALL.iter().filter(|&&c| self.get(c) > 0) {
                if !first {
                    f.write_str(", ")?;
                }
                first = false;
                write!(f, "{} {}", self.get(c), c.word())?;
            }
            if first {
                f.write_str("no dice")?;
            }
            return Ok(());
        }
        let mut first = true;
        for &c in Color::ALL {
            for _ in 0..self.get(c) {
                if !first {
                    f.write_str(" ")?;
                }
                first = false;
                f.write_str(c.name())?;
            }
        }
        if first {
            f.write_str("-")?;
        }
        Ok(())
    }
}

/// One die: its color and the face it shows (0 while it has not been rolled since it
/// returned to the pool).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Die {
    pub value: u8,
    pub color: Color,
}

impl Die {
    pub fn new(value: u8, color: Color) -> Die {
        Die { value, color }
    }
}

impl fmt::Display for Die {
    /// `5`, `6b`; an unrolled die shows `?` for its face.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value == 0 {
            write!(f, "?{}", self.color.suffix())
        } else {
            write!(f, "{}{}", self.value, self.color.suffix())
        }
    }
}

/// Up to `MAX_DICE` dice in a fixed array. Slots past `len` are always `Die::default()`,
/// so the encoding sees only the dice.
///
/// Dice are a multiset: the order a line lists them in is not a fact (a roll throws them
/// all at once), so two collections of the same dice in another order are equal, and two
/// logs that differ only in that order are the same game. A collection keeps the order it
/// was written in (`Display` and the encoding show it); a pool is kept sorted.
#[derive(Clone, Copy, Default)]
pub struct Dice {
    len: u8,
    dice: [Die; MAX_DICE],
}

impl Dice {
    pub fn new() -> Dice {
        Dice::default()
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len() == MAX_DICE
    }

    /// Add a die; `false` (and nothing added) when the collection is full.
    pub fn push(&mut self, die: Die) -> bool {
        if self.is_full() {
            return false;
        }
        self.dice[self.len()] = die;
        self.len += 1;
        true
    }

    pub fn as_slice(&self) -> &[Die] {
        &self.dice[..self.len()]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Die] {
        let n = self.len();
        &mut self.dice[..n]
    }

    /// Remove the die at `index`, keeping the order of the others.
    pub fn remove(&mut self, index: usize) -> Option<Die> {
        if index >= self.len() {
            return None;
        }
        let die = self.dice[index];
        let n = self.len();
        self.dice.copy_within(index + 1..n, index);
        self.len -= 1;
        self.dice[self.len()] = Die::default();
        Some(die)
    }

    /// The index of the first die matching `pred`.
    pub fn position(&self, pred: impl Fn(&Die) -> bool) -> Option<usize> {
        self.as_slice().iter().position(pred)
    }

    /// Sort by face then color: the canonical order of a pool.
    #[inline]
    pub fn sort(&mut self) {
        // Insertion sort: at most 14 elements, no allocation, and a pool is nearly sorted
        // when it is sorted again (only the rerolled or added dice moved), so it costs about
        // one comparison a die.
        let s = self.as_mut_slice();
        for i in 1..s.len() {
            let mut j = i;
            while j > 0 && s[j - 1] > s[j] {
                s.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// How many dice of each color.
    #[inline]
    pub fn colors(&self) -> ColorCounts {
        let mut c = ColorCounts::default();
        for d in self.as_slice() {
            c.add(d.color);
        }
        c
    }

    /// The dice showing `face`, counted by color.
    #[inline]
    pub fn colors_showing(&self, face: u8) -> ColorCounts {
        // Counted without a branch per die: every marker move asks this of the whole pool.
        let mut c = [0u8; 4];
        for d in self.as_slice() {
            c[d.color.index()] += u8::from(d.value == face);
        }
        ColorCounts(c)
    }

    /// How many dice show each face (index 0 counts unrolled dice).
    pub fn faces(&self) -> [u8; 7] {
        let mut n = [0u8; 7];
        for d in self.as_slice() {
            n[(d.value as usize).min(6)] += 1;
        }
        n
    }

    pub fn iter(&self) -> impl Iterator<Item = &Die> {
        self.as_slice().iter()
    }
}

impl PartialEq for Dice {
    fn eq(&self, other: &Dice) -> bool {
        if self.len != other.len {
            return false;
        }
        // Pools are kept sorted, so the common case is settled without sorting.
        if self.as_slice() == other.as_slice() {
            return true;
        }
        let (mut a, mut b) = (*self, *other);
        a.sort();
        b.sort();
        a.as_slice() == b.as_slice()
    }
}

impl Eq for Dice {}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dice[{self}]")
    }
}

impl fmt::Display for Dice {
    /// Space-separated dice in stored order, `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, d) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl Serialize for Dice {
    /// A plain sequence of dice: readable in JSON, and bincode round-trips it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for d in self.iter() {
            seq.serialize_element(d)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Dice, D::Error> {
        struct DiceVisitor;
        impl<'de> Visitor<'de> for DiceVisitor {
            type Value = Dice;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a sequence of at most {MAX_DICE} dice")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dice, A::Error> {
                let mut dice = Dice::new();
                while let Some(d) = seq.next_element::<Die>()? {
                    if !dice.push(d) {
                        return Err(serde::de::Error::invalid_length(MAX_DICE + 1, &self));
                    }
                }
                Ok(dice)
            }
        }
        deserializer.deserialize_seq(DiceVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_stay_canonical_when_sorted_and_removed() {
        let mut a = Dice::new();
        for d in [Die::new(6, Color::Blue), Die::new(1, Color::White), Die::new(6, Color::White)] {
            assert!(a.push(d));
        }
        a.sort();
        assert_eq!(a.to_string(), "1 6 6b");
        assert_eq!(a.remove(0), Some(Die::new(1, Color::White)));
        let mut b = Dice::new();
        b.push(Die::new(6, Color::White));
        b.push(Die::new(6, Color::Blue));
        assert_eq!(a, b, "removal must clear the freed slot");
        assert_eq!(a.colors_showing(6).get(Color::Blue), 1);
        assert_eq!(a.remove(5), None);
    }

    #[test]
    fn sorting_orders_by_face_then_color_whatever_the_values() {
        let all = [
            Die::new(6, Color::Blue),
            Die::new(0, Color::Green),
            Die::new(3, Color::White),
            Die::new(6, Color::White),
            Die::new(3, Color::Yellow),
            Die::new(0, Color::White),
            Die::new(3, Color::White),
            Die::new(9, Color::Green), // past 6: the fallback path
        ];
        for n in [all.len() - 1, all.len()] {
            let mut a = Dice::new();
            for d in &all[..n] {
                assert!(a.push(*d));
            }
            a.sort();
            let mut expected = all[..n].to_vec();
            expected.sort();
            assert_eq!(a.as_slice(), expected.as_slice(), "{n} dice");
        }
    }

    #[test]
    fn the_same_dice_in_another_order_are_equal() {
        let dice = |ds: &[(u8, Color)]| {
            let mut out = Dice::new();
            for &(v, c) in ds {
                out.push(Die::new(v, c));
            }
            out
        };
        let a = dice(&[(1, Color::Green), (1, Color::White), (6, Color::Blue)]);
        let b = dice(&[(6, Color::Blue), (1, Color::White), (1, Color::Green)]);
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "1g 1 6b", "a collection keeps the order it was written in");
        assert_ne!(a, dice(&[(1, Color::Green), (1, Color::Green), (6, Color::Blue)]));
        assert_ne!(a, dice(&[(1, Color::Green), (1, Color::White)]));
    }

    #[test]
    fn counts_print_as_letters_or_in_words() {
        let c = ColorCounts([2, 1, 0, 0]);
        assert_eq!((c.to_string(), format!("{c:#}")), ("w w g".to_string(), "2 white, 1 green".to_string()));
        let none = ColorCounts::default();
        assert_eq!((none.to_string(), format!("{none:#}")), ("-".to_string(), "no dice".to_string()));
        assert_eq!(c.plus(ColorCounts([0, 0, 1, 2])), ColorCounts([2, 1, 1, 2]));
    }

    #[test]
    fn a_full_collection_refuses_more() {
        let mut a = Dice::new();
        for _ in 0..MAX_DICE {
            assert!(a.push(Die::new(1, Color::White)));
        }
        assert!(!a.push(Die::new(2, Color::White)));
        assert_eq!(a.len(), MAX_DICE);
    }
}
