//! Robustness of arguments and output paths: an argument that is not UTF-8, a number past
//! memory, or a standard error that cannot be written gets exit 2, never a panic or an
//! abort; an output file is never renamed over a link (written through), and never written
//! inside a database directory; a key or receipt a full disk cuts short is not left behind.

mod common;

use common::Sandbox;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::process::{Command, Stdio};

fn arbiter(s: &Sandbox) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("--db")
        .arg(s.db())
        .env_remove("ARBITER_DB")
        .env("ARBITER_CACHE_DIR", "off")
        .stdin(Stdio::null());
    c
}

#[test]
fn an_argument_that_is_not_utf8_is_refused_with_exit_2_not_a_panic() {
    let s = Sandbox::new();
    for args in [
        vec![&b"games"[..], b"\xff"],
        vec![b"verify", b"\xff\xfe.arb"],
        vec![b"new", b"a", b"--title", b"\xff"],
    ] {
        let out = arbiter(&s).args(args.iter().map(|a| OsStr::from_bytes(a))).output().expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("internal error") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_log_file_whose_name_is_not_utf8_is_read_like_any_other() {
    // Session names are text, but a file's name is whatever the file system holds: such a
    // file is verified, replayed, explained and compared, and shown with the bytes replaced.
    let s = Sandbox::new();
    let name = s.path("").join(OsStr::from_bytes(b"won-\xff.arb"));
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/proving-grounds/game-won.arb"), &name)
        .expect("copy");
    let file = name.as_os_str();
    for args in [
        vec![OsStr::new("verify"), file],
        vec![OsStr::new("replay"), file, OsStr::new("--to"), OsStr::new("3")],
        vec![OsStr::new("explain"), file, OsStr::new("2")],
        vec![OsStr::new("diff"), file, file],
        vec![OsStr::new("log"), file],
    ] {
        let out = arbiter(&s).args(&args).output().expect("run");
        let (stdout, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
        assert!(args[0] == "log" || stdout.contains("won-\u{fffd}.arb"), "{args:?}: {stdout}");
    }
    // One that does not exist is refused in one sentence.
    let missing = s.path("").join(OsStr::from_bytes(b"lost-\xff.arb"));
    let out = arbiter(&s).arg("verify").arg(&missing).output().expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no such file") && err.trim().lines().count() == 1, "{err}");
}

#[test]
fn a_number_of_games_past_memory_is_refused() {
    let s = Sandbox::new();
    let out = s.path("x.arb");
    s.run(&[
        "simulate",
        "proving-grounds",
        "--seed",
        "1",
        "--games",
        "18446744073709551615",
        "--out",
        &out.to_string_lossy(),
    ])
    .expect_refused("--games must be at most");
}

#[test]
fn a_standard_error_that_cannot_be_written_gives_exit_2_not_an_abort() {
    let s = Sandbox::new();
    for json in [false, true] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("open /dev/full");
        let mut c = arbiter(&s);
        c.args(["verify", "no-such-session"]).stderr(full).stdout(Stdio::null());
        if json {
            c.arg("--json");
        }
        assert_eq!(c.status().expect("run").code(), Some(2), "json {json}");
    }
}

#[test]
fn a_simulated_log_is_written_through_a_link_never_over_it() {
    let s = Sandbox::new();
    let target = s.path("target.arb");
    let link = s.path("link.arb");
    std::fs::write(&target, "old\n").expect("target");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    s.run(&["simulate", "proving-grounds", "--seed", "1", "--out", &link.to_string_lossy(), "--force"])
        .expect(0);
    assert!(
        std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink(),
        "the link was replaced"
    );
    assert!(std::fs::read_to_string(&target).expect("target").starts_with("@game proving-grounds"));
}

#[test]
fn no_output_file_is_written_inside_a_database_directory() {
    let s = Sandbox::new();
    s.run(&["new", "s", "--game", "proving-grounds"]).expect(0);
    let db = s.db();
    let inside = |name: &str| db.join(name).to_string_lossy().into_owned();
    s.run(&["simulate", "proving-grounds", "--seed", "1", "--out", &inside("arbiter-wal"), "--force"])
        .expect_refused("inside the database directory");
    s.run(&["simulate", "proving-grounds", "--seed", "1", "--out", &inside("new.arb")])
        .expect_refused("inside the database directory");
    s.run(&["fixtures", "fixtures/proving-grounds", "--junit", &inside("db")])
        .expect_refused("inside the database directory");
    s.run(&["verify", "--all", "--junit", &inside("arbiter-heads")])
        .expect_refused("inside the database directory");
    // A link outside pointing at a database file is refused too.
    let link = s.path("report.xml");
    std::os::unix::fs::symlink(db.join("db"), &link).expect("link");
    s.run(&["verify", "--all", "--junit", &link.to_string_lossy()])
        .expect_refused("inside the database directory");
    s.run(&["sessions"]).expect(0);
    s.run(&["check", "s"]).expect(0);
}

#[test]
fn a_session_named_like_a_log_file_is_refused_at_creation() {
    let s = Sandbox::new();
    let log = "fixtures/proving-grounds/game-won.arb";
    s.run(&["import", log, "--session", "a.jsonl"]).expect_refused("names a log file");
    s.run(&["new", "b.arb", "--game", "proving-grounds"]).expect_refused("names a log file");
    s.run(&["simulate", "proving-grounds", "--seed", "1", "--into", "c.arb"])
        .expect_refused("names a log file");
    s.run(&["import", log, "--session", "a"]).expect(0);
    s.run(&["fork", "a", "--at", "3", "--into", "d.jsonl"]).expect_refused("names a log file");
}

#[test]
fn accepting_the_loss_of_a_session_that_is_not_there_is_refused() {
    let s = Sandbox::new();
    s.run(&["new", "s", "--game", "proving-grounds"]).expect(0);
    s.run(&["check", "nosuch", "--accept-loss"]).expect(2);
    s.run(&["check", "s", "--accept-loss"]).expect(0);
}

#[test]
fn a_key_the_full_disk_cuts_short_is_not_left_behind() {
    let s = Sandbox::new();
    let mnt = s.db().with_extension("mnt");
    std::fs::create_dir_all(&mnt).expect("a mount point");
    let mounted = Command::new("mount").args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"]).arg(&mnt).output();
    if !mounted.is_ok_and(|o| o.status.success()) {
        println!("full-disk seal test skipped: cannot mount a tmpfs here (it needs root)");
        return;
    }
    // Fill the disk to the last byte: the key's file is made, but its bytes do not fit.
    let filler = mnt.join("filler");
    let mut f = std::fs::File::create(&filler).expect("filler");
    let _ = std::io::Write::write_all(&mut f, &vec![0u8; 1 << 20]);
    let _ = f.sync_all();
    drop(f);
    let key = mnt.join("referee.key");
    let out = arbiter(&s).args(["seal", "--new-key"]).arg(&key).output().expect("arbiter runs");
    let left = key.exists();
    let _ = Command::new("umount").arg(&mnt).output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write") && err.lines().count() == 1, "{err}");
    assert!(!left, "an empty or partial key file was left behind");
}

#[test]
fn a_server_address_that_is_not_utf8_is_refused_not_ignored() {
    let s = Sandbox::new();
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ARBITER_DB")
        .env("ARBITER_SERVER", OsStr::from_bytes(b"http://127.0.0.1:\xff"))
        .args(["sessions", "--json"])
        .current_dir(s.db().parent().expect("the sandbox"))
        .output()
        .expect("arbiter runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("$ARBITER_SERVER is not valid UTF-8"), "{err}");
}
