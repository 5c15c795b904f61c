//! Section 10: the journal on PostgreSQL, measured on the same events as the sled journal
//! and its baselines: a durable single append, durable batches of 1,000, the verify crate
//! over every session of the corpus, and the state at event N of the long session from the
//! start and from a snapshot.
//!
//! The server is `ARBITER_BENCH_POSTGRES` (a `postgres://` URL; give a server you run
//! yourself to measure it), else a throwaway cluster on this machine, reached over a Unix
//! socket, with fsync on, as a server in use runs (`.ci/postgres`). Each run uses a schema
//! of its own. The arbiter column is the journal on PostgreSQL; the SQLite and JSONL
//! columns repeat the same run's figures of sections 1 to 3, so the ratios read against
//! them; the sled journal's figure is in the row's name. Where the time goes is measured
//! too: the server's bare round trip and the bare commit of one row (raw lines).

use super::append::BATCH;
use super::campaign::CampaignGames;
use super::long::{Long, PLAIN, SNAPPED};
use super::measure::{median, rate};
use super::report::{Row, Unit};
use super::Run;
use crate::Fallible;
use arbiter_engine::Game;
use arbiter_journal::{Journal, Record};
use arbiter_verify::{Context, Source};
use std::path::PathBuf;
use std::time::Instant;

/// Single appends timed (the median is shown).
const SINGLE: usize = 300;
/// Events appended in batches of `BATCH`.
const BATCHED_EVENTS: usize = 100_000;

/// The section's rows, or rows saying why they were not measured.
pub fn rows<G: Game>(run: &mut Run<G>, long: &Long<G>) -> Fallible {
    let url = match server() {
        Ok(url) => url,
        Err(why) => {
            run.raw(format!("postgres: not measured: {why}"));
            run.rows.push(Row::new("10", "journal on PostgreSQL", Unit::Micros).note(why));
            return Ok(());
        }
    };
    let shown = arbiter_journal::display_location(std::path::Path::new(&url));
    let (trip, commit) = arbiter_journal::test_server::costs(&url, 200)?;
    run.raw(format!(
        "postgres server {shown}: bare round trip (SELECT 1) median {:.1} µs, commit of one row median {:.1} µs",
        trip * 1e6,
        commit * 1e6
    ));
    let db = fresh(&url)?;
    single(run, &db)?;
    batched(run, &db)?;
    verify_sessions(run, &db)?;
    state_at(run, long, &db)?;
    Ok(())
}

/// The server to measure. The driver's own test measures on the tests' server (it checks
/// that every row is produced, not what it says).
fn server() -> Result<String, String> {
    match std::env::var("ARBITER_BENCH_POSTGRES") {
        Ok(url) if !url.trim().is_empty() => Ok(url),
        _ if cfg!(test) => arbiter_journal::test_server::server()
            .map(str::to_string)
            .ok_or_else(|| "no PostgreSQL server for the tests".to_string()),
        _ => arbiter_journal::test_server::start_durable(),
    }
}

/// A schema of this run's own on the server, as the location a journal opens: numbered
/// within the process too, since the driver's tests measure two games at once on the tests'
/// one server (a schema shared by both was dropped under the other's feet).
fn fresh(url: &str) -> Fallible<PathBuf> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let schema = format!("bench_{}_{n}", std::process::id());
    arbiter_journal::test_server::fresh_schema(url, &schema)?;
    Ok(arbiter_journal::test_server::with_search_path(url, &schema).into())
}

/// The figure of the sled journal and the baselines in the row of section `section` whose
/// name starts with `measure`.
fn same_run(
    run: &Run<impl Game>,
    section: &str,
    measure: &str,
) -> Option<(Option<f64>, Option<f64>, Option<f64>)> {
    run.rows
        .iter()
        .find(|r| r.section == section && r.measure.starts_with(measure))
        .map(|r| (r.arbiter, r.sqlite, r.jsonl))
}

