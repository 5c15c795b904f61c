//! The server's shared state, and the helpers every handler uses on it (`blocking`,
//! `lock`); the routes that name the handlers are `routes.rs`.
//!
//! One `Journal` is opened for the server's life and shared by every request. Requests run
//! their journal and replay work on tokio's blocking pool, so a long `verify` never holds up
//! another request. Reads take no lock of the server's: the journal serves them while a
//! write is in progress. Writes to one session go through that session's recorder, one at a
//! time (its mutex); writes to different sessions run side by side.

use crate::config::Config;
use crate::error::ApiError;
use arbiter_journal::Journal;
use arbiter_verify::Recorder;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::{broadcast, watch};

/// The recorder of one session, built on its first write and kept while it matches the
/// journal.
pub type WriterSlot = Arc<Mutex<Option<Recorder<'static>>>>;

/// What every request can reach.
pub struct App {
    pub journal: Arc<Journal>,
    /// The database path as the server was given it, for messages.
    pub db: String,
    /// The same path, for the files kept beside the database (an audit's verdicts).
    pub db_path: std::path::PathBuf,
    /// Required on writes when set.
    pub token: Option<String>,
    /// Listening on loopback only: requests must then name this machine in `Host` (a web
    /// page elsewhere cannot reach the API through a name it controls).
    pub loopback: bool,
    writers: Mutex<HashMap<String, WriterSlot>>,
    /// `(session, length)` after every acknowledged write, for live pages.
    pub heads: broadcast::Sender<(String, u64)>,
    /// Turns true when the server stops, so that live streams end and shutdown completes.
    pub stopping: watch::Receiver<bool>,
}

pub type Shared = Arc<App>;

impl App {
    pub fn new(journal: Journal, config: &Config, stopping: watch::Receiver<bool>) -> App {
        let (heads, _) = broadcast::channel(1024);
        App {
            journal: Arc::new(journal),
            db: config.db.display().to_string(),
            db_path: config.db.clone(),
            token: config.token.clone(),
            loopback: config.listen.ip().is_loopback(),
            writers: Mutex::new(HashMap::new()),
            heads,
            stopping,
        }
    }

    /// The write slot of `session` (created empty on first use).
    pub fn writer(&self, session: &str) -> WriterSlot {
        let mut writers = lock(&self.writers);
        Arc::clone(writers.entry(session.to_string()).or_default())
    }

    /// Tell live pages that `session` now holds `len` records.
    pub fn announce(&self, session: &str, len: u64) {
        // No page listening is not an error.
        let _ = self.heads.send((session.to_string(), len));
    }
}

/// A mutex's contents even after a thread panicked while holding it: every value behind
/// these mutexes is rebuilt from the journal when in doubt, so a poisoned one is still safe.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Run journal and replay work on the blocking pool. A panic in it (a bug) becomes a 500
/// with one sentence; the server goes on.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => result,
        Err(e) if e.is_panic() => {
            Err(ApiError::internal("the server hit an internal error on this request; please report it"))
        }
        Err(_) => Err(ApiError::internal("the request was cancelled while the server stopped")),
    }
}
