//! The `arbiter` command line: parses arguments, opens the journal, calls `arbiter-verify`
//! and prints. It holds no rules and no storage logic.
//!
//! Exit codes (documented in `arbiter --help` and the README):
//! 0 success / clean / identical; 1 violations found / logs split / fixtures failed;
//! 2 unusable input (bad argument, unknown session, malformed line, missing catalog).

mod cli;
mod commands;
mod error;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A panic is a bug, but the user still gets one sentence, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        // `arbiter log big | head` closes our stdout early; like any Unix tool, stop quietly
        // with the status a SIGPIPE death would give.
        if what.contains("failed printing to stdout") {
            std::process::exit(141);
        }
        eprintln!("arbiter: internal error ({what}); please report it");
    }));
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
