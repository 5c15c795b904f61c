//! Input as it may appear in a message: control and escape characters made visible, long
//! text cut.
//!
//! Messages quote what the user gave (a word of a log line, a title, a path). Echoed raw, an
//! escape sequence in a log file would drive the reader's terminal, and a one-megabyte line
//! would become a one-megabyte error. Every message that quotes input goes through [`shown`];
//! the command line passes whole messages through [`escape_controls`] as a last line of
//! defence.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Characters of input quoted in a message, at most; the rest is cut and counted.
pub const MAX_SHOWN_CHARS: usize = 120;

/// Whether a character must not reach a terminal as it is: C0 and C1 controls, DEL, and the
/// bidirectional overrides that reorder what a reader sees.
pub fn is_hostile(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn escape(c: char, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x80 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// A piece of input for a message: hostile characters escaped (`\x1b`, `\n`), and cut after
/// [`MAX_SHOWN_CHARS`] characters with a note of how much was left out.
pub fn shown(text: &str) -> Cow<'_, str> {
    let long = text.chars().nth(MAX_SHOWN_CHARS).is_some();
    if !long && !text.chars().any(is_hostile) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(4 * MAX_SHOWN_CHARS));
    let mut taken = 0;
    for c in text.chars().take(MAX_SHOWN_CHARS) {
        taken += c.len_utf8();
        if is_hostile(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    if long {
        let _ = write!(out, "… ({} more bytes)", text.len() - taken);
    }
    Cow::Owned(out)
}

/// A whole message made safe for a terminal: hostile characters escaped, except the line
/// breaks and tabs a multi-line report is made of when `keep_lines`.
pub fn escape_controls(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let keep = |c: char| keep_lines && matches!(c, '\n' | '\t');
    if !text.chars().any(|c| is_hostile(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hostile(c) && !keep(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_cuts() {
        assert_eq!(shown("up 1"), "up 1");
        assert_eq!(shown("a\x1b[31mred"), "a\\x1b[31mred");
        assert_eq!(shown("two\nlines"), "two\\nlines");
        assert_eq!(shown("\u{202e}abc"), "\\u{202e}abc");
        assert_eq!(shown("\u{9b}"), "\\u{9b}");
        let long = "x".repeat(1_000_000);
        let cut = shown(&long);
        assert!(cut.len() < 200, "{}", cut.len());
        assert!(cut.ends_with(&format!("({} more bytes)", 1_000_000 - MAX_SHOWN_CHARS)), "{cut}");
        assert_eq!(escape_controls("board\n\tline\x07", true), "board\n\tline\\x07");
        assert_eq!(escape_controls("a\nb", false), "a\\nb");
        assert_eq!(shown("é ü 日本"), "é ü 日本");
    }
}
