//! Reading a log file (notation or JSONL) into its header, records and directives, before
//! any game is involved.
//!
//! This is the syntax step shared by every game: directives, comments, `undo`, the JSONL
//! envelope. Event lines are kept as text (or JSON) and parsed by the game later, so one
//! file format serves every game and a parse error always names file, line and column.

use crate::error::VerifyError;
use crate::expectation::{parse_assert, parse_expect, Expectation};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a log says about its table, from the `@game`/`@setup`/`@catalog`/`@title`/`@rules`
/// directives (or the JSONL header line, or a journal session's metadata).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub setup: BTreeMap<String, String>,
    pub catalog: Option<String>,
    pub title: Option<String>,
    /// The rules version the log was recorded under, when it says.
    pub rules_version: Option<u32>,
}

/// One record as read, before the game parses it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawBody {
    /// A notation line (comment and surrounding blanks removed) and the column it starts at.
    Notation(String, usize),
    /// A JSONL record's event object.
    Json(serde_json::Value),
    /// A retraction of the record with this index (`undo` resolved, or JSONL `retract`).
    Retract(u64),
}

/// A record with the 1-based line it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRecord {
    pub line: usize,
    pub body: RawBody,
}

/// A parsed log file.
#[derive(Debug, Clone, PartialEq)]
pub struct LogFile {
    pub path: PathBuf,
    pub header: Header,
    pub records: Vec<RawRecord>,
    /// Fixture expectations with the line each was written on.
    pub expectations: Vec<(usize, Expectation)>,
    /// `@variant NAME=VALUE` directives, in order.
    pub variants: Vec<(String, String)>,
}

impl LogFile {
    /// Read and parse a file; JSONL when the name ends in `.jsonl`, notation otherwise.
    pub fn read(path: &Path) -> Result<LogFile, VerifyError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| VerifyError::io(&path.display().to_string(), &e))?;
        // Editors on some systems start a UTF-8 file with a byte-order mark; it is not content.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if path.extension().is_some_and(|e| e == "jsonl") {
            parse_jsonl(path, text)
        } else {
            parse_notation(path, text)
        }
    }
}

fn err(path: &Path, line: usize, column: usize, expected: &str, found: &str) -> VerifyError {
    VerifyError::parse(format!("{}:{line}:{column}: expected {expected}, found {found}", path.display()))
}

fn found(word: &str) -> String {
    if word.is_empty() {
        "end of line".to_string()
    } else {
        format!("`{word}`")
    }
}

/// Tracks which records are events still in force, so `undo` and `retract` can be resolved
/// and checked the same way for both formats.
#[derive(Default)]
struct Retractions {
    live: Vec<u64>,
}

impl Retractions {
    fn event(&mut self, index: u64) {
        self.live.push(index);
    }
    fn undo(&mut self) -> Option<u64> {
        self.live.pop()
    }
    fn retract(&mut self, target: u64) -> bool {
        match self.live.iter().position(|&i| i == target) {
            Some(p) => {
                self.live.remove(p);
                true
            }
            None => false,
        }
    }
}

impl LogFile {
    /// A file with nothing read yet.
    fn empty(path: &Path) -> LogFile {
        LogFile {
            path: path.to_path_buf(),
            header: Header::default(),
            records: Vec::new(),
            expectations: Vec::new(),
            variants: Vec::new(),
        }
    }
}

