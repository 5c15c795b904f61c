//! What is on the table during a fight: the fighters in seating order, the Priority token,
//! the track, the action being resolved, and the cursors of the agendas the rules derive
//! what is due from (see due.rs). Plain data (vectors, no hash maps, no floats) so the
//! digest is stable. Seats and cards are typed indices; labels are only for people.

// The card ids and hand cards are the catalog's; the state names them through here too.
use super::cards::CardKind;
pub use super::cards::{CardId, CharacterId, HandCard, MercId, MonsterId};
use super::effect::{Ailment, Effect, Skill};
use super::event::Place;
use super::name::{Name, NameKey};
use crate::kit::dice::Roll;
use crate::kit::taint::Unverified;
use serde::{Deserialize, Serialize};

/// Seats kept inline (a fight seats a handful; more than 16 spill to the heap): the
/// targets of an action are set for every action, and allocating them cost more than the
/// rest of taking a token. Encoded as a sequence, exactly as a `Vec<Seat>`.
pub type Seats = smallvec::SmallVec<[Seat; 16]>;

/// Hand cards kept inline (a hand holds at most six): refilling, playing and decoding a
/// hand allocate nothing. Encoded as a sequence, exactly as a `Vec<HandCard>`.
pub type Hand = smallvec::SmallVec<[HandCard; 8]>;

/// Tokens kept inline (two a character and the monster's one or two: a fight of up to three
/// characters fits; more spill to the heap). Putting a token down and taking it off allocate
/// nothing. Encoded as a sequence, exactly as a `Vec<Token>`.
pub type Tokens = smallvec::SmallVec<[Token; 8]>;

/// A place at the table: an index into `State::fighters` (seating order, clockwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn i(self) -> usize {
        self.0 as usize
    }
    /// The seat of a fighter index (a fight seats at most a handful).
    pub fn of(i: usize) -> Seat {
        Seat(u8::try_from(i).unwrap_or(u8::MAX))
    }
}

/// The most fighters at one table: characters are seated by label and a fight rarely has
/// more than four, but a recorded log may join any number.
pub const MAX_FIGHTERS: usize = 64;

/// What an action token does: the Lure hand card, or a catalog card. Typed, so a catalog
/// card whose id is `lure` is never taken for the hand card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    Lure,
    Card(CardId),
}

/// Where an ongoing effect comes from: the key under which a card used again replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// A card's effect, granted by `by` (to themself or another fighter).
    Card { by: Seat, card: CardId },
    /// A card's attacker-only benefit (its `self` effects) on its user.
    SelfBenefit { by: Seat, card: CardId },
    /// Maneuver's Immunity for the round.
    Maneuver { by: Seat },
}

/// The effects of one ongoing effect: a card grants one or two, kept inline (starting an
/// ongoing effect was the last allocation of a hit). Encoded exactly as a `Vec<Effect>`.
pub type Effects = smallvec::SmallVec<[Effect; 2]>;

/// An ongoing effect on a fighter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ongoing {
    pub source: Source,
    pub effects: Effects,
    /// Rounds left; `None` for the whole fight.
    pub rounds: Option<u32>,
    /// The round it started in (to tell a whole-fight effect carried into later rounds).
    pub since: u32,
}

