//! The module cards as data: conspirators, chariots and inspiration cards, each with the
//! effect the catalog gives it.
//!
//! The rulebook prints none of these cards. An effect is either one the engine can apply
//! and check (a small closed list, parsed from the catalog) or free text, which the engine
//! records and reports as unverified (DESIGN principle 5).
//!
//! Catalog lines (inside `[conspirators]`, `[chariots]`, `[inspiration]` sections):
//!
//! ```text
//! # id        | name        | die | effect           (conspirators)
//! vizier      | The Vizier  | 3   | require +1
//! # id        | name        | condition | effect     (chariots)
//! war-chariot | War Chariot | 5 5       | health -1
//! # id        | name        | effect                 (inspiration)
//! second-wind | Second Wind | rolls +2
//! ```
//!
//! Effects the engine applies: conspirators `require +N`, `no-rerolls`; chariots `health -N`,
//! `markers -N`, `shield N`; inspiration `rolls +N`, `reroll-single`, `heal N`, and the two
//! played on one enemy, whose slot the log names (`inspire true-aim 3`): `marker +N`,
//! `unshield`.

use super::dice::Color;
use crate::kit::effect::{self, Vocabulary};
use crate::kit::words::Words;
use std::fmt;

/// What a card does, when the engine can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Every space of every enemy needs this many more dice this round (conspirators).
    RequireMore(u8),
    /// No set may be rerolled this round (conspirators).
    NoRerolls,
    /// The health marker moves down this many spaces (chariots).
    Health(u8),
    /// The Rolls tracker gains this many rerolls (inspiration).
    Rolls(u8),
    /// One single may be rerolled this round (inspiration).
    RerollSingle,
    /// The battle marker of the enemy the card is played on moves up this many spaces
    /// (inspiration, `marker +N`; the log names the enemy: `inspire CARD SLOT`).
    MarkerUp(u8),
    /// The enemy the card is played on loses its shield (inspiration, `unshield`).
    Unshield,
    /// The health marker moves back up this many spaces, not past the start (inspiration,
    /// `heal N`).
    Heal(u8),
    /// Every battle marker moves down this many spaces (chariots, `markers -N`).
    MarkersDown(u8),
    /// The enemy in this slot gains a shield (chariots, `shield N`).
    ShieldSlot(u8),
    /// Card text the engine cannot apply: recorded and reported as unverified.
    Text(String),
}

impl Effect {
    /// Whether the card is played on one enemy, which the log names (`inspire CARD SLOT`).
    pub fn targets_an_enemy(&self) -> bool {
        matches!(self, Effect::MarkerUp(_) | Effect::Unshield)
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::RequireMore(n) => write!(f, "require +{n}"),
            Effect::NoRerolls => f.write_str("no-rerolls"),
            Effect::Health(n) => write!(f, "health -{n}"),
            Effect::Rolls(n) => write!(f, "rolls +{n}"),
            Effect::RerollSingle => f.write_str("reroll-single"),
            Effect::MarkerUp(n) => write!(f, "marker +{n}"),
            Effect::Unshield => f.write_str("unshield"),
            Effect::Heal(n) => write!(f, "heal {n}"),
            Effect::MarkersDown(n) => write!(f, "markers -{n}"),
            Effect::ShieldSlot(n) => write!(f, "shield {n}"),
            Effect::Text(t) => write!(f, "text {t}"),
        }
    }
}

impl Vocabulary for Effect {
    const VERBS: &'static str =
        "require +N, no-rerolls, health -N, markers -N, shield SLOT, rolls +N, reroll-single, marker +N, unshield, heal N, text ...";

    fn read(verb: &str, w: &mut Words<'_>) -> Result<Option<Effect>, String> {
        /// A count 1-255 with the sign the verb writes (`+1`, `-2`), or none.
        fn count(w: &mut Words<'_>, sign: Option<char>) -> Result<u8, String> {
            let found = w.peek().map(|x| format!("`{x}`")).unwrap_or_else(|| "nothing".into());
            let word = w.word("").map_err(|_| format!("a number, found {found}"))?;
            let digits = match sign {
                Some(c) => word.strip_prefix(c),
                None => Some(word),
            };
            let what = match sign {
                Some(c) => format!("a number 1-255 written `{c}N`"),
                None => "a number 1-255".to_string(),
            };
            digits
                .and_then(|d| d.parse::<u8>().ok())
                .filter(|&n| n > 0)
                .ok_or(format!("{what}, found {found}"))
        }
        Ok(Some(match verb {
            "require" => Effect::RequireMore(count(w, Some('+'))?),
            "no-rerolls" => Effect::NoRerolls,
            "health" => Effect::Health(count(w, Some('-'))?),
            "markers" => Effect::MarkersDown(count(w, Some('-'))?),
            "shield" => Effect::ShieldSlot(w.number_in(1..=6, "").map_err(|_| "a slot 1-6".to_string())?),
            "rolls" => Effect::Rolls(count(w, Some('+'))?),
            "reroll-single" => Effect::RerollSingle,
            "marker" => Effect::MarkerUp(count(w, Some('+'))?),
            "unshield" => Effect::Unshield,
            "heal" => Effect::Heal(count(w, None)?),
            "text" => match w.rest() {
                "" => return Err("the card's text after `text`".into()),
                t => Effect::Text(t.to_string()),
            },
            _ => return Ok(None),
        }))
    }
}

