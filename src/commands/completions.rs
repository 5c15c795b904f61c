//! `arbiter completions SHELL`: a completion script generated from the same clap definition
//! the binary parses with (clap_complete), so it cannot fall behind the commands.

use crate::cli::{Cli, Shell};
use crate::error::CliError;
use clap::CommandFactory;
use std::process::ExitCode;

pub fn completions(shell: Shell) -> Result<ExitCode, CliError> {
    use clap_complete::Shell as S;
    let shell = match shell {
        Shell::Bash => S::Bash,
        Shell::Zsh => S::Zsh,
        Shell::Fish => S::Fish,
        Shell::Elvish => S::Elvish,
        Shell::Powershell => S::PowerShell,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "arbiter", &mut script);
    crate::output::print_raw(&script)?;
    Ok(ExitCode::SUCCESS)
}
