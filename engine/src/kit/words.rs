//! One notation tokenizer for every game: a line read word by word, each read naming what
//! it expected, so a parse error says where (a 1-based column in characters) and what.
//!
//! Words are separated by whitespace. Nothing is collected up front: the reader keeps a byte
//! position and finds the next word on demand, and a column is only counted when an error is
//! built, so reading a well-formed line allocates nothing but the values it returns.

use super::named::Named;
use crate::ParseError;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// The bytes an id may hold, one lookup per byte (every name a log holds is checked, on
/// every parse and every decode).
const ID_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
        b += 1;
    }
    t
};

/// The ASCII bytes that separate words (space, `\t` to `\r`), one lookup per byte.
const SPACE_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = matches!(b, 0x09..=0x0d | 0x20);
        b += 1;
    }
    t
};

/// What an id may be made of: ASCII letters, digits, `-` and `_`.
#[inline]
pub fn is_id(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(is_id_byte)
}

/// Whether one byte may be part of an id (see [`is_id`]).
#[inline]
pub fn is_id_byte(b: u8) -> bool {
    ID_BYTE[usize::from(b)]
}

/// A line being read.
#[derive(Debug, Clone)]
pub struct Words<'a> {
    line: &'a str,
    /// Byte offset of the next unread character.
    pos: usize,
    /// The next word's byte range, found once per word.
    next: Option<(usize, usize)>,
    /// The line is ASCII (almost every line is): words are found byte by byte.
    ascii: bool,
}

impl<'a> Words<'a> {
    #[inline]
    pub fn new(line: &'a str) -> Self {
        let mut w = Words { line, pos: 0, next: None, ascii: line.is_ascii() };
        w.next = w.scan();
        w
    }

    /// Move past the next word.
    #[inline]
    fn advance_to(&mut self, end: usize) {
        self.pos = end;
        self.next = self.scan();
    }

    /// Whether the character starting at byte `i` is whitespace, and its length. Bytes
    /// below 0x80 are decided without decoding (notation is almost always ASCII).
    #[inline]
    fn space_at(&self, i: usize) -> (bool, usize) {
        let b = self.line.as_bytes()[i];
        if b < 0x80 {
            // ASCII's whitespace, as `char::is_whitespace` has it: tab to carriage return, space.
            return (b == b' ' || (b'\t'..=b'\r').contains(&b), 1);
        }
        match self.line[i..].chars().next() {
            Some(c) => (c.is_whitespace(), c.len_utf8()),
            None => (false, 1),
        }
    }

    /// The next word and the byte range it occupies, without consuming it.
    #[inline]
    fn next_span(&self) -> Option<(usize, usize)> {
        self.next
    }

    /// Find the word after `pos`.
    #[inline]
    fn scan(&self) -> Option<(usize, usize)> {
        if self.ascii {
            // ASCII's whitespace, as `char::is_whitespace` has it: tab to carriage return, space.
            let space = |b: &u8| SPACE_BYTE[usize::from(*b)];
            let bytes = self.line.as_bytes().get(self.pos..)?;
            let start = bytes.iter().position(|b| !space(b))?;
            let len = bytes[start..].iter().position(space).unwrap_or(bytes.len() - start);
            return Some((self.pos + start, self.pos + start + len));
        }
        let len = self.line.len();
        let mut i = self.pos;
        while i < len {
            let (space, n) = self.space_at(i);
            if !space {
                break;
            }
            i += n;
        }
        if i >= len {
            return None;
        }
        let start = i;
        while i < len {
            let (space, n) = self.space_at(i);
            if space {
                break;
            }
            i += n;
        }
        Some((start, i))
    }

    /// The next word and where it ends, for a read that consumes it.
    #[inline]
    fn next_word(&self) -> Option<(&'a str, usize)> {
        self.next_span().map(|(s, e)| (&self.line[s..e], e))
    }

