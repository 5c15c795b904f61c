//! Reading a session back: the streaming, typed record iterator, verified as it reads.
//!
//! **Invariant:** a record is handed out only once the page holding it has been verified
//! whole (`walk`): every link recomputed and held to its stored tag, the page's stored
//! hashes held to its records and to the page before it. A changed record is an error
//! naming it, never a silently different record. Every `Retract` record read is held to
//! the retraction index (which replay skips records by), and the index to them.

use crate::chain::Hash;
use crate::codec;
use crate::error::JournalError;
use crate::meta::SessionMeta;
use crate::problem::ProblemKind;
use crate::record::Record;
use crate::store::{Page, Scan, ScanError};
use crate::walk::Walk;
use serde::de::DeserializeOwned;
use std::collections::VecDeque;
use std::marker::PhantomData;

/// How many records are decoded at a time, ahead of the reader. A reader that steps each
/// record through a game's rules runs far more code per record than the decoder does;
/// decoded one at a time, the two evicted each other's instructions from the processor's
/// caches at every record. Decoded a batch at a time, Wild Assent's `arbiter verify SESSION`
/// went from 1.52-1.53x the bare scan's time to 1.47-1.49x (docs/PERFORMANCE.md, running
/// log, 2026-12-05). 256 records of any game's events are a few tens of kilobytes.
const AHEAD: usize = 256;

/// What replaying a session needs, read in one call: see `Journal::read_session`.
pub struct SessionReader<E> {
    /// The session's metadata.
    pub meta: SessionMeta,
    /// Every retraction in log order: `(sequence of the Retract record, sequence it retracts)`.
    pub retractions: Vec<(u64, u64)>,
    /// The records from the sequence asked for.
    pub events: Events<E>,
}

/// A session's records in order, decoded one at a time: `(sequence, record)`.
pub struct Events<E> {
    session: String,
    scan: Option<Box<dyn Scan>>,
    page: Page,
    /// The next record of `page` to hand out (all of it is verified).
    next: usize,
    walk: Walk,
    /// The next sequence number to hand out.
    from: u64,
    end: u64,
    /// The retraction index, `(sequence of the Retract record, its target)` in order, and
    /// how many of its entries the records read so far account for.
    index: Vec<(u64, u64)>,
    indexed: usize,
    failed: bool,
    /// Records of `page` decoded and held to the index, not yet handed out (see [`AHEAD`]).
    ahead: VecDeque<(u64, Record<E>)>,
    /// The problem met while decoding ahead: handed out once the records before it are.
    problem: Option<JournalError>,
    _record: PhantomData<fn() -> E>,
}

impl<E> Events<E> {
    /// The records `from..end` of `session`, from a scan starting at the page holding
    /// `from` (`None` when there is nothing to read), held to the retraction index `index`.
    /// `genesis` is given when the scan starts at the first page, which is then held to it.
    pub(crate) fn new(
        session: &str,
        scan: Option<Box<dyn Scan>>,
        genesis: Option<Hash>,
        from: u64,
        end: u64,
        index: Vec<(u64, u64)>,
    ) -> Events<E> {
        let walk = match genesis {
            Some(genesis) => Walk::from_genesis(session, genesis, None),
            None => Walk::from_first_page(session),
        };
        // Entries before `from` are not read, so not held to anything.
        let indexed = index.partition_point(|&(at, _)| at < from);
        Events {
            session: session.to_string(),
            scan,
            page: Page::default(),
            next: 0,
            walk,
            from,
            end,
            index,
            indexed,
            failed: false,
            ahead: VecDeque::new(),
            problem: None,
            _record: PhantomData,
        }
    }

    /// The same stream, decoding its records as `F`: read a session before knowing its
    /// game, then type its records for the game its metadata names.
    pub fn cast<F>(mut self) -> Events<F> {
        // Records decoded ahead as `E`, or a problem met decoding them, are read again as
        // `F`: the stream goes back to the first record not handed out.
        if !self.ahead.is_empty() || self.problem.is_some() {
            let at = self.ahead.front().map_or(self.from, |&(seq, _)| seq);
            self.next = (at - self.page.first) as usize;
            self.from = at;
            self.indexed = self.index.partition_point(|&(seq, _)| seq < at);
            self.problem = None;
        }
        Events::retyped(self)
    }

