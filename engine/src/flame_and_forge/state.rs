//! What is on the table: the city, the decks, the players, and where the turn stands.
//!
//! Where the turn stands is a stack of **frames** (the innermost activity on top: a raid, the
//! icons of one spot being resolved, a challenge, a forge, a Retaliation...), each a cursor
//! into catalog data. What the rules require next is derived from the top frame
//! (`consequence.rs`), never queued: a frame says where an activity is, not what comes next.
//! Plain data (no floats, no hash maps) so that the digest is stable.

use super::catalog::{BoardId, CardId, Dwarf, EventId, RetId, SlayerId, Subject, TokenId};
use super::city::{Territory, Tile, TILES};
use super::event::{Colour, Rank};
use super::icon::Gem;
use super::owed::Owed;
pub use super::source::Src;
use crate::kit::deck::{Deck, Market};
use crate::kit::taint::Unverified;
use crate::kit::track::Track;
use serde::{Deserialize, Serialize};

/// The most spots a tile or a board has.
pub const MAX_SPOTS: usize = 6;
/// No dwarf on a spot.
pub const EMPTY: u8 = u8::MAX;
/// Health's bounds (l.93).
pub const MAX_HEALTH: i32 = 7;
/// Gems kept at a retreat (l.207).
pub const GEM_LIMIT: u8 = 7;
/// Scorched tiles that lose the game.
pub const SCORCHED_LOSS: usize = 7;

/// One city tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileState {
    pub fire: u8,
    pub gems: [u8; 3],
    pub scorched: bool,
    /// The seat of the dwarf on each spot, `EMPTY` for none.
    pub spots: [u8; MAX_SPOTS],
}

impl TileState {
    pub const NEW: TileState =
        TileState { fire: 0, gems: [0; 3], scorched: false, spots: [EMPTY; MAX_SPOTS] };
    pub fn gem_count(&self) -> u8 {
        self.gems.iter().sum()
    }
}

/// Where one of a player's dwarfs is in the city.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityDwarf {
    pub tile: Tile,
    pub dwarf: Dwarf,
    /// The spot on the tile (0 in the Castle).
    pub spot: u8,
}

/// A player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub colour: Colour,
    pub side: BoardId,
    pub health: Track,
    /// Whether health has changed since setup (to name a log that assumes another start).
    pub health_changed: bool,
    pub gems: [u8; 3],
    /// Dwarfs on the campfire, by kind (`Dwarf` index).
    pub campfire: [u8; 6],
    /// Special dwarfs still in the stash (index 1-5).
    pub stash: [bool; 6],
    /// The regroup spots: the dwarf on each.
    pub board: [Option<Dwarf>; MAX_SPOTS],
    /// The player's city dwarfs by line (index 0 = line 1, 6 = the Castle).
    pub city: [Option<CityDwarf>; 7],
    /// The challenge deck and its discard pile.
    pub deck: Deck<CardId>,
    pub retired: Vec<CardId>,
    /// The level of the book token on each subject (0: none there).
    pub books: [u8; 3],
    /// The highest level reached on each subject (Prestige).
    pub best: [u8; 3],
    pub active_token: Option<TokenId>,
    pub tokens: Vec<TokenId>,
    /// The advanced tokens flipped face down this turn (used: l.334 flips the token itself, so
    /// a token switched in on a regroup or retreat is face up even after another was used).
    pub face_down: Vec<TokenId>,
    /// Scenario 01's starting heal as a token (`well-rested=advanced-token`), while it is the
    /// active token (0 once another is chosen in its place).
    pub rested: u8,
    /// That heal while the Well Rested token waits in the stash (l.338 "they choose one of them
    /// to keep active on their player board and the rest remain in their stash"), 0 otherwise.
    pub rested_stash: u8,
    /// The next raid may go to any tile of the next line (a footprint).
    pub footprint: bool,
    /// The dragonslayer cards dealt, the one kept, and whether it was used.
    pub dealt: Vec<SlayerId>,
    pub slayer: Option<SlayerId>,
    pub slayer_used: bool,
    /// The unverified effect (ordinal) the player's state may be wrong after, if any.
    pub taint: Option<u32>,
    /// The player's city dwarfs went home at their last retreat (to name a raid that
    /// continues the old path).
    pub path_reset: bool,
    /// The score recorded for the player at the end (`score P N`), once it is.
    pub score: Option<i16>,
}

