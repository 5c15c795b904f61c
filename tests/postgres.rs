//! The command line on a PostgreSQL database (`--db postgres://...`): every command that
//! uses the database answers there exactly as on a directory, and `arbiter migrate` moves
//! every session to PostgreSQL and back with its chain intact: `check` passes on the far
//! side, a receipt sealed before the move still holds, and the exports are the same.
//!
//! The server is `arbiter_journal::test_server`'s (the one `.ci/run` starts, or a throwaway
//! cluster); without one the tests say on the terminal that they did not run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const DISPUTED: &str = "examples/disputed-wound.arb";
const WON: &str = "fixtures/proving-grounds/game-won.arb";

/// A fresh database on the test server, `None` without one (said on the terminal).
fn fresh_server(test: &str) -> Option<String> {
    match arbiter_journal::test_server::fresh(test) {
        Ok(Some(url)) => Some(url),
        Ok(None) => {
            arbiter_journal::test_server::not_run(test);
            None
        }
        Err(e) => panic!("the test server: {e}"),
    }
}

/// `arbiter --db DB ARGS` from the repository root, with `stdin`.
fn arbiter(db: &str, args: &[&str], stdin: &str) -> Output {
    arbiter_on("--db", db, args, stdin)
}

/// `arbiter FLAG TARGET ARGS...` (`--db PATH|URL` or `--server URL`) with `stdin` piped in.
fn arbiter_on(flag: &str, target: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg(flag)
        .arg(target)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ARBITER_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run arbiter: {e}"));
    if let Some(mut input) = child.stdin.take() {
        use std::io::Write;
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("arbiter did not finish: {e}"))
}

/// Run, insist on exit `code`, return standard output.
fn run(db: &str, args: &[&str], code: i32) -> String {
    let out = arbiter(db, args, "");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "arbiter {args:?} on {db}:\n{stdout}\n{stderr}");
    stdout.into_owned()
}

/// The same commands on a directory and on the server: the answers must be the same, word
/// for word, but for the database's name.
#[test]
fn every_command_answers_on_postgres_as_on_a_directory() {
    let Some(url) = fresh_server("every_command") else { return };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("arbiter.db");
    let key = dir.path().join("referee.key");
    run(path.to_str().unwrap_or_default(), &["seal", "--new-key", key.to_str().unwrap_or_default()], 0);
    let receipt = |db: &str| dir.path().join(format!("receipt-{}", db.len()));
    let script: Vec<(Vec<String>, i32, &str)> = vec![
        (vec!["import".into(), DISPUTED.into()], 0, ""),
        (vec!["import".into(), WON.into(), "--session".into(), "won".into()], 0, ""),
        (vec!["new".into(), "table".into(), "--game".into(), "proving-grounds".into()], 0, ""),
        (vec!["record".into(), "table".into()], 1, "roll 1 1 3 3 4 5g 6b 6y\nundo\n"),
        (vec!["sessions".into()], 0, ""),
        (vec!["log".into(), "table".into()], 0, ""),
        (vec!["verify".into(), "disputed-wound".into()], 1, ""),
        (vec!["verify".into(), "won".into(), "--json".into()], 0, ""),
        (vec!["replay".into(), "won".into(), "--to".into(), "40".into()], 0, ""),
        (vec!["explain".into(), "disputed-wound".into(), "10".into()], 0, ""),
        (
            vec![
                "fork".into(),
                "disputed-wound".into(),
                "--at".into(),
                "8".into(),
                "--into".into(),
                "what-if".into(),
            ],
            0,
            "",
        ),
        (vec!["diff".into(), "disputed-wound".into(), "what-if".into()], 1, ""),
        (vec!["snapshot".into(), "won".into(), "--every".into(), "20".into()], 0, ""),
        (vec!["replay".into(), "won".into(), "--to".into(), "41".into(), "--json".into()], 0, ""),
        (vec!["export".into(), "won".into(), "--format".into(), "jsonl".into()], 0, ""),
        (vec!["check".into(), "table".into()], 0, ""),
        (vec!["check".into(), "nope".into()], 2, ""),
        (
            vec![
                "seal".into(),
                "won".into(),
                "--key".into(),
                key.display().to_string(),
                "--out".into(),
                "RECEIPT".into(),
            ],
            0,
            "",
        ),
        (vec!["check".into(), "won".into(), "--receipt".into(), "RECEIPT".into()], 0, ""),
        (vec!["sessions".into(), "--json".into()], 0, ""),
        (vec!["verify".into(), "--all".into(), "--no-save".into()], 0, ""),
        (
            vec![
                "simulate".into(),
                "proving-grounds".into(),
                "--seed".into(),
                "3".into(),
                "--games".into(),
                "2".into(),
                "--into".into(),
                "sim".into(),
            ],
            0,
            "",
        ),
        (vec!["verify".into(), "sim-1".into()], 0, ""),
    ];
    let db_path = path.display().to_string();
    for (args, code, stdin) in &script {
        let mut answers = Vec::new();
        for db in [db_path.as_str(), url.as_str()] {
            let args: Vec<String> = args
                .iter()
                .map(|a| if a == "RECEIPT" { receipt(db).display().to_string() } else { a.clone() })
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = arbiter(db, &args, stdin);
            let (stdout, stderr) =
                (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert_eq!(out.status.code(), Some(*code), "arbiter {args:?} on {db}:\n{stdout}\n{stderr}");
            // The receipt's file name and the sealing time are the only other differences.
            let shown = stdout.replace(db, "DB").replace(&receipt(db).display().to_string(), "RECEIPT");
            answers.push(if args[0] == "seal" || args.contains(&"--receipt") {
                // The chain starts from metadata stamped with the second the session was
                // imported, and the two imports may fall in different seconds.
                scrub_times(&scrub_chain_hash(&shown))
            } else if args[..] == ["check", "table"] {
                // `new` stamps the time into the metadata the chain starts from, and the two
                // databases' `table` may be made in different seconds: the hash may differ.
                shown.split(", chain hash ").next().unwrap_or_default().to_string()
            } else if args[0] == "sessions" {
                // The sessions were created a moment apart on the two databases.
                shown.lines().filter(|l| !l.contains("\"created\"")).collect::<Vec<_>>().join("\n")
            } else {
                shown
            });
        }
        assert_eq!(answers[0], answers[1], "arbiter {args:?} answers differently on PostgreSQL");
    }
}

/// `text` with the hex of every `chain hash H` replaced by `H`.
fn scrub_chain_hash(text: &str) -> String {
    let mut parts = text.split("chain hash ");
    let mut out = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let hex = part.chars().take_while(char::is_ascii_hexdigit).count();
        out.push_str("chain hash H");
        out.push_str(&part[hex..]);
    }
    out
}

