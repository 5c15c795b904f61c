//! The reference every durable append is held to: how long this disk takes to make a small
//! write durable, measured in the same run.
//!
//! Two references, because they differ by the file system's own journal: appending to a
//! file and `fsync` commits its metadata too (size, times), which waits for the file
//! system's journal, and so for every other writer of the disk; rewriting bytes in place
//! and `fdatasync` commits no metadata and is the floor of any durable write (a log that
//! preallocates its files and uses `fdatasync`, as sled does, can get close to it).

use crate::Fallible;
use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::time::Instant;

/// How the 64 bytes are written before each fsync.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write64 {
    /// Appended, then `fsync`: the file grows by 64 bytes each time.
    Append,
    /// Rewritten at offset 0 of a 64-byte file, then `fdatasync`.
    InPlace,
}

/// Seconds taken by each of `n` write+fsync pairs of 64 bytes on one file in `dir`.
pub fn samples(dir: &Path, n: usize, how: Write64) -> Fallible<Vec<f64>> {
    let path = dir.join("fsync-reference");
    let mut file = OpenOptions::new().create(true).append(how == Write64::Append).write(true).open(&path)?;
    let line = [b'x'; 64];
    if how == Write64::InPlace {
        file.write_all_at(&line, 0)?;
        file.sync_all()?;
    }
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        match how {
            Write64::Append => {
                file.write_all(&line)?;
                file.sync_all()?;
            }
            Write64::InPlace => {
                file.write_all_at(&line, 0)?;
                file.sync_data()?;
            }
        }
        samples.push(start.elapsed().as_secs_f64());
    }
    drop(file);
    std::fs::remove_file(&path)?;
    Ok(samples)
}
