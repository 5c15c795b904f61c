//! Reading a request as strictly as the command line reads its arguments: a JSON body of
//! exactly the fields a request takes, query parameters from a closed list, session specs
//! that can only ever name sessions (never a file on the server). Every refusal is a 4xx
//! with one sentence.

use crate::error::ApiError;
use arbiter_verify::{shown, Source};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// Largest request body of an import (a whole log file).
pub const MAX_IMPORT_BYTES: usize = 16 << 20;
/// Largest request body of any other write (a line, a name, a setup).
pub const MAX_BODY_BYTES: usize = 64 << 10;

/// A JSON request body; any rejection becomes an [`ApiError`] sentence.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        use axum::extract::rejection::JsonRejection as R;
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(JsonBody(value)),
            Err(R::MissingJsonContentType(_)) => Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "argument",
                "send the request body as JSON, with the header Content-Type: application/json",
            )),
            Err(R::JsonSyntaxError(e)) => {
                Err(ApiError::bad(format!("the request body is not valid JSON ({})", inner(&e.body_text()))))
            }
            Err(R::JsonDataError(e)) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "argument",
                format!("the request body is not what this request takes ({})", inner(&e.body_text())),
            )),
            Err(R::BytesRejection(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "argument",
                format!(
                    "the request body is larger than this request accepts ({} MiB for an import, {} KiB \
                     for any other write): import a larger log on the server's machine with --db",
                    MAX_IMPORT_BYTES >> 20,
                    MAX_BODY_BYTES >> 10
                ),
            )),
            Err(e) => Err(ApiError::new(
                e.status(),
                "argument",
                format!("the request body cannot be read ({})", inner(&e.body_text())),
            )),
        }
    }
}

/// axum's rejection text after its generic prefix ("Failed to deserialize ...: ").
fn inner(text: &str) -> String {
    let detail = text.rsplit_once(": ").map(|(_, d)| d).unwrap_or(text);
    shown(detail).into_owned()
}

/// Query parameters in order, repeated names kept (`variant=a=b&variant=c=d`).
pub struct Params(Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        Ok(Params(form_urlencoded::parse(query.as_bytes()).into_owned().collect()))
    }
}

impl Params {
    /// Refuse any parameter not in `allowed`, as the command line refuses an unknown flag.
    pub fn only(self, allowed: &[&str]) -> Result<Params, ApiError> {
        if let Some((name, _)) = self.0.iter().find(|(name, _)| !allowed.contains(&name.as_str())) {
            let takes = if allowed.is_empty() { "no parameters".to_string() } else { allowed.join(", ") };
            return Err(ApiError::bad(format!(
                "unknown parameter `{}`: this request takes {takes}",
                shown(name)
            )));
        }
        Ok(self)
    }

    /// The one value of `name`; a repeated one is refused.
    pub fn get(&self, name: &str) -> Result<Option<&str>, ApiError> {
        let mut values = self.0.iter().filter(|(n, _)| n == name);
        let first = values.next().map(|(_, v)| v.as_str());
        if values.next().is_some() {
            return Err(ApiError::bad(format!("parameter `{name}` is given more than once")));
        }
        Ok(first)
    }

    /// Every value of a repeatable parameter.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(n, _)| n == name).map(|(_, v)| v.clone()).collect()
    }

    /// A whole number, when given.
    pub fn number(&self, name: &str) -> Result<Option<u64>, ApiError> {
        match self.get(name)? {
            None => Ok(None),
            Some(v) => v.parse::<u64>().map(Some).map_err(|_| {
                ApiError::bad(format!("parameter `{name}` must be a whole number, not `{}`", shown(v)))
            }),
        }
    }

    /// A flag: absent, or `true`/`false` (`?all` alone means true).
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name)? {
            None | Some("false") => Ok(false),
            Some("" | "true") => Ok(true),
            Some(v) => {
                Err(ApiError::bad(format!("parameter `{name}` must be true or false, not `{}`", shown(v))))
            }
        }
    }

    /// `--variant NAME=VALUE` items as pairs.
    pub fn variants(&self) -> Result<Vec<(String, String)>, ApiError> {
        Ok(arbiter_verify::parse_variants(&self.all("variant"))?)
    }

    /// `format=json` (the default) or `format=text`: the two outputs of a command.
    pub fn format(&self) -> Result<Format, ApiError> {
        match self.get("format")? {
            None | Some("json") => Ok(Format::Json),
            Some("text") => Ok(Format::Text),
            Some(v) => {
                Err(ApiError::bad(format!("parameter `format` must be json or text, not `{}`", shown(v))))
            }
        }
    }
}

/// How a report is written: as `--json` prints it, or as the command prints it for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Text,
}

/// A session spec from a request: `NAME` or `NAME@PARAM=VALUE...`. Unlike the command line's
/// [`Source::parse`], it never names a file: a request cannot make the server read one.
pub fn session_spec(spec: &str) -> Result<Source, ApiError> {
    let mut parts = spec.split('@');
    let name = parts.next().unwrap_or_default();
    arbiter_journal::validate_name(name).map_err(|e| ApiError::bad(e.message().to_string()))?;
    let mut source = Source::session(name);
    for part in parts {
        match part.split_once('=') {
            Some((param, value)) if !param.is_empty() => source = source.with_variant(param, value),
            _ => {
                return Err(ApiError::bad(format!(
                    "`{}`: `@{}` is not of the form @NAME=VALUE",
                    shown(spec),
                    shown(part)
                )))
            }
        }
    }
    Ok(source)
}

/// A plain session name (no overrides), for writes.
pub fn session_name(name: &str) -> Result<&str, ApiError> {
    arbiter_journal::validate_name(name).map_err(|e| ApiError::bad(e.message().to_string()))?;
    Ok(name)
}

/// The path's parameters as text; a malformed one is a 400 with a sentence.
pub struct PathArgs(pub Vec<String>);

impl<S: Send + Sync> FromRequestParts<S> for PathArgs {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<Vec<String>>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(args)) => Ok(PathArgs(args)),
            Err(e) => Err(ApiError::bad(format!("the address cannot be read ({})", inner(&e.body_text())))),
        }
    }
}

impl PathArgs {
    /// The `i`th parameter (routes name how many they have).
    pub fn at(&self, i: usize) -> &str {
        self.0.get(i).map(String::as_str).unwrap_or_default()
    }
}