/// Who a fighter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    Character(CharacterId),
    Monster(MonsterId),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    /// Seat label for characters (`A`), the card id for the monster; inline, and stored
    /// exactly as a `String`.
    pub label: Name,
    /// `label`'s key, for finding a seat by name (`KeridwynFight::seat`); not serialized.
    #[serde(skip)]
    pub key: NameKey,
    pub who: Who,
    pub grit: i32,
    pub fame: i32,
    pub skills: [u8; 3],
    /// Rounds of Burn, Dazzle, Slow, Weak.
    pub ailments: [u32; 4],
    pub effects: Vec<Ongoing>,
    /// Instances replaced by a later use of the same card, kept (and ticked) only to name
    /// `kf.effect.replace` when a log counts them as if they had stacked.
    pub superseded: Vec<Ongoing>,
    /// Permanent effects: traits, the chosen worn gear, a monster's passives (the first one
    /// Breakable).
    pub passives: Vec<Effect>,
    pub worn: Option<CardId>,
    /// The log left out which of several worn gear the character chose (l.22-23): `worn` is
    /// the first, applied by default, until the first recorded damage to them shows which.
    pub worn_open: bool,
    pub hand: Hand,
    pub discarded: Hand,
    pub focus_played: bool,
    pub revealed: bool,
    /// Mercenaries with them, and the round each was last recalled in.
    pub mercs: Vec<(MercId, Option<u32>)>,
    pub defeated: bool,
    pub trophies: Vec<MonsterId>,
    /// The monster's start-of-fight effects applied to this character (bit per effect).
    pub started: u16,
    /// Ailments whose end-of-round tick this round is done (bit per ailment).
    pub ticked: u8,
    /// The end-of-fight Fame award is done.
    pub awarded: bool,
    /// The latest unverified effect (its ordinal) that may have changed this fighter.
    pub taint: Option<u32>,
    /// The latest unverified effect whose text speaks only of Grit ("Heal 3 Grit."): it may
    /// have changed this fighter's Grit, and so a defeat, but no duration, roll or damage
    /// (audit r6 D9: such a heal made a certain missed Burn tick uncertain).
    #[serde(default)]
    pub grit_taint: Option<u32>,
}

impl Fighter {
    pub fn ailment(&self, a: Ailment) -> u32 {
        self.ailments[a.index()]
    }
    pub fn tier(&self, s: Skill) -> u8 {
        self.skills[s.index()]
    }
    pub fn is_monster(&self) -> bool {
        matches!(self.who, Who::Monster(_))
    }
    pub fn taint_with(&mut self, ordinal: u32) {
        self.taint = Some(self.taint.map_or(ordinal, |t| t.max(ordinal)));
    }
    /// Mark this fighter as changed by unverified effect `ordinal` whose `text` is `text`:
    /// its Grit only when the text speaks of Grit and of nothing else the effects compute.
    pub fn taint_by(&mut self, ordinal: u32, text: &str) {
        if grit_only(text) {
            self.grit_taint = Some(self.grit_taint.map_or(ordinal, |t| t.max(ordinal)));
        } else {
            self.taint_with(ordinal);
        }
    }
    /// The latest unverified effect that may have changed this fighter's Grit.
    pub fn any_taint(&self) -> Option<u32> {
        self.taint.max(self.grit_taint)
    }
}

/// Whether card text speaks of Grit and of nothing else a consequence is computed from (no
/// ailment, duration, roll, skill, defense, damage, Block, Priority, Immunity, Fame, card or
/// effect): "Heal 3 Grit." may only move Grit.
pub fn grit_only(text: &str) -> bool {
    const OTHER: &[&str] = &[
        "burn", "dazzle", "slow", "weak", "ailment", "round", "roll", "die", "dice", "might", "finesse",
        "wit", "skill", "defen", "damage", "block", "priority", "immun", "fame", "card", "effect",
        "accuracy", "cure", "remove", "end", "token", "lure", "balance", "focus", "maneuver", "recall",
        "instead", "injur",
    ];
    let t = text.to_ascii_lowercase();
    t.contains("grit") && !OTHER.iter().any(|w| t.contains(w))
}

/// The monster's action die as it was rolled, and what the table was before it: a Fame
/// reroll of that die undoes the pick and makes it again with the new face.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDie {
    pub monster: Seat,
    pub face: u8,
    /// Whether the die put a token on the track (the last one pushed).
    pub pushed: bool,
    pub phase: Phase,
    pub monster_rolled: bool,
    pub second_rolled: bool,
}

/// A hint for judging the records to come, not a fact of the table: two states that differ
/// in a hint alone are the same table, so it takes no part in equality. `--derive` fills a
/// left-out consequence only where that leaves the same state as the log's own line
/// (verify's `left_out_before`), and the hint is what the log's line leaves behind it.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Hint(pub bool);

impl PartialEq for Hint {
    fn eq(&self, _: &Hint) -> bool {
        true
    }
}

impl Eq for Hint {}

/// A roll the replay holds for one record, to tell two table slips apart by what comes next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeldRoll {
    /// This seat's roll was taken as left out at the outcome recorded for it (audit r6 D7):
    /// that roll written next is the same slip written late, not another finding.
    Late(Seat),
    /// A roll taken as one for Lure between characters, not applied (audit r6 D5): when the
    /// next record is a consequence where the roller's next action (rolling this skill) is
    /// owed, the roll was that action's, its `act` left out, and it is applied there.
    Lure { who: Seat, skill: Skill, dice: Roll },
}

