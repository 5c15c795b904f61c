//! The skills and ailments, and Keridwyn's card-effect vocabulary on the kit's declarative
//! form: `damage 6`, `damage burn`, `ailment slow 2`, `block 3 non-spell`, `roll +1`,
//! `damage +1`, `priority -6`, `immunity burn`, `defense +1`, `accuracy-difficulty -1`
//! (every attack its holder takes part in), `accuracy-difficulty -1 own` (only the holder's
//! attacks), `accuracy-difficulty +1 against` (only attacks against the holder).

use crate::kit::effect::{args, Vocabulary};
use crate::kit::named::named_enum;
use crate::kit::words::Words;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// The three skills; a fighter's tier in each is how many dice it rolls and, plus 6, its
    /// defense in that skill.
    pub enum Skill ("a skill") { Might = "might", Finesse = "finesse", Wit = "wit" }
}

named_enum! {
    /// The four ailments of "AILMENTS".
    pub enum Ailment ("an ailment") { Burn = "burn", Dazzle = "dazzle", Slow = "slow", Weak = "weak" }
}

/// How much an instant damage effect deals before modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageBase {
    /// `damage 6`
    Fixed(i32),
    /// `damage burn`: as many as the rounds of that ailment afflicting the target (the
    /// Wyvern's Fire Breath).
    PerAilment(Ailment),
}

/// One effect a card grants. Instant effects (damage, ailment) hit an attack's target;
/// the others are modifiers that hold while the card's ongoing effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Raises (positive) or lowers the number a die needs to grant Accuracy, in every attack
    /// its holder takes part in, as attacker or as target (`accuracy-difficulty -1`).
    AccuracyDifficulty(i32),
    // Appended, so that the encoding of a stored state keeps its variant numbers.
    /// As `AccuracyDifficulty`, in the holder's own attacks only (`accuracy-difficulty -1 own`).
    AccuracyDifficultyOwn(i32),
    /// As `AccuracyDifficulty`, in attacks against the holder only
    /// (`accuracy-difficulty +1 against`).
    AccuracyDifficultyAgainst(i32),
}

impl Effect {
    /// An instant effect (damage or an ailment): it happens once, to a fighter.
    pub fn is_instant(&self) -> bool {
        matches!(self, Effect::Damage(_) | Effect::Ailment(..))
    }
}

impl Vocabulary for Effect {
    const VERBS: &'static str =
        "damage, ailment, block, roll, priority, immunity, defense, accuracy-difficulty";

    fn read(verb: &str, w: &mut Words<'_>) -> Result<Option<Effect>, String> {
        Ok(Some(match verb {
            "damage" => match w.peek() {
                Some(x) if x.starts_with('+') || x.starts_with('-') => Effect::DamageMod(args::signed(w)?),
                Some(x) if Ailment::parse(x).is_some() => {
                    Effect::Damage(DamageBase::PerAilment(args::named(w)?))
                }
                _ => Effect::Damage(DamageBase::Fixed(args::number(w)?)),
            },
            "ailment" => {
                let a = args::named(w)?;
                let n = args::number(w)?;
                if n < 1 {
                    return Err("an ailment duration of at least 1".into());
                }
                Effect::Ailment(a, n.unsigned_abs())
            }
            "block" => {
                let amount = args::number(w)?;
                let non_spell = match w.peek() {
                    None => false,
                    Some("non-spell") => {
                        w.skip();
                        true
                    }
                    Some(x) => return Err(format!("`non-spell` or end of effect, found `{x}`")),
                };
                Effect::Block { amount, non_spell }
            }
            "roll" => Effect::Roll(args::signed(w)?),
            "priority" => Effect::Priority(args::signed(w)?),
            "immunity" => Effect::Immunity(args::named(w)?),
            "defense" => Effect::Defense(args::signed(w)?),
            "accuracy-difficulty" => {
                let n = args::signed(w)?;
                match w.peek() {
                    None => Effect::AccuracyDifficulty(n),
                    Some("own") => {
                        w.skip();
                        Effect::AccuracyDifficultyOwn(n)
                    }
                    Some("against") => {
                        w.skip();
                        Effect::AccuracyDifficultyAgainst(n)
                    }
                    Some(x) => return Err(format!("`own`, `against` or end of effect, found `{x}`")),
                }
            }
            _ => return Ok(None),
        }))
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
            Effect::AccuracyDifficultyOwn(n) => write!(f, "accuracy-difficulty {n:+} own"),
            Effect::AccuracyDifficultyAgainst(n) => write!(f, "accuracy-difficulty {n:+} against"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::effect::parse;

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
            "accuracy-difficulty -1 own",
            "accuracy-difficulty +2 against",
        ] {
            let e: Effect = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(e.to_string(), text);
        }
        assert!(parse::<Effect>("heal 3").is_err());
        assert!(parse::<Effect>("block 3 spells").is_err());
        assert!(parse::<Effect>("roll 1").is_err());
        assert!(parse::<Effect>("ailment burn 0").is_err());
        assert!(parse::<Effect>("immunity cold").is_err());
        assert!(parse::<Effect>("accuracy-difficulty -1 mine").is_err());
        assert!(parse::<Effect>("accuracy-difficulty own -1").is_err());
    }
}
