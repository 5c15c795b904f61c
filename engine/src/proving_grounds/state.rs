//! Everything on the table, as small plain data.
//!
//! No heap: dice live in fixed arrays, cards are catalog indices, the deck is a bitset.
//! Stepping an event therefore never allocates on the legal path, and two equal tables
//! encode (and digest) the same way.
//!
//! The modules' part of the table is one small inline struct per module (`ModState`), each
//! idle (zero) when its module is not in play, so a training game carries a few idle bytes
//! and steps as if they were not there. The rules that change them are in `modules/`.

use super::attack::Expected;
use super::dice::{Color, ColorCounts, Dice, Die};
use crate::kit::named::named_enum;
use crate::kit::taint::Unverified;
use crate::StepError;
use serde::{Deserialize, Serialize};

/// Number of enemy slots around the encounter board.
pub const SLOTS: usize = 6;
/// Spaces on the exhaustion track.
pub const EXHAUSTION: usize = 3;
/// Discard pile entries remembered in order (a game ends at eight defeats).
pub const MAX_DISCARD: usize = 32;

named_enum! {
    /// Where the round is.
    pub enum Phase ("a phase") {
        /// Before a roll: the setup's six draws, or step 3's refills.
        Draw = "draw",
        /// Step 1: rolled; rerolls allowed until `stop`.
        Roll = "roll",
        /// Step 2A: battle markers move, in slot order.
        Move = "move",
        /// Step 2B: defeats, wounds and replacements.
        Check = "check",
        /// The game is won or lost.
        Over = "over",
    }
}

named_enum! {
    /// How the game stands.
    pub enum Outcome ("an outcome") { Playing = "playing", Won = "won", Lost = "lost" }
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
    /// The last wound moved the health marker into the stack's space, but the pool had no
    /// white die to replace (`replace-without-white=skip`): a `replace` now breaks only the
    /// white-die rule, not the rule that a wound must have allowed it.
    pub replace_no_white: bool,
    /// Replacements owed by earlier wounds of this round, the stack already moved down past
    /// them: "The next time you suffer a wound ... you will get to replace a die again"
    /// (l.173-175) gives each wound into the stack its replacement, and nothing says one
    /// lapses when the next wound is resolved, so they may all be made until the round ends.
    pub replace_banked: u8,
    /// Replacements recorded before the wound that allows them, while a marker sat on its
    /// bottom space with its wound not yet resolved and the next wound would enter the stack's
    /// space: each is the replacement of the next wound into the stack (left out, or recorded
    /// after it), which then moves the stack down as a replacement does (audit r6 D12).
    #[serde(default)]
    pub replace_ahead: u8,
    /// Replacements the round's close counted declined (`checks::close_checks`): a `replace`
    /// recorded after `recover`, before the next roll, is the late record of one (audit r6 D10).
    #[serde(default)]
    pub replace_declined: u8,
    /// The round whose enemy abilities were reported (at its first resolution): an ability
    /// may bear on any attack of the round, so it is reported once, for every enemy in play.
    pub abilities_round: u16,
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
    /// Unverified effects reported so far (their ordinals name them in uncertain findings).
    pub unverified: Unverified,
    /// The last unverified effect this round that may have changed the table: findings until
    /// the round ends may follow from it.
    pub taint: Option<u32>,
    /// Dice a roll after an unverified effect held beyond the pool (`extra`) or lacked
    /// (`missing`): the effect's, for its round; its recovery gives the pool back what the
    /// verified rules say.
    pub effect_extra: ColorCounts,
    pub effect_missing: ColorCounts,
    /// Slots whose marker a round with an unverified effect left on a top or bottom space,
    /// unresolved (bit i = slot i+1), and the ordinal of that effect: where the marker really
    /// is depends on what the effect did ("Ignore the next wound"), so findings about that
    /// enemy's resolution are uncertain until its marker is placed again.
    pub marker_unknown: u8,
    pub marker_unknown_ordinal: [u32; SLOTS],
    /// An unverified text reported since the last recovery speaks of exhausting a die (the
    /// Poisoner's "exhaust one extra die"): an `exhaust` in its round is what it may do.
    pub exhaust_named: bool,
    /// While `apply_tainted` replays an event after an unverified effect (it clears `taint`
    /// for that), the effect's ordinal: a consequence the log left out is then not applied
    /// (`certain_about`). Set and cleared within one step, so never part of a stored table.
    #[serde(skip)]
    pub tainted_event: Option<u32>,
    /// Consequences the log left out that were made where their absence showed (one omission,
    /// one finding): a record of one of them that comes later is the log's record of what was
    /// made, and is not applied again (`step::late_record`).
    pub made: Made,
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
            replace_no_white: false,
            replace_banked: 0,
            replace_ahead: 0,
            replace_declined: 0,
            abilities_round: 0,
            moved: 0,
            cursor: 0,
            drawn: [0; 4],
            discard: [0; MAX_DISCARD],
            defeated: 0,
            mods: ModState::default(),
            unverified: Unverified::default(),
            taint: None,
            effect_extra: ColorCounts::default(),
            effect_missing: ColorCounts::default(),
            marker_unknown: 0,
            marker_unknown_ordinal: [0; SLOTS],
            exhaust_named: false,
            tainted_event: None,
            made: Made::default(),
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

    /// The enemy card in slot `i` (0-based), or the error of an event naming an empty slot.
    pub fn enemy_in(&self, i: usize) -> Result<u8, StepError> {
        self.slots[i].card.ok_or_else(|| StepError::new(format!("slot {} holds no enemy", i + 1)))
    }

    pub fn has_moved(&self, slot: usize) -> bool {
        self.moved & (1 << slot) != 0
    }

    /// The defeated enemies remembered, in order.
    pub fn discard_pile(&self) -> &[u8] {
        &self.discard[..(self.defeated as usize).min(MAX_DISCARD)]
    }
}

