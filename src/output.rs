//! Everything the command line writes to standard output goes through here.
//!
//! Two promises: a write error is reported as what it is (a full disk is an error with a
//! sentence and exit 2; only a real EPIPE, a reader such as `head` that stopped reading, ends
//! the process quietly with the status a SIGPIPE death would give, 141), and no input can
//! drive the reader's terminal: control and escape characters that reached a report from a
//! log (a title, a path) are escaped on the way out.
//!
//! Colour (`crate::style`) is added to text for people only, after that escaping, and only
//! when [`init_color`] decided standard output gets it; JSON never has colour.

use crate::error::CliError;
use crate::style::Painter;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether text for people is coloured: set once by [`init_color`].
static COLOR: AtomicBool = AtomicBool::new(false);

/// Decide once whether standard output gets colour: `--color always|never`, or on `auto` a
/// terminal without NO_COLOR (anstream's reading of NO_COLOR, CLICOLOR, CLICOLOR_FORCE and
/// TERM, the conventions cargo and ripgrep follow).
pub fn init_color(when: crate::cli::ColorWhen) {
    use crate::cli::ColorWhen;
    let on = match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
    };
    COLOR.store(on, Ordering::Relaxed);
}

/// Whether text for people is coloured.
pub fn colored() -> bool {
    COLOR.load(Ordering::Relaxed)
}

/// Text for people as it reaches the terminal: controls escaped, then coloured if on.
fn for_people<'a>(text: &'a str, painter: &mut Painter) -> std::borrow::Cow<'a, str> {
    let safe = arbiter_verify::escape_controls(text, true);
    if colored() {
        std::borrow::Cow::Owned(painter.text(&safe))
    } else {
        safe
    }
}

/// The status of a process killed by SIGPIPE, which a closed pipe ends us with.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// The error for a failed write to standard output.
pub fn write_error(e: &std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        CliError::quiet(EXIT_BROKEN_PIPE)
    } else {
        CliError::input(format!("cannot write to standard output: {e}"))
    }
}

/// Write text for people: hostile characters escaped, line breaks and tabs kept, coloured
/// when colour is on.
pub fn print(text: &str) -> Result<(), CliError> {
    let safe = for_people(text, &mut Painter::default());
    let mut out = std::io::stdout().lock();
    out.write_all(safe.as_bytes()).and_then(|()| out.flush()).map_err(|e| write_error(&e))
}

/// Write text the tool generated itself from no input (a completion script, a man page):
/// as it is, with the same handling of write errors.
pub fn print_raw(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| write_error(&e))
}

/// Write JSON text. serde escapes C0 controls already; the other characters a terminal
/// would act on (DEL, C1 controls, bidirectional overrides) can only occur inside strings,
/// where `\uXXXX` is the same character to a JSON reader.
pub fn print_json(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(json_safe(text).as_bytes()).and_then(|()| out.flush()).map_err(|e| write_error(&e))
}

/// JSON text with the characters [`print_json`] escapes escaped.
pub fn json_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let hostile = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    // Line breaks between JSON values are layout, not content: keep them.
    let escape = |c: char| hostile(c) && c != '\n';
    if !text.chars().any(escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escape(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Standard output buffered, for a report printed piece by piece (a streamed `verify`):
/// one write per buffer, not per finding. Text goes through the same escaping as [`print`]
/// and [`print_json`].
pub struct Buffered {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    /// A person watching a terminal sees each piece as it comes; a pipe gets full buffers.
    terminal: bool,
    /// Colour across pieces (a board may span two).
    painter: Painter,
}

impl Buffered {
    pub fn new() -> Buffered {
        use std::io::IsTerminal;
        let terminal = std::io::stdout().is_terminal();
        Buffered {
            out: std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock()),
            terminal,
            painter: Painter::default(),
        }
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        let written = self.out.write_all(bytes);
        let flushed = if self.terminal { written.and_then(|()| self.out.flush()) } else { written };
        flushed.map_err(|e| write_error(&e))
    }

    /// Text for people.
    pub fn text(&mut self, text: &str) -> Result<(), CliError> {
        let safe = for_people(text, &mut self.painter);
        self.write(safe.as_bytes())
    }

    /// JSON text.
    pub fn json(&mut self, text: &str) -> Result<(), CliError> {
        let safe = json_safe(text);
        self.write(safe.as_bytes())
    }

    pub fn flush(&mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|e| write_error(&e))
    }
}

/// A writer to standard output that remembers why a write failed, for streaming commands
/// (`export`) whose library reports a failed write only as a sentence.
pub struct Stdout {
    out: std::io::StdoutLock<'static>,
    pub failure: Option<std::io::Error>,
}

impl Stdout {
    pub fn new() -> Stdout {
        Stdout { out: std::io::stdout().lock(), failure: None }
    }

    /// The error to report: the remembered write failure if there was one, else `other`.
    pub fn error(&mut self, other: CliError) -> CliError {
        match self.failure.take() {
            Some(e) => write_error(&e),
            None => other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf).inspect_err(|e| {
            self.failure.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush().inspect_err(|e| {
            self.failure.get_or_insert_with(|| std::io::Error::new(e.kind(), e.to_string()));
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_stays_json_and_loses_its_teeth() {
        let text = serde_json::to_string(&serde_json::json!({"title": "a\u{9b}b\u{202e}c\u{1b}d"}))
            .unwrap_or_default();
        let safe = json_safe(&text);
        assert!(!safe.contains('\u{9b}') && !safe.contains('\u{202e}') && !safe.contains('\u{1b}'), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap_or_default();
        assert_eq!(back["title"], "a\u{9b}b\u{202e}c\u{1b}d");
    }
}
