//! A database on a full disk, then on a read-only one: reading works throughout, appending
//! fails cleanly once there is no room, nothing acknowledged is lost, and once room is
//! made the database opens as before; a first open the full disk refuses leaves no half-made
//! database behind. It mounts a small tmpfs to fill, which needs root
//! (CAP_SYS_ADMIN); elsewhere it says so and does nothing.

mod common;

use arbiter_journal::{Journal, Record};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A mounted tmpfs, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(at).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok(Tmpfs(at.to_path_buf()))
    }

    /// A tmpfs of `size` at `dir/mnt`, or `None` (said on stdout) where none can be mounted.
    fn mount_or_skip(dir: &Path, size: &str) -> Option<Tmpfs> {
        Tmpfs::mount(&dir.join("mnt"), size)
            .map_err(|why| {
                println!("disk-full test skipped: cannot mount a tmpfs here ({why}); it needs root")
            })
            .ok()
    }

    fn remount(&self, options: &str) -> Result<(), Box<dyn std::error::Error>> {
        let out = Command::new("mount").args(["-o", &format!("remount,{options}")]).arg(&self.0).output()?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into());
        }
        Ok(())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

fn note(i: u64) -> Record<String> {
    Record::Event(format!("stop t={i}"))
}

/// Everything a read-only command does: list, count, read back whole, check.
fn read_all(j: &Journal, names: &[&str]) -> Result<Vec<u64>, Box<dyn std::error::Error>> {
    let listed = j.sessions()?.len();
    assert_eq!(listed, names.len());
    let mut lens = Vec::new();
    for name in names {
        let len = j.len(name)?;
        let read = j.events::<String>(name, 0)?.collect::<Result<Vec<_>, _>>()?;
        assert_eq!(read.len() as u64, len);
        assert!(j.check::<String>(name)?.is_ok());
        lens.push(len);
    }
    Ok(lens)
}

#[test]
fn a_full_or_read_only_disk_is_read_and_never_bricked() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(fs) = Tmpfs::mount_or_skip(dir.path(), "6M") else { return Ok(()) };
    let db = fs.0.join("db");
    {
        let j = Journal::open(&db)?;
        j.import("A", &common::meta(), &(0..1000).map(note).collect::<Vec<_>>())?;
        j.import("S", &common::meta(), &(0..100).map(note).collect::<Vec<_>>())?;
    }
    // A writer at work when the disk fills: it appends until the disk says no, and every
    // append it acknowledged is kept.
    let filler = fs.0.join("filler");
    let mut acknowledged = 100;
    let refused = {
        let j = Journal::open(&db)?;
        let mut f = std::fs::File::create(&filler)?;
        let chunk = vec![0u8; 64 << 10];
        while f.write_all(&chunk).is_ok() {}
        while f.write_all(&chunk[..512]).is_ok() {}
        let _ = f.sync_all();
        loop {
            match j.append("S", acknowledged, &[note(acknowledged)]) {
                Ok(len) => acknowledged = len,
                Err(e) => break Some(e.to_string()),
            }
            if acknowledged > 200_000 {
                break None;
            }
        }
    };
    assert!(refused.is_some(), "the full disk never refused an append");
    // On the full disk: reading works, read-write opens fail cleanly or work, and neither
    // leaves the database worse.
    let lens = read_all(&Journal::open_read_only(&db)?, &["A", "S"])?;
    assert_eq!(lens[0], 1000);
    assert!(lens[1] >= acknowledged, "acknowledged {acknowledged}, found {}", lens[1]);
    for _ in 0..2 {
        if let Ok(j) = Journal::open(&db) {
            assert!(j.len("S")? >= acknowledged);
        }
        read_all(&Journal::open_read_only(&db)?, &["A", "S"])?;
    }
    // A read-only file system: reading works, writing is refused with one sentence.
    fs.remount("ro")?;
    read_all(&Journal::open_read_only(&db)?, &["A", "S"])?;
    assert!(Journal::open(&db).is_err(), "a read-write open on a read-only disk");
    fs.remount("rw")?;
    // Room again: the database opens as before and takes appends.
    std::fs::remove_file(&filler)?;
    let j = Journal::open(&db)?;
    let lens = read_all(&j, &["A", "S"])?;
    assert!(lens[1] >= acknowledged);
    j.append("S", lens[1], &[note(lens[1])])?;
    drop(j);
    let leftovers = std::fs::read_dir(&db)?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".generating"))
        .count();
    assert_eq!(leftovers, 0, "an unfinished snapshot was left behind");
    println!(
        "disk-full test: {acknowledged} records acknowledged before the disk refused ({}), all kept; \
         reads worked on the full disk and on the read-only one",
        refused.unwrap_or_default()
    );
    Ok(())
}

#[test]
fn a_first_open_the_full_disk_refuses_leaves_the_directory_as_it_was() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(fs) = Tmpfs::mount_or_skip(dir.path(), "3M") else { return Ok(()) };
    // The disk is full but for a little room: a new database cannot be made in it.
    let filler = fs.0.join("filler");
    let mut f = std::fs::File::create(&filler)?;
    let chunk = vec![0u8; 16 << 10];
    while f.write_all(&chunk).is_ok() {}
    let _ = f.sync_all();
    drop(f);
    let room = std::fs::metadata(&filler)?.len();
    std::fs::OpenOptions::new().write(true).open(&filler)?.set_len(room.saturating_sub(256 << 10))?;
    // An empty directory given as the database, and one the open makes itself.
    let given = fs.0.join("given");
    std::fs::create_dir(&given)?;
    for db in [given.clone(), fs.0.join("made")] {
        let opened = Journal::open(&db);
        assert!(opened.is_err(), "a database was made in {} on a full disk", db.display());
        let left: Vec<String> = std::fs::read_dir(&db)
            .map(|d| d.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "a failed first open left {left:?} in {}", db.display());
    }
    assert!(given.is_dir(), "the directory given is kept");
    // With room again the same directory becomes a database.
    std::fs::remove_file(&filler)?;
    let j = Journal::open(&given)?;
    j.import("A", &common::meta(), &(0..10).map(note).collect::<Vec<_>>())?;
    assert_eq!(j.len("A")?, 10);
    Ok(())
}
