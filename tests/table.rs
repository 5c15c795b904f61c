//! `arbiter record` at the table, driven through a pseudo-terminal (rexpect) as a player
//! would: the README's table session typed line by line, line editing with the arrow keys,
//! Tab completion of card names, the rules' next consequence taken with the Right arrow, the
//! session's history recalled in a later sitting, several lines pasted at once, `help`, and
//! the word on leaving after `quit`, Ctrl-D and Ctrl-C. Also what only a terminal shows:
//! colour (and NO_COLOR) and the progress bar of a long audit.

mod common;

use common::Sandbox;
use rexpect::session::{spawn_with_options, PtySession};
use std::path::Path;
use std::process::Command;

const LEFT: &str = "\x1b[D";
const RIGHT: &str = "\x1b[C";
const UP: &str = "\x1b[A";
const TAB: &str = "\t";
const ENTER: &str = "\r";

/// `arbiter ARGS` on a pseudo-terminal, on the sandbox's database, colour off unless asked.
fn spawn(s: &Sandbox, args: &[&str], env: &[(&str, &str)], strip: bool) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env("ARBITER_DB", s.db())
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let options = rexpect::reader::Options { timeout_ms: Some(30_000), strip_ansi_escape_codes: strip };
    spawn_with_options(cmd, options).expect("spawn arbiter on a pseudo-terminal")
}

/// Wait for `prompt`, type `text` (keys included), and wait for `shown`. A player types
/// after the prompt appears; input sent before it reaches a terminal the editor has not yet
/// taken over.
#[track_caller]
fn typed(p: &mut PtySession, prompt: &str, text: &str, shown: &str) {
    if let Err(e) = p.exp_string(prompt) {
        panic!("the prompt `{prompt}` was not shown: {e}");
    }
    p.send(text).expect("type");
    p.flush().expect("flush");
    if let Err(e) = p.exp_string(shown) {
        panic!("after typing {text:?}, `{shown}` was not shown: {e}");
    }
}

/// The exit status of the spawned process, once it ended.
fn status(p: &mut PtySession) -> i32 {
    match p.process().wait().expect("wait") {
        rexpect::process::WaitStatus::Exited(_, code) => code,
        other => panic!("arbiter did not exit normally: {other:?}"),
    }
}

/// A sandbox holding `friday` (the shipped disputed session) and `rematch`, forked from it
/// after the roll.
fn friday() -> Sandbox {
    let s = Sandbox::new();
    s.run(&["import", "examples/disputed-wound.arb", "--session", "friday"]).expect(0);
    s.run(&["fork", "friday", "--at", "8", "--into", "rematch"]).expect(0);
    s
}

/// One prompt of a transcript: the prompt, what was typed, what was printed after it.
type Step = (String, String, Vec<String>);

/// The README's table session: its command, then (input, outputs) for each prompt.
fn readme_session() -> (Vec<String>, Vec<Step>, Vec<String>) {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README");
    let start =
        readme.find("<!-- table session: checked by tests/table.rs -->").expect("the table session marker");
    let block = &readme[start..];
    let body = block.split("```text\n").nth(1).and_then(|b| b.split("\n```").next()).expect("a text block");
    let mut lines = body.lines();
    let command = lines.next().and_then(|l| l.strip_prefix("$ arbiter ")).expect("`$ arbiter ...` first");
    let args: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    let mut banner = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    for line in lines {
        match line.split_once("> ").filter(|(p, _)| p.contains(" #")) {
            Some((prompt, input)) => steps.push((format!("{prompt}> "), input.to_string(), Vec::new())),
            None => match steps.last_mut() {
                Some((_, _, out)) => out.push(line.to_string()),
                None => banner.push(line.to_string()),
            },
        }
    }
    (args, steps, banner)
}

#[test]
fn the_readme_table_session_is_what_a_player_sees() {
    let s = friday();
    let (args, _, _) = readme_session();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut p = spawn(&s, &args, &[], true);
    play_the_readme_session(&mut p);
    // What the transcript says was stored is what the session holds.
    let log = s.run(&["log", "rematch"]).expect(0).out();
    assert!(log.contains("   10  up 4   [retracted by 11]") && log.contains("   12  hold 4"), "{log}");
}

/// The same sitting through `arbiter serve` (`--server URL`): the same screen, line for
/// line, and the same records stored.
#[test]
fn the_readme_table_session_is_the_same_through_a_server() {
    use std::io::BufRead;
    let s = friday();
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(s.db())
        .env_remove("ARBITER_TOKEN")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("arbiter serve starts");
    let mut first = String::new();
    std::io::BufReader::new(server.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("its address");
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_digit()).to_string())
        .expect("serve prints its address");
    let (args, _, _) = readme_session();
    let mut remote = vec!["--server", url.as_str()];
    remote.extend(args.iter().map(String::as_str));
    let state = s.path("state");
    let mut p = spawn(&s, &remote, &[("XDG_STATE_HOME", state.to_str().expect("utf-8"))], true);
    play_the_readme_session(&mut p);
    let _ = server.kill();
    let _ = server.wait();
    let log = s.run(&["log", "rematch"]).expect(0).out();
    assert!(log.contains("   10  up 4   [retracted by 11]") && log.contains("   12  hold 4"), "{log}");
    // The line history is kept on this machine, per server and session.
    assert!(std::fs::read_dir(state.join("arbiter").join("history")).is_ok_and(|mut d| d.next().is_some()));
}

