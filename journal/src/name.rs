//! Session names: what is allowed, and the "did you mean" hint for a name that is not there.

use crate::error::{ErrorKind, JournalError};

/// The longest session name, in bytes.
pub const MAX_NAME_LEN: usize = 64;

/// Check a session name: 1 to 64 characters from `A-Z a-z 0-9 . _ -`, starting with a letter
/// or digit. Names go into shell commands and file names, so they stay plain.
pub fn validate_name(name: &str) -> Result<(), JournalError> {
    let reason = if name.is_empty() {
        Some("it is empty".to_string())
    } else if name.len() > MAX_NAME_LEN {
        Some(format!("it is {} bytes long, the limit is {MAX_NAME_LEN}", name.len()))
    } else if let Some(c) =
        name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        Some(format!("it contains {c:?}; use letters, digits, `.`, `_` and `-`"))
    } else if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        Some("it must start with a letter or a digit".to_string())
    } else {
        None
    };
    match reason {
        None => Ok(()),
        Some(r) => Err(JournalError::new(
            ErrorKind::InvalidName,
            format!("session name `{}` is not allowed: {r}", name.escape_debug()),
        )),
    }
}

/// Check the name of a session about to be made: as `validate_name`, and not ending in
/// `.arb` or `.jsonl`, which the command line reads as a log file's name (a session so
/// named could be made, then never named again). Sessions of earlier builds with such a
/// name are still read (where a tool names them unambiguously) and continued.
pub fn validate_new_name(name: &str) -> Result<(), JournalError> {
    validate_name(name)?;
    match [".arb", ".jsonl"].into_iter().find(|ext| name.ends_with(ext)) {
        None => Ok(()),
        Some(ext) => Err(JournalError::new(
            ErrorKind::InvalidName,
            format!(
                "session name `{name}` is not allowed: it ends in `{ext}`, which names a log file on the \
                 command line"
            ),
        )),
    }
}

/// The known name closest to `wanted`, if one is close enough to be a likely typo.
pub fn closest<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted_lower = wanted.to_ascii_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    names
        .into_iter()
        .map(|n| (edit_distance(&wanted_lower, &n.to_ascii_lowercase()), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, n)| (*d, *n))
        .map(|(_, n)| n)
}

/// Levenshtein distance over characters (names are short, so the quadratic cost is nothing).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for ok in ["a", "game-1", "carter.2024_03", &"x".repeat(MAX_NAME_LEN)] {
            assert!(validate_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-x", ".hidden", "a b", "a/b", "é", &"x".repeat(MAX_NAME_LEN + 1)] {
            let e = validate_name(bad).err().map(|e| e.kind());
            assert_eq!(e, Some(ErrorKind::InvalidName), "{bad:?}");
        }
    }

    #[test]
    fn a_new_session_is_not_named_like_a_log_file() {
        for bad in ["a.arb", "b.jsonl"] {
            assert!(validate_name(bad).is_ok(), "{bad}");
            let e = validate_new_name(bad).err().map(|e| e.message().to_string()).unwrap_or_default();
            assert!(e.contains("names a log file"), "{bad}: {e}");
        }
        assert!(validate_new_name("a.arb.x").is_ok() && validate_new_name("jsonl").is_ok());
    }

    #[test]
    fn closest_finds_typos_only() {
        let names = ["carter", "league-final", "practice"];
        assert_eq!(closest("cartre", names), Some("carter"));
        assert_eq!(closest("League-Finale", names), Some("league-final"));
        assert_eq!(closest("zzz", names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
