//! The declarative card-effect form every game's catalog uses: one line, a verb from the
//! game's vocabulary and its arguments (`damage 6`, `ailment burn 2`, `block 3 non-spell`,
//! `require +1`), read with the shared tokenizer.
//!
//! **One convention for what the form cannot express.** A card's text the vocabulary has
//! no words for is written as `text ...` (or as a plain sentence starting with a capital
//! letter, as printed on the card) and kept verbatim in [`CardEffects::text`]; the
//! engine applies nothing for it and reports it unverified, with the sentence
//! [`unverified`] builds, at the record where the card is used. A line that claims to be an
//! effect but does not read as one is a catalog error, never silently dropped.
//!
//! **Nothing accepted vanishes.** Where a card's effect is used decides what it can do (an
//! instant damage on an attack, a modifier on worn gear). A game declares, per place, which
//! effects it applies there and checks each parsed effect with [`check_place`], so that an
//! effect the engine would never apply is refused when the catalog is read.

use super::words::Words;
use std::fmt;

/// Catalog numbers stay small, so sums of effects cannot overflow.
pub const LIMIT: i32 = 999;

/// A game's effect vocabulary.
pub trait Vocabulary: Sized + Clone + PartialEq + fmt::Display {
    /// The verbs, for error messages (`damage, ailment, block, roll`).
    const VERBS: &'static str;
    /// Read the arguments of `verb`; `Ok(None)` when `verb` is not in the vocabulary.
    /// `Err` is what was expected (the caller adds where).
    fn read(verb: &str, words: &mut Words<'_>) -> Result<Option<Self>, String>;
}

/// Parse one effect in full (nothing may follow it).
pub fn parse<E: Vocabulary>(text: &str) -> Result<E, String> {
    let mut w = Words::new(text);
    let verb = w.word("an effect").map_err(|_| "an effect".to_string())?;
    match E::read(verb, &mut w)? {
        Some(effect) => {
            if let Some(extra) = w.peek() {
                return Err(format!("end of effect, found `{extra}`"));
            }
            Ok(effect)
        }
        // Prose (a sentence starting with a capital letter, as printed on a card) is card
        // text, exactly as if written `text ...`: catalogs written before the `text` keyword
        // existed keep loading, and their text is still reported unverified where it is used.
        // A lowercase word the vocabulary lacks is most likely a misspelt effect: an error.
        None if verb.starts_with(|c: char| c.is_uppercase()) => {
            match E::read("text", &mut Words::new(text))? {
                Some(effect) => Ok(effect),
                None => Err(format!("an effect ({}), found `{verb}`", E::VERBS)),
            }
        }
        None => Err(format!(
            "an effect ({}), found `{verb}`; write card text the form cannot express as `text ...`",
            E::VERBS
        )),
    }
}

/// Helpers for a vocabulary's `read`: errors as "what was expected, what was found".
pub mod args {
    use super::super::named::Named;
    use super::super::words::Words;
    use super::LIMIT;

    fn found(w: &Words<'_>) -> String {
        w.peek().map(|x| format!("`{x}`")).unwrap_or_else(|| "nothing".into())
    }
    /// A number from -LIMIT to LIMIT.
    pub fn number(w: &mut Words<'_>) -> Result<i32, String> {
        let f = found(w);
        w.number_in(-LIMIT..=LIMIT, "").map_err(|_| format!("a number from -{LIMIT} to {LIMIT}, found {f}"))
    }
    /// A signed number (`+1`, `-6`) from -LIMIT to LIMIT.
    pub fn signed(w: &mut Words<'_>) -> Result<i32, String> {
        let f = found(w);
        match w.signed("") {
            Ok(n) if n.abs() <= LIMIT => Ok(n),
            _ => Err(format!("a signed number like +1 (at most {LIMIT}), found {f}")),
        }
    }
    /// One value of a named enum.
    pub fn named<T: Named>(w: &mut Words<'_>) -> Result<T, String> {
        let f = found(w);
        w.named::<T>().map_err(|_| format!("{}, found {f}", T::expected()))
    }
}

/// What a card does: the effects the engine applies and checks, and the text it cannot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardEffects<E> {
    pub effects: Vec<E>,
    /// Card text the form cannot express, reported unverified when the card is used.
    pub text: Vec<String>,
}

