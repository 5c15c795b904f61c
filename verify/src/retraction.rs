//! Which records a log retracts, kept small enough to stream a file of any length.
//!
//! Notation's `undo` withdraws the latest event still in force; JSONL's `{"retract":N}` any
//! earlier event still in force. [`Live`] tracks the events in force as runs of consecutive
//! indices (a log without retractions is one run), so resolving and checking retractions
//! costs memory in the number of retractions, not in the length of the log. [`Retracted`] is
//! the answer replay needs: one bit per record up to the last one retracted.

/// The event indices still in force, as sorted, disjoint runs `[start, end)`.
#[derive(Debug, Default, Clone)]
pub(crate) struct Live {
    runs: Vec<(u64, u64)>,
}

impl Live {
    /// An event at `index`, later than every index so far (every event line of every
    /// verified file passes here).
    #[inline]
    pub fn push(&mut self, index: u64) {
        match self.runs.last_mut() {
            Some(run) if run.1 == index => run.1 += 1,
            _ => self.runs.push((index, index + 1)),
        }
    }

    /// Withdraw the latest event still in force (notation's `undo`).
    pub fn pop(&mut self) -> Option<u64> {
        let run = self.runs.last_mut()?;
        run.1 -= 1;
        let index = run.1;
        if run.0 == run.1 {
            self.runs.pop();
        }
        Some(index)
    }

    /// Withdraw event `index` if it is still in force (JSONL's `retract`).
    pub fn remove(&mut self, index: u64) -> bool {
        let at = self.runs.partition_point(|run| run.1 <= index);
        let Some(&(start, end)) = self.runs.get(at) else { return false };
        if index < start {
            return false;
        }
        match (index == start, index + 1 == end) {
            (true, true) => {
                self.runs.remove(at);
            }
            (true, false) => self.runs[at].0 += 1,
            (false, true) => self.runs[at].1 -= 1,
            (false, false) => {
                self.runs[at].1 = index;
                self.runs.insert(at + 1, (index + 1, end));
            }
        }
        true
    }
}

/// Record indices that a later record retracts: replay skips them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Retracted {
    words: Vec<u64>,
    count: usize,
}

impl Retracted {
    pub fn insert(&mut self, index: u64) {
        let (word, bit) = ((index / 64) as usize, index % 64);
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        if self.words[word] & (1 << bit) == 0 {
            self.words[word] |= 1 << bit;
            self.count += 1;
        }
    }

    pub fn contains(&self, index: u64) -> bool {
        let (word, bit) = ((index / 64) as usize, index % 64);
        self.words.get(word).is_some_and(|w| w & (1 << bit) != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl FromIterator<u64> for Retracted {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        let mut set = Retracted::default();
        for i in iter {
            set.insert(i);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_pops_the_latest_and_retract_any_event_in_force() {
        let mut live = Live::default();
        for i in [0, 1, 2, 4, 5] {
            live.push(i);
        }
        assert_eq!(live.pop(), Some(5));
        assert!(live.remove(1));
        assert!(!live.remove(1), "already withdrawn");
        assert!(!live.remove(3), "never an event");
        assert_eq!(live.pop(), Some(4));
        assert_eq!(live.pop(), Some(2));
        assert_eq!(live.pop(), Some(0));
        assert_eq!(live.pop(), None);
        let set: Retracted = [3, 200, 3].into_iter().collect();
        assert!(set.contains(3) && set.contains(200) && !set.contains(4) && !set.contains(10_000));
        assert!(!set.is_empty() && Retracted::default().is_empty());
    }
}
