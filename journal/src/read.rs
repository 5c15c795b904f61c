//! Reading a session back: the streaming record iterator, chain hashes and retractions.

use crate::block::{self, Cursor, Records};
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::journal::{corrupt, Journal};
use crate::layout::{key_seq, seq_key};
use crate::meta::SessionMeta;
use crate::record::Record;
use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::marker::PhantomData;

/// What replaying a session needs, read in one call: see [`Journal::read_session`].
pub struct SessionReader<E> {
    /// The session's metadata.
    pub meta: SessionMeta,
    /// Every retraction in log order: `(sequence of the Retract record, sequence it retracts)`.
    pub retractions: Vec<(u64, u64)>,
    /// The records from the sequence asked for.
    pub events: Events<E>,
}

impl Journal {
    /// A session's metadata, retractions and record stream from `from`, looking the session
    /// up once: verifying thousands of short sessions pays the lookup per session, and
    /// `session`, `retractions` and `events` called apart each pay it again.
    pub fn read_session<E: DeserializeOwned>(
        &self,
        name: &str,
        from: u64,
    ) -> Result<SessionReader<E>, JournalError> {
        let (entry, head) = self.head(name)?;
        let retractions = self.retractions_of(name, entry.id)?;
        let events = self.events_from(name, entry.id, head.len, from)?;
        Ok(SessionReader { meta: entry.meta, retractions, events })
    }

    /// Stream a session's records from sequence `from` to the length it had when called,
    /// one block in memory at a time. Corrupt bytes end the stream with an error naming the
    /// session and sequence.
    pub fn events<E: DeserializeOwned>(&self, name: &str, from: u64) -> Result<Events<E>, JournalError> {
        let (entry, head) = self.head(name)?;
        self.events_from(name, entry.id, head.len, from)
    }

    /// `events` for a session already looked up: its id and length.
    fn events_from<E: DeserializeOwned>(
        &self,
        name: &str,
        id: u64,
        len: u64,
        from: u64,
    ) -> Result<Events<E>, JournalError> {
        let mut events = Events {
            session: name.to_string(),
            blocks: None,
            block: None,
            cursor: Cursor::new(),
            next_seq: from,
            from,
            end: len,
            failed: false,
            _record: PhantomData,
        };
        if from < len {
            let first = self.block_containing(name, id, from)?;
            events.next_seq = first;
            events.blocks = Some(self.events.range(seq_key(id, first)..=seq_key(id, u64::MAX)));
        }
        Ok(events)
    }

    /// The chain hash after the first `n` records of a session: the genesis for `n = 0`, the
    /// link of record `n - 1` otherwise (so `hash_at(s, len)` is the hash of the whole log,
    /// and a fork at `n` records `Parent { at: n, hash: hash_at(s, n) }`).
    pub fn hash_at(&self, name: &str, n: u64) -> Result<Hash, JournalError> {
        let (entry, head) = self.head(name)?;
        if n > head.len {
            return Err(JournalError::new(
                ErrorKind::OutOfRange,
                format!("session `{name}` has {} records, so there is no hash after {n}", head.len),
            )
            .in_session(name)
            .at(n));
        }
        if n == head.len {
            return Ok(head.last);
        }
        if n == 0 {
            return chain::genesis(name, &entry.meta);
        }
        let target = n - 1;
        let first = self.block_containing(name, entry.id, target)?;
        let value = self
            .events
            .get(seq_key(entry.id, first))
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?
            .ok_or_else(|| corrupt(name, &format!("the block at record {first} vanished")).at(first))?;
        let header = block::header(&value).map_err(|e| corrupt(name, &e).at(first))?;
        let plain = block::plain(&value).map_err(|e| corrupt(name, &e).at(first))?;
        let mut last = header.previous;
        let mut records = Records::new(&plain);
        for seq in first..=target {
            match records.next_record() {
                Some(Ok((_, bytes))) => last = chain::link(&last, seq, bytes),
                Some(Err(e)) => return Err(corrupt(name, &format!("record {seq}: {e}")).at(seq)),
                None => return Err(corrupt(name, &format!("record {seq} is missing")).at(seq)),
            }
        }
        Ok(last)
    }

    /// The sequence numbers retracted in a session, from a small index kept on append, so
    /// replay knows them before decoding any record.
    pub fn retracted(&self, name: &str) -> Result<BTreeSet<u64>, JournalError> {
        Ok(self.retractions(name)?.into_iter().map(|(_, target)| target).collect())
    }

    /// Every retraction of a session in log order: `(sequence of the Retract record,
    /// sequence it retracts)`.
    pub fn retractions(&self, name: &str) -> Result<Vec<(u64, u64)>, JournalError> {
        self.retractions_of(name, self.entry(name)?.id)
    }

