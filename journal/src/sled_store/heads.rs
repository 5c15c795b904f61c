//! The record of heads: every session's acknowledged length and last chain hash, in a file
//! beside sled's own, `arbiter-heads`, where sled's recovery cannot shorten it.
//!
//! sled recovers its log up to the first record whose checksum fails and silently drops
//! everything after it (a torn write after a crash looks the same to it as bit rot). A
//! damaged data file therefore opens as an older database: sessions written last come back
//! shorter, or not at all, and nothing says so. This file is what the journal compares
//! sled's answer with. It is written at every checkpoint (see `SledStore::checkpoint`),
//! after sled's data is flushed and synced, with the heads of the sessions written since
//! the one before: so it can lag behind sled after a crash, never run ahead of it. Appends
//! acknowledged through the write-ahead log since the last checkpoint are not in it; the
//! log itself holds them, with the hash they end at.
//!
//! An entry is added without an `fsync` of its own: it is written after the data it
//! describes is synced, so it cannot run ahead of sled whatever happens to it, and a
//! process crash does not lose it (the kernel has it); only a power cut can, which leaves
//! the record one or more checkpoints behind. Closing the journal syncs it. (Syncing every
//! entry would cost every batched append a second device round trip.)
//!
//! A checkpoint also stores its generation in sled (`layout::GENERATION_KEY`) just before
//! flushing. sled loses a suffix of its log, and the generation is written after every
//! write the checkpoint covers, so a data file that reads back an older generation than
//! this file lost something: `open` then compares every session. Otherwise each session is
//! compared the first time it is used.
//!
//! Layout: `MAGIC`, then entries appended one per checkpoint, each `length (u32) ‖ CRC-32
//! of the body (u32) ‖ body`, the body `generation (u64) ‖ count (u32) ‖ count × (name
//! length (u16) ‖ name ‖ records (u64) ‖ chain hash after them (32 bytes))`, integers
//! big-endian. `records = u64::MAX` records a session given up (`Journal::accept_loss` on a
//! session whose data is gone). Reading stops at a torn last entry (a crash while
//! appending one: nothing was lost, the record only lags): one the file ends inside, or one
//! whole by its length with sectors a crash left as zeros (`unwritten_sector`). A bad
//! entry with a whole one after it is damage, and so is a whole last entry that fails its
//! check with no such zeros: reading it as torn would drop the heads that detect a loss. When the file holds several times what it records, it is rewritten
//! whole (a temporary file, synced, renamed over it).

use super::layout::HEADS_FILE;
use crate::chain::Hash;
use crate::error::{ErrorKind, JournalError};
use crate::store::Head;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"arbhds\x00\x01";
/// Bytes before an entry's body: its length and CRC.
const FRAME: usize = 8;
/// `records` of a session given up.
const GIVEN_UP: u64 = u64::MAX;
/// The file is rewritten whole once it is larger than this and than `REWRITE_FACTOR` times
/// what one entry of every recorded head takes (reckoned at 64 bytes a head). Twice keeps
/// the file near what it records (it is part of a journal's bytes on disk) and costs little:
/// a rewrite writes what the record holds, after at least as much was added since the last.
const REWRITE_ABOVE: u64 = 64 << 10;
const REWRITE_FACTOR: u64 = 2;

/// Lookups answered from the file's bytes before the heads are put in a map: a command on
/// one or two sessions never pays for the map (about 2 µs per session of the database),
/// one that reads many pays for it once.
const LOOKUPS_BEFORE_MAP: u32 = 16;

/// The heads recorded so far.
#[derive(Debug, Default)]
pub struct Recorded {
    /// Every session's acknowledged head at the last checkpoint recorded, once the entries
    /// read from the file are applied (`pending`).
    heads: BTreeMap<String, Head>,
    /// The entries read from the file and not yet applied to `heads`: a command that reads
    /// one session looks it up in them instead (see `get`).
    pending: Option<Pending>,
    /// Lookups answered from `pending` so far.
    lookups: u32,
    /// The generation of that checkpoint (0 when none is recorded).
    pub generation: u64,
    /// Bytes of the file up to the end of its last whole entry (where the next one goes).
    good_len: u64,
    /// Bytes of the file as found (more than `good_len` after a torn last entry).
    file_len: u64,
}

