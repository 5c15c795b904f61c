//! The read side of the API: sessions, records, replay to N, verify, explain, diff, check,
//! export, and what could be recorded next. None of these takes a lock of the server's, so
//! none waits for a writer; each runs on the blocking pool.

use crate::app::{blocking, Shared};
use crate::error::ApiError;
use crate::extract::{session_name, session_spec, Format, Params, PathArgs};
use crate::render::{self, Rendered};
use arbiter_verify::{shown, Context, DiffOptions, VerifyOptions};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// Most suggestions a `suggest` request may ask for.
const MAX_SUGGESTIONS: u64 = 200;

pub async fn health(State(app): State<Shared>, params: Params) -> Result<Json<serde_json::Value>, ApiError> {
    params.only(&[])?;
    Ok(Json(serde_json::json!({
        "ok": true,
        "version": env!("CARGO_PKG_VERSION"),
        "db": app.db,
        "token_required": app.token.is_some(),
    })))
}

pub async fn games(params: Params) -> Result<Json<Vec<&'static str>>, ApiError> {
    params.only(&[])?;
    Ok(Json(arbiter_engine::game_ids()))
}

/// Where a fork branched off.
#[derive(Debug, Serialize)]
pub struct ParentView {
    pub session: String,
    pub at: u64,
    /// The parent's chain hash after record `at - 1` (hex).
    pub hash: String,
}

impl ParentView {
    fn of(p: arbiter_journal::Parent) -> ParentView {
        ParentView { session: p.session, at: p.at, hash: arbiter_journal::hex(&p.hash) }
    }
}

/// `arbiter sessions`.
pub async fn sessions(State(app): State<Shared>, params: Params) -> Result<Response, ApiError> {
    let params = params.only(&["format"])?;
    let format = params.format()?;
    blocking(move || {
        let list = arbiter_verify::session_list(&app.journal, &app.db)?;
        Ok(render::report(&list, format, 0)?.into_response())
    })
    .await
}

/// A session's metadata and head.
#[derive(Debug, Serialize)]
pub struct SessionInfo {
    pub name: String,
    pub game: String,
    pub title: String,
    pub records: u64,
    /// The chain hash after the last record (hex): what the next append chains to.
    pub hash: String,
    pub created: u64,
    pub rules_version: u32,
    pub setup: std::collections::BTreeMap<String, String>,
    pub catalog: Option<String>,
    pub parent: Option<ParentView>,
}

pub async fn session(
    State(app): State<Shared>,
    path: PathArgs,
    params: Params,
) -> Result<Json<SessionInfo>, ApiError> {
    params.only(&[])?;
    let name = session_name(path.at(0))?.to_string();
    blocking(move || {
        let meta = app.journal.session(&name)?;
        let records = app.journal.len(&name)?;
        let hash = arbiter_journal::hex(&app.journal.hash_at(&name, records)?);
        // The setup as a log header reads it: without the catalog file's stored hash, which
        // is the session's integrity, not a setting.
        let setup = arbiter_verify::header_of(&meta).setup;
        Ok(Json(SessionInfo {
            name,
            game: meta.game,
            title: meta.title,
            records,
            hash,
            created: meta.created,
            rules_version: meta.rules_version,
            setup,
            catalog: meta.catalog,
            parent: meta.parent.map(ParentView::of),
        }))
    })
    .await
}

pub async fn log(State(app): State<Shared>, path: PathArgs, params: Params) -> Result<Rendered, ApiError> {
    let params = params.only(&["format"])?;
    let (source, format) = (session_spec(path.at(0))?, params.format()?);
    blocking(move || render::log(&Context::new(&app.journal), &source, format)).await
}

pub async fn replay(State(app): State<Shared>, path: PathArgs, params: Params) -> Result<Rendered, ApiError> {
    let params = params.only(&["to", "variant", "format"])?;
    let source = session_spec(path.at(0))?;
    let (to, variants, format) = (params.number("to")?, params.variants()?, params.format()?);
    blocking(move || {
        let report = arbiter_verify::replay(&Context::new(&app.journal), &source, to, &variants)?;
        render::report(&report, format, 0)
    })
    .await
}

/// The state at the end of a session: what `board` prints while recording.
pub async fn state(State(app): State<Shared>, path: PathArgs, params: Params) -> Result<Rendered, ApiError> {
    let params = params.only(&["format"])?;
    let (source, format) = (session_spec(path.at(0))?, params.format()?);
    blocking(move || {
        let report = arbiter_verify::replay(&Context::new(&app.journal), &source, None, &[])?;
        render::report(&report.state, format, 0)
    })
    .await
}

