//! Replay, verification reports, diff of two replays, fork and the fixture runner: everything
//! that works on a log without knowing which game it is.
//!
//! **Invariant:** nothing in this crate names a particular game. Games are reached through
//! [`Games`] (the engine's registry by default) and generic code over `arbiter_engine::Game`;
//! every public operation is erased: it takes a [`Source`] and returns a plain report struct
//! (strings and numbers, `Serialize` for `--json`, `Display` for people), so the command line
//! never touches generics.
//!
//! Exit codes, shared by every command: **0** clean / identical, **1** violations / split /
//! failing fixtures, **2** unusable input ([`VerifyError`]).

mod audit;
mod context;
mod coverage;
mod diff;
mod error;
mod expectation;
mod explain;
mod fixture;
mod fork;
mod games;
mod header;
mod incomplete;
mod jsonl;
mod junit;
mod logfile;
mod open;
mod quoting;
mod recorder;
mod records;
mod replay;
mod report;
mod report_file;
mod retraction;
mod retraction_cache;
mod session;
mod session_list;
mod shown;
mod simulate;
mod snapshots;
mod source;
mod state;
mod suggest;
mod suite;
mod transfer;
mod verdict_file;
mod verify;

pub use audit::{
    audit, audit_junit, AuditOptions, AuditReport, AuditSummary, Comparison, SessionAudit, Verdict, Verdicts,
};
pub use context::Context;
pub use coverage::{rule_ids, GameCoverage};
pub use diff::{diff, Agreement, ContextPair, DiffOptions, DiffReport, Divergence, FieldDiff, SplitReason};
pub use error::{ErrorKind, VerifyError, EXIT_UNUSABLE};
pub use expectation::{At, Expectation};
pub use explain::{explain, ExplainReport};
pub use fixture::{run_fixture, CaseKind, FixtureResult};
pub use fork::{fork, ForkReport};
pub use games::{EngineGames, Games};
pub use header::Header;
pub use incomplete::IncompleteView;
pub use junit::{junit_xml, xml_escape};
pub use logfile::{
    header_to_json, header_to_notation, parse_jsonl, parse_notation, FileFormat, LogFile, LogReader, RawBody,
    RawRecord, MAX_LINE_BYTES,
};
pub use open::MAX_CATALOG_BYTES;
pub use quoting::quote;
pub use recorder::{Recorder, Submitted, SNAPSHOT_EVERY};
pub use report::{
    Fact, RecordView, RetractedView, StateView, StepErrorView, UncertainView, UnverifiedView, ViolationView,
};
pub use report_file::write_report_file;
pub use retraction_cache::RetractionCache;
pub use session::{header_of, Journal};
pub use session_list::{session_list, ListedParent, ListedSession, SessionList};
pub use shown::{escape_controls, is_hostile, shown, MAX_SHOWN_CHARS};
pub use simulate::{simulate, SimulateInto, Simulated};
pub use snapshots::{snapshot, snapshot_bytes, snapshot_state, Snapshotted, MAX_CACHED_FINDINGS};
pub use source::{check_overrides, parse_variants, Origin, Source};
pub use state::{replay, ReplayReport};
pub use suggest::{suggest, Suggestions};
pub use suite::{fixture_files, run_fixtures, run_fixtures_with, FixtureOptions, FixtureReport};
pub use transfer::{
    check, export, export_string, import_file, import_file_with, log, log_streaming, new_session, CheckView,
    Created, Format, LogEntry, LogReport, LogSink, ProblemView,
};
pub use verdict_file::{load_verdicts, save_verdicts, verdicts_path};
pub use verify::{
    verify, verify_streaming, Finding, FindingSink, RuleCount, RulesChange, Summary, VerifyOptions,
    VerifyReport,
};