/// Parse the notation format (docs/notation/README.md).
pub fn parse_notation(path: &Path, text: &str) -> Result<LogFile, VerifyError> {
    let mut log = LogFile::empty(path);
    let mut live = Retractions::default();
    let mut seen_game = false;
    for (i, raw_line) in text.lines().enumerate() {
        let line_no = i + 1;
        // Every line of every verified file passes here, so the common case is kept cheap: a
        // byte search for the comment (`#` is ASCII, so the cut is a character boundary) and
        // no character count when the line starts with a visible ASCII character.
        let content = match raw_line.as_bytes().iter().position(|&b| b == b'#') {
            Some(p) => &raw_line[..p],
            None => raw_line,
        };
        let trimmed = content.trim();
        if trimmed.is_empty() {
            continue;
        }
        // Columns are 1-based characters, counted in the original line.
        let column = match content.as_bytes().first() {
            Some(b) if b.is_ascii_graphic() => 1,
            _ => content.chars().take_while(|c| c.is_whitespace()).count() + 1,
        };
        if let Some(directive) = trimmed.strip_prefix('@') {
            let (name, rest) = directive.split_once(char::is_whitespace).unwrap_or((directive, ""));
            let rest_col = column + 1 + name.chars().count() + 1;
            let rest = rest.trim();
            if !seen_game && name != "game" {
                return Err(err(
                    path,
                    line_no,
                    column,
                    "`@game GAME` before any other line",
                    &found(trimmed),
                ));
            }
            match name {
                "game" if !seen_game && !rest.is_empty() && !rest.contains(char::is_whitespace) => {
                    log.header.game = rest.to_string();
                    seen_game = true;
                }
                "game" if seen_game => {
                    return Err(err(path, line_no, column, "one `@game` line", "a second one"))
                }
                "game" => return Err(err(path, line_no, rest_col, "a game id", &found(rest))),
                "setup" => {
                    for pair in rest.split_whitespace() {
                        match pair.split_once('=') {
                            Some((k, v)) if !k.is_empty() => {
                                log.header.setup.insert(k.to_string(), v.to_string());
                            }
                            _ => return Err(err(path, line_no, rest_col, "NAME=VALUE pairs", &found(pair))),
                        }
                    }
                }
                "catalog" if !rest.is_empty() => log.header.catalog = Some(rest.to_string()),
                "catalog" => {
                    return Err(err(path, line_no, rest_col, "a catalog name or path", "end of line"))
                }
                "title" => log.header.title = Some(rest.to_string()),
                "rules" => match rest.parse() {
                    Ok(v) => log.header.rules_version = Some(v),
                    Err(_) => {
                        return Err(err(path, line_no, rest_col, "a rules version number", &found(rest)))
                    }
                },
                "variant" => match rest.split_once('=') {
                    Some((k, v)) if !k.trim().is_empty() => {
                        log.variants.push((k.trim().to_string(), v.trim().to_string()))
                    }
                    _ => return Err(err(path, line_no, rest_col, "NAME=VALUE", &found(rest))),
                },
                "expect" => match parse_expect(rest) {
                    Ok(e) => log.expectations.push((line_no, e)),
                    Err(expected) => return Err(err(path, line_no, rest_col, &expected, &found(rest))),
                },
                "assert" => match parse_assert(rest) {
                    Ok(e) => log.expectations.push((line_no, e)),
                    Err(expected) => return Err(err(path, line_no, rest_col, &expected, &found(rest))),
                },
                other => {
                    return Err(err(
                        path,
                        line_no,
                        column,
                        "a directive (@game, @setup, @catalog, @title, @rules, @variant, @expect, @assert)",
                        &found(&format!("@{other}")),
                    ))
                }
            }
            continue;
        }
        if !seen_game {
            return Err(err(path, line_no, column, "`@game GAME` before any other line", &found(trimmed)));
        }
        let index = log.records.len() as u64;
        let body = if trimmed == "undo" {
            match live.undo() {
                Some(target) => RawBody::Retract(target),
                None => {
                    return Err(err(
                        path,
                        line_no,
                        column,
                        "an event before `undo`",
                        "nothing left to retract",
                    ))
                }
            }
        } else {
            live.event(index);
            RawBody::Notation(trimmed.to_string(), column)
        };
        log.records.push(RawRecord { line: line_no, body });
    }
    if !seen_game {
        return Err(err(path, 1, 1, "`@game GAME` before any other line", "end of file"));
    }
    Ok(log)
}

/// Parse the JSONL format: a header object, then `{"event":...}`, `{"retract":N}` or
/// `{"directive":"@expect ..."}` lines.
pub fn parse_jsonl(path: &Path, text: &str) -> Result<LogFile, VerifyError> {
    let mut log = LogFile::empty(path);
    let mut live = Retractions::default();
    let mut seen_header = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
            err(path, line_no, e.column().max(1), "a JSON object", &format!("invalid JSON ({e})"))
        })?;
        let Some(obj) = value.as_object() else {
            return Err(err(path, line_no, 1, "a JSON object", "another JSON value"));
        };
        if !seen_header {
            log.header =
                header_from_json(obj).map_err(|what| err(path, line_no, 1, &what, "something else"))?;
            seen_header = true;
            continue;
        }
        let index = log.records.len() as u64;
        if let Some(event) = obj.get("event") {
            live.event(index);
            log.records.push(RawRecord { line: line_no, body: RawBody::Json(event.clone()) });
        } else if let Some(target) = obj.get("retract") {
            let target =
                target.as_u64().ok_or_else(|| err(path, line_no, 1, "a record number", "something else"))?;
            if !live.retract(target) {
                return Err(err(
                    path,
                    line_no,
                    1,
                    "the index of an earlier event not yet retracted",
                    &target.to_string(),
                ));
            }
            log.records.push(RawRecord { line: line_no, body: RawBody::Retract(target) });
        } else if let Some(d) = obj.get("directive").and_then(|d| d.as_str()) {
            // Reuse the notation reader for one directive line, keeping the line number.
            let mut text = format!("@game {}\n", log.header.game);
            text.push_str(&"\n".repeat(line_no.saturating_sub(2)));
            text.push_str(d);
            let one = parse_notation(path, &text)?;
            if !one.records.is_empty() {
                return Err(err(path, line_no, 1, "a directive starting with `@`", &found(d)));
            }
            log.expectations.extend(one.expectations);
            log.variants.extend(one.variants);
        } else {
            return Err(err(path, line_no, 1, "`event`, `retract` or `directive`", "another object"));
        }
    }
    if !seen_header {
        return Err(err(path, 1, 1, "a header line", "end of file"));
    }
    Ok(log)
}

