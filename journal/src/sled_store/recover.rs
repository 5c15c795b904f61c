//! Redoing the write-ahead log when a database is opened.
//!
//! An append acknowledged through the log (see `wal`) may not have reached sled's data file
//! before the process died. Each logged append is redone in order: if its session still
//! ends where the append began, its records are appended again and must reach the chain
//! hash that was acknowledged; if the session already holds them (sled had written them
//! out), they must be the same records, by that hash. Anything else means acknowledged
//! records are gone or different, and the database is reported damaged, never silently
//! opened shorter. Once every entry is accounted for, sled is flushed and the log started afresh.

use super::layout::WAL_FILE;
use super::state::SledStore;
use super::wal::{Entry, DAMAGED_SUFFIX};
use crate::batch::Batch;
use crate::error::{ErrorKind, JournalError};
use std::sync::atomic::Ordering;

impl SledStore {
    /// Redo `entries` (read from the write-ahead log when opening), then checkpoint.
    pub(super) fn recover(&self, entries: Vec<Entry>) -> Result<(), JournalError> {
        if entries.is_empty() {
            return Ok(());
        }
        for entry in &entries {
            self.redo(entry)?;
        }
        self.redone.store(true, Ordering::SeqCst);
        self.checkpoint(&mut self.lock_wal())
    }

