//! `check`: integrity of one session's stored log, without trusting anything it stores.
//!
//! The walk recomputes the chain from the genesis (name and metadata) through every record,
//! and compares: each block's key with the sequence it should start at (a removed block is a
//! gap) and with the sequence in its header (a moved or swapped block is misplaced); each
//! block's stored previous hash and each record's stored tag with the recomputed chain (a
//! changed or reordered record breaks it there); each block's count and last hash with its
//! records; each record's bytes with the event type (undecodable); the end of the log with
//! the head, which is the last block's header (a truncated tail, an extra record, a changed
//! last record, a removed last block); and the retraction index with the `Retract` records
//! actually read.
//! It stops at the first problem: everything after it is suspect anyway.

use crate::block::{self, Records};
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::JournalError;
use crate::journal::{head_of, Journal};
use crate::layout::{key_seq, seq_key};
use crate::record::Record;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;

/// What kind of damage `check` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// A record's bytes do not match its chain link: it was changed, or moved from another
    /// position (records reordered inside a block), or the metadata changed (at record 0).
    HashMismatch,
    /// Records are missing: a block was removed, or the log ends before its head's length.
    Gap,
    /// A block is stored under another block's key (blocks swapped or moved).
    Misplaced,
    /// A record's bytes do not decode as a record of the event type.
    Undecodable,
    /// A block's framing is broken (bad header, a length running past its end).
    Framing,
    /// The log holds more records than its head says (records appended behind its back).
    Extra,
    /// The retraction index disagrees with the `Retract` records in the log.
    Retractions,
}

/// The first problem found, at the first sequence number it affects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub seq: u64,
    pub kind: ProblemKind,
    /// One sentence for people.
    pub message: String,
}

/// The outcome of `Journal::check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    pub session: String,
    /// Records the head says the log holds.
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

impl Journal {
    /// Verify a session's hash chain, sequence numbers, record encodings (as `Record<E>`)
    /// and retraction index. `Err` only when the session cannot be read at all; damage is
    /// reported in the `CheckReport`.
    pub fn check<E: DeserializeOwned>(&self, name: &str) -> Result<CheckReport, JournalError> {
        let entry = self.entry(name)?;
        let id = entry.id;
        let tail_first = self.tail_first(name, id)?;
        let tail = self
            .events
            .get(seq_key(id, tail_first))
            .map_err(|e| JournalError::storage(&format!("checking session `{name}`"), e))?;
        // A last block that is missing or unreadable leaves the length unknown: the walk then
        // holds the records before it to the chain, and names that block.
        let head = head_of(name, tail_first, tail.as_deref());
        let mut walk = Walk {
            name,
            last: chain::genesis(name, &entry.meta)?,
            next: 0,
            end: head.as_ref().map_or(tail_first, |h| h.len),
            retracts: BTreeMap::new(),
        };
        let problem = (|| {
            for item in self.events.range(seq_key(id, 0)..=seq_key(id, u64::MAX)) {
                let (key, value) =
                    item.map_err(|e| JournalError::storage(&format!("checking session `{name}`"), e))?;
                if let Some(p) = walk.block::<E>(&key, &value) {
                    return Ok(Some(p));
                }
            }
            Ok::<_, JournalError>(match &head {
                Ok(head) => walk.finish(&head.last),
                Err(_) => walk.problem(
                    tail_first,
                    ProblemKind::Gap,
                    "missing (the session's last block, which starts here, is gone or unreadable)"
                        .to_string(),
                ),
            })
        })()?;
        let problem = match problem {
            Some(p) => Some(p),
            None => self.compare_retractions(name, &walk.retracts)?,
        };
        Ok(CheckReport {
            session: name.to_string(),
            expected_len: walk.end,
            verified: walk.next,
            hash: walk.last,
            problem,
        })
    }

    fn compare_retractions(
        &self,
        name: &str,
        found: &BTreeMap<u64, u64>,
    ) -> Result<Option<Problem>, JournalError> {
        let indexed: BTreeMap<u64, u64> = self.retractions(name)?.into_iter().collect();
        let first_difference = found
            .iter()
            .find(|(at, target)| indexed.get(at) != Some(target))
            .map(|(at, _)| *at)
            .into_iter()
            .chain(indexed.iter().find(|(at, target)| found.get(at) != Some(target)).map(|(at, _)| *at))
            .min();
        Ok(first_difference.map(|seq| Problem {
            seq,
            kind: ProblemKind::Retractions,
            message: format!(
                "session `{name}`: the retraction index disagrees with record {seq} (log: {:?}, index: {:?})",
                found.get(&seq),
                indexed.get(&seq)
            ),
        }))
    }
}

