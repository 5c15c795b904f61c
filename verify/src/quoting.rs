//! Free-text values on notation directive lines (`@title`, `@catalog`, `@setup NAME=VALUE`):
//! written bare when they read back as themselves, else as a JSON string literal.
//!
//! `#` starts a comment anywhere on a notation line and a line ends at a line break, so a
//! title such as `Game #3 at Bob's` or one with a newline cannot be written bare. Rather
//! than lose it, export writes `@title "Game #3 at Bob's"`: the quoted form is JSON's
//! string syntax (`\"`, `\\`, `\n`, `\u0007`), which every reader of the format knows.

use std::borrow::Cow;

/// Whether `value` can be written bare. A `word` (a setup value) must also hold no space.
fn bare_ok(value: &str, word: bool) -> bool {
    !value.is_empty()
        && !value.starts_with('"')
        && value.trim() == value
        && !value.chars().any(|c| c == '#' || c.is_control() || (word && c.is_whitespace()))
}

/// `value` as a directive writes it: bare, or quoted when bare would not read back.
pub fn quote(value: &str, word: bool) -> Cow<'_, str> {
    if bare_ok(value, word) {
        Cow::Borrowed(value)
    } else {
        // Serializing a string cannot fail; the fallback keeps the value rather than panic.
        Cow::Owned(serde_json::to_string(value).unwrap_or_else(|_| format!("{value:?}")))
    }
}

/// A quoted value at the start of `text`: the value and the text after its closing quote.
fn quoted(text: &str) -> Result<(String, &str), String> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<String>();
    match values.next() {
        Some(Ok(value)) => Ok((value, &text[values.byte_offset()..])),
        _ => Err("a string closed by `\"` (JSON string syntax)".to_string()),
    }
}

/// What may follow a value: blanks, then nothing or a comment.
fn only_comment(rest: &str) -> bool {
    let rest = rest.trim_start();
    rest.is_empty() || rest.starts_with('#')
}

/// The value of a directive that takes the rest of its line (`@title`, `@catalog`): quoted,
/// or bare up to a comment, trimmed. `Err` says what was expected instead.
pub fn rest_value(rest: &str) -> Result<String, String> {
    let rest = rest.trim_start();
    if rest.starts_with('"') {
        let (value, after) = quoted(rest)?;
        if !only_comment(after) {
            return Err("nothing but a comment after the closing `\"`".to_string());
        }
        return Ok(value);
    }
    Ok(rest.split('#').next().unwrap_or_default().trim().to_string())
}

/// The `NAME=VALUE` pairs of a `@setup` line, each value bare (one word) or quoted.
pub fn setup_pairs(rest: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let mut text = rest.trim_start();
    while !text.is_empty() && !text.starts_with('#') {
        let end = text.find(|c: char| c.is_whitespace() || c == '#').unwrap_or(text.len());
        let (name, value_start) = match text[..end].split_once('=') {
            Some((name, _)) if !name.is_empty() && !name.contains('"') => (name, name.len() + 1),
            _ => return Err("NAME=VALUE pairs".to_string()),
        };
        let after_eq = &text[value_start..];
        let (value, after) = if after_eq.starts_with('"') {
            let (value, after) = quoted(after_eq)?;
            if !(after.is_empty() || after.starts_with(char::is_whitespace) || after.starts_with('#')) {
                return Err("a space after the closing `\"`".to_string());
            }
            (value, after)
        } else {
            (text[value_start..end].to_string(), &text[end..])
        };
        pairs.push((name.to_string(), value));
        text = after.trim_start();
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_only_when_needed_and_read_back() {
        assert_eq!(quote("Friday night", false), "Friday night");
        assert_eq!(quote("Game #3 at Bob's", false), "\"Game #3 at Bob's\"");
        assert_eq!(quote("a b", true), "\"a b\"");
        assert_eq!(quote(" padded", false), "\" padded\"");
        for title in ["Game #3 at Bob's", "two\nlines", "\"quoted\"", " x ", "tab\there", "é\u{1b}[31m"] {
            let written = quote(title, false);
            assert_eq!(rest_value(&format!(" {written}  # a comment")).unwrap(), title);
        }
        assert_eq!(rest_value("plain words # comment").unwrap(), "plain words");
        assert!(rest_value("\"unclosed").is_err());
        assert!(rest_value("\"a\" b").is_err());
        let pairs = setup_pairs("health=8 cards=\"a b#c\" x=\"\"  # note").unwrap();
        assert_eq!(pairs[1], ("cards".to_string(), "a b#c".to_string()));
        assert_eq!(pairs[2], ("x".to_string(), String::new()));
        assert!(setup_pairs("health").is_err());
        assert!(setup_pairs("a=\"b\"c").is_err());
    }
}
