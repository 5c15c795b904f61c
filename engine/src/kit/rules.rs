//! A game's rule catalog and its interpretations, declared once.
//!
//! [`rules!`] writes each rule's constant, stable id, one line of text and rulebook section
//! together, in rulebook order, and builds the `RULES` table the kernel's `Game::rules`
//! returns. [`Readings`] turns a setup into typed values (a [`Named`] enum per
//! interpretation, numbers within their range), so a game never compares setup strings.

use super::named::Named;
use crate::{ParamSpec, Setup};
use std::borrow::Cow;

/// Declare a game's rules:
///
/// ```text
/// rules! {
///     JOIN = "kf.start.join", "Characters join ... before the fight begins", "STARTING THE FIGHT";
/// }
/// ```
///
/// gives `pub const JOIN: &str = "kf.start.join";` and `pub static RULES: &[RuleInfo]`.
#[allow(unused_macros)]
macro_rules! rules {
    ($( $konst:ident = $id:literal, $text:literal, $section:literal; )*) => {
        $( pub const $konst: &str = $id; )*
        /// Every rule, in the order of the rulebook.
        pub static RULES: &[$crate::RuleInfo] =
            &[ $( $crate::RuleInfo { id: $id, text: $text, section: $section }, )* ];
    };
}
#[allow(unused_imports)]
pub(crate) use rules;

/// A setup's parameters, checked against the game's `ParamSpec`s and read as typed values.
/// Every problem is kept, so `Game::new` reports them all at once.
///
/// A game is built for every session verified, so reading its setup is kept cheap: values
/// sit beside their specs (a default is borrowed, not copied), and a game reads its
/// parameters in the order it declares them, so the spec after the last one read is tried
/// first.
#[derive(Debug, Clone)]
pub struct Readings {
    specs: &'static [ParamSpec],
    values: Vec<Cow<'static, str>>,
    /// Where the next lookup starts.
    next: usize,
    problems: Vec<String>,
}

impl Readings {
    /// Check `setup` against `specs` (unknown names, values not allowed). A value refused
    /// reads as its default, so the reads below still give a value and report nothing twice.
    pub fn new(setup: &Setup, specs: &'static [ParamSpec]) -> Readings {
        let (values, problems) = setup.values(specs);
        Readings { specs, values, next: 0, problems }
    }

    fn raw(&mut self, name: &str) -> &str {
        let n = self.specs.len();
        let found = (0..n).map(|k| (self.next + k) % n).find(|&i| self.specs[i].name == name);
        match found {
            Some(i) => {
                self.next = i + 1;
                &self.values[i]
            }
            None => "",
        }
    }

    /// The value of a named parameter (an interpretation), as its enum. A value the specs
    /// allow but the enum lacks is a bug in the game; it is reported, and `fallback` used.
    pub fn get<T: Named>(&mut self, name: &str, fallback: T) -> T {
        match T::parse(self.raw(name)) {
            Some(v) => v,
            None => {
                let raw = self.raw(name).to_string();
                self.problems.push(format!("`{name}={raw}`: expected {}", T::expected()));
                fallback
            }
        }
    }

    /// A numeric parameter within `min..=max`.
    pub fn number(&mut self, name: &str, min: i32, max: i32, fallback: i32) -> i32 {
        match self.raw(name).parse::<i32>() {
            Ok(n) if (min..=max).contains(&n) => n,
            _ => {
                self.problems.push(format!("`{name}` must be a number from {min} to {max}"));
                fallback
            }
        }
    }

    /// Add a problem of the game's own (a catalog error, a combination it refuses).
    pub fn problem(&mut self, reason: impl Into<String>) {
        self.problems.push(reason.into());
    }

    /// Add several.
    pub fn problems(&mut self, reasons: impl IntoIterator<Item = String>) {
        self.problems.extend(reasons);
    }

    /// `Ok(value)` when the setup was fine, else every reason.
    pub fn finish<T>(self, value: T) -> Result<T, crate::SetupError> {
        if self.problems.is_empty() {
            Ok(value)
        } else {
            Err(crate::SetupError { reasons: self.problems })
        }
    }
}

/// Check a game's parameter table against the enums that read it: every allowed value of
/// `name` parses as `T`, and every `T` is allowed. For a unit test of each game.
pub fn check_reading<T: Named>(specs: &[ParamSpec], name: &str) -> Result<(), String> {
    let spec = specs.iter().find(|s| s.name == name).ok_or(format!("no parameter `{name}`"))?;
    let mut allowed: Vec<&str> = spec.allowed.to_vec();
    let mut names: Vec<&str> = T::NAMES.to_vec();
    allowed.sort_unstable();
    names.sort_unstable();
    if allowed != names {
        return Err(format!("`{name}` allows {allowed:?} but its enum names {names:?}"));
    }
    if T::parse(spec.default).is_none() {
        return Err(format!("`{name}`'s default `{}` is not a value", spec.default));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::named::named_enum;
    use crate::ParamKind;

    named_enum! {
        /// A reading.
        pub enum Scope ("a scope") { Round = "round", NextAttack = "next-attack" }
    }

    rules! {
        ONE = "toy.one", "One thing", "Section 1";
        TWO = "toy.two", "Another", "Section 2";
    }

    const SPECS: &[ParamSpec] = &[
        ParamSpec {
            name: "scope",
            kind: ParamKind::Interpretation,
            allowed: Scope::NAMES,
            default: Scope::Round.name(),
            doc: "",
            section: "",
        },
        ParamSpec {
            name: "cost",
            kind: ParamKind::Interpretation,
            allowed: &["<number>"],
            default: "2",
            doc: "",
            section: "",
        },
    ];

    #[test]
    fn rules_are_declared_once() {
        assert_eq!(ONE, "toy.one");
        assert_eq!(RULES.len(), 2);
        assert_eq!((RULES[1].id, RULES[1].section), (TWO, "Section 2"));
    }

    #[test]
    fn readings_are_typed_and_every_problem_is_kept() {
        let mut r = Readings::new(&Setup::default().with("scope", "next-attack"), SPECS);
        assert_eq!(r.get("scope", Scope::Round), Scope::NextAttack);
        assert_eq!(r.number("cost", 0, 99, 2), 2);
        assert!(r.finish(()).is_ok());
        let mut r = Readings::new(&Setup::default().with("scope", "ever").with("cost", "lots"), SPECS);
        assert_eq!(r.get("scope", Scope::Round), Scope::Round);
        assert_eq!(r.number("cost", 0, 99, 2), 2);
        r.problem("catalog line 1: bad");
        assert_eq!(r.finish(()).unwrap_err().reasons.len(), 3);
        assert_eq!(check_reading::<Scope>(SPECS, "scope"), Ok(()));
        assert!(check_reading::<Scope>(SPECS, "cost").is_err());
    }
}
