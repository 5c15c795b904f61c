//! Section 7's memory half: the peak RSS of replaying the long session from each store,
//! measured in a child process (this binary again, with a hidden command) so that the
//! parent's corpus in memory does not count.

use super::campaign::Campaign;
use super::stores::{self, Kind};
use crate::Fallible;
use arbiter_engine::{dispatch, Findings, Game, GameVisitor};
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// Parent side: run the child on `session` of the store of `kind` in `store_dir` (which the
/// parent must have closed: the journal takes a lock).
pub fn measure(game: &str, kind: Kind, store_dir: &Path, session: &str) -> Fallible<Peak> {
    let exe = std::env::current_exe()?;
    let out = Command::new(exe)
        .arg(CHILD_COMMAND)
        .arg(game)
        .arg(kind.name())
        .arg(store_dir)
        .arg(session)
        .output()?;
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

/// Child side: `__replay-rss GAME KIND STORE_DIR SESSION`, replay the campaign session
/// from that store with the rules and print `start_kib=A peak_kib=B events=N`.
pub fn child(args: &[String]) -> Fallible {
    let [game, kind, dir, session] = args else {
        return Err(format!("usage: xtask {CHILD_COMMAND} GAME KIND STORE_DIR SESSION").into());
    };
    let kind = Kind::from_name(kind).ok_or_else(|| format!("unknown store `{kind}`"))?;
    let start_kib = peak_kib()?;
    let visitor = Child { kind, dir: PathBuf::from(dir), session: session.clone() };
    let events = dispatch(game, visitor).ok_or_else(|| format!("unknown game `{game}`"))??;
    println!("start_kib={start_kib} peak_kib={} events={events}", peak_kib()?);
    Ok(())
}

struct Child {
    kind: Kind,
    dir: PathBuf,
    session: String,
}

impl GameVisitor for Child {
    type Output = Fallible<u64>;

    fn visit<G: Game>(self) -> Fallible<u64> {
        let game = Campaign { inner: super::corpus::default_game::<G>()? };
        let mut store = stores::open::<Campaign<G>>(self.kind, &self.dir)?;
        let mut state = game.initial_state();
        let mut findings = Findings::default();
        let mut violations = 0usize;
        let events = store.scan(&self.session, &mut |e| {
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
