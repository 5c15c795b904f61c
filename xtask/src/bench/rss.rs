//! The peak RSS rows: replaying the long session from each store (section 7) and replaying
//! a long log file (section 8), each measured in a child process (this binary again, with a
//! hidden command) so that the parent's corpus in memory does not count.

use super::campaign::{Campaign, CampaignGames};
use super::stores::{self, Kind};
use crate::Fallible;
use arbiter_engine::{dispatch, Findings, Game, GameVisitor};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the child replays.
#[derive(Debug, Clone)]
pub enum Replay {
    /// The campaign session `session` of the store of this kind in this directory (which
    /// the parent must have closed: the journal takes a lock).
    Store(Kind, PathBuf, String),
    /// A campaign log file (notation or JSONL), through the verify crate's `replay`, as
    /// `arbiter replay FILE` runs it.
    File(PathBuf),
}

/// The hidden command the parent spawns.
pub const CHILD_COMMAND: &str = "__replay-rss";

/// What the child reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    /// VmHWM before opening the store: the binary and its allocator, not the replay.
    pub start_kib: u64,
    /// VmHWM after replaying every record.
    pub peak_kib: u64,
    pub events: u64,
}

/// The peak resident set size of this process so far, in KiB (`VmHWM`).
pub fn peak_kib() -> Fallible<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).ok_or("no VmHWM in /proc/self/status")?;
    let kib = line.split_whitespace().nth(1).ok_or("malformed VmHWM line")?;
    Ok(kib.parse()?)
}

/// Parent side: run the child on `what`, a replay of a campaign of `game`.
pub fn measure(game: &str, what: &Replay) -> Fallible<Peak> {
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.arg(CHILD_COMMAND).arg(game);
    match what {
        Replay::Store(kind, dir, session) => cmd.arg("store").arg(kind.name()).arg(dir).arg(session),
        Replay::File(path) => cmd.arg("file").arg(path),
    };
    let out = cmd.output()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(
            format!("the replay child failed: {}", String::from_utf8_lossy(&out.stderr).trim()).into()
        );
    }
    parse(&stdout).ok_or_else(|| format!("the replay child printed `{}`", stdout.trim()).into())
}

fn parse(line: &str) -> Option<Peak> {
    let mut peak = Peak { start_kib: 0, peak_kib: 0, events: 0 };
    for word in line.split_whitespace() {
        let (k, v) = word.split_once('=')?;
        let v: u64 = v.parse().ok()?;
        match k {
            "start_kib" => peak.start_kib = v,
            "peak_kib" => peak.peak_kib = v,
            "events" => peak.events = v,
            _ => return None,
        }
    }
    (peak.peak_kib > 0).then_some(peak)
}

/// Child side: `__replay-rss GAME store KIND STORE_DIR SESSION` or `__replay-rss GAME file
/// PATH`: replay the campaign with the rules and print `start_kib=A peak_kib=B events=N`.
pub fn child(args: &[String]) -> Fallible {
    let (game, what) = match args {
        [game, how, kind, dir, session] if how == "store" => {
            let kind = Kind::from_name(kind).ok_or_else(|| format!("unknown store `{kind}`"))?;
            (game, Replay::Store(kind, PathBuf::from(dir), session.clone()))
        }
        [game, how, path] if how == "file" => (game, Replay::File(PathBuf::from(path))),
        _ => {
            return Err(format!(
                "usage: xtask {CHILD_COMMAND} GAME store KIND STORE_DIR SESSION | GAME file PATH"
            )
            .into())
        }
    };
    let start_kib = peak_kib()?;
    let events = dispatch(game, Child { what }).ok_or_else(|| format!("unknown game `{game}`"))??;
    println!("start_kib={start_kib} peak_kib={} events={events}", peak_kib()?);
    Ok(())
}

struct Child {
    what: Replay,
}

impl GameVisitor for Child {
    type Output = Fallible<u64>;

    fn visit<G: Game>(self) -> Fallible<u64> {
        match self.what {
            Replay::Store(kind, dir, session) => replay_store::<G>(kind, &dir, &session),
            Replay::File(path) => replay_file::<G>(&path),
        }
    }
}

fn replay_store<G: Game>(kind: Kind, dir: &Path, session: &str) -> Fallible<u64> {
    let game = Campaign { inner: super::corpus::default_game::<G>()? };
    let mut store = stores::open::<Campaign<G>>(kind, dir)?;
    let mut state = game.initial_state();
    let mut findings = Findings::default();
    let mut violations = 0usize;
    let events = store.scan(session, &mut |e| {
        findings.clear();
        game.step(&mut state, &e, &mut findings)?;
        violations += findings.violations.len();
        Ok(())
    })?;
    std::hint::black_box(&state);
    if violations > 0 {
        return Err(format!("the campaign replayed with {violations} violations").into());
    }
    Ok(events)
}

fn replay_file<G: Game>(path: &Path) -> Fallible<u64> {
    let ctx = arbiter_verify::Context::with_games(CampaignGames::<G>::default(), None);
    let report = arbiter_verify::replay(&ctx, &arbiter_verify::Source::file(path), None, &[])
        .map_err(|e| format!("replay {}: {e}", path.display()))?;
    if !report.violations.is_empty() || report.error.is_some() {
        return Err(format!("the campaign file {} does not replay clean", path.display()).into());
    }
    Ok(report.replayed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_child_line_and_refuses_anything_else() {
        let p = parse("start_kib=2000 peak_kib=9000 events=42\n");
        assert_eq!(p, Some(Peak { start_kib: 2000, peak_kib: 9000, events: 42 }));
        assert_eq!(parse("peak_kib=x"), None);
        assert_eq!(parse("error"), None);
        assert!(peak_kib().is_ok_and(|k| k > 0));
    }
}
