//! The unvalidated description of a table before play: parameters and the card catalog.
//!
//! A `Setup` is what a user typed (`--setup modules=shields`, `@setup health=8` in a file);
//! a game checks it once, in `Game::new`, and rejects it with every reason at once.

use crate::catalog::{ParamKind, ParamSpec};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// Parameters by name plus the catalog the cards come from. Ordered maps keep the printed
/// form (and so every header and digest built from it) stable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    /// `NAME=VALUE` pairs as given; names a game does not declare are rejected by `resolve`.
    pub params: BTreeMap<String, String>,
    /// The catalog's name: a built-in catalog of the game (`illustrative`) or a file path
    /// that the caller (not the engine) loads. `None` means the game's default catalog.
    pub catalog: Option<String>,
}

impl Setup {
    /// Parse `NAME=VALUE` items, refusing malformed ones and duplicates.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Result<Setup, SetupError> {
        let mut setup = Setup::default();
        let mut reasons = Vec::new();
        for pair in pairs {
            match pair.split_once('=') {
                Some((name, value)) if !name.trim().is_empty() => {
                    let (name, value) = (name.trim().to_string(), value.trim().to_string());
                    if setup.params.insert(name.clone(), value).is_some() {
                        reasons.push(format!("`{name}` is given twice"));
                    }
                }
                _ => reasons.push(format!("`{pair}` is not of the form NAME=VALUE")),
            }
        }
        if reasons.is_empty() {
            Ok(setup)
        } else {
            Err(SetupError { reasons })
        }
    }

    /// Set (or override) one parameter, as `--variant NAME=VALUE` does.
    pub fn with(mut self, name: &str, value: &str) -> Setup {
        self.params.insert(name.to_string(), value.to_string());
        self
    }

    /// Every declared parameter with its value (given or default), after checking that each
    /// given name is declared and each value is one of the allowed ones. A spec whose
    /// `allowed` list is empty or starts with a description in angle brackets (`<number>`)
    /// accepts any value; the game checks such values itself.
    pub fn resolve(&self, specs: &'static [ParamSpec]) -> Result<BTreeMap<&'static str, String>, SetupError> {
        let (values, reasons) = self.values(specs);
        if reasons.is_empty() {
            Ok(specs.iter().zip(values).map(|(s, v)| (s.name, v.into_owned())).collect())
        } else {
            Err(SetupError { reasons })
        }
    }

    /// `specs[i]`'s value at `i`, with every reason `resolve` refuses the setup for. A value
    /// given and allowed is used, else the default (so a refused setup still reads, and
    /// nothing is reported twice). Defaults are borrowed, not copied: a game is built for
    /// every session verified, and most sessions give few parameters.
    pub fn values(&self, specs: &'static [ParamSpec]) -> (Vec<Cow<'static, str>>, Vec<String>) {
        let mut reasons = Vec::new();
        for name in self.params.keys() {
            if !specs.iter().any(|s| s.name == name) {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                reasons.push(format!("unknown parameter `{name}` (known: {})", known.join(", ")));
            }
        }
        let values = specs
            .iter()
            .map(|spec| {
                let Some(value) = self.params.get(spec.name) else {
                    return Cow::Borrowed(spec.default);
                };
                let free = spec.allowed.is_empty() || spec.allowed[0].starts_with('<');
                if free || spec.allowed.contains(&value.as_str()) {
                    Cow::Owned(value.clone())
                } else {
                    reasons.push(format!(
                        "`{}={value}` is not allowed (allowed: {})",
                        spec.name,
                        spec.allowed.join(", ")
                    ));
                    Cow::Borrowed(spec.default)
                }
            })
            .collect();
        (values, reasons)
    }

    /// The interpretation parameters among `specs` whose value differs from the default.
    pub fn non_default_interpretations(&self, specs: &[ParamSpec]) -> Vec<(String, String)> {
        specs
            .iter()
            .filter(|s| s.kind == ParamKind::Interpretation)
            .filter_map(|s| {
                let v = self.params.get(s.name)?;
                (v != s.default).then(|| (s.name.to_string(), v.clone()))
            })
            .collect()
    }
}

impl fmt::Display for Setup {
    /// `name=value name=value`, in name order: the form used in headers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.params {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// A setup a game refused, with every reason (not only the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    pub reasons: Vec<String>,
}

impl SetupError {
    pub fn new(reason: impl Into<String>) -> Self {
        SetupError { reasons: vec![reason.into()] }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid setup: {}", self.reasons.join("; "))
    }
}

impl std::error::Error for SetupError {}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[ParamSpec {
        name: "health",
        kind: ParamKind::Setup,
        allowed: &["6", "8"],
        default: "8",
        doc: "",
        section: "",
    }];

    #[test]
    fn resolve_fills_defaults_and_lists_every_reason() {
        let ok = Setup::default().resolve(SPECS).unwrap();
        assert_eq!(ok["health"], "8");
        let bad = Setup::from_pairs(["health=7", "colour=red"]).unwrap().resolve(SPECS).unwrap_err();
        assert_eq!(bad.reasons.len(), 2, "{bad}");
        assert!(Setup::from_pairs(["oops"]).is_err());
    }
}
