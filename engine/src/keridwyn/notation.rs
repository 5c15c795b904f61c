//! Reading one notation line into an [`Event`]: syntax only (names are resolved, and rules
//! checked, by the step function). Errors name the column and what was expected.

use super::effect::{Ailment, Skill};
use super::event::{Event, Place, Play};
use crate::ParseError;

/// Words of a line with their 1-based columns.
struct Words<'a> {
    words: Vec<(usize, &'a str)>,
    next: usize,
    end_col: usize,
}

impl<'a> Words<'a> {
    fn new(line: &'a str) -> Self {
        let mut words = Vec::new();
        let mut start = None;
        for (col, (i, ch)) in line.char_indices().enumerate() {
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some((col + 1, i)),
                (true, Some((c, s))) => {
                    words.push((c, &line[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((c, s)) = start {
            words.push((c, &line[s..]));
        }
        Words { words, next: 0, end_col: line.chars().count() + 1 }
    }
    fn col(&self) -> usize {
        self.words.get(self.next).map(|w| w.0).unwrap_or(self.end_col)
    }
    fn err(&self, expected: &str) -> ParseError {
        let found = self.words.get(self.next).map(|w| format!("`{}`", w.1)).unwrap_or("end of line".into());
        ParseError::new(self.col(), expected, found)
    }
    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.next).map(|w| w.1)
    }
    fn word(&mut self, expected: &str) -> Result<&'a str, ParseError> {
        let w = self.peek().ok_or_else(|| self.err(expected))?;
        self.next += 1;
        Ok(w)
    }
    fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        if self.peek() == Some(kw) {
            self.next += 1;
            Ok(())
        } else {
            Err(self.err(&format!("`{kw}`")))
        }
    }
    fn name(&mut self, expected: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(w) if w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') => {
                self.next += 1;
                Ok(w.to_string())
            }
            _ => Err(self.err(expected)),
        }
    }
    fn parse<T: std::str::FromStr>(&mut self, expected: &str) -> Result<T, ParseError> {
        let v = self.peek().and_then(|w| w.parse::<T>().ok()).ok_or_else(|| self.err(expected))?;
        self.next += 1;
        Ok(v)
    }
    /// `+N` or `-N` (signed), the sign required.
    fn signed(&mut self, expected: &str) -> Result<i32, ParseError> {
        match self.peek() {
            Some(w) if w.starts_with('+') || w.starts_with('-') => self.parse(expected),
            _ => Err(self.err(expected)),
        }
    }
    fn plus(&mut self, expected: &str) -> Result<u32, ParseError> {
        match self.peek().and_then(|w| w.strip_prefix('+')).and_then(|w| w.parse::<u32>().ok()) {
            Some(v) => {
                self.next += 1;
                Ok(v)
            }
            None => Err(self.err(expected)),
        }
    }
    fn skill(&mut self) -> Result<Skill, ParseError> {
        let v =
            self.peek().and_then(Skill::parse).ok_or_else(|| self.err("a skill (might, finesse, wit)"))?;
        self.next += 1;
        Ok(v)
    }
    fn ailment(&mut self) -> Result<Ailment, ParseError> {
        let v = self
            .peek()
            .and_then(Ailment::parse)
            .ok_or_else(|| self.err("an ailment (burn, dazzle, slow, weak)"))?;
        self.next += 1;
        Ok(v)
    }
    fn end(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.err("end of line")),
        }
    }
}