impl Player {
    pub fn campfire_count(&self) -> u8 {
        self.campfire.iter().sum()
    }
    pub fn gem_count(&self) -> u8 {
        self.gems.iter().sum()
    }
    pub fn gem(&self, g: Gem) -> u8 {
        self.gems[g.index()]
    }
    /// The player's topmost city dwarf.
    pub fn top(&self) -> Option<CityDwarf> {
        self.city.iter().rev().flatten().next().copied()
    }
}

/// Where a placed dwarf went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum At {
    Tile { tile: Tile, spot: u8 },
    Castle,
    Board { spot: u8 },
}

/// The stages of a placement, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PStage {
    /// Scenario 01's Bored Beast: the damage, then the success; or, the success recorded
    /// first (l.405 "one damage AND one automatic success" sets no order), the damage after it.
    BeastDamage,
    BeastSuccess,
    BeastLastDamage,
    /// The special dwarf's bonus action (pushed as icons).
    Ability,
    /// Step 2: fire damage.
    Burn,
    /// Step 3: the spots, from `spot` to the right.
    Spots,
    /// The gems on the tile.
    Pick,
    /// The optional challenge.
    Challenge,
    Done,
}

/// A dwarf placement being resolved (a City Raid or a Regroup).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub seat: u8,
    pub dwarf: Dwarf,
    pub at: At,
    pub stage: PStage,
    /// The next spot to resolve.
    pub spot: u8,
    /// Whether an icon of the spot being resolved has been resolved (false between two spots,
    /// where `raid-spots` may open step 3).
    pub begun: bool,
    pub picked: bool,
    pub challenged: bool,
    /// Successes banked for a challenge of this placement (Warrior, axe, Bored Beast).
    pub bank: u8,
}

/// What is being forged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FStage {
    /// Awaiting `forge`, `refresh` or `pass`.
    Choose,
    /// Awaiting the Forge's refill (after a forge or a refresh).
    Refill,
    /// Awaiting the Forge's refill after a forge's events (`forge-refill=after-events`); then
    /// the forge is done.
    LastRefill,
    /// Discarding one matching event per cost gem: the colours still to match, and how many
    /// of the discarded events' health gains are still owed (one, after each discard, in the
    /// derived order; more when a log discards several before their gains, as l.271 words it).
    /// Below 0, gains a log recorded before their discards, which are then owed none.
    /// `ahead`: a gain recorded before its discard was reported for this forge (l.271 "Gain
    /// one health for each event discarded this way": the discard comes first), by
    /// `health_ahead` or by a late refill's one finding (`late_refill`); the forge's further
    /// gains may come ahead too, one per event still to discard, unreported. Always encoded:
    /// the journal's codec is not self-describing, so a field left out while false made the
    /// next bytes of a snapshot read as it (engine/tests/state_codec.rs).
    Events { left: [u8; 3], heal: i8, ahead: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RStage {
    Choose,
    Reward { subject: Subject, level: u8 },
}

/// Where the end of a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CStage {
    /// Cards are being revealed.
    Running,
    /// A win's Win-a-Challenge events: the health gains still owed for those discarded (one,
    /// after each discard, in the derived order; more when a log discards several first), and
    /// how many were discarded. Below 0, gains a log recorded before their discards, which are
    /// then owed none; `ahead` as `FStage::Events`' (l.257 "Gain one health for each event
    /// discarded this way": the discard comes first, `health_ahead`), always encoded (see
    /// `FStage::Events`).
    Events {
        heal: i8,
        done: u8,
        ahead: bool,
    },
    Retaliation,
    Pending,
    Close,
}

