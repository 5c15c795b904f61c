//! Section 7's memory half: the peak RSS of replaying the long session, measured in a child
//! process (this binary again, with a hidden command) so that the parent's corpus in memory
//! does not count.

use crate::Fallible;

/// The hidden command the parent spawns.
pub const CHILD_COMMAND: &str = "__replay-rss";

/// The peak resident set size of this process so far, in KiB (`VmHWM`).
pub fn peak_kib() -> Fallible<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).ok_or("no VmHWM in /proc/self/status")?;
    let kib = line.split_whitespace().nth(1).ok_or("malformed VmHWM line")?;
    Ok(kib.parse()?)
}

/// The child: replay one journal session and print `peak_kib=N events=M`.
pub fn child(_args: &[String]) -> Fallible {
    Err("the replay-RSS child needs the journal API, which has not landed yet".into())
}
