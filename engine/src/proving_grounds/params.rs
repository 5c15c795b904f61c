//! Setup parameters and interpretations of the training game, and their validated form.
//!
//! Every reading of a passage the rulebook leaves open is a named parameter with a default,
//! so a disputed ruling is replayed under the other reading by changing one value.
//!
//! The modules in play are one of them: the rulebook calls Proving Grounds "a core game ... and
//! six modules that can be added, in any combination"; the reference card adds the Rolls
//! tracker. A setup names them as a comma-separated list (`modules=shields,sun-moon`).

use crate::kit::named::named_enum;
use crate::kit::rules::Readings;
use crate::{ParamKind, ParamSpec, Setup, SetupError};

pub const MODULES: &str = "modules";
pub const HEALTH: &str = "health";
pub const RINGS: &str = "rings";
pub const EXHAUST_FROM: &str = "exhaust-from";
pub const REPLACE_WITHOUT_WHITE: &str = "replace-without-white";
pub const MULTI_SPACE: &str = "multi-space";
pub const TIMER: &str = "timer";
pub const ROLLS_SIZE: &str = "rolls-size";
pub const ROLLS_RESET: &str = "rolls-reset";
pub const ROLLS_TIMER: &str = "rolls-timer";
pub const SHIELD_REFLECT: &str = "shield-reflect";
pub const SUN_MOON_POSITIONS: &str = "sun-moon-positions";
pub const SUN_BORROW: &str = "sun-borrow";
pub const CONSPIRATORS_START: &str = "conspirators-start";
pub const DRAGONLING_WEAKNESS: &str = "dragonling-weakness";
pub const CHARIOT_DICE: &str = "chariot-dice";
pub const CHARIOT_UNMET_DICE: &str = "chariot-unmet-dice";
pub const INSPIRATION_REUSE: &str = "inspiration-reuse";
pub const EFFECT_DIE_RETURN: &str = "effect-die-return";
pub const CHARIOT_UNMET: &str = "chariot-unmet";
pub const CHARIOT_DRAW: &str = "chariot-draw";
pub const REPLACEMENT: &str = "replacement";
pub const RING_ENTRY: &str = "ring-entry";

