//! The line notation of the training game, read with the kit's tokenizer (`kit::words`, no
//! allocation beyond the event itself), one event per line.
//!
//! Grammar (docs/notation/proving-grounds.md): `draw SLOT CARD`, `roll DIE...`,
//! `reroll FACE... -> DIE...`, `stop`, `up SLOT [SPACES]`, `down SLOT`, `hold SLOT`,
//! `defeat SLOT`, `wound SLOT exhaust COLOR`, `replace COLOR|- -> COLOR`, `exhaust COLOR`,
//! `recover`, each
//! optionally followed by `t=SECONDS`.

use super::dice::{Color, Dice, Die, MAX_DICE};
use super::event::{Action, Event};
use crate::kit::words::Words;
use crate::ParseError;

/// The notation at a glance (`Game::notation_summary`); docs/notation/proving-grounds.md has
/// the whole of it. Slots are 1-6, dice a value 1-6 with an optional color g, y or b.
pub const SUMMARY: &str = "\
draw SLOT CARD               the top card goes to an empty slot
roll DIE...                  step 1: the whole pool, one value a die (`roll 1g 1 2y 4 4 6 6 6b`)
reroll FACE... -> DIE...     the whole set showing FACE is rerolled (`reroll 6 -> 2 5b`)
stop                         rolling is over
up SLOT [SPACES]             the marker moves up (one space unless SPACES)
down SLOT                    the marker moves down one space
hold SLOT                    the marker does not move
defeat SLOT                  the enemy is defeated
wound SLOT exhaust COLOR     a die of COLOR (w g y b) to the exhaustion track, health down one
replace COLOR -> COLOR       on the stack's space: a die leaves the pool, a colored one comes in
exhaust COLOR                a card's text sends one more die of COLOR to the exhaustion track
recover                      step 3: dice back to the pool, exhaustion track down one
shield SLOT                  (shields) an incorrect set gave the enemy a shield
unshield SLOT                (shields) a single removed the enemy's shield
face SLOT                    (sun-moon) Maia faces this slot
borrow COLOR                 (sun-moon) a hit on the sun enemy borrows a die from the dial
moon SLOT                    (sun-moon) the moon enemy moves down one
conspire N                   (conspirators) the conspirator die showed N
reveal CARD                  (conspirators) a conspirator card is revealed
dragon N                     (dragonling) the dragonling die showed N
chariot CARD                 (chariots) this chariot comes into play
load DIE...                  (chariots) these dice go on the chariot
chariot-met                  (chariots) the chariot's condition was met
chariot-unmet                (chariots) it was not: its effect activates
inspire CARD [SLOT]          (inspiration) an inspiration card is played
Any line may end with t=SECONDS, the clock reading.
";

/// A slot number 1-6.
fn slot(w: &mut Words<'_>) -> Result<u8, ParseError> {
    w.number_in(1..=6, "a slot number 1-6")
}

/// `5`, `6b`: a die value 1-6 and an optional color letter (white has none).
fn die(word: &str) -> Option<Die> {
    let b = word.as_bytes();
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

/// A color letter (`w`, `g`, `y`, `b`; white only where it may be named).
fn color(w: &mut Words<'_>, expected: &str, allow_white: bool) -> Result<Color, ParseError> {
    match w.peek().and_then(Color::parse) {
        Some(Color::White) if !allow_white => Err(w.err(expected)),
        Some(c) => {
            w.skip();
            Ok(c)
        }
        None => Err(w.err(expected)),
    }
}

/// Dice up to the end of the (time-stripped) line: at least one.
fn dice(w: &mut Words<'_>) -> Result<Dice, ParseError> {
    const WHAT: &str = "a die value 1-6 with an optional color g, y or b (`5`, `6b`)";
    let mut out = Dice::new();
    loop {
        let d = w.peek().and_then(die).ok_or_else(|| w.err(WHAT))?;
        if !out.push(d) {
            return Err(w.err(format!("at most {MAX_DICE} dice")));
        }
        w.skip();
        if w.at_end() {
            return Ok(out);
        }
    }
}

/// A card id: lowercase letters, digits and `-` (a narrower grammar than the kit's ids, so
/// that `draw 1 Pit` is refused where it is typed).
fn card_id(w: &mut Words<'_>, what: &str) -> Result<String, ParseError> {
    match w.peek() {
        Some(card) if card.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') => {
            w.skip();
            Ok(card.to_string())
        }
        _ => Err(w.err(what)),
    }
}

/// `reroll FACE... ->`: the faces of the sets rerolled, as a bitmask (bit n = face n).
fn faces(w: &mut Words<'_>) -> Result<u8, ParseError> {
    let mut faces = 0u8;
    loop {
        match w.peek().map(str::as_bytes) {
            Some([f @ b'1'..=b'6']) if faces & (1 << (f - b'0')) == 0 => faces |= 1 << (f - b'0'),
            Some(b"->") if faces != 0 => {
                w.skip();
                return Ok(faces);
            }
            _ if faces == 0 => return Err(w.err("the number of the set to reroll (1-6)")),
            _ => return Err(w.err("another set number or `->`")),
        }
        w.skip();
    }
}

