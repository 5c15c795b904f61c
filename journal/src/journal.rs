//! The `Journal`: the typed facade every caller uses. It names, encodes, chains and
//! verifies; the store behind it (`store::Store`: sled in a directory, or a PostgreSQL
//! database) only keeps bytes.

use crate::batch::Batch;
use crate::chain::{self, Hash};
use crate::check::{self, CheckReport};
use crate::copy::{self, Copied};
use crate::error::{ErrorKind, JournalError};
use crate::events::{Events, SessionReader};
use crate::location;
use crate::meta::SessionMeta;
use crate::name::{closest, validate_name, validate_new_name};
use crate::pg_store::PgStore;
use crate::receipt::{Receipt, SealKey};
use crate::record::Record;
use crate::sled_store::{Durability, SledStore};
use crate::store::{Ack, Found, Head, HeadClaim, Loss, Store};
use crate::walk;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// An open event store. One process at a time may hold a database open.
pub struct Journal {
    store: Box<dyn Store>,
    path: PathBuf,
    read_only: bool,
}

impl Journal {
    /// Open (or create) the database at `path` for reading and writing: a directory (the
    /// embedded sled backend), or a PostgreSQL database named by a `postgres://` URL
    /// (`location::is_server`), whose tables are made on first use.
    ///
    /// Fails with `ErrorKind::InUse` when another process has a directory open, and with
    /// one sentence naming the damage when its files are damaged or the server cannot be
    /// used.
    pub fn open(path: impl AsRef<Path>) -> Result<Journal, JournalError> {
        Journal::open_with(path, Durability::default())
    }

    /// `open` with a chosen durability for appends. A PostgreSQL database ignores it: every
    /// append there is acknowledged after a commit the server has flushed.
    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<Journal, JournalError> {
        let path = path.as_ref();
        let store: Box<dyn Store> = match location::server_url(path) {
            Some(url) => Box::new(PgStore::open(url, false)?),
            None => Box::new(SledStore::open(path, durability)?),
        };
        Ok(Journal { store, path: path.to_path_buf(), read_only: false })
    }

