//! One function per command; each returns the exit code of a run that completed. Work is
//! done by `arbiter-verify` (which reaches the journal and the engine); this layer only
//! opens the database when a command needs it, and prints (through `crate::output`).

mod audit;
mod catalog;
mod demo;
mod fixtures;
mod record;
mod sessions;
mod simulate;

use crate::cli::{Cli, Command};
use crate::error::CliError;
use crate::output;
use arbiter_verify::{Journal, Origin, Source};
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let db = cli.db.as_path();
    match cli.command {
        Command::Demo => demo::demo(db),
        Command::Games => catalog::games(),
        Command::Rules { game, json } => catalog::rules(&game, json),
        Command::Sessions => sessions::list(db),
        Command::New { session, game, setup, catalog, title } => {
            sessions::new(db, &session, &game, &setup, catalog.as_deref(), &title)
        }
        Command::Record { session, strict } => record::record(db, &session, strict),
        Command::Import { file, session, snapshot_every } => {
            sessions::import(db, &file, session.as_deref(), snapshot_every)
        }
        Command::Snapshot { session, every } => sessions::snapshot(db, &session, every),
        Command::Export { source, format } => sessions::export(db, &source, format),
        Command::Log { source, json } => sessions::log(db, &source, json),
        Command::Check { session, json } => sessions::check(db, &session, json),
        Command::Fork { session, at, into, snapshot_every } => {
            sessions::fork(db, &session, at, &into, snapshot_every)
        }
        Command::Replay { source, to, json, variant } => audit::replay(db, &source, to, json, &variant),
        Command::Verify { source, json, variant, derive, max_findings, strict } => {
            let how = audit::VerifyHow { json, derive, max_findings, strict };
            audit::verify(db, &source, &variant, how)
        }
        Command::Explain { source, index, json, variant } => {
            audit::explain(db, &source, index, json, &variant)
        }
        Command::Diff { a, b, context, all, json, variant } => {
            audit::diff(db, &a, &b, context, all, json, &variant)
        }
        Command::Fixtures { dir, junit, coverage, require_full_coverage, json } => {
            fixtures::fixtures(&dir, junit.as_deref(), coverage, require_full_coverage, json)
        }
        Command::Simulate { game, setup, seed, events, into, out, snapshot_every } => {
            let target = simulate::Target { into: into.as_deref(), out: out.as_deref(), snapshot_every };
            simulate::simulate(db, &game, &setup, seed, events, target)
        }
    }
}

/// Open the database. Commands that only read refuse to create one: a missing database is
/// almost always a wrong `--db` or working directory, and creating it would hide that.
pub fn open_journal(db: &Path, create: bool) -> Result<Journal, CliError> {
    if !create && !db.exists() {
        return Err(CliError::input(format!(
            "there is no database at `{}` (give --db PATH or set ARBITER_DB; `arbiter new` or `arbiter import` creates one)",
            arbiter_verify::shown(&db.display().to_string())
        ))
        .with_kind("session"));
    }
    Ok(Journal::open(db)?)
}

/// Run `work` on a database that may be created for it. A database this call created is
/// removed again when the work fails, so refused input (a bad session name, a malformed
/// file) leaves nothing behind.
pub fn with_new_journal<T>(
    db: &Path,
    work: impl FnOnce(&Journal) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let existed = db.exists();
    let journal = open_journal(db, true)?;
    let result = work(&journal);
    // sled must release the directory before it can be removed.
    drop(journal);
    if result.is_err() && !existed {
        let _ = std::fs::remove_dir_all(db);
    }
    result
}

/// Parse a source spec and open the journal only when the source is a session, so checking
/// a file never touches (or locks, or creates) a database.
pub fn sources(db: &Path, specs: &[&str]) -> Result<(Vec<Source>, Option<Journal>), CliError> {
    let sources = specs.iter().map(|s| Source::parse(s)).collect::<Result<Vec<_>, _>>()?;
    let session = sources.iter().find_map(|s| match &s.origin {
        Origin::Session(name) => Some(name.clone()),
        Origin::File(_) => None,
    });
    let journal = match session {
        Some(name) if !db.exists() => {
            return Err(CliError::input(format!(
                "`{}` is neither a file nor a session: there is no database at `{}` (give --db PATH or set ARBITER_DB)",
                arbiter_verify::shown(&name),
                arbiter_verify::shown(&db.display().to_string())
            ))
            .with_kind("session"))
        }
        Some(_) => Some(open_journal(db, false)?),
        None => None,
    };
    Ok((sources, journal))
}

/// `--variant NAME=VALUE` items as pairs, refusing malformed ones.
pub fn variants(items: &[String]) -> Result<Vec<(String, String)>, CliError> {
    Ok(arbiter_verify::parse_variants(items)?)
}

/// Print a report as JSON or for people.
pub fn print_report<T: Serialize + std::fmt::Display>(report: &T, json: bool) -> Result<(), CliError> {
    if json {
        let text = serde_json::to_string_pretty(report)
            .map_err(|e| CliError::input(format!("could not write the report as JSON: {e}")))?;
        output::print_json(&format!("{text}\n"))
    } else {
        output::print(&report.to_string())
    }
}

/// A report's exit code (0 or 1) as the process's.
pub fn exit(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
