//! Reading a log file (notation or JSONL) as a stream: its header first, then one record at
//! a time, before any game is involved.
//!
//! This is the syntax step shared by every game: directives, comments, `undo`, the JSONL
//! envelope. Event lines are kept as text (or JSON) and parsed by the game later, so one
//! file format serves every game and a parse error always names file, line and column.
//!
//! A file is never read whole: [`LogReader`] reads it in chunks of at most [`CHUNK_BYTES`]
//! (a line of up to [`MAX_LINE_BYTES`] is kept whole), so memory stays flat in the file's
//! length and a command that needs only the start of a log (a `diff` that splits early)
//! reads only the start. Lines are cut out of the chunk in place and the chunk is checked as
//! UTF-8 once, not line by line: every line of every verified file passes here. The header
//! directives (`@game`, `@setup`, `@catalog`, `@title`, `@rules`, `@variant`) therefore come
//! before the first record; expectations (`@expect`, `@assert`) may come anywhere.

use crate::error::{ErrorKind, VerifyError};
use crate::expectation::{parse_assert, parse_expect, Expectation};
use crate::header::Header;
use crate::quoting::{quote, rest_value, setup_pairs};
use crate::retraction::{Live, Retracted};
use crate::retraction_cache::{FileKey, RetractionCache};
use crate::shown::shown;
use std::fs::Metadata;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The longest line a log file may have. Real lines are short; the limit keeps a hostile
/// file (one line of a gigabyte, `/dev/zero` behind a link) from exhausting memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most a [`LogReader`] reads at once: what a `BufReader` held before lines were cut
/// in place. A file shorter than this gets a buffer of its own size, so a short session's
/// file is read whole in one call and no more memory is taken than it needs.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// One record as read, before the game parses it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawBody {
    /// A notation line (comment and surrounding blanks removed) and the column it starts at.
    Notation(String, usize),
    /// A JSONL record's event object.
    Json(serde_json::Value),
    /// A retraction of the record with this index (`undo` resolved, or JSONL `retract`).
    Retract(u64),
}

/// A record with the 1-based line it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRecord {
    pub line: usize,
    pub body: RawBody,
}

/// A record as a line holds it: an event by where it lies in the line, anything else owned.
enum Raw {
    Event { from: usize, to: usize, column: usize },
    Owned(RawBody),
}

/// A record as [`LogReader::next_with`] hands it out.
pub(crate) enum Lent<'a> {
    /// A notation event line and the column it starts at, borrowed from the reader.
    Notation(&'a str, usize),
    /// Any other record.
    Other(RawBody),
}

/// The two text formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Notation,
    Jsonl,
}

impl FileFormat {
    /// JSONL when the name ends in `.jsonl`, notation otherwise.
    pub fn of(path: &Path) -> FileFormat {
        if path.extension().is_some_and(|e| e == "jsonl") {
            FileFormat::Jsonl
        } else {
            FileFormat::Notation
        }
    }
}

/// Open `path` for reading only if it is a regular file: a FIFO would block forever and a
/// device (`/dev/zero`) never ends. Symbolic links to regular files are followed. The file's
/// length comes with it, from the check of the opened file (every verified file opens here,
/// and asking for it again cost a system call per file).
pub(crate) fn open_regular(path: &Path, what: &str) -> Result<(std::fs::File, Metadata), VerifyError> {
    // The path as messages show it, built only for a message: every verified file opens here.
    let shown_path = || shown(&path.display().to_string()).into_owned();
    let meta =
        std::fs::metadata(path).map_err(|e| VerifyError::io(&format!("{what} {}", shown_path()), &e))?;
    if !meta.is_file() {
        return Err(VerifyError::new(
            ErrorKind::Io,
            format!(
                "{what} {} is not a regular file (a pipe, device or directory is never read)",
                shown_path()
            ),
        ));
    }
    let file =
        std::fs::File::open(path).map_err(|e| VerifyError::io(&format!("{what} {}", shown_path()), &e))?;
    // Checked again on the open file, in case the name was replaced in between.
    match file.metadata() {
        Ok(m) if m.is_file() => Ok((file, m)),
        _ => Err(VerifyError::new(ErrorKind::Io, format!("{what} {} is not a regular file", shown_path()))),
    }
}

/// Read a whole regular file of at most `limit` bytes as text (a catalog).
pub(crate) fn read_bounded(path: &Path, what: &str, limit: u64) -> Result<String, VerifyError> {
    let (file, _) = open_regular(path, what)?;
    let mut text = String::new();
    file.take(limit + 1)
        .read_to_string(&mut text)
        .map_err(|e| VerifyError::io(&format!("{what} {}", shown(&path.display().to_string())), &e))?;
    if text.len() as u64 > limit {
        return Err(VerifyError::new(
            ErrorKind::Io,
            format!("{what} {} is larger than {limit} bytes", shown(&path.display().to_string())),
        ));
    }
    Ok(text)
}

fn err(path: &Path, line: usize, column: usize, expected: &str, found: &str) -> VerifyError {
    VerifyError::parse(format!(
        "{}:{line}:{column}: expected {expected}, found {found}",
        shown(&path.display().to_string())
    ))
}

fn found(word: &str) -> String {
    if word.is_empty() {
        "end of line".to_string()
    } else {
        format!("`{}`", shown(word))
    }
}

