//! `cargo xtask bench --profile LOOP --game ID --events N`: one of the table's loops, run
//! once over N simulated events, for an instruction count that repeats where wall-clock time
//! on a shared machine does not. The loop is a function of its own (`profiled_LOOP`), so
//! callgrind can count it alone:
//!
//! ```text
//! cargo build --release -p xtask
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*profiled_*' \
//!     target/release/xtask bench --profile step --game keridwyn-fight --events 20000
//! ```
//!
//! and divide the total (`callgrind_annotate`'s PROGRAM TOTALS) by N. The loops: `step`
//! (the rules over decoded events, verify in memory), `decode` (the journal's codec on each
//! record's bytes), `text` (parse each notation line, then step), `parse` (the parse
//! alone), `scan` (the journal's stream of a stored corpus, decoded), `replay` (that
//! stream, stepped), `verify-sessions` (the verify crate on every session of that journal,
//! as `arbiter verify SESSION` runs it), `arb-files` (the verify crate on every session
//! written as a `.arb` file, as `arbiter verify FILE` runs it), `file-diff` (the verify
//! crate's diff of two `.jsonl` files of N events that split at record 10, as `arbiter diff
//! A B` runs it; its wall time is printed too, the median of 11) and `setup` (what `arbiter
//! verify SESSION` builds once per session before its first event: the game from the
//! session's setup and built-in catalog, then its initial state; divide by the number of
//! sessions for the cost per session).
//!
//! `append` makes durable single appends to one session of a fresh journal, half of the N
//! events as warm-up and the other half counted (divide by N / 2): what section 1 times,
//! without the wait for the disk, which callgrind does not count.
//!
//! Three more "loops" are not for callgrind: `kinds` times the step record by record and
//! prints the time by kind of record (`kinds.rs`), `per-session` splits the scan's, the
//! step's and the verify crate's cost per session from their cost per record
//! (`per_session.rs`), and `disk` loads the corpus into a fresh journal as
//! section 7 does (batches of `BATCH`) and prints its bytes on disk per event beside the raw
//! payload, file by file, so a change to how blocks are stored can be judged in seconds.

use super::corpus::{self, Corpus};
use super::journal_store::meta;
use crate::Fallible;
use arbiter_engine::{dispatch, Findings, Game, GameVisitor, Setup};
use arbiter_journal::{codec, Journal, Record};
use std::fmt::Write as _;
use std::hint::black_box;

/// The loops `--profile` runs.
pub const LOOPS: [&str; 16] = [
    "step",
    "kinds",
    "per-session",
    "decode",
    "text",
    "parse",
    "scan",
    "replay",
    "verify-sessions",
    "arb-files",
    "file-diff",
    "file-diff-first",
    "setup",
    "disk",
    "append",
    "batch",
];

pub fn check_name(what: &str) -> Fallible {
    if LOOPS.contains(&what) {
        Ok(())
    } else {
        Err(format!("--profile: `{what}` is not a loop (one of {})", LOOPS.join(", ")).into())
    }
}

pub fn run(game: &str, what: &str, events: u64) -> Fallible {
    dispatch(game, Profile { what: what.to_string(), events })
        .ok_or_else(|| format!("unknown game `{game}`"))?
}

struct Profile {
    what: String,
    events: u64,
}

impl GameVisitor for Profile {
    type Output = Fallible;

