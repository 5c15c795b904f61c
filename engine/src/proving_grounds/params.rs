//! Setup parameters and interpretations of the training game, and their validated form.
//!
//! Every reading of a passage the rulebook leaves open is a named parameter with a default,
//! so a disputed ruling is replayed under the other reading by changing one value.

use super::modules::Modules;
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
pub const SHIELD_REFLECT: &str = "shield-reflect";
pub const SUN_MOON_POSITIONS: &str = "sun-moon-positions";
pub const CONSPIRATORS_START: &str = "conspirators-start";
pub const DRAGONLING_WEAKNESS: &str = "dragonling-weakness";
pub const CHARIOT_DICE: &str = "chariot-dice";
pub const CHARIOT_UNMET_DICE: &str = "chariot-unmet-dice";
pub const INSPIRATION_REUSE: &str = "inspiration-reuse";
pub const CHARIOT_UNMET: &str = "chariot-unmet";
pub const CHARIOT_DRAW: &str = "chariot-draw";
pub const REPLACEMENT: &str = "replacement";

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
        allowed: &["round", "game"],
        default: "round",
        doc: "When the Rolls tracker is reset. The card says only \"For each reroll, reduce the Rolls \
              tracker\" under Step 1: `round` = it starts full every round (its steps are a round's); \
              `game` = it is set once and never refilled (only inspiration cards add rerolls).",
        section: "Reference card: Step 1",
    },
    ParamSpec {
        name: SHIELD_REFLECT,
        kind: ParamKind::Interpretation,
        allowed: &["keeps", "removed"],
        default: "keeps",
        doc: "Shields: \"Correct set, shielded: marker down one (reflected)\" does not say what becomes of \
              the shield. `keeps` = the shield stays (only a single removes it, as its own row says); \
              `removed` = the reflected set also strips it (with the same `down N` record, nothing \
              more to write).",
        section: "Reference card: Attack Resolution Summary",
    },
    ParamSpec {
        name: SUN_MOON_POSITIONS,
        kind: ParamKind::Interpretation,
        allowed: &["faced-opposite", "neighbours"],
        default: "faced-opposite",
        doc: "Sun and Moon: which slots are in the sun and moon positions when Maia faces slot F. The \
              text says only \"Rotate the dial so Maia faces the enemy of your choice\" and names \"the \
              enemy in the sun position\" and \"the enemy in the moon position\". `faced-opposite` = the \
              faced enemy is in the sun, the one across the board (F+3) in the moon; `neighbours` = the \
              sun is the next slot (F+1) and the moon the previous one (F-1), around the board.",
        section: "Reference card: Start of Round; Step 2 (Sun and Moon module)",
    },
    ParamSpec {
        name: CONSPIRATORS_START,
        kind: ParamKind::Interpretation,
        allowed: &["<a number 0-6>"],
        default: "1",
        doc: "Conspirators: how many conspirator cards are revealed at setup. The card says only \"If the \
              result matches any revealed conspirator\" and \"Draw a new conspirator card if any remain\" \
              after a defeat; with none revealed at first the module would do nothing until the first \
              defeat, so the default reveals one.",
        section: "Reference card: Start of Round; Step 2B (Conspirators module)",
    },
    ParamSpec {
        name: DRAGONLING_WEAKNESS,
        kind: ParamKind::Interpretation,
        allowed: &["unverified", "extra-die"],
        default: "unverified",
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
        allowed: &["required", "any"],
        default: "required",
        doc: "Chariots: which dice may be placed on the chariot. \"Place any required dice on the chariot \
              to satisfy its defeat condition\": `required` = only a die that fills a part of the \
              condition still unfilled; `any` = any die (dice beyond the condition simply sit there).",
        section: "Reference card: Step 1 (Chariots module)",
    },
    ParamSpec {
        name: CHARIOT_UNMET_DICE,
        kind: ParamKind::Interpretation,
        allowed: &["return", "stay"],
        default: "return",
        doc: "Chariots: what becomes of the dice on a chariot whose requirement is not met. The card says \
              only that a met chariot's dice go to reserve. `return` = they come back to the pool at \
              recovery like assigned dice; `stay` = they stay on the chariot toward next round's \
              condition while it stays in play (see `chariot-unmet`; a discarded chariot's dice return).",
        section: "Reference card: Step 2 (Chariots module)",
    },
    ParamSpec {
        name: CHARIOT_UNMET,
        kind: ParamKind::Interpretation,
        allowed: &["stays", "discarded"],
        default: "stays",
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
        allowed: &["required", "optional"],
        default: "required",
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
        allowed: &["once", "free"],
        default: "once",
        doc: "Inspiration: the rulebook lists \"15 Inspiration Cards\" and no rule for them. `once` = a card \
              played is spent for the game; `free` = a card may be played again.",
        section: "Components",
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
        allowed: &["any", "wounding-enemy"],
        default: "any",
        doc: "Which die a wound sends to the exhaustion track. \"Add one of your dice to the exhaustion \
              track\" does not say which: `any` = any die not already exhausted (the dice assigned \
              this round included: they are still yours); `wounding-enemy` = a die assigned to the \
              enemy that wounded you (showing its slot number) when one is left, else any die.",
        section: "Suffering Wounds",
    },
    ParamSpec {
        name: REPLACE_WITHOUT_WHITE,
        kind: ParamKind::Interpretation,
        allowed: &["skip", "colored", "add"],
        default: "skip",
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
        allowed: &["optional", "mandatory"],
        default: "optional",
        doc: "Whether the replacement on entering the stack's space may be declined. \"You get to replace \
              one of the white dice\" grants a permission: `optional` = the player may decline (nothing is \
              recorded; the stack still moves down one space, so the next wound enters it again, as \"The \
              next time you suffer a wound ... you will get to replace a die again\" says); `mandatory` = \
              the replacement must be made before the next wound or the end of the round \
              (`pg.replace.owed`).",
        section: "Replacing Dice",
    },
    ParamSpec {
        name: MULTI_SPACE,
        kind: ParamKind::Interpretation,
        allowed: &["required", "optional"],
        default: "required",
        doc: "A set with separate dice for several spaces: \"If there are enough dice in the set to move \
              up multiple spaces, you may do so, but each space requires separate dice.\" `required` \
              reads \"may\" as permission every player takes (the marker goes as far as the set \
              reaches); `optional` lets the player stop after any number of spaces, at least one.",
        section: "A. Move Battle Markers (Multiple Spaces)",
    },
    ParamSpec {
        name: TIMER,
        kind: ParamKind::Interpretation,
        allowed: &["strict", "inclusive"],
        default: "inclusive",
        doc: "When timestamps are recorded, whether a reroll exactly 60 seconds after the roll is in time. \
              The timer starts with step 1 (\"At the beginning of this step, start the timer ... You now \
              have 60 seconds!\"), so it is measured from the roll's own time (`t=` on the `roll`, 0 when \
              it has none). \"You may reroll your dice ... until the timer goes off\": `inclusive` = a \
              reroll 60 s after the roll counts, only later ones break the timer; `strict` = the timer goes \
              off at 60 s, so a reroll 60 s after the roll is late.",
        section: "Step 1: Roll Dice",
    },
];

