//! Reading one notation line into an [`Event`] with the kit's tokenizer: syntax only
//! (names are resolved, and rules checked, by the step function). Errors name the column and
//! what was expected.

use super::effect::{Ailment, Skill};
use super::event::{Event, Place, Play};
use super::name::Name;
use crate::kit::dice::Roll;
use crate::kit::words::{is_id, Words};
use crate::ParseError;

/// The notation at a glance (`Game::notation_summary`); docs/notation/keridwyn-fight.md has
/// the whole of it. WHO is a seat (`A`) or the monster's id.
pub const SUMMARY: &str = "\
join SEAT CHARACTER [worn GEAR] [merc MERC]...   a character joins
monster MONSTER cage|zone N                      the monster of the fight and where it is
begin                                            everyone is in
reveal SEAT CARD CARD [immune:AILMENT]           a player's two cards (lure, balance, focus, primary:CARD, secondary:CARD, maneuver[:GEAR])
action MONSTER FACE                              the monster's d6
target SEAT                                      the random pick of the monster's target
roll WHO SKILL DIE...                            the dice of the action (1-10 each)
reroll SEAT DIE -> DIE fame N                    Fame spent to reroll one die
recall SEAT MERC +N                              a mercenary recalled for its bonus
priority WHO                                     the Priority token changes hands
afflict WHO AILMENT +N -> TOTAL                  an ailment gained
cure WHO AILMENT N -> 0                          Immunity removes an ailment
act WHO CARD                                     the next action on the Priority track
hit WHO                                          the roll's outcome against a target: a hit
miss WHO                                         ... or a miss
damage WHO D block B injury I                    damage, the Block that applied, the Injury
tick WHO AILMENT F -> T [injury 1]               an ailment's duration drops at the round's end
end round N                                      the round ends
defeated WHO                                     0 Grit
fame SEAT +N -> TOTAL                            Fame for a monster's defeat
trophy SEAT MONSTER                              the monster card, to the last successful attacker
";

const EVENTS: &str =
    "an event (join, monster, begin, reveal, action, target, roll, reroll, recall, priority, \
                      afflict, cure, act, hit, miss, damage, tick, end, defeated, fame, trophy)";

