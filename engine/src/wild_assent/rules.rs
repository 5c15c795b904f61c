//! The rule catalog and the parameters: every id the step function can report, with the
//! rulebook section it comes from ("Hunt:" and "Arena:" name the two parts of the book),
//! the setup choices, and every reading of a silent or contradictory passage, each a typed
//! value ([`Params`]) so no rule compares setup strings.

use crate::kit::grid::Board;
use crate::kit::named::named_enum;
use crate::kit::rules::{rules, Readings};
use crate::{ParamKind, ParamSpec};

rules! {
    // ---- the board and activations
    FIELD = "wa.board.field",
        "A miniature stands alone on a field that holds no obstacle it may not end on; an obstacle is placed on an empty field",
        "Hunt: Activating Seekers (fields); Keywords (Field)";
    BOUNDS = "wa.board.bounds",
        "Every placement, step and knockback destination is a field of the board",
        "Hunt: Encounter Setup; Arena: Final Setup";
    OWN = "wa.activation.own",
        "A miniature moves and acts only during its own activation",
        "Hunt: Activating Seekers; Arena: Activating Gladiators";
    ONE_AT_A_TIME = "wa.activation.one-at-a-time",
        "An activation ends (its action, a pass, a skip or a Pit) before another begins",
        "Hunt: Playing the Game (Activate Seekers, Activate Creatures)";
    // ---- movement
    SPEED = "wa.move.speed-budget",
        "Steps, rotations and crossings of one activation cost at most its Speed (after Fatigue, Immobilize and skills)",
        "Hunt: Seekers (Speed), Movement; Arena: Movement";
    DIRECTIONS = "wa.move.directions",
        "A step goes to the Front field or the field directly left or right, facing kept; any other direction needs a rotation first",
        "Hunt: Movement; Arena: Movement, Example 1";
    SWIFT = "wa.move.swift",
        "Swift may also step diagonally forward, never diagonally back",
        "Hunt: Seekers (Movement Type), Example 2; Arena: Example 2";
    ROTATE = "wa.move.rotate",
        "A rotation in any direction (90 or 180 degrees) costs 1 Speed",
        "Hunt: Seekers (Speed), Movement; Arena: Example 1";
    OCCUPIED = "wa.move.occupied",
        "A miniature without Flying may not enter a field occupied by another miniature",
        "Hunt: Movement; Arena: Movement";
    FLYING_END = "wa.move.flying-end",
        "Flying ignores miniatures and obstacles while moving but may not end its movement on an occupied field",
        "Hunt: Seekers (Movement Type: Flying), Example 3; Arena: Example 3";
    ACTION_ENDS = "wa.move.action-ends",
        "Any action, even a free action, ends movement; unused Speed is lost",
        "Hunt: Playing the Game, Movement, Keywords (Free Action); Arena: Movement";
    // ---- obstacles
    PARTIAL_DEFENSE = "wa.obstacle.partial-defense",
        "A miniature adjacent to Partial Cover has +1 Defense (Physical and Magical; +1 however many are adjacent)",
        "Hunt: Obstacles (Partial Cover), Keywords (Defense); Arena: Obstacles";
    PARTIAL_NO_END = "wa.obstacle.partial-no-end",
        "No miniature ends its movement on Partial Cover",
        "Hunt: Obstacles (Partial Cover); Arena: Obstacles";
    PARTIAL_CROSS = "wa.obstacle.partial-cross",
        "Partial Cover is crossed by a hop over it that costs 3 Speed (interpretation `partial-cross`)",
        "Hunt: Obstacles (Partial Cover), Example 4; Arena: Example 4";
    FULL_IMPASSABLE = "wa.obstacle.full-impassable",
        "A miniature without Flying may not move over Full Cover; none ends its movement on it",
        "Hunt: Obstacles (Full Cover); Arena: Obstacles";
    FULL_BLOCKS_LOS = "wa.obstacle.full-blocks-los",
        "An attack whose line of sight crosses Full Cover cannot be made, even from a field adjacent to it",
        "Hunt: Obstacles (Full Cover); Arena: Obstacles";
    HAZARD_IS_FULL = "wa.obstacle.hazard-is-full",
        "Thornbrush (Hunt) and Spinning Blades (Arena) are Full Cover in every respect: impassable, blocking line of sight",
        "Hunt: Obstacles (Thornbrush); Arena: Obstacles (Spinning Blades)";
    HAZARD_PUSH = "wa.obstacle.hazard-push",
        "A miniature knocked back into Thornbrush or Spinning Blades stays where it is and is assigned 2 damage and Bleed (interpretation `hazard-push`)",
        "Hunt: Obstacles (Thornbrush); Arena: Obstacles, Example 10";
    PIT_STOP = "wa.obstacle.pit-stop",
        "A miniature entering a Pit ends its activation at once, forfeiting its remaining Speed and its action",
        "Hunt: Obstacles (Pit); Arena: Obstacles";
    PIT_EXIT = "wa.obstacle.pit-exit",
        "A miniature in a Pit spends its whole next activation moving to an adjacent field",
        "Hunt: Obstacles (Pit), Example 10; Arena: Obstacles";
    // ---- actions
    ACTION_ONE = "wa.action.one",
        "After moving, a miniature performs at most one action (attack, Active Skill, Equipment, capture)",
        "Hunt: Actions; Arena: Actions";
    ACTION_FREE = "wa.action.free",
        "A free action uses no action: the activation goes on (its movement is over)",
        "Hunt: Actions, Keywords (Free Action); Arena: Actions";
    ACTIVE_SKILL = "wa.action.active-skill",
        "Only an Active (or free action) Skill of the miniature or its Equipment is used as an action; Passive, Defensive and Special ones never are",
        "Hunt: Skills; Arena: Skills";
    NO_ALLY_TARGET = "wa.action.no-ally-target",
        "No miniature directly targets or attacks its allies (area effects may still hit them)",
        "Hunt: Line of Sight and Range; Arena: Line of Sight and Range";
    // ---- line of sight and range
    ARC = "wa.los.arc",
        "The line from the attacker's centre to the target's lies within the attacker's frontal arc",
        "Hunt: Line of Sight and Range, Example 5; Arena: Example 5";
    BLOCKED = "wa.los.blocked",
        "The line of sight may not cross a field occupied by another miniature (interpretation `los-corner` for a corner touched)",
        "Hunt: Line of Sight and Range, Example 6; Arena: Example 6";
    RANGE = "wa.range.count",
        "The target is within the attack's Range, counted in fields with diagonal steps",
        "Hunt: Line of Sight and Range, Example 7; Arena: Example 7";
    BACK = "wa.attack.back",
        "An attack whose line of sight crosses the target's Back field has +2 damage (interpretation `back-diagonal`)",
        "Hunt: Line of Sight and Range, Examples 6 and 9; Arena: Line of Sight and Range";
    // ---- attack and damage
    DICE_COUNT = "wa.dice.count",
        "An attack rolls exactly its Attack Dice after modifiers (Equipment, skills, Blind)",
        "Hunt: Seekers (Attack Dice), Attacking and Defending; Arena: Example 8";
    DICE_FACES = "wa.dice.faces",
        "A Success and a Special each add 1 damage; a Blank adds nothing",
        "Hunt: Attacking and Defending; Arena: Attacking and Defending";
    ATTACK_TOTAL = "wa.attack.total",
        "An attack's damage is its Base Damage plus the Successes and Specials rolled, +2 from behind, plus skill modifiers",
        "Hunt: Attacking and Defending, Examples 8 and 9; Arena: Examples 8 and 9";
    DEFENSE = "wa.damage.defense",
        "The defender's Physical (physical attack) or Magical (magical attack) Defense is subtracted; the rest, never below 0, is dealt",
        "Hunt: Attacking and Defending, Wild Creature Cards; Arena: Example 8";
    ASSIGN = "wa.damage.assign",
        "Assigned damage ignores the target's defense",
        "Hunt: Keywords (Assign Damage); Arena: Keywords, Example 9";
    SLAIN = "wa.damage.slain",
        "A miniature whose damage reaches its Health is slain (a Seeker injured, a Summon destroyed), removed and takes no further part",
        "Hunt: Seekers (Health), Attacking and Defending; Arena: Creatures (Health)";
    SPECIAL_ONCE = "wa.special.once",
        "An On Special effect occurs once when at least one Special is rolled",
        "Hunt: Skills (Special); Arena: Skills (Special)";
    SPECIAL_EACH = "wa.special.each",
        "An On Each Special effect occurs once for each Special rolled",
        "Hunt: Skills (Special); Arena: Skills (Special)";
    SPECIAL_THRESHOLD = "wa.special.threshold",
        "An On Special (xX) effect occurs once when at least X Specials are rolled",
        "Hunt: Skills (Special); Arena: Skills (Special)";
    ONE_ROLL = "wa.attack.area-single-roll",
        "An attack is rolled once, on one or several targets; each target subtracts its own defense",
        "Hunt: Example 10; Arena: Example 10";
    // ---- knockback
    KNOCK_AWAY = "wa.knockback.away",
        "Knockback moves a miniature one field directly away from its source, facing kept",
        "Hunt: Example 10; Arena: Example 10";
    KNOCK_ON_ATTACK = "wa.knockback.on-attack",
        "On Attack: Knockback moves every miniature the attack affects, even one that took no damage",
        "Arena: Example 10";
    KNOCK_BLOCKED = "wa.knockback.blocked",
        "A miniature knocked toward a field it cannot enter (a miniature, cover, a hazard, the edge) stays where it is",
        "Arena: Example 10";
    // ---- statuses
    EXPIRE = "wa.status.expire",
        "A status token is removed at the end of the afflicted miniature's next activation (Bleed excepted)",
        "Hunt: Status Effects; Arena: General Status Effects";
    IMMOBILIZE = "wa.status.immobilize",
        "An Immobilized miniature may not use Speed in its next activation",
        "Hunt: Status Effects (Immobilize); Arena: General Status Effects";
    IMMOBILIZE_STUN = "wa.status.immobilize-stun",
        "Immobilize received while Immobilized Stuns instead (interpretation `double-immobilize`)",
        "Hunt: Status Effects (Immobilize); Arena: General Status Effects";
    BLEED_TICK = "wa.status.bleed-tick",
        "A Bleeding miniature is assigned 1 damage at the beginning of each of its activations",
        "Hunt: Status Effects (Bleed); Arena: General Status Effects";
    BLEED_PERSIST = "wa.status.bleed-persist",
        "Bleed is not removed by activating; only healing removes it",
        "Hunt: Status Effects (Bleed); Arena: General Status Effects";
    BLEED_HEAL = "wa.status.bleed-heal",
        "Healing a Bleeding miniature removes the Bleed token and restores no Health, whatever the amount",
        "Hunt: Status Effects (Bleed); Arena: General Status Effects";
    FATIGUE = "wa.status.fatigue",
        "A Fatigued miniature has -2 Speed in its next activation, never below 1",
        "Hunt: Status Effects (Fatigue); Arena: General Status Effects";
    BLIND = "wa.status.blind",
        "A Blind miniature has -2 Attack Dice in its next activation, never below 1",
        "Hunt: Status Effects (Blind); Arena: General Status Effects";
    STUN = "wa.status.stun",
        "A Stunned miniature skips its next activation: no movement, no action",
        "Hunt: Status Effects (Stun); Arena: General Status Effects";
    HEAL = "wa.heal.amount",
        "Healing restores the amount healed, never above the printed Health (fixed reading)",
        "Hunt: Keywords; Arena: Momentum Dice (Healing)";
    // ---- summons and escape
    SUMMON_ENTER = "wa.summon.enter",
        "A Summon enters through its summoner's Skill, on a field adjacent to it, during its activation before it moves or acts",
        "Hunt: Summons; Arena: Summons";
    SUMMON_ACTIVATION = "wa.summon.activation",
        "A Summon activates only as part of its summoner's activation, before the summoner moves or acts",
        "Hunt: Summons; Arena: Summons";
    SUMMON_DESTROYED = "wa.summon.destroyed",
        "When a summoner leaves the board its Summons are destroyed",
        "Hunt: Summons; Arena: Summons";
    ESCAPE = "wa.escape",
        "An Escaped miniature is removed from the board and takes no further part",
        "Hunt: Keywords (Escape); Arena: Keywords (Escape)";
    // ---- the Hunt encounter
    FOUR_SEEKERS = "wa.hunt.setup.four-seekers",
        "The Hunt is always played with four Seekers",
        "Hunt: Setup (Selecting Seekers)";
    NAMED = "wa.hunt.encounter.named",
        "The Scout card's named Creatures are in the encounter at their printed Threat; their cards are set aside",
        "Hunt: Playing the Game (Encounter Setup), Scout Cards";
    DRAW = "wa.hunt.encounter.draw",
        "The Scout card's other Creatures are drawn from the Threat stacks it names; a duplicate is discarded and drawn again",
        "Hunt: Playing the Game (Encounter Setup), Scout Cards";
    SETUP_ROLL = "wa.hunt.encounter.setup-roll",
        "1D6 picks the setup: 1-5 the printed setups, 6 the players' choice",
        "Hunt: Encounter Setup";
    FIRST_SIDE = "wa.hunt.encounter.first-side",
        "Setups 1, 2 and 5: the Creatures activate first; 3 and 4: the Seekers",
        "Hunt: Encounter Setup";
    OBSTACLE_ROLL = "wa.hunt.encounter.obstacle-roll",
        "1D6 for each X: 1-2 Partial Cover, 3-4 Full Cover, 5 Thornbrush, 6 Pit; an obstacle rolled a third time is rerolled",
        "Hunt: Encounter Setup, Obstacles";
    INSTINCT_DECK = "wa.hunt.encounter.instinct-deck",
        "The Instinct cards of the encounter's Creatures form one deck; only its cards are drawn",
        "Hunt: Playing the Game (Encounter Setup), Final Setup";
    EQUIP_ONE = "wa.hunt.equip.one",
        "Each Seeker brings at most one Equipment card to an encounter",
        "Hunt: Equipment Cards";
    ALTERNATE = "wa.hunt.round.alternate",
        "Seekers and Creatures alternate activations",
        "Hunt: Playing the Game";
    SEEKER_ONCE = "wa.hunt.round.seeker-once",
        "Each Seeker activates once per round (an Exhaust token)",
        "Hunt: Playing the Game (Activate Seekers)";
    ROUND_END = "wa.hunt.round.end",
        "Seekers first: the round ends after the last Seeker and one more Creature activation; Creatures first: after the last Seeker",
        "Hunt: Playing the Game (Resolution)";
    SAME_START = "wa.hunt.round.same-start",
        "Exhaust tokens are discarded and each round begins with the side that began the last",
        "Hunt: Playing the Game (Resolution)";
    FREE_ACTIVATION = "wa.hunt.free-activation",
        "A free activation is taken only when a Skill grants it; it neither needs nor adds an Exhaust token",
        "Hunt: Keywords (Free Activation), Example 9";
    INSTINCT_DRAW = "wa.hunt.instinct.draw",
        "A Creature activates by an Instinct card drawn for it, resolved line by line",
        "Hunt: Playing the Game (Activate Creatures), Activating Creatures";
    INSTINCT_DEAD = "wa.hunt.instinct.dead",
        "A card for a slain or captured Creature is discarded and another drawn; a second such card ends the Creatures' turn",
        "Hunt: Playing the Game (Activate Creatures)";
    INSTINCT_CAPTURE = "wa.hunt.instinct.capture-token",
        "A card for a Creature with a capture token: 2 assigned damage to each Seeker capturing it, then another card unless every Creature left has a token",
        "Hunt: Playing the Game (Activate Creatures), Capturing Creatures, Example 13";
    RESHUFFLE = "wa.hunt.instinct.reshuffle",
        "An empty Instinct deck is made again from the discard pile without the slain and captured Creatures' cards",
        "Hunt: Playing the Game (Activate Creatures)";
    THREAT = "wa.hunt.instinct.threat",
        "An Instinct card's slashed numbers are read at its Creature's Threat",
        "Hunt: Instinct Cards";
    SEQUENCE = "wa.hunt.instinct.sequence",
        "An Instinct card resolves in order: the target, then the movement, then the action",
        "Hunt: Activating Creatures, Creature Actions";
    TARGET_KIND = "wa.hunt.target.kind",
        "A Creature's target is of the kind its card names first: itself, an ally, or an enemy",
        "Hunt: Creature Targeting";
    TARGET_ACTIONABLE = "wa.hunt.target.actionable",
        "A Creature never targets a miniature it cannot perform its action on this activation, unless none is in reach",
        "Hunt: Creature Targeting, Example 11";
    TARGET_CRITERIA = "wa.hunt.target.criteria",
        "The card's keywords pick the target, each breaking the previous one's tie (interpretation `target-criteria`)",
        "Hunt: Creature Targeting, Example 11";
    TARGET_UNREACHABLE = "wa.hunt.target.unreachable",
        "A Creature that can reach none of its card's targets goes for the closest one of its kind",
        "Hunt: Creature Movement, Activation Questions";
    CMOVE_SHORTEST = "wa.hunt.cmove.shortest",
        "A Creature moves along a shortest path (Speed, rotations counted) toward its destination",
        "Hunt: Creature Movement";
    CMOVE_HALT = "wa.hunt.cmove.halt",
        "Halt: the Creature does not move",
        "Hunt: Creature Movement";
    CMOVE_ADVANCE = "wa.hunt.cmove.advance",
        "Advance: toward the target, stopping only when out of Speed or adjacent to it",
        "Hunt: Creature Movement, Example 12";
    CMOVE_CAREFUL = "wa.hunt.cmove.careful",
        "Careful Advance: stop as soon as the target is in range; in range already, move as far from it as possible while staying in range",
        "Hunt: Creature Movement, Example 12";
    CMOVE_FACE = "wa.hunt.cmove.face-to-attack",
        "Speed left at the destination is spent rotating so the target is in the frontal arc (fixed reading)",
        "Hunt: Example 2";
    CACTION = "wa.hunt.caction.card",
        "A Creature performs its card's action (type, Range, Base Damage and Dice at its Threat) on its target, when it can",
        "Hunt: Creature Actions, Instinct Cards";
    CAPTURE_ELIGIBLE = "wa.hunt.capture.eligible",
        "A capture starts only on a Creature at half its Health or less (interpretation `capture-half`)",
        "Hunt: Capturing Creatures";
    CAPTURE_REQUIRED = "wa.hunt.capture.required",
        "Capturing a Creature needs its Threat plus one Seekers",
        "Hunt: Capturing Creatures";
    CAPTURE_START = "wa.hunt.capture.start",
        "A Seeker adjacent to the Creature starts a capture with its action: 2 assigned damage and a capture token, capturing side up",
        "Hunt: Capturing Creatures";
    CAPTURE_FLIP = "wa.hunt.capture.flip",
        "At the end of the Seeker's next activation (its action spent on the capture): 2 more assigned damage and the token flipped to captured",
        "Hunt: Capturing Creatures, Example 13";
    CAPTURE_MAINTAIN = "wa.hunt.capture.maintain",
        "A Seeker keeps capturing with its action every activation, assigned 2 damage each time, until the Creature is captured",
        "Hunt: Capturing Creatures, Example 13";
    CAPTURE_CANCEL = "wa.hunt.capture.cancel",
        "A capturing Seeker that moves or does anything else cancels its part; its token is removed",
        "Hunt: Capturing Creatures";
    CAPTURE_FROZEN = "wa.hunt.capture.frozen",
        "A Creature with a capture token cannot activate",
        "Hunt: Capturing Creatures";
    CAPTURE_COMPLETE = "wa.hunt.capture.complete",
        "A Creature is captured, and leaves the board, when its captured-side tokens equal its Threat plus one",
        "Hunt: Capturing Creatures, Example 13";
    CAPTURE_NO_SUMMON = "wa.hunt.capture.no-summon",
        "Summons cannot be captured",
        "Hunt: Summons";
    INJURED = "wa.hunt.seeker.injured",
        "An injured Seeker is removed for the rest of the encounter",
        "Hunt: Seekers (Health), Attacking and Defending";
    END_ENCOUNTER = "wa.hunt.end.encounter",
        "The encounter is won when every Creature is captured, slain or gone; nothing happens after its end",
        "Hunt: Playing the Game (End the Encounter)";
    CAMPAIGN_LOST = "wa.hunt.end.campaign-lost",
        "When every Seeker is injured the encounter, and the campaign, is lost",
        "Hunt: Survival, Playing the Game (End the Encounter)";
    RESOURCE_DROP = "wa.hunt.resource.drop",
        "A slain Creature drops one Resource card per Threat level, of its card's Resource type",
        "Hunt: Resource Cards";
    RESOURCE_ESCAPE = "wa.hunt.resource.escape",
        "An escaped Creature drops nothing",
        "Hunt: Keywords (Escape)";
}

