//! The `arbiter` command line: parses arguments, opens the journal, calls `arbiter-verify`
//! and prints. It holds no rules and no storage logic.
//!
//! Exit codes (documented in `arbiter --help` and the README):
//! 0 success / clean / identical; 1 violations found / logs split / fixtures failed;
//! 2 unusable input (bad argument, unknown session, malformed line, missing catalog, a
//! failed write). A closed output pipe ends the process quietly with 141, as SIGPIPE would.
//! With `--json`, an error is also a JSON object on standard output.

/// `eprintln!` without its panic: a standard error that cannot be written to (a full disk,
/// a closed descriptor) must not turn a one-sentence error into an abort (a panic while
/// printing, then another in the panic hook). Defined before the modules, so every
/// `eprintln!` in them is this one; a line that cannot be written is dropped, and the exit
/// status still says what happened.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;
mod commands;
mod error;
mod output;
mod progress;
mod remote;
mod style;

use clap::Parser;
use std::process::ExitCode;

/// Long messages are cut: an error quotes input, and input can be a megabyte long.
const MAX_MESSAGE_CHARS: usize = 2000;

fn main() -> ExitCode {
    // A panic is a bug, but the user still gets one sentence, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        eprintln!(
            "arbiter: internal error ({}); please report it",
            arbiter_verify::escape_controls(&what, false)
        );
    }));
    // `args_os`: an argument that is not UTF-8 is clap's to refuse (one sentence, exit 2);
    // `args` would panic on it.
    let asked_json = std::env::args_os().any(|a| a == "--json");
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` are not errors.
            if !e.use_stderr() {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if asked_json {
                let first = e
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim_start_matches("error: ")
                    .to_string();
                report(&error::CliError::input(first), true);
            }
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    output::init_color(cli.color);
    let json = cli.command.json();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            report(&e, json);
            ExitCode::from(e.exit_code())
        }
    }
}

/// A command through the server it names (`--server`, `$ARBITER_SERVER`) when that server
/// serves it, else on the database here. Decided here, above both, so that the client
/// (`remote`, which records and writes reports through `commands`) and the commands import
/// one way.
fn run(cli: cli::Cli) -> Result<ExitCode, error::CliError> {
    if let Some(url) = commands::server_url(&cli)? {
        if let Some(code) = remote::run(&url, &cli.command)? {
            return Ok(code);
        }
    }
    commands::run(cli)
}

/// Say what went wrong: one sentence on stderr and, for `--json`, a JSON object on stdout
/// (`{"error": ..., "kind": ..., "exit_code": 2}`) so a `| jq` pipeline sees it.
fn report(e: &error::CliError, json: bool) {
    if e.is_quiet() {
        return;
    }
    let mut message: String = arbiter_verify::escape_controls(e.message(), false).into_owned();
    if let Some((cut, _)) = message.char_indices().nth(MAX_MESSAGE_CHARS) {
        message.truncate(cut);
        message.push_str("… (cut)");
    }
    if json && !e.json_done() {
        let object = serde_json::json!({ "error": message, "kind": e.kind(), "exit_code": e.exit_code() });
        let _ = output::print_json(&format!("{object}\n"));
    }
    eprintln!("arbiter: {message}");
}