fn play(w: &mut Words<'_>) -> Result<Play, ParseError> {
    const EXPECTED: &str =
        "a hand card (lure, balance, focus, primary:CARD, secondary:CARD, maneuver[:GEAR], immune:AILMENT)";
    let word = w.peek().ok_or_else(|| w.err(EXPECTED))?;
    // Split at the first byte `:` (ASCII, so a char boundary): the same split as
    // `split_once(':')` without its general char searcher, which cost about 100 instructions
    // on these short words, for every `reveal` card.
    let (head, arg) = match split_at_byte(word, b':') {
        Some((h, a)) => (h, Some(a)),
        None => (word, None),
    };
    let card_on = |arg: Option<&str>| -> Option<(Name, Option<Name>)> {
        let arg = arg?;
        let (card, on) = match split_at_byte(arg, b'@') {
            Some((c, o)) => (c, Some(o)),
            None => (arg, None),
        };
        if !is_id(card) || on.is_some_and(|o| !is_id(o)) {
            return None;
        }
        Some((Name::new(card), on.map(Name::new)))
    };
    let p = match (head, arg) {
        ("lure", None) => Play::Lure,
        ("balance", None) => Play::Balance,
        ("focus", None) => Play::Focus,
        ("maneuver", None) => Play::Maneuver { card: None },
        ("maneuver", Some(c)) if is_id(c) => Play::Maneuver { card: Some(Name::new(c)) },
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
    w.skip();
    Ok(p)
}

/// `text.split_once(byte as char)` for an ASCII `byte`: the text before its first
/// occurrence and after it.
#[inline]
fn split_at_byte(text: &str, byte: u8) -> Option<(&str, &str)> {
    debug_assert!(byte.is_ascii());
    let at = text.bytes().position(|b| b == byte)?;
    // An ASCII byte never falls inside a multi-byte character: both sides are whole.
    Some((text.get(..at)?, text.get(at + 1..)?))
}

fn id(w: &mut Words<'_>, what: &str) -> Result<Name, ParseError> {
    w.id(what).map(Name::new)
}

/// Parse one event line.
pub fn parse_event(line: &str) -> Result<Event, ParseError> {
    let mut w = Words::new(line);
    let start = w.clone();
    let verb = w.word(EVENTS)?;
    let event = match verb {
        "join" => {
            let player = id(&mut w, "a player label")?;
            let character = id(&mut w, "a character id")?;
            let mut worn = None;
            let mut mercs = Vec::new();
            while let Some(kw) = w.peek() {
                match kw {
                    "worn" if worn.is_none() => {
                        w.skip();
                        worn = Some(id(&mut w, "a worn gear id")?);
                    }
                    "merc" => {
                        w.skip();
                        mercs.push(id(&mut w, "a mercenary id")?);
                    }
                    _ => return Err(w.err("`worn GEAR`, `merc MERC` or end of line")),
                }
            }
            Event::Joined { player, character, worn, mercs }
        }
        "monster" => {
            let monster = id(&mut w, "a monster id")?;
            let place = w.named::<Place>()?;
            let number = w.number("a cage or zone number")?;
            Event::MonsterPlaced { monster, place, number }
        }
        "begin" => Event::Begun,
        "reveal" => {
            let who = id(&mut w, "a player")?;
            let mut plays = Vec::with_capacity(3);
            plays.push(play(&mut w)?);
            while !w.at_end() {
                plays.push(play(&mut w)?);
            }
            Event::Revealed { who, plays }
        }
        "action" => {
            let monster = id(&mut w, "a monster")?;
            let face = w.number("the action die's face (1-10, 1-12 under skill-die=d12)")?;
            Event::MonsterActionRolled { monster, face }
        }
        "target" => Event::TargetPicked { who: id(&mut w, "a character")? },
        "roll" => {
            let who = id(&mut w, "a fighter")?;
            let skill = w.named::<Skill>()?;
            // Read inline (no allocation for a roll of up to 16 dice), as `Roll` keeps them.
            let mut dice = smallvec::SmallVec::<[u8; 16]>::new();
            dice.push(w.number::<u8>("a die value")?);
            while !w.at_end() {
                dice.push(w.number("a die value")?);
            }
            Event::Rolled { who, skill, dice: dice.into_iter().collect::<Roll>() }
        }
        "reroll" => {
            let payer = id(&mut w, "the character paying Fame")?;
            let from = w.number("the die rerolled")?;
            w.keyword("->")?;
            let to = w.number("the new die value")?;
            w.keyword("fame")?;
            let fame = w.number("the Fame paid")?;
            Event::Rerolled { payer, from, to, fame }
        }
        "recall" => {
            let who = id(&mut w, "a character")?;
            let merc = id(&mut w, "a mercenary")?;
            let bonus = w.signed("a roll bonus like +1")?;
            Event::Recalled { who, merc, bonus }
        }
        "priority" => Event::TokenGained { who: id(&mut w, "a fighter")? },
        "afflict" => {
            let who = id(&mut w, "a fighter")?;
            let ailment = w.named::<Ailment>()?;
            let add = w.plus("the rounds added, like +2")?;
            w.keyword("->")?;
            let total = w.number("the total rounds")?;
            Event::Afflicted { who, ailment, add, total }
        }
        "cure" => {
            let who = id(&mut w, "a fighter")?;
            let ailment = w.named::<Ailment>()?;
            let from = w.number("the rounds removed")?;
            w.keyword("->")?;
            w.keyword("0")?;
            Event::Cured { who, ailment, from }
        }
        "act" => {
            let who = id(&mut w, "a fighter")?;
            let card = id(&mut w, "the action's card")?;
            Event::Acted { who, card }
        }
        "hit" | "miss" => Event::Outcome { target: id(&mut w, "the target")?, hit: verb == "hit" },
        "damage" => {
            let who = id(&mut w, "a fighter")?;
            let damage = w.number("the damage")?;
            w.keyword("block")?;
            let block = w.number("the damage blocked")?;
            w.keyword("injury")?;
            let injury = w.number("the injury")?;
            Event::DamageDealt { who, damage, block, injury }
        }
        "tick" => {
            let who = id(&mut w, "a fighter")?;
            let ailment = w.named::<Ailment>()?;
            let from = w.number("the rounds before")?;
            w.keyword("->")?;
            let to = w.number("the rounds after")?;
            let injury = if w.optional("injury") { Some(w.number("the injury")?) } else { None };
            Event::Ticked { who, ailment, from, to, injury }
        }
        "end" => {
            w.keyword("round")?;
            Event::RoundEnded { round: w.number("the round number")? }
        }
        "defeated" => Event::Defeated { who: id(&mut w, "a fighter")? },
        "fame" => {
            let who = id(&mut w, "a character")?;
            let delta = w.signed("a signed Fame change like +6")?;
            w.keyword("->")?;
            let total = w.number("the Fame after")?;
            Event::FameGained { who, delta, total }
        }
        "trophy" => {
            let who = id(&mut w, "a character")?;
            let monster = id(&mut w, "a monster")?;
            Event::TrophyTaken { who, monster }
        }
        _ => return Err(start.err(EVENTS)),
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
    fn dice_order_is_not_a_fact() {
        let a = parse_event("roll wyvern might 1 9 4 8").unwrap_or_else(|e| panic!("{e}"));
        let b = parse_event("roll wyvern might 9 8 4 1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "roll wyvern might 9 8 4 1");
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
        let e = parse_event("monster wyvern cave 4").unwrap_err();
        assert_eq!((e.column, e.expected.as_str()), (16, "a place (cage, zone)"));
        assert_eq!(parse_event("dance").unwrap_err().column, 1);
        assert_eq!(parse_event("").unwrap_err().found, "end of line");
    }
}