named_enum! {
    /// Which part of the book is played.
    pub enum Mode ("a mode") { Hunt = "hunt", Arena = "arena" }
}

named_enum! {
    /// How much of the game a log records.
    pub enum Scope ("a scope") {
        /// A Hunt encounter: scouting, draws, setup rolls, rounds, the Instinct deck.
        Encounter = "encounter",
        /// The combat core alone: placements as recorded, activations in any order.
        Combat = "combat"
    }
}

named_enum! {
    /// A push into Thornbrush / Spinning Blades.
    pub enum HazardPush ("a reading") { Rule = "rule", Example = "example", ExampleBleed = "example-bleed" }
}

named_enum! {
    /// What crossing Partial Cover costs.
    pub enum PartialCross ("a reading") { Hop3 = "hop3", Enter3 = "enter3" }
}

named_enum! {
    /// A line of sight that only touches a blocker's corner.
    pub enum LosCorner ("a reading") { Clear = "clear", Blocked = "blocked" }
}

named_enum! {
    /// An attacker diagonally behind its target (the line touches the Back field's corner).
    pub enum BackDiagonal ("a reading") { No = "no", Yes = "yes" }
}

named_enum! {
    /// A bare stat keyword after a Lowest / Highest one.
    pub enum TargetCriteria ("a reading") { InOrder = "in-order", SkipStatTies = "skip-stat-ties" }
}

