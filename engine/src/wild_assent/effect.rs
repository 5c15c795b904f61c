//! The declarative form of skill, Equipment and Instinct card text: one effect a line
//! (`effect dice +1 vs creatures`, `effect on-special ignore-defense`, `effect leap 3`),
//! read with the kit's effect reader. Text the form cannot express is `text ...` and is
//! reported unverified where it is used.

use crate::kit::effect::{args, Vocabulary};
use crate::kit::name::Name;
use crate::kit::named::named_enum;
use crate::kit::words::Words;
use std::fmt;

named_enum! {
    /// The five general status effects.
    pub enum Status ("a status (immobilize, bleed, fatigue, blind, stun)") {
        Immobilize = "immobilize", Bleed = "bleed", Fatigue = "fatigue", Blind = "blind", Stun = "stun"
    }
}

impl Status {
    /// The status's bit in a set of tokens.
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

named_enum! {
    /// Whom a modifier counts against.
    pub enum Against ("creatures or seekers") { Creatures = "creatures", Seekers = "seekers" }
}

/// When a triggered effect occurs in an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `on-special`: once, when at least one Special is rolled.
    OnSpecial,
    /// `on-each-special`: once per Special.
    OnEachSpecial,
    /// `on-special-xN`: once, when at least N Specials are rolled.
    OnSpecials(u8),
}

impl Trigger {
    /// How many times the effect occurs with `specials` Specials rolled.
    pub fn times(self, specials: u8) -> u8 {
        match self {
            Trigger::OnSpecial => u8::from(specials >= 1),
            Trigger::OnEachSpecial => specials,
            Trigger::OnSpecials(n) => u8::from(specials >= n),
        }
    }
}

impl fmt::Display for Trigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trigger::OnSpecial => f.write_str("on-special"),
            Trigger::OnEachSpecial => f.write_str("on-each-special"),
            Trigger::OnSpecials(n) => write!(f, "on-special-x{n}"),
        }
    }
}

/// One effect of a skill, an Equipment card or an Instinct card's action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// `dice +N [vs creatures|seekers]`: Attack Dice of the owner's attacks.
    Dice(i32, Option<Against>),
    /// `damage +N`: damage of the owner's attacks.
    Damage(i32),
    /// `defense +N`: Physical and Magical Defense of the owner.
    Defense(i32),
    /// `speed +N`: the owner's Speed.
    Speed(i32),
    /// `status KIND`: each target of the attack (or of the skill) is afflicted.
    Status(Status),
    /// `knockback`: plain Knockback (an Instinct card's "Knockback"): each target that took
    /// damage is knocked one field away (interpretation `knockback-plain`).
    Knockback,
    /// `on-attack knockback`: "On Attack: Knockback" (Tidal Wave): each target is knocked
    /// one field away, "even if no damage occurred" (Arena Example 10).
    OnAttackKnockback,
    /// `ignore-defense`: the attack's damage ignores defense.
    IgnoreDefense,
    /// `assign-if-damaged`: the owner's attacks assign their damage to a damaged target.
    AssignIfDamaged,
    /// `leap N`: a movement skill: over the miniature in front to the field beyond, N Speed.
    Leap(u8),
    /// `free-activation`: the target ally takes a free activation.
    FreeActivation,
    /// `heal N`: the target (or the user) is healed.
    Heal(i32),
    /// `escape`: the user escapes.
    Escape,
    /// `summon ID`: the owner's summon, entering as it activates.
    Summon(Name),
    /// A triggered effect of an attack: `on-special EFFECT`.
    On(Trigger, Box<Effect>),
}

impl Effect {
    /// Whether the effect shapes an attack (its dice, damage, defense, what it does to targets).
    pub fn is_attack(&self) -> bool {
        match self {
            Effect::Dice(..)
            | Effect::Damage(_)
            | Effect::Status(_)
            | Effect::Knockback
            | Effect::OnAttackKnockback
            | Effect::IgnoreDefense
            | Effect::AssignIfDamaged => true,
            Effect::On(_, e) => e.is_attack(),
            _ => false,
        }
    }
    /// Whether the effect is a standing trait of its owner.
    pub fn is_owner(&self) -> bool {
        matches!(self, Effect::Defense(_) | Effect::Speed(_) | Effect::Summon(_))
    }
    /// Whether the effect is what a non-attack skill does when used.
    pub fn is_use(&self) -> bool {
        matches!(self, Effect::Heal(_) | Effect::FreeActivation | Effect::Escape | Effect::Status(_))
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::Dice(n, None) => write!(f, "dice {n:+}"),
            Effect::Dice(n, Some(a)) => write!(f, "dice {n:+} vs {a}"),
            Effect::Damage(n) => write!(f, "damage {n:+}"),
            Effect::Defense(n) => write!(f, "defense {n:+}"),
            Effect::Speed(n) => write!(f, "speed {n:+}"),
            Effect::Status(s) => write!(f, "status {s}"),
            Effect::Knockback => f.write_str("knockback"),
            Effect::OnAttackKnockback => f.write_str("on-attack knockback"),
            Effect::IgnoreDefense => f.write_str("ignore-defense"),
            Effect::AssignIfDamaged => f.write_str("assign-if-damaged"),
            Effect::Leap(n) => write!(f, "leap {n}"),
            Effect::FreeActivation => f.write_str("free-activation"),
            Effect::Heal(n) => write!(f, "heal {n}"),
            Effect::Escape => f.write_str("escape"),
            Effect::Summon(id) => write!(f, "summon {id}"),
            Effect::On(t, e) => write!(f, "{t} {e}"),
        }
    }
}

