//! What the server's tests share: a server on an ephemeral loopback port over a scratch
//! database holding the shipped disputed session, and a small HTTP client.

#![allow(dead_code)]

use arbiter_server::{Config, Running};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The shipped disputed session.
pub fn disputed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/disputed-wound.arb")
}

pub struct Server {
    pub running: Running,
    pub url: String,
    pub db: PathBuf,
    pub dir: tempfile::TempDir,
}

/// A server on 127.0.0.1 (port chosen by the system) whose database holds `friday`, the
/// disputed session.
pub fn start(token: Option<&str>) -> Server {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("arbiter.db");
    {
        let journal = arbiter_journal::Journal::open(&db).expect("a new database");
        let ctx = arbiter_verify::Context::new(&journal);
        arbiter_verify::import_file(&ctx, &disputed(), Some("friday")).expect("the disputed session imports");
    }
    let config = Config::new(&db, "127.0.0.1:0", token, None).expect("a loopback config");
    let running = arbiter_server::spawn(config).expect("the server starts");
    let url = running.url();
    Server { running, url, db, dir }
}

/// A response: status, body, and the command's exit status when the server sent one.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub exit: Option<i32>,
    pub content_type: String,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn reply(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let exit = header("arbiter-exit-code").and_then(|v| v.parse().ok());
    let content_type = header("content-type").unwrap_or_default();
    let body = response.body_mut().read_to_string().expect("a text body");
    Reply { status, body, exit, content_type }
}

pub fn get(url: &str) -> Reply {
    reply(agent().get(url).call())
}

pub fn post(url: &str, body: &str, token: Option<&str>) -> Reply {
    let mut request = agent().post(url).header("content-type", "application/json");
    if let Some(t) = token {
        request = request.header("authorization", format!("Bearer {t}"));
    }
    reply(request.send(body))
}

/// Append one line at `expected`.
pub fn append(url: &str, session: &str, expected: u64, line: &str, token: Option<&str>) -> Reply {
    let body = serde_json::json!({ "expected": expected, "line": line }).to_string();
    post(&format!("{url}/api/sessions/{session}/records"), &body, token)
}
