//! Every reading of every interpretation of every game is tested where it matters: for each
//! value other than the default, some fixture of the game expects its verdict or state to
//! split under that value (`@expect split N NAME=VALUE`), and some fixture replays a log
//! under it (`@variant NAME=VALUE`). A number-valued interpretation needs one such value.
//! And every parameter's default is one of the values it allows.
//!
//! Generic over the kernel: each game of the registry is visited through `dispatch`, so a
//! new game is held to it from its first interpretation.

use arbiter_engine::{dispatch, game_ids, Game, GameVisitor, ParamKind};
use std::path::{Path, PathBuf};

/// The text of every `.arb` file under `fixtures/GAME`.
fn fixture_texts(id: &str) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "arb") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(id), &mut paths);
    paths.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

/// The `NAME=VALUE` pairs a fixture line of the form `PREFIX ... NAME=VALUE ...` names.
fn pairs_after<'a>(texts: &'a [String], prefix: &'a str) -> impl Iterator<Item = (String, String)> + 'a {
    texts.iter().flat_map(|t| t.lines()).filter_map(move |l| l.trim().strip_prefix(prefix)).flat_map(|rest| {
        rest.split_whitespace()
            .filter_map(|w| w.split_once('=').map(|(n, v)| (n.to_string(), v.to_string())))
            .collect::<Vec<_>>()
    })
}

#[derive(Clone, Copy)]
struct Readings;

impl GameVisitor for Readings {
    type Output = Vec<String>;
    fn visit<G: Game>(self) -> Vec<String> {
        let id = G::info().id;
        let texts = fixture_texts(id);
        let splits: Vec<(String, String)> = pairs_after(&texts, "@expect split ").collect();
        let variants: Vec<(String, String)> = pairs_after(&texts, "@variant ").collect();
        let has = |list: &[(String, String)], n: &str, v: &str| list.iter().any(|(a, b)| a == n && b == v);
        let mut missing = Vec::new();
        for p in G::params().iter().filter(|p| p.kind == ParamKind::Interpretation) {
            let others: Vec<&str> =
                p.allowed.iter().copied().filter(|v| *v != p.default && !v.starts_with('<')).collect();
            if others.is_empty() {
                // A number: one other value, split and replayed.
                let ok = splits.iter().any(|(n, v)| n == p.name && v != p.default && has(&variants, n, v));
                if !ok {
                    missing.push(format!("{id}: {} (a split under another number)", p.name));
                }
            }
            for v in others {
                if !has(&splits, p.name, v) || !has(&variants, p.name, v) {
                    missing.push(format!("{id}: {}={v}", p.name));
                }
            }
        }
        missing
    }
}

#[test]
fn every_reading_of_every_interpretation_has_a_fixture_that_splits_and_one_that_replays_it() {
    let missing: Vec<String> =
        game_ids().into_iter().filter_map(|id| dispatch(id, Readings)).flatten().collect();
    assert!(missing.is_empty(), "interpretation readings without fixtures:\n{}", missing.join("\n"));
}

/// Every parameter's default is a value it allows: a setup that gives nothing reads each
/// default without checking it again (`Setup::values`).
#[derive(Clone, Copy)]
struct Defaults;

impl GameVisitor for Defaults {
    type Output = Vec<String>;
    fn visit<G: Game>(self) -> Vec<String> {
        G::params()
            .iter()
            .filter(|p| {
                !(p.allowed.is_empty() || p.allowed[0].starts_with('<') || p.allowed.contains(&p.default))
            })
            .map(|p| format!("{}: {}={} is not allowed", G::info().id, p.name, p.default))
            .collect()
    }
}

#[test]
fn every_parameters_default_is_allowed() {
    let wrong: Vec<String> =
        game_ids().into_iter().filter_map(|id| dispatch(id, Defaults)).flatten().collect();
    assert!(wrong.is_empty(), "defaults not allowed:\n{}", wrong.join("\n"));
}