fn small(w: &mut Words<'_>, what: &str) -> Result<u8, String> {
    let n = args::number(w)?;
    u8::try_from(n)
        .ok()
        .filter(|&n| (1..=20).contains(&n))
        .ok_or_else(|| format!("{what} from 1 to 20, found {n}"))
}

impl Vocabulary for Effect {
    const VERBS: &'static str =
        "dice, damage, defense, speed, status, knockback, on-attack knockback, ignore-defense, \
                                 assign-if-damaged, leap, free-activation, heal, escape, summon, on-special, \
                                 on-each-special, on-special-xN";

    fn read(verb: &str, w: &mut Words<'_>) -> Result<Option<Effect>, String> {
        Ok(Some(match verb {
            "dice" => {
                let n = args::signed(w)?;
                let against = if w.optional("vs") { Some(args::named::<Against>(w)?) } else { None };
                Effect::Dice(n, against)
            }
            "damage" => Effect::Damage(args::signed(w)?),
            "defense" => Effect::Defense(args::signed(w)?),
            "speed" => Effect::Speed(args::signed(w)?),
            "status" => Effect::Status(args::named(w)?),
            "knockback" => Effect::Knockback,
            "on-attack" => match w.word("an effect") {
                Ok("knockback") => Effect::OnAttackKnockback,
                _ => return Err("`on-attack` takes `knockback`".to_string()),
            },
            "ignore-defense" => Effect::IgnoreDefense,
            "assign-if-damaged" => Effect::AssignIfDamaged,
            "leap" => Effect::Leap(small(w, "a Speed cost")?),
            "free-activation" => Effect::FreeActivation,
            "heal" => Effect::Heal(i32::from(small(w, "a healing")?)),
            "escape" => Effect::Escape,
            "summon" => {
                let found = w.peek().unwrap_or("nothing").to_string();
                let id = w
                    .id("")
                    .ok()
                    .and_then(Name::new)
                    .ok_or_else(|| format!("a summon's id, found `{found}`"))?;
                Effect::Summon(id)
            }
            _ => {
                let trigger = match verb {
                    "on-special" => Trigger::OnSpecial,
                    "on-each-special" => Trigger::OnEachSpecial,
                    v => match v.strip_prefix("on-special-x").and_then(|n| n.parse::<u8>().ok()) {
                        Some(n) if (2..=9).contains(&n) => Trigger::OnSpecials(n),
                        _ => return Ok(None),
                    },
                };
                let inner = w.word("an effect").map_err(|_| "an effect after the trigger".to_string())?;
                let Some(effect) = Effect::read(inner, w)? else {
                    return Err(format!("an effect after `{verb}`, found `{inner}`"));
                };
                if !matches!(
                    effect,
                    Effect::Status(_) | Effect::Damage(_) | Effect::IgnoreDefense | Effect::Knockback
                ) {
                    return Err(format!(
                        "`{effect}` cannot be triggered by Specials (status, damage, ignore-defense, knockback can)"
                    ));
                }
                Effect::On(trigger, Box::new(effect))
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::effect::parse;

    #[test]
    fn effects_round_trip() {
        for t in [
            "dice +1 vs creatures",
            "dice -1",
            "damage +2",
            "defense +1",
            "speed +1",
            "status blind",
            "knockback",
            "on-attack knockback",
            "ignore-defense",
            "assign-if-damaged",
            "leap 3",
            "free-activation",
            "heal 2",
            "escape",
            "summon daemonspawn",
            "on-special ignore-defense",
            "on-each-special damage +1",
            "on-special-x2 status stun",
        ] {
            assert_eq!(parse::<Effect>(t).unwrap().to_string(), t);
        }
        assert!(parse::<Effect>("on-special leap 3").unwrap_err().contains("cannot be triggered"));
        assert!(parse::<Effect>("status sleepy").is_err());
        assert!(parse::<Effect>("fly").unwrap_err().contains("text ..."));
        assert_eq!(Trigger::OnEachSpecial.times(3), 3);
        assert_eq!(Trigger::OnSpecials(2).times(1), 0);
        assert_eq!(Trigger::OnSpecial.times(2), 1);
    }
}
