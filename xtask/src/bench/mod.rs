//! `cargo xtask bench`: one run, every game, one table.
//!
//! For each game the registry lists (`arbiter_engine::game_ids`, so a new game is measured
//! without an edit here), a corpus comes from the game's own seeded simulator, every store
//! gets the same events, and every figure is measured in this run, side by side, so the
//! ratios compare like with like on whatever machine runs it. A target is met only when it
//! holds for every game. The table is printed and, with the raw numbers and the machine,
//! written to `docs/PERFORMANCE.md` between markers (the prose around them is kept).

mod append;
mod campaign;
mod corpus;
mod database;
mod document;
mod files;
mod fsync;
mod journal_store;
mod jsonl;
mod kinds;
mod latency;
mod long;
mod machine;
mod measure;
mod memory;
mod per_session;
mod positions;
mod postgres;
mod profile;
mod read;
mod report;
pub mod rss;
mod runs;
mod sqlite;
mod store;
mod stores;

use stores::Kind;

use crate::ci::workspace_root;
use crate::Fallible;
use arbiter_engine::{dispatch, game_ids, Game, GameVisitor};
use corpus::Corpus;
use report::Row;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// What the command line asked for.
#[derive(Debug, Clone)]
pub struct Options {
    pub events: u64,
    pub write: bool,
    /// One game (`--game ID`); every game of the registry when `None`.
    pub game: Option<String>,
    /// Records between two snapshots of the long session.
    pub snapshot_every: u64,
    /// Measure peak RSS in child processes (this binary again).
    pub rss_child: bool,
    /// Events in each file of the file-memory rows (default 10 × `events`).
    pub file_events: u64,
    /// The release `arbiter` binary, for the command-latency rows (`None`: not measured).
    pub arbiter_bin: Option<PathBuf>,
    /// Whole runs of each game (`--runs N`); each figure is their median, with the range.
    pub runs: u64,
    /// `--profile LOOP`: run one loop once, for callgrind, instead of the table.
    pub profile: Option<String>,
    /// The arguments as given, to print the command that produced the numbers.
    pub command: String,
}

fn parse(args: &[String]) -> Fallible<Options> {
    let mut opts = Options {
        events: 1_000_000,
        write: true,
        game: None,
        snapshot_every: 1_000,
        rss_child: true,
        file_events: 0,
        arbiter_bin: None,
        runs: 3,
        profile: None,
        command: format!("cargo xtask bench {}", args.join(" ")).trim_end().to_string(),
    };
    let number = |flag: &str, v: Option<&String>| -> Fallible<u64> {
        let v = v.ok_or_else(|| format!("{flag} needs a number"))?;
        v.replace('_', "").parse().map_err(|_| format!("{flag}: `{v}` is not a number").into())
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--events" => {
                opts.events = number("--events", it.next())?;
                if opts.events < 1_000 {
                    return Err("--events: at least 1000".into());
                }
            }
            "--file-events" => {
                opts.file_events = number("--file-events", it.next())?;
                if opts.file_events < 1_000 {
                    return Err("--file-events: at least 1000".into());
                }
            }
            "--quick" => {
                opts.events = 100_000;
                opts.runs = 1;
                opts.write = false;
            }
            "--runs" => {
                opts.runs = number("--runs", it.next())?;
                if opts.runs == 0 {
                    return Err("--runs: a positive number".into());
                }
            }
            "--no-write" => opts.write = false,
            "--snapshot-every" => {
                opts.snapshot_every = number("--snapshot-every", it.next())?;
                if opts.snapshot_every == 0 {
                    return Err("--snapshot-every: a positive number".into());
                }
            }
            "--game" => opts.game = Some(it.next().ok_or("--game needs a game id")?.clone()),
            "--profile" => {
                let what = it.next().ok_or("--profile needs a loop name")?;
                profile::check_name(what)?;
                opts.profile = Some(what.clone());
            }
            other => return Err(format!("bench: unknown option `{other}` (see `cargo xtask help`)").into()),
        }
    }
    if opts.file_events == 0 {
        opts.file_events = opts.events.saturating_mul(10);
    }
    if let Some(game) = &opts.game {
        if !game_ids().contains(&game.as_str()) {
            return Err(format!("unknown game `{game}` (known: {})", game_ids().join(", ")).into());
        }
    }
    Ok(opts)
}

