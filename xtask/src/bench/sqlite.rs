//! The SQLite baseline: what a user would otherwise pick for a durable event table.
//!
//! WAL mode with `synchronous=FULL` so a committed transaction is on the disk, one table
//! keyed by (session, seq) without a rowid (the key is the clustered index, its best case),
//! payloads as BLOBs holding the same encoded bytes the journal stores, so the comparison
//! is about the storage engine, not the serialization.

use super::store::Store;
use crate::Fallible;
use arbiter_journal::codec;
use rusqlite::{params, Connection};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::{Path, PathBuf};

pub struct Sqlite {
    conn: Connection,
    path: PathBuf,
}

impl Sqlite {
    /// The database in `dir`, with the table created.
    pub fn create(dir: &Path) -> Fallible<Sqlite> {
        let db = Sqlite::open(dir)?;
        db.conn.execute_batch(
            "CREATE TABLE events (
                 session TEXT NOT NULL,
                 seq INTEGER NOT NULL,
                 payload BLOB NOT NULL,
                 PRIMARY KEY (session, seq)
             ) WITHOUT ROWID;",
        )?;
        Ok(db)
    }

    /// The database in `dir` as it is (WAL, `synchronous=FULL`).
    pub fn open(dir: &Path) -> Fallible<Sqlite> {
        let path = dir.join("events.sqlite");
        let conn = Connection::open(&path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        Ok(Sqlite { conn, path })
    }

    fn insert(conn: &Connection, session: &str, seq: u64, event: &impl Serialize) -> Fallible {
        let bytes = codec::encode(event)?;
        let seq = i64::try_from(seq)?;
        conn.prepare_cached("INSERT INTO events (session, seq, payload) VALUES (?1, ?2, ?3)")?
            .execute(params![session, seq, bytes])?;
        Ok(())
    }
}

impl<E: Serialize + DeserializeOwned> Store<E> for Sqlite {
    fn append_one(&mut self, session: &str, seq: u64, event: &E) -> Fallible {
        // Autocommit: the INSERT is its own transaction, durable when it returns.
        Sqlite::insert(&self.conn, session, seq, event)
    }

    fn append_batch(&mut self, session: &str, first_seq: u64, events: &[E]) -> Fallible {
        let tx = self.conn.transaction()?;
        for (i, e) in events.iter().enumerate() {
            Sqlite::insert(&tx, session, first_seq + i as u64, e)?;
        }
        tx.commit()?;
        Ok(())
    }

    fn scan(&mut self, session: &str, f: &mut dyn FnMut(E) -> Fallible) -> Fallible<u64> {
        let mut stmt =
            self.conn.prepare_cached("SELECT payload FROM events WHERE session = ?1 ORDER BY seq")?;
        let mut rows = stmt.query(params![session])?;
        let mut n = 0;
        while let Some(row) = rows.next()? {
            let bytes = row.get_ref(0)?.as_blob()?;
            f(codec::decode::<E>(bytes)?)?;
            n += 1;
        }
        Ok(n)
    }

    fn disk_bytes(&mut self) -> Fallible<u64> {
        // Fold the WAL into the database so the file sizes are what the data needs.
        self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        let mut total = 0;
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            if let Ok(meta) = std::fs::metadata(&p) {
                total += meta.len();
            }
        }
        Ok(total)
    }
}
