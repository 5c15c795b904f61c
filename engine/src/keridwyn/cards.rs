//! The card catalog: characters, monsters, gear, spells, base attacks, traits, mercenaries
//! and Lure's printed Priority, read with the kit's catalog reader (block format, see
//! docs/notation/keridwyn-fight.md, "Catalog files"). Ids are interned: the state refers to
//! cards by typed index.
//!
//! **Nothing the catalog accepts vanishes.** Each effect is checked against the place it is
//! written (`check_place`): an effect the engine would never apply there (a `start` block, a
//! worn gear's `damage`) is refused with the line, and card text goes in `text` lines,
//! reported unverified when the card is used.

use super::effect::{Effect, Skill};
use crate::kit::catalog::{lines, refer, Builtin, Id, Line, Problems, Table};
use crate::kit::effect::{check_place, parse};
use crate::kit::named::named_enum;
use crate::kit::words::Words;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Ids of the catalog's cards (a `Table` index each).
pub type CardId = Id<ActionCard>;
pub type CharacterId = Id<CharacterCard>;
pub type MonsterId = Id<MonsterCard>;
pub type MercId = Id<MercCard>;

named_enum! {
    /// The six hand cards of "STARTING THE FIGHT".
    pub enum HandCard ("a hand card") {
        Primary = "primary",
        Secondary = "secondary",
        Lure = "lure",
        Balance = "balance",
        Maneuver = "maneuver",
        Focus = "focus",
    }
}

named_enum! {
    /// The three attack types of "HOW TO FIGHT": they decide which effects apply (a
    /// `non-spell` Block does not stop a spell).
    pub enum CardKind ("a card kind") { Base = "base", Spell = "spell", Gear = "gear" }
}

/// Who an attack affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Area {
    Single,
    All,
}

/// "Each attack indicates on the card what Skill to roll for using it and which defense must
/// be beat."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub roll: Skill,
    pub defense: Skill,
    pub area: Area,
}

/// A base attack, spell or gear card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionCard {
    pub kind: CardKind,
    pub priority: Option<i32>,
    pub attack: Option<Attack>,
    /// Worn gear protects without being played.
    pub worn: bool,
    /// Duration of the ongoing effect in rounds; `None` lasts the whole fight.
    pub rounds: Option<u32>,
    /// Effects on the target (attacks) or the recipient (support cards).
    pub effects: Vec<Effect>,
    /// Attacker-only benefits: they take place even when the attack fails.
    pub self_effects: Vec<Effect>,
    /// Card text the declarative form cannot express: reported as unverified when used.
    pub text: Vec<String>,
}