pub fn run(args: &[String]) -> Fallible {
    let mut opts = parse(args)?;
    if cfg!(debug_assertions) {
        return rerun_optimized(args);
    }
    if let Some(what) = opts.profile.clone() {
        let game = opts.game.clone().unwrap_or_else(|| "proving-grounds".to_string());
        return profile::run(&game, &what, opts.events);
    }
    // The command-latency rows spawn the release binary built beside this one.
    opts.arbiter_bin = std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(format!("arbiter{}", std::env::consts::EXE_SUFFIX)))
        .filter(|bin| bin.is_file());
    let games: Vec<String> = match &opts.game {
        Some(g) => vec![g.clone()],
        None => game_ids().into_iter().map(String::from).collect(),
    };
    let started = Instant::now();
    let mut all = Measured { rows: Vec::new(), raw: Vec::new() };
    let mut unmeasured = Vec::new();
    for game in &games {
        let mut runs = Vec::new();
        let mut result = Ok(());
        for r in 1..=opts.runs {
            eprintln!("xtask bench: === {game}, run {r} of {} ===", opts.runs);
            match dispatch(game, Bench { opts: opts.clone() }).ok_or_else(|| format!("unknown game `{game}`"))
            {
                Ok(Ok(measured)) => runs.push(measured),
                Ok(Err(e)) => result = Err(e),
                Err(e) => result = Err(e.into()),
            }
            if result.is_err() {
                break;
            }
        }
        let result = result.and_then(|()| runs::combine(runs));
        match result {
            Ok(measured) => {
                all.rows.extend(measured.rows.into_iter().map(|r| Row { game: game.clone(), ..r }));
                all.raw.extend(measured.raw.into_iter().map(|l| format!("[{game}] {l}")));
            }
            Err(e) => {
                eprintln!("xtask bench: {game} could not be measured: {e}");
                unmeasured.push((game.clone(), e.to_string()));
            }
        }
    }
    all.raw.push(format!("whole run (after the build): {:.1} s", started.elapsed().as_secs_f64()));
    let table = report::render_text(&all.rows);
    println!("\n{table}");
    let targets = report::render_targets(&all.rows, &games, &unmeasured);
    print!("{targets}");
    if opts.write {
        let path = workspace_root().join("docs").join("PERFORMANCE.md");
        document::write(&path, &opts, &all, &targets)?;
        println!("\nwrote {}", path.display());
    }
    match unmeasured.len() {
        0 => Ok(()),
        n => Err(format!("{n} game(s) could not be measured (see above)").into()),
    }
}

/// Numbers from a debug build mean nothing: build the command line and this driver in
/// release, then run this same command there.
fn rerun_optimized(args: &[String]) -> Fallible {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("xtask bench: building `arbiter` and the bench driver in release mode first");
    let status = Command::new(&cargo)
        .args(["build", "--release", "--quiet", "--package", "arbiter", "--bin", "arbiter"])
        .current_dir(workspace_root())
        .status()?;
    if !status.success() {
        return Err(format!("building the release `arbiter` failed ({status})").into());
    }
    let status = Command::new(cargo)
        .args(["run", "--release", "--quiet", "--package", "xtask", "--", "bench"])
        .args(args)
        .current_dir(workspace_root())
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the release bench run failed ({status})").into())
    }
}

/// The verify crate's options as `arbiter verify` runs without `--json`: no final facts
/// (they are printed only in the JSON report). Every section that times the verify crate
/// uses these.
pub fn verify_options() -> arbiter_verify::VerifyOptions {
    arbiter_verify::VerifyOptions { skip_final_facts: true, ..Default::default() }
}

/// Everything one game's run measured, filled section by section.
pub struct Run<'c, G: Game> {
    pub corpus: &'c Corpus<G>,
    pub opts: &'c Options,
    /// A scratch directory on the project's disk (under `target/`), removed at the end.
    pub dir: PathBuf,
    pub rows: Vec<Row>,
    /// Section 7's disk row, printed after the memory row.
    pub disk_row: Option<Row>,
    pub raw: Vec<String>,
}

impl<G: Game> Run<'_, G> {
    pub fn raw(&mut self, line: String) {
        eprintln!("  {line}");
        self.raw.push(line);
    }
}

struct Bench {
    opts: Options,
}

impl GameVisitor for Bench {
    type Output = Fallible<Measured>;

    fn visit<G: Game>(self) -> Fallible<Measured> {
        measure::<G>(&self.opts)
    }
}

/// The table's rows and the raw numbers behind them.
pub struct Measured {
    pub rows: Vec<Row>,
    pub raw: Vec<String>,
}