pub async fn verify(State(app): State<Shared>, path: PathArgs, params: Params) -> Result<Response, ApiError> {
    let params = params.only(&["variant", "derive", "max_findings", "strict", "format"])?;
    let source = session_spec(path.at(0))?;
    let format = params.format()?;
    let options = VerifyOptions {
        variants: params.variants()?,
        derive: params.flag("derive")?,
        // Final facts appear only in the JSON report, as on the command line.
        skip_final_facts: format == Format::Text,
        max_findings: params.number("max_findings")?,
        strict: params.flag("strict")?,
    };
    blocking(move || render::verify(&Context::new(&app.journal), &source, &options, format))
        .await
        .map(IntoResponse::into_response)
}

pub async fn explain(
    State(app): State<Shared>,
    path: PathArgs,
    params: Params,
) -> Result<Rendered, ApiError> {
    let params = params.only(&["variant", "format"])?;
    let source = session_spec(path.at(0))?;
    let n: u64 = path.at(1).parse().map_err(|_| {
        ApiError::bad(format!("the record number must be a whole number, not `{}`", shown(path.at(1))))
    })?;
    let (variants, format) = (params.variants()?, params.format()?);
    blocking(move || {
        let report = arbiter_verify::explain(&Context::new(&app.journal), &source, n, &variants)?;
        render::report(&report, format, 0)
    })
    .await
}

pub async fn diff(State(app): State<Shared>, params: Params) -> Result<Rendered, ApiError> {
    let params = params.only(&["a", "b", "context", "all", "variant", "format"])?;
    let spec = |name: &str| -> Result<arbiter_verify::Source, ApiError> {
        let given = params.get(name)?.ok_or_else(|| {
            ApiError::bad(format!("diff needs the parameter `{name}`: a session (NAME or NAME@PARAM=VALUE)"))
        })?;
        session_spec(given)
    };
    let (a, b) = (spec("a")?, spec("b")?);
    let context = usize::try_from(params.number("context")?.unwrap_or(0)).unwrap_or(usize::MAX);
    let options = DiffOptions { context, all: params.flag("all")?, variants: params.variants()? };
    let format = params.format()?;
    blocking(move || {
        let report = arbiter_verify::diff(&Context::new(&app.journal), &a, &b, &options)?;
        render::report(&report, format, report.exit_code)
    })
    .await
}

pub async fn check(State(app): State<Shared>, path: PathArgs, params: Params) -> Result<Rendered, ApiError> {
    let params = params.only(&["format"])?;
    let name = session_name(path.at(0))?.to_string();
    let format = params.format()?;
    blocking(move || {
        let view = arbiter_verify::check(&Context::new(&app.journal), &name)?;
        render::report(&view, format, view.exit_code)
    })
    .await
}

pub async fn export(State(app): State<Shared>, path: PathArgs, params: Params) -> Result<Response, ApiError> {
    let params = params.only(&["format"])?;
    let source = session_spec(path.at(0))?;
    let (format, kind) = match params.get("format")? {
        None | Some("notation") => (arbiter_verify::Format::Notation, "text/plain; charset=utf-8"),
        Some("jsonl") => (arbiter_verify::Format::Jsonl, "application/jsonl"),
        Some(v) => {
            return Err(ApiError::bad(format!(
                "parameter `format` must be notation or jsonl, not `{}`",
                shown(v)
            )))
        }
    };
    blocking(move || {
        let text = arbiter_verify::export_string(&Context::new(&app.journal), &source, format)?;
        let mut response = text.into_response();
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
        response.headers_mut().insert(render::EXIT_HEADER, HeaderValue::from(0));
        Ok(response)
    })
    .await
}

pub async fn suggest(
    State(app): State<Shared>,
    path: PathArgs,
    params: Params,
) -> Result<Json<arbiter_verify::Suggestions>, ApiError> {
    let params = params.only(&["limit"])?;
    let name = session_name(path.at(0))?.to_string();
    let limit = params.number("limit")?.unwrap_or(24);
    if limit > MAX_SUGGESTIONS {
        return Err(ApiError::bad(format!("parameter `limit` may be at most {MAX_SUGGESTIONS}")));
    }
    blocking(move || {
        let source = arbiter_verify::Source::session(name);
        Ok(Json(arbiter_verify::suggest(&Context::new(&app.journal), &source, limit as usize)?))
    })
    .await
}