    fn retractions_of(&self, name: &str, id: u64) -> Result<Vec<(u64, u64)>, JournalError> {
        let mut out = Vec::new();
        for item in self.retractions.range(seq_key(id, 0)..=seq_key(id, u64::MAX)) {
            let (key, value) =
                item.map_err(|e| JournalError::storage(&format!("reading retractions of `{name}`"), e))?;
            let at = key_seq(&key);
            let target = <[u8; 8]>::try_from(value.as_ref()).ok().map(u64::from_be_bytes);
            match (at, target) {
                (Some(at), Some(target)) => out.push((at, target)),
                _ => return Err(corrupt(name, "an entry of its retraction index is malformed")),
            }
        }
        Ok(out)
    }

    /// First sequence number of the block that holds record `seq`.
    fn block_containing(&self, name: &str, id: u64, seq: u64) -> Result<u64, JournalError> {
        let found = self
            .events
            .range(seq_key(id, 0)..=seq_key(id, seq))
            .next_back()
            .transpose()
            .map_err(|e| JournalError::storage(&format!("reading session `{name}`"), e))?;
        match found.and_then(|(k, _)| key_seq(&k)) {
            Some(first) => Ok(first),
            None => Err(corrupt(name, &format!("no block holds record {seq}")).at(seq)),
        }
    }
}

/// The block an `Events` is reading, in its plain form: sled's own bytes when stored
/// plain (no copy), inflated ones when stored compressed.
enum Held {
    Stored(sled::IVec),
    Inflated(Vec<u8>),
}

impl std::ops::Deref for Held {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Held::Stored(bytes) => bytes,
            Held::Inflated(bytes) => bytes,
        }
    }
}

/// A session's records in order, decoded one at a time: `(sequence, record)`.
pub struct Events<E> {
    session: String,
    blocks: Option<sled::Iter>,
    block: Option<Held>,
    /// Where the next record of `block` is.
    cursor: Cursor,
    next_seq: u64,
    from: u64,
    end: u64,
    failed: bool,
    _record: PhantomData<fn() -> E>,
}

impl<E> Events<E> {
    /// The same stream, decoding its records as `F`: read a session before knowing its
    /// game, then type its records for the game its metadata names.
    pub fn cast<F>(self) -> Events<F> {
        Events {
            session: self.session,
            blocks: self.blocks,
            block: self.block,
            cursor: self.cursor,
            next_seq: self.next_seq,
            from: self.from,
            end: self.end,
            failed: self.failed,
            _record: PhantomData,
        }
    }

    fn fail(&mut self, what: &str) -> Option<Result<(u64, Record<E>), JournalError>> {
        self.failed = true;
        Some(Err(corrupt(&self.session, &format!("record {}: {what}", self.next_seq)).at(self.next_seq)))
    }
}

impl<E: DeserializeOwned> Iterator for Events<E> {
    type Item = Result<(u64, Record<E>), JournalError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed || self.next_seq >= self.end {
                return None;
            }
            if let Some(block) = &self.block {
                match self.cursor.next(block) {
                    None => self.block = None,
                    Some(Err(e)) => return self.fail(&e),
                    Some(Ok((_, bytes))) => {
                        let seq = self.next_seq;
                        if seq < self.from {
                            self.next_seq += 1;
                            continue;
                        }
                        match codec::decode::<Record<E>>(bytes) {
                            Ok(record) => {
                                self.next_seq += 1;
                                return Some(Ok((seq, record)));
                            }
                            Err(e) => return self.fail(&format!("its bytes do not decode ({e})")),
                        }
                    }
                }
                continue;
            }
            let next = match self.blocks.as_mut() {
                Some(blocks) => blocks.next(),
                None => None,
            };
            match next {
                None => {
                    let end = self.end;
                    return self.fail(&format!("missing: the log ends here but should hold {end} records"));
                }
                Some(Err(e)) => {
                    self.failed = true;
                    return Some(Err(JournalError::storage(
                        &format!("reading session `{}`", self.session),
                        e,
                    )
                    .in_session(&self.session)
                    .at(self.next_seq)));
                }
                Some(Ok((key, value))) => {
                    let stored_first = block::header(&value).map(|h| h.first_seq);
                    match (key_seq(&key), stored_first) {
                        (Some(k), Ok(h)) if k == self.next_seq && h == k => {
                            let held = match block::plain(&value) {
                                Ok(Cow::Borrowed(_)) => Held::Stored(value),
                                Ok(Cow::Owned(inflated)) => Held::Inflated(inflated),
                                Err(e) => return self.fail(&e),
                            };
                            self.block = Some(held);
                            self.cursor.reset();
                        }
                        (Some(k), _) if k > self.next_seq => {
                            return self.fail(&format!("missing: the next block starts at record {k}"))
                        }
                        (_, Err(e)) => return self.fail(&e),
                        _ => return self.fail("its block is stored out of place (moved or swapped)"),
                    }
                }
            }
        }
    }
}