/// A record's bytes, every entry checked whole, and where each entry's heads are, oldest
/// first.
#[derive(Debug, Default)]
struct Pending {
    bytes: Vec<u8>,
    entries: Vec<Range<usize>>,
}

impl Recorded {
    /// The head recorded for session `name`: `None` when it has none (never recorded, or
    /// given up).
    pub fn get(&mut self, name: &str) -> Option<Head> {
        if let Some(pending) = self.pending.as_ref().filter(|_| self.lookups < LOOKUPS_BEFORE_MAP) {
            self.lookups += 1;
            // The newest entry naming the session holds its head (the last mention in it).
            for range in pending.entries.iter().rev() {
                // Names compared as bytes: every one was checked to be UTF-8 when the file
                // was read (`entry_at`), so the check is not paid again per lookup.
                if let Some(head) = last_named(&pending.bytes[range.clone()], name.as_bytes()) {
                    return head;
                }
            }
            return None;
        }
        self.heads().get(name).copied()
    }

    /// Every recorded head, by session name.
    pub fn heads(&mut self) -> &BTreeMap<String, Head> {
        self.apply_pending();
        &self.heads
    }

    /// Apply the entries read from the file, in order, to the map of heads.
    fn apply_pending(&mut self) {
        let Some(pending) = self.pending.take() else { return };
        for range in &pending.entries {
            for (name, head) in Items(&pending.bytes[range.clone()]) {
                match head {
                    Some(head) => self.heads.insert(name.to_string(), head),
                    None => self.heads.remove(name),
                };
            }
        }
    }
}

/// The record of a database directory, `None` when it has none (a new database, or one
/// made by an earlier build). An error says what is damaged.
pub fn read(dir: &Path) -> Result<Option<Recorded>, JournalError> {
    let path = dir.join(HEADS_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error("read", &path, e)),
    };
    parse(bytes).map(Some).map_err(|what| {
        JournalError::new(
            ErrorKind::Storage,
            format!(
                "database `{}` is damaged: its record of session heads `{}` {what}. Without it, records the \
                 data file may have lost cannot be detected; keep a copy of the directory, and move the file \
                 aside to open the database with a record rebuilt from the data file as it is",
                dir.display(),
                path.display()
            ),
        )
    })
}

/// Parse a record's bytes: every entry is checked whole here (so damage is found at once,
/// whatever is looked up later); the heads in them are read when asked for.
fn parse(bytes: Vec<u8>) -> Result<Recorded, String> {
    if bytes.get(..MAGIC.len()) != Some(&MAGIC[..]) {
        return Err("does not start as one does".to_string());
    }
    let mut recorded = Recorded { file_len: bytes.len() as u64, ..Recorded::default() };
    let mut entries = Vec::new();
    let mut at = MAGIC.len();
    while at < bytes.len() {
        match entry_at(&bytes, at) {
            Some((generation, heads, next)) if generation > recorded.generation => {
                entries.push(heads);
                recorded.generation = generation;
                at = next;
            }
            Some((generation, ..)) => {
                return Err(format!("holds generation {generation} after {}", recorded.generation))
            }
            None => {
                // A torn last entry, unless a whole one follows it, or it is whole and not
                // what an interrupted write leaves.
                if (at + 1..bytes.len()).any(|later| {
                    entry_at(&bytes, later).is_some_and(|(generation, ..)| generation > recorded.generation)
                }) {
                    return Err(format!("is damaged at byte {at}, with whole entries after it"));
                }
                if let Some(end) = whole_end(&bytes, at).filter(|&end| !unwritten_sector(&bytes[at..end], at))
                {
                    return Err(format!(
                        "is damaged at byte {at}: its last entry (bytes {at} to {end}) is whole but does not \
                         match its checksum, and holds none of the zeros an interrupted write leaves"
                    ));
                }
                break;
            }
        }
    }
    recorded.good_len = at as u64;
    recorded.pending = Some(Pending { bytes, entries });
    Ok(recorded)
}

