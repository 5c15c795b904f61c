//! A PostgreSQL server for the tests and the benchmarks of the PostgreSQL backend (not for
//! use at run time): the one named by `ARBITER_TEST_POSTGRES` (`.ci/run` starts one and
//! sets it), or else a throwaway cluster this process starts with `.ci/postgres --watch`
//! when PostgreSQL's binaries are installed, which stops by itself once the process has
//! exited. Never a mock: without a server, `server` says so on the terminal and the caller
//! reports the test as not run.

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The variable naming the server tests use.
pub const VAR: &str = "ARBITER_TEST_POSTGRES";

/// The server's URL, `None` when there is none (said once on stderr, past the test
/// harness's capture, so a run without PostgreSQL is never a silent pass).
pub fn server() -> Option<&'static str> {
    static SERVER: OnceLock<Result<String, String>> = OnceLock::new();
    let found = SERVER.get_or_init(|| match std::env::var(VAR) {
        Ok(url) if !url.trim().is_empty() => Ok(url),
        _ => start(),
    });
    match found {
        Ok(url) => Some(url.as_str()),
        Err(why) => {
            static SAID: OnceLock<()> = OnceLock::new();
            SAID.get_or_init(|| {
                let _ = writeln!(std::io::stderr(), "NOT RUN on PostgreSQL: {why}");
            });
            None
        }
    }
}

/// Say that a test did not run on PostgreSQL (after `server` gave `None`).
pub fn not_run(test: &str) {
    let _ = writeln!(std::io::stderr(), "NOT RUN on PostgreSQL: {test} (no server; see above)");
}

/// A URL of the server whose connections see a schema of their own, made empty now: each
/// test gets fresh tables. `None` when there is no server.
pub fn fresh(label: &str) -> Result<Option<String>, String> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let Some(server) = server() else { return Ok(None) };
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let clean: String = label.chars().filter(|c| c.is_ascii_alphanumeric()).take(24).collect();
    let schema = format!("t{}_{n}_{}", std::process::id(), clean.to_ascii_lowercase());
    fresh_schema(server, &schema).map_err(|e| format!("{e} on {VAR}"))?;
    Ok(Some(with_search_path(server, &schema)))
}

/// Make `schema` on the server at `url`, empty.
pub fn fresh_schema(url: &str, schema: &str) -> Result<(), String> {
    crate::pg_store::tools::fresh_schema(url, schema)
}

/// `url` with `options=-c search_path=SCHEMA` added to its query.
pub fn with_search_path(url: &str, schema: &str) -> String {
    let glue = if url.contains('?') { '&' } else { '?' };
    format!("{url}{glue}options=-c%20search_path%3D{schema}")
}

/// A throwaway cluster for this process with fsync on, as a server in use runs (for the
/// benchmark: the tests' cluster may run without it).
pub fn start_durable() -> Result<String, String> {
    start_cluster(true)
}

/// The median round trip and the median commit of one row on the server at `url`, seconds.
pub fn costs(url: &str, n: usize) -> Result<(f64, f64), String> {
    crate::pg_store::tools::round_trip_and_commit(url, n)
}

/// Bytes the journal's tables take on the server at `url`, indexes included.
pub fn table_bytes(url: &str) -> Result<u64, String> {
    crate::pg_store::tools::table_bytes(url)
}

fn start() -> Result<String, String> {
    start_cluster(false)
}

/// Start a throwaway cluster for this process (see `.ci/postgres`).
fn start_cluster(fsync: bool) -> Result<String, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/postgres");
    if !script.exists() {
        return Err(format!("{VAR} is not set and {} is not there to start a cluster", script.display()));
    }
    let output = Command::new("bash")
        .arg(&script)
        .arg("--watch")
        .arg(std::process::id().to_string())
        .env("ARBITER_PG_FSYNC", if fsync { "on" } else { "off" })
        .output()
        .map_err(|e| format!("{VAR} is not set and {} could not run: {e}", script.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    match (output.status.code(), stdout.lines().last()) {
        (Some(0), Some(url)) if url.starts_with("postgres") => Ok(url.to_string()),
        (Some(3), _) => Err(format!(
            "{VAR} is not set and PostgreSQL's server is not installed (apt-get install postgresql, or run .ci/run)"
        )),
        _ => Err(format!(
            "{VAR} is not set and starting a throwaway cluster failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
    }
}
