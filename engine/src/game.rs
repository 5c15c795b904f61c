//! The `Game` trait: what every game implements so that replay, verification, diff and the
//! command line work on it without knowing it.

use crate::catalog::{GameInfo, ParamSpec, RuleInfo};
use crate::parse_error::ParseError;
use crate::setup::{Setup, SetupError};
use crate::violation::Violation;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

/// A configured game (setup validated, catalog loaded): a pure state machine over events.
///
/// The step function is the single source of truth for every rule: checking a recorded
/// event and applying it are the same code, so they cannot disagree.
pub trait Game: Sized + Clone + Send + Sync + 'static {
    /// Everything on the table. Plain data: no floats, no hash maps, so that its encoding
    /// (and so `digest`) is canonical.
    type State: Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync;
    /// One fact at the table: a random outcome, a decision, or a consequence the players
    /// applied. `Display` prints the notation line that `parse_event` reads back.
    type Event: Clone + PartialEq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned + Send + Sync;

    /// Identity and rules version.
    fn info() -> GameInfo;
    /// Every rule the step function can report, with its source.
    fn rules() -> &'static [RuleInfo];
    /// Every setup parameter and interpretation the game accepts.
    fn params() -> &'static [ParamSpec];
    /// The catalog used when a setup names none.
    fn default_catalog() -> &'static str;
    /// A catalog built into the game (compiled in, so no I/O), by name.
    fn builtin_catalog(name: &str) -> Option<&'static str>;

    /// Check a setup and parse its catalog text, reporting every problem at once.
    fn new(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError>;
    /// The setup this game was built from, defaults filled in.
    fn setup(&self) -> &Setup;
    /// The table before the first event.
    fn initial_state(&self) -> Self::State;

    /// Read one notation line (no comment, not blank) as an event. Syntax only: whether the
    /// event is legal is the step function's business.
    fn parse_event(&self, line: &str) -> Result<Self::Event, ParseError>;

    /// Apply one event. Every broken rule goes to `findings`; an illegal event that can be
    /// applied is applied as played. `Err` means the event cannot be applied at all (it names
    /// a die or a card that does not exist); the state is then unspecified and replay stops.
    fn step(
        &self,
        state: &mut Self::State,
        event: &Self::Event,
        findings: &mut Findings,
    ) -> Result<(), StepError>;

    /// The consequence the rules require next, when the state alone determines it (a
    /// marker move, a defeat, a refill from a known draw is not one: draws are random).
    /// `None` when the next event is a decision or a random outcome.
    fn next_consequence(&self, state: &Self::State) -> Option<Self::Event>;
    /// A decision the rules require before anything else may happen, in a state where
    /// `next_consequence` derives nothing because the choice in it is the player's (Proving
    /// Grounds' replacement under `replacement=mandatory`: which die is not derivable). One
    /// phrase naming it, its notation form with the choice as the notation documents' upper
    /// case placeholder (`replace w -> COLOR`), never a guessed choice. A log that ends here is
    /// incomplete. Default: none (a game whose next event is always free to come).
    fn owed_decision(&self, _state: &Self::State) -> Option<String> {
        None
    }
    /// Whether an event is a consequence (derivable by `next_consequence`) rather than a
    /// decision or a random outcome.
    fn is_consequence(event: &Self::Event) -> bool;
    /// Whether `event`, a decision or a random outcome, may legally come before the
    /// consequences `next_consequence` owes in `state` (a reroll between a roll and its
    /// outcomes). A log being completed (`verify --derive`) then takes it first and derives
    /// the consequences after it. Default: no decision jumps the queue.
    fn precedes_consequences(&self, _state: &Self::State, _event: &Self::Event) -> bool {
        false
    }

    /// The notation at a glance, for a recorder's `help`: one event form a line, its words
    /// then what it means (`draw SLOT CARD   the top card goes to an empty slot`). The first
    /// word of each line is an event word, which a recorder completes. Default: none (the
    /// recorder then points to the game's notation document).
    fn notation_summary() -> &'static str {
        ""
    }

    /// The names a line may use in `state`, for a recorder's completion: the loaded
    /// catalog's card ids, the names at the table. Default: none.
    fn names(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// A readable board for people (several lines).
    fn board(&self, state: &Self::State) -> String;
    /// A flat, stable `key = value` view of the whole state, in a fixed order: what fixtures
    /// assert on and what diff compares field by field.
    fn facts(&self, state: &Self::State) -> Vec<(String, String)>;

    /// A seeded random player: `events` legal events from the initial state, the same for
    /// the same seed on every machine. `None` for a game without a simulator.
    fn simulate(&self, _seed: u64, _events: usize) -> Option<Vec<Self::Event>> {
        None
    }
}

/// What one step found besides the new state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// Rules the event broke.
    pub violations: Vec<Violation>,
    /// Effects the engine applied or skipped without being able to check them (card text
    /// the catalog format cannot express, a weakness the rulebook does not define).
    pub unverified: Vec<String>,
    /// Findings that may follow from an earlier unverified effect (`Violation::uncertain`):
    /// reported, never counted as violations.
    pub uncertain: Vec<Violation>,
}

impl Findings {
    /// Inline, the test only: replay calls it before every event from another crate, and a
    /// call of its own (with the clearing compiled into it) cost more than the three
    /// emptiness tests it almost always ends at.
    #[inline]
    pub fn clear(&mut self) {
        // Replay clears after every event and almost every event is clean: skip the work.
        if !self.is_empty() {
            self.clear_all();
        }
    }
    #[inline(never)]
    fn clear_all(&mut self) {
        self.violations.clear();
        self.unverified.clear();
        self.uncertain.clear();
    }
    /// No violation (uncertain findings and unverified effects do not count).
    pub fn is_clean(&self) -> bool {
        self.violations.is_empty()
    }
    /// Whether there is nothing at all to report.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.violations.is_empty() && self.unverified.is_empty() && self.uncertain.is_empty()
    }
    /// Record a finding: a violation, or an uncertain finding when it names the unverified
    /// effect it may follow from. Cold, as [`StepError`]'s constructors are: the rules' checks
    /// mostly pass, and the optimizer then lays the reporting out of their way.
    #[cold]
    pub fn violate(&mut self, v: Violation) {
        if v.uncertain.is_some() {
            self.uncertain.push(v);
        } else {
            self.violations.push(v);
        }
    }
}

/// An event that cannot be applied to the state at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepError {
    /// The rule the event breaks so badly it cannot be played, when one applies.
    pub rule: Option<&'static str>,
    /// One sentence: what the event names that is not there.
    pub message: String,
}

impl StepError {
    #[cold]
    pub fn new(message: impl Into<String>) -> Self {
        StepError { rule: None, message: message.into() }
    }
    #[cold]
    pub fn rule(rule: &'static str, message: impl Into<String>) -> Self {
        StepError { rule: Some(rule), message: message.into() }
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Some(r) => write!(f, "{r}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StepError {}
