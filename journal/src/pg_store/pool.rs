//! Connections to the server: opened on demand, kept while idle, at most `MAX_OPEN` at
//! once per journal, each with its statements prepared once (a statement prepared again for
//! every call would cost a second round trip each time).
//!
//! The client is the synchronous `postgres` crate: every call blocks the calling thread
//! until the server answers, as every other journal call blocks on the disk. Code running
//! on an async runtime calls the journal from a blocking thread (`tokio::task::
//! spawn_blocking`), as `arbiter serve` does: the crate drives each connection with a
//! small runtime of its own, which may not be entered from inside another one. So that a
//! journal can still be opened and dropped anywhere, connecting and closing are done on a
//! thread of their own.

use super::fail::{sentence, Failure};
use crate::error::{ErrorKind, JournalError};
use postgres::{Client, Config, NoTls, Statement};
use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Connections one journal holds open at most: a server answers many journals (several
/// `arbiter serve` processes, command lines), and each journal's readers and writers share
/// these.
const MAX_OPEN: usize = 16;

/// One connection and its prepared statements.
pub struct Conn {
    pub client: Client,
    statements: HashMap<&'static str, Statement>,
}

impl Conn {
    /// The statement for `sql`, prepared on this connection the first time.
    pub fn prepared(&mut self, sql: &'static str) -> Result<Statement, postgres::Error> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(sql)?;
        self.statements.insert(sql, statement.clone());
        Ok(statement)
    }
}

struct Slots {
    idle: Vec<Conn>,
    open: usize,
}

/// The connections of one journal to one server.
pub struct Pool {
    config: Config,
    /// The server as messages name it (no password).
    pub shown: String,
    slots: Mutex<Slots>,
    freed: Condvar,
}

impl Pool {
    /// A pool for `config`, with one connection made at once, so that a wrong address or
    /// login fails the open with one sentence.
    pub fn connect(config: Config, shown: String) -> Result<Pool, JournalError> {
        let first = open(&config, &shown)?;
        Ok(Pool {
            config,
            shown,
            slots: Mutex::new(Slots { idle: vec![first], open: 1 }),
            freed: Condvar::new(),
        })
    }

    /// Run `work` on a connection; `what` says what it does, for messages. A read that finds
    /// its connection closed (the server restarted, an idle connection was cut) is run once
    /// more on a new one; a write never is, since it may have been committed.
    pub fn run<T>(
        &self,
        what: &str,
        retry: bool,
        mut work: impl FnMut(&mut Conn) -> Result<T, Failure>,
    ) -> Result<T, JournalError> {
        let mut tries = if retry { 2 } else { 1 };
        loop {
            tries -= 1;
            let mut conn = self.take()?;
            let result = work(&mut conn);
            let closed = conn.client.is_closed();
            self.give(conn, closed);
            match result {
                Ok(value) => return Ok(value),
                Err(Failure::Journal(e)) => return Err(e),
                Err(Failure::Pg(e)) if closed && tries > 0 => drop(e),
                Err(Failure::Pg(e)) => return Err(sentence(&self.shown, what, &e)),
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An idle connection, a new one while fewer than `MAX_OPEN` are open, or the next one
    /// given back.
    fn take(&self) -> Result<Conn, JournalError> {
        let mut slots = self.lock();
        loop {
            if let Some(conn) = slots.idle.pop() {
                return Ok(conn);
            }
            if slots.open < MAX_OPEN {
                slots.open += 1;
                drop(slots);
                return open(&self.config, &self.shown).inspect_err(|_| {
                    self.lock().open -= 1;
                    self.freed.notify_one();
                });
            }
            slots = self.freed.wait(slots).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Give a connection back; a closed one is dropped and its slot freed.
    fn give(&self, conn: Conn, closed: bool) {
        let mut slots = self.lock();
        if closed {
            slots.open -= 1;
            drop(slots);
            close(vec![conn]);
        } else {
            slots.idle.push(conn);
            drop(slots);
        }
        self.freed.notify_one();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let idle = std::mem::take(&mut self.lock().idle);
        close(idle);
    }
}

/// Connect, on a thread of its own (see the module doc).
fn open(config: &Config, shown: &str) -> Result<Conn, JournalError> {
    let connected = std::thread::scope(|scope| scope.spawn(|| config.connect(NoTls)).join());
    match connected {
        Ok(Ok(client)) => Ok(Conn { client, statements: HashMap::new() }),
        Ok(Err(e)) => Err(sentence(shown, "connecting", &e)),
        Err(_) => Err(JournalError::new(
            ErrorKind::Storage,
            format!("connecting to PostgreSQL at `{shown}` failed inside its client"),
        )),
    }
}

/// Close connections on a thread of their own (see the module doc).
fn close(conns: Vec<Conn>) {
    if conns.is_empty() {
        return;
    }
    let _ = std::thread::spawn(move || drop(conns)).join();
}
