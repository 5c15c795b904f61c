//! What a command is pointed at: a journal session or a log file, optionally replayed under
//! other parameter values (`s1@exhaust-from=any`, `game.arb@rules=1`).

use crate::error::VerifyError;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the records come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A notation (`*.arb`, or any text named by a path with `/`) or JSONL (`*.jsonl`) file.
    File(PathBuf),
    /// A session in the journal.
    Session(String),
}

/// A log plus the parameter overrides to replay it under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub origin: Origin,
    /// `NAME=VALUE` overrides, applied after the log's own setup (later ones win).
    pub variants: Vec<(String, String)>,
}

impl Source {
    pub fn file(path: impl Into<PathBuf>) -> Source {
        Source { origin: Origin::File(path.into()), variants: Vec::new() }
    }
    pub fn session(name: impl Into<String>) -> Source {
        Source { origin: Origin::Session(name.into()), variants: Vec::new() }
    }
    /// The same log under one more override.
    pub fn with_variant(mut self, name: &str, value: &str) -> Source {
        self.variants.push((name.to_string(), value.to_string()));
        self
    }

    /// [`Source::parse`] of a spec as the operating system gives it. A spec that is not
    /// UTF-8 can only be a file (session names and overrides are text): it is read when such a
    /// file exists, and refused in one sentence otherwise.
    pub fn parse_os(spec: &OsStr) -> Result<Source, VerifyError> {
        match spec.to_str() {
            Some(text) => Source::parse(text),
            None if Path::new(spec).is_file() => Ok(Source::file(spec)),
            None => Err(missing(Path::new(spec))),
        }
    }

    /// Read a spec as the command line gives it. A log file is named the way `arbiter --help`
    /// says: by a name ending in `.arb` or `.jsonl`, or by a path with a `/` (`./game.txt`);
    /// anything else is a session name (session names have no `/` and new ones never end
    /// in `.arb` or `.jsonl`). The text before the first `@` is the file or session and every
    /// `@NAME=VALUE` after it an override. A spec that looks like a file but does not exist
    /// is refused rather than taken for a session name, so a typo gets the right message; a
    /// session name that is also a file in the working directory is refused as ambiguous,
    /// since reading either silently would show one history in place of the other.
    pub fn parse(spec: &str) -> Result<Source, VerifyError> {
        if spec.is_empty() {
            return Err(VerifyError::argument("an empty source: give a session name or a file path"));
        }
        if names_a_file(spec) && Path::new(spec).is_file() {
            return Ok(Source::file(spec));
        }
        let mut parts = spec.split('@');
        let base = parts.next().unwrap_or_default();
        let mut variants: Vec<(String, String)> = Vec::new();
        for part in parts {
            match part.split_once('=') {
                Some((name, value)) if !name.is_empty() => {
                    // Only one of the values could count: refused as `--variant` refuses it.
                    if let Some((_, first)) = variants.iter().find(|(n, _)| n == name) {
                        return Err(twice(name, first, value));
                    }
                    variants.push((name.to_string(), value.to_string()))
                }
                _ => {
                    return Err(VerifyError::argument(format!(
                        "`{spec}`: `@{part}` is not of the form @NAME=VALUE"
                    )))
                }
            }
        }
        if base.is_empty() {
            return Err(VerifyError::argument(format!("`{spec}` names no session or file before `@`")));
        }
        let origin = if names_a_file(base) {
            match Path::new(base).is_file() {
                true => Origin::File(PathBuf::from(base)),
                false => return Err(missing(Path::new(base))),
            }
        } else if Path::new(base).is_file() {
            return Err(VerifyError::argument(format!(
                "`{base}` names a session, but there is also a file `{base}` in the working directory: write `./{base}` to read the file, or run the command from another directory to read the session"
            )));
        } else {
            Origin::Session(base.to_string())
        };
        Ok(Source { origin, variants })
    }
}

/// Whether a spec names a log file rather than a session: a path with a separator, or a
/// name ending in `.arb` or `.jsonl` (what `arbiter --help` documents).
fn names_a_file(spec: &str) -> bool {
    spec.contains('/')
        || spec.contains(std::path::MAIN_SEPARATOR)
        || spec.ends_with(".arb")
        || spec.ends_with(".jsonl")
}

/// The sentence for a path that names no log file: one that exists (a directory, a device,
/// a pipe) is named for what it is, since "no such file" would send the user looking for a
/// typo.
pub(crate) fn missing(path: &Path) -> VerifyError {
    let what = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Some("a directory"),
        Ok(_) => Some("not a regular file (a device, pipe or socket)"),
        Err(_) => None,
    };
    let message = match what {
        Some(what) => format!("{} is {what}, not a log file", path.display()),
        None => format!("no such file: {}", path.display()),
    };
    VerifyError::new(crate::ErrorKind::Io, message)
}

