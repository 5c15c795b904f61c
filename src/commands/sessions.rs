//! Session management: `sessions`, `new`, `import`, `export`, `log`, `check`, `fork`.

use super::{exit, open_journal, sources, with_new_journal};
use crate::cli::Format;
use crate::error::CliError;
use arbiter_verify::Context;
use std::path::Path;
use std::process::ExitCode;

pub fn list(db: &Path) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, false)?;
    let sessions = journal.sessions()?;
    if sessions.is_empty() {
        println!("no sessions in `{}`", db.display());
    }
    for (name, meta) in sessions {
        let len = journal.len(&name)?;
        let parent = meta
            .parent
            .as_ref()
            .map(|p| format!(", forked from {} at {}", p.session, p.at))
            .unwrap_or_default();
        println!("{name:<24} {:<16} {len:>8} records  {}{parent}", meta.game, meta.title);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn new(
    db: &Path,
    session: &str,
    game: &str,
    setup: &[String],
    catalog: Option<&str>,
    title: &str,
) -> Result<ExitCode, CliError> {
    let setup = super::variants(setup)?;
    // Check everything that needs no database first, so a typo does not create one.
    if arbiter_engine::dispatch(game, NoOp).is_none() {
        return Err(super::catalog::unknown_game(game));
    }
    let title = (!title.is_empty()).then_some(title);
    let created = with_new_journal(db, |journal| {
        Ok(arbiter_verify::new_session(&Context::new(journal), session, game, &setup, catalog, title)?)
    })?;
    print!("{created}");
    Ok(ExitCode::SUCCESS)
}

pub fn import(
    db: &Path,
    file: &Path,
    session: Option<&str>,
    snapshot_every: u64,
) -> Result<ExitCode, CliError> {
    if !file.is_file() {
        return Err(CliError::input(format!("`{}` is not a readable file", file.display())));
    }
    with_new_journal(db, |journal| {
        let ctx = Context::new(journal);
        let created = arbiter_verify::import_file(&ctx, file, session)?;
        print!("{created}");
        snapshots(&ctx, &created.session, snapshot_every)
    })?;
    Ok(ExitCode::SUCCESS)
}

pub fn snapshot(db: &Path, session: &str, every: u64) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, false)?;
    print!("{}", arbiter_verify::snapshot(&Context::new(&journal), session, every)?);
    Ok(ExitCode::SUCCESS)
}

/// Cache a new session's states (a spacing of 0 means none). The session is already
/// stored: a snapshot that cannot be written only costs a longer replay later, so this
/// warns instead of failing the command.
pub(super) fn snapshots(ctx: &Context<'_>, session: &str, every: u64) -> Result<(), CliError> {
    if every == 0 {
        return Ok(());
    }
    match arbiter_verify::snapshot(ctx, session, every) {
        Ok(done) if done.snapshots > 0 => print!("{done}"),
        Ok(_) => {}
        Err(e) => eprintln!("arbiter: warning: no snapshots for `{session}`: {e}"),
    }
    Ok(())
}

pub fn export(db: &Path, spec: &str, format: Format) -> Result<ExitCode, CliError> {
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    let format = match format {
        Format::Notation => arbiter_verify::Format::Notation,
        Format::Jsonl => arbiter_verify::Format::Jsonl,
    };
    print!("{}", arbiter_verify::export(&ctx, &srcs[0], format)?);
    Ok(ExitCode::SUCCESS)
}

pub fn log(db: &Path, spec: &str) -> Result<ExitCode, CliError> {
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    print!("{}", arbiter_verify::log(&ctx, &srcs[0])?);
    Ok(ExitCode::SUCCESS)
}

pub fn check(db: &Path, session: &str) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, false)?;
    let ctx = Context::new(&journal);
    let view = arbiter_verify::check(&ctx, session)?;
    print!("{view}");
    Ok(exit(view.exit_code))
}

pub fn fork(
    db: &Path,
    session: &str,
    at: usize,
    into: &str,
    snapshot_every: u64,
) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, false)?;
    let ctx = Context::new(&journal);
    let report = arbiter_verify::fork(&ctx, session, at as u64, into)?;
    print!("{report}");
    snapshots(&ctx, into, snapshot_every)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn context(journal: Option<&arbiter_verify::Journal>) -> Context<'_> {
    match journal {
        Some(j) => Context::new(j),
        None => Context::files(),
    }
}

/// Used only to ask the registry whether a game id exists.
struct NoOp;

impl arbiter_engine::GameVisitor for NoOp {
    type Output = ();
    fn visit<G: arbiter_engine::Game>(self) {}
}
