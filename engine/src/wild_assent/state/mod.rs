//! What is on the table: the miniatures (in placement order), the obstacles, the activation
//! in progress, the attack being resolved, and for a Hunt encounter the Scout card, the
//! draws, the round's count of activations and the Instinct deck. Plain data (vectors, no
//! hash maps, no floats) so the digest is stable.
//!
//! What the rules require next is never kept as a queue: it is derived from this state
//! (due.rs); the state holds only where each agenda stands (which target of the attack,
//! which of its effects, whether the Bleed has ticked).

pub mod arena;
pub mod momentum;
pub mod reach;
pub mod taint;

use super::cards::{Instinct, Profile, Scout, Skill, UnitCard, UnitKind};
use super::effect::Status;
use crate::kit::catalog::Id;
use crate::kit::deck::Deck;
use crate::kit::grid::{Facing, Pos};
use crate::kit::name::Name;
use crate::kit::named::named_enum;
use crate::kit::paths::{Cells, Place};
use crate::kit::taint::Unverified;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// A miniature's index in `State::units`.
pub type UnitIx = u8;

/// The miniatures of a set (bit `i`: miniature `i`).
pub(crate) fn members(mask: u32) -> impl Iterator<Item = UnitIx> {
    let mut m = mask;
    std::iter::from_fn(move || {
        let i = m.trailing_zeros();
        (m != 0).then(|| {
            m &= m - 1;
            i as UnitIx
        })
    })
}

/// The most miniatures a table holds (sets of them are bits of a `u32`).
pub const MAX_UNITS: usize = 32;

/// A search kept from one event of an activation to the next (a Creature's reach, made for
/// its target and used again for its movement), and whether the table is known to owe no
/// removal (`Clean`). Both are derived from the rest of the state (the reach is checked
/// against it before use; the flag is cleared by every writer of what the removals read),
/// so they are no part of the state's identity: two states compare equal, and serialize the
/// same, with or without them. The third part, the obstacles as sets of fields, is derived
/// the same way ([`ObstacleCells`]), and so is the fourth, what the consequence chain worked
/// out about the attack being resolved ([`AttackKept`]), and the fifth, the fields the
/// miniatures on the board stand on ([`Occupancy`]).
#[derive(Clone)]
pub struct Memo<T>(
    pub(crate) T,
    pub(crate) Clean,
    pub(crate) ObstacleCells,
    pub(crate) AttackKept,
    pub(crate) Occupancy,
);

impl<T: Default> Default for Memo<T> {
    fn default() -> Self {
        Memo(
            T::default(),
            Clean::default(),
            ObstacleCells::default(),
            AttackKept::default(),
            Occupancy::default(),
        )
    }
}

/// The fields of the miniatures on the board, as one set: what every move checked and every
/// Creature search builds its mover from (geometry.rs's `mover`: the fields of every other
/// miniature), and what a line of sight asks field by field. Walking the miniatures for it
/// was a third of building a mover, and a mover is built for every move and every reach.
///
/// Kept only while it is *regular*: every miniature on the board stands on a field of the
/// 16 x 16 square a set holds, and no two on the same one. Then the set less one
/// miniature's field is the set of the others', and a field outside it holds nobody; a
/// table that is not regular (a broken log's move onto an occupied field) is answered by
/// walking the miniatures, as before.
///
/// Worked out from the miniatures when first asked (through the state's shared reference,
/// so in relaxed atomics, as [`Clean`]), and forgotten by `State::units_changed` (which
/// every writer of presence, and every miniature added, calls). The writers of the hot
/// paths update it in place instead: a move (`State::move_unit`, the one writer of a
/// miniature's field), a presence written (`State::set_presence`), a miniature added
/// (`State::put_unit`). A new or decoded state starts unknown. Unoptimised builds check
/// every answer against the walk.
///
/// Beside it, the miniatures on the board of each side, as sets (bit `i`: miniature `i`):
/// what a Creature's pool of targets is made of (`WildAssent::pool_mask`, asked at every
/// target and stop judged). They read only presence and side (written as a miniature is
/// added), so every writer of those forgets them (`State::units_changed`), and they are
/// worked out again when next asked; a presence written or a miniature added
/// (`State::set_presence`, `State::put_unit`) updates them in place.
#[derive(Default)]
pub struct Occupancy {
    words: [AtomicU64; 4],
    /// `OCC_UNKNOWN`, `OCC_REGULAR` (`words` is the set), or `OCC_IRREGULAR`.
    known: AtomicU8,
    /// Per side (`Side::index`), its miniatures on the board, when `sides_known`.
    sides: [AtomicU32; 4],
    sides_known: AtomicBool,
}

const OCC_UNKNOWN: u8 = 0;
const OCC_REGULAR: u8 = 1;
const OCC_IRREGULAR: u8 = 2;

impl Occupancy {
    fn load(&self) -> Cells {
        Cells::from_words(self.words.each_ref().map(|w| w.load(Ordering::Relaxed)))
    }
    fn store(&self, c: Cells) {
        for (w, v) in self.words.iter().zip(c.words()) {
            w.store(v, Ordering::Relaxed);
        }
    }
}

/// The word and bit of field `p` in a set's words ([`Cells::words`]: bit `16 y + x`), when
/// it lies on the 16 x 16 square a set holds.
#[inline]
fn occupancy_bit(p: Pos) -> Option<(usize, u64)> {
    let on_square = (p.x as u16 | p.y as u16) < Cells::SIDE as u16;
    on_square.then(|| {
        let i = ((p.y as usize) << 4) | p.x as usize;
        (i >> 6, 1u64 << (i & 63))
    })
}