/// The one sentence every game reports for card text it cannot check:
/// ``WHO: `CARD` says "TEXT" (not checked)``. Written piece by piece into a string made at
/// its size: Wild Assent reports every standing text again each time a Creature is slain,
/// and `format!` cost several times more for these plain pieces.
pub fn unverified(who: &str, card: &str, text: &str) -> String {
    const FIXED: usize = ": `".len() + "` says \"".len() + "\" (not checked)".len();
    let mut line = String::with_capacity(who.len() + card.len() + text.len() + FIXED);
    for piece in [who, ": `", card, "` says \"", text, "\" (not checked)"] {
        line.push_str(piece);
    }
    line
}

/// Check that `effect` is one the game applies at `place` (`start`, `self`, `worn gear`):
/// `Err` says so and how to write it instead.
pub fn check_place<E: fmt::Display>(effect: &E, applies: bool, place: &str) -> Result<(), String> {
    if applies {
        Ok(())
    } else {
        Err(format!(
            "`{effect}` has no effect as {place}; write what the card says as `text ...` (reported unverified)"
        ))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_unverified_text_reads_as_one_sentence_made_at_its_size() {
        for (who, card, text, want) in [
            (
                "zaxos",
                "rout",
                "activation: out of turn.",
                "zaxos: `rout` says \"activation: out of turn.\" (not checked)",
            ),
            ("the-arena", "", "", "the-arena: `` says \"\" (not checked)"),
            (
                "kael",
                "soul-feast",
                "health: \"heals\" him",
                "kael: `soul-feast` says \"health: \"heals\" him\" (not checked)",
            ),
        ] {
            let line = super::unverified(who, card, text);
            assert_eq!(line, want);
            assert_eq!(line.len(), line.capacity(), "the line is made at its size");
        }
    }

    use super::*;
    use crate::kit::named::named_enum;

    named_enum! {
        /// Test ailments.
        pub enum Ail ("an ailment") { Burn = "burn", Slow = "slow" }
    }

    #[derive(Debug, Clone, PartialEq)]
    enum Toy {
        Damage(i32),
        Ailment(Ail, i32),
        Roll(i32),
    }

    impl fmt::Display for Toy {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                Toy::Damage(n) => write!(f, "damage {n}"),
                Toy::Ailment(a, n) => write!(f, "ailment {a} {n}"),
                Toy::Roll(n) => write!(f, "roll {n:+}"),
            }
        }
    }

    impl Vocabulary for Toy {
        const VERBS: &'static str = "damage, ailment, roll";
        fn read(verb: &str, w: &mut Words<'_>) -> Result<Option<Toy>, String> {
            Ok(Some(match verb {
                "damage" => Toy::Damage(args::number(w)?),
                "ailment" => Toy::Ailment(args::named(w)?, args::number(w)?),
                "roll" => Toy::Roll(args::signed(w)?),
                _ => return Ok(None),
            }))
        }
    }

    #[test]
    fn effects_parse_round_trip_and_say_what_was_expected() {
        for t in ["damage 6", "ailment burn 2", "roll +1", "roll -2"] {
            assert_eq!(parse::<Toy>(t).unwrap().to_string(), t);
        }
        assert!(parse::<Toy>("heal 3").unwrap_err().contains("text ..."));
        assert_eq!(parse::<Toy>("roll 1").unwrap_err(), "a signed number like +1 (at most 999), found `1`");
        assert_eq!(parse::<Toy>("damage 1000").unwrap_err(), "a number from -999 to 999, found `1000`");
        assert!(parse::<Toy>("ailment cold 1").unwrap_err().starts_with("an ailment (burn, slow)"));
        assert_eq!(parse::<Toy>("damage 2 more").unwrap_err(), "end of effect, found `more`");
        assert!(check_place(&Toy::Damage(1), false, "a start effect").unwrap_err().contains("text"));
        assert_eq!(unverified("B", "mend", "Heal 3 Grit."), "B: `mend` says \"Heal 3 Grit.\" (not checked)");
    }
}