named_enum! {
    /// "At half Health or less" for an odd Health.
    pub enum CaptureHalf ("a reading") { Down = "down", Up = "up" }
}

named_enum! {
    /// What a skipped (Stunned) activation uses up.
    pub enum StunConsumes ("a reading") { All = "all", StunOnly = "stun-only" }
}

named_enum! {
    /// Whether Bleed ticks in an activation that is skipped.
    pub enum BleedOnSkip ("a reading") { Tick = "tick", NoTick = "no-tick" }
}

named_enum! {
    /// A second Bleed on a Bleeding miniature.
    pub enum BleedStack ("a reading") { Single = "single", Stack = "stack" }
}

named_enum! {
    /// Immobilize on an Immobilized miniature.
    pub enum DoubleImmobilize ("a reading") { StunReplaces = "stun-replaces", StunAdds = "stun-adds" }
}

pub const P_MODE: &str = "mode";
pub const P_SCOPE: &str = "scope";
pub const P_BOARD: &str = "board";
pub const P_HAZARD: &str = "hazard-push";
pub const P_PARTIAL: &str = "partial-cross";
pub const P_CORNER: &str = "los-corner";
pub const P_BACK: &str = "back-diagonal";
pub const P_CRITERIA: &str = "target-criteria";
pub const P_CAPTURE: &str = "capture-half";
pub const P_STUN: &str = "stun-consumes";
pub const P_BLEED_SKIP: &str = "bleed-on-skip";
pub const P_BLEED_STACK: &str = "bleed-stack";
pub const P_IMMOBILIZE: &str = "double-immobilize";

