//! The card catalog: characters, monsters, gear, spells, base attacks, traits, mercenaries
//! and the hand cards' printed Priority, read from a small line format (see
//! docs/notation/keridwyn-fight.md, "Catalog files").

use super::effect::{Effect, Skill};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The three attack types of "HOW TO FIGHT": they decide which effects apply (a `non-spell`
/// Block does not stop a spell).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardKind {
    Base,
    Spell,
    Gear,
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
    pub id: String,
    pub kind: CardKind,
    pub priority: Option<i32>,
    pub attack: Option<Attack>,
    /// Worn gear protects without being played.
    pub worn: bool,
    /// Duration of the ongoing effect in rounds; `None` lasts the whole fight.
    pub rounds: Option<u32>,
    /// Effects on the target (attacks) or the recipient (support cards).
    pub effects: Vec<Effect>,
    /// Attacker-only benefits: they apply even when the attack fails.
    pub self_effects: Vec<Effect>,
    /// Card text the declarative form cannot express: reported as unverified when used.
    pub text: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharacterCard {
    pub id: String,
    pub grit: i32,
    pub fame: i32,
    pub skills: [u8; 3],
    pub cards: Vec<String>,
    pub traits: Vec<String>,
}

/// The two targeting conditions of "MULTIPLE CHARACTERS FACING A MONSTER".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    HighestGrit,
    LowestGrit,
    HighestFame,
    LowestFame,
}