/// Where the first line break or `#` in `bytes` is. A line is usually a few dozen bytes:
/// testing its first bytes a word at a time costs less than setting up the vector search
/// (`memchr2`, about 50 instructions a call), which takes over past them.
#[inline(always)]
fn find_break_or_hash(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut at = 0;
    while let Some(word) = bytes.get(at..at + 8).filter(|_| at < 64) {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let word = u64::from_le_bytes(eight);
        let (newline, hash) = (word ^ (ONES * u64::from(b'\n')), word ^ (ONES * u64::from(b'#')));
        // The high bit of each byte that is zero (the lowest such bit is exact: a borrow only
        // marks bytes above a zero byte).
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        let found = zero(newline) | zero(hash);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr::memchr2(b'\n', b'#', &bytes[at..]).map(|n| at + n)
}

/// The directives that make up a header and so come before the first record.
const HEADER_DIRECTIVES: &[&str] = &["game", "setup", "catalog", "title", "rules", "variant"];

/// A log file being read: its header is known, its records come one at a time.
pub struct LogReader {
    path: PathBuf,
    format: FileFormat,
    /// Only refilling `data` is a dynamic call; taking a line out of it is not.
    input: Box<dyn Read + Send>,
    /// The bytes read and not yet taken are `data[pos..filled]`; the current line is
    /// `data[line.0..line.1]` (without its line break). Lines are cut here in place, never
    /// copied out, and the rest moves to the front only when a line runs past `filled`.
    data: Chunk,
    pos: usize,
    filled: usize,
    line: (usize, usize),
    /// `data[..valid_to]` from the current line's start on is known to be UTF-8: a chunk is
    /// checked once, up to its last line break, when its first line is read.
    valid_to: usize,
    /// The input has ended (a read returned nothing).
    eof: bool,
    /// Where the line's first `#` is, from its start, found by the same search as its line
    /// break.
    hash: Option<usize>,
    line_no: usize,
    pub header: Header,
    /// `@variant NAME=VALUE` directives, in order.
    pub variants: Vec<(String, String)>,
    /// Fixture expectations read so far, with the line each was written on.
    pub expectations: Vec<(usize, Expectation)>,
    seen_game: bool,
    /// The first record, read while looking for the end of the header.
    first: Option<RawRecord>,
    next_index: u64,
    live: Live,
    finished: bool,
    /// Bytes read from the input so far, and the file's length when it was opened: when the
    /// reader's buffer holds all the rest, the search for retractions looks there instead of
    /// opening the file again.
    read_total: u64,
    length: Option<u64>,
    /// The opened file's identity and change times (`None` for another input): what an
    /// entry of the retraction cache is keyed by.
    key: Option<FileKey>,
    /// Where the answers of earlier retraction scans are kept, if anywhere (the command
    /// line's cache directory; set from the [`crate::Context`] when a source is opened).
    pub(crate) cache: Option<RetractionCache>,
}

impl LogReader {
    /// Open a file and read its header.
    pub fn open(path: &Path) -> Result<LogReader, VerifyError> {
        let (file, meta) = open_regular(path, "log file")?;
        let mut reader = LogReader::from_input(path, FileFormat::of(path), Box::new(file), Some(meta.len()))?;
        reader.key = FileKey::of(&meta);
        Ok(reader)
    }

    /// Read a log from any input, named `path` in messages.
    pub fn from_reader<R: Read + Send + 'static>(
        path: &Path,
        format: FileFormat,
        input: R,
    ) -> Result<LogReader, VerifyError> {
        LogReader::from_input(path, format, Box::new(input), None)
    }

    /// Read a log from `input` of `length` bytes, if known.
    fn from_input(
        path: &Path,
        format: FileFormat,
        input: Box<dyn Read + Send>,
        length: Option<u64>,
    ) -> Result<LogReader, VerifyError> {
        // One more byte than the file, so that the read that finds its end needs no room made:
        // zeroing a chunk-sized buffer cost more than reading a short session's file. The last
        // reader's buffer is used again when it is large enough (see `Drop`).
        let size = length.map_or(CHUNK_BYTES, |n| n.saturating_add(1).clamp(64, CHUNK_BYTES as u64) as usize);
        let data = match SPARE.try_with(|spare| spare.take()) {
            Ok(spare) if spare.len() >= size => spare,
            _ => vec![0; size],
        };
        let mut reader = LogReader {
            path: path.to_path_buf(),
            format,
            input,
            data: Chunk(data),
            pos: 0,
            filled: 0,
            line: (0, 0),
            valid_to: 0,
            eof: false,
            hash: None,
            line_no: 0,
            header: Header::default(),
            variants: Vec::new(),
            expectations: Vec::new(),
            seen_game: false,
            first: None,
            next_index: 0,
            live: Live::default(),
            finished: false,
            read_total: 0,
            length,
            key: None,
            cache: None,
        };
        reader.first = reader.next_with(owned).transpose()?;
        if !reader.seen_game {
            return Err(match format {
                FileFormat::Notation => err(path, 1, 1, "`@game GAME` before any other line", "end of file"),
                FileFormat::Jsonl => err(path, 1, 1, "a header line", "end of file"),
            });
        }
        Ok(reader)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn format(&self) -> FileFormat {
        self.format
    }

    /// The rest of the file when the reader's buffer holds all of it (a short file, read
    /// in the first fill): everything after the header and the first record.
    fn rest_if_buffered(&self) -> Option<&[u8]> {
        (self.length? == self.read_total).then_some(&self.data.0[self.pos..self.filled])
    }

    /// The next line into `self.line`, without its line break; `false` at the end.
    // Always inlined: a call per line cost its frame (about 15 instructions a line).
    #[inline(always)]
    fn read_line(&mut self) -> Result<bool, VerifyError> {
        self.hash = None;
        // A byte search for the line break in what was read; the same search finds the first
        // `#` (where a comment may start), so a line without one is searched once. `searched`
        // bytes from `pos` on hold no line break: a refill does not search them again.
        let mut searched = 0;
        let end = loop {
            let from = self.pos + searched;
            let window = &self.data.0[from..self.filled];
            let found = match self.hash {
                None => find_break_or_hash(window),
                Some(_) => memchr::memchr(b'\n', window),
            };
            let found = match found {
                Some(at) if window[at] == b'#' => {
                    self.hash = Some(searched + at);
                    memchr::memchr(b'\n', &window[at + 1..]).map(|n| at + 1 + n)
                }
                found => found,
            };
            if let Some(at) = found {
                break Some(from + at);
            }
            searched = self.filled - self.pos;
            if self.eof || searched > MAX_LINE_BYTES {
                break None;
            }
            self.fill()?;
        };
        let start = self.pos;
        let (mut end, ended) = match end {
            Some(at) => (at, true),
            None if self.filled == start => return Ok(false),
            None => (self.filled, false),
        };
        self.line_no += 1;
        if end - start > MAX_LINE_BYTES {
            return Err(VerifyError::parse(format!(
                "{}:{}: the line is longer than {MAX_LINE_BYTES} bytes",
                shown(&self.path.display().to_string()),
                self.line_no
            )));
        }
        self.pos = end + usize::from(ended);
        if ended && end > start && self.data.0[end - 1] == b'\r' {
            end -= 1;
        }
        self.line = (start, end);
        Ok(true)
    }

    /// Read more of the input after `data[pos..filled]` (moved to the front first), growing
    /// the buffer when a line fills it, up to one byte more than the longest line allowed.
    #[cold]
    fn fill(&mut self) -> Result<(), VerifyError> {
        if self.pos > 0 {
            self.data.0.copy_within(self.pos..self.filled, 0);
            self.filled -= self.pos;
            self.valid_to = self.valid_to.saturating_sub(self.pos);
            self.line = (0, 0);
            self.pos = 0;
        }
        if self.filled == self.data.0.len() {
            let grown = (self.data.0.len() * 2).clamp(64, MAX_LINE_BYTES + 1);
            self.data.0.resize(grown, 0);
        }
        // A file is read as it was when opened, up to its length then: once that is read, it
        // has ended (asking the system again only to hear so cost a call per verified file),
        // and what a writer appends meanwhile is not half read. A file cut shorter meanwhile
        // ends at its new end, below.
        let mut end = self.data.0.len();
        if let Some(len) = self.length {
            let left = len.saturating_sub(self.read_total);
            if left == 0 {
                self.eof = true;
                return Ok(());
            }
            end = end.min(self.filled.saturating_add(usize::try_from(left).unwrap_or(usize::MAX)));
        }
        loop {
            match self.input.read(&mut self.data.0[self.filled..end]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.filled += n;
                    self.read_total += n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(VerifyError::io(&shown(&self.path.display().to_string()), &e)),
            }
            return Ok(());
        }
    }

    /// Check that the current line is UTF-8 text. The check runs once over the line and
    /// every whole line read after it (up to the buffer's last line break): a short file's
    /// lines are checked in one call rather than one call each. When it fails past this
    /// line, this line is still text, and the next line checks again from its own start, so
    /// the error names the line the bad byte is on and its offset there, as a check of that
    /// line alone would.
    #[inline(always)]
    fn check_utf8(&mut self) -> Result<(), VerifyError> {
        if self.line.1 <= self.valid_to {
            Ok(())
        } else {
            self.check_utf8_from_line()
        }
    }

    /// [`Self::check_utf8`] past what was checked: once per chunk.
    #[inline(never)]
    fn check_utf8_from_line(&mut self) -> Result<(), VerifyError> {
        let (start, end) = self.line;
        let upto = match memchr::memrchr(b'\n', &self.data.0[end..self.filled]) {
            Some(at) => end + at + 1,
            None => end,
        };
        match std::str::from_utf8(&self.data.0[start..upto]) {
            Ok(_) => self.valid_to = upto,
            Err(e) if start + e.valid_up_to() >= end => self.valid_to = start + e.valid_up_to(),
            Err(e) => {
                return Err(VerifyError::parse(format!(
                    "{}:{}: the line is not UTF-8 text (invalid byte at offset {})",
                    shown(&self.path.display().to_string()),
                    self.line_no,
                    e.valid_up_to()
                )))
            }
        }
        Ok(())
    }

    /// The current line's bytes.
    fn line_bytes(&self) -> &[u8] {
        &self.data.0[self.line.0..self.line.1]
    }

    /// The next record handed to `f` with a notation event line lent, not copied: replay
    /// parses it straight from the line buffer. One turn of [`Self::each_with`].
    pub(crate) fn next_with<T>(
        &mut self,
        f: impl FnOnce(usize, Lent<'_>) -> Result<T, VerifyError>,
    ) -> Option<Result<T, VerifyError>> {
        let (mut f, mut out) = (Some(f), None);
        let read = self.each_with(|line, lent| {
            if let Some(f) = f.take() {
                out = Some(f(line, lent)?);
            }
            Ok(false)
        });
        match read {
            Ok(()) => out.map(Ok),
            Err(e) => Some(Err(e)),
        }
    }

    /// Every record left, each handed to `f` as [`Self::next_with`] hands one, until `f`
    /// returns `false` (or an error, which is returned). The loop runs here, not in the
    /// caller: verifying a file steps each of its records through this, and a record handed
    /// out one call at a time (an `Option` of a `Result` per layer, the first record and the
    /// end checked again) cost about as much per line as cutting the line out.
    pub(crate) fn each_with(
        &mut self,
        mut f: impl FnMut(usize, Lent<'_>) -> Result<bool, VerifyError>,
    ) -> Result<(), VerifyError> {
        if let Some(first) = self.first.take() {
            let go_on = match first.body {
                RawBody::Notation(text, column) => f(first.line, Lent::Notation(&text, column)),
                body => f(first.line, Lent::Other(body)),
            };
            match go_on {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(e) => {
                    self.finished = true;
                    return Err(e);
                }
            }
        }
        if self.finished {
            return Ok(());
        }
        // After the end or an error the reader is finished, as the iterator is; stopped by
        // `f`, it can go on.
        let stopped = self.scan(f);
        self.finished = !matches!(stopped, Ok(true));
        stopped.map(|_| ())
    }

    /// Read lines and hand each record to `f` until `f` returns `false` (then `Ok(true)`:
    /// stopped) or the input ends (`Ok(false)`). Each line is checked as UTF-8 once, and an
    /// event line is lent to `f` from the line buffer.
    #[inline(always)]
    fn scan(
        &mut self,
        mut f: impl FnMut(usize, Lent<'_>) -> Result<bool, VerifyError>,
    ) -> Result<bool, VerifyError> {
        loop {
            if !self.read_line()? {
                return Ok(false);
            }
            self.check_utf8()?;
            // Taken out while the line is lent from it, and put back below.
            let data = std::mem::take(&mut self.data.0);
            let bytes = &data[self.line.0..self.line.1];
            debug_assert!(std::str::from_utf8(bytes).is_ok());
            // SAFETY: `check_utf8` has just checked these bytes as UTF-8 (they lie in
            // `data[line.0..valid_to]`, checked from a line start, and a line starts and ends
            // next to an ASCII line break or the buffer's ends, so at character boundaries).
            let text = unsafe { std::str::from_utf8_unchecked(bytes) };
            let text = match self.line_no {
                // Editors on some systems start a UTF-8 file with a byte-order mark.
                1 => text.strip_prefix('\u{feff}').unwrap_or(text),
                _ => text,
            };
            let found = match self.format {
                // `text` ends where the line does (only a byte-order mark is cut from its start).
                FileFormat::Notation => {
                    let hash = self.hash.map(|at| at - (bytes.len() - text.len()));
                    self.notation_line(text, hash)
                }
                FileFormat::Jsonl => self.jsonl_line(text).map(|r| r.map(|r| Raw::Owned(r.body))),
            };
            let go_on = match found {
                Ok(Some(Raw::Event { from, to, column })) => {
                    f(self.line_no, Lent::Notation(&text[from..to], column))
                }
                Ok(Some(Raw::Owned(body))) => f(self.line_no, Lent::Other(body)),
                Ok(None) => Ok(true),
                Err(e) => Err(e),
            };
            self.data.0 = data;
            if !go_on? {
                return Ok(true);
            }
        }
    }

    /// One notation line: a record, or `None` for a directive, comment or blank line.
    /// `hash` is where the line's first `#` is, if it has one.
    // Always inlined: as a call, its frame and the `Result` it returned through memory cost
    // about 20 instructions a line.
    #[inline(always)]
    fn notation_line(&mut self, raw: &str, hash: Option<usize>) -> Result<Option<Raw>, VerifyError> {
        // Every line of every verified file passes here, so the common case is kept cheap: a
        // byte search for the comment (`#` is ASCII, so the cut is a character boundary) and
        // no character count or trimming at an end that is a visible ASCII character (no
        // blank, and a whole character).
        let (column, start) = match raw.as_bytes().first() {
            Some(b) if b.is_ascii_graphic() => (1, raw),
            _ => (raw.chars().take_while(|c| c.is_whitespace()).count() + 1, raw.trim_start()),
        };
        if start.starts_with('@') {
            self.directive(start, column)?;
            return Ok(None);
        }
        // The blanks cut from the start hold no `#`, so the first one is in `start`.
        let content = match hash {
            Some(p) => &start[..p - (raw.len() - start.len())],
            None => start,
        };
        let trimmed = match content.as_bytes().last() {
            Some(b) if b.is_ascii_graphic() => content,
            _ => content.trim_end(),
        };
        if trimmed.is_empty() {
            return Ok(None);
        }
        if !self.seen_game {
            return Err(err(
                &self.path,
                self.line_no,
                column,
                "`@game GAME` before any other line",
                &found(trimmed),
            ));
        }
        let index = self.next_index;
        let body = if trimmed == "undo" {
            match self.live.pop() {
                Some(target) => Raw::Owned(RawBody::Retract(target)),
                None => {
                    return Err(err(
                        &self.path,
                        self.line_no,
                        column,
                        "an event before `undo`",
                        "nothing left to retract",
                    ))
                }
            }
        } else {
            self.live.push(index);
            // Where the event lies in the line (`trimmed` is a slice of `raw`).
            let from = trimmed.as_ptr() as usize - raw.as_ptr() as usize;
            Raw::Event { from, to: from + trimmed.len(), column }
        };
        self.next_index += 1;
        Ok(Some(body))
    }

    /// One JSONL line: the header, a record, or `None` for a directive or blank line.
    fn jsonl_line(&mut self, line: &str) -> Result<Option<RawRecord>, VerifyError> {
        if line.trim().is_empty() {
            return Ok(None);
        }
        let line_no = self.line_no;
        let value = crate::jsonl::parse_line(line).map_err(|e| {
            let column = e.column().max(1);
            if e.is_data() {
                // The one data error a line can have: a key twice (its text ends in the place,
                // which the file, line and column in front already say).
                let text = e.to_string();
                let what = text.strip_suffix(&format!(" at line {} column {}", e.line(), e.column()));
                return err(
                    &self.path,
                    line_no,
                    column,
                    "each key once in a JSON object",
                    what.unwrap_or(&text),
                );
            }
            err(&self.path, line_no, column, "a JSON object", &format!("invalid JSON ({e})"))
        })?;
        let Some(obj) = value.as_object() else {
            return Err(err(&self.path, line_no, 1, "a JSON object", "another JSON value"));
        };
        let path = self.path.as_path();
        if !self.seen_game {
            self.header =
                crate::jsonl::header(obj).map_err(|(what, found)| err(path, line_no, 1, &what, &found))?;
            self.seen_game = true;
            return Ok(None);
        }
        let index = self.next_index;
        let body =
            match crate::jsonl::line(obj).map_err(|(what, found)| err(path, line_no, 1, &what, &found))? {
                crate::jsonl::Line::Event(event) => {
                    self.live.push(index);
                    RawBody::Json(event.clone())
                }
                crate::jsonl::Line::Retract(target) => {
                    if !self.live.remove(target) {
                        return Err(err(
                            path,
                            line_no,
                            1,
                            "the index of an earlier event not yet retracted",
                            &target.to_string(),
                        ));
                    }
                    RawBody::Retract(target)
                }
                crate::jsonl::Line::Directive(d) => {
                    let d = d.trim_start();
                    if !d.starts_with('@') {
                        return Err(err(path, line_no, 1, "a directive starting with `@`", &found(d)));
                    }
                    self.directive(d, 1)?;
                    return Ok(None);
                }
            };
        self.next_index += 1;
        Ok(Some(RawRecord { line: line_no, body }))
    }

    /// A directive (`text` starts with `@`) at `column` of the current line.
    fn directive(&mut self, text: &str, column: usize) -> Result<(), VerifyError> {
        let body = &text[1..];
        let name_end = body.find(|c: char| c.is_whitespace() || c == '#').unwrap_or(body.len());
        let (name, rest) = body.split_at(name_end);
        let rest_col = column + 1 + name.chars().count() + 1;
        // The directives that take a word or two: everything up to a comment.
        let plain = rest.split('#').next().unwrap_or_default().trim();
        // Borrowed, not cloned: every header directive of every verified file passes here.
        let (path, line_no) = (self.path.as_path(), self.line_no);
        if !self.seen_game && name != "game" {
            return Err(err(
                &path,
                line_no,
                column,
                "`@game GAME` before any other line",
                &found(text.trim()),
            ));
        }
        if HEADER_DIRECTIVES.contains(&name) && (self.next_index > 0 || self.first.is_some()) {
            return Err(err(
                &path,
                line_no,
                column,
                "a record or an expectation (the header directives come before the first record)",
                &found(&format!("@{name}")),
            ));
        }
        match name {
            "game" if !self.seen_game && !plain.is_empty() && !plain.contains(char::is_whitespace) => {
                self.header.game = plain.to_string();
                self.seen_game = true;
            }
            "game" if self.seen_game => {
                return Err(err(&path, line_no, column, "one `@game` line", "a second one"))
            }
            "game" => return Err(err(&path, line_no, rest_col, "a game id", &found(plain))),
            "setup" => {
                let pairs =
                    setup_pairs(rest).map_err(|what| err(&path, line_no, rest_col, &what, &found(plain)))?;
                for (key, value) in pairs {
                    // A key given twice would keep only its last value, silently: refused.
                    if self.header.setup.contains_key(&key) {
                        let again = format!("`{}` a second time", shown(&key));
                        return Err(err(&path, line_no, rest_col, "each setup key once", &again));
                    }
                    self.header.setup.insert(key, value);
                }
            }
            "catalog" => match rest_value(rest) {
                // A second one would silently replace the first, as a second `@game` would.
                Ok(_) if self.header.catalog.is_some() => {
                    return Err(err(&path, line_no, column, "one `@catalog` line", "a second one"))
                }
                Ok(value) if !value.is_empty() => self.header.catalog = Some(value),
                Ok(_) => return Err(err(&path, line_no, rest_col, "a catalog name or path", "end of line")),
                Err(what) => return Err(err(&path, line_no, rest_col, &what, &found(rest.trim()))),
            },
            "title" => match rest_value(rest) {
                // A second one would silently replace the first, as a second `@catalog` would.
                Ok(_) if self.header.title.is_some() => {
                    return Err(err(&path, line_no, column, "one `@title` line", "a second one"))
                }
                Ok(value) => self.header.title = (!value.is_empty()).then_some(value),
                Err(what) => return Err(err(&path, line_no, rest_col, &what, &found(rest.trim()))),
            },
            "rules" => match plain.parse() {
                Ok(_) if self.header.rules_version.is_some() => {
                    return Err(err(&path, line_no, column, "one `@rules` line", "a second one"))
                }
                Ok(v) => self.header.rules_version = Some(v),
                Err(_) => return Err(err(&path, line_no, rest_col, "a rules version number", &found(plain))),
            },
            "variant" => match plain.split_once('=') {
                // A name given twice would keep only its last value, silently: refused, as on
                // the command line.
                Some((k, _)) if self.variants.iter().any(|(seen, _)| seen == k.trim()) => {
                    let again = format!("`{}` a second time", shown(k.trim()));
                    return Err(err(&path, line_no, rest_col, "each @variant name once", &again));
                }
                Some((k, v)) if !k.trim().is_empty() => {
                    self.variants.push((k.trim().to_string(), v.trim().to_string()))
                }
                _ => return Err(err(&path, line_no, rest_col, "NAME=VALUE", &found(plain))),
            },
            "expect" => {
                let last = self.next_index.checked_sub(1);
                match parse_expect(plain, last) {
                    Ok(e) => self.expectations.push((line_no, e)),
                    Err(expected) => return Err(err(&path, line_no, rest_col, &expected, &found(plain))),
                }
            }
            "assert" => match parse_assert(plain) {
                Ok(e) => self.expectations.push((line_no, e)),
                Err(expected) => return Err(err(&path, line_no, rest_col, &expected, &found(plain))),
            },
            "derive" if plain.is_empty() => self.expectations.push((line_no, Expectation::Derive)),
            "derive" => return Err(err(&path, line_no, rest_col, "nothing after `@derive`", &found(plain))),
            other => return Err(err(
                &path,
                line_no,
                column,
                "a directive (@game, @setup, @catalog, @title, @rules, @variant, @expect, @assert, @derive)",
                &found(&format!("@{other}")),
            )),
        }
        Ok(())
    }
}

thread_local! {
    /// The buffer of the last [`LogReader`] dropped on this thread, for the next one to read
    /// into: verifying a league opens thousands of short files, and allocating and zeroing a
    /// buffer for each cost about as much as checking a dozen of its lines as UTF-8. At most
    /// one buffer (at most a line's limit) is kept.
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A reader's buffer, given back to [`SPARE`] when the reader is dropped (a type of its own,
/// so that `LogReader` has no `Drop` and its fields can still be moved out).
struct Chunk(Vec<u8>);

impl Drop for Chunk {
    fn drop(&mut self) {
        let data = std::mem::take(&mut self.0);
        // Kept only when it is larger than the one kept already, and never past the limit:
        // a thread holds one buffer of at most `MAX_LINE_BYTES + 1` bytes.
        let _ = SPARE.try_with(|spare| {
            let kept = spare.take();
            spare.set(if data.len() > kept.len() && data.len() <= MAX_LINE_BYTES + 1 { data } else { kept });
        });
    }
}

impl Iterator for LogReader {
    type Item = Result<RawRecord, VerifyError>;

    fn next(&mut self) -> Option<Self::Item> {
        // The first record is kept owned: handed out as it is, not lent and copied again.
        match self.first.take() {
            Some(first) => Some(Ok(first)),
            None => self.next_with(owned),
        }
    }
}

/// A lent record made owned (the iterator's item).
fn owned(line: usize, lent: Lent<'_>) -> Result<RawRecord, VerifyError> {
    let body = match lent {
        Lent::Notation(text, column) => RawBody::Notation(text.to_string(), column),
        Lent::Other(body) => body,
    };
    Ok(RawRecord { line, body })
}

/// The records a file retracts, known before replay starts so that a retracted record is
/// skipped when replay reaches it.
///
/// A retraction can withdraw a record any distance before it, so this is the one question
/// about a file that needs its end. It is answered cheaply: a byte search over the file for
/// the text a retraction line must contain (`undo`; `"retract"` or a `\u` escape in JSONL)
/// finds none in a log without retractions, which is then not parsed at all; only a file
/// with a candidate has its lines read once more, syntax only. Memory stays flat either way
/// ([`Retracted`] is one bit per record up to the last one retracted).
pub(crate) fn retracted_records(path: &Path) -> Result<Retracted, VerifyError> {
    let mut retracted = Retracted::default();
    each_retraction(path, |_, target| retracted.insert(target))?;
    Ok(retracted)
}

/// [`retracted_records`] for an opened file: when the reader holds all of the rest of it,
/// and no retraction text is there, it retracts nothing and is not opened again (the
/// header and the first record, already read, hold no retraction: `undo` and `retract`
/// need an earlier event). A longer file asks its retraction cache first.
pub(crate) fn retracted_records_of(reader: &LogReader) -> Result<Retracted, VerifyError> {
    if let Some(rest) = reader.rest_if_buffered() {
        let (finder, also) = retraction_search(reader.format);
        if !(also.is_some_and(|b| memchr::memchr(b, rest).is_some()) || finder.find(rest).is_some()) {
            return Ok(Retracted::default());
        }
    }
    reader.scan_target().retracted()
}

/// What the scan for an opened file's retractions needs of its reader, to run on another
/// thread while the reader stays where it is (`diff` scans both files side by side).
#[derive(Debug, Clone)]
pub(crate) struct ScanTarget {
    path: PathBuf,
    format: FileFormat,
    key: Option<FileKey>,
    cache: Option<RetractionCache>,
}

impl LogReader {
    pub(crate) fn scan_target(&self) -> ScanTarget {
        ScanTarget { path: self.path.clone(), format: self.format, key: self.key, cache: self.cache.clone() }
    }
}

impl ScanTarget {
    /// The records the file retracts ([`retracted_records`]).
    pub(crate) fn retracted(&self) -> Result<Retracted, VerifyError> {
        if self.cache.is_none() {
            return retracted_records(&self.path);
        }
        let mut retracted = Retracted::default();
        self.each(|_, target| retracted.insert(target))?;
        Ok(retracted)
    }

    /// [`each_retraction`], answered from the retraction cache when it holds an entry for
    /// the file as it was opened, and remembered there otherwise.
    pub(crate) fn each(&self, mut found: impl FnMut(u64, u64)) -> Result<(), VerifyError> {
        let (Some(cache), Some(key)) = (&self.cache, self.key.filter(FileKey::worth_caching)) else {
            return each_retraction(&self.path, found);
        };
        let format = match self.format {
            FileFormat::Notation => "notation",
            FileFormat::Jsonl => "jsonl",
        };
        if let Some(pairs) = cache.lookup(&key, format) {
            pairs.into_iter().for_each(|(by, target)| found(by, target));
            return Ok(());
        }
        let mut pairs = Vec::new();
        each_retraction(&self.path, |by, target| {
            found(by, target);
            // One past the most an entry keeps is enough to know it will not be kept.
            if pairs.len() <= crate::retraction_cache::MAX_PAIRS {
                pairs.push((by, target));
            }
        })?;
        cache.store(&self.path, &key, format, &pairs);
        Ok(())
    }
}

/// Call `found(by, target)` for every retraction of a file, in file order, with the same
/// byte search first as [`retracted_records`].
pub(crate) fn each_retraction(path: &Path, mut found: impl FnMut(u64, u64)) -> Result<(), VerifyError> {
    if !may_retract(path)? {
        return Ok(());
    }
    for (index, record) in LogReader::open(path)?.enumerate() {
        if let RawBody::Retract(target) = record?.body {
            found(index as u64, target);
        }
    }
    Ok(())
}

/// Whether a file may hold a retraction: the byte search of [`retracted_records`]. Notation
/// looks for `undo`; JSONL for `"retract"` and for a backslash (a key spelt with `\u`
/// escapes reads as `retract` too, and any backslash is taken as a candidate rather than
/// look further).
pub(crate) fn may_retract(path: &Path) -> Result<bool, VerifyError> {
    let (finder, also) = retraction_search(FileFormat::of(path));
    contains(path, finder, also)
}

/// The needle, and a single byte, whose presence may mean a retraction in a format. The
/// finders are built once per process: building one cost about as much as searching a short
/// session file, which every verified file is searched for.
fn retraction_search(format: FileFormat) -> (&'static memchr::memmem::Finder<'static>, Option<u8>) {
    use std::sync::OnceLock;
    static NOTATION: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    static JSONL: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    match format {
        FileFormat::Notation => (NOTATION.get_or_init(|| memchr::memmem::Finder::new(b"undo")), None),
        FileFormat::Jsonl => (
            JSONL.get_or_init(|| {
                memchr::memmem::FinderBuilder::new().build_forward_with_ranker(JsonRank, b"\"retract\"")
            }),
            Some(b'\\'),
        ),
    }
}

/// How common a byte is in a JSONL log, for the byte search's prefilter. memchr's default
/// table is tuned for prose, where `"` is rare, so it picks the quotes of `"retract"` and
/// stops at nearly every key of every line; here quotes, punctuation and digits are the most
/// common bytes and the search keys on the letters instead.
struct JsonRank;

impl memchr::arch::all::packedpair::HeuristicFrequencyRank for JsonRank {
    fn rank(&self, byte: u8) -> u8 {
        match byte {
            b'"' | b'{' | b'}' | b'[' | b']' | b':' | b',' | b' ' | b'\n' | b'0'..=b'9' => 255,
            b'e' | b't' | b'a' => 200,
            b'r' => 160,
            b'c' => 120,
            b'a'..=b'z' => 150,
            _ => 100,
        }
    }
}

/// The number of records of a file, read syntax only: `replay`'s `total` when it stopped
/// before the end. A JSONL line is not parsed unless it may be a directive (the one line
/// after the header that is not a record), so counting costs about a byte search.
pub(crate) fn count_records(path: &Path) -> Result<u64, VerifyError> {
    let mut reader = LogReader::open(path)?;
    if reader.format == FileFormat::Notation {
        let mut n = 0;
        for record in reader {
            record?;
            n += 1;
        }
        return Ok(n);
    }
    // The header and the first record are read already.
    let mut n = u64::from(reader.first.is_some());
    while reader.read_line()? {
        let line = std::str::from_utf8(reader.line_bytes()).unwrap_or_default();
        if line.trim().is_empty() {
            continue;
        }
        let directive = line.contains("\"directive\"")
            && serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v.get("directive").is_some());
        if !directive {
            n += 1;
        }
    }
    Ok(n)
}

/// The number of lines of a file (line breaks, plus a last line without one), read in chunks
/// and never parsed: the total a progress bar counts toward.
pub(crate) fn count_lines(path: &Path) -> Result<u64, VerifyError> {
    const CHUNK: usize = 1 << 17;
    let (mut file, _) = open_regular(path, "log file")?;
    let mut buf = vec![0u8; CHUNK];
    let (mut lines, mut last) = (0u64, b'\n');
    loop {
        let n = file.read(&mut buf).map_err(|e| VerifyError::io(&shown(&path.display().to_string()), &e))?;
        if n == 0 {
            return Ok(lines + u64::from(last != b'\n'));
        }
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        last = buf[n - 1];
    }
}

/// Whether a file holds `finder`'s needle (or the byte `also`), read in chunks and never
/// parsed.
fn contains(path: &Path, finder: &memchr::memmem::Finder<'_>, also: Option<u8>) -> Result<bool, VerifyError> {
    // Small enough to stay in a core's L2 cache between the kernel's copy and the search.
    const CHUNK: usize = 1 << 17;
    let overlap = finder.needle().len().saturating_sub(1);
    let (mut file, meta) = open_regular(path, "log file")?;
    let len = meta.len();
    let io = |e: std::io::Error| VerifyError::io(&shown(&path.display().to_string()), &e);
    let found = |bytes: &[u8]| {
        also.is_some_and(|b| memchr::memchr(b, bytes).is_some()) || finder.find(bytes).is_some()
    };
    // A short file (a session of a few hundred records) is read whole into a buffer of its
    // size, not zeroed: clearing a chunk-sized buffer cost more than verifying such a file.
    let mut start: Vec<u8> = Vec::new();
    if len < CHUNK as u64 {
        start.reserve_exact(len as usize + 1);
        (&mut file).take(CHUNK as u64).read_to_end(&mut start).map_err(io)?;
        if start.len() < CHUNK || found(&start) {
            return Ok(found(&start));
        }
        // The file grew meanwhile: go on in chunks after what was read.
    }
    let mut buf = vec![0u8; CHUNK + overlap];
    let mut kept = overlap.min(start.len());
    buf[..kept].copy_from_slice(&start[start.len() - kept..]);
    loop {
        let n = match file.read(&mut buf[kept..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        if n == 0 {
            return Ok(false);
        }
        let filled = kept + n;
        if found(&buf[..filled]) {
            return Ok(true);
        }
        kept = overlap.min(filled);
        buf.copy_within(filled - kept..filled, 0);
    }
}

/// A log file read whole: fixtures (small, and whose expectations may follow the records
/// they name) and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct LogFile {
    pub path: PathBuf,
    pub header: Header,
    pub records: Vec<RawRecord>,
    /// Fixture expectations with the line each was written on.
    pub expectations: Vec<(usize, Expectation)>,
    /// `@variant NAME=VALUE` directives, in order.
    pub variants: Vec<(String, String)>,
}

impl LogFile {
    /// Read and parse a whole file; JSONL when the name ends in `.jsonl`, notation otherwise.
    pub fn read(path: &Path) -> Result<LogFile, VerifyError> {
        LogFile::collect(LogReader::open(path)?)
    }

    fn collect(mut reader: LogReader) -> Result<LogFile, VerifyError> {
        let records = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
        Ok(LogFile {
            path: reader.path,
            header: reader.header,
            records,
            expectations: reader.expectations,
            variants: reader.variants,
        })
    }
}

/// Parse text in the notation format (docs/notation/README.md).
pub fn parse_notation(path: &Path, text: &str) -> Result<LogFile, VerifyError> {
    let input = Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
    LogFile::collect(LogReader::from_reader(path, FileFormat::Notation, input)?)
}

/// Parse text in the JSONL format: a header object, then `{"event":...}`, `{"retract":N}` or
/// `{"directive":"@expect ..."}` lines.
pub fn parse_jsonl(path: &Path, text: &str) -> Result<LogFile, VerifyError> {
    let input = Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
    LogFile::collect(LogReader::from_reader(path, FileFormat::Jsonl, input)?)
}

pub use crate::jsonl::header_to_json;

/// The notation header lines for a header; free-text values are quoted when they would not
/// read back bare (see `quoting`).
pub fn header_to_notation(header: &Header) -> String {
    let mut out = format!("@game {}\n", header.game);
    if !header.setup.is_empty() {
        let pairs: Vec<String> =
            header.setup.iter().map(|(k, v)| format!("{k}={}", quote(v, true))).collect();
        out.push_str(&format!("@setup {}\n", pairs.join(" ")));
    }
    if let Some(c) = &header.catalog {
        out.push_str(&format!("@catalog {}\n", quote(c, false)));
    }
    if let Some(t) = header.title.as_ref().filter(|t| !t.is_empty()) {
        out.push_str(&format!("@title {}\n", quote(t, false)));
    }
    if let Some(r) = header.rules_version {
        out.push_str(&format!("@rules {r}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_header_records_undo_and_directives() {
        let text = "# a comment\n@game toy\n@setup start=3 double=no\n@catalog cards.txt\n@variant double=yes\nroll 4   # why\n  add 4\nundo\n@expect clean\n@expect here toy.roll.range\n";
        let log = parse_notation(Path::new("t.arb"), text).unwrap();
        assert_eq!(log.header.game, "toy");
        assert_eq!(log.header.setup.len(), 2);
        assert_eq!(log.header.catalog.as_deref(), Some("cards.txt"));
        assert_eq!(log.records[0].body, RawBody::Notation("roll 4".into(), 1));
        assert_eq!(log.records[1].body, RawBody::Notation("add 4".into(), 3));
        assert_eq!(log.records[2].body, RawBody::Retract(1));
        assert_eq!(log.records[2].line, 8);
        assert_eq!(log.expectations[0], (9, Expectation::Clean));
        assert_eq!(
            log.expectations[1],
            (10, Expectation::Violation { record: 2, rule: "toy.roll.range".into() })
        );
        assert_eq!(log.variants, vec![("double".into(), "yes".into())]);
    }

    #[test]
    fn notation_errors_name_file_line_and_column() {
        let e = parse_notation(Path::new("t.arb"), "roll 1\n").unwrap_err();
        assert_eq!(e.message, "t.arb:1:1: expected `@game GAME` before any other line, found `roll 1`");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@expect violation x\n").unwrap_err();
        assert!(e.message.starts_with("t.arb:2:9: expected `violation RECORD RULE`"), "{e}");
        let e = parse_notation(Path::new("t.arb"), "@game toy\nundo\n").unwrap_err();
        assert!(e.message.starts_with("t.arb:2:1:"), "{e}");
        let e = parse_notation(Path::new("t.arb"), "@game toy\nroll 1\n@variant double=yes\n").unwrap_err();
        assert!(e.message.starts_with("t.arb:3:1:") && e.message.contains("before the first record"), "{e}");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@expect here toy.x\n").unwrap_err();
        assert!(e.message.contains("after the record it names"), "{e}");
        let e = parse_notation(Path::new("t.arb"), "@game toy\nnote \x1b[2J\n@bogus\x07\n").unwrap_err();
        assert!(e.message.contains("`@bogus\\x07`") && !e.message.contains('\x1b'), "{e}");
    }

    #[test]
    fn derive_is_a_bare_directive_anywhere() {
        let log =
            parse_notation(Path::new("t.arb"), "@game toy\nroll 1\n@derive   # completed\nroll 2\n").unwrap();
        assert_eq!(log.expectations, vec![(3, Expectation::Derive)]);
        assert_eq!(Expectation::Derive.to_string(), "@derive");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@derive all\n").unwrap_err();
        assert!(e.message.starts_with("t.arb:2:9: expected nothing after `@derive`"), "{e}");
    }

    #[test]
    fn a_second_catalog_or_rules_line_is_refused_like_a_second_game() {
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@catalog a\n@catalog a\n").unwrap_err();
        assert_eq!(e.message, "t.arb:3:1: expected one `@catalog` line, found a second one");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@rules 2\n@rules 2\n").unwrap_err();
        assert_eq!(e.message, "t.arb:3:1: expected one `@rules` line, found a second one");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@title a\n@title b\n").unwrap_err();
        assert_eq!(e.message, "t.arb:3:1: expected one `@title` line, found a second one");
        let e = parse_notation(Path::new("t.arb"), "@game toy\n@variant a=1\n@variant a=2\n").unwrap_err();
        assert!(
            e.message.starts_with("t.arb:3:10: expected each @variant name once, found `a` a second time"),
            "{e}"
        );
        assert!(parse_notation(Path::new("t.arb"), "@game toy\n@variant a=1\n@variant b=2\n").is_ok());
    }

    #[test]
    fn titles_with_hash_signs_and_newlines_are_quoted() {
        let header = Header {
            game: "toy".into(),
            title: Some("Game #3 at Bob's\nsecond line".into()),
            catalog: Some("my cards #2.txt".into()),
            catalog_sha256: None,
            setup: [("start".to_string(), "a b".to_string())].into_iter().collect(),
            rules_version: Some(2),
        };
        let text = header_to_notation(&header);
        assert_eq!(parse_notation(Path::new("t.arb"), &text).unwrap().header, header);
        assert_eq!(parse_jsonl(Path::new("t.jsonl"), &header_to_json(&header)).unwrap().header, header);
    }

    #[test]
    fn jsonl_header_records_and_bad_retractions() {
        let text = "{\"game\":\"toy\",\"setup\":{\"start\":\"2\"}}\n{\"event\":{\"Roll\":3}}\n{\"retract\":0}\n{\"directive\":\"@expect clean\"}\n";
        let log = parse_jsonl(Path::new("t.jsonl"), text).unwrap();
        assert_eq!(log.header.setup["start"], "2");
        assert_eq!(log.records.len(), 2);
        assert_eq!(log.records[1].body, RawBody::Retract(0));
        assert_eq!(log.expectations, vec![(4, Expectation::Clean)]);
        let bad = "{\"game\":\"toy\"}\n{\"retract\":0}\n";
        assert!(parse_jsonl(Path::new("t.jsonl"), bad).unwrap_err().message.starts_with("t.jsonl:2:1:"));
        let typo = "{\"game\":\"toy\",\"titel\":\"x\"}\n";
        assert!(parse_jsonl(Path::new("t.jsonl"), typo).unwrap_err().message.contains("unknown key `titel`"));
        let typo = "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":3},\"time\":4}\n";
        let e = parse_jsonl(Path::new("t.jsonl"), typo).unwrap_err();
        assert!(e.message.starts_with("t.jsonl:2:1:") && e.message.contains("unknown key `time`"), "{e}");
    }

    #[test]
    fn a_setup_key_or_json_key_given_twice_is_refused() {
        let e = parse_notation(
            Path::new("t.arb"),
            "@game toy
@setup start=3 start=4
",
        )
        .unwrap_err();
        assert_eq!(e.message, "t.arb:2:8: expected each setup key once, found `start` a second time");
        let e = parse_notation(
            Path::new("t.arb"),
            "@game toy
@setup start=3
@setup double=no start=3
",
        )
        .unwrap_err();
        assert!(e.message.starts_with("t.arb:3:8:") && e.message.contains("`start` a second time"), "{e}");
        let twice = "{\"game\":\"toy\",\"setup\":{\"start\":\"2\",\"start\":\"3\"}}\n";
        let e = parse_jsonl(Path::new("t.jsonl"), twice).unwrap_err();
        assert!(e.message.starts_with("t.jsonl:1:") && e.message.contains("the key `start` twice"), "{e}");
        let twice = "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":3},\"event\":{\"Roll\":4}}\n";
        let e = parse_jsonl(Path::new("t.jsonl"), twice).unwrap_err();
        assert!(e.message.starts_with("t.jsonl:2:") && e.message.contains("the key `event` twice"), "{e}");
    }

    #[test]
    fn the_retraction_scan_finds_a_needle_across_a_chunk_boundary() {
        let dir = tempfile::tempdir().unwrap();
        for start in [(1 << 17) - 2, (1 << 17) - 4, 1 << 17, 3 << 17] {
            let path = dir.path().join(format!("s{start}.arb"));
            let mut text = String::from("@game toy\n");
            while text.len() + 12 < start {
                text.push_str("roll 1\nadd 1\n");
            }
            text.push_str(&"#".repeat(start - text.len()));
            text.push_str("\nundo\n");
            std::fs::write(&path, &text).unwrap();
            assert!(may_retract(&path).unwrap(), "{start}");
            let none = dir.path().join("none.arb");
            std::fs::write(&none, text.replace("undo", "add 1")).unwrap();
            assert!(!may_retract(&none).unwrap(), "{start}");
        }
    }

    #[test]
    fn a_long_files_retractions_come_from_its_cache_entry_while_the_file_is_unchanged() {
        use crate::retraction_cache::MIN_LEN;
        use std::time::{Duration, SystemTime};
        let dir = tempfile::tempdir().unwrap();
        let cache = RetractionCache::at(dir.path().join("index"));
        let path = dir.path().join("long.jsonl");
        let mut text = String::from("{\"game\":\"toy\"}\n");
        while (text.len() as u64) < MIN_LEN {
            text.push_str("{\"event\":{\"Roll\":1}}\n");
        }
        text.push_str("{\"retract\":5}\n");
        std::fs::write(&path, &text).unwrap();
        let target = |path: &Path| {
            let mut reader = LogReader::open(path).unwrap();
            reader.cache = Some(cache.clone());
            reader.scan_target()
        };
        // Just written: scanned, and not remembered (its times are too recent).
        let found = target(&path).retracted().unwrap();
        assert!(found.contains(5) && !found.contains(7));
        // An entry for the file as it is now, seen from when it will have settled; it says
        // record 7, so an answer of 7 can only have come from the entry.
        let key = target(&path).key.unwrap();
        cache.store_at(&path, &key, "jsonl", &[(60_000, 7)], SystemTime::now() + Duration::from_secs(10));
        let found = target(&path).retracted().unwrap();
        assert!(found.contains(7) && !found.contains(5), "the entry answers");
        let mut pairs = Vec::new();
        target(&path).each(|by, t| pairs.push((by, t))).unwrap();
        assert_eq!(pairs, [(60_000, 7)]);
        // Without an index, or once the file has changed, the file answers again.
        let mut plain = LogReader::open(&path).unwrap().scan_target();
        plain.cache = None;
        assert!(plain.retracted().unwrap().contains(5));
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, text.replace("{\"retract\":5}", "{\"retract\":6}")).unwrap();
        let found = target(&path).retracted().unwrap();
        assert!(found.contains(6) && !found.contains(7) && !found.contains(5), "a changed file is scanned");
        // A short file never asks the cache.
        let short = dir.path().join("short.jsonl");
        std::fs::write(&short, "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":1}}\n{\"event\":{\"Roll\":1}}\n")
            .unwrap();
        let key = target(&short).key.unwrap();
        cache.store_at(&short, &key, "jsonl", &[(2, 0)], SystemTime::now() + Duration::from_secs(10));
        assert!(target(&short).retracted().unwrap().is_empty());
    }

    #[test]
    fn a_short_file_is_searched_for_retractions_in_the_readers_buffer() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("a.arb", "@game toy\nroll 1\nadd 1\n", None),
            ("b.arb", "@game toy\nroll 1\nadd 1\nundo\n", Some(1)),
            ("c.jsonl", "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":1}}\n{\"event\":{\"Add\":1}}\n", None),
            ("d.jsonl", "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":1}}\n{\"\\u0072etract\":0}\n", Some(0)),
        ];
        for (name, text, retracted) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            let reader = LogReader::open(&path).unwrap();
            assert!(reader.rest_if_buffered().is_some(), "{name}");
            let found = retracted_records_of(&reader).unwrap();
            assert_eq!(found, retracted_records(&path).unwrap(), "{name}");
            assert_eq!(found.is_empty(), retracted.is_none(), "{name}");
            if let Some(r) = retracted {
                assert!(found.contains(r), "{name}");
            }
        }
    }

    #[test]
    fn a_file_is_read_as_it_was_when_opened() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        // A short file (read in one call) and one of several chunks.
        for lines in [2, 3 * CHUNK_BYTES / 7] {
            let path = dir.path().join(format!("grows{lines}.arb"));
            let mut text = String::from("@game toy\n");
            for _ in 0..lines {
                text.push_str("roll 1\n");
            }
            std::fs::write(&path, &text).unwrap();
            let reader = LogReader::open(&path).unwrap();
            // A writer appends after the file was opened: neither its whole line nor half
            // of one is read.
            let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
            file.write_all(b"add 1\nadd").unwrap();
            let records: Vec<RawRecord> = reader.collect::<Result<_, _>>().unwrap();
            assert_eq!(records.len(), lines, "{lines} lines");
            assert!(records.iter().all(|r| r.body == RawBody::Notation("roll 1".into(), 1)), "{lines} lines");
        }
    }

    #[test]
    fn long_lines_and_bad_bytes_are_refused() {
        let long = format!("@game toy\nnote {}\n", "x".repeat(MAX_LINE_BYTES + 10));
        let e = parse_notation(Path::new("t.arb"), &long).unwrap_err();
        assert!(e.message.contains("longer than") && e.message.len() < 200, "{e}");
        let input = Box::new(std::io::Cursor::new(b"@game toy\nroll \xff\n".to_vec()));
        let e = match LogReader::from_reader(Path::new("t.arb"), FileFormat::Notation, input) {
            Err(e) => e,
            Ok(mut reader) => reader.find_map(Result::err).unwrap(),
        };
        assert!(e.message.contains("t.arb:2: the line is not UTF-8"), "{e}");
    }

    /// An input that hands out at most `step` bytes a read: every line break, `#`, `\r` and
    /// multi-byte character falls on a boundary between reads for some step.
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(out.len()).min(self.bytes.len() - self.at);
            out[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// A whole parse of `bytes` read `step` bytes at a time: the log, or the error's message.
    fn parse_trickled(bytes: &[u8], step: usize) -> Result<LogFile, String> {
        let input = Trickle { bytes: bytes.to_vec(), at: 0, step };
        LogReader::from_reader(Path::new("t.arb"), FileFormat::Notation, input)
            .and_then(LogFile::collect)
            .map_err(|e| e.message)
    }

    #[test]
    fn lines_split_between_reads_parse_as_when_read_whole() {
        let valid = "\u{feff}@game toy\r\n@title \"caf\u{e9} #1\"\nroll 4   # why \u{2603}\n  add 4\r\n\u{3000}roll 2 #\nundo\n# only a comment\n\nadd 1";
        let expected = parse_trickled(valid.as_bytes(), usize::MAX).unwrap();
        assert_eq!(expected.header.title.as_deref(), Some("caf\u{e9} #1"));
        assert_eq!(expected.records.len(), 5);
        assert_eq!(expected.records[2].body, RawBody::Notation("roll 2".into(), 2));
        assert_eq!(expected.records[4].body, RawBody::Notation("add 1".into(), 1));
        for step in 1..=17 {
            assert_eq!(parse_trickled(valid.as_bytes(), step), Ok(expected.clone()), "step {step}");
        }
    }

    #[test]
    fn a_bad_byte_is_reported_on_its_own_line_however_the_input_is_read() {
        let head = "@game toy\nroll 1 # \u{e9}t\u{e9}\nadd 1\n";
        // (bytes, the line and offset the message names)
        let cases: [(Vec<u8>, usize, usize); 5] = [
            ([head.as_bytes(), b"roll \xff\nadd 1\n"].concat(), 4, 5),
            // A multi-byte character cut short by the line break.
            ([head.as_bytes(), b"add 1\nroll \xe2\x98\nadd 1\n"].concat(), 5, 5),
            // Cut short by the end of the file.
            ([head.as_bytes(), b"add \xe2\x98"].concat(), 4, 4),
            // A bad byte on the first line, and one in a comment.
            (b"@game toy \xc0\x80\n".to_vec(), 1, 10),
            ([head.as_bytes(), b"add 1 # \xfe\n"].concat(), 4, 8),
        ];
        for (bytes, line, offset) in cases {
            let expected =
                format!("t.arb:{line}: the line is not UTF-8 text (invalid byte at offset {offset})");
            for step in [1, 2, 3, 5, 8, 13, usize::MAX] {
                assert_eq!(parse_trickled(&bytes, step).map(|_| ()), Err(expected.clone()), "step {step}");
            }
        }
    }

    #[test]
    fn a_file_longer_than_a_chunk_reads_across_chunk_boundaries() {
        let dir = tempfile::tempdir().unwrap();
        // Lines of varied lengths, some with a two-byte character, so that line breaks,
        // comments and characters fall on the chunk boundaries of several files.
        let mut text = String::from("@game toy\n");
        let mut n = 0;
        while text.len() < 3 * CHUNK_BYTES {
            text.push_str(match n % 3 {
                0 => "roll 1\n",
                1 => "add 12   # \u{e9}\n",
                _ => "add 3\r\n",
            });
            n += 1;
        }
        for shift in 0..4 {
            let text = format!("{}{text}", "# x\n".repeat(shift));
            let path = dir.path().join(format!("long{shift}.arb"));
            std::fs::write(&path, &text).unwrap();
            let log = LogFile::read(&path).unwrap();
            assert_eq!(log.records.len(), n, "{shift}");
            assert!(log
                .records
                .iter()
                .all(|r| matches!(&r.body, RawBody::Notation(t, 1) if !t.ends_with(' '))));
            assert_eq!(log.records.last().map(|r| r.line), Some(shift + n + 1), "{shift}");
            assert_eq!(count_records(&path).unwrap(), n as u64, "{shift}");
            // A bad byte on the last line is reported there.
            let path = dir.path().join(format!("bad{shift}.arb"));
            std::fs::write(&path, [text.as_bytes(), b"add \xff\n"].concat()).unwrap();
            let e = LogReader::open(&path).unwrap().find_map(Result::err).unwrap();
            let expected = format!("{}: the line is not UTF-8 text", shift + n + 2);
            assert!(e.message.contains(&expected), "{e}");
        }
    }

    /// `each_with` (the loop inside the reader) against the iterator: the same records with
    /// the same lines, a stop where `f` asks for one (the reader then goes on from there),
    /// and an error where the iterator has it, however the input arrives.
    #[test]
    fn the_loop_inside_the_reader_sees_what_the_iterator_sees() {
        fn lent(line: usize, lent: Lent<'_>) -> RawRecord {
            let body = match lent {
                Lent::Notation(text, column) => RawBody::Notation(text.to_string(), column),
                Lent::Other(body) => body,
            };
            RawRecord { line, body }
        }
        let reader = |bytes: &[u8], step: usize, format: FileFormat| {
            let input = Trickle { bytes: bytes.to_vec(), at: 0, step };
            LogReader::from_reader(Path::new("t.arb"), format, input).unwrap()
        };
        let notation = "@game toy\nroll 4 # why\n\n  add 4\nundo\n@expect clean\nroll 2\nadd 1\n";
        let jsonl =
            "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":3}}\n{\"retract\":0}\n{\"event\":{\"Add\":1}}\n";
        for (text, format) in [(notation, FileFormat::Notation), (jsonl, FileFormat::Jsonl)] {
            for step in [1, 3, 7, usize::MAX] {
                let expected: Vec<RawRecord> =
                    reader(text.as_bytes(), step, format).collect::<Result<_, _>>().unwrap();
                let mut all = Vec::new();
                reader(text.as_bytes(), step, format)
                    .each_with(|line, l| {
                        all.push(lent(line, l));
                        Ok(true)
                    })
                    .unwrap();
                assert_eq!(all, expected, "{step}");
                // Stopped after the second record, the reader hands out the rest.
                let mut r = reader(text.as_bytes(), step, format);
                let mut two = Vec::new();
                r.each_with(|line, l| {
                    two.push(lent(line, l));
                    Ok(two.len() < 2)
                })
                .unwrap();
                let rest: Vec<RawRecord> = r.collect::<Result<_, _>>().unwrap();
                assert_eq!([two, rest].concat(), expected, "{step}");
            }
        }
        // An error ends the loop, and the reader is finished after it.
        let bad = b"@game toy\nroll 1\nadd \xff\nroll 2\n";
        let mut r = reader(bad, 2, FileFormat::Notation);
        let mut seen = 0;
        let e = r
            .each_with(|_, _| {
                seen += 1;
                Ok(true)
            })
            .unwrap_err();
        assert_eq!(
            (seen, e.message.as_str()),
            (1, "t.arb:3: the line is not UTF-8 text (invalid byte at offset 4)")
        );
        assert!(r.next().is_none());
    }

    #[test]
    fn the_longest_line_allowed_is_read_whole_however_it_arrives() {
        let at_limit = format!("@game toy\nnote {}\nadd 1\n", "x".repeat(MAX_LINE_BYTES - 5));
        let over = format!("@game toy\nadd 1\nnote {}\r\n", "x".repeat(MAX_LINE_BYTES - 5));
        for step in [1000, 4096, usize::MAX] {
            let log = parse_trickled(at_limit.as_bytes(), step).unwrap();
            assert_eq!(log.records.len(), 2, "{step}");
            let e = parse_trickled(over.as_bytes(), step).unwrap_err();
            assert!(e.starts_with("t.arb:3: the line is longer than"), "{step}: {e}");
        }
    }
}