/// The default board: the book prints no size for either side of the board.
pub const DEFAULT_BOARD: &str = "10x10";

pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: P_MODE,
        kind: ParamKind::Setup,
        allowed: Mode::NAMES,
        default: Mode::Hunt.name(),
        doc: "Which rulebook: `hunt` (Seekers against Creatures, Thornbrush) or `arena` (two sides of \
              Gladiators, red and blue, Spinning Blades). The combat core is the same.",
        section: "Hunt: Modes of Play; Arena: Modes of Play",
    },
    ParamSpec {
        name: P_SCOPE,
        kind: ParamKind::Setup,
        allowed: Scope::NAMES,
        default: Scope::Encounter.name(),
        doc: "How much of the game the log records. `encounter` (Hunt only): a whole Hunt encounter, from the \
              Scout card and the setup rolls through rounds of alternating activations and the Instinct deck to \
              its end. `combat`: the combat core alone, both modes: miniatures and obstacles placed as \
              recorded, any miniature activated at any time (a Hunt Creature by naming the Instinct card it \
              follows), no rounds; for the book's combat examples.",
        section: "Hunt: Playing the Game",
    },
    ParamSpec {
        name: P_BOARD,
        kind: ParamKind::Setup,
        allowed: &["<WxH, each 4-16>"],
        default: DEFAULT_BOARD,
        doc: "The board's columns and rows (fields `a1` to the far corner). The book prints neither side's \
              size (the Arena's start zones are columns 1-10); 10x10 is assumed.",
        section: "Hunt: Components; Arena: Obstacle and Gladiator Placement",
    },
    ParamSpec {
        name: P_HAZARD,
        kind: ParamKind::Interpretation,
        allowed: HazardPush::NAMES,
        default: HazardPush::Rule.name(),
        doc: "\"any Gladiator that is pushed (via Knockback) into this field is assigned 2 damage and Bleed. To \
              see this interaction, refer to Example 10\" (Spinning Blades; Thornbrush says the same), yet \
              Arena Example 10: \"the Creature is in front of the Spinning Blades obstacle, so it remains where \
              it is and is assigned 1 damage\". Default `rule`: 2 assigned damage and Bleed. `example`: 1 \
              assigned damage, no Bleed (reproduces the example). `example-bleed`: 1 and Bleed. In every reading \
              the miniature stays in its field.",
        section: "Hunt: Obstacles (Thornbrush); Arena: Obstacles, Example 10",
    },
    ParamSpec {
        name: P_PARTIAL,
        kind: ParamKind::Interpretation,
        allowed: PartialCross::NAMES,
        default: PartialCross::Hop3.name(),
        doc: "\"they may move over it at the cost of 3 Speed\". Default `hop3`: the hop from the field before \
              the cover to the field beyond it costs 3 in all (Example 4: \"use 3 of his Speed to valiantly leap \
              over it\"). `enter3`: entering the cover costs 3 and stepping off it 1 more (4 in all). Either \
              way a crossing is one hop in a step direction.",
        section: "Hunt: Obstacles (Partial Cover), Example 4",
    },
    ParamSpec {
        name: P_CORNER,
        kind: ParamKind::Interpretation,
        allowed: LosCorner::NAMES,
        default: LosCorner::Clear.name(),
        doc: "\"not cross a field occupied by Full Cover or another miniature\"; Example 6 blocks a line that \
              \"crosses over part of the Daemonspawn's field\". A line that only touches a blocker's corner \
              point crosses no part of it: default `clear`. `blocked`: a corner touched blocks.",
        section: "Hunt: Line of Sight and Range, Example 6",
    },
    ParamSpec {
        name: P_BACK,
        kind: ParamKind::Interpretation,
        allowed: BackDiagonal::NAMES,
        default: BackDiagonal::No.name(),
        doc: "\"If the imaginary line of sight crosses the back of the target, the attack has +2 damage\"; the \
              Back is \"the field directly behind\". From diagonally behind the line only touches the Back \
              field's corner: default `no` (no bonus). `yes`: it counts.",
        section: "Hunt: Line of Sight and Range",
    },
    ParamSpec {
        name: P_CRITERIA,
        kind: ParamKind::Interpretation,
        allowed: TargetCriteria::NAMES,
        default: TargetCriteria::InOrder.name(),
        doc: "The card \"Enemy - Lowest PDEF - HP - Nearest\" and Example 11: after a PDEF tie \"the second \
              criteria triggers. Berlyne is closer than Fani\". Default `in-order`: every keyword in printed \
              order, a bare stat taking the Lowest/Highest before it (HP, then Nearest; the example holds when \
              the two tie on HP). `skip-stat-ties`: a bare stat is part of the keyword before it and breaks no \
              tie, so Nearest is the second criterion, as the example says.",
        section: "Hunt: Creature Targeting, Example 11",
    },
    ParamSpec {
        name: P_CAPTURE,
        kind: ParamKind::Interpretation,
        allowed: CaptureHalf::NAMES,
        default: CaptureHalf::Down.name(),
        doc: "\"a Creature must be at half Health or less\": with an odd Health, default `down`: remaining \
              Health at most Health/2 rounded down (7 -> 3); `up`: rounded up (7 -> 4).",
        section: "Hunt: Capturing Creatures",
    },
    ParamSpec {
        name: P_STUN,
        kind: ParamKind::Interpretation,
        allowed: StunConsumes::NAMES,
        default: StunConsumes::All.name(),
        doc: "\"Remove the token at the end of that target's next activation\" and Stun \"skips their next \
              activation\": default `all`: the skipped activation is the next activation of every token the \
              miniature held (Fatigue, Blind, Immobilize go too). `stun-only`: only the Stun token goes.",
        section: "Hunt: Status Effects",
    },
    ParamSpec {
        name: P_BLEED_SKIP,
        kind: ParamKind::Interpretation,
        allowed: BleedOnSkip::NAMES,
        default: BleedOnSkip::Tick.name(),
        doc: "\"Assigned 1 damage at the beginning of each activation\": a skipped (Stunned) activation begins \
              too: default `tick`. `no-tick`: no Bleed damage in a skipped activation.",
        section: "Hunt: Status Effects (Bleed)",
    },
    ParamSpec {
        name: P_BLEED_STACK,
        kind: ParamKind::Interpretation,
        allowed: BleedStack::NAMES,
        default: BleedStack::Single.name(),
        doc: "Bleed on a Bleeding miniature is not described: default `single` (it keeps its one token, 1 \
              damage an activation). `stack`: one token more, 1 damage per token.",
        section: "Hunt: Status Effects (Bleed)",
    },
    ParamSpec {
        name: P_IMMOBILIZE,
        kind: ParamKind::Interpretation,
        allowed: DoubleImmobilize::NAMES,
        default: DoubleImmobilize::StunReplaces.name(),
        doc: "\"If a Seeker or Creature is afflicted with Immobilize when they already have the token, they are \
              Stunned\": default `stun-replaces` (the Immobilize token becomes a Stun token). `stun-adds`: the \
              miniature keeps its Immobilize token and gains Stun.",
        section: "Hunt: Status Effects (Immobilize)",
    },
];