/// The state of a check walking a session's blocks in key order.
struct Walk<'a> {
    name: &'a str,
    last: Hash,
    next: u64,
    end: u64,
    retracts: BTreeMap<u64, u64>,
}

impl Walk<'_> {
    fn problem(&self, seq: u64, kind: ProblemKind, what: String) -> Option<Problem> {
        Some(Problem { seq, kind, message: format!("session `{}`, record {seq}: {what}", self.name) })
    }

    fn block<E: DeserializeOwned>(&mut self, key: &[u8], value: &[u8]) -> Option<Problem> {
        let next = self.next;
        let Some(at) = key_seq(key) else {
            return self.problem(next, ProblemKind::Framing, "a block key is malformed".to_string());
        };
        if at > next {
            return self.problem(
                next,
                ProblemKind::Gap,
                format!("missing (the next block starts at record {at})"),
            );
        }
        if at < next {
            return self.problem(
                at,
                ProblemKind::Misplaced,
                "a block overlaps the records before it".to_string(),
            );
        }
        let header = match block::header(value) {
            Ok(h) => h,
            Err(e) => return self.problem(at, ProblemKind::Framing, e),
        };
        if header.first_seq != at {
            return self.problem(
                at,
                ProblemKind::Misplaced,
                format!("its block holds records from {} (blocks moved or swapped)", header.first_seq),
            );
        }
        if header.previous != self.last {
            return self.problem(
                at,
                ProblemKind::HashMismatch,
                "the hash its block chains to does not match the records before it".to_string(),
            );
        }
        let plain = match block::plain(value) {
            Ok(p) => p,
            Err(e) => return self.problem(at, ProblemKind::Framing, e),
        };
        let mut records = Records::new(&plain);
        let counted = u64::from(header.count);
        // The hash before the block's last record: a last hash that disagrees is reported at
        // that record, which is then not counted as verified.
        let mut before_last = self.last;
        while let Some(item) = records.next_record() {
            let seq = self.next;
            let (tag, bytes) = match item {
                Ok(r) => r,
                Err(e) => return self.problem(seq, ProblemKind::Framing, e),
            };
            if seq >= self.end {
                let end = self.end;
                return self.problem(seq, ProblemKind::Extra, format!("the log should end at {end} records"));
            }
            let link = chain::link(&self.last, seq, bytes);
            if chain::tag(&link) != tag {
                return self.problem(
                    seq,
                    ProblemKind::HashMismatch,
                    "its bytes do not match its chain link (changed or reordered)".to_string(),
                );
            }
            match codec::decode::<Record<E>>(bytes) {
                Ok(Record::Retract(target)) => {
                    self.retracts.insert(seq, target);
                }
                Ok(Record::Event(_)) => {}
                Err(e) => {
                    return self.problem(seq, ProblemKind::Undecodable, format!("does not decode ({e})"))
                }
            }
            before_last = self.last;
            self.last = link;
            self.next += 1;
        }
        if self.next < at + counted {
            let (next, end) = (self.next, at + counted);
            return self.problem(
                next,
                ProblemKind::Gap,
                format!("missing (its block counts records up to {end})"),
            );
        }
        if self.next > at + counted {
            return self.problem(
                at + counted,
                ProblemKind::Extra,
                format!("its block counts {counted} records but holds more"),
            );
        }
        if header.last != self.last {
            let seq = self.next.saturating_sub(1);
            (self.next, self.last) = (seq, before_last);
            return self.problem(
                seq,
                ProblemKind::HashMismatch,
                "the hash its block ends at does not match its records".to_string(),
            );
        }
        None
    }

    fn finish(&self, head_last: &Hash) -> Option<Problem> {
        if self.next < self.end {
            let end = self.end;
            return self.problem(
                self.next,
                ProblemKind::Gap,
                format!("missing (the log should hold {end} records)"),
            );
        }
        if self.last != *head_last {
            let seq = self.end.saturating_sub(1);
            return self.problem(
                seq,
                ProblemKind::HashMismatch,
                "the chain does not end at the hash its head recorded".to_string(),
            );
        }
        None
    }
}
