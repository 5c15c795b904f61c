//! `cargo xtask crash`: the storage reliability tests at full size.
//!
//! The same tests `cargo test` runs with small counts (so a reader can find what they
//! check in one place), built in release and run with large ones through their environment
//! variables: the crash test (`journal/tests/crash.rs`, writers killed at random points),
//! the corruption sweep (`journal/tests/sweep.rs`, damaged copies of every file of a
//! database), the race of two creators (`tests/reliability.rs`) and the disk-full test
//! (`journal/tests/full_disk.rs`, which needs to mount a tmpfs: root). Their summary lines
//! are printed at the end; docs/RELIABILITY.md reports them with this command.

use crate::Fallible;
use std::process::Command;

const USAGE: &str = "\
usage: cargo xtask crash [--iterations N] [--copies N] [--race N] [--seed S]
  --iterations N  writers killed at random points (default 1000)
  --copies N      damaged copies of a database in the sweep (default 1200)
  --race N        trials of two processes creating one database (default 300)
  --seed S        seed of the crash test and the sweep (default: each test's own)";

/// One test run: its cargo arguments, and the variables that size it.
struct Run {
    what: &'static str,
    args: &'static [&'static str],
    env: Vec<(&'static str, String)>,
}

pub fn run(args: &[String]) -> Fallible {
    let (mut iterations, mut copies, mut race, mut seed) = (1000u64, 1200u64, 300u64, None::<u64>);
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut value = || -> Fallible<u64> {
            let text = words.next().ok_or_else(|| format!("{word} needs a number\n{USAGE}"))?;
            Ok(text.parse().map_err(|_| format!("{word}: `{text}` is not a number\n{USAGE}"))?)
        };
        match word.as_str() {
            "--iterations" => iterations = value()?,
            "--copies" => copies = value()?,
            "--race" => race = value()?,
            "--seed" => seed = Some(value()?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n{USAGE}").into()),
        }
    }
    let seeded = |name: &'static str| seed.map(|s| (name, s.to_string()));
    let runs = [
        Run {
            what: "crash test",
            args: &["-p", "arbiter-journal", "--test", "crash"],
            env: [Some(("ARBITER_CRASH_ITERATIONS", iterations.to_string())), seeded("ARBITER_CRASH_SEED")]
                .into_iter()
                .flatten()
                .collect(),
        },
        Run {
            what: "corruption sweep",
            args: &["-p", "arbiter-journal", "--test", "sweep"],
            env: [Some(("ARBITER_SWEEP_COPIES", copies.to_string())), seeded("ARBITER_SWEEP_SEED")]
                .into_iter()
                .flatten()
                .collect(),
        },
        Run {
            what: "disk-full test",
            args: &["-p", "arbiter-journal", "--test", "full_disk"],
            env: Vec::new(),
        },
        Run {
            what: "race of two creators",
            args: &["-p", "arbiter", "--test", "reliability", "racing"],
            env: vec![("ARBITER_RACE_TRIALS", race.to_string())],
        },
    ];
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let root = crate::ci::workspace_root();
    let mut summary = Vec::new();
    for run in &runs {
        println!(
            "xtask crash: {} ({})",
            run.what,
            run.env.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
        );
        let output = Command::new(&cargo)
            .args(["test", "--release", "--locked"])
            .args(run.args)
            .args(["--", "--nocapture", "--test-threads=1"])
            .envs(run.env.iter().map(|(k, v)| (*k, v.as_str())))
            .current_dir(&root)
            .output()?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        // A test's first line of output follows libtest's `test NAME ... ` on the same line.
        let markers = ["crash test:", "sweep", "race trials:", "disk-full"];
        let lines: Vec<&str> = stdout
            .lines()
            .filter_map(|l| markers.iter().filter_map(|m| l.find(m)).min().map(|at| &l[at..]))
            .collect();
        for line in &lines {
            println!("  {line}");
        }
        if !output.status.success() {
            eprintln!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
            return Err(format!("the {} failed", run.what).into());
        }
        summary.extend(lines.into_iter().map(str::to_string));
    }
    println!("xtask crash: every run passed; summary:");
    for line in summary {
        println!("{line}");
    }
    Ok(())
}
