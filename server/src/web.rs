//! The web app: plain HTML, CSS and JavaScript modules compiled into the binary, so
//! `arbiter serve` needs no build step and no files beside it. The pages talk to the JSON
//! API like any other client.

use crate::app::Shared;
use crate::error::ApiError;
use axum::extract::Path;
use axum::http::{header, HeaderValue, Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// Every asset: its name under `/assets/`, its content type and its bytes.
const ASSETS: &[(&str, &str, &str)] = &[
    ("app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("api.js", "text/javascript; charset=utf-8", include_str!("../web/api.js")),
    ("views.js", "text/javascript; charset=utf-8", include_str!("../web/views.js")),
    ("record.js", "text/javascript; charset=utf-8", include_str!("../web/record.js")),
    ("boards.js", "text/javascript; charset=utf-8", include_str!("../web/boards.js")),
    ("svg.js", "text/javascript; charset=utf-8", include_str!("../web/svg.js")),
    (
        "board-proving-grounds.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/board-proving-grounds.js"),
    ),
    (
        "board-keridwyn-fight.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/board-keridwyn-fight.js"),
    ),
    ("board-wild-assent.js", "text/javascript; charset=utf-8", include_str!("../web/board-wild-assent.js")),
    (
        "board-flame-and-forge.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/board-flame-and-forge.js"),
    ),
    ("style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
];

const INDEX: &str = include_str!("../web/index.html");

pub fn routes() -> Router<Shared> {
    Router::new().route("/", get(index)).route("/assets/{file}", get(asset))
}

fn page(kind: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    // The pages run only their own scripts and talk only to this server.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
        ),
    );
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

async fn index() -> Response {
    page("text/html; charset=utf-8", INDEX)
}

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, kind, body)) => page(kind, body),
        None => ApiError::not_found(format!("there is no asset `{}`", arbiter_verify::shown(&file)))
            .into_response(),
    }
}

/// Anything else: a 404 (or 405 for a known address) with one sentence.
pub async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "there is nothing at {method} {}: the API is under /api (see docs/api/openapi.json), the web app at /",
        arbiter_verify::shown(uri.path())
    ))
}
