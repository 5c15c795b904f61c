//! Walking a session's pages: each record's link recomputed from the one before it and
//! held to the tag stored beside it, each page's stored hashes held to its records, each
//! page to the one before it, and the last one to the head. Reads (`events`) and `check`
//! share this walk, so both find the same damage at the same record.
//!
//! A page is verified whole before any of its records is used: a changed record whose
//! 2-byte tag happens to match (one in 65,536) is still caught by the full hash the page
//! ends at, before a reader sees it.
//!
//! The cost is one SHA-256 compression per record (SHA-NI makes it about 60 ns): the chain
//! cannot be checked more cheaply than recomputed, and everything else (the stored hashes
//! around a page, the sequence numbers) is a comparison.

use crate::chain::{self, Hash};
use crate::error::JournalError;
use crate::problem::{Problem, ProblemKind};
use crate::store::{Head, Page, Scan, ScanError};

/// Where a walk is.
pub(crate) struct Walk {
    pub name: String,
    /// The next sequence number expected.
    pub next: u64,
    /// The chain hash after the records before `next`.
    pub last: Hash,
    /// Whether `next` and `last` are known: from the genesis, or from an earlier page. A read
    /// that starts in the middle of a log takes them from its first page, the only hashes
    /// there are to start from without reading everything before it.
    anchored: bool,
    /// Records at or past this sequence number are `Extra`; `None` for no bound.
    end: Option<u64>,
}

impl Walk {
    /// A walk from the start of a log, whose chain starts at `genesis`.
    pub fn from_genesis(name: &str, genesis: Hash, end: Option<u64>) -> Walk {
        Walk { name: name.to_string(), next: 0, last: genesis, anchored: true, end }
    }

    /// A walk that starts at its first page, wherever that is.
    pub fn from_first_page(name: &str) -> Walk {
        Walk { name: name.to_string(), next: 0, last: [0; 32], anchored: false, end: None }
    }

    /// A problem at `seq`, in the words `check` and reads both use.
    pub fn problem(&self, seq: u64, kind: ProblemKind, what: impl Into<String>) -> Problem {
        Problem { seq, kind, message: format!("session `{}`, record {seq}: {}", self.name, what.into()) }
    }

    /// A page the backend could not read, stored under `at` (when it can tell): a gap or an
    /// overlap if that is not where the walk is, else the damage it reported.
    pub fn damage(&self, at: Option<u64>, kind: ProblemKind, what: String) -> Problem {
        match at {
            Some(at) => self.placed(at).err().unwrap_or_else(|| self.problem(at, kind, what)),
            None => self.problem(self.next, kind, what),
        }
    }

    /// Whether a page starting at `first` is where the walk is.
    fn placed(&self, first: u64) -> Result<(), Problem> {
        if !self.anchored || first == self.next {
            Ok(())
        } else if first > self.next {
            Err(self.problem(
                self.next,
                ProblemKind::Gap,
                format!("missing (the next block starts at record {first})"),
            ))
        } else {
            Err(self.problem(first, ProblemKind::Misplaced, "a block overlaps the records before it"))
        }
    }

    /// Verify one page and move past it. `each(seq, bytes)` sees every record whose link
    /// checked, in order, and may report a problem of its own (a record that does not
    /// decode). On a problem the walk stays before the record it names.
    pub fn page(
        &mut self,
        page: &Page,
        mut each: impl FnMut(u64, &[u8]) -> Result<(), Problem>,
    ) -> Result<(), Problem> {
        self.placed(page.first)?;
        if !self.anchored {
            (self.next, self.last, self.anchored) = (page.first, page.before, true);
        }
        if page.before != self.last {
            return Err(self.problem(
                page.first,
                ProblemKind::HashMismatch,
                "the hash its block chains to does not match the records before it",
            ));
        }
        // The hash before the page's last record: a page whose stored end disagrees is
        // reported at that record, which then does not count as verified.
        let mut before_last = self.last;
        for (i, span) in page.spans.iter().enumerate() {
            let seq = self.next;
            if let Some(end) = self.end.filter(|&end| seq >= end) {
                return Err(self.problem(
                    seq,
                    ProblemKind::Extra,
                    format!("the log should end at {end} records"),
                ));
            }
            let bytes = page.record(i);
            let link = chain::link(&self.last, seq, bytes);
            if chain::tag(&link) != span.tag || page.links.get(i).is_some_and(|stored| *stored != link) {
                return Err(self.problem(
                    seq,
                    ProblemKind::HashMismatch,
                    "its bytes do not match its chain link (changed or reordered)",
                ));
            }
            each(seq, bytes)?;
            before_last = self.last;
            self.last = link;
            self.next += 1;
        }
        if let Some(broken) = &page.broken {
            return Err(self.problem(self.next, ProblemKind::Framing, broken.clone()));
        }
        let held = page.spans.len() as u64;
        if held < page.count {
            let end = page.first + page.count;
            return Err(self.problem(
                self.next,
                ProblemKind::Gap,
                format!("missing (its block counts records up to {end})"),
            ));
        }
        if held > page.count {
            let count = page.count;
            return Err(self.problem(
                page.first + count,
                ProblemKind::Extra,
                format!("its block counts {count} records but holds more"),
            ));
        }
        if page.after != self.last {
            let seq = self.next.saturating_sub(1);
            (self.next, self.last) = (seq.max(page.first), before_last);
            return Err(self.problem(
                seq,
                ProblemKind::HashMismatch,
                "the hash its block ends at does not match its records",
            ));
        }
        Ok(())
    }

    /// After the last page: the walk must have reached the head, at its hash.
    pub fn finish(&self, head: &Head) -> Result<(), Problem> {
        if self.next < head.len {
            let len = head.len;
            return Err(self.problem(
                self.next,
                ProblemKind::Gap,
                format!("missing (the log should hold {len} records)"),
            ));
        }
        if self.last != head.last {
            return Err(self.problem(
                head.len.saturating_sub(1),
                ProblemKind::HashMismatch,
                "the chain does not end at the hash its head recorded",
            ));
        }
        Ok(())
    }
}

/// The chain hash after the first `n` records (`n` at least 1) of a session, from a scan
/// that starts at the page holding record `n - 1`. That page is verified whole on the way.
pub(crate) fn hash_after(name: &str, scan: &mut dyn Scan, n: u64) -> Result<Hash, JournalError> {
    let target = n.saturating_sub(1);
    let mut page = Page::default();
    let mut walk = Walk::from_first_page(name);
    let missing =
        || Walk::from_first_page(name).problem(target, ProblemKind::Gap, "missing").into_error(name);
    match scan.next_page(&mut page) {
        Ok(true) => {}
        Ok(false) => return Err(missing()),
        Err(ScanError::Storage(e)) => return Err(e),
        Err(ScanError::Damage { at, kind, what }) => {
            return Err(walk.damage(at, kind, what).into_error(name))
        }
    }
    walk.page(&page, |_, _| Ok(())).map_err(|p| p.into_error(name))?;
    if target < page.first || target >= walk.next {
        return Err(missing());
    }
    let mut last = page.before;
    for (i, seq) in (page.first..n).enumerate() {
        last = chain::link(&last, seq, page.record(i));
    }
    Ok(last)
}