/// A section-10 row: PostgreSQL's figure beside the same run's baselines and sled's.
fn row(run: &Run<impl Game>, what: &str, unit: Unit, pg: f64, like: Option<(&str, &str)>) -> Row {
    let earlier = like.and_then(|(section, measure)| same_run(run, section, measure));
    // The sled figure goes in the note, not the name: a row is matched across runs by its
    // name, and the figure differs from run to run.
    let mut row = Row::new("10", format!("PostgreSQL: {what}"), unit).arbiter(pg);
    if let Some(v) = earlier.and_then(|(a, _, _)| a) {
        row = row.note(format!("sled: {}", unit.show(v)));
    }
    if let Some((_, sqlite, jsonl)) = earlier {
        if let Some(v) = sqlite {
            row = row.sqlite(v);
        }
        if let Some(v) = jsonl {
            row = row.jsonl(v);
        }
    }
    row
}

/// One durable append at a time: the median latency.
fn single<G: Game>(run: &mut Run<G>, db: &PathBuf) -> Fallible {
    let events = run.corpus.first(SINGLE.min(run.corpus.events as usize / 10).max(10));
    let journal = Journal::open(db)?;
    journal.create_session("durable", &super::journal_store::meta::<G>())?;
    let mut samples = Vec::with_capacity(events.len());
    for (seq, e) in events.iter().enumerate() {
        let t = Instant::now();
        journal.append("durable", seq as u64, &[Record::Event(e)])?;
        samples.push(t.elapsed().as_secs_f64());
    }
    let us = median(samples) * 1e6;
    run.raw(format!("postgres single append: median {us:.1} µs over {} appends", events.len()));
    let r = row(
        run,
        "durable append of 1 event (median latency)",
        Unit::Micros,
        us,
        Some(("1", "durable append")),
    );
    run.rows.push(r);
    Ok(())
}

/// Batches of `BATCH`, each one statement and one commit.
fn batched<G: Game>(run: &mut Run<G>, db: &PathBuf) -> Fallible {
    let events = run.corpus.first(BATCHED_EVENTS);
    let journal = Journal::open(db)?;
    journal.create_session("batched", &super::journal_store::meta::<G>())?;
    let start = Instant::now();
    for (i, chunk) in events.chunks(BATCH).enumerate() {
        let records: Vec<Record<&G::Event>> = chunk.iter().map(Record::Event).collect();
        journal.append("batched", (i * BATCH) as u64, &records)?;
    }
    let r = rate(events.len() as u64, start.elapsed().as_secs_f64());
    run.raw(format!("postgres batched append: {r:.0} events/s ({} events)", events.len()));
    let what = format!("durable append, batches of {BATCH} ({} events)", events.len());
    let r = row(run, &what, Unit::Rate, r, Some(("2", "durable append")));
    run.rows.push(r);
    Ok(())
}

