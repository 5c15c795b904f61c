//! `--server URL` (or `ARBITER_SERVER`): run a command against a running `arbiter serve`
//! instead of opening the database, with the same output and exit status as a local run.
//!
//! The server renders every report exactly as the command line does (its `format=text` and
//! `format=json` answers are the bytes a local run prints, its `Arbiter-Exit-Code` header the
//! exit status), so this client only sends the arguments, prints what comes back and exits
//! with the status given. Errors come back as the `{"error", "kind", "exit_code"}` object of
//! `--json` errors and become the same `CliError`. Files stay local: a command on files only
//! runs here as it always does; a write token is read from `ARBITER_TOKEN`.
//!
//! Recording through a server, a line whose answer is lost after it was sent is never called
//! "not stored" unless the session's length, asked afresh, proves it (`RemoteTable::lost_answer`).

use crate::cli::{Command, Format};
use crate::commands::record::record_on;
use crate::commands::recording::Recording;
use crate::error::CliError;
use crate::output;
use arbiter_verify::{ErrorKind, Origin, Source, Submitted, VerifyError};
use serde::Deserialize;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// How long one request may take (a `verify` of a long session included).
const TIMEOUT: Duration = Duration::from_secs(600);

/// A running server.
pub struct Remote {
    base: String,
    token: Option<String>,
    agent: ureq::Agent,
}

/// An answer: status, body and the command's exit status.
struct Answer {
    status: u16,
    body: String,
    exit: Option<u8>,
}

/// The error object every failed request carries.
#[derive(Deserialize)]
struct ErrorBody {
    error: String,
    kind: String,
    head: Option<Head>,
    partial: Option<String>,
}

#[derive(Deserialize)]
struct Head {
    records: u64,
}

/// A write's answer: what the command prints.
#[derive(Deserialize)]
struct Outcome {
    stdout: String,
    #[serde(default)]
    stderr: Vec<String>,
}

/// The command line's kind names, so `--json` errors say what a local run says.
fn kind(name: &str) -> &'static str {
    const KINDS: [&str; 11] = [
        "io",
        "parse",
        "unknown-game",
        "setup",
        "session",
        "journal",
        "busy",
        "argument",
        "conflict",
        "token",
        "internal",
    ];
    KINDS.iter().find(|k| **k == name).copied().unwrap_or("argument")
}