/// Every parameter `ProvingGrounds` accepts.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: MODULES,
        kind: ParamKind::Setup,
        allowed: &["<none, or a comma-separated list of shields, sun-moon, conspirators, dragonling, chariots, inspiration, rolls>"],
        default: "none",
        doc: "The optional modules in play, in any combination: \"Proving Grounds is made up of a core game \
              (the \"training game\") and six modules that can be added, in any combination\". `rolls` is \
              the reference card's Rolls tracker (its size is `rolls-size`).",
        section: "Game Play (note: core game and six modules); Reference card",
    },
    ParamSpec {
        name: ROLLS_SIZE,
        kind: ParamKind::Setup,
        allowed: &["<a number 0-30>"],
        default: "10",
        doc: "The Rolls tracker's size (rerolls available) when the `rolls` module is in play: \"For each \
              reroll, reduce the Rolls tracker ... Stop when satisfied or out of rerolls.\" The card \
              prints no size, so it is the table's choice.",
        section: "Reference card: Step 1",
    },
    ParamSpec {
        name: ROLLS_RESET,
        kind: ParamKind::Interpretation,
        allowed: RollsReset::NAMES,
        default: RollsReset::Round.name(),
        doc: "When the Rolls tracker is reset. The card says only \"For each reroll, reduce the Rolls \
              tracker\" under Step 1: `round` = it starts full every round (its steps are a round's); \
              `game` = it is set once and never refilled (only inspiration cards add rerolls).",
        section: "Reference card: Step 1",
    },
    ParamSpec {
        name: ROLLS_TIMER,
        kind: ParamKind::Interpretation,
        allowed: RollsTimer::NAMES,
        default: RollsTimer::Both.name(),
        doc: "Whether the one-minute timer still ends step 1 when the Rolls tracker is in play. The \
              rulebook: \"You may reroll your dice ... until you are satisfied with the results or until \
              the timer goes off\"; the card's Step 1 names no timer: \"For each reroll, reduce the Rolls \
              tracker. Stop when satisfied or out of rerolls.\" `both` = the card adds a limit and removes \
              none: a reroll (or a die loaded on a chariot) after the timer breaks `pg.roll.timer` as in \
              the training game; `tracker-only` = with the tracker in play it replaces the timer, and \
              recorded times never make a reroll late. Without the `rolls` module the timer applies \
              either way.",
        section: "Step 1: Roll Dice; Reference card: Step 1",
    },
    ParamSpec {
        name: SHIELD_REFLECT,
        kind: ParamKind::Interpretation,
        allowed: ShieldReflect::NAMES,
        default: ShieldReflect::Keeps.name(),
        doc: "Shields: \"Correct set, shielded: marker down one (reflected)\" does not say what becomes of \
              the shield. `keeps` = the shield stays (only a single removes it, as its own row says); \
              `removed` = the reflected set also strips it (with the same `down N` record, nothing \
              more to write).",
        section: "Reference card: Attack Resolution Summary",
    },
    ParamSpec {
        name: SUN_MOON_POSITIONS,
        kind: ParamKind::Interpretation,
        allowed: SunMoonPositions::NAMES,
        default: SunMoonPositions::FacedOpposite.name(),
        doc: "Sun and Moon: which slots are in the sun and moon positions when Maia faces slot F. The \
              text says only \"Rotate the dial so Maia faces the enemy of your choice\" and names \"the \
              enemy in the sun position\" and \"the enemy in the moon position\". `faced-opposite` = the \
              faced enemy is in the sun, the one across the board (F+3) in the moon; `neighbours` = the \
              sun is the next slot (F+1) and the moon the previous one (F-1), around the board.",
        section: "Reference card: Start of Round; Step 2 (Sun and Moon module)",
    },
    ParamSpec {
        name: SUN_BORROW,
        kind: ParamKind::Interpretation,
        allowed: SunBorrow::NAMES,
        default: SunBorrow::NextRound.name(),
        doc: "Sun and Moon: when the die borrowed for a hit on the sun enemy joins the pool. The card: \
              \"borrow one colored die to your dice pool for next round\" and, at Step 3, \"Return any \
              colored dice borrowed in the previous round back to the dial\". `next-round` = the die \
              joins the pool at this round's recovery, is rolled next round and goes back to the dial \
              at that round's recovery (a wound this round cannot exhaust it); `at-once` = it joins the \
              pool when borrowed, so a wound later this round may send it to the exhaustion track.",
        section: "Reference card: Step 2A; Step 3 (Sun and Moon module)",
    },
    ParamSpec {
        name: CONSPIRATORS_START,
        kind: ParamKind::Interpretation,
        allowed: &["<a number 0-6>"],
        default: "0",
        doc: "Conspirators: how many conspirator cards are revealed at setup. The card says only \"If the \
              result matches any revealed conspirator\" and \"Draw a new conspirator card if any remain\" \
              after a defeat, and the rulebook's Setup has no conspirator step: by the plain words none \
              is revealed at setup (the default, 0; rules 13). Another number reveals that many before \
              the first roll (1 was the default up to rules 12: with none the module does nothing until \
              the first defeat).",
        section: "Reference card: Start of Round; Step 2B (Conspirators module)",
    },
    ParamSpec {
        name: DRAGONLING_WEAKNESS,
        kind: ParamKind::Interpretation,
        allowed: DragonlingWeakness::NAMES,
        default: DragonlingWeakness::Unverified.name(),
        doc: "Dragonling: what an enemy's weakness does. The rulebook says only \"This icon represents a \
              weakness to a specific result from the dragonling die.\" `unverified` = the engine does not \
              guess: a marker move against an enemy whose icon matches the dragonling die is reported as \
              an unverified effect; `extra-die` = the dragonling die joins the attack on that enemy as one \
              more (white) die.",
        section: "Enemy Card Anatomy (8 Dragonling Icon); Reference card: Step 1",
    },
    ParamSpec {
        name: CHARIOT_DICE,
        kind: ParamKind::Interpretation,
        allowed: ChariotDice::NAMES,
        default: ChariotDice::Required.name(),
        doc: "Chariots: which dice may be placed on the chariot. \"Place any required dice on the chariot \
              to satisfy its defeat condition\": `required` = only a die that fills a part of the \
              condition still unfilled; `any` = any die (dice beyond the condition simply sit there).",
        section: "Reference card: Step 1 (Chariots module)",
    },
    ParamSpec {
        name: CHARIOT_UNMET_DICE,
        kind: ParamKind::Interpretation,
        allowed: ChariotUnmetDice::NAMES,
        default: ChariotUnmetDice::Return.name(),
        doc: "Chariots: what becomes of the dice on a chariot whose requirement is not met. The card says \
              only that a met chariot's dice go to reserve. `return` = they come back to the pool at \
              recovery like assigned dice; `stay` = they stay on the chariot toward next round's \
              condition while it stays in play (see `chariot-unmet`; a discarded chariot's dice return).",
        section: "Reference card: Step 2 (Chariots module)",
    },
    ParamSpec {
        name: CHARIOT_UNMET,
        kind: ParamKind::Interpretation,
        allowed: ChariotUnmet::NAMES,
        default: ChariotUnmet::Stays.name(),
        doc: "Chariots: what becomes of a chariot whose requirement is not met. The card says \"If the \
              chariot requirement is not met, activate its effect. If met, discard the chariot\", and Step 1 \
              calls the requirement its \"defeat condition\": only meeting it discards the chariot, as only \
              reaching the top space defeats an enemy. `stays` = an unmet chariot stays in play and \
              activates again every round until its condition is met; `discarded` = it is discarded after \
              it activates (a new chariot comes next round).",
        section: "Reference card: Step 1 and Step 2 (Chariots module)",
    },
    ParamSpec {
        name: CHARIOT_DRAW,
        kind: ParamKind::Interpretation,
        allowed: ChariotDraw::NAMES,
        default: ChariotDraw::Required.name(),
        doc: "Chariots: when a chariot is drawn. The card never says; it names \"the chariot\" in Step 1 \
              and Step 2 of every round, so this is the project's reading, not the book's rule. \
              `required` = at the start of every round in which no chariot is in play, one is drawn \
              before the roll while the chariot deck lasts (a roll without one breaks \
              `pg.chariots.draw`); `optional` = the table draws one at the start of a round when it \
              chooses. Either way a chariot is drawn before the roll, one at a time, each card once.",
        section: "Reference card: Step 1 and Step 2 (Chariots module)",
    },
    ParamSpec {
        name: INSPIRATION_REUSE,
        kind: ParamKind::Interpretation,
        allowed: InspirationReuse::NAMES,
        default: InspirationReuse::Once.name(),
        doc: "Inspiration: the rulebook lists \"15 Inspiration Cards\" and no rule for them. `once` = a card \
              played is spent for the game; `free` = a card may be played again.",
        section: "Components",
    },
    ParamSpec {
        name: EFFECT_DIE_RETURN,
        kind: ParamKind::Interpretation,
        allowed: EffectDieReturn::NAMES,
        default: EffectDieReturn::PoolFirst.name(),
        doc: "A die an unverified effect gave for its round (a roll holding a die beyond the pool, as a \
              card's \"Take a colored die from the dial for this round\") leaves when the round ends; a wound \
              of that round may have sent a die of its color to the exhaustion track (\"Add one of your dice \
              to the exhaustion track\"), and the log names only the color, not which die. `pool-first` = \
              the die leaves from the pool, the track keeping what the wound put there: the book moves a die \
              off the track only as it moves off the bottom space (Step 3: \"Any dice that were on the \
              bottom space now move off the exhaustion track and return to your dice pool\"); \
              `track-first` = the die the wound exhausted was the effect's, and it leaves from the track \
              (the dice this round put on its top space), the pool keeping its own. The same question, \
              the same reading, for a die borrowed from the Sun and Moon dial (reference card l.37 \
              \"Return any colored dice borrowed in the previous round back to the dial\") when a wound \
              exhausted a die of its color while it was in the pool: `pool-first` returns the pool's die, \
              `track-first` the exhausted one from the track.",
        section: "Suffering Wounds; Step 3: Recover; reference card Step 3 (Sun and Moon)",
    },
    ParamSpec {
        name: HEALTH,
        kind: ParamKind::Interpretation,
        allowed: &["<a number 5-20>"],
        default: "8",
        doc: "How many spaces the health track has, counting the top left start space and the last \
              space. The rulebook never prints the board: \"Place the health marker on the top left \
              space of the health track\" and \"if the health marker reaches the last space of the \
              health track, you lose!\". With 8, the seventh wound loses.",
        section: "Setup (5); Object of the Game",
    },
    ParamSpec {
        name: RINGS,
        kind: ParamKind::Interpretation,
        allowed: &["<a number 2 to health-3>"],
        default: "3",
        doc: "The health space (1 = start) with the three colored rings where the colored stack \
              starts: \"place them on the space with three colored rings on the health track\". The \
              board is not printed. 3 makes the book's two examples consecutive: the wound example \
              moves the marker to space 2 and \"Carter has suffered another wound, and this time the \
              health marker moves into the space ... with the stack of colored dice\". The stack \
              then moves down one space per replacement, so it must end before the last space.",
        section: "Setup (7); Replacing Dice",
    },
    ParamSpec {
        name: EXHAUST_FROM,
        kind: ParamKind::Interpretation,
        allowed: ExhaustFrom::NAMES,
        default: ExhaustFrom::Any.name(),
        doc: "Which die a wound sends to the exhaustion track. \"Add one of your dice to the exhaustion \
              track\" does not say which: `any` = any die not already exhausted (the dice assigned \
              this round included: they are still yours); `wounding-enemy` = a die assigned to the \
              enemy that wounded you (showing its slot number) when one is left, else any die.",
        section: "Suffering Wounds",
    },
    ParamSpec {
        name: REPLACE_WITHOUT_WHITE,
        kind: ParamKind::Interpretation,
        allowed: ReplaceWithoutWhite::NAMES,
        default: ReplaceWithoutWhite::Skip.name(),
        doc: "Entering the ring space when no white die is left to replace: \"you get to replace one \
              of the white dice in your dice pool with one of the colored dice from the stack\" \
              presumes one. `skip` = no replacement, the stack still moves down one space; `colored` = \
              replace a colored die instead (`replace g -> y`); `add` = take the colored die without \
              discarding one (`replace - -> y`).",
        section: "Replacing Dice",
    },
    ParamSpec {
        name: REPLACEMENT,
        kind: ParamKind::Interpretation,
        allowed: Replacement::NAMES,
        default: Replacement::Optional.name(),
        doc: "Whether the replacement on entering the stack's space may be declined. \"You get to replace \
              one of the white dice\" grants a permission: `optional` = the player may decline (nothing is \
              recorded; the stack still moves down one space, so the next wound enters it again, as \"The \
              next time you suffer a wound ... you will get to replace a die again\" says); `mandatory` = \
              the replacement must be made before the next wound or the end of the round \
              (`pg.replace.owed`).",
        section: "Replacing Dice",
    },
    ParamSpec {
        name: RING_ENTRY,
        kind: ParamKind::Interpretation,
        allowed: RingEntry::NAMES,
        default: RingEntry::AnyLoss.name(),
        doc: "Which health losses allow the replacement. The reference card's summary says \"When your health \
              marker enters a colored ring, replace one white die in your pool with a colored die of your \
              choice\" (l.56); the rulebook's sentence names the loss of the base game, a wound: \"If suffering \
              a wound causes the health marker to move into the space on your health track with the stack \
              of colored dice, you get to replace one of the white dice\" (l.173). The book prints no chariot \
              card, so it never names a health loss that is not a wound (a catalog's chariot `health -N`). \
              `any-loss` (default) = the card's plain words, and the only reading under which the stack \
              keeps the place the book gives it (l.175 \"The next time you suffer a wound and your health \
              marker moves down another space, you will get to replace a die again\"): any loss carrying \
              the marker into or past the stack's space allows the replacement once, and the stack then \
              moves to one space below the marker (a project reading: the book has no loss of several \
              spaces). `wound` = only a wound moving the marker into the stack's space allows one; a \
              chariot's loss moves the marker (and can lose the game) but allows none, a `replace` after it \
              breaks `pg.replace.not-owed`, and the stack stays where it is (it moves down only with a \
              replacement), so once a chariot has carried the marker onto or past it no later wound \
              reaches it.",
        section: "Replacing Dice; Reference card: Colored Dice",
    },
    ParamSpec {
        name: MULTI_SPACE,
        kind: ParamKind::Interpretation,
        allowed: MultiSpace::NAMES,
        default: MultiSpace::Optional.name(),
        doc: "A set with separate dice for several spaces: \"If there are enough dice in the set to move \
              up multiple spaces, you may do so, but each space requires separate dice.\" \"May\" grants a permission: \
              `optional` = the player may stop after any number of spaces, at least one (the \
              marker may go as far as the set's separate dice reach); `required` = the marker \
              must go as far as the set reaches.",
        section: "A. Move Battle Markers (Multiple Spaces)",
    },
    ParamSpec {
        name: TIMER,
        kind: ParamKind::Interpretation,
        allowed: Timer::NAMES,
        default: Timer::Inclusive.name(),
        doc: "When timestamps are recorded, whether a reroll exactly 60 seconds after the roll is in time. \
              The timer starts with step 1 (\"At the beginning of this step, start the timer ... You now \
              have 60 seconds!\"), so it is measured from the roll's own time (`t=` on the `roll`, 0 when \
              it has none). \"You may reroll your dice ... until the timer goes off\": `inclusive` = a \
              reroll 60 s after the roll counts, only later ones break the timer; `strict` = the timer goes \
              off at 60 s, so a reroll 60 s after the roll is late.",
        section: "Step 1: Roll Dice",
    },
];

