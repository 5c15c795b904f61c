//! Helpers shared by the integration tests.

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