impl Effect {
    /// Whether a card of `kind` can carry this effect (card text any kind can).
    fn fits(&self, kind: CardKind) -> bool {
        match self {
            Effect::Text(_) => true,
            Effect::RequireMore(_) | Effect::NoRerolls => kind == CardKind::Conspirator,
            Effect::Health(_) | Effect::MarkersDown(_) | Effect::ShieldSlot(_) => kind == CardKind::Chariot,
            Effect::Rolls(_)
            | Effect::RerollSingle
            | Effect::MarkerUp(_)
            | Effect::Unshield
            | Effect::Heal(_) => kind == CardKind::Inspiration,
        }
    }
}

/// Which kind of card an effect is written on: each kind accepts its own effects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardKind {
    Conspirator,
    Chariot,
    Inspiration,
}

impl CardKind {
    fn what(self) -> &'static str {
        match self {
            CardKind::Conspirator => "a conspirator's effect",
            CardKind::Chariot => "a chariot's effect",
            CardKind::Inspiration => "an inspiration card's effect",
        }
    }
}

/// Parse an effect in the declarative form (`kit::effect`): one the engine applies for this
/// kind of card, or `text ...`, the card's words, reported unverified where the card is used.
/// Anything else is a catalog error, so nothing a catalog says silently vanishes.
pub fn parse_effect(kind: CardKind, text: &str) -> Result<Effect, String> {
    let effect = effect::parse::<Effect>(text)?;
    effect::check_place(&effect, effect.fits(kind), kind.what())?;
    Ok(effect)
}

/// A conspirator card: active in a round whose conspirator die shows `die`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conspirator {
    pub id: String,
    pub name: String,
    pub die: u8,
    pub effect: Effect,
}

/// One die a chariot's defeat condition asks for: a face and/or a color (`5`, `6b`, `*`, `*g`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DieSpec {
    pub face: Option<u8>,
    pub color: Option<Color>,
}

impl DieSpec {
    pub fn matches(self, value: u8, color: Color) -> bool {
        self.face.is_none_or(|f| f == value) && self.color.is_none_or(|c| c == color)
    }

    /// More specific specs are filled first, so a die that fits a narrow spec is not spent
    /// on a wide one.
    fn rank(self) -> u8 {
        u8::from(self.face.is_none()) * 2 + u8::from(self.color.is_none())
    }

    pub fn parse(word: &str) -> Option<DieSpec> {
        let b = word.as_bytes();
        let face = match b.first()? {
            b'*' => None,
            v @ b'1'..=b'6' => Some(v - b'0'),
            _ => return None,
        };
        let color = match b.len() {
            1 => None,
            2 => Some(Color::from_letter(b[1]).filter(|&c| c != Color::White)?),
            _ => return None,
        };
        Some(DieSpec { face, color })
    }
}

impl fmt::Display for DieSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.face {
            Some(v) => write!(f, "{v}")?,
            None => f.write_str("*")?,
        }
        if let Some(c) = self.color {
            f.write_str(c.suffix())?;
        }
        Ok(())
    }
}

/// A chariot card: the dice that defeat it, and what it does when they are not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chariot {
    pub id: String,
    pub name: String,
    /// Most specific first (see `DieSpec::rank`).
    pub condition: Vec<DieSpec>,
    pub effect: Effect,
}

impl Chariot {
    /// Assign `dice` (value, color) to the condition's specs, most specific spec first,
    /// as many as can be: a die that finds no free spec may take one another die holds if
    /// that die can move to another spec (a matching, not a greedy fill: `5 *g` is met by a
    /// green 5 and a yellow 5 in either order). Returns (specs left unfilled, dice that
    /// filled nothing) as bitsets.
    pub fn fill(&self, dice: impl Iterator<Item = (u8, Color)>) -> (u32, u32) {
        let dice: Vec<(u8, Color)> = dice.collect();
        let mut owner: Vec<Option<usize>> = vec![None; self.condition.len()];
        let mut unused = 0u32;
        for k in 0..dice.len() {
            let mut seen = 0u32;
            if !self.place(&dice, k, &mut owner, &mut seen) {
                unused |= 1 << k;
            }
        }
        let filled = owner.iter().enumerate().filter(|(_, o)| o.is_some()).fold(0u32, |m, (j, _)| m | 1 << j);
        let all = (1u32 << self.condition.len()) - 1;
        (all & !filled, unused)
    }