fn play(w: &mut Words<'_>) -> Result<Play, ParseError> {
    const EXPECTED: &str =
        "a hand card (lure, balance, focus, primary:CARD, secondary:CARD, maneuver[:GEAR], immune:AILMENT)";
    let word = w.peek().ok_or_else(|| w.err(EXPECTED))?;
    let (head, arg) = match word.split_once(':') {
        Some((h, a)) => (h, Some(a)),
        None => (word, None),
    };
    let ok_name =
        |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let card_on = |arg: Option<&str>| -> Option<(String, Option<String>)> {
        let arg = arg?;
        let (card, on) = match arg.split_once('@') {
            Some((c, o)) => (c, Some(o)),
            None => (arg, None),
        };
        if !ok_name(card) || on.is_some_and(|o| !ok_name(o)) {
            return None;
        }
        Some((card.to_string(), on.map(str::to_string)))
    };
    let p = match (head, arg) {
        ("lure", None) => Play::Lure,
        ("balance", None) => Play::Balance,
        ("focus", None) => Play::Focus,
        ("maneuver", None) => Play::Maneuver { card: None },
        ("maneuver", Some(c)) if ok_name(c) => Play::Maneuver { card: Some(c.to_string()) },
        ("primary", a) => {
            let (card, on) = card_on(a).ok_or_else(|| w.err("`primary:CARD` or `primary:CARD@WHO`"))?;
            Play::Primary { card, on }
        }
        ("secondary", a) => {
            let (card, on) = card_on(a).ok_or_else(|| w.err("`secondary:CARD` or `secondary:CARD@WHO`"))?;
            Play::Secondary { card, on }
        }
        ("immune", Some(a)) => Play::Immune(Ailment::parse(a).ok_or_else(|| w.err("`immune:AILMENT`"))?),
        _ => return Err(w.err(EXPECTED)),
    };
    w.next += 1;
    Ok(p)
}

