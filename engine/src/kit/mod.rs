//! The kit: what every game needs and no game should write twice. Games import the kernel
//! (`crate::{Game, Findings, ...}`) and the kit, never another game (a tidy test checks it).
//!
//! - [`due`]: the one consequence loop. Obligations are derived from the state by an
//!   ordered chain of "is X due?" predicates; recorded consequences are paired with them,
//!   left-out ones reported once each, and `next_consequence` derived.
//! - [`blame`]: which of several rules a wrong recorded number neglected.
//! - [`taint`]: counting unverified effects, so later findings can be marked uncertain.
//! - [`words`]: the one notation tokenizer (char columns, ids, numbers in range, named words).
//! - [`catalog`]: the one catalog reader (lines, every problem at once, interned [`catalog::Id`]s,
//!   the built-in catalog parsed once).
//! - [`name_ids`]: catalog ids by [`name::Name`], hashed, for look-ups by a recorded name.
//! - [`named`]: `named_enum!`, closed sets of words written once.
//! - [`rules`]: `rules!` (a game's rule catalog) and typed interpretation readings.
//! - [`effect`]: the declarative card-effect form and the unverified-text convention.
//! - [`dice`]: rolls kept highest first, modifiers applied to every use, symbol dice.
//! - [`deck`]: decks of hidden order (reveals checked against the deck) and markets.
//! - [`track`]: bounded counters.
//! - [`grid`]: fields, facings, arcs, Chebyshev distance.
//! - [`rng`]: the one seeded generator (splitmix64).
//! - [`facts`]: building the flat facts and the board's small text forms.

pub mod blame;
pub mod catalog;
pub mod deck;
pub mod dice;
pub mod due;
pub mod effect;
pub mod facts;
pub mod grid;
pub mod name;
pub mod name_ids;
pub mod named;
pub mod paths;
pub mod rng;
pub mod rules;
pub mod taint;
pub mod track;
pub mod words;

pub use named::Named;
