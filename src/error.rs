//! The command line's error: one sentence for the user and the exit code it maps to.

use std::fmt;

/// Something the command could not do. Every error is unusable input (exit 2) unless it says
/// otherwise: findings such as violations are results, not errors.
#[derive(Debug)]
pub struct CliError {
    message: String,
    code: u8,
}

impl CliError {
    /// Unusable input: a bad argument, an unknown session, a malformed file (exit 2).
    pub fn input(message: impl fmt::Display) -> Self {
        CliError { message: message.to_string(), code: 2 }
    }

    pub fn exit_code(&self) -> u8 {
        self.code
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Any library error is unusable input from the command line's point of view.
impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError::input(e)
    }
}