/// A path segment or query value, percent-encoded.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `?a=b&c=d` of the pairs given (none: empty).
fn query(pairs: &[(&str, String)]) -> String {
    let parts: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// A request without an answer, and whether it can have reached the server.
struct Unanswered {
    sent: bool,
    /// What went wrong, as the transport says it.
    why: String,
    error: CliError,
}

/// Whether a failed request certainly never reached the server: no connection was made.
/// Anything else (a reset, a timeout while waiting for the answer) may have come after the
/// server read it.
fn never_sent(e: &ureq::Error) -> bool {
    use std::io::ErrorKind as Io;
    match e {
        ureq::Error::HostNotFound
        | ureq::Error::ConnectionFailed
        | ureq::Error::BadUri(_)
        | ureq::Error::Http(_) => true,
        ureq::Error::Timeout(t) => matches!(t, ureq::Timeout::Resolve | ureq::Timeout::Connect),
        ureq::Error::Io(io) => matches!(
            io.kind(),
            Io::ConnectionRefused | Io::AddrNotAvailable | Io::HostUnreachable | Io::NetworkUnreachable
        ),
        _ => false,
    }
}

impl Remote {
    pub fn new(url: &str) -> Result<Remote, CliError> {
        let base = url.trim_end_matches('/');
        if !base.starts_with("http://") || base.len() <= "http://".len() {
            return Err(CliError::input(format!(
                "`{}` is not a server address: give http://HOST:PORT, as `arbiter serve` prints it",
                arbiter_verify::shown(url)
            )));
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(TIMEOUT))
            .build()
            .into();
        let token = std::env::var("ARBITER_TOKEN").ok().filter(|t| !t.trim().is_empty());
        Ok(Remote { base: base.to_string(), token, agent })
    }

    fn unreachable(&self, e: ureq::Error) -> CliError {
        CliError::input(format!("cannot reach the server at {}: {e}", self.base)).with_kind("io")
    }

    fn answer(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<Answer, CliError> {
        let mut response = response.map_err(|e| self.unreachable(e))?;
        let status = response.status().as_u16();
        let exit = response
            .headers()
            .get("arbiter-exit-code")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        let body = response
            .body_mut()
            .with_config()
            .limit(u64::MAX)
            .read_to_string()
            .map_err(|e| self.unreachable(e))?;
        Ok(Answer { status, body, exit })
    }

    fn get(&self, path: &str) -> Result<Answer, CliError> {
        self.answer(self.agent.get(format!("{}/api{path}", self.base)).call())
    }

    fn post(&self, path: &str, body: &serde_json::Value) -> Result<Answer, CliError> {
        self.try_post(path, body).map_err(|u| u.error)
    }

    /// A POST whose failure says whether the request can have reached the server: a write
    /// whose answer was lost may have been carried out.
    fn try_post(&self, path: &str, body: &serde_json::Value) -> Result<Answer, Unanswered> {
        let mut request =
            self.agent.post(format!("{}/api{path}", self.base)).header("content-type", "application/json");
        if let Some(token) = &self.token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        match request.send(body.to_string()) {
            Err(e) => {
                Err(Unanswered { sent: !never_sent(&e), why: e.to_string(), error: self.unreachable(e) })
            }
            Ok(response) => self.answer(Ok(response)).map_err(|error| Unanswered {
                sent: true,
                why: error.message().to_string(),
                error,
            }),
        }
    }
}

/// A failed answer as the error a local run gives; output the command had written before it
/// failed is printed first, as a local run would have.
fn failure(answer: &Answer, json: bool) -> CliError {
    let Ok(body) = serde_json::from_str::<ErrorBody>(&answer.body) else {
        return CliError::input(format!("the server answered {} without a reason", answer.status))
            .with_kind("io");
    };
    let mut error = CliError::input(body.error).with_kind(kind(&body.kind));
    if let Some(partial) = body.partial {
        let printed = if json { output::print_json(&partial) } else { output::print(&partial) };
        if let Err(e) = printed {
            return e;
        }
        if json && partial.contains("\"fatal\"") {
            error = error.in_json();
        }
    }
    error
}

/// Print a report answer and exit with its status.
fn report(answer: Answer, json: bool) -> Result<ExitCode, CliError> {
    if answer.status != 200 {
        return Err(failure(&answer, json));
    }
    if json {
        output::print_json(&answer.body)?;
    } else {
        output::print(&answer.body)?;
    }
    Ok(ExitCode::from(answer.exit.unwrap_or(0)))
}

/// Print a write's answer (stdout, then its notes on stderr).
fn written(answer: Answer) -> Result<ExitCode, CliError> {
    if !(200..300).contains(&answer.status) {
        return Err(failure(&answer, false));
    }
    let outcome: Outcome = serde_json::from_str(&answer.body)
        .map_err(|e| CliError::input(format!("the server's answer cannot be read: {e}")).with_kind("io"))?;
    output::print(&outcome.stdout)?;
    for line in outcome.stderr {
        eprintln!("arbiter: {}", arbiter_verify::escape_controls(&line, false));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `verify --all` answers.
#[derive(Deserialize)]
struct Audited {
    stdout: String,
    stderr: Vec<String>,
    junit: Option<String>,
    exit_code: i32,
}

/// Print an audit's answer, writing its JUnit report here where `--junit` says.
fn audited(answer: Answer, junit: Option<&Path>, json: bool) -> Result<ExitCode, CliError> {
    if answer.status != 200 {
        return Err(failure(&answer, json));
    }
    let audited: Audited = serde_json::from_str(&answer.body)
        .map_err(|e| CliError::input(format!("the server's answer cannot be read: {e}")).with_kind("io"))?;
    for line in &audited.stderr {
        eprintln!("arbiter: {}", arbiter_verify::escape_controls(line, false));
    }
    if let (Some(path), Some(report)) = (junit, &audited.junit) {
        crate::commands::fixtures::write_report(path, report)?;
    }
    if json {
        output::print_json(&audited.stdout)?;
    } else {
        output::print(&audited.stdout)?;
    }
    Ok(ExitCode::from(u8::try_from(audited.exit_code).unwrap_or(1)))
}

fn format(json: bool) -> (&'static str, String) {
    ("format", if json { "json" } else { "text" }.to_string())
}

/// Whether a spec names a session (files are read here, as always). Only a UTF-8 spec can
/// (`Source::parse_os`), so a session's spec is written into a request as `text` gives it.
fn is_session(spec: &OsStr) -> Result<bool, CliError> {
    Ok(matches!(Source::parse_os(spec)?.origin, Origin::Session(_)))
}

/// A session's spec as text (see [`is_session`]: it is UTF-8, nothing is replaced).
fn text(spec: &OsStr) -> String {
    spec.to_string_lossy().into_owned()
}

/// Refuse a command that needs the database itself, in one sentence naming it.
fn local_only(what: &str, instead: &str) -> CliError {
    CliError::input(format!(
        "`arbiter {what}` works on a database here, not through a server: give --db PATH instead of --server (or unset ARBITER_SERVER){instead}"
    ))
}

/// Run `command` on the server at `url`. `None`: the command does not involve the database
/// (games, rules, fixtures, files), so it runs locally as it always does.
pub fn run(url: &str, command: &Command) -> Result<Option<ExitCode>, CliError> {
    let remote = Remote::new(url)?;
    let r = &remote;
    let variants = |items: &[String]| -> Vec<(&'static str, String)> {
        items.iter().map(|v| ("variant", v.clone())).collect()
    };
    let code = match command {
        Command::Games { .. } | Command::Rules { .. } | Command::Fixtures { .. } | Command::Completions { .. } => {
            return Ok(None)
        }
        // Its two databases are named by --from and --to, never the server's.
        Command::Migrate { .. } => return Ok(None),
        Command::Simulate { into: None, .. } => return Ok(None),
        Command::Simulate { into: Some(_), .. } => {
            return Err(local_only(
                "simulate --into",
                ", or write the games with --out FILE and import them through the server",
            ))
        }
        Command::Demo { .. } => return Err(local_only("demo", "")),
        Command::Serve { .. } => return Err(local_only("serve", "")),
        Command::Seal { .. } => return Err(local_only("seal", "")),
        Command::Check { receipt: Some(_), .. } => return Err(local_only("check --receipt", "")),
        Command::Check { accept_loss: true, .. } => return Err(local_only("check --accept-loss", "")),
        Command::Sessions { json, .. } => report(r.get(&format!("/sessions{}", query(&[format(*json)])))?, *json)?,
        Command::New { session, game, setup, catalog, title, .. } => written(r.post(
            "/sessions",
            &serde_json::json!({ "name": session, "game": game, "setup": setup, "catalog": catalog, "title": title }),
        )?)?,
        Command::Import { file, session, snapshot_every, .. } => {
            let text = read_log(file)?;
            let body = serde_json::json!({
                "session": session, "file_name": file.display().to_string(), "text": text, "snapshot_every": snapshot_every,
            });
            written(r.post("/import", &body)?)?
        }
        Command::Snapshot { session, every, .. } => {
            written(r.post(&format!("/sessions/{}/snapshot", encode(session)), &serde_json::json!({ "every": every }))?)?
        }
        Command::Fork { session, at, into, snapshot_every, .. } => written(r.post(
            &format!("/sessions/{}/fork", encode(session)),
            &serde_json::json!({ "at": at, "into": into, "snapshot_every": snapshot_every }),
        )?)?,
        Command::Check { session, json, .. } => {
            report(r.get(&format!("/sessions/{}/check{}", encode(session), query(&[format(*json)])))?, *json)?
        }
        Command::Export { source, .. }
        | Command::Log { source, .. }
        | Command::Replay { source, .. }
        | Command::Verify { source: Some(source), .. }
        | Command::Explain { source, .. }
            if !is_session(source)? =>
        {
            return Ok(None)
        }
        Command::Export { source, format: f, .. } => {
            let as_ = match f {
                Format::Notation => "notation",
                Format::Jsonl => "jsonl",
            };
            let answer = r.get(&format!("/sessions/{}/export{}", encode(&text(source)), query(&[("format", as_.into())])))?;
            if answer.status != 200 {
                return Err(failure(&answer, false));
            }
            // An export is the log itself: written as it came, like a local export.
            use std::io::Write;
            let mut out = output::Stdout::new();
            if out.write_all(answer.body.as_bytes()).and_then(|()| out.flush()).is_err() {
                return Err(out.error(CliError::input("cannot write the export")));
            }
            ExitCode::SUCCESS
        }
        Command::Log { source, json, .. } => {
            report(r.get(&format!("/sessions/{}/log{}", encode(&text(source)), query(&[format(*json)])))?, *json)?
        }
        Command::Replay { source, to, json, variants: v, .. } => {
            let mut q = variants(&v.items);
            q.extend(to.map(|n| ("to", n.to_string())));
            q.push(format(*json));
            report(r.get(&format!("/sessions/{}/replay{}", encode(&text(source)), query(&q)))?, *json)?
        }
        Command::Verify { source, all: true, json, junit, no_save, variants: v, strict, .. } => {
            debug_assert!(source.is_none());
            let body = serde_json::json!({
                "variants": v.items, "strict": strict, "save": !no_save, "json": json, "junit": junit.is_some(),
            });
            audited(r.post("/audit", &body)?, junit.as_deref(), *json)?
        }
        Command::Verify { source: None, .. } => return Err(CliError::input("say which log to verify, or --all")),
        Command::Verify { source: Some(source), json, junit, no_save, variants: v, derive, max_findings, strict, .. } => {
            if junit.is_some() || *no_save {
                return Err(CliError::input("--junit and --no-save go with --all (a whole-database audit)"));
            }
            let mut q = variants(&v.items);
            q.extend(derive.then(|| ("derive", "true".to_string())));
            q.extend(strict.then(|| ("strict", "true".to_string())));
            q.extend(max_findings.map(|n| ("max_findings", n.to_string())));
            q.push(format(*json));
            report(r.get(&format!("/sessions/{}/verify{}", encode(&text(source)), query(&q)))?, *json)?
        }
        Command::Explain { source, index, json, variants: v, .. } => {
            let mut q = variants(&v.items);
            q.push(format(*json));
            report(r.get(&format!("/sessions/{}/explain/{index}{}", encode(&text(source)), query(&q)))?, *json)?
        }
        Command::Diff { a, b, context, all, json, variants: v, .. } => {
            match (is_session(a)?, is_session(b)?) {
                (false, false) => return Ok(None),
                (true, true) => {}
                _ => {
                    return Err(CliError::input(
                        "diff with --server compares two sessions on the server: export the session to a file to diff it against a local file",
                    ))
                }
            }
            let mut q = vec![("a", text(a)), ("b", text(b)), ("context", context.to_string())];
            q.extend(all.then(|| ("all", "true".to_string())));
            q.extend(variants(&v.items));
            q.push(format(*json));
            report(r.get(&format!("/diff{}", query(&q)))?, *json)?
        }
        Command::Record { session, strict, .. } => {
            use std::io::IsTerminal;
            let mut table = RemoteTable::open(remote, session, std::io::stdin().is_terminal())?;
            let history = history_path(url, session);
            record_on(&mut table, history.as_deref(), session, *strict)?
        }
    };
    Ok(Some(code))
}

/// A log file's text for an import: only a regular file, as a local import reads it.
fn read_log(file: &Path) -> Result<String, CliError> {
    if !file.is_file() {
        return Err(CliError::input(format!("`{}` is not a readable file", file.display())));
    }
    let bytes = std::fs::read(file)
        .map_err(|e| CliError::input(format!("cannot read `{}`: {e}", file.display())).with_kind("io"))?;
    String::from_utf8(bytes)
        .map_err(|_| CliError::input(format!("`{}` is not UTF-8 text", file.display())).with_kind("parse"))
}

/// `record` through the server: each line is appended at the sequence this client last saw.
struct RemoteTable {
    remote: Remote,
    session: String,
    game: String,
    next: u64,
    /// What the line editor offers (asked for only at a terminal), kept up to date from each
    /// append's answer.
    assist: Assist,
}

#[derive(Deserialize)]
struct Info {
    game: String,
    records: u64,
}

/// The part of the server's `suggest` answer the line editor reads.
#[derive(Deserialize, Default)]
struct Assist {
    next_consequence: Option<String>,
    names: Vec<String>,
    event_words: Vec<String>,
    notation_summary: String,
}

#[derive(Deserialize)]
struct Appended {
    #[serde(flatten)]
    submitted: Submitted,
    records: u64,
    /// The names a line may use after this one.
    names: Vec<String>,
}

/// Where a sitting through a server keeps its line history: there is no database here to
/// keep it beside, so in the user's state directory, per server and session
/// (`$XDG_STATE_HOME/arbiter/history/127.0.0.1_7878/friday`, `$XDG_STATE_HOME` defaulting to
/// `~/.local/state`). `None` (history for this sitting only) when neither is set.
pub fn history_path(url: &str, session: &str) -> Option<PathBuf> {
    let state =
        std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()).map(PathBuf::from).or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| Path::new(&h).join(".local").join("state"))
        })?;
    let host: String = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' })
        .collect();
    Some(state.join("arbiter").join("history").join(host).join(session))
}