impl Clone for Occupancy {
    fn clone(&self) -> Self {
        Occupancy {
            words: self.words.each_ref().map(|w| AtomicU64::new(w.load(Ordering::Relaxed))),
            known: AtomicU8::new(self.known.load(Ordering::Relaxed)),
            sides: self.sides.each_ref().map(|w| AtomicU32::new(w.load(Ordering::Relaxed))),
            sides_known: AtomicBool::new(self.sides_known.load(Ordering::Relaxed)),
        }
    }
}

/// What the consequence chain (due.rs) worked out about the attack being resolved, kept from
/// one check to the next: each consequence of an attack is checked twice (the pending check
/// after the record before it, then the due check of its own record), and each check started
/// again from the state. Two answers are kept:
/// - the attack's statuses and Knockback (`combat::AfterDamage`, as bits), the same for every
///   target and stage of one attack: written where a damage due works them out, which every
///   attack's first consequence is (its stages past damage are reached only by applying a
///   damage due of the same attack), so that a kept word is always the attack's own;
/// - whether a plain Knockback's target took damage: its damage worked out again on the
///   state after its damage record, kept with the target, its place among the targets and
///   its damage then (the only input of that damage a consequence between the two checks
///   writes), and forgotten by the next damage due (another target or another attack).
///
/// Read and written through the state's shared reference, as [`Clean`] is (relaxed atomics:
/// plain moves). Unoptimised builds (tests, fixtures) check every kept answer against the
/// walk it saves.
#[derive(Default)]
pub struct AttackKept {
    /// The `AfterDamage` bits with bit 31 set, or 0 when none is kept.
    after: AtomicU32,
    /// Bit 63 set when kept; the target (bits 48-55), its place (40-47), the answer (32) and
    /// the target's damage (0-31).
    knock: AtomicU64,
}

impl AttackKept {
    const KEPT_AFTER: u32 = 1 << 31;
    const KEPT_KNOCK: u64 = 1 << 63;

    /// The kept `AfterDamage` bits (bit 31 is never one of them).
    pub(crate) fn after(&self) -> Option<u32> {
        let v = self.after.load(Ordering::Relaxed);
        (v & Self::KEPT_AFTER != 0).then_some(v & !Self::KEPT_AFTER)
    }
    /// A damage due worked out the attack's `AfterDamage` (`bits`): keep it, and forget the
    /// Knockback's answer (about another target or attack).
    pub(crate) fn damage_due(&self, bits: u32) {
        self.after.store(bits | Self::KEPT_AFTER, Ordering::Relaxed);
        self.knock.store(0, Ordering::Relaxed);
    }
    /// An attack was declared or rolled: nothing kept is about it yet. The kept answers
    /// are also written over by the attack's first damage due; forgetting here as well makes
    /// a kept answer of the last attack unreachable by construction, not by that order.
    pub(crate) fn forget(&self) {
        self.after.store(0, Ordering::Relaxed);
        self.knock.store(0, Ordering::Relaxed);
    }
    fn knock_key(target: UnitIx, at: usize, damage: i32) -> u64 {
        Self::KEPT_KNOCK | u64::from(target) << 48 | ((at as u64) & 0xff) << 40 | u64::from(damage as u32)
    }
    /// Whether the Knockback's target `target`, the attack's `at`-th, at `damage`, took
    /// damage, if kept.
    pub(crate) fn knock(&self, target: UnitIx, at: usize, damage: i32) -> Option<bool> {
        let v = self.knock.load(Ordering::Relaxed);
        (v & !(1 << 32) == Self::knock_key(target, at, damage) && at < 256).then_some(v & (1 << 32) != 0)
    }
    pub(crate) fn set_knock(&self, target: UnitIx, at: usize, damage: i32, took: bool) {
        self.knock.store(Self::knock_key(target, at, damage) | u64::from(took) << 32, Ordering::Relaxed);
    }
}

impl Clone for AttackKept {
    fn clone(&self) -> Self {
        AttackKept {
            after: AtomicU32::new(self.after.load(Ordering::Relaxed)),
            knock: AtomicU64::new(self.knock.load(Ordering::Relaxed)),
        }
    }
}

/// The first `count` obstacles as the sets a miniature's movement reads (geometry.rs's
/// `mover`, built for every move checked and every Creature search): fields it cannot
/// enter (every obstacle but a Pit), Partial Cover (hopped over), and the Pits; and Full
/// Cover with the hazards, which block a line of sight (`blockers`, `sight`). Obstacles
/// are only ever added ([`State::push_obstacle`], which adds each to these sets too), never
/// moved or removed, so the sets are right while `count` is the number of obstacles; a
/// state that did not build them (decoded: `count` 0 with obstacles) has them worked out
/// from the list each time instead.
#[derive(Clone, Copy, Default)]
pub struct ObstacleCells {
    count: usize,
    cover: Cells,
    partial: Cells,
    pits: Cells,
    full: Cells,
}

impl ObstacleCells {
    fn add(&mut self, p: Pos, o: Obstacle) {
        if o == Obstacle::Pit {
            self.pits.insert(p);
        } else {
            self.cover.insert(p);
            if o == Obstacle::Partial {
                self.partial.insert(p);
            }
        }
        if o.is_full() {
            self.full.insert(p);
        }
        self.count += 1;
    }
}