/// Type the README's table session at `p`, checking every line it shows, to the end.
fn play_the_readme_session(p: &mut PtySession) {
    let (_, steps, banner) = readme_session();
    assert!(steps.len() >= 5, "the README's session has only {} lines", steps.len());
    for line in &banner {
        p.exp_string(line).unwrap_or_else(|e| panic!("banner line `{line}` not shown: {e}"));
    }
    for (prompt, input, outputs) in &steps {
        p.exp_string(prompt).unwrap_or_else(|e| panic!("the prompt `{prompt}` was not shown: {e}"));
        p.send(&format!("{input}{ENTER}")).expect("type a line");
        p.flush().expect("flush");
        for line in outputs {
            p.exp_string(line.trim_start())
                .unwrap_or_else(|e| panic!("after `{input}`, `{line}` not shown: {e}"));
        }
    }
    p.exp_eof().expect("the recorder ends after quit");
    assert_eq!(status(p), 1, "a line broke a rule");
}

#[test]
fn keys_edit_complete_and_recall_as_in_a_shell() {
    let s = friday();
    s.run(&["new", "cards", "--game", "proving-grounds"]).expect(0);
    let mut p = spawn(&s, &["record", "cards"], &[], true);
    p.exp_string("0 records so far").expect("banner");
    // Tab completes a card name of the catalog; Left moves the cursor to fix a typo.
    typed(&mut p, "cards #0> ", &format!("draw 1 pit-b{TAB}{ENTER}"), "recorded #0: draw 1 pit-brawler");
    typed(
        &mut p,
        "cards #1> ",
        &format!("draw 2 net-throwr{LEFT}e{ENTER}"),
        "recorded #1: draw 2 net-thrower",
    );
    typed(&mut p, "cards #2> ", &format!("help{ENTER}"), "wound SLOT exhaust COLOR");
    typed(&mut p, "cards #2> ", &format!("quit{ENTER}"), "done");
    p.exp_string(": 2 record(s) stored this time (#0-1)").expect("the word on leaving");
    p.exp_eof().expect("ended");
    assert_eq!(status(&mut p), 0);
    let history =
        std::fs::read_to_string(s.path("arbiter.db.history/cards")).expect("the session's history file");
    assert!(history.contains("draw 1 pit-brawler\n") && history.contains("help\n"), "{history}");

    // A later sitting: Up recalls the last line typed (`quit`), Up again the one before.
    let mut p = spawn(&s, &["record", "cards"], &[], true);
    p.exp_string("2 records so far").expect("banner");
    typed(&mut p, "cards #2> ", &format!("{UP}{UP}"), "help");
    typed(&mut p, "", ENTER, "draw SLOT CARD");
    p.exp_string("cards #2> ").expect("the prompt again");
    p.send_control('d').expect("Ctrl-D");
    p.exp_string("done: nothing was recorded this time; `cards` holds 2 records").expect("Ctrl-D's word");
    p.exp_eof().expect("ended");
}

#[test]
fn the_rules_next_consequence_is_a_keystroke_away() {
    let s = friday();
    let mut p = spawn(&s, &["record", "rematch"], &[], true);
    p.exp_string("8 records so far").expect("banner");
    // Nothing typed: the hint is the whole consequence; Right takes it.
    typed(&mut p, "rematch #8> ", &format!("{RIGHT}{ENTER}"), "recorded #8: up 1");
    // Part of it typed, then Tab: the rest of the line the rules require.
    typed(&mut p, "rematch #9> ", &format!("down {TAB}{ENTER}"), "recorded #9: down 2");
    p.exp_string("rematch #10> ").expect("the prompt");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string("interrupted: 2 record(s) stored this time (#8-9)").expect("Ctrl-C's word");
    p.exp_eof().expect("ended");
    assert_eq!(status(&mut p), 0);
    let log = s.run(&["log", "rematch"]).expect(0).out();
    assert!(log.contains("    8  up 1") && log.contains("    9  down 2"), "{log}");
}

#[test]
fn a_line_that_cannot_be_read_costs_only_that_line() {
    let s = friday();
    let mut p = spawn(&s, &["record", "rematch"], &[], true);
    p.exp_string("8 records so far").expect("banner");
    typed(&mut p, "rematch #8> ", &format!("up seven{ENTER}"), "expected a slot number 1-6");
    typed(&mut p, "rematch #8> ", &format!("up 1{ENTER}"), "recorded #8: up 1");
    p.exp_string("rematch #9> ").expect("the prompt");
    p.send_control('d').expect("Ctrl-D");
    let rest = p.exp_eof().expect("ended");
    // The prompt's line is ended, the word starts a line of its own and ends with a line
    // break, so the shell's prompt does not start in the middle of a line.
    let word = "\r\ndone: 1 record(s) stored this time (#8), each acknowledged as it was typed; 1 line(s) not stored; `rematch` holds 9 records\r\n";
    assert!(rest.contains(word), "{rest:?}");
    assert!(rest.ends_with("\r\n"), "{rest:?}");
}

