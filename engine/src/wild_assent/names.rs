//! Reading names from a notation line: one miniature's or card's name, or a lineup of them to
//! the end of the line. Below the encounter's notation and the campaign's events, which both
//! read them.

use super::event::Lineup;
use crate::kit::name::Name;
use crate::kit::words::Words;
use crate::ParseError;

/// One name (a miniature's, a card's, a Seeker's), or an error saying which was expected.
pub(super) fn name(w: &mut Words<'_>, what: &str) -> Result<Name, ParseError> {
    match w.peek().and_then(Name::new) {
        Some(n) => {
            w.skip();
            Ok(n)
        }
        None => Err(w.err(Name::expected(what))),
    }
}

/// One to `max` names (at most [`Lineup::MAX`]) to the end of the line; `more` says what
/// to do with a longer list.
pub(super) fn lineup(w: &mut Words<'_>, what: &str, max: usize, more: &str) -> Result<Lineup, ParseError> {
    let mut names = Vec::new();
    while !w.at_end() {
        if names.len() == max.min(Lineup::MAX) {
            return Err(w.err(format!("the end of the line ({more})")));
        }
        names.push(name(w, what)?);
    }
    if names.is_empty() {
        return Err(w.err(Name::expected(what)));
    }
    Lineup::new(&names).ok_or_else(|| w.err(more))
}
