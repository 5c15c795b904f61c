//! Project automation (the cargo-xtask pattern): `cargo xtask ci`, `cargo xtask bench`,
//! `cargo xtask crash` and `cargo xtask man`.
//!
//! CI and a person run the same commands, so nothing here is needed by users at run time.
//! `bench` re-runs itself in the release profile (numbers from a debug build mean nothing)
//! and measures arbiter against SQLite and JSON lines on one simulated corpus.

mod bench;
mod ci;
mod crash;
mod man;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  ci       check formatting, then run every test of the workspace
  crash    the storage reliability tests at full size: writers killed at random points,
           damaged copies of a database, racing creators, a full disk
             (cargo xtask crash --help for the counts)
  bench    measure arbiter against SQLite and JSONL on every game; prints one table and
           writes docs/PERFORMANCE.md
             --events N      corpus size per game (default 1000000)
             --quick         a small corpus (100000 events), one run, a quick look;
                             writes nothing
             --runs N        whole runs of each game (default 3): each figure is their
                             median with the range, a target met only if met in every run
             --no-write      print the table only
             --game ID       one game only (default: every game of the registry)
             --snapshot-every K
                             records between snapshots of the long session (default 1000)
             --file-events N events in the long log files of section 8 (default 10 x --events)
             --profile LOOP  run one loop once for callgrind (step, decode, text, parse, scan,
                             replay) instead of the table; see xtask/src/bench/profile.rs;
                             `kinds` times the step by kind of record,
                             `per-session` splits per-session from per-record costs
  man [DIR]  write the man pages of arbiter (arbiter.1, arbiter-COMMAND.1) to DIR
             (default target/man), from the command line's clap definition";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci::run(),
        Some("crash") => crash::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("man") => man::run(&args[1..]),
        Some(bench::rss::CHILD_COMMAND) => bench::rss::child(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown task `{other}`\n{USAGE}").into()),
        None => Err(USAGE.into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Every task reports one readable error; the cause is in the message.
pub type Fallible<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;