/// A receipt line names the time it was sealed; the two databases were sealed apart.
fn scrub_times(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()) || w.len() < 9)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sessions of a database with their exports, to compare two databases.
fn exports(db: &str) -> Vec<(String, String)> {
    let listing = run(db, &["sessions"], 0);
    listing
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|name| (name.to_string(), run(db, &["export", name, "--format", "jsonl"], 0)))
        .collect()
}

fn check_all(db: &str, sessions: &[(String, String)]) {
    for (name, _) in sessions {
        let report = run(db, &["check", name], 0);
        assert!(report.contains("intact"), "{report}");
    }
}

#[test]
fn migrate_moves_every_session_to_postgres_and_back_with_its_chain() {
    let Some(url) = fresh_server("migrate") else { return };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let here: PathBuf = dir.path().join("here.db");
    let back: PathBuf = dir.path().join("back.db");
    let (here, back) = (here.display().to_string(), back.display().to_string());
    let key = dir.path().join("referee.key").display().to_string();
    let receipt = dir.path().join("receipt").display().to_string();

    // A directory with the kinds of session there are: imported, recorded with an undo
    // (a retraction), simulated at length, and a fork.
    run(&here, &["import", DISPUTED], 0);
    run(&here, &["import", WON, "--session", "won"], 0);
    run(&here, &["new", "table", "--game", "proving-grounds"], 0);
    let recorded = arbiter(&here, &["record", "table"], "roll 1 1 3 3 4 5g 6b 6y\nundo\n");
    assert!(recorded.status.code().is_some_and(|c| c <= 1), "{recorded:?}");
    run(&here, &["simulate", "proving-grounds", "--seed", "7", "--events", "3000", "--into", "long"], 0);
    run(&here, &["fork", "disputed-wound", "--at", "8", "--into", "what-if"], 0);
    run(&here, &["seal", "--new-key", &key], 0);
    run(&here, &["seal", "disputed-wound", "--key", &key, "--out", &receipt], 0);
    let before = exports(&here);
    assert_eq!(before.len(), 5);

    // To PostgreSQL: every session, each checked there; the receipt holds; same exports.
    let moved = run("unused", &["migrate", "--from", &here, "--to", &url], 0);
    assert_eq!(moved.matches("copied `").count(), 5, "{moved}");
    assert!(moved.contains("migrated 5 sessions"), "{moved}");
    check_all(&url, &before);
    let held = run(&url, &["check", "disputed-wound", "--receipt", &receipt], 0);
    assert!(held.contains("receipt holds"), "{held}");
    assert_eq!(exports(&url), before, "the sessions read back the same from PostgreSQL");
    let hash = |db: &str, s: &str| run(db, &["check", s], 0).split_whitespace().last().map(str::to_string);
    assert_eq!(hash(&url, "long"), hash(&here, "long"), "the same chain, hash for hash");

    // Again: nothing to do. Then the server's copy grows, and a second run continues it.
    let again = run("unused", &["migrate", "--from", &here, "--to", &url], 0);
    assert_eq!(again.matches("is already there").count(), 5, "{again}");
    run(&url, &["import", WON, "--session", "won-2"], 0);

    // And back to a new directory: the same again.
    let returned = run("unused", &["migrate", "--from", &url, "--to", &back], 0);
    assert_eq!(returned.matches("copied `").count(), 6, "{returned}");
    let after = exports(&back);
    check_all(&back, &after);
    assert_eq!(after.iter().filter(|(n, _)| n != "won-2").cloned().collect::<Vec<_>>(), before);
    let held = run(&back, &["check", "disputed-wound", "--receipt", &receipt], 0);
    assert!(held.contains("receipt holds"), "{held}");

    // A session that is there with another history is refused, and named.
    run(&here, &["import", DISPUTED, "--session", "won-2"], 0);
    let refused = arbiter("unused", &["migrate", "--from", &here, "--to", &url], "");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("session `won-2` is already in the destination with other metadata"), "{said}");
    assert!(Path::new(&back).is_dir());
}