/// The removal pass (due.rs) found nothing to remove, and nothing it reads has been written
/// since: a miniature's damage, presence, capture token, card or Threat, or a miniature
/// added (a miniature's side and kind, which the pass reads too, are written only as it is
/// added). Set by the pass itself, which reads the state by shared reference (so an atomic
/// flag: the state stays `Sync`; relaxed loads and stores are plain moves); cleared with
/// `State::units_changed` by every writer of those fields. A new or decoded state starts
/// unknown.
///
/// A third value says the pass found nothing and since then only one miniature's damage was
/// written (`State::damage_changed`, the writer of most records: damage, Bleed, a hazard, a
/// capture's damage, a heal): only that miniature's own removal can be due, and the pass
/// looks at it alone. The writer of the damage is told whether the miniature is now at no
/// Health (due.rs, with the damage at hand): when it is not, a pass known clean stays clean
/// and the next check looks at nothing.
///
/// Beside it, whether each side has a miniature on the board, Summons left out (what ends a
/// Hunt encounter, asked before every decision and consequence between activations): it
/// reads only presence, side and kind, so the same writers forget it
/// (`State::units_changed`); a miniature's damage alone leaves it as it is.
#[derive(Default)]
pub struct Clean(AtomicU8, AtomicU8);

/// [`Clean`]'s values: unknown (the pass must run), clean, and from `DAMAGED` on, clean but
/// for the damage of miniature `value - DAMAGED`.
const UNKNOWN: u8 = 0;
const CLEAN: u8 = 1;
const DAMAGED: u8 = 2;

/// [`Clean`]'s second value: unknown (0), or this bit with a bit per side that has a
/// miniature on the board (`FIELDED_SEEKERS`, `FIELDED_CREATURES`).
const FIELDED_KNOWN: u8 = 4;
const FIELDED_SEEKERS: u8 = 1;
const FIELDED_CREATURES: u8 = 2;

impl Clean {
    pub(crate) fn get(&self) -> bool {
        self.0.load(Ordering::Relaxed) == CLEAN
    }
    pub(crate) fn set(&self) {
        self.0.store(CLEAN, Ordering::Relaxed);
    }
    /// The one miniature whose damage alone was written since the pass found nothing.
    pub(crate) fn damaged(&self) -> Option<UnitIx> {
        self.0.load(Ordering::Relaxed).checked_sub(DAMAGED)
    }
    /// Whether the Seekers and the Creatures each have a miniature on the board (Summons left
    /// out), when known since the last writer of presence.
    #[inline]
    pub(crate) fn fielded(&self) -> Option<(bool, bool)> {
        let v = self.1.load(Ordering::Relaxed);
        (v & FIELDED_KNOWN != 0).then_some((v & FIELDED_SEEKERS != 0, v & FIELDED_CREATURES != 0))
    }
    /// [`Clean::fielded`], worked out from the table.
    #[inline]
    pub(crate) fn set_fielded(&self, (seekers, creatures): (bool, bool)) {
        let v = FIELDED_KNOWN
            | if seekers { FIELDED_SEEKERS } else { 0 }
            | if creatures { FIELDED_CREATURES } else { 0 };
        self.1.store(v, Ordering::Relaxed);
    }
}

impl Clone for Clean {
    fn clone(&self) -> Self {
        Clean(AtomicU8::new(self.0.load(Ordering::Relaxed)), AtomicU8::new(self.1.load(Ordering::Relaxed)))
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl<T> Serialize for Memo<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

impl<'de, T: Default> Deserialize<'de> for Memo<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <()>::deserialize(d).map(|()| Memo::default())
    }
}

named_enum! {
    /// Who a miniature fights for.
    pub enum Side ("a side (red, blue)") {
        Seekers = "seekers", Creatures = "creatures", Red = "red", Blue = "blue"
    }
}

impl Side {
    /// The Arena's other side: Blue for Red, Red for Blue (the Arena has only those two).
    pub fn other(self) -> Side {
        if self == Side::Red {
            Side::Blue
        } else {
            Side::Red
        }
    }
}

named_enum! {
    /// The obstacles, by their name on each side of the board.
    pub enum Obstacle ("an obstacle (partial-cover, full-cover, thornbrush, spinning-blades, pit)") {
        Partial = "partial-cover", Full = "full-cover", Thornbrush = "thornbrush",
        Blades = "spinning-blades", Pit = "pit"
    }
}

impl Obstacle {
    /// Thornbrush and Spinning Blades: Full Cover that hurts when pushed into.
    pub fn is_hazard(self) -> bool {
        matches!(self, Obstacle::Thornbrush | Obstacle::Blades)
    }
    /// Full Cover and the hazards: impassable, block line of sight.
    pub fn is_full(self) -> bool {
        self == Obstacle::Full || self.is_hazard()
    }
}

named_enum! {
    /// Whether a miniature is on the board, and how it left.
    pub enum Presence ("a presence") {
        OnBoard = "on-board", Slain = "slain", Injured = "injured", Destroyed = "destroyed",
        Captured = "captured", Escaped = "escaped"
    }
}

named_enum! {
    /// How a miniature at no Health leaves: a Creature or Gladiator is slain, a Seeker
    /// injured, a Summon destroyed.
    pub enum Removal ("slain, injured or destroyed") {
        Slain = "slain", Injured = "injured", Destroyed = "destroyed"
    }
}