/// The setup and interpretations, resolved once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    pub mode: Mode,
    pub scope: Scope,
    pub board: Board,
    /// Every field of the board, as a set (the searches' starting point).
    pub fields: crate::kit::paths::Cells,
    pub hazard: HazardPush,
    pub partial: PartialCross,
    pub corner: LosCorner,
    pub back: BackDiagonal,
    pub criteria: TargetCriteria,
    pub capture: CaptureHalf,
    pub stun: StunConsumes,
    pub bleed_skip: BleedOnSkip,
    pub bleed_stack: BleedStack,
    pub immobilize: DoubleImmobilize,
}

impl Params {
    /// Read every parameter, keeping every problem in `r`.
    pub fn read(r: &mut Readings, board: &str) -> Params {
        let mode = r.get(P_MODE, Mode::Hunt);
        let scope = r.get(P_SCOPE, Scope::Encounter);
        if mode == Mode::Arena && scope == Scope::Encounter {
            r.problem(
                "`mode=arena` needs `scope=combat`: an encounter is the Hunt's (the Arena match is not \
                 implemented yet)",
            );
        }
        let board = match parse_board(board) {
            Some(b) => b,
            None => {
                r.problem(format!("`{P_BOARD}={board}`: expected WxH, each from 4 to 16 (like 10x10)"));
                Board { width: 10, height: 10 }
            }
        };
        Params {
            mode,
            scope,
            board,
            fields: crate::kit::paths::Cells::all(board),
            hazard: r.get(P_HAZARD, HazardPush::Rule),
            partial: r.get(P_PARTIAL, PartialCross::Hop3),
            corner: r.get(P_CORNER, LosCorner::Clear),
            back: r.get(P_BACK, BackDiagonal::No),
            criteria: r.get(P_CRITERIA, TargetCriteria::InOrder),
            capture: r.get(P_CAPTURE, CaptureHalf::Down),
            stun: r.get(P_STUN, StunConsumes::All),
            bleed_skip: r.get(P_BLEED_SKIP, BleedOnSkip::Tick),
            bleed_stack: r.get(P_BLEED_STACK, BleedStack::Single),
            immobilize: r.get(P_IMMOBILIZE, DoubleImmobilize::StunReplaces),
        }
    }
}

