//! The reference every durable append is held to: how long this disk takes to make a small
//! write durable (write, then fsync), measured in the same run.

use super::measure::median;
use crate::Fallible;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Median seconds of `n` write+fsync pairs of 64 bytes appended to one file in `dir`.
pub fn latency(dir: &Path, n: usize) -> Fallible<f64> {
    let path = dir.join("fsync-reference");
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&path)?;
    let line = [b'x'; 64];
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        file.write_all(&line)?;
        file.sync_all()?;
        samples.push(start.elapsed().as_secs_f64());
    }
    drop(file);
    std::fs::remove_file(&path)?;
    Ok(median(samples))
}
