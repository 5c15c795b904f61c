//! Everything on the table, as small plain data.
//!
//! No heap: dice live in fixed arrays, cards are catalog indices, the deck is a bitset.
//! Stepping an event therefore never allocates on the legal path, and two equal tables
//! encode (and digest) the same way.

use super::dice::{Color, ColorCounts, Dice, Die};
use super::modules::ModState;
use serde::{Deserialize, Serialize};

/// Number of enemy slots around the encounter board.
pub const SLOTS: usize = 6;
/// Spaces on the exhaustion track.
pub const EXHAUSTION: usize = 3;
/// Discard pile entries remembered in order (a game ends at eight defeats).
pub const MAX_DISCARD: usize = 32;

/// Where the round is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Before a roll: the setup's six draws, or step 3's refills.
    Draw,
    /// Step 1: rolled; rerolls allowed until `stop`.
    Roll,
    /// Step 2A: battle markers move, in slot order.
    Move,
    /// Step 2B: defeats, wounds and replacements.
    Check,
    /// The game is won or lost.
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Draw => "draw",
            Phase::Roll => "roll",
            Phase::Move => "move",
            Phase::Check => "check",
            Phase::Over => "over",
        }
    }
}

/// How the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Playing,
    Won,
    Lost,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Playing => "playing",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
        }
    }
}

/// One slot of the encounter board: the enemy card (catalog index) and its battle marker
/// (0 = bottom space).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Slot {
    pub card: Option<u8>,
    pub marker: u8,
}

/// The table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub outcome: Outcome,
    /// Rounds started (a `roll` starts one); 0 during setup.
    pub round: u16,
    /// Rerolls made this round (the Rolls tracker module will limit them).
    pub rerolls: u16,
    /// The time (`t=`) of this round's roll, when the one-minute timer started (0 when the
    /// roll carried no time).
    pub timer_start: u16,
    /// The latest time recorded since this round's roll: a later event may not go below it.
    pub clock: u16,
    pub slots: [Slot; SLOTS],
    /// Dice not on the exhaustion track, each with the face it shows; they are assigned to
    /// the slot matching that face during step 2. Kept sorted.
    pub pool: Dice,
    /// The exhaustion track, index 0 the top space.
    pub exhaustion: [ColorCounts; EXHAUSTION],
    /// The health marker's space, 1 = start (top left).
    pub health: u8,
    /// The colored dice still stacked on the health track.
    pub stack: ColorCounts,
    /// Spaces the stack has moved down from the ring space. The ring space itself is an
    /// interpretation (`rings`), so the table holds only the distance: two readings of it
    /// start from the same state and split where a wound first tells them apart.
    pub stack_moved: u8,
    /// A replacement is owed: the last wound moved the health marker into the stack's space.
    pub replace_owed: bool,
    /// Slots whose marker was moved (or held) this round, bit i = slot i+1.
    pub moved: u8,
    /// Slots before this index (0-based) have had their turn to move this round.
    pub cursor: u8,
    /// Cards drawn so far (in play or discarded), bit per catalog index.
    pub drawn: [u64; 4],
    /// Enemies defeated, in order (catalog indices; the first `MAX_DISCARD` are kept).
    pub discard: [u8; MAX_DISCARD],
    pub defeated: u8,
    /// The modules' part of the table (idle when no module is in play).
    pub mods: ModState,
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

impl State {
    /// The table after setup steps 5-8: health on its start space, three white dice on the
    /// exhaustion track, the colored stack on the ring space, a pool of one green, one yellow,
    /// one blue and five white dice. The six enemies are drawn by `draw` events.
    pub fn new() -> State {
        let mut pool = Dice::new();
        for c in [Color::White, Color::White, Color::White, Color::White, Color::White] {
            pool.push(Die::new(0, c));
        }
        for c in Color::COLORED {
            pool.push(Die::new(0, c));
        }
        let white = ColorCounts([1, 0, 0, 0]);
        State {
            phase: Phase::Draw,
            outcome: Outcome::Playing,
            round: 0,
            rerolls: 0,
            timer_start: 0,
            clock: 0,
            slots: [Slot::default(); SLOTS],
            pool,
            exhaustion: [white; EXHAUSTION],
            health: 1,
            stack: ColorCounts([0, 1, 1, 1]),
            stack_moved: 0,
            replace_owed: false,
            moved: 0,
            cursor: 0,
            drawn: [0; 4],
            discard: [0; MAX_DISCARD],
            defeated: 0,
            mods: ModState::default(),
        }
    }

    /// The health space the colored stack sits on, given the ring space of the setup.
    pub fn stack_at(&self, rings: u8) -> u8 {
        rings.saturating_add(self.stack_moved)
    }

    pub fn is_drawn(&self, card: u8) -> bool {
        self.drawn[(card / 64) as usize] & (1 << (card % 64)) != 0
    }

    pub fn mark_drawn(&mut self, card: u8) {
        self.drawn[(card / 64) as usize] |= 1 << (card % 64);
    }

    pub fn drawn_count(&self) -> u32 {
        self.drawn.iter().map(|w| w.count_ones()).sum()
    }

    pub fn has_moved(&self, slot: usize) -> bool {
        self.moved & (1 << slot) != 0
    }

    /// The defeated enemies remembered, in order.
    pub fn discard_pile(&self) -> &[u8] {
        &self.discard[..(self.defeated as usize).min(MAX_DISCARD)]
    }
}