impl Removal {
    pub fn presence(self) -> Presence {
        match self {
            Removal::Slain => Presence::Slain,
            Removal::Injured => Presence::Injured,
            Removal::Destroyed => Presence::Destroyed,
        }
    }
}

/// A miniature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub name: Name,
    pub card: Id<UnitCard>,
    /// Its stat block's kind (kept here: the rules ask it on every step).
    pub kind: UnitKind,
    pub side: Side,
    /// A Hunt Creature's Threat (1-3); 1 for everything else.
    pub threat: u8,
    pub at: Pos,
    pub facing: Facing,
    pub presence: Presence,
    /// Damage received.
    pub damage: i32,
    /// Status tokens (`Status::bit`).
    pub statuses: u8,
    /// Bleed tokens (more than one only under `bleed-stack=stack`).
    pub bleed: u8,
    pub equipment: [Option<Id<Skill>>; 2],
    /// The unverified texts that may have changed it, by scope: findings about it in
    /// those scopes are uncertain from then on.
    pub taint: taint::Taints,
    pub exhausted: bool,
    /// It is in a Pit: its next activation is spent climbing out.
    pub in_pit: bool,
    /// A Seeker's capture token: the Creature it is on, and whether it shows "captured".
    pub capture: Option<(UnitIx, bool)>,
    /// A capturing Seeker has been assigned its capture action's 2 damage in the capture's
    /// current turn of actions, since each capturer last did (`capture-complete`: the capture
    /// completes once every capturer has).
    #[serde(default)]
    pub capture_kept: bool,
    /// A slain Creature's Resources have been dropped.
    pub dropped: bool,
    /// The Momentum dice it holds this round (`momentum::Face::bit`), and how many count
    /// toward the two a Creature may hold.
    pub momentum: u8,
    pub momentum_dice: u8,
}

impl Unit {
    pub fn on_board(&self) -> bool {
        self.presence == Presence::OnBoard
    }
    pub fn has(&self, s: Status) -> bool {
        self.statuses & s.bit() != 0
    }
    pub fn place(&self) -> Place {
        Place::new(self.at, self.facing)
    }
    /// Its part in a capture ends (cancelled, completed, or a capturer or the Creature gone):
    /// the token goes, and the capture mark with it, which belongs to that token.
    pub fn end_capture(&mut self) {
        self.capture = None;
        self.capture_kept = false;
    }
}

/// A miniature's activation in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub unit: UnitIx,
    /// A free activation (granted by a skill): no Exhaust token.
    pub free: bool,
    /// A Creature's Instinct card.
    pub card: Option<Id<Instinct>>,
    /// The Instinct card's target, once chosen.
    pub target: Option<UnitIx>,
    /// Where it stood when the activation began.
    pub start: Place,
    /// The status tokens it held as the activation began (they expire at its end).
    pub held: u8,
    /// The start-of-activation Bleed has been dealt with.
    pub bled: bool,
    /// Stunned: the activation is skipped.
    pub skipped: bool,
    /// Stunned, it moved or acted all the same: reported once (`wa.status.stun`, l.259), and
    /// the activation goes on as played; its skip is owed no more, its tokens still expire
    /// at its end (it was the miniature's next activation).
    #[serde(default)]
    pub defied: bool,
    /// The targets the rules allowed (a bit per unit index) when the log's `target` named
    /// another (reported once, l.280): the movement and action after it are judged against
    /// the recorded target, and a breach there is no second finding when they are what the
    /// card requires with one of these. 0: the recorded target was allowed.
    #[serde(default)]
    pub owed_targets: u32,
    /// Speed spent so far.
    pub spent: u8,
    pub moved: bool,
    /// Its action is used (an attack, a skill, a capture).
    pub acted: bool,
    /// A free action was used: movement is over, the action still available.
    pub free_action: bool,
    /// The action was a capture (so its token stays).
    pub captured: bool,
    /// It is over: the end-of-activation consequences are due.
    pub done: bool,
    /// It began in a Pit: it is spent climbing out.
    pub pit: bool,
    /// A Creature's stopping place has been judged (at its action or pass).
    pub checked: bool,
    /// The statuses already expired at its end.
    pub expired: u8,
}

impl Activation {
    /// An attack or a skill is used: as a free action (movement is over, the action still
    /// available) or as the activation's action.
    pub fn use_action(&mut self, free: bool) {
        if free {
            self.free_action = true;
        } else {
            self.acted = true;
        }
    }
}

/// Where an attack came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Default,
    Skill(Id<Skill>),
    Equipment(Id<Skill>),
    Instinct(Id<Instinct>),
}

/// Attack dice as rolled: how many of each face (order is not a fact).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Faces {
    pub specials: u8,
    pub successes: u8,
    pub blanks: u8,
}

impl Faces {
    pub fn count(&self) -> u8 {
        self.specials.saturating_add(self.successes).saturating_add(self.blanks)
    }
}

/// Where one target's consequences stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    Damage,
    /// The k-th status of the attack's list.
    Status(u8),
    Knock,
    /// Knocked into a hazard: its damage, then its Bleed.
    Hazard,
    HazardBleed,
    /// The hazard's Bleed recorded before its damage (l.170 "is assigned 2 damage and Bleed"
    /// sets no order): the damage is owed last.
    HazardLast,
    Done,
}

