//! Reading the server's rows back: sessions by name, heads, pages of records, the
//! retraction index and snapshots.
//!
//! A page is a run of consecutive rows (at most `PAGE_ROWS`), fetched by key from the
//! primary key's index, and starting from the link stored with the record before it (the
//! session's stored genesis before record 0). Records never change once committed, so the
//! pages of one read fit together however writers append meanwhile; a row missing between
//! two others ends a page, and the walk above names the gap.

use super::fail::Failure;
use super::pool::Pool;
use super::schema;
use super::state::{from_sql, hash_of, to_sql, Known, PgStore};
use crate::chain::{self, Hash};
use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::problem::ProblemKind;
use crate::store::{Found, Head, HeadClaim, Page, Scan, ScanError, Span};
use std::sync::Arc;

/// Rows fetched per page: a round trip per 1,024 records, about 50 KiB of game events.
const PAGE_ROWS: i64 = 1024;

impl PgStore {
    pub fn names_of(&self) -> Result<Vec<String>, JournalError> {
        self.pool.run("listing sessions", true, |conn| {
            let statement = conn.prepared(schema::NAMES)?;
            let rows = conn.client.query(&statement, &[])?;
            Ok(rows.iter().map(|row| row.try_get::<_, String>(0)).collect::<Result<_, _>>()?)
        })
    }

