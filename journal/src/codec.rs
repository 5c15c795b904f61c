//! Every persistent encode and decode of arbiter goes through here (records, metadata,
//! snapshots, states), so the format can change in one place.
//!
//! The format is bincode 2.0.1's serde API with its standard configuration (little-endian,
//! variable-length integers). bincode is pinned and unmaintained, hence three guards on
//! decoding, which sees bytes from disk and so from anyone:
//! - a size limit (`LIMIT`), so a forged length cannot make it allocate gigabytes;
//! - every byte must be consumed, so trailing garbage is an error, not silently ignored;
//! - a caught panic: a panic inside bincode or inside a type's `Deserialize` becomes an
//!   error, and a panic hook installed once keeps it from printing a message or backtrace.
//!   (A recursive type nested deeper than the stack allows still aborts; no arbiter type
//!   is recursive.)

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::Cell;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// The most bytes one decode may claim (for strings and containers it allocates). States
/// and snapshots are far smaller; a forged length past this is refused before allocating.
pub const LIMIT: usize = 64 << 20;

fn config() -> bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<LIMIT>,
> {
    bincode::config::standard().with_limit::<LIMIT>()
}

/// Why a value could not be encoded or decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CodecErrorKind {
    /// The value's `Serialize` implementation failed.
    Encode,
    /// The bytes are not an encoding of the type (wrong tag, invalid UTF-8, too short,
    /// a length past `LIMIT`).
    Decode,
    /// The bytes hold a whole value and then more bytes.
    TrailingBytes,
    /// Decoding panicked (inside bincode or the type's `Deserialize`); the panic was caught.
    Panicked,
}

/// An encode or decode failure, with one sentence saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError {
    pub kind: CodecErrorKind,
    pub message: String,
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodecError {}

/// Encode a value.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CodecError> {
    let mut out = Vec::new();
    encode_into(value, &mut out)?;
    Ok(out)
}

/// Encode a value at the end of `out` (no allocation per value when `out` is reused).
/// Returns the number of bytes written; on error `out` is left as it was.
pub fn encode_into<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<usize, CodecError> {
    let start = out.len();
    match bincode::serde::encode_into_std_write(value, &mut *out, config()) {
        Ok(n) => Ok(n),
        Err(e) => {
            out.truncate(start);
            Err(CodecError { kind: CodecErrorKind::Encode, message: format!("cannot encode value: {e}") })
        }
    }
}

/// Decode a value that must fill `bytes` exactly. Never panics, never prints.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    install_quiet_hook();
    let was_quiet = QUIET.with(|q| q.replace(true));
    let outcome =
        panic::catch_unwind(AssertUnwindSafe(|| bincode::serde::decode_from_slice::<T, _>(bytes, config())));
    QUIET.with(|q| q.set(was_quiet));
    match outcome {
        Err(_) => Err(CodecError {
            kind: CodecErrorKind::Panicked,
            message: format!("decoding {} bytes panicked (caught)", bytes.len()),
        }),
        Ok(Err(e)) => {
            Err(CodecError { kind: CodecErrorKind::Decode, message: format!("cannot decode: {e}") })
        }
        Ok(Ok((value, used))) if used == bytes.len() => Ok(value),
        Ok(Ok((_, used))) => Err(CodecError {
            kind: CodecErrorKind::TrailingBytes,
            message: format!(
                "{} bytes left over after decoding {used} of {}",
                bytes.len() - used,
                bytes.len()
            ),
        }),
    }
}

thread_local! {
    /// Set while this thread decodes: the hook then stays silent. Thread-local, so a real
    /// panic on another thread at the same moment still prints.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

static HOOK: Once = Once::new();

/// Wrap whatever panic hook is installed (the default one, or a test harness's) so that it
/// is skipped while the current thread is decoding. Installed once, on the first decode.
fn install_quiet_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
}