    /// Place die `k`: on the first free spec it matches, else on a matching spec whose die can
    /// be placed elsewhere (an augmenting path; `seen` keeps each spec tried once).
    fn place(&self, dice: &[(u8, Color)], k: usize, owner: &mut [Option<usize>], seen: &mut u32) -> bool {
        let (v, c) = dice[k];
        let matching = |j: usize| self.condition[j].matches(v, c);
        if let Some(j) = (0..owner.len()).find(|&j| owner[j].is_none() && matching(j)) {
            owner[j] = Some(k);
            return true;
        }
        for j in 0..owner.len() {
            if *seen & (1 << j) != 0 || !matching(j) {
                continue;
            }
            *seen |= 1 << j;
            if let Some(other) = owner[j] {
                if self.place(dice, other, owner, seen) {
                    owner[j] = Some(k);
                    return true;
                }
            }
        }
        false
    }

    pub fn condition_text(&self) -> String {
        let words: Vec<String> = self.condition.iter().map(|s| s.to_string()).collect();
        words.join(" ")
    }
}

/// Sort a condition most specific first.
pub fn sort_condition(specs: &mut [DieSpec]) {
    specs.sort_by_key(|s| s.rank());
}

/// An inspiration card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspiration {
    pub id: String,
    pub name: String,
    pub effect: Effect,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_parse_per_card_kind_and_text_is_written_as_such() {
        assert_eq!(parse_effect(CardKind::Conspirator, "require +1"), Ok(Effect::RequireMore(1)));
        assert_eq!(parse_effect(CardKind::Chariot, "health -2"), Ok(Effect::Health(2)));
        assert_eq!(parse_effect(CardKind::Inspiration, "rolls +3"), Ok(Effect::Rolls(3)));
        assert_eq!(parse_effect(CardKind::Inspiration, "marker +1"), Ok(Effect::MarkerUp(1)));
        assert_eq!(parse_effect(CardKind::Inspiration, "heal 1"), Ok(Effect::Heal(1)));
        assert_eq!(parse_effect(CardKind::Chariot, "markers -1"), Ok(Effect::MarkersDown(1)));
        assert_eq!(parse_effect(CardKind::Chariot, "shield 2"), Ok(Effect::ShieldSlot(2)));
        assert_eq!(
            parse_effect(CardKind::Chariot, "text Move a marker."),
            Ok(Effect::Text("Move a marker.".into()))
        );
        // A sentence as printed on the card is card text, as if written `text ...`.
        assert_eq!(
            parse_effect(CardKind::Inspiration, "Heal one space."),
            Ok(Effect::Text("Heal one space.".into()))
        );
        for e in ["marker +2", "unshield", "heal 1", "require +2", "text Say so."] {
            let kind = if e.starts_with("require") { CardKind::Conspirator } else { CardKind::Inspiration };
            assert_eq!(parse_effect(kind, e).map(|x| x.to_string()).as_deref(), Ok(e));
        }
        // Nothing a catalog says vanishes: a misspelt effect, a bad number, or an
        // effect another kind of card carries are refused, each saying what was expected.
        for (kind, bad, says) in [
            (CardKind::Chariot, "shield 7", "a slot 1-6"),
            (CardKind::Chariot, "rolls +3", "no effect as a chariot's effect"),
            (CardKind::Conspirator, "require 1", "written `+N`"),
            (CardKind::Inspiration, "helth -1", "text ..."),
            (CardKind::Inspiration, "text", "the card's text"),
        ] {
            let err = parse_effect(kind, bad).unwrap_err();
            assert!(err.contains(says), "`{bad}`: {err}");
        }
    }

    #[test]
    fn a_condition_fills_its_narrow_specs_first() {
        let mut condition: Vec<DieSpec> = ["*", "5b"].iter().filter_map(|w| DieSpec::parse(w)).collect();
        sort_condition(&mut condition);
        let c = Chariot { id: "c".into(), name: "C".into(), condition, effect: Effect::Health(1) };
        assert_eq!(c.fill([(5, Color::Blue), (2, Color::White)].into_iter()), (0, 0));
        assert_eq!(c.fill([(2, Color::White)].into_iter()), (0b01, 0), "the 5b is still missing");
        assert_eq!(c.fill([(2, Color::White), (3, Color::White)].into_iter()).1, 0b10);
    }
}