/// The consequences of this round the log left out and the engine made where their absence
/// showed (reported once there, as `kit::due` does): each stays here until the log's own late
/// record of it comes (which is then the record of what was made: no second finding, not
/// applied again) or the next round starts. Empty on the legal path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Made {
    /// Slot i's marker turn, made as the rules required it (`markers::report_skipped_moves`).
    pub turns: [Option<Expected>; SLOTS],
    /// Slot i's defeat or wound, resolved at the round's close (`checks::close_checks`).
    pub checks: [Option<MadeCheck>; SLOTS],
    /// The round's recovery, made at the roll or draw that showed it missing: a `recover`
    /// recorded before the next round's markers move is its late record.
    pub recovery: bool,
    /// The moon's move (its slot, 1-6; 0 none), made when the checks started.
    pub moon: u8,
    /// The chariot's resolution (met or not), made at the first marker's turn.
    pub chariot: Option<bool>,
    /// Slots whose turn was recorded otherwise than the rules require and applied as they
    /// require (bit i = slot i+1): a defeat or wound that turn leads to, left out by a table
    /// that went by its own record, is made at the round's close with no second finding.
    pub corrected: u8,
    /// The sun's borrow, made at the round's close with the dial's first color.
    pub borrow: Option<Color>,
    /// Something above is set (kept by `note` and `settle`), so that the step's legal path
    /// asks one byte rather than comparing the whole record.
    pub pending: bool,
}

impl Made {
    /// Nothing made is waiting for its late record.
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.pending
    }

    /// Something was just made (set by its caller).
    #[inline]
    pub fn note(&mut self) {
        self.pending = true;
    }

    /// After a late record was taken: `pending` again says whether anything is left.
    pub fn settle(&mut self) {
        self.pending = false;
        self.pending = *self != Made::default();
    }
}

/// A defeat or wound made at the round's close.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MadeCheck {
    Defeat,
    /// The die sent to the exhaustion track (the one `next_consequence` derives).
    Wound(Color),
}

/// The modules' part of the table: one struct per module, idle when it is not in play.
/// Slots are bits (bit i = slot i+1); module cards are catalog indices and bitsets over them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModState {
    pub shields: ShieldsTable,
    pub sun_moon: SunMoonTable,
    pub conspirators: ConspiratorsTable,
    pub dragonling: DragonlingTable,
    pub chariots: ChariotsTable,
    pub inspiration: InspirationTable,
    pub rolls: RollsTable,
}