named_enum! {
    /// One optional module, by the name `modules=...` uses.
    pub enum Module ("a module") {
        Shields = "shields",
        SunMoon = "sun-moon",
        Conspirators = "conspirators",
        Dragonling = "dragonling",
        Chariots = "chariots",
        Inspiration = "inspiration",
        Rolls = "rolls",
    }
}

impl Module {
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modules(u8);

impl Modules {
    pub const NONE: Modules = Modules(0);

    pub fn has(self, m: Module) -> bool {
        self.0 & m.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn with(self, m: Module) -> Modules {
        Modules(self.0 | m.bit())
    }

    /// Read `none` or a comma-separated list of module names; every unknown or repeated
    /// name is reported.
    pub fn parse(text: &str) -> Result<Modules, Vec<String>> {
        let mut out = Modules::NONE;
        let mut errors = Vec::new();
        if text.trim() == "none" {
            return Ok(out);
        }
        for word in text.split(',').map(str::trim) {
            match Module::parse(word) {
                Some(m) if out.has(m) => errors.push(format!("module `{word}` is listed twice")),
                Some(m) => out = out.with(m),
                None => errors
                    .push(format!("unknown module `{word}` (known: none, {})", Module::NAMES.join(", "))),
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// The modules in play, in the canonical order. An empty set ends at once: the core
    /// round loops over the modules at each of its hooks, and the training game pays one test.
    pub fn iter(self) -> ModulesInPlay {
        ModulesInPlay(self.0)
    }

    /// The modules in play, by name, in the canonical order.
    pub fn names(self) -> Vec<&'static str> {
        Module::ALL.iter().filter(|&&m| self.has(m)).map(|m| m.name()).collect()
    }
}

/// The modules of a set, lowest bit first (see `Modules::iter`).
#[derive(Debug, Clone)]
pub struct ModulesInPlay(u8);

impl Iterator for ModulesInPlay {
    type Item = Module;
    #[inline]
    fn next(&mut self) -> Option<Module> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Module::ALL.get(k).copied()
    }
}

named_enum! {
    /// `exhaust-from`: which die a wound sends to the exhaustion track.
    pub enum ExhaustFrom ("a reading of exhaust-from") { Any = "any", WoundingEnemy = "wounding-enemy" }
}
named_enum! {
    /// `replace-without-white`: entering the stack's space with no white die.
    pub enum ReplaceWithoutWhite ("a reading of replace-without-white") {
        Skip = "skip",
        Colored = "colored",
        Add = "add",
    }
}
named_enum! {
    /// `ring-entry`: which health losses allow the replacement.
    pub enum RingEntry ("a reading of ring-entry") { Wound = "wound", AnyLoss = "any-loss" }
}
named_enum! {
    /// `replacement`: whether the replacement may be declined.
    pub enum Replacement ("a reading of replacement") { Optional = "optional", Mandatory = "mandatory" }
}
named_enum! {
    /// `multi-space`: whether a set may stop before the spaces it reaches.
    pub enum MultiSpace ("a reading of multi-space") { Required = "required", Optional = "optional" }
}
named_enum! {
    /// `timer`: whether a reroll exactly 60 s after the roll is in time.
    pub enum Timer ("a reading of timer") { Inclusive = "inclusive", Strict = "strict" }
}
named_enum! {
    /// `rolls-reset`: when the Rolls tracker is set.
    pub enum RollsReset ("a reading of rolls-reset") { Round = "round", Game = "game" }
}
named_enum! {
    /// `rolls-timer`: whether the timer still ends step 1 with the Rolls tracker in play.
    pub enum RollsTimer ("a reading of rolls-timer") { Both = "both", TrackerOnly = "tracker-only" }
}
named_enum! {
    /// `shield-reflect`: what a reflected set does to the shield.
    pub enum ShieldReflect ("a reading of shield-reflect") { Keeps = "keeps", Removed = "removed" }
}
named_enum! {
    /// `sun-moon-positions`: the sun and moon slots for the slot faced.
    pub enum SunMoonPositions ("a reading of sun-moon-positions") {
        FacedOpposite = "faced-opposite",
        Neighbours = "neighbours",
    }
}
named_enum! {
    /// `sun-borrow`: when a borrowed die joins the pool.
    pub enum SunBorrow ("a reading of sun-borrow") { NextRound = "next-round", AtOnce = "at-once" }
}
named_enum! {
    /// `dragonling-weakness`: what an enemy's weakness does.
    pub enum DragonlingWeakness ("a reading of dragonling-weakness") {
        Unverified = "unverified",
        ExtraDie = "extra-die",
    }
}
named_enum! {
    /// `effect-die-return`: where a die an effect gave for its round leaves from.
    pub enum EffectDieReturn ("a reading of effect-die-return") {
        PoolFirst = "pool-first",
        TrackFirst = "track-first",
    }
}
named_enum! {
    /// `chariot-dice`: which dice may go on a chariot.
    pub enum ChariotDice ("a reading of chariot-dice") { Required = "required", Any = "any" }
}
named_enum! {
    /// `chariot-unmet-dice`: the dice on an unmet chariot.
    pub enum ChariotUnmetDice ("a reading of chariot-unmet-dice") { Return = "return", Stay = "stay" }
}
named_enum! {
    /// `chariot-unmet`: an unmet chariot stays in play or is discarded.
    pub enum ChariotUnmet ("a reading of chariot-unmet") { Stays = "stays", Discarded = "discarded" }
}
named_enum! {
    /// `chariot-draw`: when a chariot is drawn.
    pub enum ChariotDraw ("a reading of chariot-draw") { Required = "required", Optional = "optional" }
}
named_enum! {
    /// `inspiration-reuse`: whether a card played is spent.
    pub enum InspirationReuse ("a reading of inspiration-reuse") { Once = "once", Free = "free" }
}

/// The setup, validated: numbers in range, every interpretation decided (one field each,
/// named as the interpretation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Spaces on the health track; reaching space `health` loses.
    pub health: u8,
    /// The space where the colored stack starts.
    pub rings: u8,
    pub exhaust_from: ExhaustFrom,
    pub replace_without_white: ReplaceWithoutWhite,
    pub replacement: Replacement,
    pub ring_entry: RingEntry,
    pub multi_space: MultiSpace,
    /// The last second (since the roll) a reroll is in time, as `timer` reads it.
    pub last_reroll_second: u16,
    pub modules: Modules,
    /// The Rolls tracker's size.
    pub rolls: u8,
    pub rolls_reset: RollsReset,
    pub rolls_timer: RollsTimer,
    pub shield_reflect: ShieldReflect,
    pub sun_moon_positions: SunMoonPositions,
    pub sun_borrow: SunBorrow,
    pub conspirators_start: u8,
    pub dragonling_weakness: DragonlingWeakness,
    pub chariot_dice: ChariotDice,
    pub chariot_unmet_dice: ChariotUnmetDice,
    pub chariot_unmet: ChariotUnmet,
    pub chariot_draw: ChariotDraw,
    pub inspiration_reuse: InspirationReuse,
    pub effect_die_return: EffectDieReturn,
}

impl Config {
    /// Check a setup; every reason at once.
    pub fn from_setup(setup: &Setup) -> Result<Config, SetupError> {
        let mut r = Readings::new(setup, PARAMS);
        let health = r.number(HEALTH, 5, 20, 8) as u8;
        // The stack occupies three spaces in turn (rings, rings+1, rings+2), all before the last
        // space, and the marker starts above it.
        let rings = r.number(RINGS, 2, i32::from(health) - 3, 2) as u8;
        let last_reroll_second = match r.get(TIMER, Timer::Inclusive) {
            Timer::Inclusive => 60,
            Timer::Strict => 59,
        };
        let modules = match setup.params.get(MODULES).map_or(Ok(Modules::NONE), |m| Modules::parse(m)) {
            Ok(m) => m,
            Err(errs) => {
                r.problems(errs);
                Modules::NONE
            }
        };
        let config = Config {
            health,
            rings,
            exhaust_from: r.get(EXHAUST_FROM, ExhaustFrom::Any),
            replace_without_white: r.get(REPLACE_WITHOUT_WHITE, ReplaceWithoutWhite::Skip),
            replacement: r.get(REPLACEMENT, Replacement::Optional),
            ring_entry: r.get(RING_ENTRY, RingEntry::AnyLoss),
            multi_space: r.get(MULTI_SPACE, MultiSpace::Optional),
            last_reroll_second,
            modules,
            rolls: r.number(ROLLS_SIZE, 0, 30, 10) as u8,
            rolls_reset: r.get(ROLLS_RESET, RollsReset::Round),
            rolls_timer: r.get(ROLLS_TIMER, RollsTimer::Both),
            shield_reflect: r.get(SHIELD_REFLECT, ShieldReflect::Keeps),
            sun_moon_positions: r.get(SUN_MOON_POSITIONS, SunMoonPositions::FacedOpposite),
            sun_borrow: r.get(SUN_BORROW, SunBorrow::NextRound),
            conspirators_start: r.number(CONSPIRATORS_START, 0, 6, 0) as u8,
            dragonling_weakness: r.get(DRAGONLING_WEAKNESS, DragonlingWeakness::Unverified),
            chariot_dice: r.get(CHARIOT_DICE, ChariotDice::Required),
            chariot_unmet_dice: r.get(CHARIOT_UNMET_DICE, ChariotUnmetDice::Return),
            chariot_unmet: r.get(CHARIOT_UNMET, ChariotUnmet::Stays),
            chariot_draw: r.get(CHARIOT_DRAW, ChariotDraw::Required),
            inspiration_reuse: r.get(INSPIRATION_REUSE, InspirationReuse::Once),
            effect_die_return: r.get(EFFECT_DIE_RETURN, EffectDieReturn::PoolFirst),
        };
        r.finish(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_numbers_are_all_reported() {
        let c = Config::from_setup(&Setup::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.health, c.rings, c.exhaust_from), (8, 3, ExhaustFrom::Any));
        let bad = Setup::from_pairs(["health=3", "rings=9"]).and_then(|s| Config::from_setup(&s));
        assert_eq!(bad.map_err(|e| e.reasons.len()), Err(2));
        let bad = Setup::from_pairs(["rings=6"]).and_then(|s| Config::from_setup(&s));
        assert!(bad.is_err(), "rings 6 on 8 spaces would put the third replacement on the last space");
        let bad = Setup::from_pairs(["modules=shields,wings", "rolls-size=99"])
            .and_then(|s| Config::from_setup(&s));
        assert_eq!(bad.map_err(|e| e.reasons.len()), Err(2));
        let all = "shields,sun-moon,conspirators,dragonling,chariots,inspiration,rolls";
        let ok = Setup::from_pairs([format!("modules={all}").as_str()]).and_then(|s| Config::from_setup(&s));
        assert_eq!(ok.map(|c| c.modules.names().join(",")), Ok(all.to_string()));
    }

    #[test]
    fn every_reading_is_an_enum_value_and_every_value_a_reading() {
        use crate::kit::rules::check_reading;
        let checks = [
            check_reading::<ExhaustFrom>(PARAMS, EXHAUST_FROM),
            check_reading::<ReplaceWithoutWhite>(PARAMS, REPLACE_WITHOUT_WHITE),
            check_reading::<Replacement>(PARAMS, REPLACEMENT),
            check_reading::<RingEntry>(PARAMS, RING_ENTRY),
            check_reading::<MultiSpace>(PARAMS, MULTI_SPACE),
            check_reading::<Timer>(PARAMS, TIMER),
            check_reading::<RollsReset>(PARAMS, ROLLS_RESET),
            check_reading::<RollsTimer>(PARAMS, ROLLS_TIMER),
            check_reading::<ShieldReflect>(PARAMS, SHIELD_REFLECT),
            check_reading::<SunMoonPositions>(PARAMS, SUN_MOON_POSITIONS),
            check_reading::<SunBorrow>(PARAMS, SUN_BORROW),
            check_reading::<DragonlingWeakness>(PARAMS, DRAGONLING_WEAKNESS),
            check_reading::<ChariotDice>(PARAMS, CHARIOT_DICE),
            check_reading::<ChariotUnmetDice>(PARAMS, CHARIOT_UNMET_DICE),
            check_reading::<ChariotUnmet>(PARAMS, CHARIOT_UNMET),
            check_reading::<ChariotDraw>(PARAMS, CHARIOT_DRAW),
            check_reading::<InspirationReuse>(PARAMS, INSPIRATION_REUSE),
            check_reading::<EffectDieReturn>(PARAMS, EFFECT_DIE_RETURN),
        ];
        assert!(checks.iter().all(Result::is_ok), "{checks:?}");
        let enumerated =
            PARAMS.iter().filter(|p| p.kind == ParamKind::Interpretation && !p.allowed[0].starts_with('<'));
        assert_eq!(enumerated.count(), checks.len(), "an interpretation without its enum");
    }

    #[test]
    fn module_lists_parse_in_any_order_and_report_every_bad_name() {
        let m = Modules::parse("sun-moon,shields").unwrap_or_default();
        assert!(m.has(Module::Shields) && m.has(Module::SunMoon) && !m.has(Module::Rolls));
        assert_eq!(m.names(), ["shields", "sun-moon"]);
        assert_eq!(m.iter().collect::<Vec<_>>(), [Module::Shields, Module::SunMoon]);
        assert_eq!(Modules::NONE.iter().next(), None);
        assert_eq!(Modules::parse("none"), Ok(Modules::NONE));
        assert_eq!(Modules::parse("shields,sheilds,shields").map_err(|e| e.len()), Err(2));
    }
}
