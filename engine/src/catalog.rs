//! The static description of a game: its identity, its rule catalog and its parameters.
//!
//! A rule id is stable forever once shipped: fixtures, JUnit reports and users' notes cite
//! it. Interpretations are parameters too, so a disputed reading is replayed by changing one
//! value rather than by editing code.

/// Who a game is and which version of its rules this build implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// Stable id used in headers, sessions and on the command line (`proving-grounds`).
    pub id: &'static str,
    /// Human name (`Proving Grounds`).
    pub name: &'static str,
    /// The rulebook file the rule sections refer to.
    pub rulebook: &'static str,
    /// Bumped whenever a change to the rules can change the outcome of a stored session.
    pub rules_version: u32,
}

/// One rule of a game's catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    /// Stable id, `game.area.rule` (`pg.resolve.single-moves-down`).
    pub id: &'static str,
    /// One line saying what the rule requires.
    pub text: &'static str,
    /// Where the rulebook says it (section heading, or "Reference card: Step 2").
    pub section: &'static str,
}

/// Whether a parameter describes the table (setup) or a reading of unclear rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A choice the players make before the game (modules, track sizes).
    Setup,
    /// A named reading of a passage the rulebook leaves silent or ambiguous.
    Interpretation,
}

/// A named parameter a game accepts in its setup (`--setup` / `--variant NAME=VALUE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    /// The values accepted, as shown to users (`"any"`, `"a number 4-20"`, or a list).
    pub allowed: &'static [&'static str],
    pub default: &'static str,
    /// What the parameter decides, and for an interpretation why the rulebook is unclear
    /// (quoting the passage).
    pub doc: &'static str,
    /// The rulebook section the parameter concerns.
    pub section: &'static str,
}
