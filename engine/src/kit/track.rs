//! Bounded counters: a value on a printed track that stops at its ends ("gains above 7
//! are lost"). Grit, Fame, health, exhaustion, a Library step: each a [`Track`].

use serde::{Deserialize, Serialize};

/// What one change of a track did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub from: i32,
    pub to: i32,
    /// The part of the change the track could not take (beyond an end).
    pub lost: i32,
}

/// A value between `min` and `max`, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Track {
    pub value: i32,
    pub min: i32,
    pub max: i32,
}

impl Track {
    /// A track at `value`, clamped into `min..=max` (`max` below `min` is read as `min`).
    pub fn new(value: i32, min: i32, max: i32) -> Track {
        let max = max.max(min);
        Track { value: value.clamp(min, max), min, max }
    }

    /// Move by `delta` (either sign), stopping at an end.
    pub fn add(&mut self, delta: i32) -> Moved {
        let from = self.value;
        let wanted = from.saturating_add(delta);
        self.value = wanted.clamp(self.min, self.max);
        Moved { from, to: self.value, lost: wanted.saturating_sub(self.value) }
    }

    /// Set outright (a recorded value applied as played), clamped.
    pub fn set(&mut self, value: i32) -> Moved {
        let from = self.value;
        self.value = value.clamp(self.min, self.max);
        Moved { from, to: self.value, lost: value.saturating_sub(self.value) }
    }

    pub fn at_min(&self) -> bool {
        self.value <= self.min
    }
    pub fn at_max(&self) -> bool {
        self.value >= self.max
    }
}

/// `value + delta` kept within `min..=max`: the arithmetic of [`Track::add`] for a plain
/// number stored elsewhere.
pub fn clamp_add(value: i32, delta: i32, min: i32, max: i32) -> i32 {
    value.saturating_add(delta).clamp(min, max.max(min))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_beyond_an_end_are_lost() {
        let mut t = Track::new(6, 0, 7);
        assert_eq!(t.add(3), Moved { from: 6, to: 7, lost: 2 });
        assert_eq!(t.add(-10), Moved { from: 7, to: 0, lost: -3 });
        assert!(t.at_min() && !t.at_max());
        assert_eq!(t.set(99).to, 7);
        assert_eq!(Track::new(12, 0, 7).value, 7);
        assert_eq!(clamp_add(i32::MAX, 5, 0, 10), 10);
    }
}
