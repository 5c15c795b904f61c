//! The JSON-lines baseline: one file per session, one serde_json event a line, fsync to make
//! an append durable.

use super::store::{dir_bytes, Store};
use crate::Fallible;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

pub struct Jsonl {
    dir: PathBuf,
    /// The append handle of the session written last: reopening the file per event would
    /// measure `open`, not the append a JSONL writer does, and keeping one per session
    /// would run out of file descriptors on a corpus of thousands of sessions.
    open: Option<(String, File)>,
    line: Vec<u8>,
}

impl Jsonl {
    pub fn create(dir: &Path) -> Fallible<Jsonl> {
        let dir = dir.join("jsonl");
        std::fs::create_dir_all(&dir)?;
        Ok(Jsonl { dir, open: None, line: Vec::with_capacity(256) })
    }

    fn file(&mut self, session: &str) -> Fallible<&mut File> {
        if self.open.as_ref().is_none_or(|(name, _)| name != session) {
            let path = self.dir.join(format!("{session}.jsonl"));
            let file = OpenOptions::new().create(true).append(true).open(path)?;
            self.open = Some((session.to_string(), file));
        }
        match &mut self.open {
            Some((_, file)) => Ok(file),
            None => Err("jsonl: no open file".into()),
        }
    }
}

impl<E: Serialize + DeserializeOwned> Store<E> for Jsonl {
    fn append_one(&mut self, session: &str, _seq: u64, event: &E) -> Fallible {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        serde_json::to_writer(&mut line, event)?;
        line.push(b'\n');
        let file = self.file(session)?;
        file.write_all(&line)?;
        file.sync_all()?;
        self.line = line;
        Ok(())
    }

    fn append_batch(&mut self, session: &str, _first_seq: u64, events: &[E]) -> Fallible {
        let mut buf = std::mem::take(&mut self.line);
        buf.clear();
        for e in events {
            serde_json::to_writer(&mut buf, e)?;
            buf.push(b'\n');
        }
        let file = self.file(session)?;
        file.write_all(&buf)?;
        file.sync_all()?;
        self.line = buf;
        Ok(())
    }

    fn scan(&mut self, session: &str, f: &mut dyn FnMut(E) -> Fallible) -> Fallible<u64> {
        let file = File::open(self.dir.join(format!("{session}.jsonl")))?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut line = String::new();
        let mut n = 0;
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 {
                return Ok(n);
            }
            f(serde_json::from_str(line.trim_end())?)?;
            n += 1;
        }
    }

    fn disk_bytes(&mut self) -> Fallible<u64> {
        dir_bytes(&self.dir)
    }
}
