//! The machine interfaces CI and scripts rely on, run as they run them: JUnit written safely
//! and counted right, JSONL as strict as notation, the interpretations of a log kept with
//! its session, JSON error objects, and write errors reported as what they are.

mod common;

use common::Sandbox;
use std::io::Read;
use std::process::{Command, Stdio};

const WON: &str = "fixtures/proving-grounds/game-won.arb";
const BREAKS: &str = "fixtures/proving-grounds/break-resolve-separate-dice.arb";
const VARIANT: &str = "fixtures/proving-grounds/interp-exhaust-from-wounding-enemy.arb";

/// A small suite: one passing fixture, one failing, one that cannot be read.
fn suite(s: &Sandbox) -> String {
    let dir = s.path("suite");
    std::fs::create_dir_all(dir.join("sub")).expect("dir");
    std::fs::copy(BREAKS, dir.join("sub/breaks.arb")).expect("copy");
    std::fs::write(dir.join("fails.arb"), "@game proving-grounds\n@catalog illustrative\nroll 1 1 1 1 1 1 1 1\nroll 1 1 1 1 1 1 1 1\n@expect clean\n").expect("write");
    std::fs::write(dir.join("unusable.arb"), "@game chess\ne4\n").expect("write");
    dir.to_string_lossy().into_owned()
}

#[test]
fn junit_is_written_through_links_devices_and_fifos_and_atomically_over_files() {
    let s = Sandbox::new();
    let dir = suite(&s);
    // A symbolic link stays a link; the file it points to gets the report.
    let target = s.path("target.xml");
    std::fs::write(&target, "old").expect("write");
    let link = s.path("link.xml");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    s.run(&["fixtures", &dir, "--junit", &link.to_string_lossy()]).expect(1);
    assert!(
        std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink(),
        "the link was replaced"
    );
    assert!(std::fs::read_to_string(&target).expect("target").contains("<testsuites"));
    // /dev/stdout (a link to the process's own output) gets the report and stays a link.
    let out = s.run(&["fixtures", &dir, "--junit", "/dev/stdout"]).expect(1).out();
    assert!(out.contains("<testsuites") && out.ends_with("2 failed\n"), "{out}");
    assert!(std::fs::symlink_metadata("/dev/stdout").expect("/dev/stdout").file_type().is_symlink());
    // /dev/null stays the device.
    s.run(&["fixtures", &dir, "--junit", "/dev/null"]).expect(1);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null").expect("/dev/null").file_type().is_char_device());
    // A FIFO a CI collector reads from gets the report through it, and stays a FIFO.
    let fifo = s.path("report.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(&reader_path).expect("open fifo").read_to_string(&mut text).expect("read fifo");
        text
    });
    s.run(&["fixtures", &dir, "--junit", &fifo.to_string_lossy()]).expect(1);
    assert!(reader.join().expect("reader").contains("<testsuites"));
    assert!(std::fs::symlink_metadata(&fifo).expect("fifo").file_type().is_fifo());
    // Over a regular file: replaced whole, no temporary file left beside it.
    let report = s.path("report.xml");
    std::fs::write(&report, "old").expect("write");
    s.run(&["fixtures", &dir, "--junit", &report.to_string_lossy()]).expect(1);
    assert!(std::fs::read_to_string(&report).expect("report").starts_with("<?xml"));
    let leftovers: Vec<_> = std::fs::read_dir(s.path("."))
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn junit_names_are_relative_errors_are_counted_and_times_are_not_negative() {
    let s = Sandbox::new();
    let dir = suite(&s);
    let mut reports = Vec::new();
    for (i, typed) in [dir.clone(), format!("{dir}/"), format!("{dir}/sub/../")].iter().enumerate() {
        let path = s.path(&format!("r{i}.xml"));
        s.run(&["fixtures", typed, "--junit", &path.to_string_lossy()]).expect(1);
        reports.push(std::fs::read_to_string(&path).expect("report"));
    }
    let names = |xml: &str| -> Vec<String> {
        let mut names: Vec<String> = xml
            .split("<testcase name=\"")
            .skip(1)
            .map(|t| t.split('"').next().unwrap_or("").to_string())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&reports[0]), vec!["fails.arb", "sub/breaks.arb", "unusable.arb"], "{}", reports[0]);
    assert!(
        reports.iter().all(|r| names(r) == names(&reports[0])),
        "names depend on how the directory was typed"
    );
    let xml = &reports[0];
    assert!(xml.contains("tests=\"3\" failures=\"1\" errors=\"1\""), "{xml}");
    assert!(xml.contains("<error message=\"unusable:"), "{xml}");
    assert!(!xml.contains("time=\"-"), "{xml}");
}