impl RemoteTable {
    fn open(remote: Remote, session: &str, at_the_table: bool) -> Result<RemoteTable, CliError> {
        let answer = remote.get(&format!("/sessions/{}", encode(session)))?;
        if answer.status != 200 {
            return Err(failure(&answer, false));
        }
        let unreadable = |e: serde_json::Error| {
            CliError::input(format!("the server's answer cannot be read: {e}")).with_kind("io")
        };
        let info: Info = serde_json::from_str(&answer.body).map_err(unreadable)?;
        let mut assist = Assist::default();
        if at_the_table {
            let answer = remote.get(&format!("/sessions/{}/suggest?limit=0", encode(session)))?;
            if answer.status != 200 {
                return Err(failure(&answer, false));
            }
            assist = serde_json::from_str(&answer.body).map_err(unreadable)?;
        }
        Ok(RemoteTable { remote, session: session.to_string(), game: info.game, next: info.records, assist })
    }

    /// A failed request as the error the local recorder would have returned.
    fn error(&self, answer: &Answer) -> VerifyError {
        let Ok(body) = serde_json::from_str::<ErrorBody>(&answer.body) else {
            return VerifyError::new(
                ErrorKind::Io,
                format!("the server answered {} without a reason", answer.status),
            );
        };
        match (body.kind.as_str(), body.head) {
            ("conflict", Some(head)) => VerifyError::new(
                ErrorKind::Journal,
                format!(
                    "session `{}` was changed by another writer (it holds {} records; this recorder expected {} ending where it last wrote): nothing more was recorded; start `arbiter record` again to continue from the session as it is now",
                    arbiter_verify::shown(&self.session),
                    head.records,
                    self.next
                ),
            ),
            ("busy", _) => VerifyError::new(ErrorKind::Busy, body.error),
            ("parse", _) => VerifyError::parse(body.error),
            ("session", _) => VerifyError::new(ErrorKind::Session, body.error),
            ("journal", _) => VerifyError::new(ErrorKind::Journal, body.error),
            _ => VerifyError::argument(body.error),
        }
    }