    fn visit<G: Game>(self) -> Fallible {
        let corpus = corpus::build::<G>(self.events)?;
        let n = match self.what.as_str() {
            "step" => profiled_step(&corpus),
            "kinds" => super::kinds::by_kind(&corpus),
            "decode" => {
                let bytes = corpus
                    .sessions
                    .iter()
                    .flat_map(|(_, events)| events.iter())
                    .map(|e| codec::encode(&Record::Event(e)))
                    .collect::<Result<Vec<_>, _>>()?;
                profiled_decode::<G>(&bytes)?
            }
            "text" | "parse" => {
                let texts: Vec<String> = corpus
                    .sessions
                    .iter()
                    .map(|(_, events)| {
                        let mut text = String::new();
                        for e in events {
                            let _ = writeln!(text, "{e}");
                        }
                        text
                    })
                    .collect();
                if self.what == "parse" {
                    profiled_parse(&corpus.game, &texts)?
                } else {
                    profiled_text(&corpus.game, &texts)?
                }
            }
            "arb-files" => {
                let dir = tempfile::tempdir()?;
                let mut files = Vec::with_capacity(corpus.sessions.len());
                for (name, events) in &corpus.sessions {
                    let mut text = format!("@game {}\n", G::info().id);
                    for e in events {
                        let _ = writeln!(text, "{e}");
                    }
                    let path = dir.path().join(format!("{name}.arb"));
                    std::fs::write(&path, text)?;
                    files.push(path);
                }
                let start = std::time::Instant::now();
                let n = profiled_arb_files(&files)?;
                // The loop's wall time alone (the corpus and files above are not in it), for a
                // quick side-by-side of two builds where callgrind counts only instructions.
                println!("arb-files loop: {n} records in {:.3} s", start.elapsed().as_secs_f64());
                n
            }
            "file-diff" | "file-diff-first" => {
                let dir = tempfile::tempdir()?;
                let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
                let inner = corpus.game.clone();
                super::files::write_campaign(&inner, self.events, &a, None)?;
                super::files::write_campaign(&inner, self.events, &b, Some(super::files::SPLIT_AT))?;
                let written = std::time::Instant::now();
                // The diff as a user meets it the second time: with the retraction cache's
                // entries for both files (`--profile file-diff-first` times it without).
                let cache = (self.what == "file-diff")
                    .then(|| arbiter_verify::RetractionCache::at(dir.path().join("retraction-cache")));
                let ctx =
                    arbiter_verify::Context::with_games(super::campaign::CampaignGames::<G>::default(), None)
                        .with_retraction_cache(cache);
                if ctx.retraction_cache.is_some() {
                    let settled =
                        arbiter_verify::RetractionCache::SETTLED + std::time::Duration::from_millis(100);
                    std::thread::sleep(settled.saturating_sub(written.elapsed()));
                    profiled_file_diff(&ctx, &a, &b)?;
                }
                let (mut samples, mut reads) = (Vec::new(), Vec::new());
                for _ in 0..11 {
                    let start = std::time::Instant::now();
                    super::files::read_both(&a, &b)?;
                    reads.push(start.elapsed().as_secs_f64());
                    let start = std::time::Instant::now();
                    profiled_file_diff(&ctx, &a, &b)?;
                    samples.push(start.elapsed().as_secs_f64());
                }
                println!(
                    "diff of two {}-event .jsonl files splitting at {} ({}): median {:.3} ms of 11; reading \
                     their bytes alone, side by side: median {:.3} ms",
                    self.events,
                    super::files::SPLIT_AT,
                    match ctx.retraction_cache {
                        Some(_) => "with the retraction cache's entries",
                        None => "first diff, every byte read",
                    },
                    super::measure::median(samples) * 1e3,
                    super::measure::median(reads) * 1e3
                );
                corpus.events
            }
            "scan" | "replay" | "verify-sessions" | "per-session" => {
                let dir = tempfile::tempdir()?;
                let journal = Journal::open(dir.path().join("journal.db"))?;
                for (name, events) in &corpus.sessions {
                    let records: Vec<Record<&G::Event>> = events.iter().map(Record::Event).collect();
                    journal.import(name, &meta::<G>(), &records)?;
                }
                // Once untimed, as the table's reads run on a warm journal.
                scan(&journal, &corpus)?;
                match self.what.as_str() {
                    "per-session" => super::per_session::measure(&journal, &corpus)?,
                    "scan" => profiled_scan(&journal, &corpus)?,
                    "replay" => profiled_replay(&journal, &corpus)?,
                    _ => profiled_verify_sessions(&journal, &corpus)?,
                }
            }
            "setup" => profiled_setup::<G>(&corpus)?,
            "append" => {
                let dir = tempfile::tempdir()?;
                let mut store =
                    super::stores::create::<G>(super::stores::Kind::Arbiter, dir.path(), "single")?;
                let events = corpus.first(corpus.events as usize);
                let (warm, timed) = events.split_at(events.len() / 2);
                // Warmed as section 1 warms it; then the appends counted.
                for (seq, e) in warm.iter().enumerate() {
                    store.append_one("durable", seq as u64, e)?;
                }
                profiled_append::<G>(store.as_mut(), warm.len() as u64, timed)? + warm.len() as u64
            }
            "batch" => {
                let dir = tempfile::tempdir()?;
                let mut store =
                    super::stores::create::<G>(super::stores::Kind::Arbiter, dir.path(), "batched")?;
                profiled_batch::<G>(store.as_mut(), &corpus.first(corpus.events as usize))?
            }
            "disk" => disk(&corpus)?,
            other => return Err(format!("--profile: `{other}` is not a loop").into()),
        };
        if n != corpus.events {
            return Err(format!("the loop went over {n} events of {}", corpus.events).into());
        }
        println!(
            "{}: `{}` over {n} events in {} sessions; divide callgrind's total by {n}",
            G::info().id,
            self.what,
            corpus.sessions.len()
        );
        Ok(())
    }
}

