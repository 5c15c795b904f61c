//! House rules for the whole workspace, checked as an ordinary test so CI enforces them:
//! every Rust file starts with a `//!` module doc; no test is ignored or expects a panic;
//! library code does not unwrap or expect (user input must never take the process down);
//! the engine does no I/O; only the journal touches sled, and inside it only its sled
//! backend (and PostgreSQL's client only its PostgreSQL backend); the journal's modules
//! import one way, by layers, and verify's modules in no circle; verify names no game.

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
        assert!(!code.contains("postgres::"), "{path} talks to PostgreSQL; only journal/ may");
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

/// The journal's modules by layer. A module may name (through `crate::` or `super::`) only
/// modules of a lower layer, so imports run one way; each backend's files (`sled_store/`,
/// `pg_store/`) are layered the same way inside it. A new module must be given a layer here.
const JOURNAL_LAYERS: &[(&str, u32)] = &[
    // Pure, no storage.
    ("error", 0),
    ("codec", 0),
    ("record", 0),
    ("meta", 0),
    ("limits", 0),
    ("location", 0),
    ("problem", 1),
    ("name", 1),
    ("chain", 1),
    ("batch", 2),
    ("receipt", 2),
    // The storage boundary, then what is shared over any store.
    ("store", 3),
    ("walk", 4),
    ("events", 5),
    ("check", 5),
    ("copy", 5),
    // The sled backend: formats and files, its state, its operations, its `Store`.
    ("sled_store/layout", 10),
    ("sled_store/block", 11),
    ("sled_store/wal", 11),
    ("sled_store/heads", 11),
    ("sled_store/tail", 12),
    ("sled_store/tools", 12),
    ("sled_store/state", 13),
    ("sled_store/open", 14),
    ("sled_store/read", 14),
    ("sled_store/write", 14),
    ("sled_store/snapshot", 14),
    ("sled_store/recover", 14),
    ("sled_store/compare", 14),
    ("sled_store", 15),
    // The PostgreSQL backend, layered the same way.
    ("pg_store/schema", 10),
    ("pg_store/fail", 10),
    ("pg_store/pool", 11),
    ("pg_store/state", 12),
    ("pg_store/tools", 12),
    ("pg_store/read", 13),
    ("pg_store/write", 13),
    ("pg_store", 15),
    // The facade, and a server for the tests above it.
    ("journal", 20),
    ("test_server", 21),
];

/// The backends: directories of `journal/src/` whose files are layered inside them, and the
/// crate only they may name.
const BACKENDS: &[(&str, &str)] = &[("sled_store", "sled::"), ("pg_store", "postgres::")];

/// The module a journal file is (`sled_store/wal`), `None` for the crate root.
fn journal_module(path: &str) -> Option<String> {
    let rel = path.strip_prefix("journal/src/")?.strip_suffix(".rs")?;
    match rel {
        "lib" => None,
        other => Some(other.strip_suffix("/mod").unwrap_or(other).to_string()),
    }
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first identifier of each top-level item of a `{a, b::c, d}` group (`group` starts
/// after its `{`).
fn group_items(group: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(ident(group[start..i].trim()));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ident(group[start..i].trim()));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The first two path segments after each `prefix` in `code` (every item of a `{...}`).
fn segments_after<'a>(code: &'a str, prefix: &str) -> Vec<(&'a str, Option<&'a str>)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            out.extend(group_items(group).into_iter().map(|first| (first, None)));
            continue;
        }
        let first = ident(rest);
        match rest[first.len()..].strip_prefix("::") {
            Some(next) => match next.strip_prefix('{') {
                Some(group) => out.extend(group_items(group).into_iter().map(|s| (first, Some(s)))),
                None => out.push((first, Some(ident(next)))),
            },
            None => out.push((first, None)),
        }
    }
    out
}

