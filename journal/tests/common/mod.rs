//! Helpers shared by the integration tests.

#![allow(dead_code)] // each test crate uses some of these

use arbiter_journal::SessionMeta;
use std::path::Path;
use std::time::{Duration, Instant};

/// Open a journal's database with sled alone, to look at or tamper with its trees.
///
/// sled's background writers can hold the file lock for a moment after a `Journal` is
/// dropped (the journal's own `open` retries for the same reason), so retry briefly.
pub fn open_raw(path: &Path) -> sled::Result<sled::Db> {
    let started = Instant::now();
    loop {
        match arbiter_journal::layout::sled_config(path).open() {
            Err(sled::Error::Io(e))
                if e.to_string().contains("could not acquire lock")
                    && started.elapsed() < Duration::from_secs(2) =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// The metadata of a plain test session (game `g`, no setup, no title).
pub fn meta() -> SessionMeta {
    SessionMeta {
        game: "g".to_string(),
        setup: Default::default(),
        catalog: None,
        rules_version: 1,
        created: 0,
        title: String::new(),
        parent: None,
    }
}

/// A small deterministic generator (xorshift64*), so a failure is reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A backend the behavioural tests run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sled,
    Postgres,
}

/// A fresh, empty database of one backend: a directory, or a schema of its own on the test
/// server, as the location `Journal::open` takes.
pub struct Fresh {
    pub location: std::path::PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sled => "sled",
            Backend::Postgres => "postgres",
        }
    }

    /// A fresh database; `label` names a PostgreSQL schema after the test.
    pub fn fresh(self, label: &str) -> Result<Fresh, String> {
        match self {
            Backend::Sled => {
                let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
                Ok(Fresh { location: dir.path().join("db"), _dir: Some(dir) })
            }
            Backend::Postgres => match arbiter_journal::test_server::fresh(label)? {
                Some(url) => Ok(Fresh { location: url.into(), _dir: None }),
                None => Err("no PostgreSQL server".to_string()),
            },
        }
    }
}

/// The backends to run a test on: sled always; PostgreSQL when a server is there (the
/// test server's module says how one is found). Without one, `test` is reported on the
/// terminal as not run on PostgreSQL, never passed silently.
pub fn backends(test: &str) -> Vec<Backend> {
    let mut out = vec![Backend::Sled];
    if arbiter_journal::test_server::server().is_some() {
        out.push(Backend::Postgres);
    } else {
        arbiter_journal::test_server::not_run(test);
    }
    out
}

/// Run `body` on a fresh database of every backend (`backends`), given its location; an
/// error says which backend it came from.
pub fn on_each_backend(
    test: &str,
    body: impl Fn(&Path) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    for backend in backends(test) {
        eprintln!("{test}: on {}", backend.name());
        let fresh = backend.fresh(test)?;
        body(&fresh.location).map_err(|e| format!("on {}: {e}", backend.name()))?;
    }
    Ok(())
}