/// How a challenge ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    Won,
    Fled,
    PassedOut,
}

/// What a challenge is against: a monster of a territory, or the Dragon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Adversary {
    Monster { card: CardId, territory: Territory },
    Dragon,
}

/// A challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub seat: u8,
    pub foe: Adversary,
    pub strength: u8,
    pub successes: u8,
    pub frenzy: u8,
    pub played: Vec<CardId>,
    /// Pending (hourglass) icons, by the card and the icon's index on it.
    pub pending: Vec<(CardId, u8)>,
    pub end: Option<End>,
    pub stage: CStage,
    /// The unverified effect the count may be wrong after.
    pub taint: Option<u32>,
}

/// A frame of the stack: one activity being resolved.
///
/// `repr(u8)`: the variant is a byte of its own at the front, so every match on a frame (the
/// settle's on the top one, the stack scans) is one load and a jump; left to the compiler,
/// the variant was folded into a field of `Placement` (a 14-byte frame) and each match
/// first decoded it. The layout is no part of the state: it is written, compared and
/// printed field by field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[repr(u8)]
pub enum Frame {
    /// Setup: the bonus gems of a seat.
    Bonus {
        seat: u8,
    },
    /// Phase 1: the icons of the top event's action.
    EventIcons {
        card: EventId,
        action: u8,
        next: u8,
    },
    /// A fire just placed: the scorch, then the monster's defeat, then its Retaliation.
    /// `stage` 0: the scorch (at the third fire); 1: the monster's defeat; 2: its Retaliation;
    /// 3: the defeat recorded first (`reorder`: l.150 and l.154 set no order between the two),
    /// the scorch still owed, then the Retaliation.
    AfterFire {
        tile: Tile,
        stage: u8,
        protect: bool,
    },
    /// A Retaliation card on a territory: the card, the monster, then its items: `next` the
    /// first not yet placed, `done` (bit i: item i) those a log placed ahead of it (l.61 sets
    /// no order among a card's tokens).
    Retaliation {
        territory: Territory,
        card: Option<RetId>,
        monster: bool,
        next: u8,
        done: u8,
    },
    Placement(Placement),
    /// Icons resolved left to right; `sub` counts repeats of a `douse N`.
    Icons {
        seat: u8,
        src: Src,
        next: u8,
        sub: u8,
    },
    Forge {
        seat: u8,
        free: u8,
        refreshed: bool,
        item: Option<CardId>,
        stage: FStage,
    },
    Research {
        seat: u8,
        stage: RStage,
        alchemist: bool,
    },
    Upgrade {
        seat: u8,
        optional: bool,
    },
    Bow {
        seat: u8,
    },
    Retire {
        seat: u8,
    },
    /// The challenge on top of `State::challenges`.
    Challenge,
    Retreat {
        seat: u8,
        healed: bool,
    },
    /// An advanced research draw: the tokens drawn, awaiting the one kept.
    Advanced {
        seat: u8,
        subject: Subject,
        drawn: [Option<TokenId>; 3],
    },
}

/// Where the game stands when nothing is being resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Setup step: the initial Forge.
    Market,
    /// The three opening Retaliations: how many have begun. The next one's territory is the
    /// first of Wastelands, Valley, Outskirts with no monster yet (`opening_next`), so a card a
    /// log resolved out of order leaves the territories it skipped owed.
    Retaliations(u8),
    /// Players taking their seats.
    Seats,
    /// Pack A: dealing (and keeping) dragonslayer cards, seat by seat.
    Deal(u8),
    /// A turn is owed to the seat.
    TurnStart,
    /// Phase 1 (the event's icons are on the stack).
    Resolve,
    /// Phase 2.
    Draw,
    /// Phase 3.
    Place,
    /// Phase 4.
    End,
    /// Game over: scoring (0 Dragon, 1..=players each player, then the team), then nothing.
    Over { won: bool, scored: u8 },
    /// Phase 1 still resolving (its frames on the stack) after a log drew Phase 2's event
    /// ahead of it (`early_draw`): Phase 2 is done, and the next record carrying Phase 1 on is
    /// the one `ff.turn.phases` finding (`drawn_early`). Phase 3 follows once the stack
    /// empties. Last, so that the other variants' encodings stay as they were.
    Drawn,
}

