//! sled's start writes nothing to a data file that already holds what it would write.
//!
//! sled 0.34 overwrites the tail of the segment it recovers into, and every free segment,
//! with zero bytes at every start, then `fsync`s: megabytes written and synced by every
//! command that only reads. The vendored sled (vendor/sled/README.arbiter.md) reads the
//! range first and writes it only where a byte differs, so from the second start on the
//! data file is not written at all. Its modification time tells: a write of the same bytes
//! would still change it.
//!
//! Nor does a read: sled splits a tree node it passes that holds too many entries, on any
//! traversal, and writes the new nodes through its thread pool. The vendored sled's
//! `Config::restructure(false)`, which the journal's read-only open sets, reads the nodes
//! as they are.

use std::path::Path;
use std::time::SystemTime;

/// sled as the journal's read-only open starts it: 128 KiB segments, no flusher thread.
fn start(path: &Path) -> sled::Result<sled::Db> {
    relocked(|| sled::Config::new().path(path).segment_size(128 << 10).flush_every_ms(None).open())
}

/// `open`, tried again while the file lock of the `Db` just dropped is still held: sled's
/// threads let go of it a moment after the drop returns, so a start right after another
/// can find it taken (seen once under load as "could not acquire lock ... WouldBlock").
fn relocked(open: impl Fn() -> sled::Result<sled::Db>) -> sled::Result<sled::Db> {
    let mut tries = 0;
    loop {
        match open() {
            Err(sled::Error::Io(e)) if tries < 100 && e.to_string().contains("could not acquire lock") => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

fn modified(path: &Path) -> std::io::Result<SystemTime> {
    std::fs::metadata(path.join("db"))?.modified()
}

#[test]
fn a_second_start_leaves_the_data_file_as_it_was() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    {
        let db = start(&path)?;
        // Enough to fill several segments, then free some of them again.
        for i in 0..600_u32 {
            db.insert(i.to_be_bytes(), vec![i as u8; 3_000])?;
        }
        for i in (0..600_u32).step_by(2) {
            db.remove(i.to_be_bytes())?;
        }
        db.flush()?;
    }
    // The first start after writing zeroes what it recovers past; that may write.
    drop(start(&path)?);
    let bytes = std::fs::read(path.join("db"))?;
    let before = modified(&path)?;
    std::thread::sleep(std::time::Duration::from_millis(20));
    for _ in 0..3 {
        let db = start(&path)?;
        assert_eq!(db.get(1_u32.to_be_bytes())?.as_deref(), Some(&[1_u8; 3_000][..]));
        assert_eq!(db.get(2_u32.to_be_bytes())?, None);
        drop(db);
        assert_eq!(modified(&path)?, before, "a start wrote to the data file");
    }
    assert!(std::fs::read(path.join("db"))? == bytes, "the data file's bytes changed");
    Ok(())
}

/// sled as a read-only open starts it, with or without restructuring the nodes it reads.
fn start_reading(path: &Path, restructure: bool) -> sled::Result<sled::Db> {
    relocked(|| {
        sled::Config::new()
            .path(path)
            .segment_size(128 << 10)
            .flush_every_ms(None)
            .restructure(restructure)
            .open()
    })
}

/// Read every key, from the back as the journal's snapshot search does, then flush.
fn read_all(db: &sled::Db) -> sled::Result<Vec<u32>> {
    let mut keys = Vec::new();
    for entry in db.iter().rev() {
        let (key, value) = entry?;
        let key = u32::from_be_bytes(key.as_ref().try_into().expect("four-byte keys"));
        assert_eq!(value.as_ref(), &[key as u8; 100][..]);
        keys.push(key);
    }
    db.flush()?;
    Ok(keys)
}

#[test]
fn a_read_leaves_an_overfull_node_as_it_was() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    // A leaf splits once it holds more than 16 entries, on the traversal after the insert
    // that made it so: the 17th insert leaves it overfull in the file.
    let written: Vec<u32> = (0..17).collect();
    {
        let db = start(&path)?;
        for &i in &written {
            db.insert(i.to_be_bytes(), vec![i as u8; 100])?;
        }
        db.flush()?;
    }
    drop(start(&path)?);
    let before = modified(&path)?;
    let expected: Vec<u32> = written.iter().rev().copied().collect();
    for _ in 0..3 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        let db = start_reading(&path, false)?;
        assert_eq!(read_all(&db)?, expected);
        drop(db);
        assert_eq!(modified(&path)?, before, "a read without restructuring wrote to the data file");
    }
    // The same read with sled's default splits the node and writes it: what the setting
    // prevents happens here.
    let db = start_reading(&path, true)?;
    assert_eq!(read_all(&db)?, expected);
    drop(db);
    assert_ne!(modified(&path)?, before, "sled's own read did not restructure: this test sets nothing up");
    Ok(())
}
