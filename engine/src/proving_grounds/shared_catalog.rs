//! Catalog cards shared between configured games, and the built-in catalog parsed once.
//!
//! Verifying a league's sessions builds one game per session; parsing the built-in catalog
//! text for each of them cost more than stepping the session's hundred events. The text is
//! compiled in, so its parse is the same every time: it is done once per process and every
//! game built from it shares the cards (`Arc`). Parsing is pure (no I/O), so caching it
//! changes no result. A user's catalog file is parsed each time, as before.

use super::cards::{Chariot, Conspirator, Inspiration};
use super::catalog::{parse_full_catalog, Catalog, ILLUSTRATIVE};
use super::enemy::{Enemy, Requirement};
use std::sync::{Arc, OnceLock};

/// Every card of a catalog, shared so that cloning is a few reference counts.
#[derive(Debug, Clone)]
pub(super) struct SharedCards {
    pub enemies: Arc<[Enemy]>,
    pub conspirators: Arc<[Conspirator]>,
    pub chariots: Arc<[Chariot]>,
    pub inspirations: Arc<[Inspiration]>,
}

impl From<Catalog> for SharedCards {
    fn from(c: Catalog) -> SharedCards {
        SharedCards {
            enemies: c.enemies.into(),
            conspirators: c.conspirators.into(),
            chariots: c.chariots.into(),
            inspirations: c.inspirations.into(),
        }
    }
}

/// The cards of `text`, or every problem found (as `parse_full_catalog` reports them). The
/// built-in catalog is recognised by its content, since callers pass owned copies of it.
pub(super) fn shared_cards(text: &str) -> Result<SharedCards, Vec<String>> {
    static BUILTIN: OnceLock<Result<SharedCards, Vec<String>>> = OnceLock::new();
    if text == ILLUSTRATIVE {
        BUILTIN.get_or_init(|| parse_full_catalog(ILLUSTRATIVE).map(SharedCards::from)).clone()
    } else {
        parse_full_catalog(text).map(SharedCards::from)
    }
}

/// The placeholder card for a catalog index past the catalog (see `ProvingGrounds::enemy`),
/// built once.
pub(super) fn unknown_enemy() -> Arc<Enemy> {
    static UNKNOWN: OnceLock<Arc<Enemy>> = OnceLock::new();
    UNKNOWN
        .get_or_init(|| {
            Arc::new(Enemy {
                id: "unknown-card".to_string(),
                name: "Unknown card".to_string(),
                track: vec![
                    Requirement::default(),
                    Requirement { count: 2, ..Requirement::default() },
                    Requirement { count: 2, ..Requirement::default() },
                ],
                start: 1,
                ability: None,
                icon: None,
            })
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_catalog_is_parsed_once_and_shared() {
        let copy = ILLUSTRATIVE.to_string();
        let (a, b) = match (shared_cards(ILLUSTRATIVE), shared_cards(&copy)) {
            (Ok(a), Ok(b)) => (a, b),
            other => panic!("the built-in catalog must parse: {other:?}"),
        };
        assert!(Arc::ptr_eq(&a.enemies, &b.enemies), "a copy of the built-in text reuses its parse");
        let fresh = parse_full_catalog(ILLUSTRATIVE).map(SharedCards::from);
        match fresh {
            Ok(f) => {
                assert_eq!(&*f.enemies, &*a.enemies);
                assert_eq!(&*f.conspirators, &*a.conspirators);
                assert_eq!(&*f.chariots, &*a.chariots);
                assert_eq!(&*f.inspirations, &*a.inspirations);
            }
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn another_catalog_is_parsed_on_its_own() {
        let text = "a | A | B *2 2 | - | -\nb | B | B *2 2 | - | -\nc | C | B *2 2 | - | -\n\
                    d | D | B *2 2 | - | -\ne | E | B *2 2 | - | -\nf | F | B *2 2 | - | -";
        match shared_cards(text) {
            Ok(c) => assert_eq!(c.enemies.len(), 6),
            Err(e) => panic!("{e:?}"),
        }
        assert!(shared_cards("a | A | nonsense").is_err());
    }
}