fn header_from_json(obj: &serde_json::Map<String, serde_json::Value>) -> Result<Header, String> {
    let text = |key: &str| obj.get(key).and_then(|v| v.as_str()).map(str::to_string);
    let game = text("game").ok_or("a header with a `game` string")?;
    let mut setup = BTreeMap::new();
    if let Some(s) = obj.get("setup") {
        let s = s.as_object().ok_or("`setup` as an object of strings")?;
        for (k, v) in s {
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            setup.insert(k.clone(), v);
        }
    }
    let rules_version = match obj.get("rules_version") {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => Some(v.as_u64().and_then(|v| u32::try_from(v).ok()).ok_or("`rules_version` as a number")?),
    };
    Ok(Header { game, setup, catalog: text("catalog"), title: text("title"), rules_version })
}

/// The JSONL header line for a header.
pub fn header_to_json(header: &Header) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("game".into(), header.game.clone().into());
    let setup: serde_json::Map<String, serde_json::Value> =
        header.setup.iter().map(|(k, v)| (k.clone(), v.clone().into())).collect();
    obj.insert("setup".into(), setup.into());
    if let Some(c) = &header.catalog {
        obj.insert("catalog".into(), c.clone().into());
    }
    if let Some(t) = &header.title {
        obj.insert("title".into(), t.clone().into());
    }
    if let Some(r) = header.rules_version {
        obj.insert("rules_version".into(), r.into());
    }
    serde_json::Value::Object(obj).to_string()
}

/// The notation header lines for a header.
pub fn header_to_notation(header: &Header) -> String {
    let mut out = format!("@game {}\n", header.game);
    if !header.setup.is_empty() {
        let pairs: Vec<String> = header.setup.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("@setup {}\n", pairs.join(" ")));
    }
    if let Some(c) = &header.catalog {
        out.push_str(&format!("@catalog {c}\n"));
    }
    if let Some(t) = &header.title {
        out.push_str(&format!("@title {t}\n"));
    }
    if let Some(r) = header.rules_version {
        out.push_str(&format!("@rules {r}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_header_records_undo_and_directives() {
        let text = "# a comment\n@game toy\n@setup start=3 double=no\n@catalog cards.txt\nroll 4   # why\n  add 4\nundo\n@expect clean\n@variant double=yes\n";
        let log = parse_notation(Path::new("t.arb"), text).unwrap();
        assert_eq!(log.header.game, "toy");
        assert_eq!(log.header.setup.len(), 2);
        assert_eq!(log.header.catalog.as_deref(), Some("cards.txt"));
        assert_eq!(log.records[0].body, RawBody::Notation("roll 4".into(), 1));
        assert_eq!(log.records[1].body, RawBody::Notation("add 4".into(), 3));
        assert_eq!(log.records[2].body, RawBody::Retract(1));
        assert_eq!(log.records[2].line, 7);
        assert_eq!(log.expectations, vec![(8, Expectation::Clean)]);
        assert_eq!(log.variants, vec![("double".into(), "yes".into())]);
    }

    #[test]
    fn notation_errors_name_file_line_and_column() {
        let e = parse_notation(Path::new("t.arb"), "roll 1\n").unwrap_err();
        assert_eq!(e.message, "t.arb:1:1: expected `@game GAME` before any other line, found `roll 1`");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@expect violation x\n").unwrap_err();
        assert!(e.message.starts_with("t.arb:2:9: expected `violation RECORD RULE`"), "{e}");
        let e = parse_notation(Path::new("t.arb"), "@game toy\nundo\n").unwrap_err();
        assert!(e.message.starts_with("t.arb:2:1:"), "{e}");
    }

    #[test]
    fn jsonl_header_records_and_bad_retractions() {
        let text = "{\"game\":\"toy\",\"setup\":{\"start\":\"2\"}}\n{\"event\":{\"Roll\":3}}\n{\"retract\":0}\n{\"directive\":\"@expect clean\"}\n";
        let log = parse_jsonl(Path::new("t.jsonl"), text).unwrap();
        assert_eq!(log.header.setup["start"], "2");
        assert_eq!(log.records.len(), 2);
        assert_eq!(log.records[1].body, RawBody::Retract(0));
        assert_eq!(log.expectations, vec![(4, Expectation::Clean)]);
        let bad = "{\"game\":\"toy\"}\n{\"retract\":0}\n";
        assert!(parse_jsonl(Path::new("t.jsonl"), bad).unwrap_err().message.starts_with("t.jsonl:2:1:"));
        let header = Header { game: "toy".into(), ..Header::default() };
        assert!(parse_jsonl(Path::new("x.jsonl"), &header_to_json(&header)).is_ok());
    }
}
