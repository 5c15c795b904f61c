//! One function per command; each returns the exit code of a run that completed. Work is
//! done by `arbiter-verify` (which reaches the journal and the engine); this layer only
//! opens the database when a command needs it, and prints (through `crate::output`).

mod audit;
mod catalog;
mod completions;
mod demo;
pub mod fixtures;
mod migrate;
pub mod record;
pub mod recording;
mod seal;
mod serve;
mod sessions;
mod simulate;
mod table;
mod verify_all;

use crate::cli::{Cli, Command, DEFAULT_DB};
use crate::error::CliError;
use crate::output;
use arbiter_verify::{Journal, Origin, Source};
use serde::Serialize;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run a command on the database here (`main` has first sent it to a server, when one is
/// named and serves it: see [`server_url`]).
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let own_db = cli.command.db().and_then(|d| d.path.clone());
    let db = database(own_db, cli.db.clone());
    let db = db.as_path();
    match cli.command {
        Command::Demo { .. } => demo::demo(db),
        Command::Games { json } => catalog::games(json),
        Command::Rules { game, json } => catalog::rules(&game, json),
        Command::Sessions { json, .. } => sessions::list(db, json),
        Command::New { session, game, setup, catalog, title, .. } => {
            sessions::new(db, &session, &game, &setup, catalog.as_deref(), &title)
        }
        Command::Record { session, strict, .. } => record::record(db, &session, strict),
        Command::Import { file, session, snapshot_every, .. } => {
            sessions::import(db, &file, session.as_deref(), snapshot_every)
        }
        Command::Snapshot { session, every, .. } => sessions::snapshot(db, &session, every),
        Command::Export { source, format, .. } => sessions::export(db, &source, format),
        Command::Log { source, json, .. } => sessions::log(db, &source, json),
        Command::Check { session, json, receipt: None, accept_loss: false, .. } => {
            sessions::check(db, &session, json)
        }
        Command::Check { session, receipt, signer, accept_loss, .. } => {
            seal::check(db, &session, receipt.as_deref(), signer.as_deref(), accept_loss)
        }
        Command::Seal { session, key, out, new_key, .. } => {
            seal::seal(db, session.as_deref(), key.as_deref(), out.as_deref(), new_key.as_deref())
        }
        Command::Fork { session, at, into, snapshot_every, .. } => {
            sessions::fork(db, &session, at, &into, snapshot_every)
        }
        Command::Replay { source, to, json, variants, .. } => {
            audit::replay(db, &source, to, json, &variants.items)
        }
        Command::Verify { source, all: true, json, junit, no_save, variants, strict, .. } => {
            debug_assert!(source.is_none());
            let how = verify_all::How { json, junit, save: !no_save, strict };
            verify_all::verify_all(db, &variants.items, how)
        }
        Command::Verify { source, json, junit, no_save, variants, derive, max_findings, strict, .. } => {
            // (clap's `requires` counts a flag's default as given, so this is said here.)
            if junit.is_some() || no_save {
                return Err(CliError::input("--junit and --no-save go with --all (a whole-database audit)"));
            }
            let source = source.ok_or_else(|| CliError::input("say which log to verify, or --all"))?;
            let how = audit::VerifyHow { json, derive, max_findings, strict };
            audit::verify(db, &source, &variants.items, how)
        }
        Command::Explain { source, index, json, variants, .. } => {
            audit::explain(db, &source, index, json, &variants.items)
        }
        Command::Diff { a, b, context, all, json, variants, .. } => {
            audit::diff(db, &a, &b, context, all, json, &variants.items)
        }
        Command::Fixtures { dir, junit, coverage, require_full_coverage, json } => {
            fixtures::fixtures(&dir, junit.as_deref(), coverage, require_full_coverage, json)
        }
        Command::Migrate { from, to, snapshot_every } => migrate::migrate(&from, &to, snapshot_every),
        Command::Serve { listen, token, token_file, .. } => {
            serve::serve(db, &listen, token.as_deref(), token_file.as_deref())
        }
        Command::Simulate { game, setup, seed, events, games, into, out, force, snapshot_every, .. } => {
            let target =
                simulate::Target { into: into.as_deref(), out: out.as_deref(), force, snapshot_every };
            simulate::simulate(db, &game, &setup, seed, events, games, target)
        }
        Command::Completions { shell } => completions::completions(shell),
    }
}

