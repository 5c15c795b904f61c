//! Section 8: log files, the way users keep sessions outside a database. A file is a
//! stream: replaying one must keep memory flat in its length (peak RSS of replaying a
//! 10^7-event `.arb` and `.jsonl` file, in a child process), and a `diff` of two files that
//! split early must answer in under 10 ms (two 10^6-event files changed at record 10). It
//! parses nothing past the split, but a retraction anywhere later can withdraw the record
//! where the files split, so the first diff of a file reads the rest of its bytes (a
//! reference row times that, and another reading the bytes alone, the floor this machine
//! sets for it); it remembers the answer in the retraction cache, as `arbiter` does, and a
//! later diff of the unchanged files reads only up to the split: the row with the target.
//!
//! The files hold a campaign (see `campaign`): the game's simulated games back to back,
//! written one game at a time, so the parent never holds a 10^7-event log either. Both
//! formats are read through the verify crate, as `arbiter replay FILE` and `arbiter diff A B`
//! run them.

use super::campaign::{Campaign, CampaignEvent, CampaignGames};
use super::measure::median;
use super::report::{Row, Unit};
use super::rss;
use super::Run;
use crate::Fallible;
use arbiter_engine::Game;
use arbiter_verify::{
    header_to_json, header_to_notation, Context, DiffOptions, Header, RetractionCache, Source,
};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// The record the diff's second file changes.
pub const SPLIT_AT: u64 = 10;
/// Timed diffs per format; the median counts.
const DIFFS: usize = 11;

/// The two formats, by extension.
const FORMATS: [&str; 2] = ["arb", "jsonl"];

pub fn measure<G: Game>(run: &mut Run<G>) -> Fallible {
    let inner = run.corpus.game.clone();
    let dir = run.dir.join("files");
    std::fs::create_dir_all(&dir)?;

    // Peak memory of replaying one long file of each format, one at a time (a 10^7-event
    // JSONL file is about a gigabyte).
    let n = run.opts.file_events;
    for ext in FORMATS {
        let path = dir.join(format!("long.{ext}"));
        let start = Instant::now();
        let bytes = write_campaign(&inner, n, &path, None)?;
        let written = start.elapsed().as_secs_f64();
        let mut row = Row::new("8", format!("peak RSS replaying a {n}-event .{ext} file"), Unit::MiB);
        let peak = match run.opts.rss_child {
            true => rss::measure(G::info().id, &rss::Replay::File(path.clone())),
            false => Err("not measured: no child process in this run".into()),
        };
        match peak {
            Ok(peak) if peak.events == n => {
                run.raw(format!(
                    "replay RSS of {}: a {bytes}-byte .{ext} file (written in {written:.1} s), VmHWM {} KiB at \
                     start, {} KiB after replaying {} records (child process, verify::replay)",
                    path.display(),
                    peak.start_kib,
                    peak.peak_kib,
                    peak.events
                ));
                let mib = peak.peak_kib as f64 / 1024.0;
                row = row.arbiter(mib).target("< 50 MB", peak.peak_kib * 1024 < 50_000_000);
            }
            Ok(peak) => {
                row = row.note(format!("the child replayed {} records of {n}", peak.events));
            }
            Err(e) => row = row.note(e.to_string()),
        }
        run.rows.push(row);
        std::fs::remove_file(&path)?;
    }

    // An early split: two files of the corpus's length, the second changed at SPLIT_AT.
    let len = run.opts.events;
    let cache = dir.join("retraction-cache");
    let first = Context::with_games(CampaignGames::<G>::default(), None);
    let again = Context::with_games(CampaignGames::<G>::default(), None)
        .with_retraction_cache(Some(RetractionCache::at(&cache)));
    for ext in FORMATS {
        let a = dir.join(format!("plain.{ext}"));
        let b = dir.join(format!("split.{ext}"));
        write_campaign(&inner, len, &a, None)?;
        write_campaign(&inner, len, &b, Some(SPLIT_AT))?;
        let written = Instant::now();
        let mut floor = Row::new(
            "8",
            format!("reference: read the bytes of two {len}-event .{ext} files side by side"),
            Unit::Millis,
        );
        let mut cold = Row::new(
            "8",
            format!("reference: first diff of two {len}-event .{ext} files splitting at {SPLIT_AT} (every byte read)"),
            Unit::Millis,
        );
        let mut row = Row::new(
            "8",
            format!("diff of two {len}-event .{ext} files splitting at {SPLIT_AT} (diffed before: retraction cache)"),
            Unit::Millis,
        );
        match prime_cache(&again, written, &a, &b).and_then(|()| timed_diff(&first, &again, &a, &b)) {
            Ok(timed) => {
                run.raw(format!(
                    "diff of two {len}-event .{ext} files splitting at {SPLIT_AT}: median {:.3} ms of {DIFFS} \
                     with the retraction cache's entries for both (verify::diff; entries written by an \
                     untimed diff once the files were {} s old), {:.3} ms without (every byte read); \
                     reading the two files' {} bytes alone, side by side, median {:.3} ms (the three \
                     interleaved)",
                    timed.again * 1e3,
                    RetractionCache::SETTLED.as_secs(),
                    timed.first * 1e3,
                    timed.bytes,
                    timed.read * 1e3
                ));
                floor = floor.arbiter(timed.read * 1e3);
                cold = cold.arbiter(timed.first * 1e3);
                row = row.arbiter(timed.again * 1e3).target("< 10 ms", timed.again < 0.010);
            }
            Err(e) => row = row.note(e.to_string()),
        }
        run.rows.push(floor);
        run.rows.push(cold);
        run.rows.push(row);
        std::fs::remove_file(&a)?;
        std::fs::remove_file(&b)?;
    }
    let _ = std::fs::remove_dir_all(&cache);
    Ok(())
}

