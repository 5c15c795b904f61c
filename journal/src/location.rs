//! Where a journal is: a directory (the embedded sled backend) or a PostgreSQL server,
//! named by a `postgres://` or `postgresql://` URL. One argument (`--db`, `ARBITER_DB`)
//! chooses the backend, so everything above the journal passes a location through without
//! knowing which backend it names.
//!
//! A URL may carry a password; `shown` is the form every message uses, with it hidden.

use std::path::{Path, PathBuf};

/// The prefixes that make a location a PostgreSQL server rather than a directory. A
/// directory whose name starts so is still reachable as `./postgres:...`.
const SERVER_SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

/// The location as a URL when it names a PostgreSQL server, `None` when it is a path.
pub fn server_url(location: &Path) -> Option<&str> {
    let text = location.to_str()?;
    // URL schemes are case-insensitive: `Postgres://` is a server too, never a directory.
    SERVER_SCHEMES
        .iter()
        .any(|scheme| text.get(..scheme.len()).is_some_and(|p| p.eq_ignore_ascii_case(scheme)))
        .then_some(text)
}

/// Whether the location names a PostgreSQL server (`postgres://...`) rather than a
/// directory: such a location is never created, removed or looked for on the disk.
pub fn is_server(location: &Path) -> bool {
    server_url(location).is_some()
}

/// A location as messages show it: a directory as it is, a server URL through `shown`.
pub fn display(location: &Path) -> String {
    match server_url(location) {
        Some(url) => shown(url),
        None => location.display().to_string(),
    }
}

/// A file kept beside the database, never inside it: `arbiter.db` + `.verdicts.json` ->
/// `arbiter.db.verdicts.json`. A PostgreSQL database has no directory to sit beside, so its
/// file goes in the current directory, named after the URL as messages show it (no password)
/// with every character but letters, digits, `.`, `-` and `_` made `_`.
pub fn beside(location: &Path, suffix: &str) -> PathBuf {
    if let Some(url) = server_url(location) {
        let name: String = shown(url)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
            .collect();
        return PathBuf::from(name + suffix);
    }
    // `arbiter.db/` names the same directory as `arbiter.db`: what is beside it stays beside.
    let mut name = location.components().as_path().as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// A server URL as messages show it: a password in it (`user:PASSWORD@` or
/// `password=PASSWORD`) is replaced by `***`.
pub fn shown(url: &str) -> String {
    let mut out = url.to_string();
    // `scheme://user:password@host`: the password runs from the first `:` after the scheme
    // to the last `@` of the authority.
    if let Some(start) = out.find("://").map(|i| i + 3) {
        let authority_end = out[start..].find(['/', '?']).map_or(out.len(), |i| start + i);
        if let Some(at) = out[start..authority_end].rfind('@').map(|i| start + i) {
            if let Some(colon) = out[start..at].find(':').map(|i| start + i) {
                out.replace_range(colon + 1..at, "***");
            }
        }
    }
    // `?password=...&` in the query.
    if let Some(query) = out.find('?') {
        let mut shown_query = String::new();
        for (i, pair) in out[query + 1..].split('&').enumerate() {
            if i > 0 {
                shown_query.push('&');
            }
            match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => {
                    shown_query.push_str(key);
                    shown_query.push_str("=***");
                }
                _ => shown_query.push_str(pair),
            }
        }
        out.replace_range(query + 1.., &shown_query);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_told_from_paths() {
        assert!(is_server(Path::new("postgres://league@db.example/arbiter")));
        assert!(is_server(Path::new("postgresql:///arbiter?host=/run/postgresql")));
        assert!(is_server(Path::new("Postgres://u:s3cret@127.0.0.1:1/db")));
        assert!(is_server(Path::new("POSTGRESQL:///arbiter")));
        assert_eq!(display(Path::new("Postgres://u:s3cret@h/db")), "Postgres://u:***@h/db");
        for path in ["arbiter.db", "./postgres://x", "/tmp/postgres", "postgres:/x", ""] {
            assert!(!is_server(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn files_beside_a_server_are_named_after_it_without_its_password() {
        assert_eq!(beside(Path::new("arbiter.db/"), ".v"), PathBuf::from("arbiter.db.v"));
        assert_eq!(
            beside(Path::new("postgres://league:s3cr@t@db/league"), ".v"),
            PathBuf::from("postgres___league_____db_league.v")
        );
    }

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(shown("postgres://league:s3cr@t@db/arbiter"), "postgres://league:***@db/arbiter");
        assert_eq!(shown("postgres://league@db/arbiter"), "postgres://league@db/arbiter");
        assert_eq!(
            shown("postgres:///arbiter?user=u&password=hunter2&host=/run"),
            "postgres:///arbiter?user=u&password=***&host=/run"
        );
        assert_eq!(shown("postgres://db:5432/x?sslmode=disable"), "postgres://db:5432/x?sslmode=disable");
    }
}
