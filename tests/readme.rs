//! The README's shown outputs are real: every `$ command` line of its ```console blocks is run
//! (in order, in one scratch database, from the repository root, with this build's `arbiter`
//! first on the PATH) and what it prints must be the lines shown under it. A trailing
//! `# exit N` comment gives the expected exit status (0 otherwise).

use std::path::Path;
use std::process::Command;

/// One shown command and its output.
struct Shown {
    command: String,
    exit: i32,
    output: Vec<String>,
}

/// The ```console blocks of a Markdown text, as commands and outputs.
fn shown(markdown: &str) -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    let mut in_console = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_console = !in_console && line.trim() == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let exit = command
                .rsplit_once("# exit ")
                .and_then(|(_, n)| n.split_whitespace().next()?.parse().ok())
                .unwrap_or(0);
            out.push(Shown { command: command.to_string(), exit, output: Vec::new() });
        } else if let Some(last) = out.last_mut() {
            last.output.push(line.trim_end().to_string());
        }
    }
    out
}

#[test]
fn every_output_the_readme_shows_is_what_the_tool_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let commands = shown(&readme);
    assert!(commands.len() >= 8, "the README shows only {} commands", commands.len());
    let scratch = tempfile::tempdir().expect("temp dir");
    let bin = Path::new(env!("CARGO_BIN_EXE_arbiter")).parent().expect("bin dir");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut wrong = Vec::new();
    for shown in &commands {
        let run = Command::new("sh")
            .arg("-c")
            .arg(&shown.command)
            .current_dir(root)
            .env("PATH", &path)
            .env("ARBITER_DB", scratch.path().join("arbiter.db"))
            .output()
            .expect("run sh");
        let printed: Vec<String> =
            String::from_utf8_lossy(&run.stdout).lines().map(|l| l.trim_end().to_string()).collect();
        let code = run.status.code().unwrap_or(-1);
        if printed != shown.output || code != shown.exit {
            wrong.push(format!(
                "$ {}\n--- the README shows (exit {}):\n{}\n--- the tool printed (exit {code}):\n{}\n--- stderr:\n{}",
                shown.command,
                shown.exit,
                shown.output.join("\n"),
                printed.join("\n"),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn the_reader_of_shown_blocks_reads_commands_exits_and_outputs() {
    let text = "intro\n```console\n$ arbiter x   # exit 1\nline 1\n  line 2  \n$ arbiter y\n```\n```sh\n$ not shown\n```\n";
    let s = shown(text);
    assert_eq!(s.len(), 2);
    assert_eq!((s[0].exit, s[0].output.clone()), (1, vec!["line 1".to_string(), "  line 2".to_string()]));
    assert_eq!((s[1].command.as_str(), s[1].exit, s[1].output.len()), ("arbiter y", 0, 0));
}
