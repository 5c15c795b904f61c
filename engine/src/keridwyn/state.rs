//! What is on the table during a fight: the fighters in seating order, the Priority token,
//! the track, the roll being made and the consequences the rules still require. Plain data
//! (vectors, no hash maps, no floats) so the digest is stable.

use super::cards::CardKind;
use super::effect::{Ailment, DamageBase, Effect, Skill};
use super::event::Place;
use serde::{Deserialize, Serialize};

/// The six hand cards of "STARTING THE FIGHT".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HandCard {
    Primary,
    Secondary,
    Lure,
    Balance,
    Maneuver,
    Focus,
}

impl HandCard {
    pub const ALL: [HandCard; 6] = [
        HandCard::Primary,
        HandCard::Secondary,
        HandCard::Lure,
        HandCard::Balance,
        HandCard::Maneuver,
        HandCard::Focus,
    ];
    pub fn name(self) -> &'static str {
        match self {
            HandCard::Primary => "primary",
            HandCard::Secondary => "secondary",
            HandCard::Lure => "lure",
            HandCard::Balance => "balance",
            HandCard::Maneuver => "maneuver",
            HandCard::Focus => "focus",
        }
    }
}

/// An ongoing effect on a fighter, from a card (replaced when the same card is used again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ongoing {
    pub card: String,
    pub effects: Vec<Effect>,
    /// Rounds left; `None` for the whole fight.
    pub rounds: Option<u32>,
    /// The round it started in (to tell a whole-fight effect carried into later rounds).
    pub since: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    /// Seat label for characters (`A`), the card id for the monster.
    pub label: String,
    /// The character or monster card id.
    pub card: String,
    pub monster: bool,
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
    pub worn: Option<String>,
    pub cards: Vec<String>,
    pub hand: Vec<HandCard>,
    pub discarded: Vec<HandCard>,
    pub focus_played: bool,
    pub revealed: bool,
    /// Mercenaries with them and whether each was recalled.
    pub mercs: Vec<(String, bool)>,
    pub defeated: bool,
    pub trophies: Vec<String>,
}

impl Fighter {
    pub fn ailment(&self, a: Ailment) -> u32 {
        self.ailments[a.index()]
    }
    pub fn tier(&self, s: Skill) -> u8 {
        self.skills[s.index()]
    }
}

/// One action token on the Priority track.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    pub who: usize,
    /// The action card id, or `lure`.
    pub card: String,
    pub priority: i32,
    /// A non-attack spell granted to another character.
    pub on: Option<usize>,
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

/// The action whose roll and outcomes are being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Current {
    pub who: usize,
    pub card: String,
    pub kind: ActionKind,
    pub skill: Skill,
    pub targets: Vec<usize>,
    pub second: bool,
    /// Dice as rolled (after rerolls), before modifiers.
    pub dice: Vec<u8>,
    /// Mercenary bonuses recalled for this roll.
    pub bonus: i32,
    pub rolled: bool,
    pub outcomes_started: bool,
}

/// A consequence the rules still require, resolved to an event against the state when it
/// comes up (so it sees the consequences recorded before it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Control: who should hold the token now (may start a Finesse tie-break).
    PriorityCheck,
    Priority(usize),
    /// Control: the monster's start-of-fight effects on each character, in turn order.
    StartEffects,
    Afflict {
        who: usize,
        ailment: Ailment,
        rounds: u32,
        start: bool,
    },
    Cure {
        who: usize,
        ailment: Ailment,
    },
    /// The next action on the track.
    Act,
    Outcome {
        target: usize,
    },
    /// An attack's effects on a target that was hit (pushes the steps below).
    Effects {
        target: usize,
    },
    Damage {
        target: usize,
        base: DamageBase,
    },
    DefeatCheck(usize),
    Tick {
        who: usize,
        ailment: Ailment,
    },
    EndRound,
    Fame {
        who: usize,
        delta: i32,
    },
    Trophy {
        who: usize,
    },
    /// Control: the current action is complete.
    EndAction,
    /// Control: the next token, or the end of the round.
    NextAction,
}

/// Where the fight is, when no consequence is pending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Joining,
    /// Participants tied for the token roll Finesse, then play goes on at `resume`.
    TieBreak {
        tied: Vec<usize>,
        rolls: Vec<(usize, Vec<u8>)>,
        resume: Box<Phase>,
    },
    Reveal,
    MonsterRoll {
        second: bool,
    },
    Actions,
    AwaitTarget,
    AwaitRoll,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Seating order, clockwise (the turn order direction); the monster is seated at `begin`.
    pub fighters: Vec<Fighter>,
    /// The monster until it is seated at `begin`, with where it is.
    pub pending_monster: Option<(Fighter, Place, u32)>,
    /// Characters who joined (the monster's +4 Grit / +1 Priority per character beyond 1).
    pub characters: u32,
    pub round: u32,
    pub phase: Phase,
    pub holder: Option<usize>,
    pub track: Vec<Token>,
    /// Tokens already resolved this round, in the order they came off the track.
    pub done: Vec<Token>,
    pub steps: Vec<Step>,
    pub current: Option<Current>,
    /// Lure succeeded this round: the Breakable passive is ignored.
    pub lured: bool,
    /// The monster's (first) action of this round has been rolled.
    pub monster_rolled: bool,
    /// The character who played Balance this round.
    pub balance: Option<usize>,
    /// Targeting: the next single-target attack starts with the second condition.
    pub alternate: bool,
    /// The last character whose attack on the monster succeeded.
    pub last_hit: Option<usize>,
    /// Who won, once the fight is over.
    pub winner: Option<String>,
}
