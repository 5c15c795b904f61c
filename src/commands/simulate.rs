//! `arbiter simulate`: a seeded random legal session, stored or written to a file.

use super::{variants, with_new_journal};
use crate::error::CliError;
use arbiter_verify::{Context, SimulateInto};
use std::path::Path;
use std::process::ExitCode;

pub fn simulate(
    db: &Path,
    game: &str,
    setup: &[String],
    seed: u64,
    events: usize,
    into: Option<&str>,
    out: Option<&Path>,
) -> Result<ExitCode, CliError> {
    let setup = variants(setup)?;
    let simulated = match (into, out) {
        (Some(session), None) => with_new_journal(db, |journal| {
            let into = SimulateInto::Session(session);
            Ok(arbiter_verify::simulate(&Context::new(journal), game, &setup, seed, events, into)?)
        })?,
        (None, Some(path)) => {
            arbiter_verify::simulate(&Context::files(), game, &setup, seed, events, SimulateInto::File(path))?
        }
        _ => return Err(CliError::input("say where the log goes: --into SESSION or --out FILE")),
    };
    print!("{simulated}");
    Ok(ExitCode::SUCCESS)
}