/// The corpus copied into the server, then the verify crate over every session (what
/// `arbiter verify SESSION` does for each), best of two.
fn verify_sessions<G: Game>(run: &mut Run<G>, db: &PathBuf) -> Fallible {
    let sled =
        Journal::open_read_only(run.dir.join("corpus-arbiter").join(super::journal_store::JOURNAL_DIR))?;
    let journal = Journal::open(db)?;
    // The schema holds the sessions of the append rows already: the corpus's bytes are
    // what its copy added.
    let url = db.to_str().ok_or("a URL")?;
    let before = arbiter_journal::test_server::table_bytes(url)?;
    let start = Instant::now();
    for (name, _) in &run.corpus.sessions {
        sled.copy_session(name, &journal)?;
    }
    let loaded = start.elapsed().as_secs_f64();
    drop(sled);
    let bytes = arbiter_journal::test_server::table_bytes(url)?.saturating_sub(before);
    run.raw(format!(
        "postgres: the corpus's rows take {bytes} bytes in the tables with their indexes, {:.1} bytes per event",
        bytes as f64 / run.corpus.events as f64
    ));
    let ctx = Context::new(&journal);
    let options = super::verify_options();
    let (mut best, mut records) = (f64::INFINITY, 0);
    for _ in 0..2 {
        let start = Instant::now();
        records = 0;
        for (name, _) in &run.corpus.sessions {
            let report = arbiter_verify::verify(&ctx, &Source::session(name), &options)
                .map_err(|e| format!("verify {name} on PostgreSQL: {e}"))?;
            if !report.is_clean() {
                return Err(format!("verify {name} on PostgreSQL: not clean").into());
            }
            records += report.records;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let sessions = run.corpus.sessions.len();
    run.raw(format!(
        "postgres: corpus of {sessions} sessions copied in {loaded:.1} s (one commit each); verify crate over them: \
         {records} records in {best:.3} s (best of 2), {:.0} µs per session",
        best / sessions as f64 * 1e6
    ));
    let r = row(
        run,
        "`arbiter verify SESSION` path, every session",
        Unit::Rate,
        rate(records, best),
        Some(("3", "`arbiter verify SESSION`")),
    );
    run.rows.push(r);
    Ok(())
}

/// The long session copied into the server with its snapshots, then the state at N from
/// the start and from the nearest snapshot (the worse of N and N - 1), through verify's
/// `replay`; each state is checked against the sled journal's.
fn state_at<G: Game>(run: &mut Run<G>, long: &Long<G>, db: &PathBuf) -> Fallible {
    let journal = Journal::open(db)?;
    let start = Instant::now();
    long.journal.copy_session(PLAIN, &journal)?;
    long.journal.copy_session(SNAPPED, &journal)?;
    let version = super::campaign::Campaign::<G>::info().rules_version;
    let mut at = long.every;
    while at <= long.len {
        if let Some((seq, bytes)) = long.journal.snapshot_before(SNAPPED, at, version)? {
            if seq == at {
                journal.put_snapshot(SNAPPED, at, version, &bytes)?;
            }
        }
        at += long.every;
    }
    run.raw(format!(
        "postgres: long session copied twice with snapshots in {:.1} s",
        start.elapsed().as_secs_f64()
    ));
    let here = Context::with_games(CampaignGames::<G>::default(), Some(&journal));
    let there = Context::with_games(CampaignGames::<G>::default(), Some(&long.journal));
    let replay = |ctx: &Context<'_, CampaignGames<G>>,
                  session: &str,
                  to: u64,
                  times: usize|
     -> Fallible<(String, f64)> {
        let mut samples = Vec::new();
        let mut digest = String::new();
        for _ in 0..times {
            let t = Instant::now();
            let view = arbiter_verify::replay(ctx, &Source::session(session), Some(to), &[])
                .map_err(|e| e.to_string())?;
            samples.push(t.elapsed().as_secs_f64());
            digest = view.state.digest;
        }
        Ok((digest, median(samples)))
    };
    let mut n = 1_000u64;
    while n <= long.len {
        // From the start: three times (one at 10^6, where once takes seconds).
        let (plain, plain_secs) = replay(&here, PLAIN, n, if n < 1_000_000 { 3 } else { 1 })?;
        let (snap_n, n_secs) = replay(&here, SNAPPED, n, 11)?;
        let (snap_w, w_secs) = replay(&here, SNAPPED, n - 1, 11)?;
        let (sled_n, _) = replay(&there, PLAIN, n, 1)?;
        let (sled_w, _) = replay(&there, PLAIN, n - 1, 1)?;
        if plain != sled_n || snap_n != sled_n || snap_w != sled_w {
            return Err(
                format!("the state at {n} read from PostgreSQL differs from the sled journal's").into()
            );
        }
        run.raw(format!(
            "postgres state at {n} (verify::replay): {:.3} ms from the start, {:.3} ms from a snapshot (worst of N, N - 1)",
            plain_secs * 1e3,
            n_secs.max(w_secs) * 1e3
        ));
        let from_start = format!("state at N = {n}, replayed from 0");
        let r = row(run, &from_start, Unit::Millis, plain_secs * 1e3, Some(("5", &from_start)));
        run.rows.push(r);
        let from_snapshot = format!("state at N = {n} or N - 1, from the nearest snapshot (worst)");
        let r = row(run, &from_snapshot, Unit::Millis, n_secs.max(w_secs) * 1e3, Some(("5", &from_snapshot)));
        run.rows.push(r);
        n *= 10;
    }
    Ok(())
}