/// The attack being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub attacker: UnitIx,
    pub source: Source,
    pub profile: Profile,
    /// The targets, in resolution order (inline: encoded as the `Vec` it replaces, so the
    /// state's bytes and digest are the same, and an attack allocates nothing).
    pub targets: SmallVec<[UnitIx; 4]>,
    /// Per target: the line of sight crosses its Back.
    pub back: SmallVec<[bool; 4]>,
    /// The Attack Dice the roll must have.
    pub dice: u8,
    pub roll: Option<Faces>,
    /// The target being resolved and where its consequences stand.
    pub at: u8,
    pub stage: Stage,
}

/// A skill of a miniature's card, or one of its Equipment cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SkillRef {
    Skill(Id<Skill>),
    Equipment(Id<Skill>),
    /// A Creature's Instinct card whose action is no attack.
    Instinct(Id<Instinct>),
}

/// A non-attack skill being resolved: its effects on its target, one after the other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillUse {
    pub user: UnitIx,
    pub skill: SkillRef,
    pub target: UnitIx,
    /// The next effect to resolve.
    pub next: u8,
}

/// A capture action being resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureUse {
    pub seeker: UnitIx,
    pub creature: UnitIx,
    /// The 2 damage has been assigned.
    pub hurt: bool,
    /// The token was placed or flipped.
    pub marked: bool,
}

/// Where play is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Setup,
    Play,
    Over,
}

/// How the Hunt encounter ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Won,
    Lost,
}

/// The bookkeeping of a Hunt encounter (`scope=encounter`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Encounter {
    pub scout: Option<Id<Scout>>,
    /// Creatures still to be drawn, per Threat (index Threat - 1).
    pub owed: [u8; 3],
    /// The encounter's Creatures with their Threat, named ones first, then in draw order.
    pub creatures: Vec<(Id<UnitCard>, u8)>,
    pub setup_roll: Option<u8>,
    /// The setup in use (1-5), once known.
    pub setup: Option<u8>,
    /// Obstacles placed by the rolls: Partial, Full, Thornbrush, Pit.
    pub kinds: [u8; 4],
    /// A roll owed again at this field (its obstacle came up a third time).
    pub reroll: Option<Pos>,
    pub deck: Deck<Id<Instinct>>,
    /// Activations of this round.
    pub seekers_done: u8,
    pub creatures_done: u8,
    /// Where the Creature turn stands with dead cards (a slain or captured Creature's): 0
    /// none drawn, 1 one drawn and replaced (another card owed), 2 the turn is over
    /// (interpretation `instinct-second-card` says which dead card ends it).
    pub dead_draws: u8,
    /// Cards drawn in this Creature turn (dead, capture-token and live ones alike).
    #[serde(default)]
    pub draws: u8,
    /// Unlockable Active Skills used in this encounter, by whom: each is put on Cooldown
    /// when used (the Cooldown's length is not printed).
    #[serde(default)]
    pub cooldowns: Vec<(UnitIx, Id<Skill>)>,
    /// A card was drawn for this Creature while it carries capture tokens: the Seekers
    /// still owed their 2 damage (a bit per unit index).
    pub capture_card: Option<(UnitIx, u32)>,
    /// The Creature turn in progress has drawn at least one card.
    pub drawing: bool,
    /// The miniatures the attack in progress, or the last one resolved, was recorded dealing
    /// damage to (a bit per unit index; kept in every mode): a Knockback recorded where none
    /// is due names `wa.knockback.damaged` when plain Knockback left its target unmoved for
    /// taking no damage (Hunt Example 10, l.245).
    #[serde(default)]
    pub hurt: u32,
}

