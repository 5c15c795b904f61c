//! Every route of the server: the JSON API under `/api` and the web app at `/`, each path
//! to its handler, with the body limits of writes. Above the handlers and the shared state
//! (`app.rs`), which name no route.

use crate::app::Shared;
use crate::{audit, guard, live, reads, web, writes};
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

pub use crate::extract::{MAX_BODY_BYTES, MAX_IMPORT_BYTES};

/// Every route: the JSON API under `/api`, the web app at `/`. Writes check the token
/// themselves (`guard::Authorized`); every request checks the Host header (`guard::check_host`).
pub fn router(app: Shared) -> Router {
    let small = || DefaultBodyLimit::max(MAX_BODY_BYTES);
    Router::new()
        .route("/api/health", get(reads::health))
        .route("/api/games", get(reads::games))
        .route("/api/sessions", get(reads::sessions).post(writes::create).layer(small()))
        .route("/api/import", post(writes::import).layer(DefaultBodyLimit::max(MAX_IMPORT_BYTES)))
        .route("/api/sessions/{spec}", get(reads::session))
        .route("/api/sessions/{spec}/log", get(reads::log))
        .route("/api/sessions/{spec}/replay", get(reads::replay))
        .route("/api/sessions/{spec}/verify", get(reads::verify))
        .route("/api/sessions/{spec}/explain/{n}", get(reads::explain))
        .route("/api/sessions/{spec}/export", get(reads::export))
        .route("/api/sessions/{spec}/check", get(reads::check))
        .route("/api/sessions/{spec}/suggest", get(reads::suggest))
        .route("/api/sessions/{spec}/state", get(reads::state))
        .route("/api/sessions/{spec}/live", get(live::session))
        .route("/api/sessions/{spec}/records", post(writes::append).layer(small()))
        .route("/api/sessions/{spec}/fork", post(writes::fork).layer(small()))
        .route("/api/sessions/{spec}/snapshot", post(writes::snapshot).layer(small()))
        .route("/api/diff", get(reads::diff))
        .route("/api/audit", post(audit::audit).layer(small()))
        .merge(web::routes())
        .fallback(web::not_found)
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&app), guard::check_host))
        .with_state(app)
}