/// How `exhaust-from` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExhaustFrom {
    Any,
    WoundingEnemy,
}

/// How `replace-without-white` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceWithoutWhite {
    Skip,
    Colored,
    Add,
}

/// The setup, validated: numbers in range, every interpretation decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Spaces on the health track; reaching space `health` loses.
    pub health: u8,
    /// The space where the colored stack starts.
    pub rings: u8,
    pub exhaust_from: ExhaustFrom,
    pub replace_without_white: ReplaceWithoutWhite,
    /// Whether a set may move fewer spaces than it reaches.
    pub multi_space_optional: bool,
    /// The last second (since the roll) a reroll is in time.
    pub last_reroll_second: u16,
    pub modules: Modules,
    /// The Rolls tracker's size, and whether it refills every round.
    pub rolls: u8,
    pub rolls_per_round: bool,
    /// A reflected set also removes the shield.
    pub reflect_removes_shield: bool,
    /// Sun and moon slots: the faced one and the opposite (else the two neighbours).
    pub sun_faced: bool,
    pub conspirators_start: u8,
    /// The dragonling die joins the attack on an enemy weak to its face.
    pub dragon_extra_die: bool,
    /// Only dice filling an unfilled part of a chariot's condition may be placed on it.
    pub chariot_required_only: bool,
    /// Dice on an unmet chariot stay there.
    pub chariot_dice_stay: bool,
    /// An unmet chariot is discarded after it activates (else it stays in play).
    pub chariot_unmet_discarded: bool,
    /// A chariot must be drawn at the start of a round when none is in play.
    pub chariot_draw_required: bool,
    /// The replacement on entering the stack's space must be made (else it may be declined).
    pub replacement_mandatory: bool,
    pub inspiration_once: bool,
}

