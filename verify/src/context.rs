//! The handle every operation runs on: which games exist and, when one is open, the journal.

use crate::games::{EngineGames, Games};
use crate::retraction_cache::RetractionCache;
use crate::session::Journal;

/// Games plus an optional journal. The command line builds one with [`Context::new`] and the
/// journal it opened; tests build one over their own games and no journal.
pub struct Context<'j, R: Games = EngineGames> {
    pub games: R,
    pub journal: Option<&'j Journal>,
    /// Where the retractions of long log files are remembered between commands (see
    /// [`RetractionCache`]); `None`, the default, scans every file each time.
    pub retraction_cache: Option<RetractionCache>,
}

impl Context<'static, EngineGames> {
    /// The engine's games, files only (no journal).
    pub fn files() -> Self {
        Context { games: EngineGames, journal: None, retraction_cache: None }
    }
}

impl<'j> Context<'j, EngineGames> {
    /// The engine's games and a journal for session sources.
    pub fn new(journal: &'j Journal) -> Self {
        Context { games: EngineGames, journal: Some(journal), retraction_cache: None }
    }
}

impl<'j, R: Games> Context<'j, R> {
    /// Any set of games (a test's toy game), optionally with a journal.
    pub fn with_games(games: R, journal: Option<&'j Journal>) -> Self {
        Context { games, journal, retraction_cache: None }
    }

    /// The same context, remembering long files' retractions in `cache`.
    pub fn with_retraction_cache(self, cache: Option<RetractionCache>) -> Self {
        Context { retraction_cache: cache, ..self }
    }
}
