//! The command-line grammar (clap derive). Parsing only; `commands` does the work.
//!
//! Every argument has a description, every command an EXAMPLES section and its exit status,
//! so `arbiter help COMMAND` answers what the README answers. This file depends on clap and
//! `arbiter-verify` only: `cargo xtask man` compiles it too, to write the man pages from the
//! same definition the binary parses with.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;

/// Records between two cached states, as `arbiter record` keeps them.
const DEFAULT_SNAPSHOT_EVERY: u64 = arbiter_verify::SNAPSHOT_EVERY;

/// The database used when `--db` is not given and `ARBITER_DB` is not set.
pub const DEFAULT_DB: &str = "arbiter.db";

/// Where `arbiter serve` listens unless told otherwise (`arbiter_server::DEFAULT_LISTEN`,
/// said here too so that this file needs clap and `arbiter-verify` only).
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";

const ABOUT: &str = "Record tabletop game sessions as event logs, replay them, check every event against the rules and name the rule broken, and show where two replays split.";

/// What every command's SOURCE means, said once for `arbiter --help`.
const OVERVIEW: &str = "\
SOURCES:
  A SOURCE is a session in the database, a notation file (*.arb) or a JSONL file (*.jsonl).
  Any other name is a session's; a file of another name is read by a path with `/` (./game.txt).
  SOURCE@NAME=VALUE replays it under another reading of the rules: NAME is an interpretation
  (or a setup parameter) of the game and VALUE one of its allowed values, as `arbiter rules
  GAME` lists them, e.g. friday@exhaust-from=wounding-enemy. Several may follow one another
  (s1@a=x@b=y); `--variant NAME=VALUE` does the same for every source of a command.

DATABASE:
  Commands that read or write sessions take --db PATH (a directory) or --db postgres://USER@HOST/DBNAME
  (a PostgreSQL database); without it they use $ARBITER_DB, else ./arbiter.db. A command
  pointed at files only never opens (or creates) a database; `arbiter migrate` copies one
  database into another.
  Most of them also take --server URL (or $ARBITER_SERVER, unless --db is given): they then
  work through a running `arbiter serve` with the same output and exit status; files are
  still read here, and a command that needs the database itself says so.

CACHE:
  Which records a long log file (1 MiB or more) retracts is remembered, keyed by the file's
  identity and change times, so that a later diff, replay or explain of the unchanged file
  reads only as far as it needs: in $ARBITER_CACHE_DIR/retractions, else
  $XDG_CACHE_HOME/arbiter/retractions, else ~/.cache/arbiter/retractions.
  ARBITER_CACHE_DIR=off keeps nothing; removing the directory is always safe.

