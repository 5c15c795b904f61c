//! House rules for the whole workspace, checked as an ordinary test so CI enforces them:
//! every Rust file starts with a `//!` module doc; no test is ignored or expects a panic;
//! library code does not unwrap or expect (user input must never take the process down);
//! the engine does no I/O; only the journal touches sled; verify names no game.

use std::path::{Path, PathBuf};

const CRATES: &[&str] = &["src", "engine", "journal", "verify", "fixtures", "server", "xtask", "tests"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() && !path.ends_with("target") {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn files_under(dirs: &[&str]) -> Vec<(String, String)> {
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
            (p.strip_prefix(root).unwrap_or(&p).display().to_string(), text)
        })
        .collect()
}

/// Library code: the part of a file before its unit tests, in the crates users run.
fn library_code() -> Vec<(String, String)> {
    files_under(&["src", "engine/src", "journal/src", "verify/src", "server/src"])
        .into_iter()
        .filter(|(path, _)| {
            !path.ends_with("tests.rs") && !path.contains("/tests/") && !path.ends_with("_tests.rs")
        })
        .map(|(path, text)| {
            let code = text.split("#[cfg(test)]").next().unwrap_or_default().to_string();
            (path, code)
        })
        .collect()
}

#[test]
fn every_file_has_a_module_doc_and_no_test_is_skipped() {
    let all = files_under(CRATES);
    assert!(all.len() > 40, "found only {} files", all.len());
    let banned = [concat!("#[", "ignore"), concat!("#[", "should_panic")];
    for (path, text) in &all {
        assert!(text.starts_with("//!"), "{path} has no `//!` module doc");
        for b in banned {
            assert!(!text.contains(b), "{path} uses {b}");
        }
    }
}

#[test]
fn library_code_does_not_unwrap() {
    let banned = [concat!(".unw", "rap()"), concat!(".exp", "ect(\"")];
    for (path, code) in library_code() {
        for b in banned {
            assert!(!code.contains(b), "{path} contains `{b}` outside its tests");
        }
    }
}

#[test]
fn the_engine_does_no_io_and_only_the_journal_touches_sled() {
    let io = ["std::fs", "std::io::stdin", "std::net", "println!", "eprintln!", "File::open", "sled::"];
    for (path, code) in library_code().into_iter().filter(|(p, _)| p.starts_with("engine/")) {
        for b in io {
            assert!(!code.contains(b), "{path} does I/O (`{b}`)");
        }
    }
    for (path, code) in library_code().into_iter().filter(|(p, _)| !p.starts_with("journal/")) {
        assert!(!code.contains("sled::"), "{path} touches sled; only journal/ may");
    }
}

#[test]
fn verify_names_no_game() {
    let games = [concat!("proving", "-grounds"), concat!("proving", "_grounds"), concat!("keri", "dwyn")];
    // The server's Rust code is generic too: only its web app draws particular games (and
    // `web.rs` lists the web app's files).
    let generic = |p: &str| p.starts_with("verify/") || (p.starts_with("server/") && !p.ends_with("/web.rs"));
    for (path, code) in library_code().into_iter().filter(|(p, _)| generic(p)) {
        for g in games {
            assert!(
                !code.to_lowercase().contains(g),
                "{path} names the game `{g}`; verify must stay generic"
            );
        }
    }
}

#[test]
fn a_game_imports_the_kernel_and_the_kit_never_another_game() {
    // A game is a folder of engine/src other than the kit; only the registry (and the
    // crate root that declares them) may name every game.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src");
    let mut games: Vec<String> = std::fs::read_dir(&src)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name != "kit")
        .collect();
    games.sort();
    assert!(games.len() >= 2, "found only the games {games:?}");
    for (path, text) in files_under(&["engine/src"]) {
        let rel = path.trim_start_matches("engine/src/");
        let home = rel.split_once('/').map(|(dir, _)| dir);
        if matches!(rel, "registry.rs" | "lib.rs") {
            continue;
        }
        // A game's whole folder, tests included; the kernel and the kit outside their tests.
        let code = if home.is_some_and(|h| games.iter().any(|g| g == h)) {
            text.as_str()
        } else {
            text.split("#[cfg(test)]").next().unwrap_or_default()
        };
        for game in games.iter().filter(|g| Some(g.as_str()) != home) {
            assert!(
                !code.contains(&format!("{game}::")),
                "{path} uses the game `{game}`; a game imports only the kernel and the kit"
            );
        }
    }
}
