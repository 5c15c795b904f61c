//! Writing: a new session, an append conditional on the head, snapshots.
//!
//! An append of up to `CHUNK` records is one statement (one round trip, one commit): the
//! update of the session's row from the head the links were computed from, and the insert
//! of the records, which inserts nothing when the update found the head moved. A larger
//! batch is one transaction: the same update first (its row lock keeps other writers of
//! the session waiting), then the records in chunks, then the commit. Either way the
//! append is acknowledged only once the commit returned, and the connection's
//! `synchronous_commit=on` makes a commit return only once it is on the server's disk.

use super::fail::{code, Failure, UNIQUE_VIOLATION};
use super::pool::Conn;
use super::schema;
use super::state::{to_sql, PgStore};
use crate::batch::Batch;
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::store::{conflict, exists, Head, HeadClaim};

/// Records per statement: a batch larger than this goes in a transaction, in chunks of it,
/// so no single message to the server grows without bound.
const CHUNK: usize = 4096;

/// A batch as the statements' array parameters.
struct Rows<'b> {
    seqs: Vec<i64>,
    links: Vec<Hash>,
    bodies: Vec<&'b [u8]>,
    retracts: Vec<Option<i64>>,
}

impl<'b> Rows<'b> {
    /// The batch's records from `first`, chained from `before`; the head after them.
    fn new(batch: &'b Batch, first: u64, before: Hash) -> Result<(Rows<'b>, Head), JournalError> {
        let mut rows = Rows {
            seqs: Vec::with_capacity(batch.len()),
            links: Vec::with_capacity(batch.len()),
            bodies: Vec::with_capacity(batch.len()),
            retracts: Vec::with_capacity(batch.len()),
        };
        let mut last = before;
        let mut retractions = batch.retractions.iter().peekable();
        for (seq, body) in (first..).zip(batch.records()) {
            last = chain::link(&last, seq, body);
            rows.seqs.push(to_sql(seq)?);
            rows.links.push(last);
            rows.bodies.push(body);
            let target = retractions.next_if(|(at, _)| *at == seq).map(|(_, target)| to_sql(*target));
            rows.retracts.push(target.transpose()?);
        }
        let head = Head { len: first + batch.len() as u64, last };
        Ok((rows, head))
    }

    /// Rows `range` as the four array parameters.
    fn arrays(
        &self,
        range: std::ops::Range<usize>,
    ) -> (Vec<i64>, Vec<&[u8]>, Vec<&'b [u8]>, Vec<Option<i64>>) {
        (
            self.seqs[range.clone()].to_vec(),
            self.links[range.clone()].iter().map(|l| l.as_slice()).collect(),
            self.bodies[range.clone()].to_vec(),
            self.retracts[range].to_vec(),
        )
    }

    fn len(&self) -> usize {
        self.seqs.len()
    }

    /// Insert the rows, `CHUNK` at a time, inside a transaction.
    fn insert_chunks(&self, tx: &mut postgres::Transaction<'_>, id: i64) -> Result<(), postgres::Error> {
        let statement = tx.prepare(schema::INSERT_RECORDS)?;
        let mut start = 0;
        while start < self.len() {
            let end = (start + CHUNK).min(self.len());
            let (seqs, links, bodies, retracts) = self.arrays(start..end);
            tx.execute(&statement, &[&id, &seqs, &links, &bodies, &retracts])?;
            start = end;
        }
        Ok(())
    }
}

impl PgStore {
    pub fn create_session(
        &self,
        name: &str,
        meta: &SessionMeta,
        genesis: &Hash,
        batch: &Batch,
    ) -> Result<Head, JournalError> {
        self.writable()?;
        let meta_bytes = codec::encode(meta).map_err(|e| {
            JournalError::new(
                ErrorKind::Encode,
                format!("cannot encode the metadata of session `{name}`: {e}"),
            )
        })?;
        let (rows, head) = Rows::new(batch, 0, *genesis)?;
        let len = to_sql(head.len)?;
        let what = format!("creating session `{name}`");
        let made = self.pool.run(&what, false, |conn| {
            let (genesis, last) = (genesis.as_slice(), head.last.as_slice());
            if rows.len() <= CHUNK {
                let statement = conn.prepared(schema::CREATE_SESSION)?;
                let (seqs, links, bodies, retracts) = rows.arrays(0..rows.len());
                let row = conn.client.query_one(
                    &statement,
                    &[&name, &meta_bytes, &genesis, &len, &last, &seqs, &links, &bodies, &retracts],
                )?;
                return Ok(row.try_get::<_, Option<i64>>(0)?.is_some());
            }
            let mut tx = conn.client.transaction()?;
            let Some(row) =
                tx.query_opt(schema::INSERT_SESSION, &[&name, &meta_bytes, &genesis, &len, &last])?
            else {
                return Ok(false);
            };
            rows.insert_chunks(&mut tx, row.try_get(0)?)?;
            tx.commit()?;
            Ok(true)
        });
        match made {
            Ok(true) => Ok(head),
            Ok(false) => Err(exists(name)),
            Err(e) => Err(e),
        }
    }