/// One action token on the Priority track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    pub who: Seat,
    pub action: Action,
    pub priority: i32,
    /// A non-attack spell granted to another character.
    pub on: Option<Seat>,
    /// The monster's second action of the round (-6 Priority).
    pub second: bool,
}

/// What the action being resolved is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    Attack(CardKind),
    SupportSpell,
    Lure,
}

/// The action whose roll, outcomes and effects are being resolved. `at` and `effect` are
/// the cursor of its agenda: the outcome on `targets[at]` is due while `effect` is `None`;
/// after a hit, the card's effects from index `effect` on that target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Current {
    pub who: Seat,
    pub action: Action,
    pub kind: ActionKind,
    pub skill: Skill,
    pub targets: Seats,
    pub second: bool,
    /// Dice as rolled (after rerolls), before modifiers; highest first.
    pub dice: Roll,
    /// Mercenary bonuses recalled for this roll.
    pub bonus: i32,
    pub rolled: bool,
    pub outcomes_started: bool,
    pub at: u8,
    pub effect: Option<u8>,
    /// The attacker-only ailments applied so far (they come right after the action starts).
    pub self_next: u8,
    /// The monster's random pick was left out of the log (its roll came first): the next
    /// recorded outcome is taken as naming it (step.rs).
    #[serde(default)]
    pub pick_pending: bool,
    /// The fighters this action has already given an ongoing effect (bit = seat index): an
    /// area attack's hit on its second target is the same use of the card, not a use
    /// "again" (l.12), so it must not replace the instance the first target received.
    #[serde(default)]
    pub given: u64,
    /// Effects of the card on `targets[at]` applied ahead of the cursor `effect` (bit =
    /// effect index): the ailments a hit causes together ("2 rounds of Slow and Weak", l.58)
    /// may be recorded in either order, so a later one recorded first is applied and marked
    /// here, and the cursor still owes the earlier one. Cleared whenever `at` moves.
    #[serde(default)]
    pub early: u64,
    /// The log left this action's roll out (audit r6 D7): the dice are unknown, so its
    /// outcomes are taken as recorded, and a damage as recorded when some Accuracy (at most a
    /// die of the roll's skill each) accounts for it.
    #[serde(default)]
    pub unrolled: bool,
}

/// Where the fight is: who the next decision belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Joining,
    /// Participants tied for the token roll Finesse, then play goes on at `resume`.
    TieBreak {
        tied: Vec<Seat>,
        rolls: Vec<(Seat, Roll)>,
        resume: Box<Phase>,
    },
    Reveal,
    MonsterRoll {
        second: bool,
    },
    /// The next token comes off the track; with the track empty, the end of the round.
    Actions,
    AwaitTarget,
    AwaitRoll,
    /// The action's dice are down: outcomes and effects are due.
    Rolled,
    Over,
}

impl Phase {
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Joining => "joining",
            Phase::TieBreak { .. } => "tie-break",
            Phase::Reveal => "reveal",
            Phase::MonsterRoll { .. } => "monster-roll",
            Phase::Actions => "actions",
            Phase::AwaitTarget => "target",
            Phase::AwaitRoll => "roll",
            Phase::Rolled => "rolled",
            Phase::Over => "over",
        }
    }
}

/// The Priority token's re-check ("as the fight begins and each time after Fame changes").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recheck {
    /// Fame changed (or the holder fell): who has the highest Fame now?
    Check,
    /// A Finesse tie-break was won by this seat.
    To(Seat),
}

/// Whether a living fighter may be at 0 Grit and not yet defeated (its defeat owed): a cache
/// of the pass over the fighters that every step's chain of dues made first (`next_due`) and
/// every move looked at again (`advance`). Set wherever Grit goes down or a fighter is seated
/// (`State::grit_changed`); cleared by `advance` once a pass finds no such fighter. `true`
/// only says "look"; `false` is certain. Not serialized: a decoded state looks (`true`, the
/// default), and two states compare equal whatever theirs hold.
#[derive(Debug, Clone, Copy)]
pub struct MayBeDown(pub bool);