#[test]
fn the_journals_modules_import_one_way() {
    let layer = |m: &str| JOURNAL_LAYERS.iter().find(|(name, _)| *name == m).map(|(_, l)| *l);
    // `segment` of a backend's directory as a module: one of its files, else the directory.
    let in_backend = |backend: &str, segment: &str| {
        let file = format!("{backend}/{segment}");
        if layer(&file).is_some() {
            file
        } else {
            backend.to_string()
        }
    };
    let mut checked = 0;
    for (path, code) in library_code().into_iter().filter(|(p, _)| p.starts_with("journal/src/")) {
        let Some(module) = journal_module(&path) else { continue };
        let own = layer(&module)
            .unwrap_or_else(|| panic!("{path}: module `{module}` has no layer in JOURNAL_LAYERS"));
        let code: String =
            code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let home = BACKENDS.iter().map(|(dir, _)| *dir).find(|dir| module.starts_with(dir));
        let mut targets = Vec::new();
        for (first, second) in segments_after(&code, "crate::") {
            match (BACKENDS.iter().find(|(dir, _)| *dir == first), second) {
                (Some((dir, _)), Some(second)) => targets.push(in_backend(dir, second)),
                _ => targets.push(first.to_string()),
            }
        }
        if let Some(dir) = home {
            for (first, _) in segments_after(&code, "super::") {
                targets.push(in_backend(dir, first));
            }
        }
        for target in targets {
            let theirs =
                layer(&target).unwrap_or_else(|| panic!("{path} names `{target}`, which has no layer"));
            assert!(
                theirs < own,
                "{path} (layer {own}) imports `{target}` (layer {theirs}): imports run to lower layers only"
            );
            checked += 1;
        }
        for (dir, client) in BACKENDS {
            if home != Some(*dir) {
                assert!(!code.contains(client), "{path} names `{client}`; only journal/src/{dir}/ may");
            }
        }
    }
    assert!(checked > 50, "only {checked} imports found: is the parser still right?");
}

#[test]
fn verifys_modules_import_one_way() {
    // verify's modules are flat files; an import names a module by its first segment
    // (`crate::logfile::...`), and items the crate root re-exports (`crate::Context`) are not
    // modules. The graph of module imports must have no cycle (tests left out).
    let files: Vec<(String, String)> = library_code()
        .into_iter()
        .filter_map(|(path, code)| {
            let module = path.strip_prefix("verify/src/")?.strip_suffix(".rs")?.to_string();
            (module != "lib").then(|| (module, code.split("#[cfg(test)]").next().unwrap_or("").to_string()))
        })
        .collect();
    let names: Vec<&str> = files.iter().map(|(m, _)| m.as_str()).collect();
    let mut edges: Vec<Vec<usize>> = Vec::new();
    for (module, code) in &files {
        let code: String =
            code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let mut to: Vec<usize> = segments_after(&code, "crate::")
            .into_iter()
            .filter_map(|(first, _)| names.iter().position(|n| *n == first))
            .filter(|&i| names[i] != module)
            .collect();
        to.sort_unstable();
        to.dedup();
        edges.push(to);
    }
    assert!(
        edges.iter().map(Vec::len).sum::<usize>() > 40,
        "too few imports found: is the parser still right?"
    );
    // Depth-first search; a module met again while still on the path closes a cycle.
    fn visit(at: usize, edges: &[Vec<usize>], state: &mut [u8], path: &mut Vec<usize>) -> Option<Vec<usize>> {
        state[at] = 1;
        path.push(at);
        for &next in &edges[at] {
            if state[next] == 1 {
                let from = path.iter().position(|&m| m == next).unwrap_or(0);
                return Some(path[from..].to_vec());
            }
            if state[next] == 0 {
                if let Some(cycle) = visit(next, edges, state, path) {
                    return Some(cycle);
                }
            }
        }
        path.pop();
        state[at] = 2;
        None
    }
    let mut state = vec![0u8; names.len()];
    for start in 0..names.len() {
        if state[start] == 0 {
            if let Some(cycle) = visit(start, &edges, &mut state, &mut Vec::new()) {
                let shown: Vec<&str> = cycle.iter().map(|&i| names[i]).collect();
                panic!("verify's modules import each other in a circle: {}", shown.join(" -> "));
            }
        }
    }
}
