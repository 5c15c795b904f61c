//! `migrate`: every session of one database copied into another, a directory or a
//! PostgreSQL database either way, each with its chain intact (`Journal::copy_session`) and
//! checked on the far side (`arbiter_verify::check`, what `arbiter check` runs) before the
//! next; snapshots are built afresh there (they are a cache, never copied).
//!
//! Run again after an interruption, it skips what arrived and continues what arrived in
//! part; a session the destination holds with another history is refused, never replaced.

use super::sessions::snapshots;
use super::{open_reader, with_new_journal};
use crate::error::CliError;
use crate::output;
use arbiter_verify::Context;
use std::path::Path;
use std::process::ExitCode;

pub fn migrate(from: &Path, to: &Path, snapshot_every: u64) -> Result<ExitCode, CliError> {
    if from == to {
        return Err(CliError::input("--from and --to name the same database; nothing to migrate"));
    }
    let source = open_reader(from)?;
    let sessions = source.sessions()?;
    let (mut copied, mut records) = (0, 0);
    with_new_journal(to, |dest| {
        let ctx = Context::new(dest);
        for (name, _) in &sessions {
            let done = source.copy_session(name, dest)?;
            let check = arbiter_verify::check(&ctx, name)?;
            if check.problem.is_some() {
                return Err(CliError::input(format!(
                    "session `{name}` was copied but does not check on the far side: {}",
                    check.to_string().trim_end()
                )));
            }
            let line = match done.already {
                0 => format!("copied `{name}`: {} records, chain hash {}\n", done.records, check.hash),
                n if n == done.records => {
                    format!("`{name}` is already there: {n} records, chain hash {}\n", check.hash)
                }
                n => format!(
                    "continued `{name}`: records {n}..{} copied, chain hash {}\n",
                    done.records, check.hash
                ),
            };
            output::print(&line)?;
            if done.already < done.records {
                snapshots(&ctx, name, snapshot_every)?;
            }
            copied += 1;
            records += done.records;
        }
        Ok(())
    })?;
    output::print(&format!(
        "migrated {copied} sessions ({records} records) from `{}` to `{}`; each checks intact there\n",
        arbiter_journal::display_location(from),
        arbiter_journal::display_location(to)
    ))?;
    Ok(ExitCode::SUCCESS)
}