    pub fn append_records(
        &self,
        name: &str,
        id: u64,
        expected: u64,
        batch: &Batch,
    ) -> Result<Head, JournalError> {
        self.writable()?;
        let mut from = match self.take_seen_head(id) {
            Some(head) if head.len == expected => head,
            _ => self.stored_head(name, id)?,
        };
        // Twice at most: a head read a moment ago that no longer holds, but whose length
        // still does, is read again (never a different length: that is a conflict).
        for _ in 0..2 {
            if from.len != expected {
                return Err(conflict(name, from.len, expected));
            }
            if batch.is_empty() {
                return Ok(from);
            }
            // `None`: the head had moved, or a row of the batch was already there.
            if let Some(head) = self.try_append(name, id, from, batch)? {
                return Ok(head);
            }
            let now = self.stored_head(name, id)?;
            if now == from {
                // The head is where it was, yet the update found it not: the last stored
                // record is missing or does not end at the head's hash.
                return Err(JournalError::new(
                    ErrorKind::Corrupt,
                    format!(
                        "session `{name}` cannot be continued: its record {} is missing or does not end at the \
                         hash its head recorded (`arbiter check {name}` names the damage)",
                        expected.saturating_sub(1)
                    ),
                )
                .in_session(name)
                .at(expected.saturating_sub(1)));
            }
            from = now;
        }
        Err(conflict(name, from.len, expected))
    }

    /// One attempt to append `batch` after the head `from`: the new head, or `None` when the
    /// server found the head elsewhere (and wrote nothing).
    fn try_append(
        &self,
        name: &str,
        id: u64,
        from: Head,
        batch: &Batch,
    ) -> Result<Option<Head>, JournalError> {
        let (rows, head) = Rows::new(batch, from.len, from.last)?;
        let (key, old_len, new_len) = (to_sql(id)?, to_sql(from.len)?, to_sql(head.len)?);
        let what = format!("appending to session `{name}`");
        self.pool.run(&what, false, |conn| {
            let (old_last, new_last) = (from.last.as_slice(), head.last.as_slice());
            let moved = if rows.len() <= CHUNK {
                append_one_statement(conn, &rows, &[&key, &old_len, &old_last, &new_len, &new_last])
            } else {
                append_in_chunks(conn, &rows, &[&key, &old_len, &old_last, &new_len, &new_last])
            };
            match moved {
                Ok(true) => Ok(Some(head)),
                Ok(false) => Ok(None),
                Err(e) if code(&e) == Some(UNIQUE_VIOLATION) => Ok(None),
                Err(e) => Err(Failure::Pg(e)),
            }
        })
    }

    /// The head as stored now (never what a lookup remembered).
    fn stored_head(&self, name: &str, id: u64) -> Result<Head, JournalError> {
        let _ = self.take_seen_head(id);
        match self.head_of(name, id)? {
            HeadClaim::Known(head) => Ok(head),
            HeadClaim::Unreadable { from, what } => {
                Err(JournalError::new(ErrorKind::Corrupt, what).in_session(name).at(from))
            }
            HeadClaim::Lost(loss) => Err(JournalError::new(ErrorKind::Lost, loss.message).in_session(name)),
        }
    }

    pub fn store_snapshot(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
        bytes: &[u8],
    ) -> Result<(), JournalError> {
        self.writable()?;
        let what = format!("storing a snapshot of session `{name}`");
        let (key, seq, version) =
            (to_sql(id)?, to_sql(seq)?, i32::try_from(rules_version).unwrap_or(i32::MAX));
        self.pool.run(&what, false, |conn| {
            let statement = conn.prepared(schema::PUT_SNAPSHOT)?;
            conn.client.execute(&statement, &[&key, &version, &seq, &bytes])?;
            Ok(())
        })
    }

    pub fn remove_snapshots(
        &self,
        name: &str,
        id: u64,
        keep_rules_version: u32,
    ) -> Result<usize, JournalError> {
        self.writable()?;
        let what = format!("discarding snapshots of session `{name}`");
        let (key, version) = (to_sql(id)?, i32::try_from(keep_rules_version).unwrap_or(i32::MAX));
        self.pool.run(&what, false, |conn| {
            let statement = conn.prepared(schema::DISCARD_SNAPSHOTS)?;
            Ok(conn.client.execute(&statement, &[&key, &version])? as usize)
        })
    }
}

/// The parameters of `MOVE_HEAD`: id, old length, old hash, new length, new hash.
type Move<'a> = [&'a (dyn postgres::types::ToSql + Sync); 5];

/// A batch of at most `CHUNK` records in one statement; whether the head moved.
fn append_one_statement(conn: &mut Conn, rows: &Rows<'_>, head: &Move<'_>) -> Result<bool, postgres::Error> {
    let statement = conn.prepared(schema::APPEND)?;
    let (seqs, links, bodies, retracts) = rows.arrays(0..rows.len());
    let params = [head[0], head[1], head[2], head[3], head[4], &seqs, &links, &bodies, &retracts];
    Ok(conn.client.execute(&statement, &params)? == rows.len() as u64)
}

/// A larger batch in one transaction: the head first, then the records in chunks.
fn append_in_chunks(conn: &mut Conn, rows: &Rows<'_>, head: &Move<'_>) -> Result<bool, postgres::Error> {
    let mut tx = conn.client.transaction()?;
    let Some(row) = tx.query_opt(schema::MOVE_HEAD, head)? else {
        return Ok(false);
    };
    rows.insert_chunks(&mut tx, row.try_get(0)?)?;
    tx.commit()?;
    Ok(true)
}
