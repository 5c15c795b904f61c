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
            // One sentence, as every other error is: clap's account runs to several lines
            // (the error, tips, the usage, a pointer to --help).
            report(&error::CliError::input(clap_sentence(&e.to_string())), asked_json);
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
    let mut message: String = without_os_codes(&arbiter_verify::escape_controls(e.message(), false));
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

/// clap's several-line account of a bad argument as one sentence: the error, its tips in
/// brackets, then the usage line and where to read more.
fn clap_sentence(text: &str) -> String {
    let (mut error, mut tips, mut usage) = (String::new(), Vec::new(), None);
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(first) = line.strip_prefix("error: ") {
            error = first.to_string();
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            tips.push(tip.to_string());
        } else if let Some(u) = line.strip_prefix("Usage: ") {
            usage = Some(u.to_string());
        } else if !line.starts_with("For more information") {
            // The error's own further lines (the arguments not given, a list of values).
            if !error.is_empty() {
                error.push(' ');
            }
            error.push_str(line);
        }
    }
    let mut sentence = error;
    if !tips.is_empty() {
        sentence.push_str(&format!(" ({})", tips.join("; ")));
    }
    if let Some(usage) = usage {
        let command = usage.split(" [").next().unwrap_or(&usage).split(" <").next().unwrap_or(&usage);
        sentence.push_str(&format!("; usage: {usage} (see `{command} --help`)"));
    }
    sentence
}

/// A message without the operating system's error numbers that `std::io::Error` appends
/// (`No such file or directory (os error 2)`): the words say it, the number is noise.
fn without_os_codes(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(" (os error ") {
        let after = &rest[at + " (os error ".len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        out.push_str(&rest[..at]);
        if digits > 0 && after[digits..].starts_with(')') {
            rest = &after[digits + 1..];
        } else {
            out.push_str(" (os error ");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::without_os_codes;

    #[test]
    fn a_clap_error_is_one_sentence() {
        let text = "error: unexpected argument '-1' found\n\n  tip: to pass '-1' as a value, use '-- -1'\n\nUsage: arbiter replay [OPTIONS] <SOURCE>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            super::clap_sentence(text),
            "unexpected argument '-1' found (to pass '-1' as a value, use '-- -1'); usage: arbiter replay [OPTIONS] <SOURCE> (see `arbiter replay --help`)"
        );
    }

    #[test]
    fn os_error_numbers_are_left_out() {
        assert_eq!(
            without_os_codes("cannot read `x`: No such file or directory (os error 2)"),
            "cannot read `x`: No such file or directory"
        );
        assert_eq!(without_os_codes("a (os error 2) and b (os error 13)."), "a and b.");
        assert_eq!(without_os_codes("kept (os error x)"), "kept (os error x)");
    }
}
