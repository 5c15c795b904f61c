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
use std::marker::PhantomData;

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
            _record: PhantomData,
        }
    }

    /// The same stream, decoding its records as `F`: read a session before knowing its
    /// game, then type its records for the game its metadata names.
    pub fn cast<F>(self) -> Events<F> {
        Events {
            session: self.session,
            scan: self.scan,
            page: self.page,
            next: self.next,
            walk: self.walk,
            from: self.from,
            end: self.end,
            index: self.index,
            indexed: self.indexed,
            failed: self.failed,
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

impl<E: DeserializeOwned> Iterator for Events<E> {
    type Item = Result<(u64, Record<E>), JournalError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            if self.next < self.page.spans.len() && self.from < self.end {
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
                        let error =
                            self.walk.problem(seq, ProblemKind::Undecodable, what).into_error(&self.session);
                        return self.fail(error);
                    }
                };
                let target = if let Record::Retract(target) = record { Some(target) } else { None };
                if let Err(e) = self.held_to_index(seq, target) {
                    return self.fail(e);
                }
                self.from = seq + 1;
                return Some(Ok((seq, record)));
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
