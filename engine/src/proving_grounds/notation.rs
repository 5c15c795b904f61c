//! The line notation of the training game: a hand-written tokenizer (no regex, no
//! allocation beyond the event itself) reading one event per line.
//!
//! Grammar (docs/notation/proving-grounds.md): `draw SLOT CARD`, `roll DIE...`,
//! `reroll FACE... -> DIE...`, `stop`, `up SLOT [SPACES]`, `down SLOT`, `hold SLOT`,
//! `defeat SLOT`, `wound SLOT exhaust COLOR`, `replace COLOR|- -> COLOR`, `recover`, each
//! optionally followed by `t=SECONDS`.

use super::dice::{Color, Dice, Die, MAX_DICE};
use super::event::{Action, Event};
use crate::ParseError;

/// Words split by ASCII whitespace, with their byte offsets.
struct Tokens<'a> {
    line: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> Option<(usize, &'a str)> {
        let bytes = self.line.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if self.pos >= bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        Some((start, &self.line[start..self.pos]))
    }

    /// The byte offset where the next token would start (or the end of the line).
    fn here(&self) -> usize {
        let bytes = self.line.as_bytes();
        let mut p = self.pos;
        while p < bytes.len() && bytes[p].is_ascii_whitespace() {
            p += 1;
        }
        p
    }
}

/// A parse error at byte offset `at` of `line` (reported as a 1-based character column).
fn err(line: &str, at: usize, expected: &str, found: Option<&str>) -> ParseError {
    let column = line.get(..at).map_or(at, |p| p.chars().count()) + 1;
    let found = match found {
        Some(w) => format!("`{w}`"),
        None => "end of line".to_string(),
    };
    ParseError::new(column, expected, found)
}

fn expect<'a>(t: &mut Tokens<'a>, full: &str, expected: &str) -> Result<(usize, &'a str), ParseError> {
    // When no word is left, `next` has skipped the trailing blanks, so `here` is the end of
    // the line either way: asking for it only on failure keeps the happy path one scan.
    let word = t.next();
    word.ok_or_else(|| err(full, t.here(), expected, None))
}

fn number(
    t: &mut Tokens<'_>,
    full: &str,
    expected: &str,
    range: std::ops::RangeInclusive<u8>,
) -> Result<u8, ParseError> {
    let (at, w) = expect(t, full, expected)?;
    match w.parse::<u8>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(err(full, at, expected, Some(w))),
    }
}

fn slot(t: &mut Tokens<'_>, full: &str) -> Result<u8, ParseError> {
    number(t, full, "a slot number 1-6", 1..=6)
}

fn die(w: &str) -> Option<Die> {
    let b = w.as_bytes();
    let value = match b.first() {
        Some(v @ b'1'..=b'6') => v - b'0',
        _ => return None,
    };
    let color = match b.len() {
        1 => Color::White,
        2 if b[1] != b'w' => Color::from_letter(b[1])?,
        _ => return None,
    };
    Some(Die::new(value, color))
}

fn color(t: &mut Tokens<'_>, full: &str, expected: &str, allow_white: bool) -> Result<Color, ParseError> {
    let (at, w) = expect(t, full, expected)?;
    match w.as_bytes() {
        [c] => match Color::from_letter(*c) {
            Some(Color::White) if !allow_white => Err(err(full, at, expected, Some(w))),
            Some(c) => Ok(c),
            None => Err(err(full, at, expected, Some(w))),
        },
        _ => Err(err(full, at, expected, Some(w))),
    }
}

fn keyword(t: &mut Tokens<'_>, full: &str, word: &str) -> Result<(), ParseError> {
    // The expectation is only spelled out (`format!`) when the word is missing or wrong.
    match t.next() {
        Some((_, w)) if w == word => Ok(()),
        Some((at, w)) => Err(err(full, at, &format!("`{word}`"), Some(w))),
        None => Err(err(full, t.here(), &format!("`{word}`"), None)),
    }
}

/// Dice up to the end of the (time-stripped) line: at least one.
fn dice(t: &mut Tokens<'_>, full: &str) -> Result<Dice, ParseError> {
    const WHAT: &str = "a die value 1-6 with an optional color g, y or b (`5`, `6b`)";
    let mut out = Dice::new();
    let (at, w) = expect(t, full, WHAT)?;
    let mut next = Some((at, w));
    while let Some((at, w)) = next {
        let d = die(w).ok_or_else(|| err(full, at, WHAT, Some(w)))?;
        if !out.push(d) {
            return Err(err(full, at, &format!("at most {MAX_DICE} dice"), Some(w)));
        }
        next = t.next();
    }
    Ok(out)
}

fn end(t: &mut Tokens<'_>, full: &str) -> Result<(), ParseError> {
    match t.next() {
        None => Ok(()),
        Some((at, w)) => Err(err(full, at, "end of line (or `t=SECONDS`)", Some(w))),
    }
}