/// Shields: the slots whose enemy carries a shield token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShieldsTable {
    pub shielded: u8,
}

/// Sun and Moon: the dial, the dice borrowed from it, and this round's sun and moon steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SunMoonTable {
    /// Slots whose marker moved up this round (a hit on that enemy), for the sun position.
    pub hits: u8,
    /// The slot Maia faces this round (1-6), 0 before the dial is turned.
    pub facing: u8,
    /// The enemy card faced this round and the one faced last round ("Cannot face the same
    /// enemy two rounds in a row").
    pub faced_card: Option<u8>,
    pub faced_last: Option<u8>,
    /// The colored dice on the dial.
    pub dial: ColorCounts,
    /// Dice borrowed this round: in the pool next round, back to the dial at its recovery.
    pub borrowed_new: ColorCounts,
    /// Dice borrowed last round: back to the dial at this round's recovery.
    pub borrowed: ColorCounts,
    /// Under `sun-borrow=at-once`, the dice on the exhaustion track's top space when this
    /// round's borrowed die joined the pool, and the same for last round's: exhausted before
    /// it joined (a chariot's die, a wound recorded before the borrow), so not the borrowed
    /// die whichever `effect-die-return` says.
    pub top_before_borrow_new: ColorCounts,
    pub top_before_borrow: ColorCounts,
    pub borrow_done: bool,
    pub moon_done: bool,
    /// The checks started with the borrow owed (reported then, like a skipped marker move): a
    /// borrow recorded later is late, not a second one.
    pub borrow_missed: bool,
}

/// Conspirators: the conspirator die, and the cards revealed and active.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ConspiratorsTable {
    /// This round's conspirator die (0 = not rolled yet).
    pub die: u8,
    /// Revealed conspirators, and those active this round (bit per catalog index).
    pub revealed: u32,
    pub active: u32,
    /// Conspirators to reveal for the defeats so far (while any remain); those of the setup
    /// are counted from the setup (`ProvingGrounds::reveals_owed`).
    pub reveal_owed: u8,
    /// Conspirators revealed this round for a defeat the log had not recorded yet (the
    /// marker was on its top space): that defeat, made or recorded later, owes no new one.
    pub revealed_ahead: u8,
    /// An active conspirator's card text, reported unverified, whose effect has not yet been
    /// able to act this round: its ordinal, and whether it waits for the round's first wound
    /// (a text opening "When you suffer a wound") rather than the next event.
    pub text_waits: Option<u32>,
    pub text_at_wound: bool,
}

/// Dragonling: the dragonling die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DragonlingTable {
    /// The dragonling die's face this round (0 = not rolled).
    pub face: u8,
    /// The previous event rolled or rerolled dice, so the dragonling die may go with it.
    pub may_roll: bool,
    /// The die's absence from the roll was already reported this round (at a reroll).
    pub missed: bool,
    /// Slots whose attack this round met an unverified weakness (bit i = slot i+1), and the
    /// ordinal of each one's unverified report: only that enemy's resolution is uncertain.
    pub weak: u8,
    pub weak_ordinal: [u32; SLOTS],
}

/// Chariots: the chariot in play, the dice on it, and the reserve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ChariotsTable {
    /// The chariot in play (catalog index) and the chariot cards drawn so far.
    pub chariot: Option<u8>,
    pub drawn: u32,
    /// The dice placed on the chariot, in canonical order.
    pub dice: Dice,
    /// The chariot in play was resolved (met or activated) this round.
    pub resolved: bool,
    /// Dice of met chariots, back to the pool at recovery.
    pub reserve: ColorCounts,
    pub met: u8,
}

/// Inspiration: the cards played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct InspirationTable {
    /// Cards played (bit per catalog index).
    pub played: u32,
    /// A card allows rerolling one single this round.
    pub single_reroll: bool,
}

/// The Rolls tracker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RollsTable {
    /// Rerolls left.
    pub left: u8,
}