#[test]
fn an_empty_or_missing_suite_fails() {
    let s = Sandbox::new();
    let empty = s.path("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    let report = s.path("empty.xml");
    let out =
        s.run(&["fixtures", &empty.to_string_lossy(), "--junit", &report.to_string_lossy()]).expect(1).out();
    assert!(out.ends_with("0 passed, 1 failed\n") && out.contains("runs nothing"), "{out}");
    assert!(std::fs::read_to_string(&report).expect("report").contains("failures=\"1\""));
    s.run(&["fixtures", &s.path("missing").to_string_lossy()]).expect_refused("missing");
}

#[test]
fn a_coverage_gap_is_a_failing_case_in_the_closing_line_and_in_junit() {
    let s = Sandbox::new();
    let dir = s.path("one");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::copy(BREAKS, dir.join("breaks.arb")).expect("copy");
    let report = s.path("cov.xml");
    let args =
        ["fixtures", &dir.to_string_lossy(), "--require-full-coverage", "--junit", &report.to_string_lossy()];
    let out = s.run(&args).expect(1).out();
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");
    assert!(out.contains("FAIL coverage/proving-grounds"), "{out}");
    let xml = std::fs::read_to_string(&report).expect("report");
    assert!(xml.contains("failures=\"1\"") && xml.contains("name=\"coverage/proving-grounds\""), "{xml}");
    // Full coverage: the case is there and passes.
    let out = s.run(&["fixtures", "fixtures", "--require-full-coverage"]).expect(0).out();
    assert!(out.contains("ok   coverage/proving-grounds") && out.contains(" 0 failed\n"), "{out}");
}

#[test]
fn jsonl_refuses_unknown_keys_and_what_notation_refuses() {
    let s = Sandbox::new();
    let jsonl = s.run(&["export", "examples/disputed-wound.arb", "--format", "jsonl"]).expect(0).out();
    let write = |name: &str, text: &str| {
        let path = s.path(name);
        std::fs::write(&path, text).expect("write");
        path.to_string_lossy().into_owned()
    };
    let misspelt = write("misspelt.jsonl", &jsonl.replacen("\"time\":0", "\"Time\":0", 1));
    let line = jsonl.lines().position(|l| l.contains("\"time\":0")).expect("a time") + 1;
    s.run(&["verify", &misspelt]).expect_refused(&format!("misspelt.jsonl:{line}:1:"));
    let err = s.run(&["verify", &misspelt]).err();
    assert!(err.contains("unknown key `Time`"), "{err}");
    let header = write("header.jsonl", &jsonl.replacen("\"title\"", "\"titel\"", 1));
    s.run(&["import", &header]).expect_refused("header.jsonl:1:1: expected a header key");
    let die = write("die.jsonl", &jsonl.replacen("\"value\":2", "\"value\":0", 1));
    s.run(&["import", &die, "--session", "d"]).expect_refused("is not a valid proving-grounds event");
    assert!(!s.db().exists() || !s.run(&["sessions"]).out().contains("d "), "nothing was stored");
}

#[test]
fn the_interpretations_a_log_was_recorded_under_stay_with_its_session() {
    let s = Sandbox::new();
    s.run(&["verify", VARIANT]).expect(1);
    let err = s.run(&["import", VARIANT, "--session", "v"]).expect(0).err();
    assert!(err.contains("expectation line(s)") && err.contains("not stored"), "{err}");
    s.run(&["verify", "v"]).expect(1);
    let exported = s.run(&["export", "v"]).expect(0).out();
    assert!(exported.contains("@variant exhaust-from=wounding-enemy"), "{exported}");
    let again = s.path("again.arb");
    std::fs::write(&again, &exported).expect("write");
    s.run(&["verify", &again.to_string_lossy()]).expect(1);
    let jsonl = s.run(&["export", "v", "--format", "jsonl"]).expect(0).out();
    assert!(jsonl.contains("{\"directive\":\"@variant exhaust-from=wounding-enemy\"}"), "{jsonl}");
    let again = s.path("again.jsonl");
    std::fs::write(&again, &jsonl).expect("write");
    s.run(&["import", &again.to_string_lossy(), "--session", "w"]).expect(0);
    s.run(&["verify", "w"]).expect(1);
    // Every command on the session reads it: the diff against the default reading splits.
    s.run(&["diff", "v", "v@exhaust-from=any"]).expect(1);
}

#[test]
fn json_errors_are_json_objects_on_stdout() {
    let s = Sandbox::new();
    for args in [
        vec!["verify", "nosuch.arb", "--json"],
        vec!["replay", "nosuch", "--json"],
        vec!["diff", WON, "nosuch.arb", "--json"],
        vec!["log", WON, "--json", "--bogus"],
    ] {
        let run = s.run(&args).expect(2);
        let v: serde_json::Value = serde_json::from_str(&run.out()).expect("a JSON error object");
        assert_eq!(v["exit_code"], 2, "{v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
        assert!(!run.err().is_empty(), "the sentence goes to stderr too");
    }
}

#[test]
fn a_write_error_is_reported_and_only_a_closed_pipe_is_quiet() {
    let s = Sandbox::new();
    for args in [vec!["export", WON], vec!["verify", WON, "--json"], vec!["log", WON]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let run = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
    // A reader that stops reading: exit 141, nothing on stderr.
    let long = s.derive("long.arb", WON, |lines| {
        let body: Vec<String> = lines.iter().filter(|l| !l.starts_with('@')).cloned().collect();
        for _ in 0..400 {
            lines.extend(body.iter().cloned());
        }
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["verify", &long])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child.stdout.as_mut().expect("stdout").read_exact(&mut first).expect("read");
    drop(child.stdout.take());
    let done = child.wait_with_output().expect("wait");
    assert_eq!(done.status.code(), Some(141));
    assert!(done.stderr.is_empty(), "{}", String::from_utf8_lossy(&done.stderr));
}

#[test]
fn replay_total_and_diff_compared_do_not_depend_on_how_far_or_the_cache() {
    let s = Sandbox::new();
    let json =
        |args: &[&str]| -> serde_json::Value { serde_json::from_str(&s.run(args).out()).expect("JSON") };
    let stop = json(&["verify", "fixtures/keridwyn-fight/break-sequence-unapplicable.arb", "--json"]);
    let records = stop["records"].as_u64().expect("records");
    let log_len = json(&["log", "fixtures/keridwyn-fight/break-sequence-unapplicable.arb", "--json"])
        ["entries"]
        .as_array()
        .map(Vec::len)
        .expect("entries") as u64;
    let replayed = json(&["replay", "fixtures/keridwyn-fight/break-sequence-unapplicable.arb", "--json"]);
    assert!(replayed["replayed"].as_u64() <= Some(records));
    assert_eq!(
        replayed["total"].as_u64(),
        Some(log_len),
        "total is the log's length even when replay stops early"
    );
    let won_len = json(&["log", WON, "--json"])["entries"].as_array().map(Vec::len).expect("entries") as u64;
    let to_end = json(&["replay", WON, "--to", &won_len.to_string(), "--json"]);
    assert_eq!(to_end["total"].as_u64(), Some(won_len), "--to the length still gives the total");
    let early = json(&["replay", WON, "--to", "3", "--json"]);
    assert_eq!(early["total"].as_u64(), Some(won_len));
    // A session and its snapshots: the same answers before and after they are built.
    s.run(&["import", WON, "--session", "g", "--snapshot-every", "0"]).expect(0);
    s.run(&["fork", "g", "--at", "60", "--into", "h", "--snapshot-every", "0"]).expect(0);
    let _ = s.run_with_stdin(&["record", "h"], "stop\n");
    let before = (s.run(&["replay", "g", "--to", "70"]).out(), s.run(&["diff", "g", "h", "--json"]).out());
    s.run(&["snapshot", "g", "--every", "10"]).expect(0);
    s.run(&["snapshot", "h", "--every", "10"]).expect(0);
    let after = (s.run(&["replay", "g", "--to", "70"]).out(), s.run(&["diff", "g", "h", "--json"]).out());
    assert_eq!(before, after);
    // Violations before a snapshot are still listed when replay starts from it.
    let late = s.derive("late.arb", WON, |lines| lines.extend((0..40).map(|_| "recover".to_string())));
    s.run(&["import", &late, "--session", "late", "--snapshot-every", "0"]).expect(0);
    let args = ["replay", "late", "--to", "120", "--json"];
    let before = s.run(&args).expect(0).out();
    s.run(&["snapshot", "late", "--every", "10"]).expect(0);
    let after = s.run(&args).expect(0).out();
    assert_eq!(before, after);
    let listed: serde_json::Value = serde_json::from_str(&after).expect("JSON");
    assert_eq!(listed["violations"].as_array().map(Vec::len), Some(35), "every violation before record 120");
}