    fn redo(&self, entry: &Entry) -> Result<(), JournalError> {
        let name = entry.session.as_str();
        let (first, end) = (entry.first, entry.end_seq());
        let damaged = |what: String| {
            JournalError::new(
                ErrorKind::Corrupt,
                format!(
                    "database `{}` is damaged: records {first}..{end} of session `{name}`, acknowledged in its \
                     write-ahead log, {what}. Keep a copy of the directory; to open the database without the \
                     log, rename `{WAL_FILE}` to `{WAL_FILE}{DAMAGED_SUFFIX}`",
                    self.shown()
                ),
            )
            .in_session(name)
            .at(first)
        };
        let Some(found) = self.entry(name)? else {
            return Err(damaged("belong to a session the database does not have".to_string()));
        };
        let (_, _, tail) = self.tail(name, found.id)?;
        if tail.len == first {
            let redone = self.write(name, found.id, first, &Batch::from_encoded(first, &entry.records))?;
            if redone.last != entry.end {
                return Err(damaged(
                    "do not chain to the hash that was acknowledged when redone".to_string(),
                ));
            }
            self.wrote(name, redone.head());
        } else if tail.len >= end {
            if self.hash_after(name, found.id, end)? != entry.end {
                return Err(damaged("differ from the records the session holds there".to_string()));
            }
        } else {
            return Err(damaged(format!("cannot be redone: the session holds {} records", tail.len)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::{link, Hash};
    use crate::codec;
    use crate::meta::SessionMeta;
    use crate::record::Record;
    use crate::sled_store::layout::WAL_MARK_FILE;
    use crate::sled_store::{wal, wal_mark};
    use crate::Journal;
    use std::path::Path;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn meta() -> SessionMeta {
        SessionMeta {
            game: "g".to_string(),
            setup: Default::default(),
            catalog: None,
            rules_version: 1,
            created: 0,
            title: String::new(),
            parent: None,
        }
    }

    fn record(i: u64) -> Vec<u8> {
        codec::encode(&Record::Event(format!("event {i}"))).unwrap_or_default()
    }

    /// A database whose session `s` holds records 0..3, closed (its log empty).
    fn database(dir: &Path) -> Result<Hash, JournalError> {
        let j = Journal::open(dir)?;
        let records: Vec<Record<String>> = (0..3).map(|i| Record::Event(format!("event {i}"))).collect();
        j.import("s", &meta(), &records)?;
        j.hash_at("s", 3)
    }

    /// Write a log entry for records `first..first + n` of `s` chaining from `from`; returns
    /// the hash it ends at.
    fn log(dir: &Path, session: &str, first: u64, n: u64, from: Hash) -> Result<Hash, JournalError> {
        let records: Vec<Vec<u8>> = (first..first + n).map(record).collect();
        let mut end = from;
        for (seq, bytes) in (first..).zip(&records) {
            end = link(&end, seq, bytes);
        }
        let (mut wal, _) = wal::Wal::open(dir, true)?;
        wal.append(session, first, &end, records.iter().map(Vec::as_slice))?;
        Ok(end)
    }

    /// How many live entries the log at `dir` holds, read from its files.
    fn logged(dir: &Path) -> Result<usize, Box<dyn std::error::Error>> {
        Ok(crate::sled_store::tools::wal_entries(dir)?)
    }

    fn read(j: &Journal) -> Result<Vec<String>, JournalError> {
        j.events::<String>("s", 0)?
            .map(|item| item.map(|(_, r)| if let Record::Event(e) = r { e } else { String::new() }))
            .collect()
    }

    #[test]
    fn logged_appends_missing_from_sled_are_redone_then_the_log_starts_afresh() -> TestResult {
        let dir = tempfile::tempdir()?;
        let at3 = database(dir.path())?;
        let at5 = log(dir.path(), "s", 3, 2, at3)?;
        log(dir.path(), "s", 5, 1, at5)?;
        let j = Journal::open(dir.path())?;
        assert_eq!(read(&j)?, (0..6).map(|i| format!("event {i}")).collect::<Vec<_>>());
        assert!(j.check::<String>("s")?.is_ok());
        drop(j);
        assert_eq!(logged(dir.path())?, 0);
        Ok(())
    }

    #[test]
    fn logged_appends_sled_already_holds_are_checked_not_repeated() -> TestResult {
        let dir = tempfile::tempdir()?;
        let at3 = database(dir.path())?;
        let at1 = Journal::open(dir.path())?.hash_at("s", 1)?;
        let end = log(dir.path(), "s", 1, 2, at1)?;
        assert_eq!(end, at3);
        let j = Journal::open(dir.path())?;
        assert_eq!(j.len("s")?, 3);
        Ok(())
    }

    #[test]
    fn logged_appends_that_cannot_be_accounted_for_are_damage_and_the_log_is_kept() -> TestResult {
        for case in ["different", "gap", "unknown session"] {
            let dir = tempfile::tempdir()?;
            let at3 = database(dir.path())?;
            match case {
                // Records 1..3 as the log has them differ from the stored ones.
                "different" => log(dir.path(), "s", 1, 2, [9u8; 32])?,
                "gap" => log(dir.path(), "s", 7, 1, at3)?,
                _ => log(dir.path(), "nobody", 0, 1, at3)?,
            };
            let before = logged(dir.path())?;
            let err = Journal::open(dir.path()).err().map(|e| (e.kind(), e.message().to_string()));
            let Some((kind, message)) = err else { panic!("{case}: opened") };
            assert_eq!(kind, ErrorKind::Corrupt, "{case}");
            assert!(
                message.contains("is damaged") && message.contains("write-ahead log"),
                "{case}: {message}"
            );
            assert_eq!((before, logged(dir.path())?), (1, 1), "{case}: log kept");
        }
        Ok(())
    }

    #[test]
    fn a_torn_last_entry_is_dropped_and_earlier_damage_refuses_to_open() -> TestResult {
        let dir = tempfile::tempdir()?;
        let at3 = database(dir.path())?;
        let at4 = log(dir.path(), "s", 3, 1, at3)?;
        log(dir.path(), "s", 4, 1, at4)?;
        let whole = std::fs::read(dir.path().join(WAL_FILE))?;
        let marks = std::fs::read(dir.path().join(WAL_MARK_FILE))?;
        // The two entries are the same length: a frame, whose first 4 bytes give the rest.
        let frame = whole.get(wal::DATA_START..wal::DATA_START + 4).ok_or("no entry")?;
        let first_len = 8 + u32::from_be_bytes(frame.try_into()?) as usize;
        let mut torn = whole.clone();
        torn[wal::DATA_START + 2 * first_len - 5..].iter_mut().for_each(|b| *b = 0);
        // Entry 1's mark (slot 1) gone, as if its write never happened.
        let mut unmarked = marks.clone();
        let slot = wal_mark::SLOTS[1];
        unmarked[slot..slot + wal_mark::MARK_LEN].iter_mut().for_each(|b| *b = 0);
        // A copy of the database with `log` and `mark` as its log and mark file.
        let with = |log: &[u8], mark: &[u8]| -> Result<tempfile::TempDir, Box<dyn std::error::Error>> {
            let dir = tempfile::tempdir()?;
            database(dir.path())?;
            std::fs::write(dir.path().join(WAL_FILE), log)?;
            std::fs::write(dir.path().join(WAL_MARK_FILE), mark)?;
            Ok(dir)
        };
        // Torn: only part of the second entry reached the disk. It was never acknowledged,
        // so never marked as synced (the mark slot of entry 1 holds nothing).
        let dir = with(&torn, &unmarked)?;
        assert_eq!(Journal::open(dir.path())?.len("s")?, 4);
        // The same bytes with the mark that says the second entry was synced: its loss is
        // refused, not taken for a torn write, and the sentence names the mark file.
        let dir = with(&torn, &marks)?;
        let err = Journal::open(dir.path()).err().ok_or("opened a log that lost a synced entry")?;
        assert!(
            err.message().contains("acknowledged, are gone") && err.message().contains(WAL_MARK_FILE),
            "{err}"
        );
        assert!(Journal::open_read_only(dir.path()).is_err(), "read-only opened it");
        // The mark file deleted or damaged in both slots: no mark, read as a torn write.
        let dir = with(&torn, &marks)?;
        std::fs::remove_file(dir.path().join(WAL_MARK_FILE))?;
        assert_eq!(Journal::open_read_only(dir.path())?.len("s")?, 4);
        assert_eq!(Journal::open(dir.path())?.len("s")?, 4);
        assert!(dir.path().join(WAL_MARK_FILE).exists(), "a read-write open makes it again");
        let mut garbled = marks.clone();
        for slot in wal_mark::SLOTS {
            garbled[slot + 9] ^= 0x5a;
        }
        let dir = with(&torn, &garbled)?;
        assert_eq!(Journal::open(dir.path())?.len("s")?, 4);
        // Damaged with an entry after it: refused, with one sentence.
        let mut damaged = whole;
        damaged[wal::DATA_START + 12] ^= 0xff;
        let dir = with(&damaged, &marks)?;
        let err = Journal::open(dir.path()).err().ok_or("opened a damaged log")?;
        assert_eq!(err.kind(), ErrorKind::Storage);
        assert!(err.message().contains("write-ahead log"), "{err}");
        Ok(())
    }
}
