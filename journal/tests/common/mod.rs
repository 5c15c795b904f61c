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
        match sled::open(path) {
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
