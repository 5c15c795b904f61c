//! The tables a journal keeps in a PostgreSQL database, and every statement run on them.
//!
//! ```text
//! arbiter_format     one row: the layout's version
//! arbiter_sessions   id, name (C collation: ordered byte by byte, as sled orders keys),
//!                    meta (the codec's encoding, as the genesis binds it), genesis,
//!                    len and last: the head, updated in the transaction that adds records
//! arbiter_records    (session, seq) primary key, link (the full chain hash after the
//!                    record), body (the codec's encoding), retracts (the target of a
//!                    Retract record, NULL otherwise; a partial index is the retraction index)
//! arbiter_snapshots  (session, rules_version, seq) primary key, state: the cache
//! ```
//!
//! One row per record keeps the log readable with SQL and lets the server's own index
//! answer "the records from N". Every record carries its whole link (32 bytes), so a page
//! of rows can start anywhere and the walk holds every record to its full hash, not only
//! to a tag. There are no foreign keys: the chain checks what they would (a record without
//! its session is never read; a session without its records fails `check`), and a
//! per-row trigger would cost every batch.
//!
//! Every write is one statement or one transaction, conditional on the head it read, so
//! two writers never both win a sequence number: the update of the session's row takes its
//! row lock, and the second writer re-checks the length after the first commits and finds
//! it moved. The primary key on `(session, seq)` refuses a duplicate regardless.

/// The layout's version, stored in `arbiter_format`.
pub const FORMAT: i32 = 1;

/// An advisory lock key, so that two processes opening a fresh database at once do not
/// both create the tables ("arbiter" in ASCII).
pub const CREATE_LOCK: i64 = 0x6172_6269_7465_72;

/// The tables, made in one transaction under `CREATE_LOCK`.
pub const CREATE: &str = r#"
CREATE TABLE IF NOT EXISTS arbiter_format (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS arbiter_sessions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text COLLATE "C" NOT NULL UNIQUE,
    meta bytea NOT NULL,
    genesis bytea NOT NULL,
    len bigint NOT NULL,
    last bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS arbiter_records (
    session bigint NOT NULL,
    seq bigint NOT NULL,
    link bytea NOT NULL,
    body bytea NOT NULL,
    retracts bigint,
    PRIMARY KEY (session, seq)
);
CREATE INDEX IF NOT EXISTS arbiter_retractions ON arbiter_records (session, seq)
    WHERE retracts IS NOT NULL;
CREATE TABLE IF NOT EXISTS arbiter_snapshots (
    session bigint NOT NULL,
    rules_version integer NOT NULL,
    seq bigint NOT NULL,
    state bytea NOT NULL,
    PRIMARY KEY (session, rules_version, seq)
);
"#;

pub const FORMAT_OF: &str = "SELECT version FROM arbiter_format";
pub const SET_FORMAT: &str =
    "INSERT INTO arbiter_format (version) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM arbiter_format)";

pub const NAMES: &str = "SELECT name FROM arbiter_sessions ORDER BY name";
pub const SESSIONS: &str = "SELECT name, meta FROM arbiter_sessions ORDER BY name";
pub const FIND: &str = "SELECT id, meta, genesis, len, last FROM arbiter_sessions WHERE name = $1";
pub const HEAD: &str = "SELECT len, last FROM arbiter_sessions WHERE id = $1";
pub const GENESIS: &str = "SELECT genesis FROM arbiter_sessions WHERE id = $1";

/// A page of records from `$2` on. The first row asked for may be the record before the
/// page, whose link is the hash the page starts from.
pub const PAGE: &str = "SELECT seq, link, body FROM arbiter_records \
     WHERE session = $1 AND seq >= $2 ORDER BY seq LIMIT $3";

pub const RETRACTIONS: &str = "SELECT seq, retracts FROM arbiter_records \
     WHERE session = $1 AND retracts IS NOT NULL ORDER BY seq";

/// Create a session and its first records in one statement: `(id, rows)`, the id NULL when
/// the name is taken (and then nothing was written).
pub const CREATE_SESSION: &str = "WITH made AS ( \
         INSERT INTO arbiter_sessions (name, meta, genesis, len, last) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (name) DO NOTHING RETURNING id), \
     added AS ( \
         INSERT INTO arbiter_records (session, seq, link, body, retracts) \
         SELECT made.id, r.seq, r.link, r.body, r.retracts FROM made, \
             unnest($6::bigint[], $7::bytea[], $8::bytea[], $9::bigint[]) AS r(seq, link, body, retracts) \
         RETURNING 1) \
     SELECT (SELECT id FROM made), (SELECT count(*) FROM added)";

/// Move a session's head from (`$2` records, hash `$3`) to (`$4`, `$5`), only if it is
/// there and its last stored record (when it has one) ends at that hash: the id, or no row.
pub const MOVE_HEAD: &str = "UPDATE arbiter_sessions SET len = $4, last = $5 \
     WHERE id = $1 AND len = $2 AND last = $3 \
     AND ($2 = 0 OR EXISTS (SELECT 1 FROM arbiter_records r \
         WHERE r.session = $1 AND r.seq = $2 - 1 AND r.link = $3)) \
     RETURNING id";

/// `MOVE_HEAD` and the records in one statement (a batch that fits one): how many records
/// were added, 0 when the head had moved (and then nothing was written).
pub const APPEND: &str = "WITH moved AS ( \
         UPDATE arbiter_sessions SET len = $4, last = $5 \
         WHERE id = $1 AND len = $2 AND last = $3 \
         AND ($2 = 0 OR EXISTS (SELECT 1 FROM arbiter_records r \
             WHERE r.session = $1 AND r.seq = $2 - 1 AND r.link = $3)) \
         RETURNING id) \
     INSERT INTO arbiter_records (session, seq, link, body, retracts) \
     SELECT moved.id, r.seq, r.link, r.body, r.retracts FROM moved, \
         unnest($6::bigint[], $7::bytea[], $8::bytea[], $9::bigint[]) AS r(seq, link, body, retracts)";

/// Records of a larger batch, in chunks, inside the transaction that moved the head.
pub const INSERT_RECORDS: &str = "INSERT INTO arbiter_records (session, seq, link, body, retracts) \
     SELECT $1, r.seq, r.link, r.body, r.retracts \
     FROM unnest($2::bigint[], $3::bytea[], $4::bytea[], $5::bigint[]) AS r(seq, link, body, retracts)";

/// A session row for a large batch, whose records follow in chunks: its id, or no row when
/// the name is taken.
pub const INSERT_SESSION: &str = "INSERT INTO arbiter_sessions (name, meta, genesis, len, last) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING RETURNING id";

pub const PUT_SNAPSHOT: &str = "INSERT INTO arbiter_snapshots (session, rules_version, seq, state) \
     VALUES ($1, $2, $3, $4) \
     ON CONFLICT (session, rules_version, seq) DO UPDATE SET state = EXCLUDED.state";
pub const SNAPSHOT_BEFORE: &str = "SELECT seq, state FROM arbiter_snapshots \
     WHERE session = $1 AND rules_version = $2 AND seq <= $3 ORDER BY seq DESC LIMIT 1";
pub const DISCARD_SNAPSHOTS: &str =
    "DELETE FROM arbiter_snapshots WHERE session = $1 AND rules_version <> $2";