/// Where the entry at `at` ends when the file holds all of it, as its length says: an
/// entry that is whole by length and still fails its check was either torn by a crash that
/// wrote the file's new length but not all of its new sectors, or damaged afterwards.
fn whole_end(bytes: &[u8], at: usize) -> Option<usize> {
    let len = u32::from_be_bytes(bytes.get(at..at.checked_add(4)?)?.try_into().ok()?) as usize;
    let end = at.checked_add(FRAME)?.checked_add(len)?;
    (end <= bytes.len()).then_some(end)
}

/// Whether `entry` (starting at file offset `at`) has a piece that a crash left unwritten:
/// the part of it inside one 512-byte sector of the file, at least 4 bytes long, all zeros.
/// A file's new sectors that never reached the disk read back as zeros (a filesystem
/// does not show the old contents of a block past the end it had), whereas damage to
/// written bytes (a flipped bit, an overwrite) leaves them anything else; a written entry
/// never holds 4 zero bytes at a sector's edge by chance but once in 2^32. Pieces shorter
/// than 4 bytes are not counted, so a damaged entry is not excused by one zero byte that
/// ends it; a crash that left only such a piece unwritten is reported as damage, with the
/// way out the message gives (the record rebuilt from the data file).
fn unwritten_sector(entry: &[u8], at: usize) -> bool {
    const SECTOR: usize = 512;
    let mut start = 0;
    while start < entry.len() {
        let end = entry.len().min(start + SECTOR - (at + start) % SECTOR);
        let piece = &entry[start..end];
        if piece.len() >= 4 && piece.iter().all(|&b| b == 0) {
            return true;
        }
        start = end;
    }
    false
}

/// The heads of one entry, checked whole by `entry_at`: `(name, None)` for a session given
/// up. Stops at anything malformed (which `entry_at` tells by what is left).
struct Items<'a>(&'a [u8]);

impl<'a> Iterator for Items<'a> {
    type Item = (&'a str, Option<Head>);

    fn next(&mut self) -> Option<Self::Item> {
        let (name, head) = raw_item(&mut self.0)?;
        Some((std::str::from_utf8(name).ok()?, head))
    }
}

/// The next head in `rest` (name bytes, head), moving `rest` past it.
fn raw_item<'a>(rest: &mut &'a [u8]) -> Option<(&'a [u8], Option<Head>)> {
    let whole: &'a [u8] = rest;
    let name_len = u16::from_be_bytes(whole.get(..2)?.try_into().ok()?) as usize;
    let (item, after) = whole.split_at_checked(2 + name_len + 8 + 32)?;
    *rest = after;
    let (name, mut head) = item[2..].split_at(name_len);
    Some((name, raw_head(&mut head)?))
}

/// A head's bytes (records, chain hash) decoded: `None` inside for a session given up.
fn raw_head(bytes: &mut &[u8]) -> Option<Option<Head>> {
    let len = u64::from_be_bytes(bytes.get(..8)?.try_into().ok()?);
    let last: Hash = bytes.get(8..40)?.try_into().ok()?;
    *bytes = &bytes[40..];
    Some((len != GIVEN_UP).then_some(Head { len, last }))
}

/// The head the heads `rest` (an entry's, checked whole) last give for the session named
/// `name`, `None` when they do not name it. Only names are compared on the way (a lookup
/// walks every head of the record); the head is decoded once, where it was found.
fn last_named(mut rest: &[u8], name: &[u8]) -> Option<Option<Head>> {
    let mut found = None;
    while let Some(&[high, low]) = rest.get(..2) {
        let name_len = usize::from(u16::from_be_bytes([high, low]));
        let Some((item, after)) = rest.split_at_checked(2 + name_len + 8 + 32) else { break };
        if name_len == name.len() && &item[2..2 + name_len] == name {
            found = Some(item);
        }
        rest = after;
    }
    let mut after_name = found?.get(2 + name.len()..)?;
    raw_head(&mut after_name)
}

