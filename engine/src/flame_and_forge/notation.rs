//! Reading one notation line as an [`Event`] (syntax only; the step function judges it).
//! The grammar is in docs/notation/flame-and-forge.md; printing an event and reading it back
//! gives the same event.

use super::catalog::{Dwarf, Subject};

use super::city::{Territory, Tile};
use super::event::{Colour, Event, Foe, Rank};
use super::icon::Gem;
use super::label::Label;
use crate::kit::words::Words;
use crate::ParseError;

fn label(w: &mut Words<'_>, what: &str) -> Result<Label, ParseError> {
    match w.peek().and_then(Label::new) {
        Some(l) => {
            w.skip();
            Ok(l)
        }
        None => Err(w.err(format!("{what} (an id of at most 16 characters)"))),
    }
}

fn tile(w: &mut Words<'_>) -> Result<Tile, ParseError> {
    match w.peek().and_then(Tile::parse) {
        Some(t) => {
            w.skip();
            Ok(t)
        }
        None => Err(w.err("a tile (O1a-O1d, O2a-O2c, V1a..., W2c, castle)")),
    }
}

fn arrow_to(w: &mut Words<'_>) -> Result<u8, ParseError> {
    w.keyword("->")?;
    w.number_in(0..=99u8, "a health 0-7")
}

/// `+N` or `-N` within a health track.
fn delta(w: &mut Words<'_>) -> Result<i8, ParseError> {
    let n = w.signed("a signed change like +1 or -2")?;
    i8::try_from(n).ok().filter(|n| n.abs() <= 50).ok_or_else(|| w.err("a change from -50 to +50"))
}

fn plus(w: &mut Words<'_>) -> Result<u8, ParseError> {
    let n = w.plus("a gain like +1")?;
    u8::try_from(n).ok().filter(|&n| n <= 50).ok_or_else(|| w.err("a gain from +0 to +50"))
}

/// A research action's step: `SUBJECT -> LEVEL`, when the next word is a subject.
fn research_step(w: &mut Words<'_>) -> Result<Option<(Subject, u8)>, ParseError> {
    match w.peek().and_then(Subject::parse) {
        Some(s) => {
            w.skip();
            w.keyword("->")?;
            Ok(Some((s, w.number_in(0..=20u8, "the level reached")?)))
        }
        None => Ok(None),
    }
}

/// A research action's exchange: `exchange G+G->G`, when the next word is `exchange`.
fn research_exchange(w: &mut Words<'_>) -> Result<Option<(Gem, Gem, Gem)>, ParseError> {
    if !w.optional("exchange") {
        return Ok(None);
    }
    let rule = w.word("an exchange like y+b->r")?;
    match super::catalog::Exchange::parse(rule).filter(|e| e.give.len() == 2) {
        Some(e) => Ok(Some((e.give[0], e.give[1], e.get))),
        None => Err(ParseError::new(
            w.column() - rule.chars().count() - 1,
            "an exchange like y+b->r",
            format!("`{rule}`"),
        )),
    }
}

