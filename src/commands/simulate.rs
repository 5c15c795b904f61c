//! `arbiter simulate`: seeded random legal sessions, stored or written to files.
//!
//! `--games N` plays N games, game i with seed S+i: sessions `NAME-i`, or files `STEM-i.EXT`.
//! Every target is checked before the first is written (a name taken, a file that exists
//! without `--force`), so a refused run writes nothing. A game stops at its end: when that
//! comes before `--events`, the output says so instead of silently giving fewer events
//! (without `--events`, a game is played to its end).

use super::{variants, with_new_journal};
use crate::error::CliError;
use crate::output;
use crate::progress::Progress;
use arbiter_verify::{Context, SimulateInto, Simulated};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the simulated logs go.
pub struct Target<'a> {
    pub into: Option<&'a str>,
    pub out: Option<&'a Path>,
    /// Replace files that exist.
    pub force: bool,
    pub snapshot_every: u64,
}

/// The most games one `simulate` plays: every game's name is made before the first is
/// played, so a number past memory would end in an abort, not a sentence.
const MAX_GAMES: u64 = 1_000_000;

/// Game `i` of `games`'s session name.
fn session_name(name: &str, games: u64, i: u64) -> String {
    if games == 1 {
        name.to_string()
    } else {
        format!("{name}-{i}")
    }
}

/// Game `i` of `games`'s file: `corpus/g.jsonl` -> `corpus/g-3.jsonl`.
fn file_name(path: &Path, games: u64, i: u64) -> PathBuf {
    if games == 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{i}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{i}"),
    };
    path.with_file_name(name)
}

/// Events asked of a simulator for a whole game: far more than any game lasts (a Proving
/// Grounds game is about a hundred), and a bound on a simulator that never ends one.
const WHOLE_GAME: usize = 100_000;

pub fn simulate(
    db: &Path,
    game: &str,
    setup: &[String],
    seed: u64,
    asked: Option<usize>,
    games: u64,
    target: Target<'_>,
) -> Result<ExitCode, CliError> {
    let setup = variants(setup)?;
    let events = asked.unwrap_or(WHOLE_GAME);
    if games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if games > MAX_GAMES {
        return Err(CliError::input(format!("--games must be at most {MAX_GAMES}")));
    }
    // Game i is seeded S+i: a corpus that would run past the largest seed is refused
    // rather than wrapping round to seed 0 (a copy of `--seed 0`'s games).
    if seed.checked_add(games - 1).is_none() {
        return Err(CliError::input(format!(
            "--seed {seed} with --games {games} runs past the largest seed ({}): give a smaller seed",
            u64::MAX
        )));
    }
    let seed_of = |i: u64| seed.wrapping_add(i);
    let progress = Progress::new(games, "simulating");
    let mut done: Vec<Simulated> = Vec::new();
    match (target.into, target.out) {
        (Some(name), None) => with_new_journal(db, |journal| {
            let names: Vec<String> = (0..games).map(|i| session_name(name, games, i)).collect();
            let taken: Vec<String> = journal.sessions()?.into_iter().map(|(n, _)| n).collect();
            if let Some(n) = names.iter().find(|n| taken.contains(n)) {
                return Err(CliError::input(format!(
                    "session `{n}` exists already: nothing was simulated (choose another --into)"
                ))
                .with_kind("session"));
            }
            let ctx = Context::new(journal);
            for (i, session) in (0..games).zip(&names) {
                let into = SimulateInto::Session(session);
                done.push(arbiter_verify::simulate(&ctx, game, &setup, seed_of(i), events, into)?);
                progress.advance(1);
            }
            progress.finish();
            say(&done, asked)?;
            for session in &names {
                super::sessions::snapshots(&ctx, session, target.snapshot_every)?;
            }
            Ok(())
        })?,
        (None, Some(path)) => {
            let paths: Vec<PathBuf> = (0..games).map(|i| file_name(path, games, i)).collect();
            if !target.force {
                if let Some(p) = paths.iter().find(|p| p.exists()) {
                    return Err(CliError::input(format!(
                        "`{}` exists already: nothing was simulated (give --force to replace it)",
                        arbiter_verify::shown(&p.display().to_string())
                    ))
                    .with_kind("io"));
                }
            }
            for (i, p) in (0..games).zip(&paths) {
                let into = SimulateInto::File(p);
                done.push(arbiter_verify::simulate(
                    &Context::files(),
                    game,
                    &setup,
                    seed_of(i),
                    events,
                    into,
                )?);
                progress.advance(1);
            }
            progress.finish();
            say(&done, asked)?;
        }
        _ => return Err(CliError::input("say where the log goes: --into SESSION or --out FILE")),
    }
    Ok(ExitCode::SUCCESS)
}

/// What was simulated: one line a game for one game, a summary for a corpus; and when games
/// ended before `--events`, that they did.
fn say(done: &[Simulated], asked: Option<usize>) -> Result<(), CliError> {
    // Without --events a game runs to its end, which is nothing to warn about.
    let asked = asked.map_or(u64::MAX, |n| n as u64);
    let ended = done.iter().filter(|s| s.events < asked).count();
    let mut text = String::new();
    match done {
        [one] => {
            text.push_str(&one.to_string());
            if one.events < asked && asked != u64::MAX {
                text.push_str(&format!(
                    "the game ended after {} events, before --events {asked}: a log is one game (use --games N for more)\n",
                    one.events
                ));
            }
        }
        [first, .., last] => {
            let events: u64 = done.iter().map(|s| s.events).sum();
            text.push_str(&format!(
                "simulated {} games of {} (seeds {} to {}), {events} events in all, into {} .. {}\n",
                done.len(),
                first.game,
                first.seed,
                last.seed,
                first.into,
                last.into
            ));
            if ended > 0 && asked != u64::MAX {
                text.push_str(&format!(
                    "{ended} of the {} games ended before --events {asked}\n",
                    done.len()
                ));
            }
        }
        [] => {}
    }
    output::print(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_names_number_each_game() {
        assert_eq!(session_name("league", 1, 0), "league");
        assert_eq!(session_name("league", 3, 2), "league-2");
        assert_eq!(file_name(Path::new("corpus/g.jsonl"), 2, 1), Path::new("corpus/g-1.jsonl"));
        assert_eq!(file_name(Path::new("g"), 2, 0), Path::new("g-0"));
        assert_eq!(file_name(Path::new("g.arb"), 1, 0), Path::new("g.arb"));
    }
}
