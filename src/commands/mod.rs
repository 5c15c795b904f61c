//! One function per command; each returns the exit code of a successful run.

mod catalog;

use crate::cli::{Cli, Command};
use crate::error::CliError;
use std::process::ExitCode;

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Games => catalog::games(),
        Command::Rules { game, json } => catalog::rules(&game, json),
        other => Err(CliError::input(format!("`{other:?}` is not available in this build yet"))),
    }
}
