//! Reading one notation line as an event (the inverse of `Event`'s `Display`), with the
//! kit's tokenizer: every error names its column and what was expected there.

use super::effect::Status;
use super::event::{Event, Field, Lineup, Path, Step};
use super::names::{lineup, name};
use super::state::momentum::{Dice as MomentumDice, Face as MomentumFace};
use super::state::{Faces, Obstacle, Removal, Side};
use crate::kit::grid::{Facing, Pos};
use crate::kit::words::Words;
use crate::ParseError;

fn field(w: &mut Words<'_>) -> Result<Field, ParseError> {
    match w.peek().and_then(Pos::from_algebraic) {
        Some(p) => {
            w.skip();
            Ok(Field(p))
        }
        None => Err(w.err("a field (column letter and row number, like c4)")),
    }
}

fn faces(w: &mut Words<'_>) -> Result<Faces, ParseError> {
    let mut f = Faces::default();
    while let Some(word) = w.peek() {
        match word {
            "x" => f.specials = f.specials.saturating_add(1),
            "s" => f.successes = f.successes.saturating_add(1),
            "b" => f.blanks = f.blanks.saturating_add(1),
            _ => return Err(w.err("a die face (x Special, s Success, b Blank)")),
        }
        w.skip();
        if f.count() > 30 {
            return Err(w.err("at most 30 dice"));
        }
    }
    if f.count() == 0 {
        return Err(w.err("a die face (x Special, s Success, b Blank)"));
    }
    Ok(f)
}

fn arena_side(w: &mut Words<'_>) -> Result<Side, ParseError> {
    match w.peek().and_then(Side::parse) {
        Some(s @ (Side::Red | Side::Blue)) => {
            w.skip();
            Ok(s)
        }
        _ => Err(w.err("a side (red, blue)")),
    }
}

/// Momentum dice up to the end of the line (or up to `->` when `arrow`).
fn momentum_dice(w: &mut Words<'_>, arrow: bool) -> Result<MomentumDice, ParseError> {
    let mut d = MomentumDice::default();
    while let Some(word) = w.peek() {
        if arrow && word == "->" {
            break;
        }
        let face = w.named::<MomentumFace>()?;
        d.add(face);
        if d.count() > MomentumDice::MAX {
            return Err(w.err(format!("at most {} dice", MomentumDice::MAX)));
        }
    }
    if d.count() == 0 {
        return Err(w.err("a Momentum die (dmg, def, spd, heal, blank)"));
    }
    Ok(d)
}