/// Read `--variant NAME=VALUE` options (or `--setup` pairs) into pairs, refusing a malformed
/// one, or a name given twice (only one of its values could count), in a sentence that
/// names it.
pub fn parse_variants<S: AsRef<str>>(items: &[S]) -> Result<Vec<(String, String)>, VerifyError> {
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(items.len());
    for item in items {
        let item = item.as_ref();
        let (name, value) = match item.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => (name.trim(), value.trim()),
            _ => return Err(VerifyError::argument(format!("`{item}` is not of the form NAME=VALUE"))),
        };
        if let Some((_, first)) = pairs.iter().find(|(n, _)| n == name) {
            return Err(twice(name, first, value));
        }
        pairs.push((name.to_string(), value.to_string()));
    }
    Ok(pairs)
}

/// The sentence for a setting given twice on the command line.
fn twice(name: &str, first: &str, value: &str) -> VerifyError {
    VerifyError::argument(format!(
        "`{name}` is given twice (`{name}={first}` and `{name}={value}`): give it once"
    ))
}

/// Refuse a `--variant` that names a setting a source's own `SOURCE@NAME=VALUE` already
/// gives: both are on the command line, and only one of the values could count.
pub fn check_overrides(source: &Source, variants: &[(String, String)]) -> Result<(), VerifyError> {
    for (name, value) in variants {
        if let Some((_, first)) = source.variants.iter().find(|(n, _)| n == name) {
            return Err(twice(name, first, value));
        }
    }
    Ok(())
}

impl FromStr for Source {
    type Err = VerifyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Source::parse(s)
    }
}

impl fmt::Display for Source {
    /// The spec form, so a report names its source the way the user can type it again.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            Origin::File(p) => write!(f, "{}", p.display())?,
            Origin::Session(s) => f.write_str(s)?,
        }
        for (k, v) in &self.variants {
            write!(f, "@{k}={v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_variants_and_missing_files() {
        let s = Source::parse("s1@exhaust-from=any@rules=1").unwrap();
        assert_eq!(s.origin, Origin::Session("s1".into()));
        assert_eq!(s.variants, vec![("exhaust-from".into(), "any".into()), ("rules".into(), "1".into())]);
        assert_eq!(s.to_string(), "s1@exhaust-from=any@rules=1");
        assert!(Source::parse("s1@oops").is_err());
        assert_eq!(Source::parse("missing/file.arb").unwrap_err().message, "no such file: missing/file.arb");
        // A path that exists but is no log file is named for what it is.
        let dir = std::env::temp_dir();
        let spec = format!("{}/", dir.display());
        assert!(Source::parse(&spec).unwrap_err().message.ends_with("is a directory, not a log file"));
        if Path::new("/dev/null").exists() {
            let e = Source::parse("/dev/null").unwrap_err().message;
            assert_eq!(e, "/dev/null is not a regular file (a device, pipe or socket), not a log file");
        }
        assert!(Source::parse("@a=b").is_err());
        assert_eq!(
            Source::parse("s1@health=8@health=9").unwrap_err().message,
            "`health` is given twice (`health=8` and `health=9`): give it once"
        );
        let s = Source::parse("s1@health=8").unwrap();
        assert!(check_overrides(&s, &[("rules".into(), "1".into())]).is_ok());
        assert_eq!(
            check_overrides(&s, &[("health".into(), "9".into())]).unwrap_err().message,
            "`health` is given twice (`health=8` and `health=9`): give it once"
        );
        // A bare name is a session; a file of that name in the working directory makes it
        // ambiguous (the working directory of unit tests is the crate's folder).
        assert_eq!(Source::parse("no-such-thing").unwrap().origin, Origin::Session("no-such-thing".into()));
        let e = Source::parse("Cargo.toml@x=1").unwrap_err().message;
        assert!(e.contains("there is also a file `Cargo.toml`") && e.contains("`./Cargo.toml`"), "{e}");
        assert!(Source::parse("Cargo.toml").is_err());
        assert_eq!(Source::parse("./Cargo.toml").unwrap().origin, Origin::File("./Cargo.toml".into()));
        assert_eq!(
            parse_variants(&["a=b", " c = d "]).unwrap(),
            vec![("a".into(), "b".into()), ("c".into(), "d".into())]
        );
        assert_eq!(parse_variants(&["=x"]).unwrap_err().message, "`=x` is not of the form NAME=VALUE");
        assert_eq!(
            parse_variants(&["seed=1", "mode=arena", "seed = 2"]).unwrap_err().message,
            "`seed` is given twice (`seed=1` and `seed=2`): give it once"
        );
    }
}
