//! House rules for this crate and the fixtures harness: a `//!` doc on every file, no
//! ignored or should-panic tests, no unwrap/expect in library code, no game named in code.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn files(dirs: &[&str]) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for d in dirs {
        rust_files(&root.join(d), &mut paths);
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (p, text)
        })
        .collect()
}

#[test]
fn every_file_has_a_module_doc_and_no_test_is_ignored() {
    let all = files(&["src", "tests", "../fixtures/src", "../fixtures/tests"]);
    assert!(all.len() > 10);
    let banned = [concat!("#[", "ignore"), concat!("#[", "should_panic")];
    for (path, text) in &all {
        assert!(text.starts_with("//!"), "{} has no `//!` module doc", path.display());
        for b in banned {
            assert!(!text.contains(b), "{} uses {b}", path.display());
        }
    }
}

#[test]
fn library_code_neither_unwraps_nor_names_a_game() {
    let banned = [concat!(".unw", "rap()"), concat!(".exp", "ect("), concat!("pan", "ic!(")];
    let games = [concat!("proving", "-grounds"), concat!("proving", "_grounds"), concat!("keri", "dwyn")];
    for (path, text) in files(&["src"]) {
        // Unit tests at the bottom of a file may unwrap; library code may not.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for b in banned.iter().chain(games.iter()) {
            assert!(!code.to_lowercase().contains(b), "{} contains `{b}`", path.display());
        }
    }
}