/// `verify --all` keeps its verdicts beside a directory; a server has no directory to sit
/// beside, so they go in the current directory, named after the URL (no password in it), and
/// the next audit compares with them. `ARBITER_DB` names a server as `--db` does.
#[test]
fn verify_all_on_a_server_keeps_its_verdicts_in_the_current_directory() {
    let Some(url) = fresh_server("verify_all") else { return };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let disputed = Path::new(env!("CARGO_MANIFEST_DIR")).join(DISPUTED);
    let in_dir = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .arg("--db")
            .arg(&url)
            .current_dir(dir.path())
            .env_remove("ARBITER_DB")
            .output()
            .unwrap_or_else(|e| panic!("cannot run arbiter: {e}"));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(
            out.status.code(),
            Some(0),
            "arbiter {args:?}:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    in_dir(&["import", disputed.to_str().unwrap_or_default()]);
    let first = in_dir(&["verify", "--all"]);
    assert!(first.contains("1 new"), "{first}");
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].starts_with("postgres") && files[0].ends_with(".verdicts.json"), "{files:?}");
    assert!(files[0].chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)), "{files:?}");
    let second = in_dir(&["verify", "--all"]);
    assert!(second.contains("0 changed, 0 new"), "{second}");

    // ARBITER_DB names the server as --db does.
    let listed = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("sessions")
        .current_dir(dir.path())
        .env("ARBITER_DB", &url)
        .output()
        .unwrap_or_else(|e| panic!("cannot run arbiter: {e}"));
    let stdout = String::from_utf8_lossy(&listed.stdout);
    assert_eq!(listed.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&listed.stderr));
    assert!(stdout.starts_with("disputed-wound"), "{stdout}");
}

/// `arbiter serve --db postgres://...` owns a PostgreSQL journal as it owns a directory: the
/// commands a client runs through it answer exactly as they do on the database directly, and
/// what a client records through it is in the database afterwards.
#[test]
fn serve_on_postgres_answers_as_the_database_does() {
    use std::io::{BufRead, BufReader};
    let Some(url) = fresh_server("serve_on_postgres") else { return };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    run(&url, &["import", DISPUTED], 0);
    // The server, on an ephemeral loopback port, in a directory of its own (files it keeps
    // beside a URL go in the current directory).
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--db", &url, "--listen", "127.0.0.1:0"])
        .current_dir(dir.path())
        .env_remove("ARBITER_DB")
        .env_remove("ARBITER_SERVER")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run arbiter serve: {e}"));
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut first = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = BufReader::new(out).read_line(&mut first);
    }
    let _server = Killed(child);
    let server = first
        .find("http://")
        .and_then(|at| first[at + "http://".len()..].split('/').next().map(|host| format!("http://{host}")))
        .unwrap_or_else(|| panic!("serve said {first:?}"));
    let through = |args: &[&str], stdin: &str| arbiter_on("--server", &server, args, stdin);
    for (args, code) in [
        (&["verify", "disputed-wound"][..], 1),
        (&["explain", "disputed-wound", "10"][..], 0),
        (&["replay", "disputed-wound", "--to", "12"][..], 0),
        (&["log", "disputed-wound"][..], 0),
        (&["export", "disputed-wound"][..], 0),
        (&["check", "disputed-wound"][..], 0),
    ] {
        let direct = arbiter(&url, args, "");
        let served = through(args, "");
        assert_eq!(served.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&served.stderr));
        assert_eq!(direct.status.code(), served.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&direct.stdout),
            String::from_utf8_lossy(&served.stdout),
            "{args:?}: through the server and on the database"
        );
    }
    // Written through the server, read from the database.
    let made = through(&["new", "table", "--game", "proving-grounds"], "");
    assert_eq!(made.status.code(), Some(0), "{}", String::from_utf8_lossy(&made.stderr));
    let recorded = through(&["record", "table"], "draw 1 pit-brawler\n");
    assert_eq!(recorded.status.code(), Some(0), "{}", String::from_utf8_lossy(&recorded.stderr));
    let log = run(&url, &["log", "table"], 0);
    assert!(log.contains("draw 1 pit-brawler"), "{log}");
    run(&url, &["check", "table"], 0);
}