/// The server a command works through: its own `--server`, else one named before the
/// command, else `$ARBITER_SERVER` (when set and not empty) unless a `--db` was given: a
/// database named on the command line is the one meant.
pub fn server_url(cli: &Cli) -> Result<Option<String>, CliError> {
    let db_given = cli.command.db().is_some_and(|d| d.path.is_some()) || cli.db.is_some();
    let given = cli.command.server().and_then(|s| s.url.clone()).or_else(|| cli.server.clone());
    match given {
        Some(_) if db_given => Err(CliError::input(
            "give --db PATH (a database here) or --server URL (a running `arbiter serve`), not both",
        )),
        Some(url) => Ok(Some(url)),
        None if db_given => Ok(None),
        None => match std::env::var("ARBITER_SERVER") {
            Ok(v) => Ok(Some(v).filter(|v| !v.trim().is_empty())),
            Err(std::env::VarError::NotPresent) => Ok(None),
            // Ignoring it would run the command on a database here instead of the server
            // the user named: refuse it, as a bad --server is refused.
            Err(std::env::VarError::NotUnicode(_)) => Err(CliError::input(
                "$ARBITER_SERVER is not valid UTF-8, so not a server address: give http://HOST:PORT, as `arbiter serve` prints it",
            )),
        },
    }
}

/// The database a command uses: its own `--db`, else one named before the command, else
/// `$ARBITER_DB` (when set and not empty), else `./arbiter.db`.
fn database(own: Option<PathBuf>, before: Option<PathBuf>) -> PathBuf {
    own.or(before)
        .or_else(|| std::env::var_os("ARBITER_DB").filter(|v| !v.is_empty()).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DB))
}

/// Where the retractions of long log files are remembered (`arbiter_verify::RetractionCache`):
/// `$ARBITER_CACHE_DIR/retractions`, else `$XDG_CACHE_HOME/arbiter/retractions`, else
/// `~/.cache/arbiter/retractions`; nowhere when `ARBITER_CACHE_DIR` is `off` or no
/// directory is known. A cache only: removing it is always safe.
fn retraction_cache() -> Option<arbiter_verify::RetractionCache> {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let root = match set("ARBITER_CACHE_DIR") {
        Some(dir) if dir == Path::new("off") => return None,
        Some(dir) => dir,
        None => {
            set("XDG_CACHE_HOME").or_else(|| set("HOME").map(|home| home.join(".cache")))?.join("arbiter")
        }
    };
    Some(arbiter_verify::RetractionCache::at(root.join("retractions")))
}

/// A file kept beside the database (never inside it: the journal owns that directory):
/// `arbiter.db` + `.verdicts.json` -> `arbiter.db.verdicts.json`; for a PostgreSQL database,
/// in the current directory (`arbiter_journal::beside`).
pub fn beside(db: &Path, suffix: &str) -> PathBuf {
    arbiter_journal::beside(db, suffix)
}

/// Open the database. Commands that only read refuse to create one: a missing database is
/// almost always a wrong `--db` or working directory, and creating it would hide that.
pub fn open_journal(db: &Path, create: bool) -> Result<Journal, CliError> {
    if !create {
        must_exist(db)?;
    }
    Ok(Journal::open(db)?)
}

