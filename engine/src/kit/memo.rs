//! The last game built from the built-in catalog, kept per process.
//!
//! Verifying a league builds one game per session, nearly always from the same setup and
//! the built-in catalog, and building one (resolving the setup, reading every
//! interpretation, checking the catalog against them, filling in the defaults) costs as much
//! as stepping dozens of events. A game is a pure function of its setup and catalog text, so
//! the last one built from the built-in catalog is kept and cloned (reference counts and
//! plain values) when the same setup asks for it again.

use crate::{Setup, SetupError};
use std::sync::Mutex;

/// One game type's last build from its built-in catalog, with the setup it was built from.
pub struct LastBuilt<G> {
    last: Mutex<Option<(Setup, G)>>,
}

impl<G: Clone> LastBuilt<G> {
    pub const fn new() -> Self {
        LastBuilt { last: Mutex::new(None) }
    }

    /// The game `build` makes from `setup`: the kept one when `builtin` (the catalog text
    /// is the built-in catalog) and the setup is the one it was built from, else a fresh
    /// build, kept when it succeeded from the built-in catalog. Only a successful build is
    /// kept, so a refused setup is refused again with the same reasons. A poisoned lock
    /// only skips the memo.
    pub fn get_or_build(
        &self,
        setup: &Setup,
        builtin: bool,
        build: impl FnOnce() -> Result<G, SetupError>,
    ) -> Result<G, SetupError> {
        if !builtin {
            return build();
        }
        if let Ok(last) = self.last.lock() {
            if let Some((_, game)) = last.as_ref().filter(|(seen, _)| seen == setup) {
                return Ok(game.clone());
            }
        }
        let built = build()?;
        if let Ok(mut last) = self.last.lock() {
            *last = Some((setup.clone(), built.clone()));
        }
        Ok(built)
    }
}

impl<G: Clone> Default for LastBuilt<G> {
    fn default() -> Self {
        LastBuilt::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_setup_seen_last_is_not_built_again_and_a_new_one_is() {
        static MEMO: LastBuilt<String> = LastBuilt::new();
        let builds = Cell::new(0);
        let build = |s: &Setup| {
            builds.set(builds.get() + 1);
            Ok(format!("{:?}", s.params))
        };
        let a = Setup::default();
        let b = Setup::default().with("players", "3");
        assert_eq!(MEMO.get_or_build(&a, true, || build(&a)).unwrap(), "{}");
        assert_eq!(MEMO.get_or_build(&a, true, || build(&a)).unwrap(), "{}");
        assert_eq!(builds.get(), 1);
        let got = MEMO.get_or_build(&b, true, || build(&b)).unwrap();
        assert_eq!((got.as_str(), builds.get()), ("{\"players\": \"3\"}", 2));
        // Another catalog is always built, and does not replace the kept build.
        MEMO.get_or_build(&b, false, || build(&b)).unwrap();
        MEMO.get_or_build(&b, true, || build(&b)).unwrap();
        assert_eq!(builds.get(), 3);
    }

    #[test]
    fn a_refused_setup_is_refused_every_time() {
        static MEMO: LastBuilt<u8> = LastBuilt::new();
        let refuse = || Err(SetupError::new("no"));
        assert!(MEMO.get_or_build(&Setup::default(), true, refuse).is_err());
        assert!(MEMO.get_or_build(&Setup::default(), true, refuse).is_err());
        assert_eq!(MEMO.get_or_build(&Setup::default(), true, || Ok(7)), Ok(7));
    }
}
