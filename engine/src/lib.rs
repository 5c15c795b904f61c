//! arbiter's rules: the kernel every game implements and one module per game.
//!
//! **Invariant:** this crate does no I/O and knows nothing of sled, files or the command
//! line. Catalog text reaches it as a `&str`; events and states leave it as values.
//!
//! The kernel is the [`Game`] trait: a configured game builds an initial state and steps it
//! one event at a time, returning the violations of that event. Everything generic (replay,
//! diff, fixtures) lives in `arbiter-verify` and reaches a concrete game through
//! [`dispatch`], so adding a game touches only this crate's registry.
//!
//! What games share beyond the kernel lives in [`kit`] (the consequence loop, the
//! tokenizer, the catalog reader, dice, decks, tracks, a grid, ...); [`testkit`] is the
//! given / when / then helper for rule tests over any game.

mod catalog;
mod digest;
mod game;
mod parse_error;
mod registry;
mod setup;
mod violation;

pub mod kit;
pub mod testkit;

pub mod flame_and_forge;
pub mod keridwyn;
pub mod proving_grounds;
pub mod wild_assent;

pub use catalog::{GameInfo, ParamKind, ParamSpec, RuleInfo};
pub use digest::{digest, Digest};
pub use game::{Findings, Game, StepError};
pub use parse_error::ParseError;
pub use registry::{dispatch, game_ids, games, GameVisitor};
pub use setup::{Setup, SetupError};
pub use violation::Violation;
