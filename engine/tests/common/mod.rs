//! What the engine's fixture-walking tests share: the shipped fixtures of a game, a
//! fixture's setup, catalog and record lines, and the game those build.

use arbiter_engine::{Game, Setup};
use std::path::{Path, PathBuf};

/// The `.arb` fixtures of game `id`, in name order.
pub fn fixtures_of(id: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(id);
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "arb"))
        .collect();
    out.sort();
    out
}

/// A fixture's parts: its setup pairs (`@setup`, `@variant`), its `@catalog`, its record
/// lines, and whether it says `@expect clean` of those lines as they are (not of a `@derive`
/// fixture, which is clean only once the consequences it leaves out are derived).
pub struct Fixture {
    pub pairs: Vec<String>,
    pub catalog: Option<String>,
    pub lines: Vec<String>,
    pub clean: bool,
}

impl Fixture {
    /// The parts of a fixture's text; `None` for one with retractions (`undo`: the records
    /// replayed would not be its lines).
    pub fn parse(text: &str) -> Option<Fixture> {
        let mut f = Fixture { pairs: Vec::new(), catalog: None, lines: Vec::new(), clean: false };
        let mut derive = false;
        for line in text.lines().map(|l| l.split('#').next().unwrap_or("").trim()) {
            match line.split_once(' ') {
                _ if line.is_empty() => {}
                _ if line == "undo" => return None,
                Some(("@setup" | "@variant", rest)) => {
                    f.pairs.extend(rest.split_whitespace().map(String::from))
                }
                Some(("@catalog", name)) => f.catalog = Some(name.trim().to_string()),
                _ if line == "@expect clean" => f.clean = true,
                _ if line == "@derive" => derive = true,
                _ if line.starts_with('@') => {}
                _ => f.lines.push(line.to_string()),
            }
        }
        f.clean &= !derive;
        Some(f)
    }

    /// The game this fixture at `path` is played under (its catalog built in, or a file
    /// beside it); `None` when its setup or catalog is refused.
    pub fn game<G: Game>(&self, path: &Path) -> Option<G> {
        let setup = Setup::from_pairs(self.pairs.iter().map(String::as_str)).ok()?;
        let name = self.catalog.clone().unwrap_or_else(|| G::default_catalog().to_string());
        let text = match G::builtin_catalog(&name) {
            Some(t) => t.to_string(),
            None => std::fs::read_to_string(path.with_file_name(&name)).unwrap_or_default(),
        };
        G::new(&setup, &text).ok()
    }
}
