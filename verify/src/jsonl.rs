//! The JSONL envelope: the header object, record lines, and the strictness both need.
//!
//! serde ignores keys it does not know, so a misspelt key (`"Time"` for `"time"`) would
//! silently drop a value and could turn a violation into a clean verify. Every key of a
//! JSONL file is therefore checked: the header's and a record line's against the format,
//! an event's against what the game's own serialization of the event holds.
//!
//! For the same reason a key written twice in one object is refused ([`parse_line`]):
//! `serde_json::Value` keeps the last of them, so `{"setup":{"seed":"1","seed":"2"}}` would
//! silently drop a value the writer gave.

use crate::header::Header;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// Parse one JSONL line as a JSON value, refusing a key written twice in any object (a data
/// error, `Error::is_data`, that names the key, at the column where the second one ends).
pub(crate) fn parse_line(line: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(line);
    let value = Strict.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// A `serde_json::Value` built as serde_json builds it, but with duplicate keys refused.
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Strict)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Strict)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if obj.contains_key(&key) {
                return Err(de::Error::custom(format_args!("the key `{}` twice", crate::shown::shown(&key))));
            }
            let value = map.next_value_seed(Strict)?;
            obj.insert(key, value);
        }
        Ok(Value::Object(obj))
    }
}

/// Keys a header line may hold.
pub const HEADER_KEYS: &[&str] = &["game", "setup", "catalog", "title", "rules_version"];

/// What one JSONL line after the header is.
pub(crate) enum Line<'v> {
    Event(&'v Value),
    Retract(u64),
    Directive(&'v str),
}

/// What was expected and what was found instead, for the reader's "expected X, found Y".
pub(crate) type Mismatch = (String, String);

/// How a JSON value is named where another was expected.
fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(_) => "a string".to_string(),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// The first key of `obj` that is not in `known`.
fn unknown_key<'a>(obj: &'a Map<String, Value>, known: &[&str]) -> Option<&'a str> {
    obj.keys().map(String::as_str).find(|k| !known.contains(k))
}

/// Read the header object; `Err` says what was expected and what was found instead.
pub(crate) fn header(obj: &Map<String, Value>) -> Result<Header, Mismatch> {
    if let Some(key) = unknown_key(obj, HEADER_KEYS) {
        return Err((
            format!("a header key ({})", HEADER_KEYS.join(", ")),
            format!("unknown key `{}`", crate::shown::shown(key)),
        ));
    }
    let text = |key: &str| -> Result<Option<String>, Mismatch> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err((format!("`{key}` as a string"), kind(v))),
        }
    };
    let game = text("game")?.ok_or(("a header with a `game` string".to_string(), "none".to_string()))?;
    let mut setup = BTreeMap::new();
    match obj.get("setup") {
        None | Some(Value::Null) => {}
        Some(Value::Object(s)) => {
            for (k, v) in s {
                let v = match v {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    _ => {
                        return Err((
                            format!(
                                "`setup.{}` as a string (or a number, or true or false)",
                                crate::shown::shown(k)
                            ),
                            kind(v),
                        ))
                    }
                };
                setup.insert(k.clone(), v);
            }
        }
        Some(v) => return Err(("`setup` as an object of strings".to_string(), kind(v))),
    }
    let rules_version = match obj.get("rules_version") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
            ("`rules_version` as a whole number from 0 to 4294967295".to_string(), kind(v))
        })?),
    };
    let title = text("title")?.filter(|t| !t.is_empty());
    Ok(Header { game, setup, catalog: text("catalog")?, catalog_sha256: None, title, rules_version })
}

/// Read a record line's envelope: exactly one of `event`, `retract`, `directive`.
pub(crate) fn line(obj: &Map<String, Value>) -> Result<Line<'_>, Mismatch> {
    const KEYS: &[&str] = &["event", "retract", "directive"];
    if let Some(key) = unknown_key(obj, KEYS) {
        return Err((
            "`event`, `retract` or `directive`".to_string(),
            format!("unknown key `{}`", crate::shown::shown(key)),
        ));
    }
    if obj.len() != 1 {
        let found = if obj.is_empty() { "none" } else { "several" };
        return Err(("one of `event`, `retract` or `directive`".to_string(), found.to_string()));
    }
    if let Some(e) = obj.get("event") {
        Ok(Line::Event(e))
    } else if let Some(t) = obj.get("retract") {
        t.as_u64()
            .map(Line::Retract)
            .ok_or_else(|| ("a record number (0 or more) after `retract`".to_string(), kind(t)))
    } else {
        match obj.get("directive") {
            Some(Value::String(d)) => Ok(Line::Directive(d)),
            other => Err(("a string after `directive`".to_string(), other.map_or("none".to_string(), kind))),
        }
    }
}

/// The first key (as a path, `Roll.tiem`) that `written` holds and `read_back` (the game's
/// serialization of the event serde read from `written`) does not: a key serde ignored.
pub(crate) fn ignored_key(written: &Value, read_back: &Value) -> Option<String> {
    match (written, read_back) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                match b.get(k) {
                    None => return Some(k.clone()),
                    Some(vb) => {
                        if let Some(inner) = ignored_key(va, vb) {
                            return Some(format!("{k}.{inner}"));
                        }
                    }
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) => {
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| ignored_key(x, y).map(|k| format!("{i}.{k}")))
        }
        _ => None,
    }
}

/// The JSONL header line for a header.
pub fn header_to_json(header: &Header) -> String {
    let mut obj = Map::new();
    obj.insert("game".into(), header.game.clone().into());
    let setup: Map<String, Value> = header.setup.iter().map(|(k, v)| (k.clone(), v.clone().into())).collect();
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
    Value::Object(obj).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_keys_are_named() {
        let h = json!({"game": "toy", "Title": "x"});
        assert!(header(h.as_object().unwrap()).unwrap_err().1.contains("unknown key `Title`"));
        let l = json!({"event": 1, "note": 2});
        assert!(line(l.as_object().unwrap()).err().unwrap().1.contains("unknown key `note`"));
        let l = json!({"event": 1, "retract": 2});
        assert!(line(l.as_object().unwrap()).err().unwrap().1.contains("several"));
        let written = json!({"Roll": {"dice": [1, 2], "Time": 5}});
        let back = json!({"Roll": {"dice": [1, 2], "time": null}});
        assert_eq!(ignored_key(&written, &back).as_deref(), Some("Roll.Time"));
        assert_eq!(ignored_key(&json!({"a": null}), &json!({})).as_deref(), Some("a"));
        assert_eq!(ignored_key(&json!("Stop"), &json!("Stop")), None);
    }

    #[test]
    fn a_key_written_twice_is_refused_at_any_depth() {
        let ok = r#"{"game":"toy","setup":{"start":"2","n":1.5},"x":[true,null,-3,{"a":"b"}]}"#;
        assert_eq!(parse_line(ok).unwrap(), serde_json::from_str::<Value>(ok).unwrap());
        for (line, key) in [
            (r#"{"game":"toy","game":"other"}"#, "game"),
            (r#"{"game":"toy","setup":{"seed":"1","seed":"2"}}"#, "seed"),
            (r#"{"event":{"Roll":{"dice":[1],"dice":[2]}}}"#, "dice"),
            (r#"{"event":[{"a":1,"a":1}]}"#, "a"),
        ] {
            let e = parse_line(line).unwrap_err().to_string();
            assert!(e.contains(&format!("the key `{key}` twice")), "{line}: {e}");
            assert!(parse_line(line).unwrap_err().is_data());
        }
        assert!(parse_line(r#"{"event":1} x"#).is_err(), "trailing text is still refused");
    }
}
