//! `arbiter fork SESSION --at N --into NEW`: a new session holding records `0..N` of
//! another, recording where it came from, so a counterfactual can be recorded on from there.

use crate::error::VerifyError;
use crate::open::{with_game, Peeked, WithGame};
use crate::session::{from_journal, journal};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use arbiter_journal::{Parent, Record};
use serde::Serialize;
use std::fmt;

/// What a fork created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForkReport {
    pub parent: String,
    pub session: String,
    /// Records copied: the parent's `0..at`.
    pub at: u64,
    /// The parent's length when it was forked.
    pub parent_records: u64,
    /// The parent's chain hash after those records (hex), stored in the fork's metadata.
    pub parent_hash: String,
    /// Whether the parent retracts, at or after the fork point, records before it: the fork
    /// keeps them, so `diff` splits the two where the parent's withdrawal shows.
    pub retracts_after: bool,
}

impl fmt::Display for ForkReport {
    /// What `arbiter diff PARENT FORK` will say, so the two commands tell one truth: a fork
    /// before the parent's end splits from it at the fork point; a fork at the end holds the
    /// same records and is identical until one of them records on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The parent's hash is stored in the fork's metadata; it is not printed, since it
        // binds the parent's creation time and so differs from one import to the next.
        write!(
            f,
            "session `{}` forked from `{}` at record {}; `arbiter diff {} {}` ",
            self.session, self.parent, self.at, self.parent, self.session,
        )?;
        if self.retracts_after {
            writeln!(
                f,
                "shows where they split (the parent's retractions from record {} on withdraw records the fork keeps)",
                self.at
            )
        } else if self.at < self.parent_records {
            writeln!(f, "splits at record {}", self.at)
        } else {
            writeln!(f, "finds them identical until either records past record {}", self.at)
        }
    }
}

struct Fork<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    parent: &'c str,
    at: u64,
    into: &'c str,
}

impl<'c, 'a, R: Games> WithGame<'a> for Fork<'c, 'a, R> {
    type Output = ForkReport;
    fn run<G: Game>(self, _peeked: Peeked) -> Result<ForkReport, VerifyError> {
        let j = journal(self.ctx, self.parent)?;
        let mut meta = j.session(self.parent).map_err(from_journal)?;
        let len = j.len(self.parent).map_err(from_journal)?;
        if self.at > len {
            return Err(VerifyError::argument(format!(
                "cannot fork `{}` at record {}: it holds {len} records",
                self.parent, self.at
            )));
        }
        let hash = j.hash_at(self.parent, self.at).map_err(from_journal)?;
        let retracts_after = j
            .retractions(self.parent)
            .map_err(from_journal)?
            .iter()
            .any(|&(by, target)| by >= self.at && target < self.at);
        let mut records: Vec<Record<G::Event>> = Vec::new();
        for item in j.events::<G::Event>(self.parent, 0).map_err(from_journal)? {
            let (seq, record) = item.map_err(from_journal)?;
            if seq >= self.at {
                break;
            }
            records.push(record);
        }
        meta.parent = Some(Parent { session: self.parent.to_string(), at: self.at, hash });
        meta.created = crate::transfer::now();
        j.import(self.into, &meta, &records).map_err(from_journal)?;
        Ok(ForkReport {
            parent: self.parent.to_string(),
            session: self.into.to_string(),
            at: self.at,
            parent_records: len,
            parent_hash: arbiter_journal::hex(&hash),
            retracts_after,
        })
    }
}

/// Fork `session` at record `at` into the new session `into`. The parent is only read.
pub fn fork<R: Games>(
    ctx: &Context<'_, R>,
    session: &str,
    at: u64,
    into: &str,
) -> Result<ForkReport, VerifyError> {
    with_game(ctx, &Source::session(session), Fork { ctx, parent: session, at, into })
}