    /// The line reached the server (or may have) but its answer did not come back: whether
    /// it was stored is found out from the session's length, never assumed. Only a session
    /// still as long as before proves it was not; anything else ends the recording with what
    /// is known, since every later line would be checked against a table this side cannot
    /// know.
    fn lost_answer(&self, line: &str, why: &str) -> VerifyError {
        let shown = arbiter_verify::shown(line);
        let lost =
            format!("the server at {} was sent `{shown}` but its answer was lost ({why})", self.remote.base);
        let session = arbiter_verify::shown(&self.session);
        let head = self.remote.get(&format!("/sessions/{}", encode(&self.session))).ok().and_then(|answer| {
            (answer.status == 200).then(|| serde_json::from_str::<Info>(&answer.body).ok()).flatten()
        });
        match head {
            Some(info) if info.records == self.next => VerifyError::new(
                ErrorKind::Io,
                format!(
                    "{lost}; it still holds {} records in `{session}`, so the line was not stored",
                    info.records
                ),
            ),
            Some(info) => VerifyError::new(
                ErrorKind::Journal,
                format!(
                    "{lost}; `{session}` now holds {} records (this recorder expected {} before it): `arbiter log {session}` shows whether the last is this line; nothing more was sent",
                    info.records,
                    self.next
                ),
            ),
            None => VerifyError::new(
                ErrorKind::Journal,
                format!(
                    "{lost}; whether it was stored is unknown (the server cannot be asked now): `arbiter log {session}` shows it once the server answers; nothing more was sent"
                ),
            ),
        }
    }