/// `10x12` as a board of 4 to 16 fields a side.
fn parse_board(text: &str) -> Option<Board> {
    let (w, h) = text.split_once('x')?;
    let (width, height): (i16, i16) = (w.parse().ok()?, h.parse().ok()?);
    let side = 4..=crate::kit::paths::Cells::SIDE;
    (side.contains(&width) && side.contains(&height)).then_some(Board { width, height })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::rules::check_reading;

    #[test]
    fn every_reading_has_its_enum_and_rules_are_unique() {
        check_reading::<Mode>(PARAMS, P_MODE).unwrap();
        check_reading::<Scope>(PARAMS, P_SCOPE).unwrap();
        check_reading::<HazardPush>(PARAMS, P_HAZARD).unwrap();
        check_reading::<PartialCross>(PARAMS, P_PARTIAL).unwrap();
        check_reading::<LosCorner>(PARAMS, P_CORNER).unwrap();
        check_reading::<BackDiagonal>(PARAMS, P_BACK).unwrap();
        check_reading::<TargetCriteria>(PARAMS, P_CRITERIA).unwrap();
        check_reading::<CaptureHalf>(PARAMS, P_CAPTURE).unwrap();
        check_reading::<StunConsumes>(PARAMS, P_STUN).unwrap();
        check_reading::<BleedOnSkip>(PARAMS, P_BLEED_SKIP).unwrap();
        check_reading::<BleedStack>(PARAMS, P_BLEED_STACK).unwrap();
        check_reading::<DoubleImmobilize>(PARAMS, P_IMMOBILIZE).unwrap();
        let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
        assert!(RULES.iter().all(|r| r.id.starts_with("wa.")));
        assert_eq!(parse_board("10x12"), Some(Board { width: 10, height: 12 }));
        assert_eq!(parse_board("3x10"), None);
        assert_eq!(parse_board("17x10"), None);
    }
}