impl Default for MayBeDown {
    fn default() -> MayBeDown {
        MayBeDown(true)
    }
}

/// Always equal: a cache of the fighters, which the state compares itself.
impl PartialEq for MayBeDown {
    fn eq(&self, _: &MayBeDown) -> bool {
        true
    }
}

impl Eq for MayBeDown {}

/// A monster waiting for `begin` to be seated, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingMonster {
    pub fighter: Fighter,
    pub place: Place,
    pub number: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Seating order, clockwise (the turn order direction); the monster is seated at `begin`.
    pub fighters: Vec<Fighter>,
    pub pending_monster: Option<PendingMonster>,
    /// Characters who joined (the monster's +4 Grit / +1 Priority per character beyond 1).
    pub characters: u32,
    pub round: u32,
    pub phase: Phase,
    pub holder: Option<Seat>,
    pub track: Tokens,
    /// Tokens already resolved this round, in the order they came off the track.
    pub done: Tokens,
    pub current: Option<Current>,
    /// Lure succeeded this round: the Breakable passive is ignored.
    pub lured: bool,
    /// The monster's (first) action of this round has been rolled.
    pub monster_rolled: bool,
    /// The monster's second action die of this round has been rolled: it may come during
    /// the reveals, after a first die rolled there that gave no action, so the reveals' end
    /// must know it is no longer owed.
    #[serde(default)]
    pub second_rolled: bool,
    /// The rolls of the Finesse roll-off its last roll just decided (or found a perfect tie),
    /// kept until the next record that is not a Fame reroll: under `reroll-rolls=any-roll` a
    /// die of the last roll may still be rerolled.
    #[serde(default)]
    pub rolloff: Vec<(Seat, Roll)>,
    /// The seats (bit `seat` set) a Finesse roll-off still owed a roll when the Fame a reroll
    /// cost ended it (`tiebreak-reroll=recheck`), kept until the next record that is not one of
    /// their rolls: a table reading the reroll as `die-decides` records those rolls, each one
    /// kf.start.tiebreak and ignored (no roll is owed), not a roll that stops the replay.
    #[serde(default)]
    pub unrolled: u64,
    /// The monster's action die just rolled, kept until the next record that is not a Fame
    /// reroll: a reroll of its die re-picks the action (audit r6 A2, `reroll-rolls=any-roll`).
    #[serde(default)]
    pub action_die: Option<Box<ActionDie>>,
    /// The consequence the log recorded last: the same line again, where it is not what is
    /// due, is a line written twice (audit r6 D3), one finding, not applied.
    #[serde(default)]
    pub last_fact: Option<Fact>,
    /// The tokens of this round's `done` (bit = index) the replay took as left out, at a roll
    /// of their own or passed over as gear that needs no roll: a late `act` naming one is the
    /// same slip written afterwards, not a second finding (audit r6 D2, D4).
    #[serde(default)]
    pub filled: u64,
    /// An `act` passed over the outcomes or effects of the action before it (filled in as
    /// left out), so an outcome recorded next may be that action's, written late, rather
    /// than the next action's with its roll left out. Cleared by a roll and at a round's end.
    #[serde(default)]
    pub passed: Hint,
    /// The monster's action die was left out this round (audit r6 D7): the `act` the log
    /// records for the monster names its action, and puts its token on the track.
    #[serde(default)]
    pub action_unknown: bool,
    /// A roll held for the next record (`HeldRoll`).
    #[serde(default)]
    pub held: Option<Box<HeldRoll>>,
    /// The character who played Balance this round.
    pub balance: Option<Seat>,
    /// Targeting: the next single-target attack starts with the second condition.
    pub alternate: bool,
    /// The last character whose attack on the monster succeeded.
    pub last_hit: Option<Seat>,
    /// Who won, once the fight is over.
    pub winner: Option<Seat>,
    /// The token's re-check, while one is owed.
    pub recheck: Option<Recheck>,
    /// The monster's start-of-fight effects are still being applied.
    pub starting: bool,
    /// An Immunity or an ailment changed since the cures were last looked for (a dirty bit:
    /// a cure can only become due when one of them changes, and looking costs a pass over
    /// every afflicted fighter's effects).
    pub cure_check: bool,
    /// The monster was defeated: Fame and the monster card are owed.
    pub awarding: bool,
    pub trophy_given: bool,
    pub unverified: Unverified,
    /// A fighter may be at 0 Grit (`MayBeDown`); not serialized.
    #[serde(skip)]
    pub may_be_down: MayBeDown,
}

