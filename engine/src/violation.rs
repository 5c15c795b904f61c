//! A broken rule, as the step function reports it.

use std::fmt;

/// One rule an event breaks. The event is still applied as played when it can be, so a
/// session's audit lists every violation, not only the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule id from the game's catalog (`RuleInfo::id`).
    pub rule: &'static str,
    /// What happened, in one sentence, with the numbers involved.
    pub message: String,
    /// What the rules say should have been recorded, in notation, when there is one answer.
    pub expected: Option<String>,
    /// What was recorded instead, in notation.
    pub recorded: Option<String>,
    /// The unverified effect this finding may follow from, by its ordinal (its position
    /// among every unverified effect reported since the initial state; see
    /// `kit::taint::Unverified`). Such a finding is *uncertain*: the engine could not apply
    /// that effect, so the rule may not be broken at all. `Findings::violate` keeps it
    /// apart from the violations, and reports show it as "uncertain after unverified
    /// effect at #N" without counting it.
    pub uncertain: Option<u32>,
}

impl Violation {
    pub fn new(rule: &'static str, message: impl Into<String>) -> Self {
        Violation { rule, message: message.into(), expected: None, recorded: None, uncertain: None }
    }

    /// Mark the finding as possibly following from the unverified effect with this ordinal.
    pub fn uncertain_after(mut self, ordinal: u32) -> Self {
        self.uncertain = Some(ordinal);
        self
    }

    /// Attach the expected and recorded forms (notation) of a consequence.
    pub fn expected_recorded(mut self, expected: impl Into<String>, recorded: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self.recorded = Some(recorded.into());
        self
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)?;
        if let (Some(e), Some(r)) = (&self.expected, &self.recorded) {
            write!(f, " (expected `{e}`, recorded `{r}`)")?;
        }
        Ok(())
    }
}
