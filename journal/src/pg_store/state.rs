//! `PgStore`: a journal's connections to one PostgreSQL database, and opening it.
//!
//! Opening checks the layout's version (`arbiter_format`), creating the tables first when a
//! read-write open finds none. Every connection is started with `synchronous_commit=on`, so
//! that a commit returns only once the server has flushed its write-ahead log, whatever the
//! server's default; and, for a read-only open, with `default_transaction_read_only=on`, so
//! the server itself refuses any write.

use super::fail::{code, Failure};
use super::pool::Pool;
use super::schema;
use crate::chain::Hash;
use crate::error::{ErrorKind, JournalError};
use crate::meta::SessionMeta;
use crate::store::Head;
use postgres::config::SslMode;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How long a connection attempt may take unless the URL says (`connect_timeout=`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A session as a lookup by name read it. Its id, metadata and genesis never change (a
/// session is never renamed, deleted or given other metadata through the journal), so a
/// later lookup of the name is answered from here, without asking the server.
#[derive(Clone)]
pub struct Known {
    pub id: u64,
    pub meta: SessionMeta,
    pub genesis: Hash,
}

pub struct PgStore {
    pub pool: Arc<Pool>,
    pub read_only: bool,
    /// Sessions looked up so far, by name.
    pub known: Mutex<HashMap<String, Known>>,
    /// The head a lookup that asked the server read with the session, for the call right
    /// after it (a read's or an append's), taken once.
    pub heads: Mutex<HashMap<u64, Head>>,
    /// The genesis of each session in `known`, by id (what a scan from record 0 starts at).
    pub geneses: Mutex<HashMap<u64, Hash>>,
}

impl PgStore {
    /// Open the journal in the database at `url`, creating its tables unless `read_only`.
    pub fn open(url: &str, read_only: bool) -> Result<PgStore, JournalError> {
        let shown = crate::location::shown(url);
        let mut config = postgres::Config::from_str(url).map_err(|e| {
            JournalError::new(ErrorKind::Storage, format!("`{shown}` is not a PostgreSQL URL: {e}"))
        })?;
        if config.get_ssl_mode() == SslMode::Require {
            return Err(JournalError::new(
                ErrorKind::Storage,
                format!(
                    "`{shown}` asks for TLS (sslmode=require), which this build of arbiter does not speak to \
                     PostgreSQL: connect over a Unix socket, the loopback or a tunnel"
                ),
            ));
        }
        let mut options = config.get_options().unwrap_or_default().to_string();
        options.push_str(" -c synchronous_commit=on");
        if read_only {
            options.push_str(" -c default_transaction_read_only=on");
        }
        config.options(options.trim_start());
        if config.get_application_name().is_none() {
            config.application_name("arbiter");
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let pool = Pool::connect(config, shown)?;
        let store = PgStore {
            pool: Arc::new(pool),
            read_only,
            known: Mutex::new(HashMap::new()),
            heads: Mutex::new(HashMap::new()),
            geneses: Mutex::new(HashMap::new()),
        };
        store.check_format()?;
        Ok(store)
    }

    /// The server as messages name it.
    pub fn shown(&self) -> &str {
        &self.pool.shown
    }

    /// Refuse a write to a store opened read-only.
    pub fn writable(&self) -> Result<(), JournalError> {
        if self.read_only {
            return Err(JournalError::new(
                ErrorKind::ReadOnly,
                format!("database `{}` is open read-only", self.shown()),
            ));
        }
        Ok(())
    }

    /// The layout's version must be ours; a read-write open of a database without the
    /// tables makes them.
    fn check_format(&self) -> Result<(), JournalError> {
        let read_only = self.read_only;
        // `None`: no tables yet (a read-only open is refused instead, by the server's word).
        let stored = self.pool.run("reading the journal's format", true, |conn| {
            let statement = match conn.prepared(schema::FORMAT_OF) {
                Ok(statement) => statement,
                Err(e) if code(&e) == Some("42P01") && !read_only => return Ok(None),
                Err(e) => return Err(Failure::Pg(e)),
            };
            let rows = conn.client.query(&statement, &[])?;
            Ok(Some(rows.first().map(|row| row.try_get::<_, i32>(0)).transpose()?))
        })?;
        let version = match stored {
            Some(version) => version,
            None => self.create_tables()?,
        };
        match version {
            Some(schema::FORMAT) => Ok(()),
            other => Err(self.foreign(other)),
        }
    }

    fn foreign(&self, version: Option<i32>) -> JournalError {
        let what = match version {
            Some(v) => format!("journal format {v}, and this arbiter reads format {}", schema::FORMAT),
            None => "an `arbiter_format` table with no version in it".to_string(),
        };
        JournalError::new(ErrorKind::Storage, format!("database `{}` holds {what}", self.shown()))
    }

    /// Make the tables (under an advisory lock, so that two first opens do not race) and
    /// return the version then stored.
    fn create_tables(&self) -> Result<Option<i32>, JournalError> {
        self.pool.run("creating the journal's tables", false, |conn| {
            let mut tx = conn.client.transaction()?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&schema::CREATE_LOCK])?;
            tx.batch_execute(schema::CREATE)?;
            tx.execute(schema::SET_FORMAT, &[&schema::FORMAT])?;
            let version = tx.query_one(schema::FORMAT_OF, &[])?.try_get::<_, i32>(0)?;
            tx.commit()?;
            Ok(Some(version))
        })
    }

    /// The head the lookup of session `id` just read, if it asked the server (taken: the
    /// next call reads the head afresh).
    pub fn take_seen_head(&self, id: u64) -> Option<Head> {
        self.heads.lock().unwrap_or_else(PoisonError::into_inner).remove(&id)
    }

    /// The genesis stored with session `id`, as its lookup read it.
    pub fn known_genesis(&self, id: u64) -> Option<Hash> {
        self.geneses.lock().unwrap_or_else(PoisonError::into_inner).get(&id).copied()
    }

    /// A session looked up before, by name. Its head is read afresh by the next call.
    pub fn known(&self, name: &str) -> Option<Known> {
        let found = self.known.lock().unwrap_or_else(PoisonError::into_inner).get(name).cloned();
        if let Some(known) = &found {
            self.take_seen_head(known.id);
        }
        found
    }

    /// Remember a session the server was asked for, with the head it read (if whole).
    pub fn remember(&self, name: &str, known: Known, head: Option<Head>) {
        let mut heads = self.heads.lock().unwrap_or_else(PoisonError::into_inner);
        match head {
            Some(head) => heads.insert(known.id, head),
            None => heads.remove(&known.id),
        };
        drop(heads);
        self.geneses.lock().unwrap_or_else(PoisonError::into_inner).insert(known.id, known.genesis);
        self.known.lock().unwrap_or_else(PoisonError::into_inner).insert(name.to_string(), known);
    }
}

/// A sequence number or length as the server stores it (`bigint`).
pub fn to_sql(n: u64) -> Result<i64, JournalError> {
    i64::try_from(n)
        .map_err(|_| JournalError::new(ErrorKind::OutOfRange, format!("{n} is past what PostgreSQL stores")))
}

/// A stored `bigint` as a sequence number or length; a negative one is damage.
pub fn from_sql(n: i64, session: &str, what: &str) -> Result<u64, JournalError> {
    u64::try_from(n).map_err(|_| {
        JournalError::new(
            ErrorKind::Corrupt,
            format!("session `{session}`: its stored {what} is negative ({n})"),
        )
        .in_session(session)
    })
}

/// A stored hash; one of another length is damage.
pub fn hash_of(bytes: &[u8], session: &str, what: &str) -> Result<Hash, JournalError> {
    <Hash>::try_from(bytes).map_err(|_| {
        JournalError::new(
            ErrorKind::Corrupt,
            format!("session `{session}`: its stored {what} is {} bytes, not 32", bytes.len()),
        )
        .in_session(session)
    })
}