    pub fn sessions_of(&self) -> Result<Vec<(String, SessionMeta)>, JournalError> {
        let rows = self.pool.run("listing sessions", true, |conn| {
            let statement = conn.prepared(schema::SESSIONS)?;
            let rows = conn.client.query(&statement, &[])?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                out.push((row.try_get::<_, String>(0)?, row.try_get::<_, Vec<u8>>(1)?));
            }
            Ok(out)
        })?;
        rows.into_iter().map(|(name, meta)| Ok((meta_of(&name, &meta)?, name)).map(|(m, n)| (n, m))).collect()
    }

    /// A session by name: from what an earlier lookup read, else from the server,
    /// remembering its genesis, and its head for the call that follows.
    pub fn find_session(&self, name: &str) -> Result<Option<Found>, JournalError> {
        if let Some(known) = self.known(name) {
            return Ok(Some(Found { id: known.id, meta: known.meta }));
        }
        let what = format!("looking up session `{name}`");
        let row = self.pool.run(&what, true, |conn| {
            let statement = conn.prepared(schema::FIND)?;
            let Some(row) = conn.client.query_opt(&statement, &[&name])? else { return Ok(None) };
            let id: i64 = row.try_get(0)?;
            let meta: Vec<u8> = row.try_get(1)?;
            let genesis: Vec<u8> = row.try_get(2)?;
            let len: i64 = row.try_get(3)?;
            let last: Vec<u8> = row.try_get(4)?;
            Ok(Some((id, meta, genesis, len, last)))
        })?;
        let Some((id, meta, genesis, len, last)) = row else { return Ok(None) };
        let id = from_sql(id, name, "id")?;
        let meta = meta_of(name, &meta)?;
        // A malformed genesis is left for the walk to find (the first page then starts from
        // a hash that cannot be right); a malformed head is read again, and reported, by `head`.
        let genesis = <Hash>::try_from(genesis.as_slice()).unwrap_or([0; 32]);
        let head = match (from_sql(len, name, "length"), hash_of(&last, name, "head hash")) {
            (Ok(len), Ok(last)) => Some(Head { len, last }),
            _ => None,
        };
        self.remember(name, Known { id, meta: meta.clone(), genesis }, head);
        Ok(Some(Found { id, meta }))
    }

    /// A session's head: what its lookup just read, or read now.
    pub fn head_of(&self, name: &str, id: u64) -> Result<HeadClaim, JournalError> {
        if let Some(head) = self.take_seen_head(id) {
            return Ok(HeadClaim::Known(head));
        }
        let what = format!("reading the head of session `{name}`");
        let key = to_sql(id)?;
        let row = self.pool.run(&what, true, |conn| {
            let statement = conn.prepared(schema::HEAD)?;
            let Some(row) = conn.client.query_opt(&statement, &[&key])? else { return Ok(None) };
            Ok(Some((row.try_get::<_, i64>(0)?, row.try_get::<_, Vec<u8>>(1)?)))
        })?;
        let Some((len, last)) = row else {
            return Err(JournalError::new(ErrorKind::SessionNotFound, format!("session `{name}` not found"))
                .in_session(name));
        };
        let len = from_sql(len, name, "length")?;
        Ok(match hash_of(&last, name, "head hash") {
            Ok(last) => HeadClaim::Known(Head { len, last }),
            Err(e) => HeadClaim::Unreadable { from: len, what: e.message().to_string() },
        })
    }

    /// The pages of a session from the one starting at `from`.
    pub fn scan_of(&self, name: &str, id: u64, from: u64) -> Result<PgScan, JournalError> {
        Ok(PgScan {
            pool: Arc::clone(&self.pool),
            session: name.to_string(),
            id: to_sql(id)?,
            next: from,
            before: if from == 0 { self.known_genesis(id) } else { None },
            done: false,
        })
    }

    pub fn retractions_of(&self, name: &str, id: u64) -> Result<Vec<(u64, u64)>, JournalError> {
        let what = format!("reading the retractions of session `{name}`");
        let key = to_sql(id)?;
        let rows = self.pool.run(&what, true, |conn| {
            let statement = conn.prepared(schema::RETRACTIONS)?;
            let rows = conn.client.query(&statement, &[&key])?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                out.push((row.try_get::<_, i64>(0)?, row.try_get::<_, i64>(1)?));
            }
            Ok(out)
        })?;
        rows.into_iter()
            .map(|(at, target)| Ok((from_sql(at, name, "sequence")?, from_sql(target, name, "retraction")?)))
            .collect()
    }

    pub fn snapshot_of(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
    ) -> Result<Option<(u64, Vec<u8>)>, JournalError> {
        let what = format!("reading a snapshot of session `{name}`");
        let (key, seq, version) =
            (to_sql(id)?, to_sql(seq)?, i32::try_from(rules_version).unwrap_or(i32::MAX));
        let found = self.pool.run(&what, true, |conn| {
            let statement = conn.prepared(schema::SNAPSHOT_BEFORE)?;
            let Some(row) = conn.client.query_opt(&statement, &[&key, &version, &seq])? else {
                return Ok(None);
            };
            Ok(Some((row.try_get::<_, i64>(0)?, row.try_get::<_, Vec<u8>>(1)?)))
        })?;
        found.map(|(at, bytes)| Ok((from_sql(at, name, "snapshot position")?, bytes))).transpose()
    }
}

/// A session's stored metadata, decoded.
fn meta_of(name: &str, bytes: &[u8]) -> Result<SessionMeta, JournalError> {
    codec::decode::<SessionMeta>(bytes).map_err(|e| {
        JournalError::new(ErrorKind::Corrupt, format!("session `{name}`: its metadata does not decode ({e})"))
            .in_session(name)
    })
}

/// A session's rows, a page at a time.
pub struct PgScan {
    pool: Arc<Pool>,
    session: String,
    id: i64,
    /// The next sequence number to fetch.
    next: u64,
    /// The link the next page starts from, once known (the genesis before record 0, else
    /// the last link of the page before).
    before: Option<Hash>,
    done: bool,
}

/// Rows as fetched: `(seq, link, body)`.
type Rows = Vec<(i64, Vec<u8>, Vec<u8>)>;

impl PgScan {
    fn fetch(&self, from: u64, limit: i64) -> Result<Rows, ScanError> {
        let what = format!("reading session `{}`", self.session);
        let (id, from) = (self.id, to_sql(from).map_err(ScanError::Storage)?);
        self.pool
            .run(&what, true, |conn| {
                let statement = conn.prepared(schema::PAGE)?;
                let rows = conn.client.query(&statement, &[&id, &from, &limit])?;
                let mut out = Vec::with_capacity(rows.len());
                for row in rows {
                    out.push((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?));
                }
                Ok(out)
            })
            .map_err(ScanError::Storage)
    }