/// What [`timed_diff`] measured: medians in seconds.
struct TimedDiff {
    /// `verify::diff` of the two files with no retraction cache: each reads every byte.
    first: f64,
    /// `verify::diff` of the two files with the cache's entries for both, as `arbiter diff`
    /// of files it has read before.
    again: f64,
    /// Reading both files' bytes, one thread each, and nothing else: the floor of any diff
    /// that has to see every byte (a retraction anywhere later can withdraw the record where
    /// the files split, see docs/notation/README.md), set by this machine's memory bandwidth.
    read: f64,
    /// The two files' sizes together.
    bytes: u64,
}

/// Have `ctx`'s retraction cache hold entries for `a` and `b`, as `arbiter diff` leaves
/// them: one untimed diff once the files (written at `written`) are old enough for the cache
/// to keep them; checked to be there. Files shorter than the cache keeps (a small corpus'
/// files, in tests) are left as they are: every diff of them reads every byte.
fn prime_cache<G: Game>(
    ctx: &Context<'_, CampaignGames<G>>,
    written: Instant,
    a: &Path,
    b: &Path,
) -> Fallible {
    let len = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    if len(a).min(len(b)) < RetractionCache::MIN_LEN {
        return Ok(());
    }
    // A little past the cache's own margin, measured from after the second file's last write.
    let settled = RetractionCache::SETTLED + std::time::Duration::from_millis(100);
    std::thread::sleep(settled.saturating_sub(written.elapsed()));
    timed_split(ctx, a, b)?;
    let dir = ctx.retraction_cache.as_ref().ok_or("no retraction cache")?.dir();
    let entries = std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
    if entries < 2 {
        return Err(format!("the retraction cache kept {entries} entries for the two files, not 2").into());
    }
    Ok(())
}

/// The time of one `verify::diff` of `a` and `b`, checked to split at `SPLIT_AT`.
fn timed_split<G: Game>(ctx: &Context<'_, CampaignGames<G>>, a: &Path, b: &Path) -> Fallible<f64> {
    let start = Instant::now();
    let report = arbiter_verify::diff(ctx, &Source::file(a), &Source::file(b), &DiffOptions::default())?;
    let took = start.elapsed().as_secs_f64();
    let split = report.divergences.first().and_then(|d| d.a.as_ref()).map(|r| r.index);
    if split != Some(SPLIT_AT) {
        return Err(format!("verify's diff of the files split at {split:?}, not at {SPLIT_AT}").into());
    }
    Ok(took)
}

/// The median times of `verify::diff` of `a` and `b` under `first` (no retraction cache)
/// and `again` (its cache primed by [`prime_cache`]), and of reading their bytes alone; the
/// three are timed in turns so that a neighbour's burst on the shared machine lands on all.
fn timed_diff<G: Game>(
    first: &Context<'_, CampaignGames<G>>,
    again: &Context<'_, CampaignGames<G>>,
    a: &Path,
    b: &Path,
) -> Fallible<TimedDiff> {
    let (mut firsts, mut agains, mut reads) =
        (Vec::with_capacity(DIFFS), Vec::with_capacity(DIFFS), Vec::with_capacity(DIFFS));
    let mut bytes = 0;
    for _ in 0..DIFFS {
        let start = Instant::now();
        bytes = read_both(a, b)?;
        reads.push(start.elapsed().as_secs_f64());
        firsts.push(timed_split(first, a, b)?);
        agains.push(timed_split(again, a, b)?);
    }
    Ok(TimedDiff { first: median(firsts), again: median(agains), read: median(reads), bytes })
}