#[inline(never)]
fn profiled_step<G: Game>(corpus: &Corpus<G>) -> u64 {
    let mut findings = Findings::default();
    let mut n = 0;
    for (_, events) in &corpus.sessions {
        let mut state = corpus.game.initial_state();
        for e in events {
            findings.clear();
            if corpus.game.step(&mut state, e, &mut findings).is_err() {
                break;
            }
            n += 1;
        }
        black_box(&state);
    }
    n
}

/// One game and one initial state per session, built as the verify crate builds them (the
/// session's setup, the built-in catalog's text); the events of the sessions it built for.
#[inline(never)]
fn profiled_setup<G: Game>(corpus: &Corpus<G>) -> Fallible<u64> {
    let meta = meta::<G>();
    let setup = Setup { params: meta.setup.clone(), catalog: meta.catalog.clone() };
    let name = G::default_catalog();
    let text = G::builtin_catalog(name).ok_or_else(|| format!("no built-in catalog `{name}`"))?;
    let mut n = 0;
    for (_, events) in &corpus.sessions {
        let game = G::new(&setup, text).map_err(|e| format!("{}: {e}", G::info().id))?;
        black_box(game.initial_state());
        black_box(&game);
        n += events.len() as u64;
    }
    Ok(n)
}

/// Durable single appends, as section 1 times them (one event each, one session).
#[inline(never)]
fn profiled_append<G: Game>(
    store: &mut dyn super::store::Store<G::Event>,
    first: u64,
    events: &[G::Event],
) -> Fallible<u64> {
    for (i, e) in events.iter().enumerate() {
        store.append_one("durable", first + i as u64, e)?;
    }
    Ok(events.len() as u64)
}

/// Section 2's loop: durable appends in batches of `append::BATCH` into a fresh store.
#[inline(never)]
fn profiled_batch<G: Game>(
    store: &mut dyn super::store::Store<G::Event>,
    events: &[G::Event],
) -> Fallible<u64> {
    for (i, chunk) in events.chunks(super::append::BATCH).enumerate() {
        store.append_batch("batched", (i * super::append::BATCH) as u64, chunk)?;
    }
    Ok(events.len() as u64)
}

#[inline(never)]
fn profiled_decode<G: Game>(bytes: &[Vec<u8>]) -> Fallible<u64> {
    for b in bytes {
        black_box(codec::decode::<Record<G::Event>>(b)?);
    }
    Ok(bytes.len() as u64)
}

#[inline(never)]
fn profiled_text<G: Game>(game: &G, texts: &[String]) -> Fallible<u64> {
    let mut findings = Findings::default();
    let mut n = 0;
    for text in texts {
        let mut state = game.initial_state();
        for line in text.lines() {
            let e = game.parse_event(line)?;
            findings.clear();
            game.step(&mut state, &e, &mut findings)?;
            n += 1;
        }
        black_box(&state);
    }
    Ok(n)
}

/// The notation parser alone, on the lines `text` steps.
#[inline(never)]
fn profiled_parse<G: Game>(game: &G, texts: &[String]) -> Fallible<u64> {
    let mut n = 0;
    for text in texts {
        for line in text.lines() {
            black_box(game.parse_event(line)?);
            n += 1;
        }
    }
    Ok(n)
}

fn scan<G: Game>(journal: &Journal, corpus: &Corpus<G>) -> Fallible<u64> {
    let mut n = 0;
    for (name, _) in &corpus.sessions {
        for item in journal.events::<G::Event>(name, 0)? {
            black_box(item?);
            n += 1;
        }
    }
    Ok(n)
}

#[inline(never)]
fn profiled_scan<G: Game>(journal: &Journal, corpus: &Corpus<G>) -> Fallible<u64> {
    scan(journal, corpus)
}

