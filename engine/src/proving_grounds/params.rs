//! Setup parameters and interpretations of the training game, and their validated form.
//!
//! Every reading of a passage the rulebook leaves open is a named parameter with a default,
//! so a disputed ruling is replayed under the other reading by changing one value.

use crate::{ParamKind, ParamSpec, Setup, SetupError};

pub const MODULES: &str = "modules";
pub const HEALTH: &str = "health";
pub const RINGS: &str = "rings";
pub const EXHAUST_FROM: &str = "exhaust-from";
pub const REPLACE_WITHOUT_WHITE: &str = "replace-without-white";
pub const MULTI_SPACE: &str = "multi-space";
pub const TIMER: &str = "timer";

/// Every parameter `ProvingGrounds` accepts.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: MODULES,
        kind: ParamKind::Setup,
        allowed: &["none"],
        default: "none",
        doc: "The optional modules in play. Only the training game (`none`) is implemented; the six \
              modules (Shields, Sun and Moon, Conspirators, Dragonling, Chariots, Inspiration) come later.",
        section: "Game Play (note: core game and six modules)",
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
        doc: "When timestamps are recorded, whether a reroll at exactly 60 seconds is in time. \"You may \
              reroll your dice ... until the timer goes off\": `inclusive` = a reroll at t=60 counts, \
              only later ones break the timer; `strict` = the timer goes off at 60, so t=60 is late.",
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
        let bad = Setup::from_pairs(["modules=shields"]).and_then(|s| Config::from_setup(&s));
        assert!(bad.is_err());
    }
}
