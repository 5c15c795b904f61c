//! `arbiter record SESSION`: notation lines in, each checked against the rules as it is
//! entered and appended (flushed) before it is acknowledged.
//!
//! The database is held only while a line is written (`Recorder::open_detached`): between
//! lines, `sessions`, `log`, `verify` and every other command can open it.
//!
//! On a terminal it is the line editor of `table.rs`, which keeps going after a bad line,
//! since the player is there to retype it. From a pipe it stops at the first line it cannot
//! read (exit 2): later lines
//! were written after that one and may depend on it. Every line before it is already
//! stored (each was acknowledged as it was written), and stderr says exactly which records
//! were stored from which lines and which lines were not.
//!
//! Both loops write through a [`Recording`]: the journal's `Recorder`, or a running
//! `arbiter serve` (`--server`, `crate::remote`), so a session recorded through a server
//! behaves line for line as one recorded here.

use super::recording::{ranges, Recording};
use crate::error::CliError;
use crate::output;
use arbiter_verify::{EngineGames, Recorder};
use std::io::{BufRead, IsTerminal};
use std::path::Path;
use std::process::ExitCode;

/// What became of the lines of a piped `record`, for the account on stderr.
#[derive(Default)]
struct Account {
    /// (stdin line, record index) of every line stored.
    stored: Vec<(usize, u64)>,
    /// (stdin line, why) of every line read but not stored.
    refused: Vec<(usize, &'static str)>,
}

impl Account {
    /// One sentence: what was stored, from which lines, and what was not.
    fn sentence(&self, stopped_at: Option<(usize, usize)>) -> String {
        let plural = |n: usize, word: &str| if n == 1 { word.to_string() } else { format!("{word}s") };
        let n = self.stored.len();
        let mut out = if n == 0 {
            "stored nothing from stdin".to_string()
        } else {
            format!(
                "stored {n} record(s) from stdin ({} {}, from {} {})",
                plural(n, "record"),
                ranges(self.stored.iter().map(|s| s.1)),
                plural(n, "line"),
                ranges(self.stored.iter().map(|s| s.0 as u64)),
            )
        };
        let not: Vec<String> =
            self.refused.iter().map(|(line, why)| format!("line {line} ({why})")).collect();
        if !not.is_empty() {
            out.push_str(&format!("; not stored: {}", not.join(", ")));
        }
        // The error itself says what became of its line: through a server whose answer was
        // lost, that may be unknown, so this sentence does not claim it.
        if let Some((line, after)) = stopped_at {
            out.push_str(&format!(
                "; line {line}: the error above; the {after} line(s) after it were not read"
            ));
        }
        out
    }
}

pub fn record(db: &Path, session: &str, strict: bool) -> Result<ExitCode, CliError> {
    if !db.exists() {
        super::open_journal(db, false)?;
    }
    let mut recorder = Recorder::open_detached(EngineGames, db, session)?;
    let history = super::table::history_path(db, session);
    record_on(&mut recorder, Some(&history), session, strict)
}

/// Record into `recorder`: at the table on a terminal (its line history kept in `history`,
/// if given), else line by line from the pipe.
pub fn record_on(
    recorder: &mut dyn Recording,
    history: Option<&Path>,
    session: &str,
    strict: bool,
) -> Result<ExitCode, CliError> {
    if std::io::stdin().is_terminal() {
        return super::table::record_at_the_table(history, session, strict, recorder);
    }
    piped(session, strict, recorder)
}

/// `record` fed from a pipe or a file: every line in order, stopping at the first that cannot
/// be read, with the account of what was stored on stderr.
fn piped(_session: &str, strict: bool, recorder: &mut dyn Recording) -> Result<ExitCode, CliError> {
    let mut broke_a_rule = false;
    let mut account = Account::default();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut line_no = 0usize;
    while let Some(line) = lines.next() {
        line_no += 1;
        let line =
            line.map_err(|e| CliError::input(format!("stdin line {line_no}: could not read it ({e})")))?;
        // Editors on some systems start a UTF-8 file with a byte-order mark: skipped, as a
        // log file's is (it is invisible in a message that would quote it).
        let line = if line_no == 1 { line.strip_prefix('\u{feff}').unwrap_or(&line) } else { &line };
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        if text == "board" {
            output::print(&recorder.board()?)?;
            continue;
        }
        let result = if text == "undo" { recorder.undo() } else { recorder.submit(text, strict) };
        match result {
            Ok(submitted) => {
                broke_a_rule |= !submitted.violations.is_empty() || submitted.error.is_some();
                if submitted.written {
                    account.stored.push((line_no, submitted.record.index));
                } else {
                    let why =
                        if submitted.error.is_some() { "cannot be applied" } else { "refused by --strict" };
                    account.refused.push((line_no, why));
                }
                output::print(&submitted.to_string())?;
            }
            Err(e) => {
                let after = lines.by_ref().count();
                let sentence = account.sentence(Some((line_no, after)));
                let kind = CliError::from(e.clone()).kind();
                return Err(CliError::input(format!("stdin line {line_no}: {}; {sentence}", e.message))
                    .with_kind(kind));
            }
        }
    }
    if !account.refused.is_empty() {
        eprintln!("arbiter: {}", account.sentence(None));
    }
    Ok(if broke_a_rule { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