/// Parse one event line.
pub fn parse_event(line: &str) -> Result<Event, ParseError> {
    let mut w = Words::new(line);
    let verb = w.word("an event (join, monster, begin, reveal, action, target, roll, reroll, recall, priority, afflict, cure, act, hit, miss, damage, tick, end, defeated, fame, trophy)")?;
    let event = match verb {
        "join" => {
            let player = w.name("a player label")?;
            let character = w.name("a character id")?;
            let mut worn = None;
            let mut mercs = Vec::new();
            while let Some(kw) = w.peek() {
                match kw {
                    "worn" if worn.is_none() => {
                        w.next += 1;
                        worn = Some(w.name("a worn gear id")?);
                    }
                    "merc" => {
                        w.next += 1;
                        mercs.push(w.name("a mercenary id")?);
                    }
                    _ => return Err(w.err("`worn GEAR`, `merc MERC` or end of line")),
                }
            }
            Event::Join { player, character, worn, mercs }
        }
        "monster" => {
            let monster = w.name("a monster id")?;
            let place = match w.word("`cage` or `zone`")? {
                "cage" => Place::Cage,
                "zone" => Place::Zone,
                _ => {
                    w.next -= 1;
                    return Err(w.err("`cage` or `zone`"));
                }
            };
            let number = w.parse("a cage or zone number")?;
            Event::Monster { monster, place, number }
        }
        "begin" => Event::Begin,
        "reveal" => {
            let who = w.name("a player")?;
            let mut plays = vec![play(&mut w)?];
            while w.peek().is_some() {
                plays.push(play(&mut w)?);
            }
            Event::Reveal { who, plays }
        }
        "action" => {
            let monster = w.name("a monster")?;
            let face = w.parse("a d6 face")?;
            Event::MonsterAction { monster, face }
        }
        "target" => Event::Target { who: w.name("a character")? },
        "roll" => {
            let who = w.name("a fighter")?;
            let skill = w.skill()?;
            let mut dice = vec![w.parse::<u8>("a die value")?];
            while w.peek().is_some() {
                dice.push(w.parse("a die value")?);
            }
            Event::Roll { who, skill, dice }
        }
        "reroll" => {
            let payer = w.name("the character paying Fame")?;
            let from = w.parse("the die rerolled")?;
            w.keyword("->")?;
            let to = w.parse("the new die value")?;
            w.keyword("fame")?;
            let fame = w.parse("the Fame paid")?;
            Event::Reroll { payer, from, to, fame }
        }
        "recall" => {
            let who = w.name("a character")?;
            let merc = w.name("a mercenary")?;
            let bonus = w.signed("a roll bonus like +1")?;
            Event::Recall { who, merc, bonus }
        }
        "priority" => Event::Priority { who: w.name("a fighter")? },
        "afflict" => {
            let who = w.name("a fighter")?;
            let ailment = w.ailment()?;
            let add = w.plus("the rounds added, like +2")?;
            w.keyword("->")?;
            let total = w.parse("the total rounds")?;
            Event::Afflict { who, ailment, add, total }
        }
        "cure" => {
            let who = w.name("a fighter")?;
            let ailment = w.ailment()?;
            let from = w.parse("the rounds removed")?;
            w.keyword("->")?;
            w.keyword("0")?;
            Event::Cure { who, ailment, from }
        }
        "act" => {
            let who = w.name("a fighter")?;
            let card = w.name("the action's card")?;
            Event::Act { who, card }
        }
        "hit" | "miss" => Event::Outcome { target: w.name("the target")?, hit: verb == "hit" },
        "damage" => {
            let who = w.name("a fighter")?;
            let damage = w.parse("the damage")?;
            w.keyword("block")?;
            let block = w.parse("the damage blocked")?;
            w.keyword("injury")?;
            let injury = w.parse("the injury")?;
            Event::Damage { who, damage, block, injury }
        }
        "tick" => {
            let who = w.name("a fighter")?;
            let ailment = w.ailment()?;
            let from = w.parse("the rounds before")?;
            w.keyword("->")?;
            let to = w.parse("the rounds after")?;
            let injury = if w.peek() == Some("injury") {
                w.next += 1;
                Some(w.parse("the injury")?)
            } else {
                None
            };
            Event::Tick { who, ailment, from, to, injury }
        }
        "end" => {
            w.keyword("round")?;
            Event::EndRound { round: w.parse("the round number")? }
        }
        "defeated" => Event::Defeated { who: w.name("a fighter")? },
        "fame" => {
            let who = w.name("a character")?;
            let delta = w.signed("a signed Fame change like +6")?;
            w.keyword("->")?;
            let total = w.parse("the Fame after")?;
            Event::Fame { who, delta, total }
        }
        "trophy" => {
            let who = w.name("a character")?;
            let monster = w.name("a monster")?;
            Event::Trophy { who, monster }
        }
        _ => {
            w.next -= 1;
            return Err(w.err("an event (join, monster, begin, reveal, action, target, roll, reroll, recall, priority, afflict, cure, act, hit, miss, damage, tick, end, defeated, fame, trophy)"));
        }
    };
    w.end()?;
    Ok(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_round_trips() {
        for line in [
            "join B yahmra worn wood-armor merc chargo",
            "join A steve",
            "monster wyvern cage 4",
            "begin",
            "reveal A lure maneuver:heavy-shield immune:burn",
            "reveal B primary:unicorn-blade secondary:enhance-power@A",
            "reveal C balance focus maneuver",
            "action wyvern 6",
            "target B",
            "roll wyvern might 9 8 4 1",
            "reroll A 9 -> 6 fame 2",
            "recall B chargo +1",
            "priority wyvern",
            "afflict B burn +4 -> 6",
            "cure A burn 2 -> 0",
            "act A heavy-shield",
            "hit B",
            "miss A",
            "damage B 6 block 2 injury 4",
            "tick B burn 6 -> 5 injury 1",
            "tick wyvern slow 2 -> 1",
            "end round 1",
            "defeated wyvern",
            "fame B +6 -> 8",
            "trophy B wyvern",
        ] {
            let e = parse_event(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(e.to_string(), line);
        }
    }

    #[test]
    fn errors_name_the_column_and_what_was_expected() {
        let e = parse_event("reroll A nine -> 6 fame 2").unwrap_err();
        assert_eq!(e.column, 10);
        assert_eq!(e.found, "`nine`");
        let e = parse_event("roll A strength 3").unwrap_err();
        assert!(e.expected.contains("skill"), "{e}");
        assert_eq!(parse_event("damage B 6 block 2").unwrap_err().found, "end of line");
        assert!(parse_event("begin now").is_err());
        assert!(parse_event("reveal A sword").is_err());
    }
}