/// Every section, in order, on one corpus of `G`.
fn measure<G: Game>(opts: &Options) -> Fallible<Measured> {
    let started = Instant::now();
    let scratch_root = workspace_root().join("target").join("xtask-bench");
    std::fs::create_dir_all(&scratch_root)?;
    let scratch = tempfile::Builder::new().prefix("run-").tempdir_in(&scratch_root)?;

    eprintln!("xtask bench: simulating {} events of {}", opts.events, G::info().id);
    let start = Instant::now();
    let corpus = corpus::build::<G>(opts.events)?;
    let simulate_secs = start.elapsed().as_secs_f64();

    let mut run = Run {
        corpus: &corpus,
        opts,
        dir: scratch.path().to_path_buf(),
        rows: Vec::new(),
        disk_row: None,
        raw: Vec::new(),
    };
    run.raw(format!(
        "corpus: {} events in {} sessions ({} whole games, seeds 1..={}), simulated in {simulate_secs:.2} s",
        corpus.events,
        corpus.sessions.len(),
        corpus.whole_games,
        corpus.sessions.len()
    ));

    eprintln!("xtask bench: 1. durable append, one event");
    append::single(&mut run)?;
    eprintln!("xtask bench: 2. durable append, batched");
    append::batched(&mut run)?;
    eprintln!("xtask bench: 3. scan, replay and verify the corpus in each store; the whole database");
    read::scan_and_replay(&mut run)?;
    eprintln!("xtask bench: 4. verify in memory and from notation");
    memory::in_memory(&mut run)?;
    memory::from_notation(&mut run)?;
    memory::verify_files(&mut run)?;
    memory::engine_loops(&mut run)?;

    let len = opts.events;
    eprintln!("xtask bench: 5-6. a {len}-event campaign session: state at N, diff");
    let splits = [10, len - 10];
    let start = Instant::now();
    let long = long::build(&run.dir, &corpus.game, len as usize, opts.snapshot_every, &splits)?;
    run.raw(format!(
        "long session: {len} events ({} copies) stored and snapshotted every {} in {:.1} s",
        2 + splits.len(),
        opts.snapshot_every,
        start.elapsed().as_secs_f64()
    ));
    positions::state_at(&mut run, &long)?;
    positions::diff(&mut run, &long, &splits)?;
    eprintln!("xtask bench: 10. the journal on PostgreSQL");
    postgres::rows(&mut run, &long)?;
    drop(long);

    eprintln!("xtask bench: 7. peak memory of replaying the long session, disk per event");
    let mut rss_row = Row::new("7", format!("peak RSS replaying the {len}-event session"), report::Unit::MiB);
    for kind in stores::ALL {
        let peak = match opts.rss_child {
            true => rss::measure(
                G::info().id,
                &rss::Replay::Store(kind, stores::dir_of(kind, &run.dir, long::PURPOSE), long::PLAIN.into()),
            ),
            false => Err("not measured: no child process in this run".into()),
        };
        match peak {
            Ok(peak) => {
                run.raw(format!(
                    "replay RSS {}: VmHWM {} KiB at start, {} KiB after replaying {} events (child process)",
                    kind.name(),
                    peak.start_kib,
                    peak.peak_kib,
                    peak.events
                ));
                rss_row = append::set(rss_row, kind, peak.peak_kib as f64 / 1024.0);
                if kind == Kind::Arbiter {
                    rss_row = rss_row.target("< 100 MB", (peak.peak_kib * 1024) < 100_000_000);
                }
            }
            Err(e) => rss_row = append::failed(rss_row, kind, &e),
        }
    }
    run.rows.push(rss_row);
    if let Some(disk) = run.disk_row.take() {
        run.rows.push(disk);
    }

    eprintln!("xtask bench: 8. log files: memory of a {}-event replay, an early split", opts.file_events);
    files::measure(&mut run)?;
    eprintln!("xtask bench: 9. command latency, process start to exit");
    latency::measure(&mut run)?;

    let total = started.elapsed().as_secs_f64();
    run.raw(format!("{} measured in {total:.1} s", G::info().id));
    Ok(Measured { rows: run.rows, raw: run.raw })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::keridwyn::KeridwynFight;
    use arbiter_engine::proving_grounds::ProvingGrounds;

    fn small() -> Options {
        Options {
            events: 2_000,
            write: false,
            game: None,
            snapshot_every: 100,
            rss_child: false,
            file_events: 5_000,
            arbiter_bin: None,
            runs: 1,
            profile: None,
            command: "test".into(),
        }
    }

    /// The whole driver on a small corpus: every section produces its rows, with figures
    /// for arbiter and the baselines where the table has them.
    #[test]
    fn every_section_measures_on_a_small_corpus() {
        let measured =
            measure::<ProvingGrounds>(&small()).unwrap_or_else(|e| panic!("the driver failed: {e}"));
        let sections: std::collections::BTreeSet<&str> = measured.rows.iter().map(|r| r.section).collect();
        assert_eq!(
            sections.into_iter().collect::<Vec<_>>(),
            ["1", "10", "2", "3", "4", "5", "6", "7", "8", "9"]
        );
        for row in &measured.rows {
            // Measured in child processes or by spawning the release binary: not in a test;
            // without a PostgreSQL server, section 10 is one row saying why.
            let elsewhere = row.measure.starts_with("peak RSS")
                || row.section == "9"
                || (row.section == "10" && row.measure == "journal on PostgreSQL");
            assert!(
                row.arbiter.is_some() || elsewhere,
                "no arbiter figure for `{}`: {}",
                row.measure,
                row.note
            );
            assert!(row.arbiter.is_some() || !row.note.is_empty(), "`{}` says nothing", row.measure);
            if matches!(row.section, "1" | "2") || row.measure.starts_with("full") {
                assert!(
                    row.sqlite.is_some() && row.jsonl.is_some(),
                    "`{}` lacks a baseline: {}",
                    row.measure,
                    row.note
                );
            }
        }
        let has = |prefix: &str| measured.rows.iter().any(|r| r.measure.starts_with(prefix));
        for prefix in [
            "durable append of 1 event (median",
            "durable append of 1 event (mean",
            "durable append of 1 event (p99",
            "verify a whole database (`arbiter verify --all`), 1 thread",
            "verify a whole database (`arbiter verify --all`), ",
            "diff of two 2000-event .arb files splitting at 10",
            "diff of two 2000-event .jsonl files splitting at 10",
            "peak RSS replaying a 5000-event .arb file",
            "`arbiter replay SESSION --to N`",
        ] {
            assert!(has(prefix), "no row `{prefix}...`");
        }
        let diff = measured
            .rows
            .iter()
            .find(|r| r.measure.contains("logs splitting at 10"))
            .map(|r| r.measure.as_str());
        assert_eq!(
            diff,
            Some("diff of two 2000-event logs splitting at 10"),
            "verify's diff, not the fallback"
        );
        assert!(
            measured.raw.iter().any(|l| l.starts_with("state at 1000 (verify::replay)")),
            "{:?}",
            measured.raw
        );
        let ratio = measured.rows.iter().find(|r| r.measure.starts_with("full replay + verify"));
        let ratio = ratio.and_then(|r| r.targets.iter().find(|t| t.text.contains("scan's time")));
        assert!(ratio.is_some_and(|t| t.figure.contains("over")), "the ratio's range over rounds: {ratio:?}");
    }

    /// Every game of the registry with a simulator goes through the same driver.
    #[test]
    fn a_second_game_runs_through_the_same_sections() {
        let opts = Options { events: 1_000, file_events: 2_000, ..small() };
        let measured = measure::<KeridwynFight>(&opts).unwrap_or_else(|e| panic!("the driver failed: {e}"));
        assert!(measured.rows.iter().any(|r| r.section == "8" && r.arbiter.is_some()));
        assert!(measured
            .rows
            .iter()
            .any(|r| r.measure.starts_with("full replay + verify") && r.arbiter.is_some()));
    }

    #[test]
    fn options_default_to_every_game_and_narrow_with_game() {
        let all = parse(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((all.game, all.events, all.file_events, all.runs), (None, 1_000_000, 10_000_000, 3));
        let one = parse(&["--game".into(), "keridwyn-fight".into(), "--quick".into()])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (one.game.as_deref(), one.events, one.file_events),
            (Some("keridwyn-fight"), 100_000, 1_000_000)
        );
        assert_eq!(parse(&["--runs".into(), "5".into()]).map(|o| o.runs).ok(), Some(5));
        assert!(parse(&["--runs".into(), "0".into()]).is_err());
        assert!(parse(&["--game".into(), "chess".into()]).is_err());
        assert!(parse(&["--profile".into(), "nothing".into()]).is_err());
    }
}
