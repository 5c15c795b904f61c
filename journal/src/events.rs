//! Reading a session back: the streaming, typed record iterator, verified as it reads.
//!
//! **Invariant:** a record is handed out only once the page holding it has been verified
//! whole (`walk`): every link recomputed and held to its stored tag, the page's stored
//! hashes held to its records and to the page before it. A changed record is an error
//! naming it, never a silently different record.

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
    index: usize,
    walk: Walk,
    from: u64,
    end: u64,
    failed: bool,
    _record: PhantomData<fn() -> E>,
}

impl<E> Events<E> {
    /// The records `from..end` of `session`, from a scan starting at the page holding
    /// `from` (`None` when there is nothing to read). `genesis` is given when the scan starts
    /// at the first page, which is then held to it as well.
    pub(crate) fn new(
        session: &str,
        scan: Option<Box<dyn Scan>>,
        genesis: Option<Hash>,
        from: u64,
        end: u64,
    ) -> Events<E> {
        let walk = match genesis {
            Some(genesis) => Walk::from_genesis(session, genesis, None),
            None => Walk::from_first_page(session),
        };
        Events {
            session: session.to_string(),
            scan,
            page: Page::default(),
            index: 0,
            walk,
            from,
            end,
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
            index: self.index,
            walk: self.walk,
            from: self.from,
            end: self.end,
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
        self.index = 0;
        Ok(())
    }
}

impl<E: DeserializeOwned> Iterator for Events<E> {
    type Item = Result<(u64, Record<E>), JournalError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            if self.index < self.page.spans.len() {
                let seq = self.page.first + self.index as u64;
                let i = self.index;
                self.index += 1;
                if seq < self.from {
                    continue;
                }
                if seq >= self.end {
                    self.failed = true;
                    return None;
                }
                return match codec::decode::<Record<E>>(self.page.record(i)) {
                    Ok(record) => {
                        self.from = seq + 1;
                        Some(Ok((seq, record)))
                    }
                    Err(e) => {
                        let what = format!("its bytes do not decode ({e})");
                        let error =
                            self.walk.problem(seq, ProblemKind::Undecodable, what).into_error(&self.session);
                        self.fail(error)
                    }
                };
            }
            if self.from >= self.end {
                return None;
            }
            if let Err(e) = self.load() {
                return self.fail(e);
            }
        }
    }
}