impl State {
    /// Move the fight to phase `p`. Only a tie-break owns heap data (its lists); from any
    /// other phase the old value is forgotten, not dropped, which spares the out-of-line
    /// `drop_in_place::<Phase>` call a plain assignment makes (most steps change the phase).
    #[inline]
    pub fn set_phase(&mut self, p: Phase) {
        if matches!(self.phase, Phase::TieBreak { .. }) {
            self.phase = p;
        } else {
            // Nothing to free: no variant but `TieBreak` holds a heap value.
            std::mem::forget(std::mem::replace(&mut self.phase, p));
        }
    }
    pub fn fighter(&self, s: Seat) -> &Fighter {
        &self.fighters[s.i()]
    }
    pub fn fighter_mut(&mut self, s: Seat) -> &mut Fighter {
        &mut self.fighters[s.i()]
    }
    /// The seat of the monster (seated or not yet).
    pub fn monster(&self) -> Option<Seat> {
        self.fighters.iter().position(Fighter::is_monster).map(Seat::of)
    }
    /// A fighter's Grit went down, or a fighter was seated: one may be at 0 Grit now.
    pub fn grit_changed(&mut self) {
        self.may_be_down = MayBeDown(true);
    }

    /// Whether a living fighter is at 0 Grit, not yet defeated (looked at only when one may
    /// be: `MayBeDown`).
    #[inline]
    pub fn someone_down(&self) -> bool {
        self.may_be_down.0 && self.fighters.iter().any(|f| f.grit <= 0 && !f.defeated)
    }

    /// Every seat, in seating order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.fighters.len()).map(Seat::of)
    }
}

/// Move element `i` of a short list (a hand of six cards, the track's few tokens) to its
/// end, the others keeping their order, for the caller to pop: `Vec::remove` calls
/// `memmove`, which costs more than the handful of elements moved here one by one.
#[inline]
pub fn to_end<T>(v: &mut [T], i: usize) {
    for j in i + 1..v.len() {
        v.swap(j - 1, j);
    }
}

/// What an `act` line names: a token's action, or something that is never on the track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Acting {
    Token(Action),
    /// Balance or Focus: they have no Priority.
    NoPriority(HandCard),
    /// A name that is no card of the catalog.
    Unknown,
}

/// A consequence, typed (kept in the state as the last one recorded, to tell a line written
/// twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    TokenGained { who: Seat },
    Afflicted { who: Seat, ailment: Ailment, add: u32, total: u32 },
    Cured { who: Seat, ailment: Ailment, from: u32 },
    Acted { who: Seat, action: Acting },
    Outcome { target: Seat, hit: bool },
    DamageDealt { who: Seat, damage: i32, block: i32, injury: i32 },
    Ticked { who: Seat, ailment: Ailment, from: u32, to: u32, injury: Option<i32> },
    RoundEnded { round: u32 },
    Defeated { who: Seat },
    FameGained { who: Seat, delta: i32, total: i32 },
    TrophyTaken { who: Seat, monster: Option<MonsterId> },
}

impl Fact {
    /// The fighter it is about, for pairing a recorded fact with a due one (`None`: the
    /// kind has one subject at a time, the token, the track, the round, the monster card).
    pub fn subject(&self) -> Option<(Seat, Option<Ailment>)> {
        match *self {
            Fact::Afflicted { who, ailment, .. }
            | Fact::Cured { who, ailment, .. }
            | Fact::Ticked { who, ailment, .. } => Some((who, Some(ailment))),
            Fact::Outcome { target, .. } => Some((target, None)),
            Fact::DamageDealt { who, .. } | Fact::Defeated { who } | Fact::FameGained { who, .. } => {
                Some((who, None))
            }
            Fact::TokenGained { .. }
            | Fact::Acted { .. }
            | Fact::RoundEnded { .. }
            | Fact::TrophyTaken { .. } => None,
        }
    }

    pub fn same_kind(&self, other: &Fact) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}