    /// The next word, not consumed.
    #[inline]
    pub fn peek(&self) -> Option<&'a str> {
        self.next_word().map(|(w, _)| w)
    }

    /// Consume the next word (after a successful `peek`).
    #[inline]
    pub fn skip(&mut self) {
        if let Some((_, end)) = self.next_span() {
            self.advance_to(end);
        }
    }

    /// 1-based column (in characters) of the next word, or just past the end of the line.
    pub fn column(&self) -> usize {
        let at = self.next_span().map(|(s, _)| s).unwrap_or(self.line.len());
        self.line[..at].chars().count() + 1
    }

    /// A parse error at the next word: what was expected there and what was found.
    pub fn err(&self, expected: impl Into<String>) -> ParseError {
        let found = self.peek().map(|w| format!("`{w}`")).unwrap_or_else(|| "end of line".into());
        ParseError::new(self.column(), expected, found)
    }

    /// Any next word.
    #[inline]
    pub fn word(&mut self, expected: &str) -> Result<&'a str, ParseError> {
        let (w, end) = self.next_word().ok_or_else(|| self.err(expected))?;
        self.advance_to(end);
        Ok(w)
    }

    /// Exactly `kw`.
    #[inline]
    pub fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        match self.next_word() {
            Some((w, end)) if w == kw => {
                self.advance_to(end);
                Ok(())
            }
            _ => Err(self.err(format!("`{kw}`"))),
        }
    }

    /// Consume `kw` if it is next; whether it was.
    #[inline]
    pub fn optional(&mut self, kw: &str) -> bool {
        match self.next_word() {
            Some((w, end)) if w == kw => {
                self.advance_to(end);
                true
            }
            _ => false,
        }
    }

    /// An id (`[A-Za-z0-9_-]+`), the one id grammar of every notation.
    pub fn id(&mut self, expected: &str) -> Result<&'a str, ParseError> {
        match self.next_word() {
            Some((w, end)) if is_id(w) => {
                self.advance_to(end);
                Ok(w)
            }
            _ => Err(self.err(expected)),
        }
    }

    /// A number of any type `FromStr` reads (no sign unless the type takes one).
    pub fn number<T: FromStr>(&mut self, expected: &str) -> Result<T, ParseError> {
        match self.next_word().and_then(|(w, end)| w.parse::<T>().ok().map(|v| (v, end))) {
            Some((v, end)) => {
                self.advance_to(end);
                Ok(v)
            }
            None => Err(self.err(expected)),
        }
    }

    /// A number within `range`.
    #[inline]
    pub fn number_in<T: FromStr + PartialOrd>(
        &mut self,
        range: RangeInclusive<T>,
        expected: &str,
    ) -> Result<T, ParseError> {
        match self.next_word().and_then(|(w, end)| w.parse::<T>().ok().map(|v| (v, end))) {
            Some((v, end)) if range.contains(&v) => {
                self.advance_to(end);
                Ok(v)
            }
            _ => Err(self.err(expected)),
        }
    }

    /// `+N` or `-N`: the sign is required.
    pub fn signed(&mut self, expected: &str) -> Result<i32, ParseError> {
        match self.peek() {
            Some(w) if w.starts_with('+') || w.starts_with('-') => self.number(expected),
            _ => Err(self.err(expected)),
        }
    }

    /// `+N` (a gain): the plus sign is required.
    pub fn plus(&mut self, expected: &str) -> Result<u32, ParseError> {
        match self.peek().and_then(|w| w.strip_prefix('+')).and_then(|w| w.parse::<u32>().ok()) {
            Some(v) => {
                self.skip();
                Ok(v)
            }
            None => Err(self.err(expected)),
        }
    }

    /// One value of a named enum, by its name.
    pub fn named<T: Named>(&mut self) -> Result<T, ParseError> {
        match self.next_word().and_then(|(w, end)| T::parse(w).map(|v| (v, end))) {
            Some((v, end)) => {
                self.advance_to(end);
                Ok(v)
            }
            None => Err(self.err(T::expected())),
        }
    }

    /// Whether the line is used up.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.peek().is_none()
    }

    /// The end of the line: nothing may follow.
    pub fn end(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.err("end of line")),
        }
    }

    /// Everything not yet read, trimmed (free text at the end of a line).
    pub fn rest(&mut self) -> &'a str {
        let r = self.line[self.pos..].trim();
        self.advance_to(self.line.len());
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::named::named_enum;

    named_enum! {
        /// Test words.
        pub enum Place ("a place") { Cage = "cage", Zone = "zone" }
    }

    #[test]
    fn byte_tables_are_the_id_and_space_grammar() {
        for b in 0..=255u8 {
            let id = b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
            assert_eq!(ID_BYTE[usize::from(b)], id, "id byte {b:#04x}");
            let space = b == b' ' || (b'\t'..=b'\r').contains(&b);
            assert_eq!(SPACE_BYTE[usize::from(b)], space, "space byte {b:#04x}");
        }
        let mut w = Words::new("a\tb\x0bc\x0cd\re  f");
        let all: Vec<_> = std::iter::from_fn(|| w.word("a word").ok()).collect();
        assert_eq!(all, ["a", "b", "c", "d", "e", "f"]);
    }

    #[test]
    fn words_report_char_columns_and_what_was_expected() {
        let mut w = Words::new("  reroll  Ä 9 -> x");
        assert_eq!(w.column(), 3);
        w.keyword("reroll").unwrap();
        assert_eq!(w.id("a player").unwrap_err().column, 11);
        assert_eq!(w.word("a player").unwrap(), "Ä");
        assert_eq!(w.number_in(1..=10u8, "a die").unwrap(), 9);
        w.keyword("->").unwrap();
        let e = w.number::<u8>("a die value").unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (18, "`x`"));
        w.skip();
        let e = w.end();
        assert!(e.is_ok());
        let e = w.word("more").unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (19, "end of line"));
    }

    #[test]
    fn numbers_signs_and_named_values() {
        let mut w = Words::new("+3 -2 +4 cage 11 zone");
        assert_eq!(w.signed("a signed number").unwrap(), 3);
        assert_eq!(w.signed("a signed number").unwrap(), -2);
        assert_eq!(w.plus("+N").unwrap(), 4);
        assert_eq!(w.named::<Place>().unwrap(), Place::Cage);
        assert!(w.number_in(1..=10u32, "1-10").is_err());
        assert_eq!(w.number::<u32>("n").unwrap(), 11);
        assert!(w.optional("zone"));
        assert!(w.at_end());
        let mut w = Words::new("5 park");
        assert!(w.signed("a signed number").is_err());
        w.skip();
        let e = w.named::<Place>().unwrap_err();
        assert_eq!(e.expected, "a place (cage, zone)");
        assert_eq!(Words::new("say hello there").rest(), "say hello there");
        assert!(is_id("fire-breath_2") && !is_id("a:b") && !is_id(""));
    }
}