/// The entry at `at`: its generation, where its heads are in `bytes` and where the next
/// entry starts; `None` when there is no whole, valid entry there.
fn entry_at(bytes: &[u8], at: usize) -> Option<(u64, Range<usize>, usize)> {
    let frame = bytes.get(at..at.checked_add(FRAME)?)?;
    let len = u32::from_be_bytes(frame[..4].try_into().ok()?) as usize;
    let crc = u32::from_be_bytes(frame[4..].try_into().ok()?);
    let end = at.checked_add(FRAME)?.checked_add(len)?;
    let body = bytes.get(at + FRAME..end)?;
    if len < 12 || crc32fast::hash(body) != crc {
        return None;
    }
    let generation = u64::from_be_bytes(body[..8].try_into().ok()?);
    let count = u32::from_be_bytes(body[8..12].try_into().ok()?);
    // The same check as reading each item through `Items` (its shape, its name UTF-8), with
    // an ASCII name, the rule, taken without `from_utf8`: opening a database checks every
    // name of its record, and for a short name that call's set-up cost more than the check
    // (about a fifth of the record's check on a database of 14,000 sessions).
    let mut rest = &body[12..];
    for _ in 0..count {
        let (name, _) = raw_item(&mut rest)?;
        if !name.is_ascii() {
            std::str::from_utf8(name).ok()?;
        }
    }
    rest.is_empty().then_some((generation, at + FRAME + 12..end, end))
}

/// One entry's bytes.
fn encode(generation: u64, heads: &[(&str, Option<Head>)]) -> Vec<u8> {
    let mut out = vec![0u8; FRAME];
    out.extend_from_slice(&generation.to_be_bytes());
    out.extend_from_slice(&(heads.len() as u32).to_be_bytes());
    for (name, head) in heads {
        // Session names are at most `MAX_NAME_LEN` bytes, far below u16::MAX.
        out.extend_from_slice(&(name.len() as u16).to_be_bytes());
        out.extend_from_slice(name.as_bytes());
        let (len, last) = head.map_or((GIVEN_UP, [0; 32]), |h| (h.len, h.last));
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&last);
    }
    let body_len = (out.len() - FRAME) as u32;
    let crc = crc32fast::hash(&out[FRAME..]);
    out[..4].copy_from_slice(&body_len.to_be_bytes());
    out[4..FRAME].copy_from_slice(&crc.to_be_bytes());
    out
}

/// The record as kept by a writer: what is recorded, and the file to add to.
pub struct Writer {
    dir: PathBuf,
    pub recorded: Recorded,
    file: Option<File>,
}

impl Writer {
    /// Keep adding to `recorded`, read from `dir` (or empty for a new record).
    pub fn new(dir: &Path, recorded: Recorded) -> Writer {
        Writer { dir: dir.to_path_buf(), recorded, file: None }
    }

    /// Record `changes` as the checkpoint `generation`, durably. A torn entry left by an
    /// earlier crash is cut off first; a record grown large is rewritten whole instead.
    pub fn record(&mut self, generation: u64, changes: &[(&str, Option<Head>)]) -> Result<(), JournalError> {
        self.recorded.apply_pending();
        for (name, head) in changes {
            match head {
                Some(head) => self.recorded.heads.insert(name.to_string(), *head),
                None => self.recorded.heads.remove(*name),
            };
        }
        self.recorded.generation = generation;
        let path = self.dir.join(HEADS_FILE);
        let entry = encode(generation, changes);
        let whole = self.recorded.heads.len() as u64 * 64 + 64;
        let grown = self.recorded.good_len + entry.len() as u64;
        let result =
            if self.recorded.good_len == 0 || (grown > REWRITE_ABOVE && grown > REWRITE_FACTOR * whole) {
                self.rewrite()
            } else {
                self.add(&entry)
            };
        result.map_err(|e| io_error("write", &path, e))
    }

    /// Make what was recorded durable (when the journal is closed).
    pub fn sync(&mut self) -> std::io::Result<()> {
        match self.file.as_ref() {
            Some(file) => file.sync_data(),
            None => Ok(()),
        }
    }

    /// Add one entry at the end of the file's whole entries (not synced: see the module
    /// doc).
    fn add(&mut self, entry: &[u8]) -> std::io::Result<()> {
        if self.file.is_none() {
            let file = OpenOptions::new().write(true).open(self.dir.join(HEADS_FILE))?;
            if self.recorded.file_len != self.recorded.good_len {
                file.set_len(self.recorded.good_len)?;
            }
            self.file = Some(file);
        }
        let Some(file) = self.file.as_mut() else { return Ok(()) };
        use std::io::{Seek, SeekFrom};
        file.seek(SeekFrom::Start(self.recorded.good_len))?;
        file.write_all(entry)?;
        self.recorded.good_len += entry.len() as u64;
        self.recorded.file_len = self.recorded.good_len;
        Ok(())
    }

