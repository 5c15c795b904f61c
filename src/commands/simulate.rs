//! `arbiter simulate`: a seeded random legal session, stored or written to a file.

use crate::error::CliError;
use std::path::Path;
use std::process::ExitCode;

pub fn simulate(
    _db: &Path,
    _game: &str,
    _seed: u64,
    _events: usize,
    _into: Option<&str>,
    _out: Option<&Path>,
) -> Result<ExitCode, CliError> {
    Err(CliError::input("simulate is not wired yet"))
}
