//! Patched for arbiter: writing a range only when the file does not already hold it.
//!
//! sled overwrites the tail of the segment it recovers into and every free segment with
//! `MessageKind::Corrupted` bytes at every start, read-only use included: on a database with
//! a few dozen free segments that was megabytes of writes, which the `fsync` that follows
//! then had to put on the disk, at every open. After the first start those bytes are
//! already there, so the range is read first and written only if any byte differs. The
//! callers keep their `fsync`s, so anything still unwritten from an earlier process is made
//! durable exactly as before; the file ends up with the same bytes either way. A process that
//! only reads may drop those `fsync`s when nothing was written (`Config::sync_at_start`).

use std::io;

use super::{pread_exact_or_eof, pwrite_all, LogOffset};

/// How much of the range is read and compared at a time.
const CHUNK: usize = 64 * 1024;

/// Write `buf` at `offset`, unless the file already holds exactly `buf` there; whether it
/// wrote.
pub(crate) fn pwrite_all_unless_equal(
    file: &std::fs::File,
    buf: &[u8],
    offset: LogOffset,
) -> io::Result<bool> {
    if holds(file, buf, offset)? {
        return Ok(false);
    }
    pwrite_all(file, buf, offset).map(|()| true)
}

/// Whether the start must `fsync` the data file after its fills: always in sled's own
/// behaviour, and for a process that only reads (`Config::sync_at_start(false)`) only when
/// a fill wrote something.
pub(crate) fn sync_needed(config: &crate::Config, wrote: bool) -> bool {
    wrote || config.sync_at_start
}

/// Whether the file holds `buf` at `offset` (a file that ends before does not).
fn holds(file: &std::fs::File, buf: &[u8], offset: LogOffset) -> io::Result<bool> {
    let mut read = vec![0_u8; CHUNK.min(buf.len())];
    let mut at = 0_usize;
    while at < buf.len() {
        let want = &buf[at..buf.len().min(at + CHUNK)];
        let got = &mut read[..want.len()];
        let n = pread_exact_or_eof(file, got, offset + at as LogOffset)?;
        if n < want.len() || got != want {
            return Ok(false);
        }
        at += want.len();
    }
    Ok(true)
}