/// Open the database for a command that only reads (`sessions`, `log`, `export`, `check`,
/// `verify`, `replay`, `explain`, `diff`): nothing is written to it, so these work on a full
/// disk and on a read-only copy, and skip the writes and syncs a read-write open and close
/// cost (docs/RELIABILITY.md).
pub fn open_reader(db: &Path) -> Result<Journal, CliError> {
    must_exist(db)?;
    Ok(Journal::open_read_only(db)?)
}

fn must_exist(db: &Path) -> Result<(), CliError> {
    // A server's database is not on this disk: opening it says whether it is there.
    if db.exists() || arbiter_journal::is_server(db) {
        return Ok(());
    }
    Err(CliError::input(format!(
        "there is no database at `{}` (give --db PATH or set ARBITER_DB; `arbiter new` or `arbiter import` creates one)",
        arbiter_verify::shown(&db.display().to_string())
    ))
    .with_kind("session"))
}

/// Run `work` on a database that may be created for it. A database this call made alone
/// (its directory created here, `create_dir` failing when another process got there first)
/// is removed again when the work fails, so refused input (a bad session name, a malformed
/// file) leaves nothing behind; and only if it holds no session, looked at and removed
/// under the journal's lock, because another process may have stored one in it between
/// its making and this call taking the lock. Nothing else is ever removed.
pub fn with_new_journal<T>(
    db: &Path,
    work: impl FnOnce(&Journal) -> Result<T, CliError>,
) -> Result<T, CliError> {
    // A server's database is neither made nor removed here (its tables are made on opening).
    let server = arbiter_journal::is_server(db);
    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty() && !server) {
        let _ = std::fs::create_dir_all(parent);
    }
    let made_here = !server && std::fs::create_dir(db).is_ok();
    let journal = match open_journal(db, true) {
        Ok(journal) => journal,
        Err(e) => {
            if made_here {
                // Only while still empty: `remove_dir` refuses a directory with anything in it.
                let _ = std::fs::remove_dir(db);
            }
            return Err(e);
        }
    };
    let result = work(&journal);
    if result.is_err() && made_here {
        let _ = journal.remove_if_empty();
    }
    result
}

/// [`sources`] for a command that also takes `--variant`s: a setting a source's own
/// `SOURCE@NAME=VALUE` gives and a `--variant` gives again is refused.
pub fn sources_under(
    db: &Path,
    specs: &[&OsStr],
    variants: &[(String, String)],
) -> Result<(Vec<Source>, Option<Journal>), CliError> {
    let (srcs, journal) = sources(db, specs)?;
    for s in &srcs {
        arbiter_verify::check_overrides(s, variants)?;
    }
    Ok((srcs, journal))
}

/// Parse a source spec and open the journal (read-only) only when the source is a session,
/// so checking a file never touches (or locks, or creates) a database. A spec is taken as
/// the operating system gives it: a file's name need not be UTF-8.
pub fn sources(db: &Path, specs: &[&OsStr]) -> Result<(Vec<Source>, Option<Journal>), CliError> {
    let sources = specs.iter().map(|s| Source::parse_os(s)).collect::<Result<Vec<_>, _>>()?;
    let session = sources.iter().find_map(|s| match &s.origin {
        Origin::Session(name) => Some(name.clone()),
        Origin::File(_) => None,
    });
    let journal = match session {
        Some(name) if !db.exists() && !arbiter_journal::is_server(db) => {
            return Err(CliError::input(format!(
                "`{}` is neither a file nor a session: there is no database at `{}` (give --db PATH or set ARBITER_DB)",
                arbiter_verify::shown(&name),
                arbiter_verify::shown(&db.display().to_string())
            ))
            .with_kind("session"))
        }
        Some(_) => Some(open_reader(db)?),
        None => None,
    };
    Ok((sources, journal))
}

/// Close the database a read-only command opened, as its last act: the process ends right
/// after, so sled's memory and the locks are left to its end (`Journal::close_at_exit`).
pub fn close_reader(journal: Option<Journal>) {
    if let Some(journal) = journal {
        journal.close_at_exit();
    }
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