/// The table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    pub seats: Vec<Player>,
    /// Whose turn it is (a seat).
    pub active: u8,
    pub turns: u32,
    pub tiles: [TileState; TILES],
    /// The monster of each territory and its tile.
    pub monsters: [Option<(CardId, Tile)>; 3],
    pub horde: Vec<CardId>,
    pub supply: [u8; 3],
    pub fire_supply: u8,
    /// Active events, left to right (the top is the last).
    pub events: Vec<EventId>,
    pub event_deck: Deck<EventId>,
    pub items: Deck<CardId>,
    pub market: Market<CardId>,
    pub monster_deck: Deck<CardId>,
    pub dragon_deck: Deck<RetId>,
    pub advanced: [Deck<TokenId>; 3],
    pub slayers: Deck<SlayerId>,
    pub stack: Vec<Frame>,
    pub challenges: Vec<Challenge>,
    /// Placements still owed this turn (1, plus one per Haste).
    pub placements: u8,
    /// Placements made this turn.
    pub placed: u8,
    /// The active player retreated this turn.
    pub retreated: bool,
    /// The seat that beat the Dragon (this game).
    pub slayer_seat: Option<u8>,
    pub unverified: Unverified,
    /// The last tile a fire was placed on (to name a damage recorded for it).
    pub last_fire: Option<Tile>,
    /// The Dragon's and the team's scores as recorded at the end, once they are.
    pub score_dragon: Option<u16>,
    pub score_team: Option<(i16, Rank)>,
    /// The seat that has just kept an advanced token while another was active: "they choose
    /// one of them to keep active" (l.338), so its next decision may be that choice
    /// (`activate`). Cleared by the next decision, whoever makes it.
    pub choosing_token: Option<u8>,
    /// What the last step found owed next (see [`Settled`]): not part of the table.
    #[serde(skip)]
    pub settled: Settled,
    /// The consequence the last step reported left out and applied in place, the record
    /// after it being the consequence owed next (see [`PassedOver`]): not part of the table.
    /// Encoded with the state: a replay resumed from a snapshot taken right after the
    /// omission must judge the next record as the whole replay does (engine/tests/state_codec.rs).
    #[serde(default)]
    pub passed_over: PassedOver,
    /// A record after the game's end has been reported: the records after it (but a won
    /// game's scores) are ignored without another finding, one finding standing for a log
    /// that goes on after the end (audit r5 O2). Part of the table (a snapshot must keep it).
    pub after_end: bool,
}

/// The consequence the last step found left out of the log (reported once, applied as the
/// rules say) because the record stood where the consequence after it was owed: if the very
/// next record is that consequence after all, the two were written in the other order (a
/// swap), and it is the late record of what is already on the table: neither applied again
/// nor reported again (flame-and-forge.md, "one omission or swap is one finding").
///
/// With it, where the record was of the same kind and subject as the consequence owed (a
/// gem of another colour), the table of the other reading, the record a wrong value of the
/// owed consequence: if the next record is what that table owes and not what this one owes,
/// the log kept to that reading (a wrong gem, then the next gem as owed), and the replay
/// goes on from it, so that every recorded fact stays on the table.
///
/// Not part of the table: it never makes two states unequal; a step takes it before it
/// changes anything. Unlike [`Settled`] (worked out again from the table) it is encoded
/// with the state, since a snapshot could not work it out again.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct PassedOver(pub(super) Option<(Option<super::event::Event>, Option<Box<State>>)>);

