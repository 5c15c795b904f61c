//! The API's one error: an HTTP status, a kind and one sentence, sent as the JSON object the
//! command line prints for `--json` errors (`schemas/error.json`: `{"error", "kind",
//! "exit_code"}`), so a client can say exactly what a local run would have said.

use arbiter_verify::{escape_controls, ErrorKind, VerifyError};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Longest message sent: an error may quote input, and input can be long.
const MAX_MESSAGE_CHARS: usize = 2000;

/// A request that could not be served.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    /// The command line's kind names: `argument`, `parse`, `session`, `conflict`...
    pub kind: &'static str,
    pub message: String,
    /// For a conflict: the session's head as it is now.
    pub head: Option<Head>,
    /// What a command had written to its output before it failed (a streamed report), so a
    /// client can show the same partial output a local run shows.
    pub partial: Option<String>,
}

/// A session's head: its length and the chain hash after its last record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Head {
    pub records: u64,
    pub hash: String,
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
    kind: &'a str,
    exit_code: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    head: Option<&'a Head>,
    #[serde(skip_serializing_if = "Option::is_none")]
    partial: Option<&'a str>,
}

impl ApiError {
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, kind, message: message.into(), head: None, partial: None }
    }

    /// A request that makes no sense: 400.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "argument", message)
    }

    /// Nothing at this address: 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "argument", message)
    }

    /// An append whose expected sequence is not the session's length: 409 with the head.
    pub fn conflict(message: impl Into<String>, head: Head) -> ApiError {
        let mut e = ApiError::new(StatusCode::CONFLICT, "conflict", message);
        e.head = Some(head);
        e
    }

    /// A write without the right token: 401.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "token", message)
    }

    /// A bug on the server's side; the client still gets one sentence.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    pub fn with_partial(mut self, partial: String) -> ApiError {
        self.partial = Some(partial);
        self
    }
}

impl From<VerifyError> for ApiError {
    fn from(e: VerifyError) -> ApiError {
        // The same kind names as the command line's `--json` errors.
        let (status, kind) = match e.kind {
            ErrorKind::Io => (StatusCode::BAD_REQUEST, "io"),
            ErrorKind::Parse => (StatusCode::BAD_REQUEST, "parse"),
            ErrorKind::UnknownGame => (StatusCode::BAD_REQUEST, "unknown-game"),
            ErrorKind::Setup => (StatusCode::BAD_REQUEST, "setup"),
            ErrorKind::Session => (StatusCode::NOT_FOUND, "session"),
            ErrorKind::Journal => (StatusCode::CONFLICT, "journal"),
            ErrorKind::Busy => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            ErrorKind::Argument => (StatusCode::BAD_REQUEST, "argument"),
        };
        ApiError::new(status, kind, e.message)
    }
}

impl From<arbiter_journal::JournalError> for ApiError {
    fn from(e: arbiter_journal::JournalError) -> ApiError {
        use arbiter_journal::ErrorKind as K;
        let (status, kind) = match e.kind() {
            K::SessionNotFound => (StatusCode::NOT_FOUND, "session"),
            K::InvalidName => (StatusCode::BAD_REQUEST, "journal"),
            K::SessionExists | K::Conflict => (StatusCode::CONFLICT, "journal"),
            K::InUse => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            K::InvalidRecord | K::OutOfRange => (StatusCode::BAD_REQUEST, "journal"),
            _ => (StatusCode::INTERNAL_SERVER_ERROR, "journal"),
        };
        ApiError::new(status, kind, e.message().to_string())
    }
}

/// `message` made safe to show and cut to a bounded length.
pub fn one_sentence(message: &str) -> String {
    let mut text = escape_controls(message, false).into_owned();
    if let Some((cut, _)) = text.char_indices().nth(MAX_MESSAGE_CHARS) {
        text.truncate(cut);
        text.push_str("… (cut)");
    }
    text
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = one_sentence(&self.message);
        let body = Body {
            error: &message,
            kind: self.kind,
            exit_code: 2,
            head: self.head.as_ref(),
            partial: self.partial.as_deref(),
        };
        let text = serde_json::to_string(&body).unwrap_or_else(|_| {
            r#"{"error":"the error could not be written","kind":"internal","exit_code":2}"#.to_string()
        });
        let mut response = (self.status, text).into_response();
        response.headers_mut().insert(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        );
        response
    }
}
