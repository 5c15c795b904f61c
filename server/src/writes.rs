//! The write side of the API: create, import, append (with the expected next sequence),
//! undo, fork, snapshot. Each checks the token, reads a JSON body of exactly its fields, and
//! holds input to the rules the command line holds it to: a line is parsed and stepped
//! before it is appended, a log is replayed whole before it is imported.
//!
//! An append is acknowledged only after the journal has made it durable (`Journal::append`),
//! and only then announced to live pages.

use crate::app::{blocking, lock, Shared};
use crate::error::{ApiError, Head};
use crate::extract::{session_name, JsonBody, Params, PathArgs};
use crate::guard::Authorized;
use arbiter_engine::{Game, GameVisitor};
use arbiter_verify::{shown, Context, EngineGames, ErrorKind, Recorder, Submitted, SNAPSHOT_EVERY};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

/// What a write did, as the command line would have printed it.
#[derive(Debug, Serialize)]
pub struct Outcome<T: Serialize> {
    pub result: T,
    /// What the command prints on standard output.
    pub stdout: String,
    /// What it prints on standard error (notes and warnings), without the `arbiter: ` prefix.
    pub stderr: Vec<String>,
}

fn outcome<T: Serialize + std::fmt::Display>(result: T) -> Outcome<T> {
    let stdout = result.to_string();
    Outcome { result, stdout, stderr: Vec::new() }
}

/// Refuse a catalog that is not built into the game: a request must not make the server read
/// a file of its choosing.
fn builtin_catalog_only(game: &str, catalog: Option<&str>) -> Result<(), ApiError> {
    struct IsBuiltin<'a>(&'a str);
    impl GameVisitor for IsBuiltin<'_> {
        type Output = bool;
        fn visit<G: Game>(self) -> bool {
            G::builtin_catalog(self.0).is_some()
        }
    }
    match catalog {
        Some(name) if !arbiter_engine::dispatch(game, IsBuiltin(name)).unwrap_or(true) => Err(ApiError::bad(format!(
            "catalog `{}` is not built into {game}: a server takes built-in catalogs only (a catalog file stays on the machine that has it)",
            shown(name)
        ))),
        _ => Ok(()),
    }
}

/// The "unknown game" sentence of the command line.
fn unknown_game(game: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "unknown-game",
        format!("unknown game `{}` (known games: {})", shown(game), arbiter_engine::game_ids().join(", ")),
    )
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewBody {
    pub name: String,
    pub game: String,
    /// `NAME=VALUE` setup parameters and interpretations.
    #[serde(default)]
    pub setup: Vec<String>,
    pub catalog: Option<String>,
    #[serde(default)]
    pub title: String,
}

