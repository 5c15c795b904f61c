//! `cargo xtask bench`: one run, one corpus, one table.
//!
//! The corpus comes from the game's own seeded simulator, every store gets the same events,
//! and every figure is measured in this run, side by side, so the ratios compare like with
//! like on whatever machine runs it. The table is printed and, with the raw numbers and the
//! machine, written to `docs/PERFORMANCE.md` between markers (the prose around them is kept).

mod append;
mod campaign;
mod corpus;
mod document;
mod fsync;
mod journal_store;
mod jsonl;
mod long;
mod machine;
mod measure;
mod memory;
mod positions;
mod postgres;
mod read;
mod report;
pub mod rss;
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
    pub game: String,
    /// Records between two snapshots of the long session.
    pub snapshot_every: u64,
    /// Measure the peak RSS in a child process (this binary again).
    pub rss_child: bool,
    /// The arguments as given, to print the command that produced the numbers.
    pub command: String,
}

fn parse(args: &[String]) -> Fallible<Options> {
    let mut opts = Options {
        events: 1_000_000,
        write: true,
        game: "proving-grounds".into(),
        snapshot_every: 1_000,
        rss_child: true,
        command: format!("cargo xtask bench {}", args.join(" ")).trim_end().to_string(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--events" => {
                let v = it.next().ok_or("--events needs a number")?;
                opts.events =
                    v.replace('_', "").parse().map_err(|_| format!("--events: `{v}` is not a number"))?;
                if opts.events < 1_000 {
                    return Err("--events: at least 1000".into());
                }
            }
            "--quick" => {
                opts.events = 100_000;
                opts.write = false;
            }
            "--no-write" => opts.write = false,
            "--snapshot-every" => {
                let v = it.next().ok_or("--snapshot-every needs a number")?;
                opts.snapshot_every = v
                    .parse()
                    .ok()
                    .filter(|&k| k > 0)
                    .ok_or_else(|| format!("--snapshot-every: `{v}` is not a positive number"))?;
            }
            "--game" => opts.game = it.next().ok_or("--game needs a game id")?.clone(),
            other => return Err(format!("bench: unknown option `{other}` (see `cargo xtask help`)").into()),
        }
    }
    Ok(opts)
}

pub fn run(args: &[String]) -> Fallible {
    let opts = parse(args)?;
    if cfg!(debug_assertions) {
        return rerun_optimized(args);
    }
    let game = opts.game.clone();
    dispatch(&game, Bench { opts })
        .ok_or_else(|| format!("unknown game `{game}` (known: {})", game_ids().join(", ")))?
}

/// Numbers from a debug build mean nothing: build and run this same command in release.
fn rerun_optimized(args: &[String]) -> Fallible {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("xtask bench: building the bench driver in release mode first");
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

/// Everything one run measured, filled section by section.
pub struct Run<'c, G: Game> {
    pub corpus: &'c Corpus<G>,
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
    type Output = Fallible;

    fn visit<G: Game>(self) -> Fallible {
        let opts = self.opts;
        let measured = measure::<G>(&opts)?;
        let table = report::render_text(&measured.rows);
        println!("\n{table}");
        print!("{}", report::render_targets(&measured.rows));
        if opts.write {
            let path = workspace_root().join("docs").join("PERFORMANCE.md");
            document::write(&path, &opts, &measured)?;
            println!("\nwrote {}", path.display());
        }
        Ok(())
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
    eprintln!("xtask bench: 3. scan and replay the corpus in each store");
    read::scan_and_replay(&mut run)?;
    eprintln!("xtask bench: 4. verify in memory and from notation");
    memory::in_memory(&mut run)?;
    memory::from_notation(&mut run)?;
    memory::verify_files(&mut run)?;

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
    eprintln!("xtask bench: 8. the journal on PostgreSQL");
    postgres::rows(&mut run, &long)?;
    drop(long);

    eprintln!("xtask bench: 7. peak memory of replaying the long session, disk per event");
    let mut rss_row = Row::new("7", format!("peak RSS replaying the {len}-event session"), report::Unit::MiB);
    for kind in stores::ALL {
        let peak = match opts.rss_child {
            true => {
                rss::measure(G::info().id, kind, &stores::dir_of(kind, &run.dir, long::PURPOSE), long::PLAIN)
            }
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

    let total = started.elapsed().as_secs_f64();
    run.raw(format!("whole run (after the build): {total:.1} s"));
    Ok(Measured { rows: run.rows, raw: run.raw })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::proving_grounds::ProvingGrounds;

    /// The whole driver on a small corpus: every section produces its rows, with figures
    /// for arbiter and the baselines where the table has them.
    #[test]
    fn every_section_measures_on_a_small_corpus() {
        let opts = Options {
            events: 2_000,
            write: false,
            game: "proving-grounds".into(),
            snapshot_every: 100,
            rss_child: false,
            command: "test".into(),
        };
        let measured = measure::<ProvingGrounds>(&opts).unwrap_or_else(|e| panic!("the driver failed: {e}"));
        let sections: std::collections::BTreeSet<&str> = measured.rows.iter().map(|r| r.section).collect();
        assert_eq!(sections.into_iter().collect::<Vec<_>>(), ["1", "2", "3", "4", "5", "6", "7", "8"]);
        for row in &measured.rows {
            // Without a PostgreSQL server, section 8 is one row saying why.
            let missing_ok = (row.section == "7" && row.measure.starts_with("peak RSS"))
                || (row.section == "8" && row.measure == "journal on PostgreSQL");
            assert!(
                row.arbiter.is_some() || missing_ok,
                "no arbiter figure for `{}`: {}",
                row.measure,
                row.note
            );
            if matches!(row.section, "1" | "2") || row.measure.starts_with("full") {
                assert!(
                    row.sqlite.is_some() && row.jsonl.is_some(),
                    "`{}` lacks a baseline: {}",
                    row.measure,
                    row.note
                );
            }
        }
        let diff =
            measured.rows.iter().find(|r| r.measure.contains("splitting at 10")).map(|r| r.measure.as_str());
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
    }
}
