//! The declarative effect form card catalogs use (`damage 6`, `ailment burn 2`, `block 3
//! non-spell`, `roll +1`, ...), and the skills and ailments effects name.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The three skills; a fighter's tier in each is how many dice it rolls and, plus 6, its
/// defense in that skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Skill {
    Might,
    Finesse,
    Wit,
}

impl Skill {
    pub const ALL: [Skill; 3] = [Skill::Might, Skill::Finesse, Skill::Wit];
    pub fn parse(word: &str) -> Option<Skill> {
        Skill::ALL.into_iter().find(|s| s.name() == word)
    }
    pub fn name(self) -> &'static str {
        match self {
            Skill::Might => "might",
            Skill::Finesse => "finesse",
            Skill::Wit => "wit",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The four ailments of "AILMENTS".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ailment {
    Burn,
    Dazzle,
    Slow,
    Weak,
}

impl Ailment {
    pub const ALL: [Ailment; 4] = [Ailment::Burn, Ailment::Dazzle, Ailment::Slow, Ailment::Weak];
    pub fn parse(word: &str) -> Option<Ailment> {
        Ailment::ALL.into_iter().find(|a| a.name() == word)
    }
    pub fn name(self) -> &'static str {
        match self {
            Ailment::Burn => "burn",
            Ailment::Dazzle => "dazzle",
            Ailment::Slow => "slow",
            Ailment::Weak => "weak",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Ailment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How much an instant damage effect deals before modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageBase {
    /// `damage 6`
    Fixed(i32),
    /// `damage burn`: as many as the rounds of that ailment afflicting the target (the
    /// Wyvern's Fire Breath).
    PerAilment(Ailment),
}

/// One effect a card grants. Instant effects (damage, ailment) hit an attack's target;
/// the others are modifiers that hold while the card's ongoing effect lasts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    Damage(DamageBase),
    Ailment(Ailment, u32),
    /// Reduces each damage taken; `non_spell` Blocks do not apply against spells.
    Block {
        amount: i32,
        non_spell: bool,
    },
    Roll(i32),
    DamageMod(i32),
    Priority(i32),
    Immunity(Ailment),
    Defense(i32),
    /// Raises (positive) or lowers the number a die needs to grant Accuracy.
    AccuracyDifficulty(i32),
}

impl Effect {
    /// Parse the declarative form; `Err` says what was expected.
    pub fn parse(text: &str) -> Result<Effect, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let signed = |w: Option<&&str>| -> Result<i32, String> {
            let w = w.ok_or("a signed number like +1")?;
            if !(w.starts_with('+') || w.starts_with('-')) {
                return Err(format!("a signed number like +1, found `{w}`"));
            }
            match w.parse::<i32>() {
                Ok(n) if n.abs() <= 999 => Ok(n),
                _ => Err(format!("a signed number like +1 (at most 999), found `{w}`")),
            }
        };
        let number = |w: Option<&&str>| -> Result<i32, String> {
            let w = w.ok_or("a number")?;
            match w.parse::<i32>() {
                Ok(n) if n.abs() <= 999 => Ok(n),
                _ => Err(format!("a number from -999 to 999, found `{w}`")),
            }
        };
        let ailment = |w: Option<&&str>| -> Result<Ailment, String> {
            let w = w.ok_or("an ailment (burn, dazzle, slow, weak)")?;
            Ailment::parse(w).ok_or(format!("an ailment (burn, dazzle, slow, weak), found `{w}`"))
        };
        let effect = match words.first().copied() {
            Some("damage") => match words.get(1) {
                Some(w) if w.starts_with('+') || w.starts_with('-') => {
                    Effect::DamageMod(signed(words.get(1))?)
                }
                Some(w) if Ailment::parse(w).is_some() => {
                    Effect::Damage(DamageBase::PerAilment(ailment(words.get(1))?))
                }
                _ => Effect::Damage(DamageBase::Fixed(number(words.get(1))?)),
            },
            Some("ailment") => {
                let a = ailment(words.get(1))?;
                let n = number(words.get(2))?;
                if n < 1 {
                    return Err("an ailment duration of at least 1".into());
                }
                Effect::Ailment(a, n as u32)
            }
            Some("block") => {
                let amount = number(words.get(1))?;
                let non_spell = match words.get(2) {
                    None => false,
                    Some(&"non-spell") => true,
                    Some(w) => return Err(format!("`non-spell` or end of effect, found `{w}`")),
                };
                Effect::Block { amount, non_spell }
            }
            Some("roll") => Effect::Roll(signed(words.get(1))?),
            Some("priority") => Effect::Priority(signed(words.get(1))?),
            Some("immunity") => Effect::Immunity(ailment(words.get(1))?),
            Some("defense") => Effect::Defense(signed(words.get(1))?),
            Some("accuracy-difficulty") => Effect::AccuracyDifficulty(signed(words.get(1))?),
            Some(w) => {
                return Err(format!(
                    "an effect (damage, ailment, block, roll, priority, immunity, defense, \
                     accuracy-difficulty), found `{w}`; write card text the form cannot express \
                     as `text ...`"
                ))
            }
            None => return Err("an effect".into()),
        };
        let max = match &effect {
            Effect::Block { non_spell: true, .. } | Effect::Ailment(..) => 3,
            _ => 2,
        };
        if words.len() > max {
            return Err(format!("end of effect, found `{}`", words[max]));
        }
        Ok(effect)
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::Damage(DamageBase::Fixed(n)) => write!(f, "damage {n}"),
            Effect::Damage(DamageBase::PerAilment(a)) => write!(f, "damage {a}"),
            Effect::Ailment(a, n) => write!(f, "ailment {a} {n}"),
            Effect::Block { amount, non_spell } => {
                write!(f, "block {amount}{}", if *non_spell { " non-spell" } else { "" })
            }
            Effect::Roll(n) => write!(f, "roll {n:+}"),
            Effect::DamageMod(n) => write!(f, "damage {n:+}"),
            Effect::Priority(n) => write!(f, "priority {n:+}"),
            Effect::Immunity(a) => write!(f, "immunity {a}"),
            Effect::Defense(n) => write!(f, "defense {n:+}"),
            Effect::AccuracyDifficulty(n) => write!(f, "accuracy-difficulty {n:+}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_round_trip_and_reject_unknown_words() {
        for text in [
            "damage 6",
            "damage burn",
            "ailment slow 2",
            "block 3 non-spell",
            "block 1",
            "roll +1",
            "damage +1",
            "priority -6",
            "immunity burn",
            "defense +1",
            "accuracy-difficulty -1",
        ] {
            let e = Effect::parse(text).unwrap();
            assert_eq!(e.to_string(), text);
        }
        assert!(Effect::parse("heal 3").is_err());
        assert!(Effect::parse("block 3 spells").is_err());
        assert!(Effect::parse("roll 1").is_err());
    }
}
