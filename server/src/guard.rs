//! Who may do what: every write carries the server's token when it has one, and a server
//! listening on loopback only answers requests addressed to this machine.
//!
//! Together with writes accepting JSON bodies only (a cross-site form cannot send one
//! without the browser asking first), this keeps a web page from another site from
//! writing to, or reading through a rebound name, a server on the referee's laptop.

use crate::app::Shared;
use crate::error::ApiError;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Proof that a write request carries the token (or that the server needs none).
pub struct Authorized;

impl FromRequestParts<Shared> for Authorized {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Self, Self::Rejection> {
        let Some(token) = &app.token else { return Ok(Authorized) };
        let given = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        match given {
            Some(given) if same(given.trim().as_bytes(), token.as_bytes()) => Ok(Authorized),
            Some(_) => Err(ApiError::unauthorized("the token given for this write is not the server's")),
            None => Err(ApiError::unauthorized(
                "this server takes writes only with its token: send the header Authorization: Bearer TOKEN (--token or ARBITER_TOKEN)",
            )),
        }
    }
}

/// Equal byte strings, compared in time that depends on the length only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether a `Host` header names this machine: `localhost`, an IPv4 loopback address or `[::1]`.
pub fn is_local_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or_default()
    } else {
        host.rsplit_once(':').map(|(h, _)| h).unwrap_or(host)
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<std::net::IpAddr>().map(|ip| ip.is_loopback()).unwrap_or(false)
}

/// Refuse a request to a loopback-only server that names another host.
pub async fn check_host(State(app): State<Shared>, request: Request, next: Next) -> Response {
    if app.loopback {
        let host = request.headers().get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if !is_local_host(host) {
            return ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                "argument",
                "this server listens on loopback only and answers requests addressed to localhost",
            )
            .into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_hosts() {
        for host in ["localhost", "localhost:7878", "127.0.0.1:80", "127.1.2.3", "[::1]:7878", "LOCALHOST"] {
            assert!(is_local_host(host), "{host}");
        }
        for host in ["", "example.com", "evil.localhost.example:80", "10.0.0.1:7878", "[::2]:1"] {
            assert!(!is_local_host(host), "{host}");
        }
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"abcd"));
    }
}