impl Default for Encounter {
    fn default() -> Self {
        Encounter {
            scout: None,
            owed: [0; 3],
            creatures: Vec::new(),
            setup_roll: None,
            setup: None,
            kinds: [0; 4],
            reroll: None,
            deck: Deck::new(Vec::new()),
            seekers_done: 0,
            creatures_done: 0,
            dead_draws: 0,
            draws: 0,
            cooldowns: Vec::new(),
            capture_card: None,
            drawing: false,
            hurt: 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub obstacles: Vec<(Pos, Obstacle)>,
    /// The round being played (0 before the first).
    pub round: u16,
    pub act: Option<Activation>,
    /// A summoner's activation, paused while its Summon activates.
    pub outer: Option<Activation>,
    pub attack: Option<Attack>,
    /// The attacker and source of the last attack resolved, for naming the rule an effect
    /// recorded after it breaks (cleared as its activation ends).
    pub last_attack: Option<(UnitIx, Source)>,
    pub skill: Option<SkillUse>,
    pub capture: Option<CaptureUse>,
    /// A free activation granted and not yet taken.
    pub grant: Option<UnitIx>,
    pub hunt: Encounter,
    pub outcome: Option<Outcome>,
    /// The outcome has been recorded.
    pub ended: bool,
    pub unverified: Unverified,
    /// The Silvestrem deck's cards out of it.
    pub silvestrem: arena::Deck,
    /// The Arena draft.
    pub draft: arena::Draft,
    /// The Arena side that has won.
    pub winner: Option<Side>,
    /// Each side's Momentum dice this round (red, blue).
    pub momentum: [momentum::Pool; 2],
    /// Healing dice just assigned: the Gladiator and how many (its healing is due).
    pub momentum_heal: Option<(UnitIx, u8)>,
    /// The Gladiators (bit per miniature) whose Healing dice this round cured their Bleed:
    /// the dice of a round are combined (l.527), so more assigned to one later heal nothing.
    pub momentum_cured: u32,
    /// A Creature activation's reach, kept between its records.
    pub(crate) memo: Memo<reach::Kept>,
    /// `scope=campaign`: what lives from one encounter to the next (campaign/).
    pub camp: Option<Box<super::campaign::Camp>>,
    /// The Arena match's troupes and chosen Skill cards (`scope=match`).
    pub troupes: arena::Troupes,
    /// Where the Arena match's round stands (`scope=match`).
    pub arena: arena::Match,
    /// A miniature whose recorded movement may go on in another `move` line: where it ends
    /// (Partial Cover, a Flying miniature's field) is judged at the next record that is not
    /// its move (docs/notation/wild-assent.md: one activation's movement may be split).
    #[serde(default)]
    pub landing: Option<UnitIx>,
    /// Consequences made at an omission finding, until the next decision ([`Made`]). Encoded
    /// with the state: a replay resumed from a snapshot taken between the omission and the
    /// late record must judge that record as the whole replay does (engine/tests/state_codec.rs).
    #[serde(default)]
    pub(crate) made: Made,
    /// An Arena match the engine ended itself, at the record after its deciding fall where
    /// the log left the `victory` out (reported there, once): the records the table went on
    /// playing are noted as not checked, not each a finding (victory.rs).
    #[serde(default)]
    pub played_on: bool,
}

/// The consequences the engine made itself at an omission finding (reported as left out
/// and applied), kept until the next decision: a record of one of them written late is the
/// record of what was already made, not applied again (rules version 20). Each is kept by
/// its key, the consequence written out (`due.rs` keys its `Fact` by its `Debug` form): the
/// consequence chain sits above the state, which does not name its types. Bookkeeping, not
/// the table: it takes no part in a state's equality (it is in its encoding, for snapshots).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Made(pub [Option<Box<str>>; 4]);

impl PartialEq for Made {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Made {}

impl Made {
    /// Nothing is kept (the common case: no omission since the last decision).
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
    /// Remember the consequence keyed `key` as made (the oldest goes when all are taken).
    pub fn push(&mut self, key: Box<str>) {
        self.0.rotate_right(1);
        self.0[0] = Some(key);
    }
    /// Take the consequence keyed `key` out if it was made at an omission finding.
    pub fn take(&mut self, key: &str) -> bool {
        match self.0.iter().position(|m| m.as_deref() == Some(key)) {
            Some(i) => {
                self.0[i] = None;
                true
            }
            None => false,
        }
    }
}

impl State {
    pub fn unit(&self, i: UnitIx) -> &Unit {
        &self.units[usize::from(i)]
    }
    pub fn unit_mut(&mut self, i: UnitIx) -> &mut Unit {
        &mut self.units[usize::from(i)]
    }
    /// A miniature's damage, presence, capture token, card or Threat was written, or a
    /// miniature added: the removal pass must look at the table again.
    pub(crate) fn units_changed(&mut self) {
        *self.memo.1 .0.get_mut() = UNKNOWN;
        *self.memo.1 .1.get_mut() = 0;
        // Presence written, or a miniature added: the fields stood on, and each side's
        // miniatures on the board, are worked out again.
        *self.memo.4.known.get_mut() = OCC_UNKNOWN;
        *self.memo.4.sides_known.get_mut() = false;
    }
    /// Only capture tokens or their marks were written (no presence, field or miniature
    /// added): the removal pass must look at the table again, and the fields stood on are
    /// the same ([`Occupancy`]).
    pub(crate) fn tokens_changed(&mut self) {
        *self.memo.1 .0.get_mut() = UNKNOWN;
        *self.memo.1 .1.get_mut() = 0;
    }
    /// Add miniature `u` to the table, or (`at`: its index) put it in the place of the one
    /// there (a Summon entering again), as `State::units_changed` says; the kept fields stood
    /// on follow it ([`Occupancy`]).
    pub(crate) fn put_unit(&mut self, at: Option<UnitIx>, u: Unit) {
        let regular = *self.memo.4.known.get_mut() == OCC_REGULAR;
        let sides_known = *self.memo.4.sides_known.get_mut();
        self.units_changed();
        let (field, on_board, side) = (u.at, u.on_board(), u.side);
        let (i, old) = match at.filter(|&i| usize::from(i) < self.units.len()) {
            Some(i) => (usize::from(i), Some(std::mem::replace(&mut self.units[usize::from(i)], u))),
            None => {
                self.units.push(u);
                (self.units.len() - 1, None)
            }
        };
        if sides_known {
            // Its side's set gains it (on the board), the one it replaces leaves its own.
            let bit = 1u32.checked_shl(i as u32).unwrap_or(0);
            let sides = &mut self.memo.4.sides;
            if let Some(o) = &old {
                *sides[o.side.index()].get_mut() &= !bit;
            }
            if on_board {
                *sides[side.index()].get_mut() |= bit;
            }
            *self.memo.4.sides_known.get_mut() = true;
        }
        if regular {
            // The one it replaces leaves its field (alone there, the table being regular),
            // and the new one takes its own.
            let left = old.filter(Unit::on_board).map(|o| o.at);
            self.occupancy_follow(left, on_board.then_some(field));
        }
    }
    /// Miniature `i`'s presence is now `how` (`State::units_changed`): the kept fields stood
    /// on follow it ([`Occupancy`]).
    pub(crate) fn set_presence(&mut self, i: UnitIx, how: Presence) {
        let regular = *self.memo.4.known.get_mut() == OCC_REGULAR;
        let sides_known = *self.memo.4.sides_known.get_mut();
        self.units_changed();
        let Some(u) = self.units.get_mut(usize::from(i)) else { return };
        let (was, at) = (u.on_board(), u.at);
        u.presence = how;
        let now = u.on_board();
        if sides_known {
            // Its side's set follows it on or off the board.
            let bit = 1u32.checked_shl(u32::from(i)).unwrap_or(0);
            let set = self.memo.4.sides[u.side.index()].get_mut();
            *set = if now { *set | bit } else { *set & !bit };
            *self.memo.4.sides_known.get_mut() = true;
        }
        if regular {
            let (left, came) = match (was, now) {
                (true, false) => (Some(at), None),
                (false, true) => (None, Some(at)),
                _ => (None, None),
            };
            self.occupancy_follow(left, came);
        }
    }
    /// On a table regular before a change (its kept set forgotten by the change's
    /// `State::units_changed`): a miniature left field `left` and one came onto `came`. The
    /// kept set follows, and is regular again, unless `came` is taken or off the square.
    fn occupancy_follow(&mut self, left: Option<Pos>, came: Option<Pos>) {
        let occ = &mut self.memo.4;
        if let Some(p) = left {
            // A miniature on a regular table stands on the square.
            let Some((w, bit)) = occupancy_bit(p) else { return };
            *occ.words[w].get_mut() &= !bit;
        }
        if let Some(p) = came {
            let Some((w, bit)) = occupancy_bit(p) else { return };
            let word = occ.words[w].get_mut();
            if *word & bit != 0 {
                return;
            }
            *word |= bit;
        }
        *occ.known.get_mut() = OCC_REGULAR;
    }
    /// Miniature `i` now stands on `to` (the one writer of a miniature's field, so that the
    /// kept set of fields stood on follows it: [`Occupancy`]).
    pub(crate) fn move_unit(&mut self, i: UnitIx, to: Pos) {
        let Some(u) = self.units.get_mut(usize::from(i)) else { return };
        let from = std::mem::replace(&mut u.at, to);
        let on_board = u.on_board();
        let occ = &mut self.memo.4;
        if *occ.known.get_mut() != OCC_REGULAR {
            // Not regular (or unknown): the move may have made it so; worked out when asked.
            *occ.known.get_mut() = OCC_UNKNOWN;
            return;
        }
        if !on_board || from == to {
            return;
        }
        // Regular: it stood alone on `from` (on the square). It stays regular if `to` lies on
        // the square and nobody stands there; else it is worked out again when asked.
        let (Some((wf, bf)), Some((wt, bt))) = (occupancy_bit(from), occupancy_bit(to)) else {
            *occ.known.get_mut() = OCC_UNKNOWN;
            return;
        };
        *occ.words[wf].get_mut() &= !bf;
        let w = occ.words[wt].get_mut();
        if *w & bt != 0 {
            *occ.known.get_mut() = OCC_UNKNOWN;
        } else {
            *w |= bt;
        }
    }
    /// The fields of every miniature on the board, when the table is regular (see
    /// [`Occupancy`]: no two on one field, each on the square a set holds); `None` when it is
    /// not, and the caller walks the miniatures.
    #[inline]
    pub(crate) fn occupied_fields(&self) -> Option<Cells> {
        let occ = &self.memo.4;
        let known = occ.known.load(Ordering::Relaxed);
        let kept = match known {
            OCC_REGULAR => Some(occ.load()),
            OCC_IRREGULAR => None,
            _ => self.work_out_occupied(),
        };
        debug_assert_eq!(kept, self.walk_occupied(), "the kept fields stood on differ from the miniatures'");
        kept
    }
    /// The miniatures on the board of side `side` (bit `i`: miniature `i`), kept between the
    /// writers of presence ([`Occupancy`]).
    #[inline]
    pub(crate) fn fielded_of(&self, side: Side) -> u32 {
        let occ = &self.memo.4;
        if !occ.sides_known.load(Ordering::Relaxed) {
            self.work_out_sides();
        }
        let kept = occ.sides[side.index()].load(Ordering::Relaxed);
        debug_assert_eq!(kept, self.walk_sides()[side.index()], "the kept miniatures of a side differ");
        kept
    }
    /// [`State::fielded_of`] for every side, worked out and kept.
    #[cold]
    #[inline(never)]
    fn work_out_sides(&self) {
        let occ = &self.memo.4;
        for (kept, m) in occ.sides.iter().zip(self.walk_sides()) {
            kept.store(m, Ordering::Relaxed);
        }
        occ.sides_known.store(true, Ordering::Relaxed);
    }
    /// Each side's miniatures on the board, from the miniatures.
    fn walk_sides(&self) -> [u32; 4] {
        let mut out = [0u32; 4];
        for (i, u) in self.units.iter().enumerate().filter(|(_, u)| u.on_board()) {
            out[u.side.index()] |= 1u32.checked_shl(i as u32).unwrap_or(0);
        }
        out
    }
    /// [`State::occupied_fields`] worked out and kept.
    #[cold]
    #[inline(never)]
    fn work_out_occupied(&self) -> Option<Cells> {
        let found = self.walk_occupied();
        let occ = &self.memo.4;
        match found {
            Some(c) => {
                occ.store(c);
                occ.known.store(OCC_REGULAR, Ordering::Relaxed);
            }
            None => occ.known.store(OCC_IRREGULAR, Ordering::Relaxed),
        }
        found
    }
    /// The fields of every miniature on the board, from the miniatures (`None`: not regular).
    fn walk_occupied(&self) -> Option<Cells> {
        let mut c = Cells::new();
        for u in self.units.iter().filter(|u| u.on_board()) {
            if c.contains(u.at) {
                return None;
            }
            c.insert(u.at);
            if !c.contains(u.at) {
                return None;
            }
        }
        Some(c)
    }
    /// Only miniature `i`'s damage was written, which leaves it at no Health on the board
    /// (`over`) or not. Not: its removal is not due, and nothing else the removal pass reads
    /// changed, so a pass known clean (or clean but for this miniature) is clean, and one
    /// clean but for another miniature stays so. Over: the removal pass, if it had found
    /// nothing, need look at that miniature alone (see [`Clean`]); any other change since,
    /// and it must look at the whole table.
    pub(crate) fn damage_changed(&mut self, i: UnitIx, over: bool) {
        let c = self.memo.1 .0.get_mut();
        let mark = if usize::from(i) < MAX_UNITS { DAMAGED + i } else { UNKNOWN };
        if !over {
            if *c == mark {
                *c = CLEAN;
            }
            return;
        }
        *c = if *c == CLEAN || *c == mark { mark } else { UNKNOWN };
    }
    /// The miniature with this name.
    pub fn find(&self, name: &Name) -> Option<UnitIx> {
        self.units.iter().position(|u| u.name == *name).map(|i| i as UnitIx)
    }
    /// [`State::find`], miniature `near` looked at first: the one a record most likely names
    /// (the active miniature for a decision, the due's subject for a consequence), which
    /// spares the walk and its name comparisons. Exact: names are unique on the table (a
    /// miniature is placed once, a Summon returns to its own entry), so a miniature found
    /// at `near` is the one the walk finds.
    #[inline]
    pub fn find_near(&self, name: &Name, near: Option<UnitIx>) -> Option<UnitIx> {
        let hit = near.filter(|&i| self.units.get(usize::from(i)).is_some_and(|x| x.name == *name));
        debug_assert!(hit.is_none() || hit == self.find(name), "two miniatures named `{name}`");
        hit.or_else(|| self.find(name))
    }
    /// The miniature standing on `p`.
    pub fn at(&self, p: Pos) -> Option<UnitIx> {
        // A regular table's field outside the kept set holds nobody (see [`Occupancy`]).
        if self.occupied_fields().is_some_and(|c| !c.contains(p)) {
            return None;
        }
        self.units.iter().position(|u| u.on_board() && u.at == p).map(|i| i as UnitIx)
    }
    /// Add an obstacle (the one writer of `obstacles`: see [`ObstacleCells`]).
    pub(crate) fn push_obstacle(&mut self, p: Pos, o: Obstacle) {
        if self.memo.2.count == self.obstacles.len() {
            self.memo.2.add(p, o);
        }
        self.obstacles.push((p, o));
    }
    /// The obstacles as sets of fields: (every one but the Pits, Partial Cover, Pits).
    #[inline]
    pub(crate) fn obstacle_cells(&self) -> (Cells, Cells, Cells) {
        self.with_obstacles(|all| (all.cover, all.partial, all.pits))
    }
    /// The fields of Full Cover and the hazards: those that block a line of sight.
    #[inline]
    pub(crate) fn full_cover_cells(&self) -> Cells {
        self.with_obstacles(|all| all.full)
    }
    /// `f` of the obstacles as sets of fields: those kept as they were placed, or (a decoded
    /// state) worked out from the list. Lent rather than returned: a caller copies out only
    /// the sets it reads (every move checked and every search asks).
    #[inline]
    fn with_obstacles<R>(&self, f: impl FnOnce(&ObstacleCells) -> R) -> R {
        let kept = &self.memo.2;
        if kept.count == self.obstacles.len() {
            // Tests and fixtures run unoptimised: there the kept sets are checked against the
            // list, so a writer that changes an obstacle in place fails them.
            debug_assert!(
                {
                    let mut all = ObstacleCells::default();
                    for &(p, o) in &self.obstacles {
                        all.add(p, o);
                    }
                    (all.cover, all.partial, all.pits, all.full)
                        == (kept.cover, kept.partial, kept.pits, kept.full)
                },
                "the kept obstacle sets differ from the obstacles: one was written in place"
            );
            return f(kept);
        }
        let mut all = ObstacleCells::default();
        for &(p, o) in &self.obstacles {
            all.add(p, o);
        }
        f(&all)
    }
    pub fn obstacle(&self, p: Pos) -> Option<Obstacle> {
        self.obstacles.iter().find(|(q, _)| *q == p).map(|(_, o)| *o)
    }
    /// Indices of every miniature, in placement order.
    pub fn indices(&self) -> impl Iterator<Item = UnitIx> {
        0..self.units.len() as UnitIx
    }
    /// The miniature whose activation is in progress.
    pub fn active(&self) -> Option<UnitIx> {
        self.act.as_ref().map(|a| a.unit)
    }
}
