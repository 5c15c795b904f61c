//! The JSONL envelope: the header object, record lines, and the strictness both need.
//!
//! serde ignores keys it does not know, so a misspelt key (`"Time"` for `"time"`) would
//! silently drop a value and could turn a violation into a clean verify. Every key of a
//! JSONL file is therefore checked: the header's and a record line's against the format,
//! an event's against what the game's own serialization of the event holds.

use crate::header::Header;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Keys a header line may hold.
pub const HEADER_KEYS: &[&str] = &["game", "setup", "catalog", "title", "rules_version"];

/// What one JSONL line after the header is.
pub(crate) enum Line<'v> {
    Event(&'v Value),
    Retract(u64),
    Directive(&'v str),
}

/// The first key of `obj` that is not in `known`.
fn unknown_key<'a>(obj: &'a Map<String, Value>, known: &[&str]) -> Option<&'a str> {
    obj.keys().map(String::as_str).find(|k| !known.contains(k))
}

/// Read the header object; `Err` says what was expected instead.
pub(crate) fn header(obj: &Map<String, Value>) -> Result<Header, String> {
    if let Some(key) = unknown_key(obj, HEADER_KEYS) {
        return Err(format!(
            "a header key ({}), found unknown key `{}`",
            HEADER_KEYS.join(", "),
            crate::shown::shown(key)
        ));
    }
    let text = |key: &str| -> Result<Option<String>, String> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{key}` as a string")),
        }
    };
    let game = text("game")?.ok_or("a header with a `game` string")?;
    let mut setup = BTreeMap::new();
    match obj.get("setup") {
        None | Some(Value::Null) => {}
        Some(Value::Object(s)) => {
            for (k, v) in s {
                let v = match v {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    _ => return Err(format!("`setup.{}` as a string", crate::shown::shown(k))),
                };
                setup.insert(k.clone(), v);
            }
        }
        Some(_) => return Err("`setup` as an object of strings".to_string()),
    }
    let rules_version = match obj.get("rules_version") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().and_then(|v| u32::try_from(v).ok()).ok_or("`rules_version` as a number")?),
    };
    let title = text("title")?.filter(|t| !t.is_empty());
    Ok(Header { game, setup, catalog: text("catalog")?, title, rules_version })
}

/// Read a record line's envelope: exactly one of `event`, `retract`, `directive`.
pub(crate) fn line(obj: &Map<String, Value>) -> Result<Line<'_>, String> {
    const KEYS: &[&str] = &["event", "retract", "directive"];
    if let Some(key) = unknown_key(obj, KEYS) {
        return Err(format!(
            "`event`, `retract` or `directive`, found unknown key `{}`",
            crate::shown::shown(key)
        ));
    }
    if obj.len() != 1 {
        return Err("one of `event`, `retract` or `directive`, found several".to_string());
    }
    if let Some(e) = obj.get("event") {
        Ok(Line::Event(e))
    } else if let Some(t) = obj.get("retract") {
        t.as_u64().map(Line::Retract).ok_or_else(|| "a record number after `retract`".to_string())
    } else {
        match obj.get("directive") {
            Some(Value::String(d)) => Ok(Line::Directive(d)),
            _ => Err("a string after `directive`".to_string()),
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
        assert!(header(h.as_object().unwrap()).unwrap_err().contains("unknown key `Title`"));
        let l = json!({"event": 1, "note": 2});
        assert!(line(l.as_object().unwrap()).err().unwrap().contains("unknown key `note`"));
        let l = json!({"event": 1, "retract": 2});
        assert!(line(l.as_object().unwrap()).err().unwrap().contains("several"));
        let written = json!({"Roll": {"dice": [1, 2], "Time": 5}});
        let back = json!({"Roll": {"dice": [1, 2], "time": null}});
        assert_eq!(ignored_key(&written, &back).as_deref(), Some("Roll.Time"));
        assert_eq!(ignored_key(&json!({"a": null}), &json!({})).as_deref(), Some("a"));
        assert_eq!(ignored_key(&json!("Stop"), &json!("Stop")), None);
    }
}
