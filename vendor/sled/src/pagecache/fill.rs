//! Patched for arbiter: writing a range only when the file does not already hold it.
//!
//! sled overwrites the tail of the segment it recovers into and every free segment with
//! `MessageKind::Corrupted` bytes at every start, read-only use included: on a database with
//! a few dozen free segments that was megabytes of writes, which the `fsync` that follows
//! then had to put on the disk, at every open. After the first start those bytes are
//! already there, so the range is read first and written only if any byte differs. The
//! callers keep their `fsync`s, so anything still unwritten from an earlier process is made
//! durable exactly as before; the file ends up with the same bytes either way.

use std::io;

use super::{pread_exact_or_eof, pwrite_all, LogOffset};

/// How much of the range is read and compared at a time.
const CHUNK: usize = 64 * 1024;

/// Write `buf` at `offset`, unless the file already holds exactly `buf` there.
pub(crate) fn pwrite_all_unless_equal(
    file: &std::fs::File,
    buf: &[u8],
    offset: LogOffset,
) -> io::Result<()> {
    if holds(file, buf, offset)? {
        return Ok(());
    }
    pwrite_all(file, buf, offset)
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