#[inline(never)]
fn profiled_verify_sessions<G: Game>(journal: &Journal, corpus: &Corpus<G>) -> Fallible<u64> {
    let ctx = arbiter_verify::Context::new(journal);
    let options = super::verify_options();
    let mut n = 0;
    for (name, _) in &corpus.sessions {
        let report = arbiter_verify::verify(&ctx, &arbiter_verify::Source::session(name), &options)?;
        if !report.is_clean() {
            return Err(format!("verify {name}: the simulated session is not clean").into());
        }
        n += report.records;
    }
    Ok(n)
}

#[inline(never)]
fn profiled_arb_files(files: &[std::path::PathBuf]) -> Fallible<u64> {
    let ctx = arbiter_verify::Context::files();
    let options = super::verify_options();
    let mut n = 0;
    for path in files {
        let report = arbiter_verify::verify(&ctx, &arbiter_verify::Source::file(path), &options)?;
        if !report.is_clean() {
            return Err(format!("verify {}: the simulated session is not clean", path.display()).into());
        }
        n += report.records;
    }
    Ok(n)
}

#[inline(never)]
fn profiled_file_diff<G: Game>(
    ctx: &arbiter_verify::Context<'_, super::campaign::CampaignGames<G>>,
    a: &std::path::Path,
    b: &std::path::Path,
) -> Fallible {
    let report = arbiter_verify::diff(
        ctx,
        &arbiter_verify::Source::file(a),
        &arbiter_verify::Source::file(b),
        &arbiter_verify::DiffOptions::default(),
    )?;
    let split = report.divergences.first().and_then(|d| d.a.as_ref()).map(|r| r.index);
    if split != Some(super::files::SPLIT_AT) {
        return Err(format!("the diff split at {split:?}, not at {}", super::files::SPLIT_AT).into());
    }
    Ok(())
}

#[inline(never)]
fn profiled_replay<G: Game>(journal: &Journal, corpus: &Corpus<G>) -> Fallible<u64> {
    let mut findings = Findings::default();
    let mut n = 0;
    for (name, _) in &corpus.sessions {
        let mut state = corpus.game.initial_state();
        for item in journal.events::<G::Event>(name, 0)? {
            if let (_, Record::Event(e)) = item? {
                findings.clear();
                corpus.game.step(&mut state, &e, &mut findings)?;
            }
            n += 1;
        }
        black_box(&state);
    }
    Ok(n)
}

/// Section 7's disk figure alone: the corpus loaded into arbiter's store as the table loads
/// it (batches of `BATCH`, each session created with its first), then every file's size, per
/// event, against the raw payload. Not a loop for callgrind: it prints what the table's row
/// would say, file by file.
fn disk<G: Game>(corpus: &Corpus<G>) -> Fallible<u64> {
    use super::append::BATCH;
    use super::store::Store;
    let dir = tempfile::tempdir()?;
    let mut store = super::journal_store::JournalStore::create::<G>(dir.path())?;
    for (name, events) in &corpus.sessions {
        for (i, chunk) in events.chunks(BATCH).enumerate() {
            Store::<G::Event>::append_batch(&mut store, name, (i * BATCH) as u64, chunk)?;
        }
    }
    let total = Store::<G::Event>::disk_bytes(&mut store)?;
    let mut raw = 0u64;
    let mut buf = Vec::new();
    for e in corpus.sessions.iter().flat_map(|(_, events)| events.iter()) {
        buf.clear();
        raw += codec::encode_into(e, &mut buf)? as u64;
    }
    let n = corpus.events as f64;
    let path = dir.path().join(super::journal_store::JOURNAL_DIR);
    let mut files = Vec::new();
    list_files(&path, &path, &mut files)?;
    files.sort();
    for (name, len) in &files {
        println!("{name:>28}  {len:>12} bytes  {:>7.2} B/event", *len as f64 / n);
    }
    println!(
        "disk {total} bytes, {:.2} B/event; raw payload {:.2} B/event; {:.2}x the raw payload \
         ({} sessions)",
        total as f64 / n,
        raw as f64 / n,
        total as f64 / raw as f64,
        corpus.sessions.len()
    );
    Ok(corpus.events)
}

fn list_files(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, u64)>) -> Fallible {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        if meta.is_dir() {
            list_files(root, &entry.path(), out)?;
        } else {
            let name = entry.path().strip_prefix(root).map(|p| p.display().to_string()).unwrap_or_default();
            out.push((name, meta.len()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_loop_runs_over_the_whole_corpus() {
        for what in LOOPS {
            run("proving-grounds", what, 1_000).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        assert!(check_name("nothing").is_err());
    }
}
