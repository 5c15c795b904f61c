//! An enemy card as data: its battle track, start space, per-space dice requirements,
//! optional ability text and dragonling icon.

use super::dice::{Color, ColorCounts};
use std::fmt;

/// What a set must contain to move a battle marker into one space: at least `count` dice,
/// among them the listed colors (`3b` = three dice, one of them blue).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Requirement {
    pub count: u8,
    /// Colored dice the set must include, by color (white is never required).
    pub colors: ColorCounts,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.count)?;
        for c in Color::COLORED {
            for _ in 0..self.colors.get(c) {
                f.write_str(c.name())?;
            }
        }
        Ok(())
    }
}

/// The most spaces a battle track may have (bottom and top included).
pub const MAX_TRACK: usize = 12;

/// One enemy card, validated: the track has a bottom, a top, and a start strictly between.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enemy {
    /// Stable id used in notation (`pit-brawler`): lowercase letters, digits and `-`.
    pub id: String,
    /// The card's printed name.
    pub name: String,
    /// Requirements to move into each space, indexed from the bottom (index 0, the bottom
    /// space, is never entered by a set and holds a zero requirement).
    pub track: Vec<Requirement>,
    /// The start space, counted from the bottom (0).
    pub start: u8,
    /// Ability text, which the training game does not define and so cannot check.
    pub ability: Option<String>,
    /// The dragonling die result this enemy is weak to (used by the Dragonling module).
    pub icon: Option<u8>,
}

impl Enemy {
    /// The top space, counted from the bottom.
    pub fn top(&self) -> u8 {
        (self.track.len() - 1) as u8
    }

    /// The requirement to move into `space` (zero for the bottom or past the top).
    pub fn requirement(&self, space: u8) -> Requirement {
        self.track.get(space as usize).copied().unwrap_or_default()
    }

    /// The track as the catalog writes it: `B 2 *2 2g 3`.
    pub fn track_text(&self) -> String {
        let mut s = String::from("B");
        for (i, r) in self.track.iter().enumerate().skip(1) {
            s.push(' ');
            if i == self.start as usize {
                s.push('*');
            }
            s.push_str(&r.to_string());
        }
        s
    }
}