impl Config {
    /// Check a setup; every reason at once.
    pub fn from_setup(setup: &Setup) -> Result<Config, SetupError> {
        let values = setup.resolve(PARAMS)?;
        let get = |name: &str| values.get(name).map(String::as_str).unwrap_or("");
        let mut reasons = Vec::new();
        let health = match get(HEALTH).parse::<u8>() {
            Ok(h @ 5..=20) => h,
            _ => {
                reasons.push(format!("`health={}` must be a number of spaces from 5 to 20", get(HEALTH)));
                8
            }
        };
        let rings = match get(RINGS).parse::<u8>() {
            // The stack occupies three spaces in turn (rings, rings+1, rings+2), all before the
            // last space, and the marker starts above it.
            Ok(r) if r >= 2 && r + 3 <= health => r,
            _ => {
                reasons.push(format!(
                    "`rings={}` must be a health space from 2 to {} (the three replacements must \
                     happen before the last space {health})",
                    get(RINGS),
                    health.saturating_sub(3)
                ));
                2
            }
        };
        let exhaust_from =
            if get(EXHAUST_FROM) == "wounding-enemy" { ExhaustFrom::WoundingEnemy } else { ExhaustFrom::Any };
        let replace_without_white = match get(REPLACE_WITHOUT_WHITE) {
            "colored" => ReplaceWithoutWhite::Colored,
            "add" => ReplaceWithoutWhite::Add,
            _ => ReplaceWithoutWhite::Skip,
        };
        let last_reroll_second = if get(TIMER) == "strict" { 59 } else { 60 };
        let modules = Modules::parse(get(MODULES)).unwrap_or_else(|errs| {
            reasons.extend(errs);
            Modules::NONE
        });
        let rolls = match get(ROLLS_SIZE).parse::<u8>() {
            Ok(n @ 0..=30) => n,
            _ => {
                reasons.push(format!(
                    "`rolls-size={}` must be a number of rerolls from 0 to 30",
                    get(ROLLS_SIZE)
                ));
                10
            }
        };
        let conspirators_start = match get(CONSPIRATORS_START).parse::<u8>() {
            Ok(n @ 0..=6) => n,
            _ => {
                reasons.push(format!(
                    "`conspirators-start={}` must be a number of cards from 0 to 6",
                    get(CONSPIRATORS_START)
                ));
                1
            }
        };
        if !reasons.is_empty() {
            return Err(SetupError { reasons });
        }
        Ok(Config {
            health,
            rings,
            exhaust_from,
            replace_without_white,
            multi_space_optional: get(MULTI_SPACE) == "optional",
            last_reroll_second,
            modules,
            rolls,
            rolls_per_round: get(ROLLS_RESET) != "game",
            reflect_removes_shield: get(SHIELD_REFLECT) == "removed",
            sun_faced: get(SUN_MOON_POSITIONS) != "neighbours",
            conspirators_start,
            dragon_extra_die: get(DRAGONLING_WEAKNESS) == "extra-die",
            chariot_required_only: get(CHARIOT_DICE) != "any",
            chariot_dice_stay: get(CHARIOT_UNMET_DICE) == "stay",
            chariot_unmet_discarded: get(CHARIOT_UNMET) == "discarded",
            chariot_draw_required: get(CHARIOT_DRAW) != "optional",
            replacement_mandatory: get(REPLACEMENT) == "mandatory",
            inspiration_once: get(INSPIRATION_REUSE) != "free",
        })
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
}