    fn genesis(&self) -> Result<Hash, ScanError> {
        let what = format!("reading session `{}`", self.session);
        let id = self.id;
        let bytes = self
            .pool
            .run(&what, true, |conn| {
                let statement = conn.prepared(schema::GENESIS)?;
                match conn.client.query_opt(&statement, &[&id])? {
                    Some(row) => Ok(row.try_get::<_, Vec<u8>>(0)?),
                    None => Err(Failure::Journal(JournalError::new(
                        ErrorKind::SessionNotFound,
                        format!("session `{}` not found", self.session),
                    ))),
                }
            })
            .map_err(ScanError::Storage)?;
        Ok(<Hash>::try_from(bytes.as_slice()).unwrap_or([0; 32]))
    }

    fn damage(&self, at: Option<u64>, kind: ProblemKind, what: impl Into<String>) -> ScanError {
        ScanError::Damage { at, kind, what: what.into() }
    }
}

impl Scan for PgScan {
    fn next_page(&mut self, page: &mut Page) -> Result<bool, ScanError> {
        if self.done {
            return Ok(false);
        }
        let mut rows = match self.before {
            Some(_) => self.fetch(self.next, PAGE_ROWS)?,
            None if self.next == 0 => {
                self.before = Some(self.genesis()?);
                self.fetch(0, PAGE_ROWS)?
            }
            None => {
                // The record before the first one asked for gives the hash to start from.
                let previous = self.next - 1;
                let mut rows = self.fetch(previous, PAGE_ROWS + 1)?;
                match rows.first() {
                    None => {}
                    Some((seq, link, _)) if u64::try_from(*seq).ok() == Some(previous) => {
                        self.before = Some(<Hash>::try_from(link.as_slice()).map_err(|_| {
                            self.damage(Some(previous), ProblemKind::Framing, link_size(link))
                        })?);
                        rows.remove(0);
                    }
                    Some(_) => return Err(self.damage(Some(previous), ProblemKind::Gap, "missing")),
                }
                rows
            }
        };
        let full = rows.len() as i64 >= PAGE_ROWS;
        if rows.is_empty() {
            self.done = true;
            return Ok(false);
        }
        page.bytes.clear();
        page.spans.clear();
        page.links.clear();
        page.broken = None;
        page.before = self.before.unwrap_or([0; 32]);
        let first = u64::try_from(rows[0].0).map_err(|_| {
            self.damage(
                None,
                ProblemKind::Framing,
                format!("a record is stored under sequence {}", rows[0].0),
            )
        })?;
        page.first = first;
        let mut cut = None;
        for (i, (seq, link, body)) in rows.drain(..).enumerate() {
            let expected = first + i as u64;
            if u64::try_from(seq).ok() != Some(expected) {
                // A row missing (or stored under a wrong number): the page ends before it,
                // and the next starts there, for the walk to name the gap.
                cut = u64::try_from(seq).ok().filter(|&s| s > expected);
                if cut.is_none() {
                    page.broken = Some(format!("a record is stored under sequence {seq}"));
                }
                break;
            }
            let Ok(link) = <Hash>::try_from(link.as_slice()) else {
                page.broken = Some(link_size(&link));
                break;
            };
            let start = page.bytes.len();
            page.bytes.extend_from_slice(&body);
            page.spans.push(Span { tag: chain::tag(&link), start, end: page.bytes.len() });
            page.links.push(link);
        }
        page.count = page.spans.len() as u64;
        page.after = page.links.last().copied().unwrap_or(page.before);
        self.before = Some(page.after);
        self.next = cut.unwrap_or(first + page.count);
        self.done = page.broken.is_some() || (cut.is_none() && !full);
        Ok(true)
    }
}

fn link_size(link: &[u8]) -> String {
    format!("its stored chain link is {} bytes, not 32", link.len())
}
