//! `named_enum!`: a closed set of words a notation or catalog names (`burn`, `might`,
//! `cage`), as an enum with its names written once.
//!
//! Every game has a few of these (skills, ailments, colours, facings). The macro gives each
//! the same surface: `ALL`, `NAMES`, `name()` (a `const fn`, so a `ParamSpec` can quote a
//! default), `parse()`, `index()`, `Display`, `FromStr`, serde by variant name, and the
//! [`Named`] trait the tokenizer and the setup readings use.

use std::fmt;

/// A closed set of named values.
pub trait Named: Sized + Copy + Eq + fmt::Debug + 'static {
    /// Every value, in declaration order.
    const ALL: &'static [Self];
    /// Every value's name, in the same order.
    const NAMES: &'static [&'static str];
    /// What one value is called in an error message (`a skill`).
    const WHAT: &'static str;
    /// The value's name as notation writes it.
    fn name(self) -> &'static str;
    /// The value with this name.
    fn parse(word: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == word)
    }
    /// Position in `ALL`, for arrays indexed by value.
    fn index(self) -> usize {
        Self::ALL.iter().position(|v| *v == self).unwrap_or(0)
    }
    /// `a skill (might, finesse, wit)`: what a parser expected.
    fn expected() -> String {
        format!("{} ({})", Self::WHAT, Self::NAMES.join(", "))
    }
}

/// Declare a named enum:
///
/// ```text
/// named_enum! {
///     /// The three skills.
///     pub enum Skill ("a skill") { Might = "might", Finesse = "finesse", Wit = "wit" }
/// }
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )+ ];
            /// Every value's name, in the same order.
            pub const NAMES: &'static [&'static str] = &[ $( $word, )+ ];
            /// The value's name as notation writes it.
            pub const fn name(self) -> &'static str {
                match self { $( $name::$variant => $word, )+ }
            }
            /// The value with this name.
            pub fn parse(word: &str) -> Option<$name> {
                match word { $( $word => Some($name::$variant), )+ _ => None }
            }
            /// Position in `ALL`.
            pub const fn index(self) -> usize {
                self as usize
            }
        }

        impl $crate::kit::named::Named for $name {
            const ALL: &'static [$name] = $name::ALL;
            const NAMES: &'static [&'static str] = $name::NAMES;
            const WHAT: &'static str = $what;
            fn name(self) -> &'static str {
                $name::name(self)
            }
            fn parse(word: &str) -> Option<$name> {
                $name::parse(word)
            }
            fn index(self) -> usize {
                $name::index(self)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<$name, String> {
                $name::parse(s).ok_or_else(|| {
                    format!("expected {}, found `{s}`", <$name as $crate::kit::named::Named>::expected())
                })
            }
        }
    };
}
pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    use super::Named;

    named_enum! {
        /// A test set.
        pub enum Colour ("a colour") { Red = "red", DeepBlue = "deep-blue" }
    }

    #[test]
    fn names_round_trip_and_errors_list_every_name() {
        for c in Colour::ALL {
            assert_eq!(Colour::parse(c.name()), Some(*c));
            assert_eq!(c.to_string().parse::<Colour>(), Ok(*c));
        }
        assert_eq!(Colour::DeepBlue.index(), 1);
        assert_eq!(<Colour as Named>::index(Colour::DeepBlue), 1);
        assert_eq!(Colour::parse("green"), None);
        assert_eq!(<Colour as Named>::expected(), "a colour (red, deep-blue)");
        assert!("green".parse::<Colour>().unwrap_err().contains("red, deep-blue"));
        const DEFAULT: &str = Colour::Red.name();
        assert_eq!(DEFAULT, "red");
    }
}
