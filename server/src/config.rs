//! What `arbiter serve` is told: the database, the address, the write token; and the one
//! rule about them: listening beyond this machine requires a token.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The address `arbiter serve` listens on unless told otherwise.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";

/// A token shorter than this is refused: it would be guessed.
pub const MIN_TOKEN_CHARS: usize = 16;

/// Largest token file read (a token is one line).
const MAX_TOKEN_FILE_BYTES: u64 = 4096;

/// A server's settings, checked.
#[derive(Debug, Clone)]
pub struct Config {
    /// The database directory the server owns while it runs.
    pub db: PathBuf,
    pub listen: SocketAddr,
    /// Required on every write (`Authorization: Bearer TOKEN`) when set.
    pub token: Option<String>,
}

/// A setting that cannot be used; one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Check the settings as the command line gives them: `listen` an `IP:PORT`, the token
    /// given directly or as a file holding it (not both).
    pub fn new(
        db: &Path,
        listen: &str,
        token: Option<&str>,
        token_file: Option<&Path>,
    ) -> Result<Config, ConfigError> {
        let listen: SocketAddr = listen.parse().map_err(|_| {
            ConfigError(format!(
                "`{}` is not an address to listen on: give IP:PORT, such as {DEFAULT_LISTEN}",
                arbiter_verify::shown(listen)
            ))
        })?;
        let token = match (token, token_file) {
            (Some(_), Some(_)) => {
                return Err(ConfigError(
                    "give the token either with --token or with --token-file, not both".into(),
                ))
            }
            (Some(t), None) => Some(t.trim().to_string()),
            (None, Some(path)) => Some(read_token_file(path)?),
            (None, None) => None,
        };
        if let Some(t) = &token {
            if t.chars().count() < MIN_TOKEN_CHARS || t.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(ConfigError(format!(
                    "the token must be at least {MIN_TOKEN_CHARS} characters without spaces or control characters"
                )));
            }
        }
        if !listen.ip().is_loopback() && token.is_none() {
            return Err(ConfigError(format!(
                "listening on {listen} lets other machines reach the journal: give a token for writes with --token or --token-file (or listen on 127.0.0.1)"
            )));
        }
        Ok(Config { db: db.to_path_buf(), listen, token })
    }
}

/// The first line of a token file, trimmed. Only a regular file of bounded size is read.
fn read_token_file(path: &Path) -> Result<String, ConfigError> {
    let shown = arbiter_verify::shown(&path.display().to_string()).into_owned();
    let meta = std::fs::metadata(path)
        .map_err(|e| ConfigError(format!("cannot read the token file `{shown}`: {e}")))?;
    if !meta.is_file() || meta.len() > MAX_TOKEN_FILE_BYTES {
        return Err(ConfigError(format!(
            "the token file `{shown}` must be a regular file of at most {MAX_TOKEN_FILE_BYTES} bytes"
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError(format!("cannot read the token file `{shown}`: {e}")))?;
    Ok(text.lines().next().unwrap_or_default().trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elsewhere_needs_a_token() {
        let db = Path::new("x.db");
        assert!(Config::new(db, "127.0.0.1:0", None, None).is_ok());
        assert!(Config::new(db, "[::1]:0", None, None).is_ok());
        let open = Config::new(db, "0.0.0.0:7878", None, None).unwrap_err();
        assert!(open.0.contains("give a token"), "{open}");
        assert!(Config::new(db, "0.0.0.0:7878", Some("0123456789abcdef"), None).is_ok());
        assert!(Config::new(db, "0.0.0.0:7878", Some("short"), None).is_err());
        assert!(Config::new(db, "localhost", None, None).unwrap_err().0.contains("IP:PORT"));
    }
}
