//! The typed records of an opened log: a session's, decoded as the journal hands them out,
//! or a file's, parsed by the game where the reader holds each line.
//!
//! `open` builds the stream and `session` the journal's half of it; this module imports
//! neither, so the three read one way (`open` -> `session` -> `records`).

use crate::error::{from_journal, VerifyError};
use crate::logfile::{Lent, LogReader, RawBody};
use crate::retraction::Retracted;
use crate::shown::shown;
use arbiter_engine::Game;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A record of a log, typed for game `E`'s events.
#[derive(Debug, Clone, PartialEq)]
pub enum Body<E> {
    Event(E),
    /// Retracts the record with this index.
    Retract(u64),
}

/// One typed record.
#[derive(Debug, Clone)]
pub(crate) struct Record<E> {
    pub index: u64,
    /// The file line it came from (sessions have none).
    pub line: Option<usize>,
    pub body: Body<E>,
}

/// The records of an opened log, typed as replay asks for them.
///
/// Both kinds of stream are concrete types, not boxed iterators, so that the plain verify
/// loop can be compiled for each (see `verify::checking`): verifying a league steps every
/// record of thousands of sessions or files, and a dynamic call and the copies of an owned
/// event through each layer per record showed in its profile.
// One per opened log, moved a few times and never stored in bulk: boxing the larger
// variant would only add an allocation per session.
#[allow(clippy::large_enum_variant)]
pub(crate) enum RecordStream<G: Game> {
    /// A session's records, decoded as they are read.
    Session(arbiter_journal::Events<G::Event>),
    /// A file's records, parsed as they are read.
    File(Box<FileRecords<G>>),
}

impl<G: Game> Iterator for RecordStream<G> {
    type Item = Result<Record<G::Event>, VerifyError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            RecordStream::Session(events) => events.next().map(from_session),
            RecordStream::File(file) => {
                file.next_with(|index, line, body| Ok(Record { index, line: Some(line), body }))
            }
        }
    }
}

/// A file's records, parsed by the game as its reader reaches them.
pub(crate) struct FileRecords<G: Game> {
    reader: Box<LogReader>,
    /// The game, for its parser.
    parser: G,
    /// Every retraction the scan before replay found: the reader must find no other.
    known: Retracted,
    /// The file, named in messages.
    path: PathBuf,
    /// The next record's index.
    index: u64,
}

impl<G: Game> FileRecords<G> {
    /// The records of the file `reader` has open (its header read), parsed by `parser`,
    /// from record 0; `known` is every retraction the scan before replay found.
    pub fn new(reader: Box<LogReader>, parser: G, known: Retracted, path: PathBuf) -> Self {
        FileRecords { reader, parser, known, path, index: 0 }
    }

    /// The next record handed to `f` with its index and line: the event is parsed straight
    /// from the reader's line and given to `f` where it was parsed, not moved up through a
    /// record, a `Result` and an `Option` per layer (what `f` returns is).
    #[inline]
    pub fn next_with<T>(
        &mut self,
        f: impl FnOnce(u64, usize, Body<G::Event>) -> Result<T, VerifyError>,
    ) -> Option<Result<T, VerifyError>> {
        let i = self.index;
        self.index += 1;
        let FileRecords { reader, parser, known, path, .. } = self;
        let path = path.as_path();
        reader.next_with(|line, raw| f(i, line, body(parser, known, path, line, raw)?))
    }

    /// Every record left handed to `f` as [`Self::next_with`] hands one, until `f` returns
    /// `false`. The loop runs inside the reader: this is `arbiter verify FILE`'s path, and
    /// handing records out one call at a time cost about a tenth of the crate's own part of
    /// a record.
    #[inline]
    pub fn each(
        &mut self,
        mut f: impl FnMut(u64, usize, &Body<G::Event>) -> Result<bool, VerifyError>,
    ) -> Result<(), VerifyError> {
        let FileRecords { reader, parser, known, path, index } = self;
        let path = path.as_path();
        reader.each_with(|line, raw| {
            let i = *index;
            *index += 1;
            f(i, line, &body(parser, known, path, line, raw)?)
        })
    }
}

/// A record the reader lent, parsed by the game. The scan before replay must have seen every
/// retraction the reader finds (`known`).
#[inline(always)]
fn body<G: Game>(
    parser: &G,
    known: &Retracted,
    path: &Path,
    line: usize,
    raw: Lent<'_>,
) -> Result<Body<G::Event>, VerifyError> {
    Ok(match raw {
        Lent::Notation(text, column) => Body::Event(parse_line(parser, path, text, column, line)?),
        Lent::Other(RawBody::Retract(t)) if known.contains(t) => Body::Retract(t),
        Lent::Other(RawBody::Retract(_)) => return Err(unknown_retraction(path, line)),
        // The reader lends every event line; an owned one parses the same.
        Lent::Other(RawBody::Notation(text, column)) => {
            Body::Event(parse_line(parser, path, &text, column, line)?)
        }
        Lent::Other(RawBody::Json(value)) => Body::Event(json_event(parser, value, path, line)?),
    })
}

/// A retraction the reader found that the scan before replay did not: the file changed
/// between the two reads.
fn unknown_retraction(path: &Path, line: usize) -> VerifyError {
    VerifyError::parse(format!(
        "{}:{line}: a retraction the scan for retractions did not find",
        shown(&path.display().to_string()),
    ))
}

