//! The error a game's notation parser returns for one line.

use std::fmt;

/// A line that could not be read as an event. The line number is added by whoever reads
/// the file; the game reports where in the line it stopped and what it wanted there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based column (in characters) where reading stopped.
    pub column: usize,
    /// What would have been accepted there ("a die value 1-6", "`->`").
    pub expected: String,
    /// What was there instead (the word, or "end of line").
    pub found: String,
}

impl ParseError {
    pub fn new(column: usize, expected: impl Into<String>, found: impl Into<String>) -> Self {
        ParseError { column, expected: expected.into(), found: found.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: expected {}, found {}", self.column, self.expected, self.found)
    }
}

impl std::error::Error for ParseError {}