/// A card id: lowercase letters, digits and `-`.
fn card_id(t: &mut Tokens<'_>, full: &str, what: &str) -> Result<String, ParseError> {
    let (at, card) = expect(t, full, what)?;
    if !card.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err(err(full, at, what, Some(card)));
    }
    Ok(card.to_string())
}

/// Read one event line (no comment, not blank).
pub fn parse_event(full: &str) -> Result<Event, ParseError> {
    // The optional time is the last word; strip it first so the rest never sees it.
    let trimmed = full.trim_end();
    let (body, time) = match trimmed.rfind(|c: char| c.is_ascii_whitespace()) {
        Some(i) if trimmed[i + 1..].starts_with("t=") => {
            let w = &trimmed[i + 1..];
            match w[2..].parse::<u16>() {
                Ok(s) => (&trimmed[..i], Some(s)),
                Err(_) => return Err(err(full, i + 1, "a time in whole seconds (`t=42`)", Some(w))),
            }
        }
        _ => (trimmed, None),
    };
    let mut t = Tokens { line: body, pos: 0 };
    const EVENTS: &str =
        "an event (draw, roll, reroll, stop, up, down, hold, defeat, wound, replace, recover, or a module's: \
         shield, unshield, face, borrow, moon, conspire, reveal, dragon, chariot, load, chariot-met, \
         chariot-unmet, inspire)";
    let (at, word) = expect(&mut t, full, EVENTS)?;
    let action = match word {
        "draw" => {
            let slot = slot(&mut t, full)?;
            let card = card_id(&mut t, full, "an enemy id (lowercase letters, digits, `-`)")?;
            Action::EnemyDrawn { slot, card }
        }
        "shield" => Action::ShieldGained { slot: slot(&mut t, full)? },
        "unshield" => Action::ShieldRemoved { slot: slot(&mut t, full)? },
        "face" => Action::DialTurned { slot: slot(&mut t, full)? },
        "moon" => Action::MoonStruck { slot: slot(&mut t, full)? },
        "borrow" => {
            Action::DieBorrowed { color: color(&mut t, full, "the color borrowed: g, y or b", false)? }
        }
        "conspire" => Action::ConspiratorRolled { value: number(&mut t, full, "a die value 1-6", 1..=6)? },
        "dragon" => Action::DragonlingRolled { value: number(&mut t, full, "a die value 1-6", 1..=6)? },
        "reveal" => Action::ConspiratorRevealed {
            card: card_id(&mut t, full, "a conspirator id (lowercase letters, digits, `-`)")?,
        },
        "chariot" => Action::ChariotDrawn {
            card: card_id(&mut t, full, "a chariot id (lowercase letters, digits, `-`)")?,
        },
        "inspire" => {
            let card = card_id(&mut t, full, "an inspiration card id (lowercase letters, digits, `-`)")?;
            match t.next() {
                None => Action::InspirationPlayed { card },
                Some((at, w)) => match w.parse::<u8>() {
                    Ok(slot @ 1..=6) => Action::InspirationPlayedOn { card, slot },
                    _ => {
                        return Err(err(
                            full,
                            at,
                            "the slot 1-6 the card is played on, or end of line",
                            Some(w),
                        ))
                    }
                },
            }
        }
        "load" => Action::ChariotLoaded { dice: dice(&mut t, full)? },
        "chariot-met" => Action::ChariotResolved { met: true },
        "chariot-unmet" => Action::ChariotResolved { met: false },
        "roll" => Action::DiceRolled { dice: dice(&mut t, full)? },
        "reroll" => {
            let mut faces = 0u8;
            let (mut at, mut w) = expect(&mut t, full, "the number of the set to reroll (1-6)")?;
            loop {
                match w.as_bytes() {
                    [f @ b'1'..=b'6'] if faces & (1 << (f - b'0')) == 0 => faces |= 1 << (f - b'0'),
                    b"->" if faces != 0 => break,
                    _ => {
                        let expected = if faces == 0 {
                            "the number of the set to reroll (1-6)"
                        } else {
                            "another set number or `->`"
                        };
                        return Err(err(full, at, expected, Some(w)));
                    }
                }
                (at, w) = expect(&mut t, full, "another set number or `->`")?;
            }
            Action::SetRerolled { faces, dice: dice(&mut t, full)? }
        }
        "stop" => Action::RollingStopped,
        "up" => {
            let slot = slot(&mut t, full)?;
            let spaces = match t.next() {
                None => 1,
                Some((at, w)) => match w.parse::<u8>() {
                    Ok(n @ 1..=12) => n,
                    _ => return Err(err(full, at, "a number of spaces 1-12 or end of line", Some(w))),
                },
            };
            Action::MarkerMovedUp { slot, spaces }
        }
        "down" => Action::MarkerMovedDown { slot: slot(&mut t, full)? },
        "hold" => Action::MarkerHeld { slot: slot(&mut t, full)? },
        "defeat" => Action::EnemyDefeated { slot: slot(&mut t, full)? },
        "wound" => {
            let slot = slot(&mut t, full)?;
            keyword(&mut t, full, "exhaust")?;
            let exhausted = color(&mut t, full, "the color of the exhausted die: w, g, y or b", true)?;
            Action::WoundSuffered { slot, exhausted }
        }
        "replace" => {
            const WHAT: &str = "the color of the discarded die (w, g, y, b) or `-`";
            let here = t.here();
            let discarded = match t.next() {
                Some((_, "-")) => None,
                Some((at, w)) => {
                    let mut one = Tokens { line: w, pos: 0 };
                    Some(color(&mut one, w, WHAT, true).map_err(|_| err(full, at, WHAT, Some(w)))?)
                }
                None => return Err(err(full, here, WHAT, None)),
            };
            keyword(&mut t, full, "->")?;
            let taken = color(&mut t, full, "the color taken from the stack: g, y or b", false)?;
            Action::DieReplaced { discarded, taken }
        }
        "recover" => Action::Recovered,
        _ => return Err(err(full, at, EVENTS, Some(word))),
    };
    end(&mut t, full)?;
    Ok(Event { action, time })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn round_trips(line: &str) {
        match parse_event(line) {
            Ok(e) => assert_eq!(e.to_string(), line, "{e:?}"),
            Err(e) => panic!("`{line}`: {e}"),
        }
    }

    #[track_caller]
    fn fails(line: &str, column: usize, expected_part: &str, found: &str) {
        match parse_event(line) {
            Ok(e) => panic!("`{line}` parsed as {e:?}"),
            Err(e) => {
                assert_eq!(e.column, column, "{e}");
                assert!(e.expected.contains(expected_part), "{e}");
                assert_eq!(e.found, found, "{e}");
            }
        }
    }

    #[test]
    fn every_event_shape_round_trips() {
        round_trips("draw 1 pit-brawler");
        round_trips("roll 1 1 3 3 4 5g 6b 6y");
        round_trips("roll 1 1 3 3 4 5g 6b 6y t=0");
        round_trips("reroll 1 -> 4 6");
        round_trips("reroll 1 3 -> 4 6 2 2g t=61");
        round_trips("stop");
        round_trips("stop t=30");
        round_trips("up 1");
        round_trips("up 6 2");
        round_trips("down 2");
        round_trips("hold 3");
        round_trips("defeat 1");
        round_trips("wound 2 exhaust w");
        round_trips("wound 2 exhaust b");
        round_trips("replace w -> y");
        round_trips("replace g -> b");
        round_trips("replace - -> g");
        round_trips("recover");
        for line in [
            "shield 3",
            "unshield 3",
            "face 2",
            "borrow g",
            "moon 5",
            "conspire 4",
            "reveal spymaster",
            "dragon 6",
            "chariot bronze-chariot",
            "load 5 5b",
            "chariot-met",
            "chariot-unmet",
            "inspire second-wind t=12",
            "inspire true-aim 3",
        ] {
            round_trips(line);
        }
    }

    #[test]
    fn spacing_is_free_but_printing_is_canonical() {
        assert_eq!(parse_event("  up   6  1 ").map(|e| e.to_string()), Ok("up 6".to_string()));
        assert_eq!(
            parse_event("reroll 3 1 -> 2 2").map(|e| e.to_string()),
            Ok("reroll 1 3 -> 2 2".to_string())
        );
    }

    #[test]
    fn errors_name_the_column_the_expectation_and_the_word() {
        fails("jump 1", 1, "an event", "`jump`");
        fails("", 1, "an event", "end of line");
        fails("up 7", 4, "slot number", "`7`");
        fails("down", 5, "slot number", "end of line");
        fails("roll 1 1 7", 10, "die value", "`7`");
        fails("roll 1 1w", 8, "die value", "`1w`");
        fails("roll", 5, "die value", "end of line");
        fails("reroll -> 4", 8, "number of the set", "`->`");
        fails("reroll 1 1 -> 4", 10, "`->`", "`1`");
        fails("reroll 1 -> ", 12, "die value", "end of line");
        fails("wound 2 exhaust x", 17, "color", "`x`");
        fails("wound 2 w", 9, "`exhaust`", "`w`");
        fails("replace w -> w", 14, "color taken", "`w`");
        fails("replace w y", 11, "`->`", "`y`");
        fails("stop now", 6, "end of line", "`now`");
        fails("stop t=x", 6, "seconds", "`t=x`");
        fails("draw 1 Pit", 8, "enemy id", "`Pit`");
        fails("up 1 0", 6, "spaces", "`0`");
        fails("borrow w", 8, "color borrowed", "`w`");
        fails("dragon 0", 8, "die value", "`0`");
        fails("reveal Vizier", 8, "conspirator id", "`Vizier`");
        fails("load", 5, "die value", "end of line");
        fails("chariot-met now", 13, "end of line", "`now`");
        fails("inspire true-aim 7", 18, "slot 1-6", "`7`");
        fails("roll 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", 34, "at most 14", "`1`");
    }
}
