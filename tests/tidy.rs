//! House rules for the whole workspace, checked as an ordinary test so CI enforces them:
//! every Rust file starts with a `//!` module doc; no test is ignored or expects a panic;
//! library code does not unwrap or expect (user input must never take the process down);
//! the engine does no I/O; only the journal touches sled, and inside it only its sled
//! backend (and PostgreSQL's client only its PostgreSQL backend); the journal's modules
//! import one way, by layers, and no crate's modules import each other in a circle; verify
//! names no game.

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
    ("sled_store/sealed", 10),
    ("sled_store/block", 11),
    ("sled_store/wal_mark", 11),
    ("sled_store/heads", 11),
    ("sled_store/wal", 12),
    ("sled_store/tail", 12),
    ("sled_store/tools", 13),
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

/// Every path named after `prefix` in `code`, one list of segments each, a `{a, b::{c, d}}`
/// group opened into `a`, `b::c` and `b::d` (a `self` inside a group names its parent).
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    /// The paths of the tree at the start of `s`: an identifier, maybe followed by `::` and
    /// another tree, or a `{...}` group of trees.
    fn tree(s: &str) -> Vec<Vec<&str>> {
        let s = s.trim_start();
        if let Some(group) = s.strip_prefix('{') {
            let (mut depth, mut start, mut out) = (0, 0, Vec::new());
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.extend(tree(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.extend(tree(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return out;
        }
        let first = ident(s);
        if first.is_empty() {
            return Vec::new();
        }
        match s[first.len()..].strip_prefix("::") {
            Some(next) => {
                let mut out: Vec<Vec<&str>> = tree(next)
                    .into_iter()
                    .map(|rest| {
                        let mut p = vec![first];
                        p.extend(rest.into_iter().filter(|seg| *seg != "self"));
                        p
                    })
                    .collect();
                if out.is_empty() {
                    out.push(vec![first]);
                }
                out
            }
            None => vec![vec![first]],
        }
    }
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        // `super::` inside `crate::...::super::`, or an identifier ending in the prefix's
        // word, is not a path's start.
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        out.extend(tree(&code[at + prefix.len()..]));
    }
    out
}

/// A crate's modules and which of them each names: (module paths, edges by index). A file
/// `a/b.rs` or `a/b/mod.rs` is module `a::b`; it names the longest module a `crate::`,
/// `super::` or `self::` path of its starts with. A name of the module itself, of one of its
/// ancestors (what they re-export) or of the crate root is no edge.
fn module_graph(src: &str) -> (Vec<String>, Vec<Vec<usize>>) {
    let files: Vec<(Vec<String>, String)> = library_code()
        .into_iter()
        .filter_map(|(path, code)| {
            let rel = path.strip_prefix(&format!("{src}/"))?.strip_suffix(".rs")?;
            let mut module: Vec<String> = rel.split('/').map(str::to_string).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            let code: String =
                code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
            Some((module, code))
        })
        .collect();
    let names: Vec<String> = files.iter().map(|(m, _)| m.join("::")).collect();
    let mut edges = Vec::new();
    for (module, code) in &files {
        let mut to = Vec::new();
        for (prefix, base) in [
            ("crate::", Vec::new()),
            ("super::", module[..module.len().saturating_sub(1)].to_vec()),
            ("self::", module.clone()),
        ] {
            for path in paths_after(code, prefix) {
                let mut full = base.clone();
                for seg in path {
                    match seg {
                        "super" => {
                            full.pop();
                        }
                        seg => full.push(seg.to_string()),
                    }
                }
                let Some(target) = (1..=full.len()).rev().find_map(|k| {
                    let name = full[..k].join("::");
                    names.iter().position(|n| *n == name)
                }) else {
                    continue;
                };
                let t: Vec<&str> = names[target].split("::").collect();
                let ancestor = t.len() <= module.len() && module.iter().zip(&t).all(|(a, b)| a == b);
                if !ancestor {
                    to.push(target);
                }
            }
        }
        to.sort_unstable();
        to.dedup();
        edges.push(to);
    }
    (names, edges)
}

/// A circle of module imports, if there is one (depth first: a module met again while
/// still on the path closes it).
fn import_cycle(edges: &[Vec<usize>]) -> Option<Vec<usize>> {
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
    let mut state = vec![0u8; edges.len()];
    (0..edges.len()).find_map(|start| {
        if state[start] == 0 {
            visit(start, edges, &mut state, &mut Vec::new())
        } else {
            None
        }
    })
}

#[test]
fn every_crates_modules_import_one_way() {
    // Modules are files (a folder's `mod.rs` is the folder); the graph of which names
    // which, through `crate::`, `super::` and `self::` paths, must have no circle in any
    // crate users run (unit tests left out).
    for (src, at_least) in
        [("src", 40), ("engine/src", 300), ("journal/src", 40), ("verify/src", 40), ("server/src", 1)]
    {
        let (names, edges) = module_graph(src);
        let found: usize = edges.iter().map(Vec::len).sum();
        assert!(
            found >= at_least,
            "{src}: only {found} imports between modules found: is the parser still right?"
        );
        if let Some(cycle) = import_cycle(&edges) {
            let shown: Vec<&str> = cycle.iter().chain(cycle.first()).map(|&i| names[i].as_str()).collect();
            panic!("{src}'s modules import each other in a circle: {}", shown.join(" -> "));
        }
    }
}

#[test]
fn the_cycle_check_finds_a_circle() {
    // The check above can fail: a graph with a circle is caught, one without is not.
    assert_eq!(import_cycle(&[vec![1], vec![2], vec![0]]), Some(vec![0, 1, 2]));
    assert_eq!(import_cycle(&[vec![1, 2], vec![2], vec![]]), None);
    let paths = paths_after("use super::{state::State, kit::{deck, self}}; crate::a::b(x)", "super::");
    assert_eq!(paths, vec![vec!["state", "State"], vec!["kit", "deck"], vec!["kit"]]);
}
