//! The command line's error: one sentence for the user and the exit code it maps to.

use std::fmt;

/// Something the command could not do. Every error is unusable input (exit 2) unless it says
/// otherwise: findings such as violations are results, not errors.
#[derive(Debug)]
pub struct CliError {
    message: String,
    code: u8,
    /// What kind of problem, for `--json` error objects (`io`, `parse`, `session`...).
    kind: &'static str,
    /// End with the exit code and print nothing (a closed pipe).
    quiet: bool,
    /// The JSON output already carries this error (a streamed report closed with it).
    json_done: bool,
}

impl CliError {
    /// Unusable input: a bad argument, an unknown session, a malformed file (exit 2).
    pub fn input(message: impl fmt::Display) -> Self {
        CliError { message: message.to_string(), code: 2, kind: "argument", quiet: false, json_done: false }
    }

    /// Stop with `code` and say nothing.
    pub fn quiet(code: u8) -> Self {
        CliError { message: String::new(), code, kind: "io", quiet: true, json_done: false }
    }

    pub fn with_kind(mut self, kind: &'static str) -> Self {
        self.kind = kind;
        self
    }

    /// Mark the error as already written into the JSON output.
    pub fn in_json(mut self) -> Self {
        self.json_done = true;
        self
    }

    pub fn json_done(&self) -> bool {
        self.json_done
    }

    pub fn exit_code(&self) -> u8 {
        self.code
    }

    pub fn kind(&self) -> &'static str {
        self.kind
    }

    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A verify error keeps its kind, for `--json` error objects.
impl From<arbiter_verify::VerifyError> for CliError {
    fn from(e: arbiter_verify::VerifyError) -> Self {
        use arbiter_verify::ErrorKind as K;
        let kind = match e.kind {
            K::Io => "io",
            K::Parse => "parse",
            K::UnknownGame => "unknown-game",
            K::Setup => "setup",
            K::Session => "session",
            K::Journal => "journal",
            K::Busy => "busy",
            K::Argument => "argument",
        };
        CliError::input(e.message).with_kind(kind)
    }
}

/// A journal error (opening the database, listing sessions) is unusable input too.
impl From<arbiter_journal::JournalError> for CliError {
    fn from(e: arbiter_journal::JournalError) -> Self {
        let kind = if e.kind() == arbiter_journal::ErrorKind::InUse { "busy" } else { "journal" };
        CliError::input(e).with_kind(kind)
    }
}