impl PartialEq for PassedOver {
    /// Always equal: a memo of the last step is no part of the table.
    fn eq(&self, _: &PassedOver) -> bool {
        true
    }
}
impl Eq for PassedOver {}
impl std::fmt::Debug for PassedOver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PassedOver")
    }
}

/// The consequence owed next (`None`: a decision or reveal), as the last step derived it
/// when it settled the table, so that the next step (or `next_consequence`) does not derive
/// it a second time.
///
/// Not part of the table: it is never serialized (a state read back has none), it never
/// makes two states unequal, and it is trusted only between two steps: a step takes it
/// before it changes anything and sets it again as its very last act, so whatever else
/// reaches a state (the initial state, a state read back, a failed step) simply has none
/// and derives the due afresh. Only this game's step changes a `State`.
#[derive(Clone, Copy, Default)]
pub struct Settled(pub(super) Option<Option<Owed>>);

impl PartialEq for Settled {
    /// Always equal: a memo of the table is no part of it.
    fn eq(&self, _: &Settled) -> bool {
        true
    }
}
impl Eq for Settled {}
impl std::fmt::Debug for Settled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Settled")
    }
}

impl State {
    /// A challenge over: the cards it revealed go to its player's discard pile (l.251-255).
    pub fn discard_played(&mut self, ch: Challenge) {
        let p = self.player_mut(ch.seat);
        for card in ch.played {
            p.deck.discard(card);
        }
    }
    pub fn scorched(&self) -> usize {
        self.tiles.iter().filter(|t| t.scorched).count()
    }
    /// How the game ends where its end is checked (Phase 4, l.342-348, or at once under
    /// `end-timing=immediate`): `Some(true)` won by a dragonslayer, `Some(false)` lost to
    /// seven scorched tiles, `None` while it goes on.
    pub fn end_reached(&self) -> Option<bool> {
        if self.slayer_seat.is_some() {
            Some(true)
        } else if self.scorched() >= SCORCHED_LOSS {
            Some(false)
        } else {
            None
        }
    }
    pub fn tile(&self, t: Tile) -> &TileState {
        &self.tiles[t.index().min(TILES - 1)]
    }
    pub fn seat_of(&self, c: Colour) -> Option<u8> {
        self.seats.iter().position(|p| p.colour == c).map(|i| i as u8)
    }
    pub fn player(&self, seat: u8) -> &Player {
        &self.seats[seat as usize]
    }
    pub fn player_mut(&mut self, seat: u8) -> &mut Player {
        &mut self.seats[seat as usize]
    }
    pub fn top(&self) -> Option<&Frame> {
        self.stack.last()
    }
    pub fn over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }
    /// The territory whose monster is `card`, if it is in the city.
    pub fn monster_territory(&self, card: CardId) -> Option<Territory> {
        self.monsters.iter().position(|m| m.is_some_and(|(c, _)| c == card)).map(|i| Territory::ALL[i])
    }
    /// The monster on a tile.
    pub fn monster_on(&self, t: Tile) -> Option<(CardId, Territory)> {
        self.monsters
            .iter()
            .enumerate()
            .find_map(|(i, m)| m.filter(|(_, at)| *at == t).map(|(c, _)| (c, Territory::ALL[i])))
    }
    /// The placement being resolved (the innermost one), if any.
    pub fn placement(&self) -> Option<&Placement> {
        self.stack.iter().rev().find_map(|f| match f {
            Frame::Placement(p) => Some(p),
            _ => None,
        })
    }
    pub fn placement_mut(&mut self) -> Option<&mut Placement> {
        self.stack.iter_mut().rev().find_map(|f| match f {
            Frame::Placement(p) => Some(p),
            _ => None,
        })
    }
}