/// A notation event line of a file, parsed by the game; an error names file, line and
/// column.
#[inline]
fn parse_line<G: Game>(
    game: &G,
    path: &Path,
    text: &str,
    column: usize,
    line: usize,
) -> Result<G::Event, VerifyError> {
    game.parse_event(text).map_err(|e| {
        VerifyError::parse(format!(
            "{}:{line}:{}: expected {}, found {}",
            shown(&path.display().to_string()),
            column + e.column.saturating_sub(1),
            e.expected,
            shown(&e.found)
        ))
    })
}

/// A JSONL event, held to the same rules as a notation line: every key it holds must be one
/// the game reads (serde would silently ignore a misspelt one), and it must read back from
/// its notation as itself (`parse_event` is the one place an event's values are checked, so
/// a die of 7 is refused in JSONL exactly as in notation, and a file that imports always
/// exports to notation and back).
pub(crate) fn json_event<G: Game>(
    game: &G,
    value: serde_json::Value,
    path: &Path,
    line: usize,
) -> Result<G::Event, VerifyError> {
    // Built only for a message: every JSONL event passes here.
    let at = || format!("{}:{line}:1", shown(&path.display().to_string()));
    let event = G::Event::deserialize(&value).map_err(|e| {
        VerifyError::parse(format!(
            "{}: expected a {} event, found one that does not fit: {}",
            at(),
            G::info().id,
            shown(&plain_serde(&e.to_string()))
        ))
    })?;
    let back = serde_json::to_value(&event).unwrap_or(serde_json::Value::Null);
    if let Some(key) = crate::jsonl::ignored_key(&value, &back) {
        return Err(VerifyError::parse(format!(
            "{}: expected a {} event, found unknown key `{}`",
            at(),
            G::info().id,
            shown(&key)
        )));
    }
    notation_round_trip(game, &event).map_err(|why| VerifyError::parse(format!("{}: {why}", at())))?;
    Ok(event)
}

/// serde's account of a value that does not fit, in the words of the rest of the messages:
/// `invalid type: floating point `1.8e19`, expected u8` (a number too large for JSON's
/// integers) reads "`1.8e19` where a whole number from 0 to 255 goes". Other accounts
/// (`missing field`, `unknown variant`) already read plainly and are kept.
fn plain_serde(message: &str) -> String {
    let range = |ty: &str| match ty {
        "u8" => Some("a whole number from 0 to 255"),
        "u16" => Some("a whole number from 0 to 65535"),
        "u32" => Some("a whole number from 0 to 4294967295"),
        "u64" => Some("a whole number from 0 to 18446744073709551615"),
        "i8" => Some("a whole number from -128 to 127"),
        "i16" => Some("a whole number from -32768 to 32767"),
        "i32" => Some("a whole number from -2147483648 to 2147483647"),
        "i64" => Some("a whole number from -9223372036854775808 to 9223372036854775807"),
        _ => None,
    };
    for prefix in ["invalid type: ", "invalid value: "] {
        let Some(rest) = message.strip_prefix(prefix) else { continue };
        let Some((found, expected)) = rest.rsplit_once(", expected ") else { continue };
        // "floating point `X`", "integer `X`", "string \"x\"": the value, without serde's kind.
        let value =
            found.strip_prefix("floating point ").or_else(|| found.strip_prefix("integer ")).unwrap_or(found);
        let wanted = range(expected).unwrap_or(expected);
        return format!("{value} where {wanted} goes");
    }
    message.to_string()
}

/// Check that an event reads back from its notation line as itself; `Err` says why not.
pub(crate) fn notation_round_trip<G: Game>(game: &G, event: &G::Event) -> Result<(), String> {
    let text = event.to_string();
    if text.contains(['#', '\n', '\r']) || text.trim() != text || text.is_empty() || text == "undo" {
        return Err(format!("the event `{}` has no notation line that reads back as itself", shown(&text)));
    }
    match game.parse_event(&text) {
        Ok(back) if back == *event => Ok(()),
        Ok(back) => Err(format!(
            "the event `{}` reads back from notation as `{}`",
            shown(&text),
            shown(&back.to_string())
        )),
        Err(e) => Err(format!(
            "the event `{}` is not a valid {} event: column {}: expected {}, found {}",
            shown(&text),
            G::info().id,
            e.column,
            e.expected,
            shown(&e.found)
        )),
    }
}

/// A journal record as a record of a log (sessions have no lines).
pub(crate) fn from_session<E>(
    item: Result<(u64, arbiter_journal::Record<E>), arbiter_journal::JournalError>,
) -> Result<Record<E>, VerifyError> {
    let (seq, record) = item.map_err(from_journal)?;
    let body = match record {
        arbiter_journal::Record::Event(e) => Body::Event(e),
        arbiter_journal::Record::Retract(t) => Body::Retract(t),
    };
    Ok(Record { index: seq, line: None, body })
}

#[cfg(test)]
mod tests {
    use super::plain_serde;

    #[test]
    fn serde_accounts_read_plainly() {
        assert_eq!(
            plain_serde("invalid type: floating point `1.8446744073709552e+19`, expected u8"),
            "`1.8446744073709552e+19` where a whole number from 0 to 255 goes"
        );
        assert_eq!(
            plain_serde("invalid value: integer `300`, expected u8"),
            "`300` where a whole number from 0 to 255 goes"
        );
        assert_eq!(
            plain_serde("invalid type: string \"x\", expected a sequence"),
            "string \"x\" where a sequence goes"
        );
        assert_eq!(plain_serde("missing field `slot`"), "missing field `slot`");
    }
}