EXIT STATUS:
  0  clean, identical, done
  1  violations found, logs split, fixtures failed, a record whose hash chain does not check
     (`check`), or, with `verify --strict`, a log that ends owing consequences
  2  unusable input or a failed write: one sentence on stderr (with --json, also a JSON
     object {\"error\", \"kind\", \"exit_code\"} on stdout); nothing is written
  141 standard output was closed early (`arbiter log big | head`), as SIGPIPE would

Colour: on a terminal unless NO_COLOR is set or --color never; never in a pipe unless
--color always. Shell completions: `arbiter completions bash|zsh|fish`.";

/// The database option of every command that opens one: described once, here.
#[derive(Debug, Clone, Args)]
pub struct Db {
    /// The database: a directory arbiter creates and owns, or a PostgreSQL database as a URL
    /// (postgres://USER@HOST/DBNAME) [default: $ARBITER_DB, else ./arbiter.db]
    #[arg(long = "db", value_name = "PATH|URL")]
    pub path: Option<PathBuf>,
}

/// The server option of every command that can work through `arbiter serve`: described once,
/// here (`crate::remote` is the client).
#[derive(Debug, Clone, Args)]
pub struct Server {
    /// Work through a running `arbiter serve` at URL (http://HOST:PORT) instead of a database
    /// here: the same output and exit status. Files are still read here; writes carry
    /// $ARBITER_TOKEN [default: $ARBITER_SERVER, unless --db is given]
    #[arg(long = "server", value_name = "URL", conflicts_with = "path")]
    pub url: Option<String>,
}

/// Interpretations replayed under, shared by the commands that replay.
#[derive(Debug, Clone, Args)]
pub struct Variants {
    /// Replay under another interpretation or setup value, NAME=VALUE (repeatable); the same as
    /// SOURCE@NAME=VALUE for every source. `arbiter rules GAME` lists the names and values
    #[arg(long = "variant", value_name = "NAME=VALUE")]
    pub items: Vec<String>,
}

#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about = ABOUT, long_about = None, after_long_help = OVERVIEW)]
pub struct Cli {
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN", hide_possible_values = true)]
    pub color: ColorWhen,

    /// The database, for scripts that name it before the command (`arbiter --db PATH verify S`)
    #[arg(long = "db", value_name = "PATH", hide = true)]
    pub db: Option<PathBuf>,

    /// The server, for scripts that name it before the command (`arbiter --server URL verify S`)
    #[arg(long = "server", value_name = "URL", hide = true, conflicts_with = "db")]
    pub server: Option<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The guided tour on a shipped disputed session.
    ///
    /// Stores `examples/disputed-wound.arb` as the session `disputed-wound` (once), verifies
    /// it, explains the disputed record and diffs the two readings of the wound rule.
    #[command(after_help = "\
EXAMPLES:
  arbiter demo                      # on ./arbiter.db
  arbiter demo --db /tmp/tour.db

Exit status: 0, or 2 when the database cannot be opened.")]
    Demo {
        #[command(flatten)]
        db: Db,
    },

    /// List the games arbiter knows.
    ///
    /// Each with its rules version and the rulebook its rule catalog cites.
    #[command(after_help = "\
EXAMPLES:
  arbiter games
  arbiter games --json | jq -r '.games[].id'

Exit status: 0.")]
    Games {
        /// Print JSON (schemas/games.json) instead of text
        #[arg(long)]
        json: bool,
    },

    /// Print a game's rule catalog, setup parameters and interpretations.
    ///
    /// Every rule id with its text and rulebook section; the setup parameters; and the
    /// interpretations: named readings of passages the rulebook leaves unclear, each with its
    /// default and the passage it reads.
    #[command(after_help = "\
EXAMPLES:
  arbiter rules proving-grounds
  arbiter rules keridwyn-fight --json | jq '.params[] | select(.kind == \"interpretation\")'

Exit status: 0; 2 for an unknown game.")]
    Rules {
        /// The game id, as `arbiter games` lists it
        game: String,
        /// Print JSON (schemas/rules.json) instead of text
        #[arg(long)]
        json: bool,
    },

    /// List the sessions in the database.
    ///
    /// One line a session: its name, game, number of records, title, and for a fork the
    /// session and record it branched from.
    #[command(after_help = "\
EXAMPLES:
  arbiter sessions
  arbiter sessions --json | jq -r '.sessions[] | select(.game == \"keridwyn-fight\") | .name'

Exit status: 0; 2 when there is no database.")]
    Sessions {
        /// Print JSON (schemas/sessions.json) instead of text
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Create an empty session, to record into with `arbiter record`.
    #[command(after_help = "\
EXAMPLES:
  arbiter new friday --game proving-grounds --title \"Friday night\"
  arbiter new hunt --game proving-grounds --setup health=6 --setup modules=shields
  arbiter new duel --game keridwyn-fight --catalog my-cards.cat

Exit status: 0; 2 for a taken or invalid name, an unknown game or a bad setup.")]
    New {
        /// The new session's name: letters, digits, `.`, `_` and `-`, at most 64
        session: String,
        /// The game it is a session of (`arbiter games` lists them)
        #[arg(long)]
        game: String,
        /// A setup parameter, NAME=VALUE (repeatable); `arbiter rules GAME` lists them
        #[arg(long = "setup", value_name = "NAME=VALUE")]
        setup: Vec<String>,
        /// The card catalog: a built-in one of the game, or a catalog file
        #[arg(long, value_name = "NAME|FILE")]
        catalog: Option<String>,
        /// A free-text title (at most 4096 bytes), shown by `sessions` and kept on export
        #[arg(long, default_value = "")]
        title: String,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Record events one line at a time, each checked as it is entered.
    ///
    /// Every line is checked against the rules and stored before it is acknowledged. On a
    /// terminal it is a line editor with history, completion (Tab) of the game's words and of
    /// what the rules require next, `help`, `board`, `undo` and `quit`; from a pipe it reads
    /// lines until the end of input.
    #[command(after_help = "\
EXAMPLES:
  arbiter record friday                             # at the table
  printf 'roll 1 2 3 4 5 6g 6y 6b\\nstop\\n' | arbiter record friday
  arbiter record friday --strict                    # refuse illegal events

At the table: Tab completes, Up/Down recall earlier lines (kept per session beside the
database, in PATH.history/), `help` shows the game's notation, `quit` or Ctrl-D ends.

Exit status: 0 every line stored and legal; 1 a line broke a rule (it is still stored
unless --strict) or could not be applied; 2 a line that cannot be read (from a pipe: the
lines before it are stored, and stderr says exactly which).")]
    Record {
        /// The session to record into (create it with `arbiter new`)
        session: String,
        /// Refuse events that break a rule instead of recording them
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Import a notation or JSONL file as a new session.
    ///
    /// All or nothing: every record is checked as `record` checks it, and a file with a record
    /// that cannot be applied is refused whole.
    #[command(after_help = "\
EXAMPLES:
  arbiter import examples/disputed-wound.arb --session friday
  arbiter import league/game-12.jsonl                # session `game-12`

Exit status: 0; 2 for an unreadable or malformed file, or a session name already taken.")]
    Import {
        /// The log file: notation (*.arb) or JSONL (*.jsonl)
        file: PathBuf,
        /// The session's name [default: the file's name without its extension]
        #[arg(long)]
        session: Option<String>,
        /// Cache the state every K records (0: none), so `replay --to N` starts near N
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// (Re)build a session's snapshots, the state every K records.
    ///
    /// Snapshots are cached in the database. Answers never depend on them; they only make
    /// `replay --to N` and `explain N` faster on long sessions.
    #[command(after_help = "\
EXAMPLES:
  arbiter snapshot league-final
  arbiter snapshot league-final --every 1000

Exit status: 0; 2 for an unknown session.")]
    Snapshot {
        /// The session to cache states of
        session: String,
        /// Records between two cached states
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        every: u64,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Print a log as notation or JSONL, written as it is read.
    #[command(after_help = "\
EXAMPLES:
  arbiter export friday > friday.arb
  arbiter export friday --format jsonl | jq -c .

Exit status: 0; 2 for an unknown source or a failed write.")]
    Export {
        /// What to export: a session, or a log file (SOURCE@NAME=VALUE, see `arbiter --help`)
        source: OsString,
        /// The format written
        #[arg(long, value_enum, default_value_t = Format::Notation)]
        format: Format,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// List a log's records with their numbers and retraction marks.
    #[command(after_help = "\
EXAMPLES:
  arbiter log friday
  arbiter log friday --json | jq -r '.entries[] | select(.retracted_by) | .notation'

Exit status: 0; 2 for an unknown or malformed source.")]
    Log {
        /// The log to list: a session or a log file (SOURCE@NAME=VALUE, see `arbiter --help`)
        source: OsString,
        /// Print JSON (schemas/log.json) instead of text
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Print the table after the first N records of a log.
    ///
    /// With the findings of those records (violations, unverified effects, uncertain
    /// findings), as `verify` reports them.
    #[command(after_help = "\
EXAMPLES:
  arbiter replay friday                   # the table at the end
  arbiter replay friday --to 10           # after records 0..9
  arbiter replay friday --json | jq '.state.values.health'

Exit status: 0; 2 for an unknown source or N past the end of the log.")]
    Replay {
        /// The log to replay: a session or a log file (SOURCE@NAME=VALUE, see `arbiter --help`)
        source: OsString,
        /// Replay records 0..N (N records) [default: all of them]
        #[arg(long, value_name = "N")]
        to: Option<usize>,
        /// Print JSON (schemas/replay.json): typed facts, the table as an object, the board text
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        variants: Variants,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Check every event of a log against the rules, or audit the whole database.
    ///
    /// Each finding is printed as it is found, with the rule id, its text and rulebook
    /// section, what was expected and what was recorded; then what the log still owes at its
    /// end. With --all, every session of the database is verified on all cores, summed up by
    /// rule id, and the sessions whose verdict or outcome changed are listed: against the
    /// previous audit, or under the rules version they were recorded with.
    #[command(after_help = "\
EXAMPLES:
  arbiter verify friday
  arbiter verify friday@exhaust-from=wounding-enemy
  arbiter verify game.arb --json | jq '.summary.by_rule'
  arbiter verify game.arb --derive              # print the log completed with its consequences
  arbiter verify --all                          # every session; changes since the last audit
  arbiter verify --all --junit audit.xml        # for CI

The previous verdicts --all compares with are kept beside the database, in PATH.verdicts.json.

Exit status: 0 clean; 1 a violation or a record that cannot be applied (with --strict,
also a log that ends owing consequences). With --all: 1 when a session's verdict or
outcome changed or a session cannot be replayed (with --strict, also any session not
clean); violations a session was recorded with are listed, not failures. 2 unusable input.")]
    Verify {
        /// The log to check: a session or a log file (SOURCE@NAME=VALUE, see `arbiter --help`)
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        source: Option<OsString>,
        /// Audit every session of the database instead of one source
        #[arg(long)]
        all: bool,
        /// Print JSON (schemas/verify.json; with --all, schemas/audit.json) instead of text
        #[arg(long)]
        json: bool,
        /// With --all: also write a JUnit XML report, one test case per session
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// With --all: compare with the stored verdicts but keep them as they are
        #[arg(long)]
        no_save: bool,
        #[command(flatten)]
        variants: Variants,
        /// Complete the log: insert the consequences the rules derive from its decisions and
        /// random outcomes, and print the completed log
        #[arg(long, conflicts_with = "all")]
        derive: bool,
        /// Print at most N findings; the rest are counted in the summary by rule id
        #[arg(long, value_name = "N", conflicts_with = "all")]
        max_findings: Option<u64>,
        /// Fail (exit 1) when a log ends with consequences the rules still owe
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// The auditor's view of one record.
    ///
    /// The table before it, the record as played, what the rules say comes next, the verdict
    /// with the rule's text and rulebook section, and the table after it.
    #[command(after_help = "\
EXAMPLES:
  arbiter explain friday 10
  arbiter explain friday@exhaust-from=wounding-enemy 14 --json

Exit status: 0; 2 for an unknown source or a record the log does not hold.")]
    Explain {
        /// The log: a session or a log file (SOURCE@NAME=VALUE, see `arbiter --help`)
        source: OsString,
        /// The record's number, as `arbiter log` and `arbiter verify` print it (#N)
        index: usize,
        /// Print JSON (schemas/explain.json) instead of text
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        variants: Variants,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Show where two replays split, and why.
    ///
    /// Both logs are replayed in lockstep: the first split is different events, different
    /// states after the same event (another reading), or different verdicts.
    #[command(after_help = "\
EXAMPLES:
  arbiter diff friday friday-ruled-hold
  arbiter diff friday friday@exhaust-from=wounding-enemy
  arbiter diff a.arb b.jsonl --context 3 --all

Exit status: 0 identical; 1 the logs split; 2 unusable input.")]
    Diff {
        /// The first log (A): a session or a log file (SOURCE@NAME=VALUE)
        a: OsString,
        /// The second log (B), compared with A
        b: OsString,
        /// Show the N agreeing records before the split
        #[arg(long, value_name = "N", default_value_t = 0)]
        context: usize,
        /// Report every divergence, not only the first
        #[arg(long)]
        all: bool,
        /// Print JSON (schemas/diff.json) instead of text
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        variants: Variants,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Branch a session at record N for a counterfactual.
    ///
    /// The new session holds records 0..N of the parent, which is never modified.
    #[command(after_help = "\
EXAMPLES:
  arbiter fork friday --at 10 --into friday-ruled-hold
  arbiter record friday-ruled-hold                  # then record the other ruling

Exit status: 0; 2 for an unknown session, N past its end or a taken name.")]
    Fork {
        /// The session to branch
        session: String,
        /// Keep records 0..N (N records) of the parent
        #[arg(long, value_name = "N")]
        at: usize,
        /// The new session's name
        #[arg(long, value_name = "NEW")]
        into: String,
        /// Cache the state every K records (0: none)
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Run a suite of fixtures: logs that say what replaying them must produce.
    ///
    /// Every *.arb and *.jsonl under DIR is a fixture whose @expect and @assert lines say what
    /// replaying it must produce (docs/notation/README.md); one with a @derive line is replayed
    /// with the consequences it leaves out derived, as `verify --derive` does. Ends with `N
    /// passed, N failed`.
    #[command(after_help = "\
EXAMPLES:
  arbiter fixtures fixtures/
  arbiter fixtures fixtures/ --junit report.xml --require-full-coverage     # in CI
  arbiter fixtures fixtures/proving-grounds/game-won.arb

Exit status: 0 every case passed; 1 a fixture failed, a game's coverage is not full (with
--require-full-coverage) or DIR holds no fixture; 2 a directory that cannot be read.")]
    Fixtures {
        /// A directory of fixtures (searched recursively), or one fixture file
        dir: PathBuf,
        /// Also write a JUnit XML report to FILE (replaced whole; a device or FIFO is written through)
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Show which rule ids the fixtures break and which they do not
        #[arg(long)]
        coverage: bool,
        /// Fail when a rule id is broken by no fixture (one failing case per game)
        #[arg(long)]
        require_full_coverage: bool,
        /// Print JSON (schemas/fixtures.json) instead of text
        #[arg(long)]
        json: bool,
    },

    /// Check a session's integrity.
    ///
    /// The hash chain, gaps, and records that do not decode: the first broken record is named.
    #[command(after_help = "\
EXAMPLES:
  arbiter check friday
  arbiter check friday --json

  arbiter check friday --receipt friday.receipt       # see `arbiter seal`

Exit status: 0 intact; 1 a record whose hash chain does not check (the first broken record is
named), or a receipt that does not hold; 2 unknown session, a bad --signer, or damage that keeps
the session or database from being read at all (the sentence names it; every command refuses it).")]
    Check {
        /// The session to check
        session: String,
        /// Print JSON (schemas/check.json) instead of text
        #[arg(long)]
        json: bool,
        /// Also hold the session to a receipt made by `arbiter seal`: fails on any rewrite of
        /// the history it sealed
        #[arg(long, value_name = "FILE")]
        receipt: Option<PathBuf>,
        /// With --receipt: the referee's public key (hex) the receipt must be signed with
        #[arg(long, value_name = "HEX", requires = "receipt")]
        signer: Option<String>,
        /// Accept that the session holds only what the data file still has, after records it
        /// had acknowledged were lost (the check names such a loss), so it can be read and
        /// continued again. Keep a copy of the database first
        #[arg(long, conflicts_with = "receipt")]
        accept_loss: bool,
        #[command(flatten)]
        db: Db,
        #[command(flatten)]
        server: Server,
    },

    /// Sign a receipt of a session's head with a referee's key.
    ///
    /// The key is kept outside the database; `check SESSION --receipt FILE` then catches any
    /// later rewrite of the history the receipt covers.
    #[command(after_help = "\
EXAMPLES:
  arbiter seal --new-key ~/.arbiter-referee.key       # once; prints the public key to publish
  arbiter seal friday --key ~/.arbiter-referee.key --out friday.receipt
  arbiter check friday --receipt friday.receipt --signer PUBLIC-KEY-HEX

Exit status: 0; 2 for an unknown session, an unreadable key or an existing --out file.")]
    Seal {
        /// The session to seal
        #[arg(required_unless_present = "new_key")]
        session: Option<String>,
        /// The referee's key file (made with --new-key) [env: ARBITER_SEAL_KEY]
        #[arg(
            long,
            value_name = "FILE",
            env = "ARBITER_SEAL_KEY",
            hide_env = true,
            required_unless_present = "new_key"
        )]
        key: Option<PathBuf>,
        /// Write the receipt to FILE (never replacing one) instead of printing it
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Make a new key in FILE (readable by its owner only; an existing file is never
        /// overwritten) and print its public half, the one to publish
        #[arg(long, value_name = "FILE", conflicts_with_all = ["session", "out"])]
        new_key: Option<PathBuf>,
        #[command(flatten)]
        db: Db,
    },

    /// Copy every session of one database into another.
    ///
    /// Either database may be a directory or a postgres:// URL, either way; each session
    /// arrives with its chain intact and is checked on the far side before the next. Run again
    /// after an interruption, it skips what arrived and continues what arrived in part.
    #[command(after_help = "\
EXAMPLES:
  arbiter migrate --from arbiter.db --to postgres://league@db.example/league
  arbiter migrate --from postgres://league@db.example/league --to backup.db

Exit status: 0; 2 for a database that cannot be opened, a session the destination holds
with another history, or a copy that does not check on the far side.")]
    Migrate {
        /// The database to copy from (it is only read)
        #[arg(long, value_name = "PATH|URL")]
        from: PathBuf,
        /// The database to copy into (made when missing)
        #[arg(long, value_name = "PATH|URL")]
        to: PathBuf,
        /// Cache the state every K records in the copies (0: none)
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
    },

    /// Serve the database over HTTP: a JSON API and a web app.
    ///
    /// One process owns the database; any number of browsers and `arbiter --server URL ...`
    /// clients read while someone records. It listens on loopback only unless given a token,
    /// which every write must then carry. Ctrl-C stops it.
    #[command(after_help = "\
EXAMPLES:
  arbiter serve                                   # ./arbiter.db at http://127.0.0.1:7878/
  arbiter serve --db league.db --listen 127.0.0.1:8080
  arbiter serve --listen 0.0.0.0:7878 --token-file ~/.arbiter-token   # the whole club's network
  arbiter verify friday --server http://127.0.0.1:7878                 # a client

Exit status: 0 when stopped; 2 for an address that cannot be listened on, a missing or short
token off loopback, or a database another process holds.")]
    Serve {
        /// The address to listen on, IP:PORT (port 0: any free port, printed on start)
        #[arg(long, value_name = "IP:PORT", default_value = DEFAULT_LISTEN)]
        listen: String,
        /// The token every write must carry (Authorization: Bearer TOKEN); needed to listen
        /// beyond loopback, at least 16 characters [env: ARBITER_TOKEN]
        #[arg(long, value_name = "TOKEN", env = "ARBITER_TOKEN", hide_env = true, hide_env_values = true)]
        token: Option<String>,
        /// A file whose first line is the token (kept out of the process list)
        #[arg(long, value_name = "FILE")]
        token_file: Option<PathBuf>,
        #[command(flatten)]
        db: Db,
    },

    /// Play seeded random legal sessions.
    ///
    /// The game's simulator plays legal events; the same seed gives the same log on every
    /// machine.
    #[command(after_help = "\
EXAMPLES:
  arbiter simulate proving-grounds --seed 7 --out game.arb
  arbiter simulate proving-grounds --seed 7 --events 50 --into sim-7
  arbiter simulate keridwyn-fight --seed 1 --games 100 --into league   # league-0 .. league-99
  arbiter simulate proving-grounds --seed 1 --games 10 --out corpus/g.jsonl  # corpus/g-0.jsonl ..

A simulated game stops at its end: --events is an upper bound, and the output says when the
game ended first. Game i of --games N is played with seed S+i.

Exit status: 0; 2 for an unknown game, a taken session name or an existing --out file
(without --force).")]
    Simulate {
        /// The game to play (`arbiter games` lists them)
        game: String,
        /// A setup parameter, NAME=VALUE (repeatable); `arbiter rules GAME` lists them
        #[arg(long = "setup", value_name = "NAME=VALUE")]
        setup: Vec<String>,
        /// The seed of the random player (game i of --games uses S+i)
        #[arg(long, value_name = "S")]
        seed: u64,
        /// Events per game at most [default: the whole game]
        #[arg(long, value_name = "N")]
        events: Option<usize>,
        /// Play N games: N sessions (NAME-0 ..) with --into, N files (STEM-0.EXT ..) with --out
        #[arg(long, value_name = "N", default_value_t = 1)]
        games: u64,
        /// Store each game as a new session named NAME (NAME-i with --games)
        #[arg(long, value_name = "NAME", conflicts_with = "out")]
        into: Option<String>,
        /// Write each game to a file: notation, or JSONL for *.jsonl (FILE-i with --games)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// With --out: replace files that exist already
        #[arg(long, requires = "out")]
        force: bool,
        /// With --into: cache the state every K records (0: none)
        #[arg(long, value_name = "K", default_value_t = DEFAULT_SNAPSHOT_EVERY)]
        snapshot_every: u64,
        #[command(flatten)]
        db: Db,
    },

    /// Print a shell completion script for arbiter's commands and options.
    #[command(after_help = "\
EXAMPLES:
  arbiter completions bash > ~/.local/share/bash-completion/completions/arbiter
  arbiter completions zsh > \"${fpath[1]}/_arbiter\"
  arbiter completions fish > ~/.config/fish/completions/arbiter.fish

Exit status: 0.")]
    Completions {
        /// The shell to complete in
        #[arg(value_enum)]
        shell: Shell,
    },
}

impl Command {
    /// Whether the command was asked for JSON: its errors are then JSON objects too.
    pub fn json(&self) -> bool {
        match self {
            Command::Games { json }
            | Command::Rules { json, .. }
            | Command::Sessions { json, .. }
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

    /// The command's own `--db`, for the commands that open a database.
    pub fn db(&self) -> Option<&Db> {
        match self {
            Command::Demo { db }
            | Command::Sessions { db, .. }
            | Command::New { db, .. }
            | Command::Record { db, .. }
            | Command::Import { db, .. }
            | Command::Snapshot { db, .. }
            | Command::Export { db, .. }
            | Command::Log { db, .. }
            | Command::Replay { db, .. }
            | Command::Verify { db, .. }
            | Command::Explain { db, .. }
            | Command::Diff { db, .. }
            | Command::Fork { db, .. }
            | Command::Check { db, .. }
            | Command::Seal { db, .. }
            | Command::Serve { db, .. }
            | Command::Simulate { db, .. } => Some(db),
            Command::Games { .. }
            | Command::Rules { .. }
            | Command::Fixtures { .. }
            | Command::Migrate { .. }
            | Command::Completions { .. } => None,
        }
    }
}

impl Command {
    /// The command's own `--server`, for the commands that can work through a server.
    pub fn server(&self) -> Option<&Server> {
        match self {
            Command::Sessions { server, .. }
            | Command::New { server, .. }
            | Command::Record { server, .. }
            | Command::Import { server, .. }
            | Command::Snapshot { server, .. }
            | Command::Export { server, .. }
            | Command::Log { server, .. }
            | Command::Replay { server, .. }
            | Command::Verify { server, .. }
            | Command::Explain { server, .. }
            | Command::Diff { server, .. }
            | Command::Fork { server, .. }
            | Command::Check { server, .. } => Some(server),
            Command::Demo { .. }
            | Command::Games { .. }
            | Command::Rules { .. }
            | Command::Fixtures { .. }
            | Command::Seal { .. }
            | Command::Migrate { .. }
            | Command::Serve { .. }
            | Command::Simulate { .. }
            | Command::Completions { .. } => None,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    /// One event a line, as typed at the table (docs/notation/README.md)
    Notation,
    /// One JSON object a line (schemas/jsonl-header.json, schemas/jsonl-record.json)
    Jsonl,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it)
    Auto,
    /// Colour even into a pipe or file
    Always,
    /// Never colour
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}