#[test]
fn lines_pasted_at_once_are_each_entered_in_order() {
    let s = friday();
    let mut p = spawn(&s, &["record", "rematch"], &[], true);
    p.exp_string("8 records so far").expect("banner");
    // A terminal's bracketed paste: the editor takes the three lines as one entry, with the
    // breaks (sent as CR, as terminals do); each is recorded as if typed, the unreadable one
    // costs only itself, and what follows `quit` is said to be left unread.
    let paste = "\x1b[200~up 1\rup seven\rdown 2\rquit\rup 3\x1b[201~";
    typed(&mut p, "rematch #8> ", &format!("{paste}{ENTER}"), "recorded #8: up 1");
    p.exp_string("expected a slot number 1-6").expect("the unreadable line said");
    p.exp_string("recorded #9: down 2").expect("the line after it recorded");
    p.exp_string("1 pasted line(s) after `quit` were not read").expect("the rest said");
    let rest = p.exp_eof().expect("ended");
    assert!(rest.contains("done: 2 record(s) stored this time (#8-9)"), "{rest:?}");
    assert!(rest.contains("2 line(s) not stored; `rematch` holds 10 records"), "{rest:?}");
    let log = s.run(&["log", "rematch"]).expect(0).out();
    assert!(
        log.contains("    8  up 1") && log.contains("    9  down 2") && !log.contains("   10  "),
        "{log}"
    );
}

#[test]
fn colour_on_a_terminal_never_in_a_pipe_and_never_under_no_color() {
    let s = friday();
    let mut p = spawn(&s, &["verify", "friday"], &[], false);
    let out = p.exp_eof().expect("verify ends");
    assert!(
        out.contains("\x1b[") && out.contains("pg.resolve.color-requirement"),
        "no colour on a terminal:\n{out:?}"
    );
    let mut p = spawn(&s, &["verify", "friday"], &[("NO_COLOR", "1")], false);
    let out = p.exp_eof().expect("verify ends");
    assert!(!out.contains("\x1b[") && out.contains("violation of pg.resolve.color-requirement"), "{out:?}");
    let mut p = spawn(&s, &["verify", "friday", "--color", "never"], &[], false);
    assert!(!p.exp_eof().expect("verify ends").contains("\x1b["));
    // A pipe gets plain text, unless asked.
    let piped = s.run(&["verify", "friday"]).expect(1).out();
    assert!(!piped.contains('\x1b'), "{piped:?}");
    let forced = s.run(&["verify", "friday", "--color", "always"]).expect(1).out();
    assert!(
        forced.contains("\x1b[1m\x1b[31mviolation\x1b[0m of \x1b[35mpg.resolve.color-requirement\x1b[0m"),
        "{forced:?}"
    );
    // JSON never has colour.
    let json = s.run(&["verify", "friday", "--json", "--color", "always"]).expect(1).out();
    assert!(!json.contains('\x1b'), "{json:?}");
}

#[test]
fn long_work_shows_progress_on_a_terminal_and_nothing_in_a_pipe() {
    let s = friday();
    s.run(&["simulate", "proving-grounds", "--seed", "1", "--games", "3", "--into", "sim"]).expect(0);
    let mut p = spawn(&s, &["verify", "--all"], &[("ARBITER_PROGRESS_DELAY_MS", "0")], true);
    let out = p.exp_eof().expect("the audit ends");
    assert!(out.contains("auditing") && out.contains("/5"), "no progress bar on a terminal:\n{out}");
    assert!(out.contains("audited 5 session(s)"), "{out}");
    let piped = s.run_with_env(&["verify", "--all"], &[("ARBITER_PROGRESS_DELAY_MS", "0")]).expect(0);
    assert!(piped.err().is_empty(), "a pipe got progress: {:?}", piped.err());

    // A fixture suite and an import show theirs too.
    let mut p =
        spawn(&s, &["fixtures", "fixtures/proving-grounds"], &[("ARBITER_PROGRESS_DELAY_MS", "0")], true);
    let out = p.exp_eof().expect("the suite ends");
    assert!(out.contains("fixtures [") && out.contains(" failed"), "no progress bar for fixtures:\n{out}");
    let big = s.path("big.arb");
    s.run(&["simulate", "proving-grounds", "--seed", "5", "--out", &big.to_string_lossy()]).expect(0);
    let mut p = spawn(
        &s,
        &["import", &big.to_string_lossy(), "--session", "big"],
        &[("ARBITER_PROGRESS_DELAY_MS", "0")],
        true,
    );
    let out = p.exp_eof().expect("the import ends");
    assert!(
        out.contains("importing [") && out.contains("session `big`"),
        "no progress bar for an import:\n{out}"
    );
    let piped = s
        .run_with_env(&["fixtures", "fixtures/proving-grounds"], &[("ARBITER_PROGRESS_DELAY_MS", "0")])
        .expect(0);
    assert!(piped.err().is_empty(), "a pipe got progress: {:?}", piped.err());
}