    /// Open an existing database only to read it: nothing is written to its directory, not
    /// on opening and not on closing, so it works on a full disk and on a read-only copy.
    /// Writes fail with `ErrorKind::ReadOnly`. What commands that only read should use; it
    /// is also the cheaper open (no write-ahead log is made or started afresh, nothing is
    /// flushed or synced on close).
    ///
    /// On PostgreSQL, the server itself refuses writes on the journal's connections
    /// (`default_transaction_read_only`), and a database without a journal's tables is an
    /// error rather than made.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Journal, JournalError> {
        let path = path.as_ref();
        let store: Box<dyn Store> = match location::server_url(path) {
            Some(url) => Box::new(PgStore::open(url, true)?),
            None => Box::new(SledStore::open_read_only(path)?),
        };
        Ok(Journal { store, path: path.to_path_buf(), read_only: true })
    }

    /// The database: its directory, or its server's URL as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the journal was opened with `open_read_only`.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Force everything written so far to disk (appends already do this themselves).
    pub fn flush(&self) -> Result<(), JournalError> {
        self.store.flush()
    }

    /// A session's metadata. An unknown name is an error that suggests a close one.
    pub fn session(&self, name: &str) -> Result<SessionMeta, JournalError> {
        Ok(self.lookup(name)?.meta)
    }

    /// Every session, ordered by name. An error naming the loss when the store lost a
    /// session it had acknowledged.
    pub fn sessions(&self) -> Result<Vec<(String, SessionMeta)>, JournalError> {
        self.store.sessions()
    }

    /// Number of records in a session (its next sequence number).
    pub fn len(&self, name: &str) -> Result<u64, JournalError> {
        let found = self.lookup(name)?;
        Ok(self.head(name, &found)?.len)
    }

    /// Create an empty session. Refuses a name already taken or not allowed.
    pub fn create_session(&self, name: &str, meta: &SessionMeta) -> Result<(), JournalError> {
        self.import::<()>(name, meta, &[]).map(|_| ())
    }

    /// Create a session holding `records` (numbered from 0), durably, all or nothing: on any
    /// error no trace of the session remains. Refuses a name already taken. Returns the length.
    pub fn import<E: Serialize>(
        &self,
        name: &str,
        meta: &SessionMeta,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        validate_name(name)?;
        validate_new_name(name)?;
        let genesis = chain::genesis(name, meta)?;
        let batch = Batch::encode(name, 0, records)?;
        Ok(self.store.create(name, meta, &genesis, &batch)?.len)
    }

    /// Append `records` at sequence numbers `expected_next..`, durably, all or nothing.
    /// `expected_next` must be the log's length: otherwise nothing is written and the error,
    /// of kind `Conflict`, says what the log holds. Returns the new length.
    ///
    /// A single append is acknowledged through the store's fastest durable path (for sled,
    /// one write and one `fdatasync` of its write-ahead log); importers and benchmarks batch
    /// by passing many records.
    pub fn append<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        self.append_with(name, expected_next, records, Ack::Durable)
    }

    /// `append` without making it durable: the records are written but may be lost in a
    /// crash until the next `flush` (or a later durable append). For importers that flush
    /// once at the end. A crash keeps a prefix of the batches.
    pub fn append_unflushed<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
    ) -> Result<u64, JournalError> {
        self.append_with(name, expected_next, records, Ack::Buffered)
    }

    fn append_with<E: Serialize>(
        &self,
        name: &str,
        expected_next: u64,
        records: &[Record<E>],
        ack: Ack,
    ) -> Result<u64, JournalError> {
        let found = self.lookup(name)?;
        let batch = Batch::encode(name, expected_next, records)?;
        Ok(self.store.append(name, found.id, expected_next, &batch, ack)?.len)
    }

    /// A session's metadata, retractions and record stream from `from`, looking the session
    /// up once: verifying thousands of short sessions pays the lookup per session, and
    /// `session`, `retractions` and `events` called apart each pay it again.
    pub fn read_session<E: DeserializeOwned>(
        &self,
        name: &str,
        from: u64,
    ) -> Result<SessionReader<E>, JournalError> {
        let found = self.lookup(name)?;
        let head = self.head(name, &found)?;
        let retractions = self.store.retractions(name, found.id)?;
        let events = self.events_of(name, &found, head.len, from, retractions.clone())?;
        Ok(SessionReader { meta: found.meta, retractions, events })
    }

    /// Stream a session's records from sequence `from` to the length it had when called, one
    /// page in memory at a time. Every page is verified against the hash chain before any
    /// of its records is handed out, and every `Retract` record against the retraction
    /// index replay skips records by: damage ends the stream with an error naming the
    /// session and the first broken record.
    pub fn events<E: DeserializeOwned>(&self, name: &str, from: u64) -> Result<Events<E>, JournalError> {
        let found = self.lookup(name)?;
        let head = self.head(name, &found)?;
        let retractions = self.store.retractions(name, found.id)?;
        self.events_of(name, &found, head.len, from, retractions)
    }

    /// The stream of records `from..len`, held to the chain and to the retraction index
    /// (`retractions`) that replay uses to skip records.
    fn events_of<E>(
        &self,
        name: &str,
        found: &Found,
        len: u64,
        from: u64,
        retractions: Vec<(u64, u64)>,
    ) -> Result<Events<E>, JournalError> {
        if from >= len {
            return Ok(Events::new(name, None, None, from, len, retractions));
        }
        let genesis = if from == 0 { Some(chain::genesis(name, &found.meta)?) } else { None };
        let scan = self.store.scan(name, found.id, from)?;
        Ok(Events::new(name, Some(scan), genesis, from, len, retractions))
    }

    /// The chain hash after the first `n` records of a session: the genesis for `n = 0`, the
    /// link of record `n - 1` otherwise (so `hash_at(s, len)` is the hash of the whole log,
    /// and a fork at `n` records `Parent { at: n, hash: hash_at(s, n) }`).
    pub fn hash_at(&self, name: &str, n: u64) -> Result<Hash, JournalError> {
        let found = self.lookup(name)?;
        let head = self.head(name, &found)?;
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
            return chain::genesis(name, &found.meta);
        }
        walk::hash_after(name, self.store.scan(name, found.id, n - 1)?.as_mut(), n)
    }

    /// The sequence numbers retracted in a session, from a small index kept on append, so
    /// replay knows them before decoding any record.
    pub fn retracted(&self, name: &str) -> Result<BTreeSet<u64>, JournalError> {
        Ok(self.retractions(name)?.into_iter().map(|(_, target)| target).collect())
    }

    /// Every retraction of a session in log order: `(sequence of the Retract record,
    /// sequence it retracts)`.
    pub fn retractions(&self, name: &str) -> Result<Vec<(u64, u64)>, JournalError> {
        let found = self.lookup(name)?;
        self.store.retractions(name, found.id)
    }

    /// Verify a session's hash chain, sequence numbers, record encodings (as `Record<E>`),
    /// head (against what the store acknowledged) and retraction index. `Err` only when the
    /// session cannot be read at all; damage is reported in the `CheckReport`.
    pub fn check<E: DeserializeOwned>(&self, name: &str) -> Result<CheckReport, JournalError> {
        let found = self.lookup(name)?;
        check::check::<E>(self.store.as_ref(), name, &found)
    }

    /// Store the state after the first `seq` records of a session (`seq` at most its length),
    /// produced under `rules_version`. Replaces a snapshot at the same `seq`. Not flushed.
    pub fn put_snapshot(
        &self,
        name: &str,
        seq: u64,
        rules_version: u32,
        bytes: &[u8],
    ) -> Result<(), JournalError> {
        let found = self.lookup(name)?;
        let head = self.head(name, &found)?;
        if seq > head.len {
            return Err(JournalError::new(
                ErrorKind::InvalidRecord,
                format!(
                    "session `{name}` has {} records, so it has no state after {seq} to snapshot",
                    head.len
                ),
            )
            .in_session(name)
            .at(seq));
        }
        self.store.put_snapshot(name, found.id, seq, rules_version, bytes)
    }

    /// The snapshot with the greatest sequence at or before `seq` made under `rules_version`:
    /// `(its seq, its bytes)`, or `None` when there is none.
    pub fn snapshot_before(
        &self,
        name: &str,
        seq: u64,
        rules_version: u32,
    ) -> Result<Option<(u64, Vec<u8>)>, JournalError> {
        let found = self.lookup(name)?;
        self.store.snapshot_before(name, found.id, seq, rules_version)
    }

    /// Delete a session's snapshots made under any rules version but `keep_rules_version`.
    /// Returns how many were deleted.
    pub fn discard_snapshots(&self, name: &str, keep_rules_version: u32) -> Result<usize, JournalError> {
        let found = self.lookup(name)?;
        self.store.discard_snapshots(name, found.id, keep_rules_version)
    }

    /// Every session whose records the store lost after acknowledging them (its data file
    /// damaged): each is refused, for reading and appending, until its loss is accepted.
    pub fn losses(&self) -> Result<Vec<Loss>, JournalError> {
        self.store.losses()
    }

    /// The user's decision that a session holds only what its store still has: it may be
    /// read and continued again from there (a session whose data is gone entirely is
    /// forgotten). Returns the loss given up, `None` when the session had none. Copy the
    /// database directory first when a backup might still restore the rest.
    pub fn accept_loss(&self, name: &str) -> Result<Option<Loss>, JournalError> {
        validate_name(name)?;
        self.store.accept_loss(name)
    }

    /// Close a journal in a process that ends right after (a command line's last act): a
    /// read-only journal whose close has nothing to write may then leave its memory and
    /// locks to the end of the process, which is quicker than freeing them one by one; any
    /// other is closed as when dropped. Not for a process that goes on: what is left is
    /// only given back when it ends.
    pub fn close_at_exit(self) {
        self.store.close_at_exit();
    }

    /// Remove the database (its whole directory) if it holds no session; whether it did.
    /// The journal's locks are held throughout, so no other process can store a session in
    /// it between the look and the removal. For a command that created a database for work
    /// that then failed.
    pub fn remove_if_empty(self) -> Result<bool, JournalError> {
        if self.read_only {
            return Ok(false);
        }
        self.store.remove_if_empty()
    }

    /// Seal a session: a receipt, signed with `key`, of its length and of its chain hash
    /// recomputed from the genesis over every stored record (damage is an error, so a
    /// damaged session is never sealed). `now` is the time to state, unix seconds.
    pub fn seal(&self, name: &str, key: &SealKey, now: u64) -> Result<Receipt, JournalError> {
        let found = self.lookup(name)?;
        let (records, head) = check::chain_after(self.store.as_ref(), name, &found, None)?;
        Ok(Receipt::sign(key, name, records, head, now))
    }

    /// Hold a session to a receipt: the receipt's signature must verify (and its signer be
    /// `signer`, hex, when given), and the chain recomputed from the genesis over the stored
    /// records must reach the sealed hash after the sealed number of records. `Ok(None)`
    /// when it holds, `Ok(Some(sentence))` saying how the session contradicts the receipt.
    pub fn check_receipt(
        &self,
        name: &str,
        receipt: &Receipt,
        signer: Option<&str>,
    ) -> Result<Option<String>, JournalError> {
        if let Err(e) = receipt.verify() {
            return Ok(Some(e.message().to_string()));
        }
        if let Some(expected) = signer {
            if !expected.trim().eq_ignore_ascii_case(&receipt.signer_hex()) {
                return Ok(Some(format!(
                    "the receipt was signed by key {}, not by {}",
                    receipt.signer_hex(),
                    expected.trim()
                )));
            }
        }
        if receipt.session != name {
            return Ok(Some(format!("the receipt is for session `{}`, not `{name}`", receipt.session)));
        }
        let found = self.lookup(name)?;
        let len = self.head(name, &found)?.len;
        if len < receipt.records {
            return Ok(Some(format!(
                "session `{name}` holds {len} records, fewer than the {} sealed: records were removed",
                receipt.records
            )));
        }
        match check::chain_after(self.store.as_ref(), name, &found, Some(receipt.records)) {
            Err(e) if matches!(e.kind(), ErrorKind::Corrupt | ErrorKind::Lost) => Ok(Some(format!(
                "session `{name}` no longer holds the history sealed: {}",
                e.message()
            ))),
            Err(e) => Err(e),
            Ok((_, hash)) if hash == receipt.head => Ok(None),
            Ok(_) => Ok(Some(format!(
                "session `{name}` was rewritten after it was sealed: its first {} records no longer hash to the \
                 sealed head (a record, their order or the session's metadata changed)",
                receipt.records
            ))),
        }
    }

    /// Copy session `name` into the journal `to` (another database, of either backend) with
    /// its chain intact: its metadata and the stored bytes of its records, verified against
    /// the chain on the way, in one all-or-nothing write. A session `to` already holds is
    /// left as it is when it is the same history and continued when it is a prefix of it
    /// (an earlier copy); anything else there is refused. Snapshots are not copied (they are
    /// a cache).
    pub fn copy_session(&self, name: &str, to: &Journal) -> Result<Copied, JournalError> {
        let found = self.lookup(name)?;
        copy::copy(self.store.as_ref(), to.store.as_ref(), name, &found)
    }

    /// A session by name, or the error for an unknown one (suggesting a close name).
    fn lookup(&self, name: &str) -> Result<Found, JournalError> {
        match self.store.find(name)? {
            Some(found) => Ok(found),
            None => Err(self.not_found(name)),
        }
    }

    fn not_found(&self, name: &str) -> JournalError {
        let names = self.store.names().unwrap_or_default();
        let hint = match closest(name, names.iter().map(String::as_str)) {
            Some(close) => format!("; did you mean `{close}`?"),
            None if names.is_empty() => " (the database has no sessions yet)".to_string(),
            None => String::new(),
        };
        JournalError::new(ErrorKind::SessionNotFound, format!("session `{name}` not found{hint}"))
            .in_session(name)
    }

    /// A session's head, or the error that it cannot be told (damage, or a loss).
    fn head(&self, name: &str, found: &Found) -> Result<Head, JournalError> {
        match self.store.head(name, found.id)? {
            HeadClaim::Known(head) => Ok(head),
            HeadClaim::Unreadable { from, what } => {
                Err(JournalError::new(ErrorKind::Corrupt, what).in_session(name).at(from))
            }
            HeadClaim::Lost(loss) => {
                Err(JournalError::new(ErrorKind::Lost, loss.message).in_session(name).at(loss.holds))
            }
        }
    }
}
