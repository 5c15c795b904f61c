//! `check`: integrity of one session's stored log, without trusting anything it stores.
//!
//! The walk (`walk`) recomputes the chain from the genesis (name and metadata) through every
//! record and compares: each page's place with the sequence it should start at (a removed
//! block is a gap, an overlapping or moved one misplaced); each page's stored hashes and
//! each record's stored tag with the recomputed chain (a changed or reordered record breaks
//! it there); each page's count with its records; each record's bytes with the event type
//! (undecodable); the end of the log with the head (a truncated tail, an extra record, a
//! changed last record, a removed last block); the head with what the store acknowledged
//! (records its data file lost); and the retraction index with the `Retract` records
//! actually read. It stops at the first problem: everything after it is suspect anyway.

use crate::chain::{self, Hash};
use crate::codec;
use crate::error::JournalError;
use crate::problem::{Problem, ProblemKind};
use crate::record::Record;
use crate::store::{Found, HeadClaim, Page, ScanError, Store};
use crate::walk::Walk;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;

/// The outcome of `Journal::check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    pub session: String,
    /// Records the head says the log holds (what was acknowledged, when records were lost).
    pub expected_len: u64,
    /// Records read and verified before the first problem (all of them when clean).
    pub verified: u64,
    /// The recomputed chain hash after the verified records.
    pub hash: Hash,
    /// The first problem, `None` when the log is intact.
    pub problem: Option<Problem>,
}

impl CheckReport {
    pub fn is_ok(&self) -> bool {
        self.problem.is_none()
    }
}

/// Verify a session's hash chain, sequence numbers, record encodings (as `Record<E>`),
/// head and retraction index. `Err` only when the session cannot be read at all.
pub(crate) fn check<E: DeserializeOwned>(
    store: &dyn Store,
    name: &str,
    found: &Found,
) -> Result<CheckReport, JournalError> {
    let claim = store.head(name, found.id)?;
    let (end, expected_len) = match &claim {
        HeadClaim::Known(head) => (head.len, head.len),
        HeadClaim::Unreadable { from, .. } => (*from, *from),
        HeadClaim::Lost(loss) => (loss.holds, loss.expected),
    };
    let mut walk = Walk::from_genesis(name, chain::genesis(name, &found.meta)?, Some(end));
    let mut retracts = BTreeMap::new();
    let mut scan = store.scan(name, found.id, 0)?;
    let mut page = Page::default();
    let mut problem = None;
    while problem.is_none() {
        match scan.next_page(&mut page) {
            Ok(true) => {}
            Ok(false) => break,
            Err(ScanError::Storage(e)) => return Err(e),
            Err(ScanError::Damage { at, kind, what }) => {
                problem = Some(walk.damage(at, kind, what));
                break;
            }
        }
        let each = |seq: u64, bytes: &[u8]| match codec::decode::<Record<E>>(bytes) {
            Ok(Record::Retract(target)) => {
                retracts.insert(seq, target);
                Ok(())
            }
            Ok(Record::Event(_)) => Ok(()),
            Err(e) => Err(Walk::from_first_page(name).problem(
                seq,
                ProblemKind::Undecodable,
                format!("does not decode ({e})"),
            )),
        };
        problem = walk.page(&page, each).err();
    }
    let problem = match problem {
        Some(p) => Some(p),
        None => match &claim {
            HeadClaim::Known(head) => walk.finish(head).err(),
            HeadClaim::Unreadable { from, .. } => Some(walk.problem(
                *from,
                ProblemKind::Gap,
                "missing (the session's last block, which starts here, is gone or unreadable)",
            )),
            HeadClaim::Lost(loss) => {
                Some(Problem { seq: loss.holds, kind: ProblemKind::Gap, message: loss.message.clone() })
            }
        },
    };
    let problem = match problem {
        Some(p) => Some(p),
        None => compare_retractions(name, &retracts, store.retractions(name, found.id)?),
    };
    Ok(CheckReport { session: name.to_string(), expected_len, verified: walk.next, hash: walk.last, problem })
}

fn compare_retractions(name: &str, found: &BTreeMap<u64, u64>, indexed: Vec<(u64, u64)>) -> Option<Problem> {
    let indexed: BTreeMap<u64, u64> = indexed.into_iter().collect();
    let first_difference = found
        .iter()
        .find(|(at, target)| indexed.get(at) != Some(target))
        .map(|(at, _)| *at)
        .into_iter()
        .chain(indexed.iter().find(|(at, target)| found.get(at) != Some(target)).map(|(at, _)| *at))
        .min();
    first_difference.map(|seq| Problem {
        seq,
        kind: ProblemKind::Retractions,
        message: format!(
            "session `{name}`: the retraction index disagrees with record {seq} (log: {:?}, index: {:?})",
            found.get(&seq),
            indexed.get(&seq)
        ),
    })
}

/// Walk a session's chain from the genesis, verifying every page, up to `n` records (its
/// whole length when `None`): the records walked and the chain hash after them. Unlike the
/// hashes a store keeps, this is recomputed from the records alone. Damage is an error
/// naming the first broken record.
pub(crate) fn chain_after(
    store: &dyn Store,
    name: &str,
    found: &Found,
    n: Option<u64>,
) -> Result<(u64, Hash), JournalError> {
    let head = match store.head(name, found.id)? {
        HeadClaim::Known(head) => head,
        HeadClaim::Unreadable { from, what } => {
            return Err(JournalError::new(crate::error::ErrorKind::Corrupt, what).in_session(name).at(from))
        }
        HeadClaim::Lost(loss) => {
            return Err(JournalError::new(crate::error::ErrorKind::Lost, loss.message).in_session(name))
        }
    };
    let upto = n.unwrap_or(head.len).min(head.len);
    let mut walk = Walk::from_genesis(name, chain::genesis(name, &found.meta)?, Some(head.len));
    let mut hashes = (0, walk.last);
    let mut scan = store.scan(name, found.id, 0)?;
    let mut page = Page::default();
    while walk.next < upto {
        match scan.next_page(&mut page) {
            Ok(true) => {}
            Ok(false) => break,
            Err(ScanError::Storage(e)) => return Err(e),
            Err(ScanError::Damage { at, kind, what }) => {
                return Err(walk.damage(at, kind, what).into_error(name))
            }
        }
        walk.page(&page, |_, _| Ok(())).map_err(|p| p.into_error(name))?;
        if walk.next == upto {
            hashes = (upto, walk.last);
        } else if page.first < upto && upto < walk.next {
            // The hash after `upto` records is inside this (verified) page.
            let mut last = page.before;
            for (i, seq) in (page.first..upto).enumerate() {
                last = chain::link(&last, seq, page.record(i));
            }
            hashes = (upto, last);
        }
    }
    if upto == 0 {
        return Ok(hashes);
    }
    if hashes.0 != upto {
        let what = format!("missing (the log should hold {} records)", head.len);
        return Err(walk.problem(walk.next, ProblemKind::Gap, what).into_error(name));
    }
    Ok(hashes)
}