/// Read one event line (no comment, not blank).
pub fn parse_event(full: &str) -> Result<Event, ParseError> {
    // The optional time is the last word; strip it first so the rest never sees it.
    let trimmed = full.trim_end();
    let (body, time) = match trimmed.rfind(|c: char| c.is_ascii_whitespace()) {
        Some(i) if trimmed[i + 1..].starts_with("t=") => {
            let word = &trimmed[i + 1..];
            match word[2..].parse::<u16>() {
                Ok(s) => (&trimmed[..i], Some(s)),
                Err(_) => {
                    let column = trimmed[..i + 1].chars().count() + 1;
                    return Err(ParseError::new(
                        column,
                        "a time in whole seconds (`t=42`)",
                        format!("`{word}`"),
                    ));
                }
            }
        }
        _ => (trimmed, None),
    };
    let mut w = Words::new(body);
    const EVENTS: &str =
        "an event (draw, roll, reroll, stop, up, down, hold, defeat, wound, replace, exhaust, recover, or a module's: \
         shield, unshield, face, borrow, moon, conspire, reveal, dragon, chariot, load, chariot-met, \
         chariot-unmet, inspire)";
    let at_keyword = w.clone();
    let word = w.word(EVENTS)?;
    let action = read_action(word, &mut w)?.ok_or_else(|| at_keyword.err(EVENTS))?;
    if !w.at_end() {
        return Err(w.err("end of line (or `t=SECONDS`)"));
    }
    Ok(Event { action, time })
}

/// The words after an event's keyword (`None`: no event has that keyword).
fn read_action(word: &str, w: &mut Words<'_>) -> Result<Option<Action>, ParseError> {
    Ok(Some(match word {
        "draw" => {
            let slot = slot(w)?;
            let card = card_id(w, "an enemy id (lowercase letters, digits, `-`)")?;
            Action::EnemyDrawn { slot, card }
        }
        "shield" => Action::ShieldGained { slot: slot(w)? },
        "unshield" => Action::ShieldRemoved { slot: slot(w)? },
        "face" => Action::DialTurned { slot: slot(w)? },
        "moon" => Action::MoonStruck { slot: slot(w)? },
        "borrow" => Action::DieBorrowed { color: color(w, "the color borrowed: g, y or b", false)? },
        "conspire" => Action::ConspiratorRolled { value: w.number_in(1..=6, "a die value 1-6")? },
        "dragon" => Action::DragonlingRolled { value: w.number_in(1..=6, "a die value 1-6")? },
        "reveal" => Action::ConspiratorRevealed {
            card: card_id(w, "a conspirator id (lowercase letters, digits, `-`)")?,
        },
        "chariot" => {
            Action::ChariotDrawn { card: card_id(w, "a chariot id (lowercase letters, digits, `-`)")? }
        }
        "inspire" => {
            let card = card_id(w, "an inspiration card id (lowercase letters, digits, `-`)")?;
            match w.at_end() {
                true => Action::InspirationPlayed { card },
                false => Action::InspirationPlayedOn {
                    card,
                    slot: w.number_in(1..=6, "the slot 1-6 the card is played on, or end of line")?,
                },
            }
        }
        "load" => Action::ChariotLoaded { dice: dice(w)? },
        "chariot-met" => Action::ChariotResolved { met: true },
        "chariot-unmet" => Action::ChariotResolved { met: false },
        "roll" => Action::DiceRolled { dice: dice(w)? },
        "reroll" => {
            let faces = faces(w)?;
            Action::SetRerolled { faces, dice: dice(w)? }
        }
        "stop" => Action::RollingStopped,
        "up" => {
            let slot = slot(w)?;
            let spaces = match w.at_end() {
                true => 1,
                false => w.number_in(1..=12, "a number of spaces 1-12 or end of line")?,
            };
            Action::MarkerMovedUp { slot, spaces }
        }
        "down" => Action::MarkerMovedDown { slot: slot(w)? },
        "hold" => Action::MarkerHeld { slot: slot(w)? },
        "defeat" => Action::EnemyDefeated { slot: slot(w)? },
        "wound" => {
            let slot = slot(w)?;
            w.keyword("exhaust")?;
            let exhausted = color(w, "the color of the exhausted die: w, g, y or b", true)?;
            Action::WoundSuffered { slot, exhausted }
        }
        "replace" => {
            let discarded = match w.optional("-") {
                true => None,
                false => Some(color(w, "the color of the discarded die (w, g, y, b) or `-`", true)?),
            };
            w.keyword("->")?;
            let taken = color(w, "the color taken from the stack: g, y or b", false)?;
            Action::DieReplaced { discarded, taken }
        }
        "recover" => Action::Recovered,
        "exhaust" => {
            Action::DieExhausted { color: color(w, "the color of the exhausted die: w, g, y or b", true)? }
        }
        _ => return Ok(None),
    }))
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
        round_trips("exhaust w");
        round_trips("exhaust y");
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