impl Condition {
    pub fn parse(w: &str) -> Option<Condition> {
        match w {
            "highest-grit" => Some(Condition::HighestGrit),
            "lowest-grit" => Some(Condition::LowestGrit),
            "highest-fame" => Some(Condition::HighestFame),
            "lowest-fame" => Some(Condition::LowestFame),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Condition::HighestGrit => "highest-grit",
            Condition::LowestGrit => "lowest-grit",
            Condition::HighestFame => "highest-fame",
            Condition::LowestFame => "lowest-fame",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonsterCard {
    pub id: String,
    pub rank: i32,
    pub grit: i32,
    pub skills: [u8; 3],
    /// Passive effects; the first is the Breakable one ("RUNNING A MONSTER").
    pub passives: Vec<Effect>,
    /// Start-of-fight effects applied to each character.
    pub start: Vec<Effect>,
    pub targets: [Condition; 2],
    /// (d6 faces in brackets, action card id).
    pub actions: Vec<(Vec<u8>, String)>,
    pub text: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraitCard {
    pub id: String,
    pub effects: Vec<Effect>,
    pub text: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MercCard {
    pub id: String,
    pub roll_bonus: i32,
}

/// Everything a fight's events can name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalog {
    pub characters: BTreeMap<String, CharacterCard>,
    pub monsters: BTreeMap<String, MonsterCard>,
    pub cards: BTreeMap<String, ActionCard>,
    pub traits: BTreeMap<String, TraitCard>,
    pub mercs: BTreeMap<String, MercCard>,
    /// The printed Priority of the hand cards that have one (`lure`, `balance`).
    pub hand_priority: BTreeMap<String, i32>,
}

enum Block {
    Character(CharacterCard),
    Monster(MonsterCard),
    Card(ActionCard),
    Trait(TraitCard),
    Merc(MercCard),
}

fn skills(words: &[&str]) -> Result<[u8; 3], String> {
    let mut out = [0u8; 3];
    if words.len() != 6 {
        return Err("`skills might N finesse N wit N`".into());
    }
    for pair in words.chunks(2) {
        let skill = Skill::parse(pair[0]).ok_or(format!("a skill name, found `{}`", pair[0]))?;
        out[skill.index()] = pair[1].parse().map_err(|_| format!("a skill tier, found `{}`", pair[1]))?;
    }
    Ok(out)
}

/// Catalog numbers stay small, so sums of effects cannot overflow.
pub(crate) const LIMIT: i32 = 999;

fn number(w: Option<&&str>) -> Result<i32, String> {
    let w = w.ok_or("a number")?;
    match w.parse::<i32>() {
        Ok(n) if n.abs() <= LIMIT => Ok(n),
        _ => Err(format!("a number from -{LIMIT} to {LIMIT}, found `{w}`")),
    }
}

impl Catalog {
    /// Parse catalog text, listing every problem with its line number.
    pub fn parse(text: &str) -> Result<Catalog, Vec<String>> {
        let mut cat = Catalog::default();
        let mut errors = Vec::new();
        let mut current: Option<Block> = None;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("");
            if line.trim().is_empty() {
                continue;
            }
            let indented = line.starts_with(' ') || line.starts_with('\t');
            let words: Vec<&str> = line.split_whitespace().collect();
            let result = if indented {
                match current.as_mut() {
                    Some(block) => Self::property(block, &words, line.trim()),
                    None => Err("a block header before an indented line".into()),
                }
            } else {
                if let Some(done) = current.take() {
                    cat.insert(done, &mut errors);
                }
                Self::header(&mut cat, &words).map(|b| current = b)
            };
            if let Err(e) = result {
                errors.push(format!("catalog line {line_no}: {e}"));
            }
        }
        if let Some(done) = current.take() {
            cat.insert(done, &mut errors);
        }
        cat.check(&mut errors);
        if errors.is_empty() {
            Ok(cat)
        } else {
            Err(errors)
        }
    }

    fn header(cat: &mut Catalog, words: &[&str]) -> Result<Option<Block>, String> {
        let id = words.get(1).ok_or("an id after the block kind")?.to_string();
        let card = |kind| {
            Block::Card(ActionCard {
                id: id.clone(),
                kind,
                priority: None,
                attack: None,
                worn: false,
                rounds: None,
                effects: Vec::new(),
                self_effects: Vec::new(),
                text: Vec::new(),
            })
        };
        Ok(Some(match words[0] {
            "hand" => {
                if !matches!(words.get(2), Some(&"priority")) {
                    return Err("`hand CARD priority N`".into());
                }
                cat.hand_priority.insert(id, number(words.get(3))?);
                return Ok(None);
            }
            "character" => Block::Character(CharacterCard {
                id,
                grit: 0,
                fame: 0,
                skills: [0; 3],
                cards: Vec::new(),
                traits: Vec::new(),
            }),
            "monster" => Block::Monster(MonsterCard {
                id,
                rank: 0,
                grit: 0,
                skills: [0; 3],
                passives: Vec::new(),
                start: Vec::new(),
                targets: [Condition::HighestGrit, Condition::LowestGrit],
                actions: Vec::new(),
                text: Vec::new(),
            }),
            "base" => card(CardKind::Base),
            "spell" => card(CardKind::Spell),
            "gear" => card(CardKind::Gear),
            "trait" => Block::Trait(TraitCard { id, effects: Vec::new(), text: Vec::new() }),
            "mercenary" => Block::Merc(MercCard { id, roll_bonus: 0 }),
            other => {
                return Err(format!(
                    "a block kind (hand, character, monster, base, spell, gear, trait, mercenary), found `{other}`"
                ))
            }
        }))
    }

    fn property(block: &mut Block, words: &[&str], line: &str) -> Result<(), String> {
        let rest = line.split_once(char::is_whitespace).map(|(_, r)| r.trim()).unwrap_or("");
        match (block, words[0]) {
            (Block::Character(c), "grit") => c.grit = number(words.get(1))?,
            (Block::Character(c), "fame") => c.fame = number(words.get(1))?,
            (Block::Character(c), "skills") => c.skills = skills(&words[1..])?,
            (Block::Character(c), "card") => c.cards.extend(words[1..].iter().map(|w| w.to_string())),
            (Block::Character(c), "trait") => c.traits.extend(words[1..].iter().map(|w| w.to_string())),
            (Block::Monster(m), "rank") => m.rank = number(words.get(1))?,
            (Block::Monster(m), "grit") => m.grit = number(words.get(1))?,
            (Block::Monster(m), "skills") => m.skills = skills(&words[1..])?,
            (Block::Monster(m), "breakable") => {
                if !m.passives.is_empty() {
                    return Err("the Breakable effect first: it is always a monster's first passive".into());
                }
                m.passives.push(Effect::parse(rest)?)
            }
            (Block::Monster(m), "passive") => {
                if m.passives.is_empty() {
                    return Err("a `breakable` effect before other passives".into());
                }
                m.passives.push(Effect::parse(rest)?)
            }
            (Block::Monster(m), "start") => m.start.push(Effect::parse(rest)?),
            (Block::Monster(m), "targets") => {
                let c = |i: usize| {
                    words
                        .get(i)
                        .and_then(|w| Condition::parse(w))
                        .ok_or("two conditions among highest-grit, lowest-grit, highest-fame, lowest-fame")
                };
                m.targets = [c(1)?, c(2)?];
            }
            (Block::Monster(m), "action") => {
                let card = words.get(1).ok_or("an action card id")?.to_string();
                let mut faces = Vec::new();
                for w in &words[2..] {
                    let f: u8 = w.parse().map_err(|_| format!("a d6 face, found `{w}`"))?;
                    if !(1..=6).contains(&f) {
                        return Err(format!("a d6 face 1-6, found `{w}`"));
                    }
                    faces.push(f);
                }
                m.actions.push((faces, card));
            }
            (Block::Monster(m), "text") => m.text.push(rest.to_string()),
            (Block::Card(c), "priority") => c.priority = Some(number(words.get(1))?),
            (Block::Card(c), "worn") => c.worn = true,
            (Block::Card(c), "rounds") => c.rounds = Some(number(words.get(1))?.max(1) as u32),
            (Block::Card(c), "attack") => {
                let skill = |i: usize| {
                    words.get(i).and_then(|w| Skill::parse(w)).ok_or("`attack SKILL vs SKILL [all]`")
                };
                if words.get(2) != Some(&"vs") {
                    return Err("`attack SKILL vs SKILL [all]`".into());
                }
                let area = match words.get(4) {
                    None => Area::Single,
                    Some(&"all") => Area::All,
                    Some(w) => return Err(format!("`all` or end of line, found `{w}`")),
                };
                c.attack = Some(Attack { roll: skill(1)?, defense: skill(3)?, area });
            }
            (Block::Card(c), "effect") => c.effects.push(Effect::parse(rest)?),
            (Block::Card(c), "self") => c.self_effects.push(Effect::parse(rest)?),
            (Block::Card(c), "text") => c.text.push(rest.to_string()),
            (Block::Trait(t), "effect") => t.effects.push(Effect::parse(rest)?),
            (Block::Trait(t), "text") => t.text.push(rest.to_string()),
            (Block::Merc(m), "recall") => {
                if words.get(1) != Some(&"roll") {
                    return Err("`recall roll +N`".into());
                }
                m.roll_bonus = number(words.get(2))?;
            }
            (_, other) => return Err(format!("a property of this block, found `{other}`")),
        }
        Ok(())
    }

    fn insert(&mut self, block: Block, errors: &mut Vec<String>) {
        let dup = match block {
            Block::Character(c) => self.characters.insert(c.id.clone(), c).map(|c| c.id),
            Block::Monster(m) => self.monsters.insert(m.id.clone(), m).map(|m| m.id),
            Block::Card(c) => self.cards.insert(c.id.clone(), c).map(|c| c.id),
            Block::Trait(t) => self.traits.insert(t.id.clone(), t).map(|t| t.id),
            Block::Merc(m) => self.mercs.insert(m.id.clone(), m).map(|m| m.id),
        };
        if let Some(id) = dup {
            errors.push(format!("catalog: `{id}` is defined twice"));
        }
    }

    /// Cross-references: every card a character or monster names exists, and every playable
    /// card has the Priority its token goes on.
    fn check(&self, errors: &mut Vec<String>) {
        for c in self.characters.values() {
            for card in &c.cards {
                if !self.cards.contains_key(card) {
                    errors.push(format!("catalog: character `{}` names unknown card `{card}`", c.id));
                }
            }
            for t in &c.traits {
                if !self.traits.contains_key(t) {
                    errors.push(format!("catalog: character `{}` names unknown trait `{t}`", c.id));
                }
            }
        }
        for m in self.monsters.values() {
            for (_, card) in &m.actions {
                match self.cards.get(card) {
                    Some(c) if c.priority.is_some() => {}
                    Some(_) => errors.push(format!("catalog: monster action `{card}` has no priority")),
                    None => errors.push(format!("catalog: monster `{}` names unknown action `{card}`", m.id)),
                }
            }
        }
        for c in self.cards.values() {
            if !c.worn && c.priority.is_none() {
                errors.push(format!("catalog: card `{}` is neither worn nor has a priority", c.id));
            }
        }
    }

    /// The monster's action for a d6 face, if its card brackets that face.
    pub fn monster_action(&self, monster: &str, face: u8) -> Option<&str> {
        let m = self.monsters.get(monster)?;
        m.actions.iter().find(|(faces, _)| faces.contains(&face)).map(|(_, c)| c.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_catalog_parses() {
        let cat = Catalog::parse(super::super::ILLUSTRATIVE).unwrap();
        assert_eq!(cat.monsters["wyvern"].rank, 6);
        assert_eq!(cat.monster_action("wyvern", 6), Some("fire-breath"));
    }

    #[test]
    fn errors_name_the_line() {
        let errs = Catalog::parse("character x\n  grit ten\nmonster\n").unwrap_err();
        assert!(errs[0].contains("line 2"), "{errs:?}");
        assert!(errs.iter().any(|e| e.contains("line 3")), "{errs:?}");
    }
}