/// Read the bytes of two files side by side, a thread each, as the diff's scan for
/// retractions does; returns their sizes together.
pub(super) fn read_both(a: &Path, b: &Path) -> std::io::Result<u64> {
    std::thread::scope(|scope| {
        let other = scope.spawn(|| read_all(b));
        Ok(read_all(a)?
            + other.join().map_err(|_| std::io::Error::other("the reading thread panicked"))??)
    })
}

/// Read a file to its end in chunks the size the verify crate's byte search uses, keeping
/// nothing: the bytes' copy out of the page cache alone.
fn read_all(path: &Path) -> std::io::Result<u64> {
    use std::io::Read;
    let mut file = File::open(path)?;
    let mut buf = vec![0u8; 1 << 17];
    let mut total = 0;
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => total += n as u64,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Write a campaign of `events` records of `inner` to `path` (JSONL for `.jsonl`, notation
/// otherwise), a game at a time; with `change_at`, the record there is replaced by an
/// earlier record that differs from it. Returns the bytes written.
pub fn write_campaign<G: Game>(inner: &G, events: u64, path: &Path, change_at: Option<u64>) -> Fallible<u64> {
    let jsonl = path.extension().is_some_and(|e| e == "jsonl");
    let header = Header { game: Campaign::<G>::info().id.to_string(), ..Header::default() };
    let mut out = Counting { inner: BufWriter::with_capacity(1 << 20, File::create(path)?), bytes: 0 };
    if jsonl {
        writeln!(out, "{}", header_to_json(&header))?;
    } else {
        write!(out, "{}", header_to_notation(&header))?;
    }
    // The records before `change_at`, to find one that differs from the record there.
    let mut before: Vec<CampaignEvent<G::Event>> = Vec::new();
    let mut written = 0u64;
    let mut seed = 1u64;
    while written < events {
        let mut game: Vec<CampaignEvent<G::Event>> = Vec::new();
        if written > 0 {
            game.push(CampaignEvent::NextGame);
        }
        let played = inner.simulate(seed, (events - written) as usize).ok_or("the game has no simulator")?;
        if played.is_empty() {
            return Err(format!("the simulator of `{}` played no event for seed {seed}", G::info().id).into());
        }
        game.extend(played.into_iter().map(CampaignEvent::Play));
        for e in game {
            if written == events {
                break;
            }
            let e = match change_at {
                Some(at) if written == at => {
                    before.iter().find(|b| **b != e).cloned().ok_or("no earlier record differs from it")?
                }
                Some(at) if written < at => {
                    before.push(e.clone());
                    e
                }
                _ => e,
            };
            if jsonl {
                out.write_all(b"{\"event\":")?;
                serde_json::to_writer(&mut out, &e)?;
                out.write_all(b"}\n")?;
            } else {
                writeln!(out, "{e}")?;
            }
            written += 1;
        }
        seed += 1;
    }
    out.flush()?;
    Ok(out.bytes)
}

/// A writer that counts what goes through it.
struct Counting<W: Write> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::corpus::default_game;
    use arbiter_engine::proving_grounds::ProvingGrounds;

    /// Both formats are read back by the verify crate as the same legal campaign, and the
    /// changed copy splits where it was changed.
    #[test]
    fn campaign_files_replay_clean_and_the_changed_copy_splits_there() {
        let game = default_game::<ProvingGrounds>().unwrap_or_else(|e| panic!("{e}"));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let ctx = Context::with_games(CampaignGames::<ProvingGrounds>::default(), None);
        for ext in FORMATS {
            let (a, b) = (dir.path().join(format!("a.{ext}")), dir.path().join(format!("b.{ext}")));
            assert!(write_campaign(&game, 3_000, &a, None).unwrap_or_else(|e| panic!("{e}")) > 3_000);
            write_campaign(&game, 3_000, &b, Some(SPLIT_AT)).unwrap_or_else(|e| panic!("{e}"));
            let report =
                arbiter_verify::replay(&ctx, &Source::file(&a), None, &[]).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((report.replayed, report.violations.len()), (3_000, 0), "{ext}");
            // Short files, which the retraction cache never keeps: both diffs read every byte.
            let timed = timed_diff(&ctx, &ctx, &a, &b).unwrap_or_else(|e| panic!("{e}"));
            assert!(timed.first > 0.0 && timed.again > 0.0 && timed.read > 0.0, "{ext}");
            let sizes = std::fs::metadata(&a).map(|m| m.len()).unwrap_or(0)
                + std::fs::metadata(&b).map(|m| m.len()).unwrap_or(0);
            assert_eq!(timed.bytes, sizes, "{ext}");
        }
    }
}
