//! A session being recorded, as both recording loops see it (`record.rs` from a pipe,
//! `table.rs` at the table): the [`Recording`] they write through, whether the journal's
//! `Recorder` or a running server (`crate::remote`), and how their accounts name runs of
//! record and line numbers ([`ranges`]). Below both loops, so each imports it and neither
//! the other's internals.

use arbiter_verify::{Recorder, Submitted, VerifyError};

/// `0-3, 5, 7-9` for a sorted list of numbers.
pub fn ranges(numbers: impl Iterator<Item = u64>) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for n in numbers {
        match runs.last_mut() {
            Some(run) if run.1 + 1 == n => run.1 = n,
            _ => runs.push((n, n)),
        }
    }
    let parts: Vec<String> =
        runs.iter().map(|(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    parts.join(", ")
}

/// A session being recorded: what both loops (at the table and from a pipe) need of it.
pub trait Recording {
    fn game(&self) -> &str;
    /// The session's length: the sequence of the next record.
    fn len(&self) -> u64;
    fn submit(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError>;
    fn undo(&mut self) -> Result<Submitted, VerifyError>;
    /// The table now, as `board` prints it.
    fn board(&self) -> Result<String, VerifyError>;
    /// The consequence the rules require next, in notation, when the table determines one.
    fn next_consequence(&self) -> Option<String>;
    /// The names a line may use now (cards of the catalog, names at the table).
    fn names(&self) -> Vec<String>;
    /// The event words of the game's notation.
    fn event_words(&self) -> Vec<String>;
    /// The game's notation at a glance (empty when it gives none).
    fn notation_summary(&self) -> String;
}

impl Recording for Recorder<'_> {
    fn game(&self) -> &str {
        Recorder::game(self)
    }
    fn len(&self) -> u64 {
        Recorder::len(self)
    }
    fn submit(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError> {
        Recorder::submit(self, line, strict)
    }
    fn undo(&mut self) -> Result<Submitted, VerifyError> {
        Recorder::undo(self)
    }
    fn board(&self) -> Result<String, VerifyError> {
        Ok(self.state().to_string())
    }
    fn next_consequence(&self) -> Option<String> {
        Recorder::next_consequence(self)
    }
    fn names(&self) -> Vec<String> {
        Recorder::names(self)
    }
    fn event_words(&self) -> Vec<String> {
        Recorder::event_words(self)
    }
    fn notation_summary(&self) -> String {
        Recorder::notation_summary(self).to_string()
    }
}
