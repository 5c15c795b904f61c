//! `arbiter simulate`: a seeded random legal session, stored or written to a file.

use super::{variants, with_new_journal};
use crate::error::CliError;
use arbiter_verify::{Context, SimulateInto};
use std::path::Path;
use std::process::ExitCode;

/// Where the simulated log goes.
pub struct Target<'a> {
    pub into: Option<&'a str>,
    pub out: Option<&'a Path>,
    pub snapshot_every: u64,
}

pub fn simulate(
    db: &Path,
    game: &str,
    setup: &[String],
    seed: u64,
    events: usize,
    target: Target<'_>,
) -> Result<ExitCode, CliError> {
    let setup = variants(setup)?;
    match (target.into, target.out) {
        (Some(session), None) => with_new_journal(db, |journal| {
            let ctx = Context::new(journal);
            let into = SimulateInto::Session(session);
            crate::output::print(
                &arbiter_verify::simulate(&ctx, game, &setup, seed, events, into)?.to_string(),
            )?;
            super::sessions::snapshots(&ctx, session, target.snapshot_every)
        })?,
        (None, Some(path)) => {
            let into = SimulateInto::File(path);
            let done = arbiter_verify::simulate(&Context::files(), game, &setup, seed, events, into)?;
            crate::output::print(&done.to_string())?;
        }
        _ => return Err(CliError::input("say where the log goes: --into SESSION or --out FILE")),
    }
    Ok(ExitCode::SUCCESS)
}
