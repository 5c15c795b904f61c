//! Fixture expectations: the `@expect`, `@assert`, `@derive` and `@variant` directives of a
//! log file.

use serde::Serialize;
use std::fmt;

/// Where an assertion looks at the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum At {
    /// After record N has been replayed (records `0..=N`).
    Record(u64),
    /// After the last record.
    End,
}

/// One thing a fixture says its log must produce.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Expectation {
    /// `@expect clean`: no violation and no error anywhere.
    Clean,
    /// `@expect violation N RULE`.
    Violation { record: u64, rule: String },
    /// `@expect error N`: record N cannot be applied.
    Error { record: u64 },
    /// `@expect unverified N`.
    Unverified { record: u64 },
    /// `@expect uncertain N RULE`: record N has a finding of RULE that may follow from an
    /// earlier unverified effect (reported, not counted as a violation).
    Uncertain { record: u64, rule: String },
    /// `@assert N KEY = VALUE`.
    Assert { at: At, key: String, value: String },
    /// `@expect split N NAME=VALUE`: replayed under `NAME=VALUE` as well, the log first
    /// splits from itself at record N (what `diff FILE FILE@NAME=VALUE` reports).
    Split { record: u64, name: String, value: String },
    /// `@expect incomplete [CONSEQUENCE]`: the log ends while the rules still owe a
    /// consequence (this one, in notation, when given).
    Incomplete { owed: Option<String> },
    /// `@derive`: the log leaves consequences to the rules; replay it completed, as
    /// `verify --derive` does, and judge the rest against that replay.
    Derive,
}

impl fmt::Display for Expectation {
    /// The directive as written in a fixture, so a failure message can be searched for.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expectation::Clean => f.write_str("@expect clean"),
            Expectation::Violation { record, rule } => write!(f, "@expect violation {record} {rule}"),
            Expectation::Error { record } => write!(f, "@expect error {record}"),
            Expectation::Unverified { record } => write!(f, "@expect unverified {record}"),
            Expectation::Uncertain { record, rule } => write!(f, "@expect uncertain {record} {rule}"),
            Expectation::Split { record, name, value } => write!(f, "@expect split {record} {name}={value}"),
            Expectation::Derive => f.write_str("@derive"),
            Expectation::Incomplete { owed: None } => f.write_str("@expect incomplete"),
            Expectation::Incomplete { owed: Some(c) } => write!(f, "@expect incomplete {c}"),
            Expectation::Assert { at: At::Record(n), key, value } => write!(f, "@assert {n} {key} = {value}"),
            Expectation::Assert { at: At::End, key, value } => write!(f, "@assert end {key} = {value}"),
        }
    }
}

/// Read the words after `@expect` (`rest`); `Err` holds what was expected instead. `last` is
/// the index of the latest record before the directive, which `@expect here RULE` names.
pub(crate) fn parse_expect(rest: &str, last: Option<u64>) -> Result<Expectation, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let record = |w: Option<&&str>| -> Result<u64, String> {
        w.and_then(|w| w.parse().ok()).ok_or_else(|| "a record number".to_string())
    };
    match words.first().copied() {
        Some("clean") if words.len() == 1 => Ok(Expectation::Clean),
        Some("violation") if words.len() == 3 => {
            Ok(Expectation::Violation { record: record(words.get(1))?, rule: words[2].to_string() })
        }
        Some("violation") => Err("`violation RECORD RULE`".into()),
        Some("uncertain") if words.len() == 3 => {
            Ok(Expectation::Uncertain { record: record(words.get(1))?, rule: words[2].to_string() })
        }
        Some("uncertain") => Err("`uncertain RECORD RULE`".into()),
        Some("here") if words.len() == 2 => match last {
            Some(record) => Ok(Expectation::Violation { record, rule: words[1].to_string() }),
            None => Err("`@expect here RULE` right after the record it names (there is no record before it)".into()),
        },
        Some("here") => Err("`here RULE`".into()),
        Some("incomplete") => {
            let owed = words[1..].join(" ");
            Ok(Expectation::Incomplete { owed: (!owed.is_empty()).then_some(owed) })
        }
        Some("error") if words.len() == 2 => Ok(Expectation::Error { record: record(words.get(1))? }),
        Some("unverified") if words.len() == 2 => {
            Ok(Expectation::Unverified { record: record(words.get(1))? })
        }
        Some("split") => match (words.len(), words.get(2).and_then(|w| w.split_once('='))) {
            (3, Some((name, value))) if !name.is_empty() => Ok(Expectation::Split {
                record: record(words.get(1))?,
                name: name.into(),
                value: value.into(),
            }),
            _ => Err("`split RECORD NAME=VALUE`".into()),
        },
        _ => Err(
            "`clean`, `violation N RULE`, `here RULE`, `error N`, `unverified N`, `uncertain N RULE`, `split N NAME=VALUE` or `incomplete [CONSEQUENCE]`"
                .into(),
        ),
    }
}

/// Read the words after `@assert`: `N KEY = VALUE` or `end KEY = VALUE`.
pub(crate) fn parse_assert(rest: &str) -> Result<Expectation, String> {
    let rest = rest.trim();
    let (at, rest) = rest.split_once(char::is_whitespace).ok_or("`N KEY = VALUE`")?;
    let at = match at {
        "end" => At::End,
        n => At::Record(n.parse().map_err(|_| "a record number or `end`".to_string())?),
    };
    let (key, value) = rest.split_once('=').ok_or("`KEY = VALUE`")?;
    let key = key.trim();
    if key.is_empty() || key.contains(char::is_whitespace) {
        return Err("a fact key (one word) before `=`".into());
    }
    Ok(Expectation::Assert { at, key: key.to_string(), value: value.trim().to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_round_trip_through_display() {
        for text in [
            "clean",
            "violation 7 toy.roll.range",
            "error 3",
            "unverified 0",
            "uncertain 5 toy.roll.range",
            "split 4 double=yes",
            "incomplete",
            "incomplete add 3",
        ] {
            let e = parse_expect(text, None).unwrap();
            assert_eq!(e.to_string(), format!("@expect {text}"));
        }
        let a = parse_assert("end count = 12").unwrap();
        assert_eq!(a.to_string(), "@assert end count = 12");
        assert!(parse_expect("violation x toy", None).is_err());
        assert_eq!(
            parse_expect("here toy.roll.range", Some(4)).unwrap().to_string(),
            "@expect violation 4 toy.roll.range"
        );
        assert!(parse_expect("here toy.roll.range", None).is_err());
        assert!(parse_assert("3 count").is_err());
        assert!(parse_expect("split 4 double", None).is_err());
        assert!(parse_expect("uncertain 4", None).is_err());
    }
}