impl ActionCard {
    /// A Spell that does not attack: rolled with Wit against 6, may be granted to an ally.
    pub fn is_support_spell(&self) -> bool {
        self.kind == CardKind::Spell && self.attack.is_none()
    }
    /// Gear that does not attack: no roll, it simply grants its effect.
    pub fn is_plain_gear(&self) -> bool {
        self.kind == CardKind::Gear && self.attack.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharacterCard {
    pub grit: i32,
    pub fame: i32,
    pub skills: [u8; 3],
    pub cards: Vec<CardId>,
    pub traits: Vec<Id<TraitCard>>,
}

named_enum! {
    /// The two targeting conditions of "MULTIPLE CHARACTERS FACING A MONSTER".
    pub enum Condition ("a condition") {
        HighestGrit = "highest-grit",
        LowestGrit = "lowest-grit",
        HighestFame = "highest-fame",
        LowestFame = "lowest-fame",
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonsterCard {
    pub rank: i32,
    pub grit: i32,
    pub skills: [u8; 3],
    /// Passive effects; the first is the Breakable one ("RUNNING A MONSTER").
    pub passives: Vec<Effect>,
    /// Start-of-fight effects applied to each character (ailments and damage).
    pub start: Vec<Effect>,
    pub targets: [Condition; 2],
    /// (the action die's faces in brackets, action card).
    pub actions: Vec<(Vec<u8>, CardId)>,
    pub text: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraitCard {
    pub effects: Vec<Effect>,
    pub text: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MercCard {
    pub roll_bonus: i32,
}

/// Everything a fight's events can name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalog {
    pub characters: Table<CharacterCard>,
    pub monsters: Table<MonsterCard>,
    pub cards: Table<ActionCard>,
    pub traits: Table<TraitCard>,
    pub mercs: Table<MercCard>,
    /// Lure's printed Priority (`hand lure priority 10`).
    pub lure_priority: Option<i32>,
}

/// The most start-of-fight effects a monster may have (one bit each in the state).
pub const MAX_START: usize = 16;
/// The most effects (or attacker-only effects) on one card: the state's cursor into them is
/// a byte.
pub const MAX_EFFECTS: usize = 64;

/// A block being read, with the names it refers to (resolved once every block is in).
enum Block {
    Character { id: String, card: CharacterCard, cards: Vec<String>, traits: Vec<String> },
    Monster { id: String, card: MonsterCard, actions: Vec<(Vec<u8>, String)> },
    Card { id: String, card: ActionCard },
    Trait { id: String, card: TraitCard },
    Merc { id: String, card: MercCard },
}

fn number(w: &mut Words<'_>, what: &str) -> Result<i32, String> {
    crate::kit::effect::args::number(w).map_err(|e| format!("{what}: {e}"))
}

fn skills(w: &mut Words<'_>) -> Result<[u8; 3], String> {
    let mut out = [0u8; 3];
    for _ in 0..3 {
        let skill: Skill = crate::kit::effect::args::named(w)?;
        out[skill.index()] = w.number_in(0..=99u8, "").map_err(|_| "a skill tier 0-99".to_string())?;
    }
    match w.peek() {
        None => Ok(out),
        Some(x) => Err(format!("`skills might N finesse N wit N`, found `{x}`")),
    }
}

/// An effect read at a place that applies only some kinds.
fn effect_at(text: &str, applies: impl Fn(&Effect) -> bool, place: &str) -> Result<Effect, String> {
    let e: Effect = parse(text)?;
    check_place(&e, applies(&e), place)?;
    Ok(e)
}

fn modifier(e: &Effect) -> bool {
    !e.is_instant()
}

impl Catalog {
    /// Parse catalog text, listing every problem with its line number.
    pub fn parse(text: &str) -> Result<Catalog, Vec<String>> {
        let mut cat = Catalog::default();
        let mut problems = Problems::new();
        let mut blocks: Vec<Block> = Vec::new();
        for line in lines(text) {
            if line.indented {
                match blocks.last_mut() {
                    Some(block) => {
                        let r = Self::property(block, &line);
                        problems.check(line.number, r);
                    }
                    None => problems.at(line.number, "a block header before an indented line"),
                }
            } else {
                match Self::header(&mut cat, &line) {
                    Ok(Some(b)) => blocks.push(b),
                    Ok(None) => {}
                    Err(e) => problems.at(line.number, e),
                }
            }
        }
        // Interned in order; references resolved once every id is known.
        let mut pending = Vec::new();
        for block in blocks {
            let r = match block {
                Block::Card { id, card } => cat.cards.insert(&id, card).map(|_| ()),
                Block::Trait { id, card } => cat.traits.insert(&id, card).map(|_| ()),
                Block::Merc { id, card } => cat.mercs.insert(&id, card).map(|_| ()),
                other => {
                    pending.push(other);
                    Ok(())
                }
            };
            if let Err(e) = r {
                problems.whole(e);
            }
        }
        for block in pending {
            let r = match block {
                Block::Character { id, mut card, cards, traits } => {
                    let from = format!("character `{id}`");
                    card.cards = cards
                        .iter()
                        .filter_map(|c| refer(&cat.cards, c, &from, "card", &mut problems))
                        .collect();
                    card.traits = traits
                        .iter()
                        .filter_map(|t| refer(&cat.traits, t, &from, "trait", &mut problems))
                        .collect();
                    cat.characters.insert(&id, card).map(|_| ())
                }
                Block::Monster { id, mut card, actions } => {
                    for (faces, name) in actions {
                        let Some(c) =
                            refer(&cat.cards, &name, &format!("monster `{id}`"), "action", &mut problems)
                        else {
                            continue;
                        };
                        if cat.cards[c].priority.is_none() {
                            problems.whole(format!("monster action `{name}` has no priority"));
                        }
                        card.actions.push((faces, c));
                    }
                    cat.monsters.insert(&id, card).map(|_| ())
                }
                _ => Ok(()),
            };
            if let Err(e) = r {
                problems.whole(e);
            }
        }
        for (_, id, c) in cat.cards.iter() {
            if !c.worn && c.priority.is_none() {
                problems.whole(format!("card `{id}` is neither worn nor has a priority"));
            }
            // "An attack's damage may be increased ... Accuracy increases the attack's damage"
            // and Block reduces "damage" (l.8-9): one damage an attack, modified once. The
            // book prints no attack with two; a card written with two would have each
            // Accuracy-, Weak- and Block-adjusted on its own, so it is refused.
            if c.attack.is_some() && c.effects.iter().filter(|e| matches!(e, Effect::Damage(_))).count() > 1 {
                problems.whole(format!(
                    "card `{id}`: an attack deals one damage (Accuracy, damage modifiers, Weak and Block apply to \
                     \"the attack's damage\" once); write its damage as one `effect damage N`, the rest as `text ...`"
                ));
            }
            // An instant effect on a card that does not attack would never happen.
            if c.attack.is_none() {
                for e in c.effects.iter().filter(|e| e.is_instant()) {
                    problems.whole(format!(
                        "card `{id}`: `{e}` has no effect on a card that does not attack; write what the card says as `text ...` (reported unverified)"
                    ));
                }
            }
        }
        problems.finish(cat)
    }

    fn header(cat: &mut Catalog, line: &Line<'_>) -> Result<Option<Block>, String> {
        let mut w = Words::new(line.text);
        let kind = w.word("a block kind").map_err(|_| "a block kind".to_string())?;
        let id = w
            .id("")
            .map_err(|_| "an id (letters, digits, `-`, `_`) after the block kind".to_string())?
            .to_string();
        let card = |kind| Block::Card {
            id: id.clone(),
            card: ActionCard {
                kind,
                priority: None,
                attack: None,
                worn: false,
                rounds: None,
                effects: Vec::new(),
                self_effects: Vec::new(),
                text: Vec::new(),
            },
        };
        let block = match kind {
            "hand" => {
                if HandCard::parse(&id) != Some(HandCard::Lure) {
                    return Err(format!(
                        "`hand {id}`: only Lure has a printed Priority of its own (Primary, Secondary and \
                         Maneuver take their card's, Balance and Focus have none)"
                    ));
                }
                w.keyword("priority").map_err(|_| "`hand lure priority N`".to_string())?;
                cat.lure_priority = Some(number(&mut w, "Lure's Priority")?);
                return Ok(None);
            }
            "character" => Block::Character {
                id,
                card: CharacterCard { grit: 0, fame: 0, skills: [0; 3], cards: Vec::new(), traits: Vec::new() },
                cards: Vec::new(),
                traits: Vec::new(),
            },
            "monster" => Block::Monster {
                id,
                card: MonsterCard {
                    rank: 0,
                    grit: 0,
                    skills: [0; 3],
                    passives: Vec::new(),
                    start: Vec::new(),
                    targets: [Condition::HighestGrit, Condition::LowestGrit],
                    actions: Vec::new(),
                    text: Vec::new(),
                },
                actions: Vec::new(),
            },
            "base" => card(CardKind::Base),
            "spell" => card(CardKind::Spell),
            "gear" => card(CardKind::Gear),
            "trait" => Block::Trait { id, card: TraitCard { effects: Vec::new(), text: Vec::new() } },
            "mercenary" => Block::Merc { id, card: MercCard { roll_bonus: 0 } },
            other => {
                return Err(format!(
                    "a block kind (hand, character, monster, base, spell, gear, trait, mercenary), found `{other}`"
                ))
            }
        };
        match w.peek() {
            None => Ok(Some(block)),
            Some(x) => Err(format!("end of line after the id, found `{x}`")),
        }
    }

    fn property(block: &mut Block, line: &Line<'_>) -> Result<(), String> {
        let rest = line.rest();
        let mut w = Words::new(rest);
        let end = |w: &Words<'_>| match w.peek() {
            None => Ok(()),
            Some(x) => Err(format!("end of line, found `{x}`")),
        };
        match (block, line.head()) {
            (Block::Character { card, .. }, "grit") => card.grit = number(&mut w, "Grit")?,
            (Block::Character { card, .. }, "fame") => card.fame = number(&mut w, "Fame")?,
            (Block::Character { card, .. }, "skills") => card.skills = skills(&mut w)?,
            (Block::Character { cards, .. }, "card") => {
                cards.extend(rest.split_whitespace().map(String::from))
            }
            (Block::Character { traits, .. }, "trait") => {
                traits.extend(rest.split_whitespace().map(String::from))
            }
            (Block::Monster { card, .. }, "rank") => card.rank = number(&mut w, "Rank")?,
            (Block::Monster { card, .. }, "grit") => card.grit = number(&mut w, "Grit")?,
            (Block::Monster { card, .. }, "skills") => card.skills = skills(&mut w)?,
            (Block::Monster { card, .. }, "breakable") => {
                if !card.passives.is_empty() {
                    return Err("the Breakable effect first: it is always a monster's first passive".into());
                }
                card.passives.push(effect_at(rest, modifier, "a passive effect")?);
            }
            (Block::Monster { card, .. }, "passive") => {
                if card.passives.is_empty() {
                    return Err("a `breakable` effect before other passives".into());
                }
                card.passives.push(effect_at(rest, modifier, "a passive effect")?);
            }
            (Block::Monster { card, .. }, "start") => {
                if card.start.len() >= MAX_START {
                    return Err(format!("at most {MAX_START} start effects"));
                }
                card.start.push(effect_at(rest, Effect::is_instant, "a start-of-fight effect")?);
            }
            (Block::Monster { card, .. }, "targets") => {
                let c = |w: &mut Words<'_>| {
                    w.named::<Condition>().map_err(|_| {
                        "two conditions among highest-grit, lowest-grit, highest-fame, lowest-fame"
                            .to_string()
                    })
                };
                card.targets = [c(&mut w)?, c(&mut w)?];
                end(&w)?;
            }
            (Block::Monster { actions, .. }, "action") => {
                let name = w.id("").map_err(|_| "an action card id".to_string())?.to_string();
                let mut faces = Vec::new();
                while let Some(x) = w.peek() {
                    // The action die is a skill die (d10 or d12, `skill-die`).
                    let f = w
                        .number_in(1..=12u8, "")
                        .map_err(|_| format!("a face of the action die, 1-12, found `{x}`"))?;
                    faces.push(f);
                }
                actions.push((faces, name));
            }
            (Block::Monster { card, .. }, "text") => card.text.push(rest.to_string()),
            (Block::Card { card, .. }, "priority") => card.priority = Some(number(&mut w, "Priority")?),
            (Block::Card { card, .. }, "worn") => card.worn = true,
            (Block::Card { card, .. }, "rounds") => {
                let n = number(&mut w, "rounds")?;
                if n < 1 {
                    return Err("a duration of at least 1 round".into());
                }
                card.rounds = Some(n.unsigned_abs());
            }
            (Block::Card { card, .. }, "attack") => {
                let syntax = "`attack SKILL vs SKILL [all]`";
                let roll = w.named::<Skill>().map_err(|_| syntax.to_string())?;
                w.keyword("vs").map_err(|_| syntax.to_string())?;
                let defense = w.named::<Skill>().map_err(|_| syntax.to_string())?;
                let area = match w.peek() {
                    None => Area::Single,
                    Some("all") => Area::All,
                    Some(x) => return Err(format!("`all` or end of line, found `{x}`")),
                };
                card.attack = Some(Attack { roll, defense, area });
            }
            (Block::Card { card, .. }, "effect" | "self")
                if card.effects.len().max(card.self_effects.len()) >= MAX_EFFECTS =>
            {
                return Err(format!("at most {MAX_EFFECTS} effects of each kind on a card"));
            }
            (Block::Card { card, .. }, "effect") => {
                let worn = card.worn;
                card.effects.push(effect_at(rest, |e| !worn || modifier(e), "worn gear")?);
            }
            (Block::Card { card, .. }, "self") => {
                card.self_effects.push(effect_at(
                    rest,
                    |e| !matches!(e, Effect::Damage(_)),
                    "an attacker-only benefit (`self`)",
                )?);
            }
            (Block::Card { card, .. }, "text") => card.text.push(rest.to_string()),
            (Block::Trait { card, .. }, "effect") => card.effects.push(effect_at(rest, modifier, "a trait")?),
            (Block::Trait { card, .. }, "text") => card.text.push(rest.to_string()),
            (Block::Merc { card, .. }, "recall") => {
                w.keyword("roll").map_err(|_| "`recall roll +N`".to_string())?;
                card.roll_bonus = crate::kit::effect::args::signed(&mut w)?;
            }
            (_, other) => return Err(format!("a property of this block, found `{other}`")),
        }
        Ok(())
    }

    /// The monster's action for a d6 face, if its card brackets that face.
    pub fn monster_action(&self, monster: MonsterId, face: u8) -> Option<CardId> {
        let m = self.monsters.get(monster)?;
        m.actions.iter().find(|(faces, _)| faces.contains(&face)).map(|(_, c)| *c)
    }

    /// A mercenary's card.
    pub fn merc(&self, id: MercId) -> Option<&MercCard> {
        self.mercs.get(id)
    }
}

/// The built-in catalog, parsed once per process.
pub(crate) fn shared(builtin: &str, text: &str) -> Result<Arc<Catalog>, Vec<String>> {
    static CACHE: Builtin<Catalog> = Builtin::new();
    CACHE.parse(builtin, text, Catalog::parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_catalog_parses() {
        let cat = Catalog::parse(super::super::ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e:?}"));
        let wyvern = cat.monsters.id("wyvern").unwrap_or_else(|| panic!("no wyvern"));
        assert_eq!(cat.monsters[wyvern].rank, 6);
        assert_eq!(cat.monster_action(wyvern, 6), cat.cards.id("fire-breath"));
        assert_eq!(cat.lure_priority, Some(10));
    }

    #[test]
    fn errors_name_the_line_and_every_one_is_reported() {
        let errs = Catalog::parse("character x\n  grit ten\nmonster\n").unwrap_err();
        assert!(errs[0].contains("line 2"), "{errs:?}");
        assert!(errs.iter().any(|e| e.contains("line 3")), "{errs:?}");
        let errs = Catalog::parse("character x\n  card sword\ncharacter x\n").unwrap_err();
        assert!(errs.iter().any(|e| e.contains("unknown card `sword`")), "{errs:?}");
        assert!(errs.iter().any(|e| e.contains("`x` is defined twice")), "{errs:?}");
    }

    #[test]
    fn an_effect_the_engine_would_not_apply_where_it_is_written_is_refused() {
        for (text, what) in [
            ("monster m\n  breakable block 0\n  start roll +1\n", "start-of-fight"),
            ("gear g\n  worn\n  effect damage 2\n", "worn gear"),
            ("base b\n  priority 3\n  attack might vs might\n  self damage 2\n", "self"),
            ("spell s\n  priority 3\n  effect ailment burn 1\n", "does not attack"),
            ("trait t\n  effect ailment burn 1\n", "trait"),
            ("hand balance priority 3\n", "only Lure"),
            (
                "base b\n  priority 3\n  attack might vs might\n  effect damage 2\n  effect damage 2\n",
                "one damage",
            ),
        ] {
            let errs = Catalog::parse(text).unwrap_err();
            assert!(errs.iter().any(|e| e.contains(what)), "{text}: {errs:?}");
        }
        let many = format!(
            "base b\n  priority 3\n  attack might vs might\n{}",
            "  effect damage 1\n".repeat(MAX_EFFECTS + 1)
        );
        assert!(Catalog::parse(&many).unwrap_err().iter().any(|e| e.contains("at most 64")));
        // What the engine applies is accepted: a start damage, an attacker's ailment.
        let ok = "monster m\n  breakable block 0\n  start damage 1\n  start ailment burn 2\n\
                  base b\n  priority 3\n  attack might vs might\n  self ailment burn 1\n";
        assert!(Catalog::parse(ok).is_ok(), "{:?}", Catalog::parse(ok));
    }
}
