//! Counting the unverified effects of a replay, so that a later finding can name the one
//! it may follow from.
//!
//! An effect the engine cannot apply (card text outside the effect form) leaves the state
//! possibly wrong from then on; a finding that depends on it is reported as *uncertain
//! after unverified effect at #N*, not as a violation (`Violation::uncertain`). The
//! kernel names an unverified effect by its ordinal: its position among every unverified
//! effect reported since the initial state. A game keeps an [`Unverified`] counter in its
//! state and reports through it, so the ordinals are a pure function of the log.

use crate::Findings;
use serde::{Deserialize, Serialize};

/// How many unverified effects a replay has reported so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unverified {
    pub reported: u32,
}

impl Unverified {
    /// Report an unverified effect; its ordinal, for the findings that may follow from it.
    pub fn report(&mut self, f: &mut Findings, text: String) -> u32 {
        f.unverified.push(text);
        let ordinal = self.reported;
        self.reported = self.reported.saturating_add(1);
        ordinal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Violation;

    #[test]
    fn ordinals_count_every_report_and_uncertain_findings_are_not_violations() {
        let mut u = Unverified::default();
        let mut f = Findings::default();
        assert_eq!(u.report(&mut f, "A: `mend` says \"Heal 3 Grit.\" (not checked)".into()), 0);
        assert_eq!(u.report(&mut f, "second".into()), 1);
        f.violate(Violation::new("toy.rule", "depends on the heal").uncertain_after(0));
        assert!(f.is_clean(), "an uncertain finding is not a violation");
        assert_eq!(f.uncertain.len(), 1);
        assert_eq!(f.uncertain[0].uncertain, Some(0));
        f.clear();
        assert!(f.uncertain.is_empty() && f.unverified.is_empty());
    }
}