/// `arbiter new`.
pub async fn create(
    State(app): State<Shared>,
    _: Authorized,
    params: Params,
    JsonBody(body): JsonBody<NewBody>,
) -> Result<(StatusCode, Json<Outcome<arbiter_verify::Created>>), ApiError> {
    params.only(&[])?;
    let setup = arbiter_verify::parse_variants(&body.setup)?;
    if !arbiter_engine::game_ids().contains(&body.game.as_str()) {
        return Err(unknown_game(&body.game));
    }
    builtin_catalog_only(&body.game, body.catalog.as_deref())?;
    blocking(move || {
        let title = (!body.title.is_empty()).then_some(body.title.as_str());
        let ctx = Context::new(&app.journal);
        let created = arbiter_verify::new_session(
            &ctx,
            &body.name,
            &body.game,
            &setup,
            body.catalog.as_deref(),
            title,
        )?;
        app.announce(&created.session, 0);
        Ok((StatusCode::CREATED, Json(outcome(created))))
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportBody {
    /// The session name; the file's stem by default.
    pub session: Option<String>,
    /// The file's name as the client knows it (`*.jsonl` is read as JSONL, anything else as
    /// notation); messages name it.
    pub file_name: String,
    /// The whole file.
    pub text: String,
    pub snapshot_every: Option<u64>,
}

/// `arbiter import`: the log is written to a private temporary file and imported from
/// there, all or nothing, exactly as a local import reads it.
pub async fn import(
    State(app): State<Shared>,
    _: Authorized,
    params: Params,
    JsonBody(body): JsonBody<ImportBody>,
) -> Result<(StatusCode, Json<Outcome<arbiter_verify::Created>>), ApiError> {
    params.only(&[])?;
    let base = std::path::Path::new(&body.file_name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .ok_or_else(|| ApiError::bad(format!("`{}` is not a file name", shown(&body.file_name))))?;
    let every = body.snapshot_every.unwrap_or(SNAPSHOT_EVERY);
    blocking(move || {
        let dir = tempfile::tempdir()
            .map_err(|e| ApiError::internal(format!("cannot make a temporary directory: {e}")))?;
        let path = dir.path().join(&base);
        std::fs::write(&path, body.text.as_bytes())
            .map_err(|e| ApiError::internal(format!("cannot write the uploaded log: {e}")))?;
        // Messages name the client's file, not the server's temporary copy.
        let here = path.display().to_string();
        let rename = |e: ApiError| ApiError { message: e.message.replace(&here, &body.file_name), ..e };
        let header = arbiter_verify::LogReader::open(&path).map_err(|e| rename(e.into()))?.header;
        builtin_catalog_only(&header.game, header.catalog.as_deref()).map_err(rename)?;
        let ctx = Context::new(&app.journal);
        let created = arbiter_verify::import_file(&ctx, &path, body.session.as_deref())
            .map_err(|e| rename(e.into()))?;
        app.announce(&created.session, created.records);
        let mut out = outcome(created);
        if let Some(note) = out.result.expectations_note() {
            out.stderr.push(note);
        }
        snapshots(&ctx, &out.result.session.clone(), every, &mut out);
        Ok((StatusCode::CREATED, Json(out)))
    })
    .await
}

/// Cache a new session's states as the command line does after `import` and `fork`: a
/// snapshot that cannot be written is a warning, never a failure.
fn snapshots<T: Serialize>(ctx: &Context<'_>, session: &str, every: u64, out: &mut Outcome<T>) {
    if every == 0 {
        return;
    }
    match arbiter_verify::snapshot(ctx, session, every) {
        Ok(done) if done.snapshots > 0 => out.stdout.push_str(&done.to_string()),
        Ok(_) => {}
        Err(e) => out.stderr.push(format!("warning: no snapshots for `{session}`: {e}")),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppendBody {
    /// The sequence the record must get: the session's length as the client last saw it.
    pub expected: u64,
    /// One notation line, or `undo`.
    pub line: String,
    /// Refuse an event that breaks a rule instead of recording it.
    #[serde(default)]
    pub strict: bool,
}

/// What an append did.
#[derive(Debug, Serialize)]
pub struct Appended {
    #[serde(flatten)]
    pub submitted: Submitted,
    /// The session's length after this request.
    pub records: u64,
    /// What `arbiter record` prints for this line.
    pub stdout: String,
    /// The names a line may use now (cards of the catalog, names at the table): the
    /// recorder's completions.
    pub names: Vec<String>,
}

/// The head of `session` now.
fn head(app: &Shared, session: &str) -> Result<Head, ApiError> {
    let records = app.journal.len(session)?;
    Ok(Head { records, hash: arbiter_journal::hex(&app.journal.hash_at(session, records)?) })
}

/// `arbiter record`, one line: appended at `expected` or not at all.
pub async fn append(
    State(app): State<Shared>,
    _: Authorized,
    path: PathArgs,
    params: Params,
    JsonBody(body): JsonBody<AppendBody>,
) -> Result<Json<Appended>, ApiError> {
    params.only(&[])?;
    let name = session_name(path.at(0))?.to_string();
    if body.line.contains(['\n', '\r']) {
        return Err(ApiError::bad("a record is one line: the line holds a line break"));
    }
    blocking(move || {
        let slot = app.writer(&name);
        let mut recorder = lock(&slot);
        let len = app.journal.len(&name)?;
        // A recorder that no longer ends where the journal does (a write it did not make) is
        // rebuilt from the journal.
        if recorder.as_ref().map(Recorder::len) != Some(len) {
            *recorder = Some(Recorder::open_shared(EngineGames, app.journal.clone(), &name)?);
        }
        if body.expected != len {
            return Err(ApiError::conflict(
                format!(
                    "session `{}` holds {len} records, so the next is record {len}, not {}: nothing was written; read the session again and resend",
                    shown(&name),
                    body.expected
                ),
                head(&app, &name)?,
            ));
        }
        let Some(writer) = recorder.as_mut() else {
            return Err(ApiError::internal("the session's recorder is missing"));
        };
        match writer.submit(&body.line, body.strict) {
            Ok(submitted) => {
                let records = writer.len();
                if submitted.written {
                    app.announce(&name, records);
                }
                let stdout = submitted.to_string();
                let names = writer.names();
                Ok(Json(Appended { submitted, records, stdout, names }))
            }
            Err(e) if e.kind == ErrorKind::Journal => {
                // Another writer moved the session between the check and the append: nothing
                // of this line was written. The recorder is rebuilt on the next request.
                *recorder = None;
                Err(ApiError::conflict(
                    format!("{}; nothing was written: read the session again and resend", e.message),
                    head(&app, &name)?,
                ))
            }
            Err(e) => Err(e.into()),
        }
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForkBody {
    pub at: u64,
    pub into: String,
    pub snapshot_every: Option<u64>,
}

/// `arbiter fork`.
pub async fn fork(
    State(app): State<Shared>,
    _: Authorized,
    path: PathArgs,
    params: Params,
    JsonBody(body): JsonBody<ForkBody>,
) -> Result<(StatusCode, Json<Outcome<arbiter_verify::ForkReport>>), ApiError> {
    params.only(&[])?;
    let name = session_name(path.at(0))?.to_string();
    blocking(move || {
        let ctx = Context::new(&app.journal);
        let report = arbiter_verify::fork(&ctx, &name, body.at, &body.into)?;
        app.announce(&report.session, report.at);
        let mut out = outcome(report);
        snapshots(&ctx, &body.into, body.snapshot_every.unwrap_or(SNAPSHOT_EVERY), &mut out);
        Ok((StatusCode::CREATED, Json(out)))
    })
    .await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotBody {
    pub every: Option<u64>,
}

/// `arbiter snapshot`.
pub async fn snapshot(
    State(app): State<Shared>,
    _: Authorized,
    path: PathArgs,
    params: Params,
    JsonBody(body): JsonBody<SnapshotBody>,
) -> Result<Json<Outcome<arbiter_verify::Snapshotted>>, ApiError> {
    params.only(&[])?;
    let name = session_name(path.at(0))?.to_string();
    blocking(move || {
        let done = arbiter_verify::snapshot(
            &Context::new(&app.journal),
            &name,
            body.every.unwrap_or(SNAPSHOT_EVERY),
        )?;
        Ok(Json(outcome(done)))
    })
    .await
}