/// Read one line.
pub fn parse_event(line: &str) -> Result<Event, ParseError> {
    let mut w = Words::new(line);
    let verb = w.word("an event")?;
    let who = |w: &mut Words<'_>| w.named::<Colour>();
    let e = match verb {
        "seat" => {
            let who = who(&mut w)?;
            let side = label(&mut w, "a board side")?;
            let books = if w.optional("books") { Some(w.named::<Subject>()?) } else { None };
            Event::Seat { who, side, books }
        }
        "bonus" => Event::Bonus { who: who(&mut w)?, n: w.number_in(0..=9u8, "a number of gems 0-9")? },
        "market" => {
            let mut items = [None; 3];
            items[0] = Some(label(&mut w, "an item")?);
            for slot in items.iter_mut().skip(1) {
                if w.at_end() {
                    break;
                }
                *slot = Some(label(&mut w, "an item")?);
            }
            Event::Market { items }
        }
        "retaliation" => Event::Retaliation {
            card: label(&mut w, "a Retaliation card")?,
            territory: w.named::<Territory>()?,
        },
        "monster" => Event::Monster { card: label(&mut w, "a monster card")?, tile: tile(&mut w)? },
        "deal" => {
            let who = who(&mut w)?;
            Event::Deal {
                who,
                cards: [label(&mut w, "a dragonslayer card")?, label(&mut w, "a dragonslayer card")?],
            }
        }
        "slayer" => Event::Slayer { who: who(&mut w)?, card: label(&mut w, "a dragonslayer card")? },
        "turn" => Event::Turn { who: who(&mut w)? },
        "fire" => Event::Fire { tile: tile(&mut w)? },
        "gem" => Event::PlaceGem { gem: w.named::<Gem>()?, tile: tile(&mut w)? },
        "scorch" => Event::Scorch { tile: tile(&mut w)? },
        "horde" => Event::Horde { monster: label(&mut w, "a monster card")? },
        "event" => Event::Draw { card: label(&mut w, "an event card")? },
        "raid" => {
            let who = who(&mut w)?;
            let dwarf = w.named::<Dwarf>()?;
            let tile = tile(&mut w)?;
            let spot = if w.optional("spot") { Some(w.number_in(1..=6u8, "a spot 1-6")? - 1) } else { None };
            Event::Raid { who, dwarf, tile, spot }
        }
        "regroup" => {
            let who = who(&mut w)?;
            let dwarf = w.named::<Dwarf>()?;
            let spot = if w.optional("spot") { Some(w.number_in(1..=6u8, "a spot 1-6")? - 1) } else { None };
            Event::Regroup { who, dwarf, spot }
        }
        "retreat" => Event::Retreat { who: who(&mut w)? },
        "drop" => Event::Drop { who: who(&mut w)?, gem: w.named::<Gem>()? },
        "health" => {
            let who = who(&mut w)?;
            let delta = delta(&mut w)?;
            Event::Health { who, delta, to: arrow_to(&mut w)? }
        }
        "burn" => {
            let who = who(&mut w)?;
            let n = w.number_in(0..=9u8, "a damage 0-9")?;
            Event::Burn { who, n, to: arrow_to(&mut w)? }
        }
        "gain" => Event::Gain { who: who(&mut w)?, gem: w.named::<Gem>()? },
        "pick" => Event::Pick { who: who(&mut w)?, tile: tile(&mut w)? },
        "haste" => Event::Haste { who: who(&mut w)? },
        "footprint" => Event::Footprint { who: who(&mut w)? },
        "extinguish" => Event::Extinguish { who: who(&mut w)?, tile: tile(&mut w)? },
        "success" | "frenzy" => {
            let who = who(&mut w)?;
            let add = plus(&mut w)?;
            w.keyword("->")?;
            let to = w.number_in(0..=99u8, "a total 0-99")?;
            if verb == "success" {
                Event::Success { who, add, to }
            } else {
                Event::Frenzy { who, add, to }
            }
        }
        "pay" => {
            let who = who(&mut w)?;
            let gem = w.named::<Gem>()?;
            let missing = if w.optional("missing") { Some(arrow_to(&mut w)?) } else { None };
            Event::Pay { who, gem, missing }
        }
        "challenge" => {
            let who = who(&mut w)?;
            let foe = if w.optional("dragon") {
                Foe::Dragon
            } else {
                Foe::Monster(label(&mut w, "a monster or `dragon`")?)
            };
            Event::Challenge { who, foe }
        }
        "reveal" => Event::Reveal { who: who(&mut w)?, card: label(&mut w, "a card")? },
        "shuffle" => Event::Shuffle { who: who(&mut w)? },
        "flee" => Event::Flee { who: who(&mut w)? },
        "won" => Event::Won { who: who(&mut w)? },
        "passed-out" => Event::PassedOut { who: who(&mut w)? },
        "discard-event" => Event::DiscardEvent { who: who(&mut w)?, card: label(&mut w, "an event card")? },
        "forge" => Event::Forge { who: who(&mut w)?, item: label(&mut w, "an item")? },
        "refresh" => Event::Refresh { who: who(&mut w)? },
        "retire" => Event::Retire { who: who(&mut w)?, card: label(&mut w, "a card")? },
        "research" => {
            let who = who(&mut w)?;
            // The exchange comes before the step it may fund (l.298), so a log may name it
            // first; the printed form names the step first. Either order reads the same.
            let mut subject = research_step(&mut w)?;
            let exchange = research_exchange(&mut w)?;
            if subject.is_none() && exchange.is_some() {
                subject = research_step(&mut w)?;
            }
            if subject.is_none() && exchange.is_none() {
                return Err(w.err("a subject (legends, relics, healing) or `exchange`"));
            }
            Event::Research { who, subject, exchange }
        }
        "upgrade" => Event::Upgrade { who: who(&mut w)?, dwarf: w.named::<Dwarf>()? },
        "advanced" => {
            let who = who(&mut w)?;
            let mut tokens = [None; 3];
            tokens[0] = Some(label(&mut w, "a token")?);
            for slot in tokens.iter_mut().skip(1) {
                if w.at_end() {
                    break;
                }
                *slot = Some(label(&mut w, "a token")?);
            }
            Event::Advanced { who, tokens }
        }
        "keep" => Event::Keep { who: who(&mut w)?, token: label(&mut w, "a token")? },
        "use" => Event::Use { who: who(&mut w)?, token: label(&mut w, "a token")? },
        "activate" => Event::Activate { who: who(&mut w)?, token: label(&mut w, "a token")? },
        "hero" => Event::Hero { who: who(&mut w)? },
        "pass" => Event::Pass { who: who(&mut w)? },
        "game" => match w.word("`won` or `lost`")? {
            "won" => Event::GameOver { won: true },
            "lost" => Event::GameOver { won: false },
            other => return Err(ParseError::new(6, "`won` or `lost`", format!("`{other}`"))),
        },
        "score" => {
            if w.optional("dragon") {
                Event::ScoreDragon { n: w.number_in(0..=9999u16, "a score")? }
            } else if w.optional("team") {
                let n = w.number_in(-9999..=9999i16, "a score")?;
                Event::ScoreTeam { n, rank: w.named::<Rank>()? }
            } else {
                let who = who(&mut w)?;
                Event::ScorePlayer { who, n: w.number_in(-9999..=9999i16, "a score")? }
            }
        }
        _ => {
            return Err(ParseError::new(
                1,
                "an event (seat, market, retaliation, monster, turn, event, raid, regroup, challenge, \
                 reveal, flee, forge, refresh, retire, research, upgrade, pass, ... or a consequence)",
                format!("`{verb}`"),
            ))
        }
    };
    w.end()?;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_prints_and_reads_back() {
        let lines = [
            "seat blue miner",
            "seat red anvil books legends",
            "bonus red 1",
            "market helmet sword shield",
            "market potion",
            "retaliation dragon-01 outskirts",
            "monster goblin O2a",
            "deal blue hero-heal hero-axe",
            "slayer blue hero-heal",
            "turn blue",
            "fire O1b",
            "gem y W2c",
            "scorch V1a",
            "horde goblin",
            "event s-01",
            "raid blue dwarf O1a",
            "raid blue king castle spot 2",
            "regroup red guardian",
            "regroup red dwarf spot 3",
            "retreat red",
            "drop red y",
            "health blue -1 -> 6",
            "health blue +3 -> 7",
            "burn blue 1 -> 0",
            "gain blue b",
            "pick blue O1b",
            "haste blue",
            "footprint blue",
            "extinguish blue O2a",
            "success blue +1 -> 3",
            "frenzy blue +2 -> 2",
            "pay blue y",
            "pay blue y missing -> 4",
            "challenge blue goblin",
            "challenge blue dragon",
            "reveal blue berserk",
            "shuffle blue",
            "flee blue",
            "won blue",
            "passed-out blue",
            "discard-event blue s-04",
            "forge blue helmet",
            "refresh blue",
            "retire blue strike",
            "research blue legends -> 2",
            "research blue relics -> 2 exchange b+y->r",
            "research blue exchange y+y->b",
            "upgrade blue alchemist",
            "advanced blue blue-vein scout",
            "keep blue blue-vein",
            "use blue blue-vein",
            "activate blue scout",
            "hero red",
            "pass blue",
            "game won",
            "game lost",
            "score dragon 40",
            "score blue 32",
            "score team -8 -",
            "score team 12 guardian",
        ];
        for line in lines {
            let e = parse_event(line).unwrap_or_else(|err| panic!("`{line}`: {err}"));
            assert_eq!(e.to_string(), line.replace("b+y->r", "y+b->r").replace("b+y", "y+b"), "`{line}`");
            assert_eq!(parse_event(&e.to_string()), Ok(e));
        }
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse_event("raid blue dwarf O9a").unwrap_err();
        assert_eq!(e.column, 17);
        assert!(e.expected.contains("a tile"));
        assert_eq!(parse_event("fly").unwrap_err().column, 1);
        assert!(parse_event("health blue 1 -> 6").is_err());
        assert!(parse_event("turn blue now").unwrap_err().expected.contains("end of line"));
        assert!(parse_event("reveal blue a-card-name-far-too-long").is_err());
        assert!(parse_event("research blue").is_err());
        assert!(parse_event("research blue exchange y+y->b exchange b+b->r").is_err());
    }

    #[test]
    fn a_research_exchange_may_come_first() {
        let first = parse_event("research blue exchange b+y->r relics -> 2");
        assert_eq!(first, parse_event("research blue relics -> 2 exchange y+b->r"));
        assert_eq!(first.map(|e| e.to_string()), Ok("research blue relics -> 2 exchange y+b->r".to_string()));
    }
}