/// Parse one line of notation.
pub fn parse_event(line: &str) -> Result<Event, ParseError> {
    let mut w = Words::new(line);
    let verb = w.word("an event")?;
    let ev = match verb {
        // The verbs a log holds most, first (a match on text tries its arms in order).
        "end" => Event::End { unit: name(&mut w, "a miniature")? },
        "move" => {
            let unit = name(&mut w, "a miniature")?;
            // Read straight into the event's inline path: no list allocated per line.
            let mut path = Path::default();
            let mut to = None;
            while !w.at_end() {
                if w.optional("->") {
                    to = Some(field(&mut w)?);
                    break;
                }
                if path.len() == Path::MAX {
                    return Err(w.err(format!("the end of the move (at most {} steps; split it)", Path::MAX)));
                }
                let step = w.named::<Step>()?;
                path.push(step);
            }
            if path.is_empty() {
                return Err(w.err("a step (f, l, r, fl, fr, tl, tr, tb, hop, leap, ...)"));
            }
            Event::Move { unit, path, to }
        }
        "activate" => Event::Activate { unit: name(&mut w, "a miniature")?, free: w.optional("free") },
        "roll" => Event::Roll { unit: name(&mut w, "the attacker")?, faces: faces(&mut w)? },
        "instinct" => Event::Instinct { card: name(&mut w, "an Instinct card")? },
        "damage" => Event::Damage {
            unit: name(&mut w, "a miniature")?,
            amount: w.number_in(0..=999, "a damage 0-999")?,
        },
        "attack" => {
            let unit = name(&mut w, "the attacker")?;
            let target = match w.peek() {
                Some(t) if t != "with" => Some(name(&mut w, "the target")?),
                _ => None,
            };
            let with =
                if w.optional("with") { Some(name(&mut w, "a skill or Equipment card")?) } else { None };
            Event::Attack { unit, target, with }
        }
        "target" => Event::Target { unit: name(&mut w, "a miniature")? },
        "pass" => Event::Pass { unit: name(&mut w, "a miniature")? },
        "round" => Event::Round { n: w.number_in(1..=9999u16, "a round number")? },
        "capture-damage" => Event::CaptureDamage {
            unit: name(&mut w, "a Seeker")?,
            amount: w.number_in(0..=99, "a damage 0-99")?,
        },
        "reshuffle" => Event::Reshuffle,
        "afflict" => Event::Afflict { unit: name(&mut w, "a miniature")?, status: w.named::<Status>()? },
        "expire" => Event::Expire { unit: name(&mut w, "a miniature")?, status: w.named::<Status>()? },
        "scout" => Event::Scout { card: name(&mut w, "a Scout card")? },
        "draw" => Event::Draw {
            threat: w.number_in(1..=3u8, "a Threat 1-3")?,
            creature: name(&mut w, "a creature")?,
        },
        "setup-roll" => Event::SetupRoll { face: w.number_in(1..=6u8, "a die 1-6")? },
        "setup-choice" => Event::SetupChoice { setup: w.number_in(1..=5u8, "a setup 1-5")? },
        "equip" => Event::Equip { unit: name(&mut w, "a Seeker")?, card: name(&mut w, "an Equipment card")? },
        "place" => {
            let unit = name(&mut w, "a miniature")?;
            let at = field(&mut w)?;
            let facing = w.named::<Facing>()?;
            let threat = match w.peek() {
                Some("t1") => Some(1),
                Some("t2") => Some(2),
                Some("t3") => Some(3),
                _ => None,
            };
            if threat.is_some() {
                w.skip();
            }
            let side = match w.peek().and_then(Side::parse) {
                Some(s @ (Side::Red | Side::Blue)) => {
                    w.skip();
                    Some(s)
                }
                _ => None,
            };
            if !w.at_end() {
                return Err(w.err("a Threat (t1, t2, t3), a side (red, blue) or the end of the line"));
            }
            Event::Place { unit, at, facing, threat, side }
        }
        "obstacle" => Event::Obstacle { at: field(&mut w)?, kind: w.named::<Obstacle>()? },
        "obstacle-roll" => {
            Event::ObstacleRoll { at: field(&mut w)?, face: w.number_in(1..=6u8, "a die 1-6")? }
        }
        "troupe" => Event::Troupe { side: arena_side(&mut w)?, cards: lineup(&mut w, "a card", Lineup::MAX, "at most 8 names")? },
        "skills" => Event::Skills { unit: name(&mut w, "an Assent")?, skills: lineup(&mut w, "a Skill card", Lineup::MAX, "at most 8 names")? },
        "begin" => Event::Begin,
        "exit" => Event::Exit { unit: name(&mut w, "a miniature")?, to: field(&mut w)? },
        "skill" => {
            let unit = name(&mut w, "a miniature")?;
            let skill = name(&mut w, "a skill or Equipment card")?;
            let target = if w.at_end() { None } else { Some(name(&mut w, "the target")?) };
            Event::Skill { unit, skill, target }
        }
        "capture" => {
            Event::Capture { unit: name(&mut w, "a Seeker")?, creature: name(&mut w, "a creature")? }
        }
        "summon" => Event::Summon {
            unit: name(&mut w, "a Summon")?,
            at: field(&mut w)?,
            facing: w.named::<Facing>()?,
        },
        "draft-roll" => Event::DraftRoll { side: arena_side(&mut w)?, faces: faces(&mut w)? },
        "draft" => Event::Draft { side: arena_side(&mut w)?, card: name(&mut w, "a card")? },
        "silvestrem" => Event::Silvestrem { card: name(&mut w, "a Silvestrem card")? },
        // `victory draw`: a match both sides lost in one attack (`double-fall=draw`).
        "victory" if w.peek() == Some("draw") => {
            w.skip();
            Event::Drawn
        }
        "victory" => Event::Victory { side: arena_side(&mut w)? },
        "demand" => {
            let side = arena_side(&mut w)?;
            let met = match w.peek() {
                Some("success") => true,
                Some("failure") => false,
                _ => return Err(w.err("`success` or `failure`")),
            };
            w.skip();
            Event::Demand { side, met }
        }
        "momentum" => Event::Momentum { side: arena_side(&mut w)?, dice: momentum_dice(&mut w, false)? },
        "momentum-reroll" => {
            let side = arena_side(&mut w)?;
            let from = momentum_dice(&mut w, true)?;
            if !w.optional("->") {
                return Err(w.err("`->` and the new results"));
            }
            Event::MomentumReroll { side, from, to: momentum_dice(&mut w, false)? }
        }
        "momentum-assign" => {
            Event::MomentumAssign { unit: name(&mut w, "a Gladiator")?, dice: momentum_dice(&mut w, false)? }
        }
        "momentum-discard" => {
            Event::MomentumDiscard { side: arena_side(&mut w)?, dice: momentum_dice(&mut w, false)? }
        }
        "bleed" => {
            Event::Bleed { unit: name(&mut w, "a miniature")?, amount: w.number_in(1..=9u8, "a damage 1-9")? }
        }
        "stunned" => Event::Stunned { unit: name(&mut w, "a miniature")? },
        "knock" => {
            let unit = name(&mut w, "a miniature")?;
            let to = if w.optional("stays") {
                None
            } else {
                Some(field(&mut w).map_err(|e| ParseError { expected: "a field or `stays`".into(), ..e })?)
            };
            Event::Knock { unit, to }
        }
        "hazard" => Event::Hazard {
            unit: name(&mut w, "a miniature")?,
            amount: w.number_in(0..=99, "a damage 0-99")?,
        },
        "slain" | "injured" | "destroyed" => Event::Removed {
            unit: name(&mut w, "a miniature")?,
            how: Removal::parse(verb).unwrap_or(Removal::Slain),
        },
        "resources" => Event::Resources {
            unit: name(&mut w, "a creature")?,
            n: w.number_in(0..=9u8, "a number of cards")?,
        },
        "heal" => {
            Event::Heal { unit: name(&mut w, "a miniature")?, amount: w.number_in(0..=99, "a healing 0-99")? }
        }
        "cure" => Event::Cure { unit: name(&mut w, "a miniature")? },
        "escaped" => Event::Escaped { unit: name(&mut w, "a miniature")? },
        "capture-token" | "capture-flip" | "capture-cancel" => {
            let unit = name(&mut w, "a Seeker")?;
            let creature = name(&mut w, "a creature")?;
            match verb {
                "capture-token" => Event::CaptureToken { unit, creature },
                "capture-flip" => Event::CaptureFlip { unit, creature },
                _ => Event::CaptureCancel { unit, creature },
            }
        }
        "captured" => Event::Captured { creature: name(&mut w, "a creature")? },
        "encounter" => match w.word("`won` or `lost`")? {
            "won" => Event::Ended { won: true },
            "lost" => Event::Ended { won: false },
            _ => {
                return Err(ParseError::new(
                    line.find("encounter").map_or(1, |i| i + 11),
                    "`won` or `lost`",
                    "another word",
                ))
            }
        },
        v if super::campaign::event::VERBS.contains(&v) => {
            return super::campaign::event::parse(v, &mut w).map(Event::Camp)
        }
        other => return Err(ParseError::new(
            1,
            "an event (scout, draw, setup-roll, setup-choice, equip, place, obstacle, obstacle-roll, troupe, skills, begin, \
                 activate, instinct, target, move, exit, attack, roll, skill, capture, summon, pass, or a \
                 consequence: round, bleed, stunned, damage, afflict, expire, knock, hazard, slain, injured, \
                 destroyed, resources, heal, cure, escaped, capture-damage, capture-token, capture-flip, \
                 capture-cancel, captured, end, reshuffle, encounter)",
            format!("`{other}`"),
        )),
    };
    w.end()?;
    Ok(ev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_prints_and_reads_back() {
        for line in [
            "scout misty-glade",
            "draw 2 gryphon",
            "setup-roll 6",
            "setup-choice 3",
            "equip zaxos gryphon-hide-gloves",
            "place zaxos c4 n",
            "place streamcaller j10 s t3",
            "place gurantev a1 e red",
            "place daemonspawn-2 b2 w t1 blue",
            "obstacle d5 spinning-blades",
            "obstacle-roll e5 3",
            "draft-roll red x s s b b",
            "draft blue river-guardian",
            "troupe red gurantev horned-golem gryphon",
            "skills gurantev stone-skin searing-strike",
            "demand blue failure",
            "demand red success",
            "begin",
            "activate zaxos",
            "activate illithena free",
            "instinct gryphon-2",
            "target berlyne",
            "move fani f leap tb",
            "move zaxos f f tr f -> d5",
            "move streamcaller fl fl fr tr",
            "move gurantev hop hop-l hop-fr b bl br tl r l",
            "exit illithena c3",
            "attack river-guardian with tidal-wave",
            "silvestrem blood-moon",
            "momentum red dmg dmg heal blank blank",
            "momentum-reroll blue blank blank -> dmg spd",
            "momentum-assign phoenix dmg heal",
            "momentum-discard red dmg",
            "attack illithena streamcaller",
            "attack zaxos gryphon with maim",
            "roll berlyne x s s b",
            "skill berlyne temporal-flux illithena",
            "skill zaxos taunt",
            "capture zaxos gryphon",
            "summon daemonspawn-1 c3 s",
            "pass fani",
            "round 2",
            "bleed zaxos 1",
            "stunned fani",
            "damage horned-golem 0",
            "afflict gryphon immobilize",
            "expire gryphon blind",
            "knock exalted-effigy h3",
            "knock daemonretch stays",
            "hazard daemonretch 2",
            "slain daemonretch",
            "injured zaxos",
            "destroyed daemonspawn-1",
            "resources gryphon 1",
            "heal zaxos 2",
            "cure zaxos",
            "escaped gryphon",
            "capture-damage zaxos 2",
            "capture-token fani gryphon",
            "capture-flip zaxos gryphon",
            "capture-cancel fani gryphon",
            "captured gryphon",
            "end zaxos",
            "reshuffle",
            "encounter won",
            "encounter lost",
            "victory blue",
            "victory draw",
        ] {
            let e = parse_event(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(e.to_string(), line);
            let config = bincode::config::standard();
            let bytes = bincode::serde::encode_to_vec(&e, config).unwrap();
            let (back, _): (Event, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
            assert_eq!(back, e, "{line}");
        }
        // Dice order is not a fact.
        assert_eq!(parse_event("roll a b s x").unwrap().to_string(), "roll a x s b");
        assert_eq!(
            parse_event("momentum red blank heal dmg").unwrap().to_string(),
            "momentum red dmg heal blank"
        );
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse_event("place zaxos c0 n").unwrap_err();
        assert_eq!(e.column, 13);
        assert!(e.expected.contains("field"));
        assert!(parse_event("move zaxos f q").unwrap_err().expected.contains("a step"));
        assert!(parse_event("roll zaxos").is_err());
        assert!(parse_event("draw 4 gryphon").is_err());
        assert!(parse_event("damage zaxos 2 extra").unwrap_err().expected.contains("end of line"));
        assert!(parse_event("fly zaxos").unwrap_err().found.contains("fly"));
        assert!(parse_event("encounter maybe").is_err());
        assert!(parse_event("momentum seekers dmg").unwrap_err().expected.contains("red, blue"));
        assert!(parse_event("momentum red").is_err());
        assert!(parse_event("momentum-reroll red blank spd").is_err());
        assert!(parse_event("momentum-assign phoenix fire").unwrap_err().expected.contains("Momentum die"));
        let long = format!("move zaxos {}", ["f"; 17].join(" "));
        assert!(parse_event(&long).is_err());
    }
}
