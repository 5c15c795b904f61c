//! `arbiter serve` and `arbiter --server URL ...` end to end, through the binary: a command
//! run against a server prints what it prints locally and exits with the same status; two
//! clients read while a third records; a server killed with SIGKILL has lost no acknowledged
//! append.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const DISPUTED: &str = "examples/disputed-wound.arb";

fn arbiter() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ARBITER_SERVER")
        .env_remove("ARBITER_TOKEN")
        .env_remove("ARBITER_DB");
    c
}

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = arbiter()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("stdin written");
    child.wait_with_output().expect("arbiter ends")
}

/// A running `arbiter serve` on an ephemeral loopback port; killed when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(db: &Path, extra: &[&str]) -> Served {
        let mut child = arbiter()
            .args(["serve", "--db"])
            .arg(db)
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("arbiter serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("the address");
        let url = first
            .find("http://")
            .map(|at| &first[at..])
            .and_then(|rest| rest["http://".len()..].split('/').next().map(|host| format!("http://{host}")))
            .unwrap_or_default();
        assert!(url.starts_with("http://127.0.0.1:"), "serve said {first:?}");
        Served { child, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A database holding the disputed session as `friday`.
fn database(dir: &Path, name: &str) -> PathBuf {
    let db = dir.join(name);
    let out = run(&["--db", db.to_str().expect("utf-8"), "import", DISPUTED, "--session", "friday"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    db
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a directory");
    for entry in std::fs::read_dir(from).expect("a database").flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

/// `text` with the values of its `"created"` and `"head"` fields blanked: when a session was
/// made, and the chain hash that binds it.
fn unclocked(text: &str) -> String {
    text.lines()
        .map(|line| {
            for field in ["\"created\": ", "\"head\": "] {
                if let Some((before, _)) = line.split_once(field) {
                    return format!("{before}{field}_");
                }
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn commands_through_a_server_print_and_exit_as_locally() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    // One database copied, so both hold the same bytes (a session's chain binds its creation
    // time, so two imports a second apart would differ in every hash).
    let local = database(dir.path(), "local.db");
    let served = dir.path().join("served.db");
    copy_dir(&local, &served);
    let server = Served::start(&served, &[]);
    let local_db = local.to_str().expect("utf-8");
    let cases: &[(&[&str], &str)] = &[
        (&["verify", "friday"], ""),
        (&["verify", "friday", "--json"], ""),
        (&["verify", "friday", "--variant", "exhaust-from=wounding-enemy", "--max-findings", "1"], ""),
        (&["replay", "friday", "--to", "10"], ""),
        (&["replay", "friday", "--to", "10", "--json"], ""),
        (&["explain", "friday", "10"], ""),
        (&["explain", "friday", "10", "--json"], ""),
        (&["log", "friday"], ""),
        (&["log", "friday", "--json"], ""),
        (&["check", "friday"], ""),
        (&["check", "friday", "--json"], ""),
        (&["diff", "friday", "friday@exhaust-from=wounding-enemy"], ""),
        (&["diff", "friday", "friday@exhaust-from=wounding-enemy", "--json"], ""),
        (&["export", "friday"], ""),
        (&["export", "friday", "--format", "jsonl"], ""),
        (&["fork", "friday", "--at", "10", "--into", "friday-ruled-hold"], ""),
        (&["record", "friday-ruled-hold"], "hold 4\nup 6\ndefeat 1\ndefeat 6\nwound 2 exhaust y\nrecover\n"),
        (&["record", "friday-ruled-hold"], "undo\nboard\nrecover\nup 9\nstop\n"),
        (&["verify", "friday-ruled-hold"], ""),
        (&["diff", "friday", "friday-ruled-hold"], ""),
        (&["sessions"], ""),
        (&["new", "table", "--game", "keridwyn-fight", "--title", "table two"], ""),
        (&["new", "table", "--game", "keridwyn-fight"], ""),
        (&["import", "fixtures/keridwyn-fight/wyvern-sample-round.arb", "--session", "wyvern"], ""),
        (&["verify", "wyvern", "--json"], ""),
        (&["snapshot", "wyvern", "--every", "8"], ""),
        (&["verify", "nobody"], ""),
        (&["verify", "nobody", "--json"], ""),
        (&["replay", "friday", "--to", "99"], ""),
        (&["explain", "friday", "10", "--variant", "exhaust-from=nonsense", "--json"], ""),
        (&["fork", "friday", "--at", "99", "--into", "x"], ""),
        (&["record", "nobody"], "stop\n"),
        // Files stay local, with or without a server.
        (&["verify", DISPUTED], ""),
        (&["sessions", "--json"], ""),
        // Colour is added here, to the same text, as on a local run.
        (&["--color", "always", "verify", "friday"], ""),
        (&["--color", "always", "replay", "friday", "--to", "10"], ""),
        (&["--color", "always", "explain", "friday", "10"], ""),
        (&["--color", "always", "diff", "friday", "friday-ruled-hold"], ""),
        (&["verify", "friday", "--junit", "x.xml"], ""),
        // The audit of every session: new, then compared with its own saved verdicts, then
        // against them again without saving; the verdicts live beside each database.
        (&["verify", "--all"], ""),
        (&["verify", "--all", "--json", "--no-save"], ""),
        (&["record", "friday-ruled-hold"], "undo\n"),
        (&["verify", "--all", "--no-save"], ""),
        (&["verify", "--all", "--strict", "--json"], ""),
        (&["verify", "--all", "--variant", "exhaust-from=wounding-enemy"], ""),
        (&["--color", "always", "verify", "--all", "--no-save"], ""),
    ];
    for (args, stdin) in cases {
        let mut here = vec!["--db", local_db];
        here.extend_from_slice(args);
        let mut there = vec!["--server", server.url.as_str()];
        there.extend_from_slice(args);
        let (a, b) = (run(&here, stdin), run(&there, stdin));
        let what = args.join(" ");
        // Only the database's own name differs (`sessions --json` names it), and the second
        // a session made during the test was created in, with the chain hash binding it.
        let local_out = text(&a.stdout).replace(local_db, served.to_str().expect("utf-8"));
        assert_eq!(unclocked(&text(&b.stdout)), unclocked(&local_out), "stdout of `{what}`");
        assert_eq!(text(&b.stderr), text(&a.stderr), "stderr of `{what}`");
        assert_eq!(b.status.code(), a.status.code(), "exit status of `{what}`");
    }
}

/// `--server` after the command and `ARBITER_SERVER` reach the server as `--server` before it
/// does; a `--db` given beside either is refused, not guessed between.
#[test]
fn the_server_can_be_named_three_ways() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = database(dir.path(), "arbiter.db");
    let server = Served::start(&db, &[]);
    let url = server.url.as_str();
    let before = run(&["--server", url, "verify", "friday"], "");
    assert_eq!(before.status.code(), Some(1), "{}", text(&before.stderr));
    let after = run(&["verify", "friday", "--server", url], "");
    assert_eq!((text(&after.stdout), after.status.code()), (text(&before.stdout), Some(1)));
    let from_env =
        arbiter().args(["verify", "friday"]).env("ARBITER_SERVER", url).output().expect("arbiter runs");
    assert_eq!((text(&from_env.stdout), from_env.status.code()), (text(&before.stdout), Some(1)));
    // A database named on the command line wins over $ARBITER_SERVER.
    let other = dir.path().join("other.db");
    let here = arbiter()
        .args(["sessions", "--db", other.to_str().expect("utf-8")])
        .env("ARBITER_SERVER", url)
        .output()
        .expect("arbiter runs");
    assert_eq!(here.status.code(), Some(2), "a missing database here: {}", text(&here.stdout));
    assert!(text(&here.stderr).contains("other.db"), "{}", text(&here.stderr));
    let both = run(&["verify", "friday", "--server", url, "--db", db.to_str().expect("utf-8")], "");
    assert_eq!(both.status.code(), Some(2));
    assert_eq!(text(&both.stdout), "");
}

/// `verify --all --junit FILE` through a server writes the same report here; saving the
/// verdicts is a write, so it takes the token; `--no-save` only reads.
#[test]
fn an_audit_through_a_server_writes_its_junit_here_and_saves_with_the_token() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let local = database(dir.path(), "local.db");
    let served = dir.path().join("served.db");
    copy_dir(&local, &served);
    let token = "a-token-for-the-tests-0123";
    let server = Served::start(&served, &["--token", token]);
    let (here_xml, there_xml) = (dir.path().join("here.xml"), dir.path().join("there.xml"));
    let here = run(
        &[
            "--db",
            local.to_str().expect("utf-8"),
            "verify",
            "--all",
            "--junit",
            here_xml.to_str().expect("utf-8"),
        ],
        "",
    );
    let refused = run(&["--server", &server.url, "verify", "--all"], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("token"), "{}", text(&refused.stderr));
    assert!(!dir.path().join("served.db.verdicts.json").exists(), "nothing saved without the token");
    let read_only = run(&["--server", &server.url, "verify", "--all", "--no-save"], "");
    assert_eq!(read_only.status.code(), here.status.code(), "{}", text(&read_only.stderr));
    let there = arbiter()
        .args(["--server", &server.url, "verify", "--all", "--junit", there_xml.to_str().expect("utf-8")])
        .env("ARBITER_TOKEN", token)
        .output()
        .expect("arbiter runs");
    assert_eq!((text(&there.stdout), there.status.code()), (text(&here.stdout), here.status.code()));
    let read = |p: &Path| std::fs::read_to_string(p).expect("a JUnit report");
    assert_eq!(read(&there_xml), read(&here_xml));
    assert!(read(&here_xml).contains("<testsuite"), "{}", read(&here_xml));
    assert_eq!(
        std::fs::read(dir.path().join("served.db.verdicts.json")).expect("the server saved its verdicts"),
        std::fs::read(dir.path().join("local.db.verdicts.json")).expect("the verdicts saved here"),
    );
}

#[test]
fn two_clients_read_while_a_third_records() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = database(dir.path(), "arbiter.db");
    let server = Served::start(&db, &[]);
    let url = server.url.as_str();
    assert!(run(&["--server", url, "fork", "friday", "--at", "10", "--into", "live"], "").status.success());
    let mut recorder = arbiter()
        .args(["--server", url, "record", "live"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the recorder starts");
    let mut stdin = recorder.stdin.take().expect("stdin");
    let lines = ["hold 4", "up 6", "defeat 1", "defeat 6", "wound 2 exhaust y", "recover"];
    for (i, line) in lines.iter().enumerate() {
        writeln!(stdin, "{line}").expect("a line");
        stdin.flush().expect("sent");
        // The recorder is open; two readers read at the same time, and both succeed.
        let readers: Vec<_> = [vec!["log", "live", "--json"], vec!["verify", "live"]]
            .into_iter()
            .map(|args| {
                let url = url.to_string();
                std::thread::spawn(move || {
                    let mut all = vec!["--server", url.as_str()];
                    all.extend(args.iter().copied());
                    run(&all, "")
                })
            })
            .collect();
        for reader in readers {
            let out = reader.join().expect("a reader");
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "a reader failed at line {i}: {}",
                text(&out.stderr)
            );
        }
    }
    drop(stdin);
    let out = recorder.wait_with_output().expect("the recorder ends");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("recorded #15: recover"), "{}", text(&out.stdout));
    let verify = run(&["--server", url, "verify", "live"], "");
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify.stdout));
    assert!(text(&verify.stdout).contains("clean: no violation in 16 records"));
}

#[test]
fn writes_through_a_server_with_a_token_need_it() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = database(dir.path(), "arbiter.db");
    let token = "a-token-for-the-tests-0123";
    let server = Served::start(&db, &["--token", token]);
    let refused = run(&["--server", &server.url, "fork", "friday", "--at", "3", "--into", "x"], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("token"), "{}", text(&refused.stderr));
    let read = run(&["--server", &server.url, "log", "friday"], "");
    assert_eq!(read.status.code(), Some(0));
    let allowed = arbiter()
        .args(["--server", &server.url, "fork", "friday", "--at", "3", "--into", "x"])
        .env("ARBITER_TOKEN", token)
        .output()
        .expect("arbiter runs");
    assert!(allowed.status.success(), "{}", text(&allowed.stderr));
}

/// Appends acknowledged over HTTP survive the server being killed outright.
#[test]
fn a_killed_server_has_lost_no_acknowledged_append() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = database(dir.path(), "arbiter.db");
    let mut server = Served::start(&db, &[]);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let mut acknowledged = 16;
    for _ in 0..40 {
        let body = serde_json::json!({ "expected": acknowledged, "line": "stop" }).to_string();
        let mut response = agent
            .post(format!("{}/api/sessions/friday/records", server.url))
            .header("content-type", "application/json")
            .send(body)
            .expect("the server answers");
        assert_eq!(response.status().as_u16(), 200, "{:?}", response.body_mut().read_to_string());
        acknowledged += 1;
    }
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("the server is gone");
    let check = run(&["--db", db.to_str().expect("utf-8"), "check", "friday", "--json"], "");
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    let view: serde_json::Value = serde_json::from_slice(&check.stdout).expect("JSON");
    assert_eq!(view["records"], acknowledged);
}

/// A stand-in server whose answer to a record is lost: it reads the request and closes the
/// connection without a word. It holds `live` of `records` records, one more after the lost
/// write when `stores` says the write was carried out before the answer was lost. With
/// `gone`, it stops listening after its first answer (the recorder's opening look).
fn losing_server(records: u64, stores: bool, gone: bool) -> String {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let url = format!("http://{}", listener.local_addr().expect("its address"));
    std::thread::spawn(move || {
        let mut held = records;
        let mut listener = Some(listener);
        while let Some(Ok((mut stream, _))) = listener.as_ref().map(|l| l.accept()) {
            if gone {
                // Gone before answering: a connection after this one is refused.
                listener = None;
            }
            let mut reader = BufReader::new(stream.try_clone().expect("the stream"));
            let (mut head, mut length) = (String::new(), 0usize);
            while reader.read_line(&mut head).is_ok_and(|n| n > 0) && !head.ends_with("\r\n\r\n") {
                let last = head.lines().last().unwrap_or("").to_ascii_lowercase();
                if let Some(v) = last.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            if head.starts_with("POST") {
                held += u64::from(stores);
                continue; // the answer is lost: the connection closes unanswered
            }
            let json = format!("{{\"name\":\"live\",\"game\":\"proving-grounds\",\"records\":{held}}}");
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{json}",
                json.len()
            );
        }
    });
    url
}

#[test]
fn a_record_whose_answer_is_lost_is_never_called_not_stored_unless_the_server_shows_it() {
    // The session is as long as before: the line was not stored, and that is said.
    let url = losing_server(10, false, false);
    let out = run(&["--server", &url, "record", "live"], "hold 4\nup 6\n");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("was sent `hold 4` but its answer was lost"), "{err}");
    assert!(err.contains("it still holds 10 records in `live`, so the line was not stored"), "{err}");
    assert!(err.contains("line 1: the error above; the 1 line(s) after it were not read"), "{err}");
    assert!(!err.contains("not stored: line 1"), "{err}");
    // The session grew: the line may be stored, nothing claims it was not, nothing more is sent.
    let url = losing_server(10, true, false);
    let out = run(&["--server", &url, "record", "live"], "hold 4\nup 6\n");
    let err = text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("`live` now holds 11 records (this recorder expected 10 before it)"), "{err}");
    assert!(err.contains("`arbiter log live` shows whether the last is this line"), "{err}");
    assert!(!err.contains("was not stored"), "{err}");
}

#[test]
fn a_record_to_a_server_gone_before_the_line_was_not_sent() {
    // The server answers the recorder's opening look, then is gone: the line's connection is
    // refused, so it certainly was not stored.
    let url = losing_server(10, false, true);
    let out = run(&["--server", &url, "record", "live"], "hold 4\n");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot reach the server") && err.contains("the line was not sent, so not stored"),
        "{err}"
    );
    assert!(!err.contains("answer was lost"), "{err}");
}
