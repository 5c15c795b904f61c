//! `arbiter record SESSION`: notation lines in, each checked against the rules as it is
//! entered and appended (flushed) before it is acknowledged.
//!
//! On a terminal it prompts and keeps going after a bad line, since the player is there to
//! retype it. From a pipe it stops at the first line it cannot read (exit 2): later lines
//! were written after that one and may depend on it, and everything before it is already
//! safely in the journal.

use super::open_journal;
use crate::error::CliError;
use arbiter_verify::{Context, ErrorKind, Recorder};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

pub fn record(db: &Path, session: &str, strict: bool) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, false)?;
    let ctx = Context::new(&journal);
    let mut recorder = Recorder::open(&ctx, session)?;
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        println!(
            "recording `{session}` ({}), {} records so far. One event a line; `undo` retracts the last; `board` shows the table; Ctrl-D ends.",
            recorder.game(),
            recorder.len()
        );
    }
    let mut broke_a_rule = false;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut line_no = 0usize;
    loop {
        if interactive {
            print!("{session} #{}> ", recorder.len());
            let _ = std::io::stdout().flush();
        }
        let Some(line) = lines.next() else { break };
        line_no += 1;
        let line =
            line.map_err(|e| CliError::input(format!("stdin line {line_no}: could not read it ({e})")))?;
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        if text == "board" {
            print!("{}", recorder.state());
            continue;
        }
        let result = if text == "undo" { recorder.undo() } else { recorder.submit(text, strict) };
        match result {
            Ok(submitted) => {
                broke_a_rule |= !submitted.violations.is_empty() || submitted.error.is_some();
                print!("{submitted}");
            }
            Err(e) if interactive && e.kind != ErrorKind::Journal => eprintln!("{e}"),
            Err(e) => return Err(CliError::input(format!("stdin line {line_no}: {e}"))),
        }
    }
    Ok(if broke_a_rule { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