    /// Write every recorded head as one entry to a new file, synced and renamed over the
    /// old one, the directory synced so the new name survives a power cut.
    fn rewrite(&mut self) -> std::io::Result<()> {
        self.recorded.apply_pending();
        let all: Vec<(&str, Option<Head>)> =
            self.recorded.heads.iter().map(|(name, head)| (name.as_str(), Some(*head))).collect();
        let entry = encode(self.recorded.generation, &all);
        let tmp = self.dir.join(format!("{HEADS_FILE}.tmp"));
        let mut file = File::create(&tmp)?;
        file.write_all(MAGIC)?;
        file.write_all(&entry)?;
        file.sync_all()?;
        std::fs::rename(&tmp, self.dir.join(HEADS_FILE))?;
        File::open(&self.dir)?.sync_all()?;
        self.recorded.good_len = (MAGIC.len() + entry.len()) as u64;
        self.recorded.file_len = self.recorded.good_len;
        self.file = None;
        Ok(())
    }
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> JournalError {
    JournalError::new(
        ErrorKind::Storage,
        format!("cannot {what} the record of heads `{}`: {e}", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(len: u64) -> Option<Head> {
        Some(Head { len, last: [len as u8; 32] })
    }

    #[test]
    fn entries_add_up_and_a_torn_last_one_is_ignored() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mut w = Writer::new(dir.path(), Recorded::default());
        w.record(1, &[("a", head(3)), ("b", head(0))])?;
        w.record(2, &[("a", head(9))])?;
        w.record(3, &[("b", None), ("c", head(1))])?;
        let mut read = read(dir.path())?.ok_or("no record")?;
        assert_eq!(read.generation, 3);
        // Looked up from the bytes, then from the map: the same answers.
        assert_eq!(
            (read.get("a"), read.get("b"), read.get("c"), read.get("d")),
            (head(9), None, head(1), None)
        );
        assert_eq!(read.heads().keys().collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(Some(read.heads()["a"]), head(9));
        assert_eq!(
            (read.get("a"), read.get("b"), read.get("c"), read.get("d")),
            (head(9), None, head(1), None)
        );
        // A torn fourth entry: the record lags, nothing more.
        let path = dir.path().join(HEADS_FILE);
        let whole = std::fs::read(&path)?;
        let mut torn = whole.clone();
        torn.extend_from_slice(&encode(4, &[("a", head(10))])[..20]);
        std::fs::write(&path, &torn)?;
        let mut read = super::read(dir.path())?.ok_or("no record")?;
        assert_eq!((read.generation, read.get("a").map(|h| h.len)), (3, Some(9)));
        // The next entry goes where the torn one began.
        let mut w = Writer::new(dir.path(), read);
        w.record(4, &[("a", head(11))])?;
        assert_eq!(super::read(dir.path())?.and_then(|mut r| r.get("a")).map(|h| h.len), Some(11));
        Ok(())
    }

    #[test]
    fn damage_before_a_whole_entry_is_refused() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mut w = Writer::new(dir.path(), Recorded::default());
        w.record(1, &[("a", head(3))])?;
        w.record(2, &[("a", head(4))])?;
        w.record(3, &[("a", head(5))])?;
        let path = dir.path().join(HEADS_FILE);
        let whole = std::fs::read(&path)?;
        // A changed byte anywhere is refused, but one that makes the last entry's length
        // run past the file's end: that is read as a torn entry (the record lags by one
        // checkpoint), as a crash inside the append would leave it.
        let last = whole.len() - encode(3, &[("a", head(5))]).len();
        for at in 0..whole.len() {
            let mut damaged = whole.clone();
            damaged[at] ^= 0x10;
            let runs_past = whole_end(&damaged, last).is_none();
            match parse(damaged) {
                Ok(r) => assert!(
                    at >= last && at < last + 4 && runs_past && r.generation == 2,
                    "byte {at}: read as {}",
                    r.generation
                ),
                Err(e) => assert!(!(at >= last && runs_past), "byte {at}: refused ({e})"),
            }
        }
        Ok(())
    }

    #[test]
    fn a_whole_last_entry_is_torn_only_with_unwritten_zeros() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mut w = Writer::new(dir.path(), Recorded::default());
        w.record(1, &[("a", head(3))])?;
        let path = dir.path().join(HEADS_FILE);
        let base = std::fs::read(&path)?;
        // An entry spanning several sectors, so that a crash may write some and not others.
        let names: Vec<String> = (0..40).map(|i| format!("session-{i:02}")).collect();
        let heads: Vec<(&str, Option<Head>)> = names.iter().map(|n| (n.as_str(), head(7))).collect();
        let entry = encode(2, &heads);
        assert!(entry.len() > 1024);
        let at = base.len();
        let whole = [base.clone(), entry.clone()].concat();
        assert_eq!(parse(whole.clone()).map(|r| r.generation), Ok(2));
        // The sector holding its middle never written (zeros), the rest written: torn.
        let sector = (at / 512 + 2) * 512;
        let mut torn = whole.clone();
        torn[sector..sector + 512].fill(0);
        assert_eq!(parse(torn).map(|r| r.generation), Ok(1));
        // Its tail (from a sector's start) never written: torn.
        let mut torn = whole.clone();
        torn[sector..].fill(0);
        assert_eq!(parse(torn).map(|r| r.generation), Ok(1));
        // The whole entry zeros (the file's length written, nothing else): torn.
        let mut torn = whole.clone();
        torn[at..].fill(0);
        assert_eq!(parse(torn).map(|r| r.generation), Ok(1));
        // One byte of it changed, or a sector of it overwritten with something else:
        // damage, which reading as torn would hide (the heads of its 40 sessions dropped).
        for damage in [at + 30, sector + 100, whole.len() - 1] {
            let mut damaged = whole.clone();
            damaged[damage] ^= 0x01;
            let err = parse(damaged).err().ok_or(format!("byte {damage}: read"))?;
            assert!(err.contains(&format!("damaged at byte {at}")), "{err}");
        }
        let mut damaged = whole.clone();
        damaged[sector..sector + 512].fill(0xff);
        assert!(parse(damaged).is_err());
        Ok(())
    }

    #[test]
    fn a_name_is_checked_as_utf8_whether_ascii_or_not() -> Result<(), Box<dyn std::error::Error>> {
        // A non-ASCII name in UTF-8 is read; one that is not UTF-8 makes the entry invalid.
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&encode(1, &[("séance", head(2))]));
        let mut read = parse(bytes).map_err(|e| e.to_string())?;
        assert_eq!(read.get("séance").map(|h| h.len), Some(2));
        let mut bad = MAGIC.to_vec();
        let mut entry = encode(1, &[("ab", head(2))]);
        let at = FRAME + 12 + 2;
        entry[at] = 0xff;
        let crc = crc32fast::hash(&entry[FRAME..]);
        entry[4..FRAME].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(entry_at(&entry, 0), None);
        bad.extend_from_slice(&entry);
        // Whole, its checksum right, and not what this build writes: damage, not a torn entry.
        assert!(parse(bad).is_err());
        Ok(())
    }

    #[test]
    fn a_large_record_is_rewritten_whole() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let mut w = Writer::new(dir.path(), Recorded::default());
        let names: Vec<String> = (0..50).map(|i| format!("session-{i}")).collect();
        for round in 1..=400u64 {
            let changes: Vec<(&str, Option<Head>)> =
                names.iter().map(|n| (n.as_str(), head(round))).collect();
            w.record(round, &changes)?;
        }
        let size = std::fs::metadata(dir.path().join(HEADS_FILE))?.len();
        assert!(size < 4 * REWRITE_ABOVE, "{size} bytes");
        let mut read = read(dir.path())?.ok_or("no record")?;
        assert_eq!(read.generation, 400);
        assert!(names
            .iter()
            .take(LOOKUPS_BEFORE_MAP as usize + 2)
            .all(|n| read.get(n).map(|h| h.len) == Some(400)));
        assert_eq!(read.heads().len(), 50);
        assert!(read.heads().values().all(|h| h.len == 400));
        Ok(())
    }
}
