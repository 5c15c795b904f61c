//! Session management: `sessions`, `new`, `import`, `export`, `log`, `check`, `fork`.

use super::{exit, open_journal, open_reader, print_report, sources, with_new_journal};
use crate::cli::Format;
use crate::error::CliError;
use crate::output;
use arbiter_verify::Context;
use std::ffi::OsStr;
use std::path::Path;
use std::process::ExitCode;

/// List the sessions, as text or as JSON (`schemas/sessions.json`).
pub fn list(db: &Path, json: bool) -> Result<ExitCode, CliError> {
    let journal = open_reader(db)?;
    let list = arbiter_verify::session_list(&journal, &arbiter_journal::display_location(db))?;
    drop(journal);
    super::print_report(&list, json)?;
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
    output::print(&created.to_string())?;
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
        let progress = crate::progress::Progress::new(0, "importing");
        let created = arbiter_verify::import_file_with(
            &ctx,
            file,
            session,
            Some(&mut |line, lines| progress.at(line, lines)),
        )?;
        progress.finish();
        output::print(&created.to_string())?;
        if let Some(note) = created.expectations_note() {
            eprintln!("arbiter: {note}");
        }
        snapshots(&ctx, &created.session, snapshot_every)
    })?;
    Ok(ExitCode::SUCCESS)
}

pub fn snapshot(db: &Path, session: &str, every: u64) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, false)?;
    let done = arbiter_verify::snapshot(&Context::new(&journal), session, every)?;
    output::print(&done.to_string())?;
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
        Ok(done) if done.snapshots > 0 => output::print(&done.to_string())?,
        Ok(_) => {}
        Err(e) => eprintln!("arbiter: warning: no snapshots for `{session}`: {e}"),
    }
    Ok(())
}

pub fn export(db: &Path, spec: &OsStr, format: Format) -> Result<ExitCode, CliError> {
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    let format = match format {
        Format::Notation => arbiter_verify::Format::Notation,
        Format::Jsonl => arbiter_verify::Format::Jsonl,
    };
    // Written as it is read; a failed write is reported as what it was.
    let mut out = output::Stdout::new();
    match arbiter_verify::export(&ctx, &srcs[0], format, &mut out) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(out.error(e.into())),
    }
}

/// Prints a listing as it is read: `log` of a long file holds one entry at a time.
struct LogPrinter {
    out: output::Buffered,
    json: bool,
    entries: u64,
    head_printed: bool,
    failed: Option<CliError>,
}

impl LogPrinter {
    fn put(&mut self, result: Result<(), CliError>) -> Result<(), arbiter_verify::VerifyError> {
        result.map_err(|e| {
            self.failed = Some(e);
            arbiter_verify::VerifyError::new(
                arbiter_verify::ErrorKind::Io,
                "the listing could not be written",
            )
        })
    }
}

impl arbiter_verify::LogSink for LogPrinter {
    fn head(&mut self, report: &arbiter_verify::LogReport) -> Result<(), arbiter_verify::VerifyError> {
        if !self.json {
            return Ok(());
        }
        self.head_printed = true;
        let head = serde_json::json!({ "source": report.source, "game": report.game }).to_string();
        let text = format!("{},\"entries\":[", head.strip_suffix('}').unwrap_or(&head));
        let result = self.out.json(&text);
        self.put(result)
    }

    fn entry(&mut self, entry: &arbiter_verify::LogEntry) -> Result<(), arbiter_verify::VerifyError> {
        let result = if self.json {
            let sep = if self.entries == 0 { "\n" } else { ",\n" };
            self.out.json(&format!("{sep}{}", serde_json::to_string(entry).unwrap_or_default()))
        } else {
            self.out.text(&entry.line_text())
        };
        self.entries += 1;
        self.put(result)
    }
}

pub fn log(db: &Path, spec: &OsStr, json: bool) -> Result<ExitCode, CliError> {
    let (srcs, journal) = sources(db, &[spec])?;
    let ctx = context(journal.as_ref());
    let mut printer =
        LogPrinter { out: output::Buffered::new(), json, entries: 0, head_printed: false, failed: None };
    let result = arbiter_verify::log_streaming(&ctx, &srcs[0], &mut printer);
    if let Some(failed) = printer.failed.take() {
        return Err(failed);
    }
    match result {
        Ok(_) if json => printer.out.json("\n]}\n")?,
        Ok(_) => {}
        Err(e) => {
            let e = CliError::from(e);
            // After the head a JSON reader must still get one document: close it with the error.
            if json && printer.head_printed {
                let fatal = serde_json::json!({ "error": e.message(), "kind": e.kind(), "exit_code": 2 });
                printer.out.json(&format!("\n],\"fatal\":{fatal}}}\n"))?;
                printer.out.flush()?;
                return Err(e.in_json());
            }
            printer.out.flush()?;
            return Err(e);
        }
    }
    printer.out.flush()?;
    Ok(ExitCode::SUCCESS)
}

pub fn check(db: &Path, session: &str, json: bool) -> Result<ExitCode, CliError> {
    let journal = open_reader(db)?;
    let ctx = Context::new(&journal);
    let view = arbiter_verify::check(&ctx, session)?;
    print_report(&view, json)?;
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
    output::print(&report.to_string())?;
    snapshots(&ctx, into, snapshot_every)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn context(journal: Option<&arbiter_verify::Journal>) -> Context<'_> {
    let ctx = match journal {
        Some(j) => Context::new(j),
        None => Context::files(),
    };
    ctx.with_retraction_cache(super::retraction_cache())
}

/// Used only to ask the registry whether a game id exists.
struct NoOp;

impl arbiter_engine::GameVisitor for NoOp {
    type Output = ();
    fn visit<G: arbiter_engine::Game>(self) {}
}