    fn send(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError> {
        let body = serde_json::json!({ "expected": self.next, "line": line, "strict": strict });
        let answer =
            match self.remote.try_post(&format!("/sessions/{}/records", encode(&self.session)), &body) {
                Ok(answer) => answer,
                Err(Unanswered { sent: false, error, .. }) => {
                    return Err(VerifyError::new(
                        ErrorKind::Io,
                        format!("{}; the line was not sent, so not stored", error.message()),
                    ))
                }
                Err(Unanswered { sent: true, why, .. }) => return Err(self.lost_answer(line, &why)),
            };
        if answer.status != 200 {
            return Err(self.error(&answer));
        }
        let appended: Appended = serde_json::from_str(&answer.body).map_err(|e| {
            VerifyError::new(ErrorKind::Io, format!("the server's answer cannot be read: {e}"))
        })?;
        self.next = appended.records;
        // A line not written left the table as it was, and what it requires with it.
        if appended.submitted.written {
            self.assist.next_consequence = appended.submitted.next_consequence.clone();
        }
        self.assist.names = appended.names;
        Ok(appended.submitted)
    }
}

impl Recording for RemoteTable {
    fn game(&self) -> &str {
        &self.game
    }
    fn len(&self) -> u64 {
        self.next
    }
    fn submit(&mut self, line: &str, strict: bool) -> Result<Submitted, VerifyError> {
        self.send(line, strict)
    }
    fn undo(&mut self) -> Result<Submitted, VerifyError> {
        self.send("undo", false)
    }
    fn board(&self) -> Result<String, VerifyError> {
        let answer = self
            .remote
            .get(&format!("/sessions/{}/state?format=text", encode(&self.session)))
            .map_err(|e| VerifyError::new(ErrorKind::Io, e.message().to_string()))?;
        if answer.status != 200 {
            return Err(self.error(&answer));
        }
        Ok(answer.body)
    }
    fn next_consequence(&self) -> Option<String> {
        self.assist.next_consequence.clone()
    }
    fn names(&self) -> Vec<String> {
        self.assist.names.clone()
    }
    fn event_words(&self) -> Vec<String> {
        self.assist.event_words.clone()
    }
    fn notation_summary(&self) -> String {
        self.assist.notation_summary.clone()
    }
}
