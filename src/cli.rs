//! The command-line grammar (clap derive). Parsing only; `commands` does the work.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Records between two cached states, as `arbiter record` keeps them.
const DEFAULT_SNAPSHOT_EVERY: u64 = arbiter_verify::SNAPSHOT_EVERY;

/// Record tabletop game sessions as event logs, replay them, check every event against the
/// rules and name the rule broken, and show where two replays split.
///
/// A SOURCE is a session in the database, a notation file (`*.arb`) or a JSONL file
/// (`*.jsonl`); `SOURCE@NAME=VALUE` replays it under another interpretation.
///
/// Exit codes: 0 clean / identical / success; 1 violations / split / failed fixtures;
/// 2 unusable input.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about, long_about = None)]
pub struct Cli {
    /// The database: a directory (sled), or a PostgreSQL database as a URL
    /// (postgres://USER@HOST/DBNAME). Default: $ARBITER_DB, else ./arbiter.db.
    #[arg(long, global = true, env = "ARBITER_DB", default_value = "arbiter.db")]
    pub db: PathBuf,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The guided tour: store the shipped disputed session, verify it, explain the disputed
    /// record and diff the two readings of the wound rule.
    Demo,
    /// List the games arbiter knows.
    Games,
    /// Print a game's rule catalog and its interpretations.
    Rules {
        game: String,
        #[arg(long)]
        json: bool,
    },
    /// List the sessions in the database.
    Sessions,
    /// Create an empty session.
    New {
        session: String,
        #[arg(long)]
        game: String,
        /// Setup parameter NAME=VALUE (repeatable).
        #[arg(long = "setup", value_name = "NAME=VALUE")]
        setup: Vec<String>,
        /// A built-in catalog name or a catalog file.
        #[arg(long)]
        catalog: Option<String>,
        #[arg(long, default_value = "")]
        title: String,
    },
    /// Record events line by line (a prompt on a terminal, else stdin).
    Record {
        session: String,
        /// Refuse illegal events instead of recording them.
        #[arg(long)]
        strict: bool,
    },
    /// Import a notation or JSONL file as a new session (all or nothing).
    Import {
        file: PathBuf,
        /// The session name (default: the file's stem).
        #[arg(long)]
        session: Option<String>,
        /// Cache the state every K records (0: none), so `replay --to N` starts near N.
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
    },
    /// (Re)build a session's snapshots: the state every K records, cached in the database.
    Snapshot {
        session: String,
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        every: u64,
    },
    /// Print a session as notation or JSONL.
    Export {
        source: String,
        #[arg(long, value_enum, default_value_t = Format::Notation)]
        format: Format,
    },
    /// List a session's records with their numbers.
    Log {
        source: String,
        #[arg(long)]
        json: bool,
    },
    /// Replay a session and print the board after N records.
    Replay {
        source: String,
        /// Apply records 0..N (default: all).
        #[arg(long)]
        to: Option<usize>,
        #[arg(long)]
        json: bool,
        #[arg(long = "variant", value_name = "NAME=VALUE")]
        variant: Vec<String>,
    },
    /// Check every event against the rules. Findings are printed as they are found; with
    /// --json the report is one JSON document whose `findings` array is streamed, one a line.
    Verify {
        source: String,
        #[arg(long)]
        json: bool,
        #[arg(long = "variant", value_name = "NAME=VALUE")]
        variant: Vec<String>,
        /// Derive the consequences from decisions and random outcomes, printing the completed log.
        #[arg(long)]
        derive: bool,
        /// Print at most N findings; the rest are counted in the summary by rule id.
        #[arg(long, value_name = "N")]
        max_findings: Option<u64>,
        /// Fail (exit 1) when the log ends with consequences the rules still owe.
        #[arg(long)]
        strict: bool,
    },
    /// The auditor's view of one record: before, as recorded, what the rules say, verdict, after.
    Explain {
        source: String,
        index: usize,
        #[arg(long)]
        json: bool,
        #[arg(long = "variant", value_name = "NAME=VALUE")]
        variant: Vec<String>,
    },
    /// Replay two logs in lockstep and show where they split.
    Diff {
        a: String,
        b: String,
        /// Records shown before the split.
        #[arg(long, default_value_t = 0)]
        context: usize,
        /// Report every divergence, not only the first.
        #[arg(long)]
        all: bool,
        #[arg(long)]
        json: bool,
        #[arg(long = "variant", value_name = "NAME=VALUE")]
        variant: Vec<String>,
    },
    /// Branch a session at record N for a counterfactual.
    Fork {
        session: String,
        #[arg(long)]
        at: usize,
        #[arg(long)]
        into: String,
        /// Cache the state every K records (0: none).
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
    },
    /// Run every fixture under DIR.
    Fixtures {
        dir: PathBuf,
        /// Write a JUnit XML report.
        #[arg(long)]
        junit: Option<PathBuf>,
        /// Show which rule ids the fixtures break and which they do not.
        #[arg(long)]
        coverage: bool,
        /// Fail when a rule id is broken by no fixture (one failing case per game).
        #[arg(long)]
        require_full_coverage: bool,
        #[arg(long)]
        json: bool,
    },
    /// Check a session's integrity: hash chain, gaps, decodable records.
    Check {
        session: String,
        #[arg(long)]
        json: bool,
        /// Also hold the session to a receipt made by `arbiter seal`: fails on any rewrite of
        /// the history it sealed.
        #[arg(long, value_name = "FILE")]
        receipt: Option<PathBuf>,
        /// With --receipt: the referee's public key (hex) the receipt must be signed with.
        #[arg(long, value_name = "HEX", requires = "receipt")]
        signer: Option<String>,
        /// Accept that the session holds only what the data file still has, after records it
        /// had acknowledged were lost (the check names such a loss), so it can be read and
        /// continued again. Keep a copy of the database first.
        #[arg(long, conflicts_with = "receipt")]
        accept_loss: bool,
    },
    /// Sign a receipt of a session's head with a referee's key (kept outside the database),
    /// so that `check SESSION --receipt FILE` catches any later rewrite of its history.
    Seal {
        /// The session to seal.
        #[arg(required_unless_present = "new_key")]
        session: Option<String>,
        /// The referee's key file (made with --new-key).
        #[arg(long, value_name = "FILE", env = "ARBITER_SEAL_KEY", required_unless_present = "new_key")]
        key: Option<PathBuf>,
        /// Write the receipt to FILE instead of printing it.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Make a new key in FILE (readable by its owner only; an existing file is never
        /// overwritten) and print its public half, the one to publish.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["session", "out"])]
        new_key: Option<PathBuf>,
    },
    /// Copy every session of one database into another (a directory or a postgres:// URL,
    /// either way), each with its chain intact and checked on the far side.
    Migrate {
        /// The database to copy from (it is only read).
        #[arg(long, value_name = "PATH|URL")]
        from: PathBuf,
        /// The database to copy into (made when missing).
        #[arg(long, value_name = "PATH|URL")]
        to: PathBuf,
        /// Cache the state every K records in the copies (0: none).
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
    },
    /// Play a seeded random legal session.
    Simulate {
        game: String,
        /// Setup parameter NAME=VALUE (repeatable).
        #[arg(long = "setup", value_name = "NAME=VALUE")]
        setup: Vec<String>,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        events: usize,
        /// Store the log as a new session.
        #[arg(long, conflicts_with = "out")]
        into: Option<String>,
        /// Write the log to a file (notation, or JSONL for `*.jsonl`).
        #[arg(long)]
        out: Option<PathBuf>,
        /// With --into: cache the state every K records (0: none).
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
    },
}

impl Command {
    /// Whether the command was asked for JSON: its errors are then JSON objects too.
    pub fn json(&self) -> bool {
        match self {
            Command::Rules { json, .. }
            | Command::Log { json, .. }
            | Command::Replay { json, .. }
            | Command::Verify { json, .. }
            | Command::Explain { json, .. }
            | Command::Diff { json, .. }
            | Command::Fixtures { json, .. }
            | Command::Check { json, .. } => *json,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Notation,
    Jsonl,
}