    /// The same stream as `F`, nothing decoded ahead.
    fn retyped<F>(from: Events<E>) -> Events<F> {
        Events {
            session: from.session,
            scan: from.scan,
            page: from.page,
            next: from.next,
            walk: from.walk,
            from: from.from,
            end: from.end,
            index: from.index,
            indexed: from.indexed,
            failed: from.failed,
            ahead: VecDeque::new(),
            problem: None,
            _record: PhantomData,
        }
    }

    fn fail(&mut self, error: JournalError) -> Option<Result<(u64, Record<E>), JournalError>> {
        self.failed = true;
        Some(Err(error))
    }

    /// Read and verify the next page; `Err` with the first problem.
    fn load(&mut self) -> Result<(), JournalError> {
        let Some(scan) = self.scan.as_mut() else {
            return Err(self.walk.problem(self.from, ProblemKind::Gap, "missing").into_error(&self.session));
        };
        match scan.next_page(&mut self.page) {
            Ok(true) => {}
            Ok(false) => {
                let end = self.end;
                let at = self.walk.next.max(self.from);
                let what = format!("missing: the log ends here but should hold {end} records");
                return Err(self.walk.problem(at, ProblemKind::Gap, what).into_error(&self.session));
            }
            Err(ScanError::Storage(e)) => return Err(e.in_session(&self.session)),
            Err(ScanError::Damage { at, kind, what }) => {
                return Err(self.walk.damage(at, kind, what).into_error(&self.session))
            }
        }
        self.walk.page(&self.page, |_, _| Ok(())).map_err(|p| p.into_error(&self.session))?;
        self.next = 0;
        Ok(())
    }

    /// Hold the record at `seq` (a `Retract` of `target`, or an event when `None`) to the
    /// retraction index.
    fn held_to_index(&mut self, seq: u64, target: Option<u64>) -> Result<(), JournalError> {
        let entry = self.index.get(self.indexed).copied().filter(|&(at, _)| at == seq);
        match (entry, target) {
            (None, None) => return Ok(()),
            (Some((_, indexed)), Some(target)) if indexed == target => {
                self.indexed += 1;
                return Ok(());
            }
            _ => {}
        }
        let what = format!(
            "the retraction index disagrees with it (index: {:?}, record: {:?})",
            entry.map(|(_, t)| t),
            target
        );
        Err(self.walk.problem(seq, ProblemKind::Retractions, what).into_error(&self.session))
    }

    /// At the end of the stream: every index entry for the records read must have been met.
    fn all_indexed(&self) -> Result<(), JournalError> {
        match self.index.get(self.indexed) {
            Some(&(at, target)) if at < self.end => {
                let what =
                    format!("the retraction index says it retracts record {target}, but it is no retraction");
                Err(self.walk.problem(at, ProblemKind::Retractions, what).into_error(&self.session))
            }
            _ => Ok(()),
        }
    }
}

impl<E: DeserializeOwned> Events<E> {
    /// Decode up to [`AHEAD`] records of the page from `next`, each held to the retraction
    /// index, into `ahead`; stop at the first problem (kept in `problem`, to be handed out
    /// after the records before it).
    fn decode_ahead(&mut self) {
        let stop = (self.next + AHEAD).min(self.page.spans.len());
        while self.next < stop && self.from < self.end {
            let seq = self.page.first + self.next as u64;
            let i = self.next;
            self.next += 1;
            if seq < self.from {
                continue;
            }
            let record = match codec::decode::<Record<E>>(self.page.record(i)) {
                Ok(record) => record,
                Err(e) => {
                    let what = format!("its bytes do not decode ({e})");
                    self.problem = Some(
                        self.walk.problem(seq, ProblemKind::Undecodable, what).into_error(&self.session),
                    );
                    return;
                }
            };
            let target = if let Record::Retract(target) = record { Some(target) } else { None };
            if let Err(e) = self.held_to_index(seq, target) {
                self.problem = Some(e);
                return;
            }
            self.from = seq + 1;
            self.ahead.push_back((seq, record));
        }
    }
}

impl<E: DeserializeOwned> Iterator for Events<E> {
    type Item = Result<(u64, Record<E>), JournalError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.ahead.pop_front() {
                return Some(Ok(item));
            }
            if let Some(problem) = self.problem.take() {
                return self.fail(problem);
            }
            if self.failed {
                return None;
            }
            if self.next < self.page.spans.len() && self.from < self.end {
                self.decode_ahead();
                continue;
            }
            if self.from >= self.end {
                self.failed = true;
                return self.all_indexed().err().map(Err);
            }
            if let Err(e) = self.load() {
                return self.fail(e);
            }
        }
    }
}
