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
        "A rotation in any direction (90 or 180 degrees) costs 1 Speed, so an Immobilized miniature may not turn in place (Speed spent beyond the budget is `wa.move.speed-budget`)",
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
        "A miniature adjacent to Partial Cover has +1 Defense, Physical and Magical (several Partial Covers: interpretation `partial-cover-stack`)",
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
        "An attack whose line of sight crosses Full Cover cannot be made, even from a field adjacent to it (no aiming around corners: interpretation `los-corner`)",
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
    KNOCK_DAMAGED = "wa.knockback.damaged",
        "Plain Knockback (without On Attack) moves each target that took damage (interpretation `knockback-plain`)",
        "Hunt: Instinct Cards (Wildswood Sentinel: Knockback), Example 10; Arena: Example 10";
    KNOCK_BLOCKED = "wa.knockback.blocked",
        "A miniature knocked toward a field it cannot enter (a miniature, Full or Partial Cover, a hazard, the edge) stays where it is",
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
        "A Summon enters through its summoner's Skill, during its activation before it moves or acts (on a field next to it: interpretation `summon-field`)",
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
        "A card for a slain or captured Creature is discarded and another drawn; when it is the second card drawn in the Creatures' turn, the turn ends (interpretation `instinct-second-card`; an Escaped Creature's card: `instinct-escaped`)",
        "Hunt: Playing the Game (Activate Creatures)";
    INSTINCT_CAPTURE = "wa.hunt.instinct.capture-token",
        "A card for a Creature with a capture token: 2 assigned damage to each Seeker capturing it, then another card unless every Creature left has a token (a Summon, which has no card and never a token, is not counted: interpretation `capture-summons`)",
        "Hunt: Playing the Game (Activate Creatures), Capturing Creatures, Example 13";
    RESHUFFLE = "wa.hunt.instinct.reshuffle",
        "An empty Instinct deck is made again from the discard pile without the slain and captured Creatures' cards, when the next card is drawn or at the last discard (interpretation `instinct-reshuffle`)",
        "Hunt: Playing the Game (Activate Creatures)";
    THREAT = "wa.hunt.instinct.threat",
        "An Instinct card's slashed numbers are read at its Creature's Threat",
        "Hunt: Instinct Cards";
    SEQUENCE = "wa.hunt.instinct.sequence",
        "An Instinct card resolves in order: the target, then the movement, then the action (a Summon activates before the summoner moves, or after its target: interpretation `summon-timing`)",
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
        "A Creature moves along a shortest path (Speed, rotations counted) toward its destination (a walker's round a Pit: interpretation `pit-path`)",
        "Hunt: Creature Movement";
    CMOVE_HALT = "wa.hunt.cmove.halt",
        "Halt: the Creature does not move",
        "Hunt: Creature Movement";
    CMOVE_ADVANCE = "wa.hunt.cmove.advance",
        "Advance: toward the target, stopping only when out of Speed or adjacent to it",
        "Hunt: Creature Movement, Example 12";
    CMOVE_CAREFUL = "wa.hunt.cmove.careful",
        "Careful Advance: stop as soon as the target is in range, as it arrives; in range already, move as far from it (and the other Seekers) as possible while staying in range, then turn only to face it (interpretations `careful-range`, `careful-away`, `careful-retreat-turn`)",
        "Hunt: Creature Movement, Example 12";
    CMOVE_FACE = "wa.hunt.cmove.face-to-attack",
        "Speed left at the destination is spent rotating so the target is in the frontal arc (Advance; Careful Advance moving away: interpretation `careful-retreat-turn`)",
        "Hunt: Example 2, Creature Actions";
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
        "A Creature is captured, and leaves the board, when its captured-side tokens equal its Threat plus one (and every capturer has taken its damage: interpretation `capture-complete`)",
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
    // ---- the Arena: the draft
    DRAFT_ROLL = "wa.arena.draft.roll",
        "Each side rolls five Attack Dice; the most symbols (Successes and Specials) is Player 1, a tie is rolled again; the roll comes before the first pick",
        "Arena: Drafting (Creatures)";
    DRAFT_LARGE = "wa.arena.draft.large",
        "Large Creatures are drafted first: Player 1 one, Player 2 two, Player 1 one",
        "Arena: Drafting (Creatures), draft tables";
    DRAFT_MEDIUM = "wa.arena.draft.medium",
        "Medium Creatures next: Player 1 one, Player 2 two, Player 1 two, Player 2 two, Player 1 one (interpretation `draft-medium-2p`)",
        "Arena: Drafting (Creatures), draft tables";
    DRAFT_ASSENT = "wa.arena.draft.assent",
        "Assents next, Player 2 first, one per player (in 2v2, P2 one, P1 two, P2 one)",
        "Arena: Drafting (Assents), draft tables";
    DRAFT_EQUIPMENT = "wa.arena.draft.equipment",
        "Equipment last, Player 2 first in the 1 / 2 pattern, two cards per Assent (interpretation `draft-equipment-4p`)",
        "Arena: Drafting (Equipment), draft tables";
    DRAFT_ONCE = "wa.arena.draft.once",
        "Each card is drafted once",
        "Arena: Drafting";
    // ---- the Arena: the Silvestrem deck
    SILVESTREM_DRAW = "wa.arena.silvestrem.draw",
        "One Silvestrem card is drawn at a round's start, between activations; the deck holds each card once",
        "Arena: Playing the Game (Draw a Silvestrem Deck card), The Silvestrem Deck";
    SILVESTREM_DAY_OFF = "wa.arena.silvestrem.day-off",
        "With the deck left in the box by agreement (setup silvestrem=off), no card is drawn",
        "Arena: The Silvestrem Deck (Vareclea's Day Off)";
    // ---- the Arena: Momentum dice
    MOMENTUM_BETWEEN = "wa.arena.momentum.between",
        "Momentum dice are rolled, rerolled and assigned at a round's start, between activations",
        "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice";
    MOMENTUM_COUNT = "wa.arena.momentum.count",
        "Each player rolls five Momentum dice (unless the Assent or its Skills change it); with four players, one roll a team (interpretation `momentum-4p`)",
        "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice (Example)";
    MOMENTUM_POOL = "wa.arena.momentum.pool",
        "Only the side's own rolled dice, not yet assigned or discarded, are rerolled, assigned or discarded",
        "Arena: Playing the Game (Roll Momentum Dice)";
    MOMENTUM_REROLL = "wa.arena.momentum.reroll",
        "Any number of Momentum dice may be rerolled, once; the second result must be used (interpretation `momentum-reroll-timing`)",
        "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice (Example)";
    MOMENTUM_ASSENT_HEAL = "wa.arena.momentum.assent-heal",
        "Only Healing dice may be assigned to an Assent",
        "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice";
    MOMENTUM_DISTINCT = "wa.arena.momentum.distinct",
        "A Creature holds at most one Momentum die of each type (Healing excepted)",
        "Arena: Momentum Dice, Example";
    MOMENTUM_TWO = "wa.arena.momentum.two",
        "A Creature holds at most two Momentum dice (interpretation `momentum-heal-cap`)",
        "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice";
    MOMENTUM_HEAL = "wa.arena.momentum.heal-combined",
        "Healing dice assigned to a Gladiator heal it at once, combined: N dice heal N (a Bleeding one is cured instead)",
        "Arena: Momentum Dice (Healing), Example";
    MOMENTUM_EFFECTS = "wa.arena.momentum.effects",
        "For the round: a Damage die gives +1 damage to all attacks, a Defense die +1 Physical and Magical Defense, a Speed die +1 Speed",
        "Arena: Momentum Dice";
    MOMENTUM_DISCARD = "wa.arena.momentum.discard",
        "Only a die that cannot legally be assigned is discarded",
        "Arena: Momentum Dice (Example)";
    MOMENTUM_BLANK = "wa.arena.momentum.blank",
        "A Blank die has no effect and is assigned to no Gladiator (Healing dice alone go to an Assent)",
        "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice";
    // ---- the Arena: victory
    VICTORY_DEATHMATCH = "wa.arena.victory.deathmatch",
        "Deathmatch (the default): as soon as a side's Assent (a team's last Assent) falls, the other side wins, judged once the attack is resolved on every target (interpretations `deathmatch-escape`, `double-fall`)",
        "Arena: Victory Conditions (Deathmatch)";
    VICTORY_LAST = "wa.arena.victory.last-standing",
        "Last Man Standing: a side wins when every enemy Assent and Creature is slain (Summons are not Creatures; an Escaped one is not slain: interpretation `last-standing-escape`), judged once the attack is resolved on every target (`double-fall`)",
        "Arena: Victory Conditions (Last Man Standing), Summons";
    GAME_OVER = "wa.arena.end.game-over",
        "Nothing happens after the victory condition is met (fixed reading)",
        "Arena: Playing the Game (Resolution: rounds continue until the victory condition is met)";
    SUMMON_NOT_CREATURE = "wa.arena.summon.not-creature",
        "Summons are not Creatures: no Damage, Defense or Speed Momentum die is assigned to one (Healing: interpretation `momentum-summon-heal`)",
        "Arena: Summons, Momentum Dice";
    // ---- the Hunt campaign between encounters (scope=campaign; campaign/)
    SETUP_ENCAMPMENT = "wa.hunt.setup.encampment",
        "The Encampment starts with the Barracks and two buildings of the players' choice, all at level 1",
        "Hunt: Setup (Create the Encampment)";
    SETUP_WORKERS = "wa.hunt.setup.workers",
        "At setup exactly three Workers are drawn (fewer only when fewer are left) from those that do not cost 2 gold, and one of them is kept",
        "Hunt: Setup (Create the Encampment)";
    SETUP_SEASON = "wa.hunt.setup.season",
        "The Season token starts on 1",
        "Hunt: Setup (Create the Encampment)";
    SETUP_FIRST_SCOUT = "wa.hunt.setup.first-scout",
        "The first encounter: two Threat 1 Scout cards are drawn and one of them is picked",
        "Hunt: Setup (Create the Encampment)";
    SEASON_SEQUENCE = "wa.hunt.season.sequence",
        "A Season is an Encounter phase followed by an Encampment phase; the next Season starts when Scouting ends the Encampment phase",
        "Hunt: Playing the Game";
    SEASON_VICTORY = "wa.hunt.season.victory",
        "Surviving the 10 Seasons (Survival) wins the campaign, and nothing follows",
        "Hunt: Victory Conditions (Survival); Modes of Play (The Hunt)";
    CAMP_ACTIONS = "wa.hunt.camp.actions",
        "Each Seeker has five actions in an Encampment phase, and actions are spent only in it",
        "Hunt: Playing the Game; Encampment Actions";
    CAMP_ORDER = "wa.hunt.camp.order",
        "Actions are spent one at a time: a Scouting under way (its draw and pick) is finished before another action",
        "Hunt: Encampment Actions";
    CAMP_HEAL = "wa.hunt.camp.heal",
        "A Seeker spends 1 action at the Temple of Vil to heal by the Temple's level, as many Seekers as its level admits; the Barracks' passive healing is owed to each Seeker as an Encampment phase begins",
        "Hunt: Actions requiring specific buildings (Heal at the Temple of Vil); Encampment (Temple of Vil)";
    CAMP_CRAFT = "wa.hunt.camp.craft",
        "Crafting takes 1 action, the Workshop, a hired Worker with the recipe and its Resources (discarded); the Equipment goes to the Encampment",
        "Hunt: Actions requiring specific buildings (Craft at the Workshop); Encampment (Workshop)";
    CRAFT_SHARED = "wa.hunt.equip.craft-shared",
        "An Equipment card stored in the Encampment may be taken by any one Seeker to the next encounter",
        "Hunt: Equipment Cards; Craft at the Workshop";
    UPGRADE_COST = "wa.hunt.camp.upgrade-cost",
        "Upgrading a building costs 2 gold (level 1 to 2) or 3 gold (2 to 3) and no action; level 3 is the top",
        "Hunt: Actions always available (Upgrade a Building)";
    UPGRADE_TIMING = "wa.hunt.camp.upgrade-timing",
        "An upgrade is made in an Encampment phase and takes effect in the next; a building is not upgraded in the phase it was bought (nor twice in one phase)",
        "Hunt: Actions always available (Upgrade a Building)";
    MARKET_COST = "wa.hunt.camp.market-cost",
        "Visiting the Markets costs two Seekers 3 actions each; selling, hiring and buying happen during a visit",
        "Hunt: Actions always available (Visit the Silvestrem's Markets)";
    MARKET_SELL = "wa.hunt.market.sell",
        "A housed Creature sells for gold equal to its Threat (plus the Creature Pens' bonus)",
        "Hunt: Visit the Silvestrem's Markets (Sell Creatures); Encampment (Creature Pens)";
    MARKET_HIRE = "wa.hunt.market.hire",
        "One hiring attempt per visit: exactly two Workers drawn from the Worker deck (fewer only when it holds fewer), any of them hired at their cost",
        "Hunt: Visit the Silvestrem's Markets (Hire Workers); Workers";
    MARKET_BUY = "wa.hunt.market.buy",
        "A new building costs 2 gold, enters at level 1 and is usable from the next Encampment phase",
        "Hunt: Visit the Silvestrem's Markets (Purchase Buildings)";
    WORKER_SLOTS = "wa.hunt.worker.slots",
        "Workers fill the Encampment's slots (two, more with the Barracks, six at most); hiring into a full Encampment discards a Worker to the box",
        "Hunt: Workers; Encampment (Worker Slots)";
    WORKER_BUILDING = "wa.hunt.worker.building",
        "A Worker whose building is missing may be hired, but its Skill and Crafting Recipes are unusable",
        "Hunt: Workers";
    SCOUT_COST = "wa.hunt.scout.cost",
        "Scouting takes two Seekers, 2 actions each (interpretation `scout-actions`); two Scout cards (more with the Seeker's Den) are drawn, one picked, and the Encampment phase ends",
        "Hunt: Actions always available (Scouting); Encampment Actions";
    SCOUT_DERELICT = "wa.hunt.scout.derelict",
        "When two Seekers can no longer Scout, a new Encampment phase begins (once the players stop spending actions: interpretation `derelict-timing`) and the Encampment becomes Derelict",
        "Hunt: Encampment Actions";
    SKILL_UNLOCK = "wa.hunt.skill.unlock",
        "A Seeker uses only its default Skills and those the Encampment's buildings unlock at their level (the catalog's `unlock` lines; interpretation `unlock-timing`)",
        "Hunt: Seekers (\"two default Skills and five Skills that can be unlocked by upgrading your Encampment\"); Encampment (\"required for unlocking Seeker skills\"; Barracks)";
    EQUIP_DISCARD = "wa.hunt.equip.discard",
        "An Equipment card discarded after use is used once and leaves the Encampment; one discarded after the Encounter is not kept for a later one",
        "Hunt: Equipment Cards (\"some may be discarded after use (or after the Encounter)\")";
    HOUSING = "wa.hunt.encampment.housing",
        "Captured Creatures are housed: 1 in the Barracks, more in the Creature Pens by level; the surplus is sold or released before the Encampment phase ends",
        "Hunt: Encampment (Barracks, Creature Pens); End the Encounter";
    // ---- the Arena match (scope=match): troupes, placement, rounds, activation order
    TROUPE_ORDER = "wa.arena.troupe.order",
        "A troupe's activation order is fixed at setup for the whole match: its Assent first, then its Creatures left to right, each once",
        "Arena: Game Overview (Troupe Building), Final Setup (Board, Tokens and Cards)";
    TROUPE_SKILLS = "wa.arena.troupe.skills",
        "Each Assent takes exactly two of its own five Skill cards",
        "Arena: Game Overview (Troupe Building), Assents (Skill Slots), Final Setup";
    TROUPE_DRAFTED = "wa.arena.troupe.drafted",
        "A troupe is made of its side's drafted cards (when the draft is recorded), and only its miniatures and Equipment are placed",
        "Arena: Game Overview (Troupe Building), Drafting, Final Setup";
    EQUIP_SLOT = "wa.arena.equip.slot",
        "An Assent has two Equipment slots; a card goes in a slot whose symbol matches its type, a slot without symbol takes any",
        "Arena: Assents (Equipment Slots), Equipment";
    OBSTACLE_ZONE = "wa.arena.place.obstacle-zone",
        "A side's obstacles go in its half: lines 3-5 (red) or 6-8 (blue)",
        "Arena: Obstacle and Gladiator Placement";
    OBSTACLE_TURNS = "wa.arena.place.obstacle-turns",
        "Each side places one obstacle of each kind, the sides alternating, Player 1 first, all before any Gladiator (setup placement=alternate)",
        "Arena: Game Overview (Placement), Obstacle and Gladiator Placement";
    OBSTACLE_SPACING = "wa.arena.place.obstacle-spacing",
        "No obstacle is placed adjacent to another, on either half of the board",
        "Arena: Obstacle and Gladiator Placement";
    GLADIATOR_ZONE = "wa.arena.place.gladiator-zone",
        "Gladiators start on their side's two start lines: 1-2 (red) or 9-10 (blue)",
        "Arena: Obstacle and Gladiator Placement";
    GLADIATOR_TURNS = "wa.arena.place.gladiator-turns",
        "After the obstacles, Player 2 places a Gladiator, then Player 1, alternating until all are placed (setup placement=alternate)",
        "Arena: Obstacle and Gladiator Placement";
    ROUND_SEQUENCE = "wa.arena.round.sequence",
        "A round: the Silvestrem card and each side's Momentum roll (interpretation `round-start-order`), once each, before the first activation; then Assents, Creatures, resolution",
        "Arena: Playing the Game, The Silvestrem Deck, Momentum Dice";
    ORDER_ASSENTS = "wa.arena.order.assents",
        "Assents activate first, alternating sides: in round 1 the drafting-roll winner's first, later the side whose Assent went second last round",
        "Arena: Playing the Game (Activate Assents, Begin a new round)";
    ORDER_CREATURES = "wa.arena.order.creatures",
        "Creatures activate one at a time in troupe order, alternating sides, the side whose Assent went second first; a side with none left is skipped",
        "Arena: Playing the Game (Activate Creatures)";
    ORDER_TEAMS = "wa.arena.order.teams",
        "Four players: every player activates one Creature before any player activates a second",
        "Arena: Playing the Game (Activate Creatures)";
    ORDER_ONCE = "wa.arena.order.once",
        "Each Gladiator activates once per round unless a Skill says otherwise",
        "Arena: Playing the Game (Resolution), Actions";
    MOMENTUM_DURATION = "wa.arena.momentum.duration",
        "Momentum dice and their bonuses last for the round they are rolled in (interpretation `momentum-duration`); dice left over are lost",
        "Arena: Momentum Dice; Keywords (Damage Dice, Defense Dice)";
    SILVESTREM_DEMAND = "wa.arena.silvestrem.demand",
        "At the round's end a Demand is judged for each side: its Success when it met the Condition, its Failure otherwise; then it is discarded",
        "Arena: Playing the Game (Resolution), The Silvestrem Deck (Demand), Keywords (Failure)";
    EQUIP_WEAPON = "wa.arena.equip.weapon",
        "An attack with a weapon uses the weapon's Range, Base Damage, damage type and Attack Dice, not the wielder's",
        "Arena: Equipment (Range, Base Damage and Damage Type, Attack Dice)";
    EQUIP_ARMOR = "wa.arena.equip.armor",
        "Armor adds its Physical and Magical Defense to the wearer's",
        "Arena: Equipment (Physical Defense, Magical Defense)";
    EQUIP_TWO = "wa.arena.equip.two",
        "Each Assent carries two Equipment cards by `begin`, a match without a draft too (interpretation `assent-equipment`; with a draft, the drafted cards are carried: wa.arena.troupe.drafted)",
        "Arena: Assents (\"slots for two additional Skills and two Equipment cards\"), Drafting (Equipment: \"Each Assent needs two Equipment cards\"), Final Setup (\"Place your Equipment cards on your Assent's Equipment Slots\")";
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
        Combat = "combat",
        /// A Hunt campaign: the Encampment's setup, then Seasons of an encounter (the
        /// `encounter` rules) and an Encampment phase (campaign/).
        Campaign = "campaign",
        /// A whole Arena match: draft, troupes, placement, rounds, victory.
        Match = "match"
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
    /// A line of sight that only touches a blocker's corner: a Full Cover's (or a hazard's)
    /// blocks and a miniature's does not (`full-cover`), none blocks, or every one does.
    pub enum LosCorner ("a reading") { FullCover = "full-cover", Clear = "clear", Blocked = "blocked" }
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

named_enum! {
    /// Players of an Arena match (four play as two teams).
    pub enum Players ("a number of players (2, 4)") { Two = "2", Four = "4" }
}

named_enum! {
    /// The two-player medium Creature draft.
    pub enum DraftMedium ("a reading") { Text = "text", Table = "table" }
}

named_enum! {
    /// The four-player Equipment draft.
    pub enum DraftEquipment ("a reading") { TwoPerAssent = "two-per-assent", Table = "table" }
}

named_enum! {
    /// Whether the Silvestrem deck is used.
    pub enum SilvestremUse ("on or off") { On = "on", Off = "off" }
}

named_enum! {
    /// The Arena's victory condition.
    pub enum Victory ("a victory condition") { Deathmatch = "deathmatch", LastStanding = "last-standing" }
}

named_enum! {
    /// Whether an Escaped Assent has fallen (Deathmatch).
    pub enum DeathmatchEscape ("a reading") { Falls = "falls", SlainOnly = "slain-only" }
}

named_enum! {
    /// Who wins when both sides fell in one attack.
    pub enum DoubleFall ("a reading") { Draw = "draw", Attacker = "attacker" }
}

named_enum! {
    /// Whether Healing dice count toward a Creature's two Momentum dice.
    pub enum HealCap ("a reading") { HealExempt = "heal-exempt", HealCounts = "heal-counts" }
}

named_enum! {
    /// How the Arena's obstacles and Gladiators are placed.
    pub enum Placement ("a placement (alternate, simultaneous)") { Alternate = "alternate", Simultaneous = "simultaneous" }
}

named_enum! {
    /// Which comes first at a round's start.
    pub enum RoundStart ("a reading") { SilvestremFirst = "silvestrem-first", MomentumFirst = "momentum-first" }
}

named_enum! {
    /// What becomes of a Momentum die left unassigned that a Gladiator could take.
    pub enum MomentumUnassigned ("a reading") { Lost = "lost", Discarded = "discarded" }
}

named_enum! {
    /// Whether an Assent of a match without a draft must carry two Equipment cards.
    pub enum AssentEquipment ("a reading") { Two = "two", DraftOnly = "draft-only" }
}

named_enum! {
    /// Which side's Creature starts when only one side activated an Assent this round.
    pub enum LoneAssentOrder ("a reading") { Nominal = "nominal", Activated = "activated" }
}

named_enum! {
    /// Which round the Momentum bonuses count in.
    pub enum MomentumDuration ("a reading") { ThisRound = "this-round", NextRound = "next-round" }
}

named_enum! {
    /// When Momentum dice may be rerolled.
    pub enum RerollTiming ("a reading") { AnyTime = "any-time", BeforeAssign = "before-assign" }
}

named_enum! {
    /// `momentum-reroll-count`: how often a side's Momentum dice may be rerolled in a round.
    pub enum RerollCount ("a reading") { PerDie = "per-die", Once = "once" }
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
pub const P_VICTORY: &str = "victory";
pub const P_SILVESTREM: &str = "silvestrem";
pub const P_PLAYERS: &str = "players";
pub const P_DRAFT_MEDIUM: &str = "draft-medium-2p";
pub const P_DRAFT_EQUIPMENT: &str = "draft-equipment-4p";
pub const P_ESCAPE: &str = "deathmatch-escape";
pub const P_DOUBLE_FALL: &str = "double-fall";
pub const P_HEAL_CAP: &str = "momentum-heal-cap";
pub const P_REROLL: &str = "momentum-reroll-timing";
pub const P_REROLL_COUNT: &str = "momentum-reroll-count";
pub const P_SCOUT_ACTIONS: &str = "scout-actions";
pub const P_SEASONS: &str = "seasons";
pub const P_UNLOCK_TIMING: &str = "unlock-timing";
pub const P_DERELICT_TIMING: &str = "derelict-timing";
pub const P_DERELICT_SEASON: &str = "derelict-season";
pub const P_INJURED_RETURN: &str = "injured-return";
pub const P_TEMPLE_VISITORS: &str = "temple-visitors";
pub const P_UNHIRED_WORKERS: &str = "unhired-workers";
pub const P_WORKER_REPLACE: &str = "worker-replace";
pub const P_SURVIVAL_END: &str = "survival-end";

named_enum! {
    /// Where Survival's last Season ends and the campaign is won.
    pub enum SurvivalEnd ("a reading") { Encounter = "encounter", Encampment = "encampment" }
}

named_enum! {
    /// When a hire may discard a hired Worker to the box.
    pub enum WorkerReplace ("a reading") { AnyTime = "any-time", WhenFull = "when-full" }
}

named_enum! {
    /// Where the Workers drawn at the Markets and not hired go as the visit ends.
    pub enum UnhiredWorkers ("a reading") { Deck = "deck", Box = "box" }
}

named_enum! {
    /// What the Temple of Vil's "number of Seekers who can visit simultaneously" limits.
    pub enum TempleVisitors ("a reading") { PerPhase = "per-phase", AtOnce = "at-once" }
}

named_enum! {
    /// The Health an injured Seeker has as its encounter is won and the Encampment phase
    /// begins.
    pub enum InjuredReturn ("a reading") { OneHealth = "one-health", Full = "full" }
}

named_enum! {
    /// Whether the Derelict rule's new Encampment phase is a Season of its own.
    pub enum DerelictSeason ("a reading") { Uncounted = "uncounted", Counted = "counted" }
}

named_enum! {
    /// When the Derelict rule's new Encampment phase begins.
    pub enum DerelictTiming ("a reading") { Spent = "spent", AtOnce = "at-once" }
}

named_enum! {
    /// Which level of a building unlocks Skills in the encounter after an Encampment phase.
    pub enum UnlockTiming ("a reading") { NextPhase = "next-phase", AtOnce = "at-once" }
}

named_enum! {
    /// What Scouting asks of each of its two Seekers.
    pub enum ScoutActions ("a reading") { TwoEach = "two-each", OneEach = "one-each" }
}
pub const P_INSTINCT_SECOND: &str = "instinct-second-card";
pub const P_KNOCKBACK_PLAIN: &str = "knockback-plain";
pub const P_LAST_ESCAPE: &str = "last-standing-escape";
pub const P_CAREFUL_RANGE: &str = "careful-range";
pub const P_CAREFUL_TURN: &str = "careful-retreat-turn";
pub const P_SUMMON_FIELD: &str = "summon-field";

named_enum! {
    /// Where a Summon may enter: any free field, or one next to its summoner.
    pub enum SummonField ("a reading") { Any = "any", Adjacent = "adjacent" }
}

named_enum! {
    /// Whether a Careful Advance that moved away while in range turns, with Speed left, to
    /// face its target (as Advance does), or stops as it arrives.
    pub enum CarefulTurn ("a reading") { Face = "face", Arrive = "arrive" }
}
pub const P_CAREFUL_AWAY: &str = "careful-away";

named_enum! {
    /// Where a Careful Advance already in range moves "as far away from its target (and any
    /// other Seeker) as possible": farthest from the target, then from the nearest other
    /// Seeker; or farthest from the nearest Seeker, the target among them.
    pub enum CarefulAway ("a reading") { TargetFirst = "target-first", EverySeeker = "every-seeker" }
}

named_enum! {
    /// What "in range" means for Careful Advance.
    pub enum CarefulRange ("a reading") { Range = "range", Attack = "attack" }
}

named_enum! {
    /// Whether an Escaped Assent or Creature is out for Last Man Standing.
    pub enum LastStandingEscape ("a reading") { SlainOnly = "slain-only", Gone = "gone" }
}

named_enum! {
    /// Whom plain Knockback (without "On Attack") moves.
    pub enum KnockbackPlain ("a reading") { Damaged = "damaged", Always = "always" }
}

named_enum! {
    /// Which Instinct card of a Creature turn is "the second card drawn".
    pub enum InstinctSecond ("a reading") { AnyCard = "any-card", DeadOnly = "dead-only" }
}
pub const P_PLACEMENT: &str = "placement";
pub const P_ROUND_START: &str = "round-start-order";
pub const P_DURATION: &str = "momentum-duration";
pub const P_UNASSIGNED: &str = "momentum-unassigned";
pub const P_LONE_ASSENT: &str = "lone-assent-order";
pub const P_SUMMON_HEAL: &str = "momentum-summon-heal";
pub const P_MOMENTUM_4P: &str = "momentum-4p";

named_enum! {
    /// Who rolls Momentum dice in a four-player Arena match: the team (one roll of five a
    /// side), or each player of it (five each, recorded in the side's one `momentum` line).
    pub enum Momentum4p ("a reading") { Team = "team", Player = "player" }
}

named_enum! {
    /// Whether a Healing Momentum die may go to a Summon.
    pub enum SummonHeal ("a reading") { Heal = "heal", None = "none" }
}
pub const P_TARGET_DEFENSE: &str = "target-defense";
pub const P_COVER_STACK: &str = "partial-cover-stack";

named_enum! {
    /// What a miniature next to several Partial Covers gains: +1 Defense, or +1 for each.
    pub enum CoverStack ("a reading") { Once = "once", Each = "each" }
}
pub const P_TARGET_HP: &str = "target-hp";
pub const P_PIT_EXIT: &str = "pit-exit";
pub const P_ASSENT_EQUIPMENT: &str = "assent-equipment";
pub const P_INSTINCT_RESHUFFLE: &str = "instinct-reshuffle";
pub const P_SUMMON_TIMING: &str = "summon-timing";
pub const P_PIT_PATH: &str = "pit-path";
pub const P_INSTINCT_ESCAPED: &str = "instinct-escaped";
pub const P_CAPTURE_FREE_ACTION: &str = "capture-free-action";
pub const P_STATUS_PLAIN: &str = "status-plain";
pub const P_CAPTURE_SUMMONS: &str = "capture-summons";
pub const P_CAPTURE_COMPLETE: &str = "capture-complete";
pub const P_CREATURE_PIT_EXIT: &str = "creature-pit-exit";

named_enum! {
    /// Which adjacent field a Creature climbing out of a Pit may go to: any it may end on, or
    /// the one on a shortest path toward its card's destination.
    pub enum CreaturePitExit ("a reading") { AnyField = "any-field", TowardTarget = "toward-target" }
}

named_enum! {
    /// When a capture completes: once every capturing Seeker has taken its capture action's
    /// damage since each last did and the captured-side tokens are enough, or as soon as the
    /// tokens are enough.
    pub enum CaptureComplete ("a reading") { AllCapturers = "all-capturers", Tokens = "tokens" }
}

named_enum! {
    /// Whether a Summon counts among "all remaining Creatures" that have capture tokens (it
    /// never has one), or is left out.
    pub enum CaptureSummons ("a reading") { Count = "count", Skip = "skip" }
}

named_enum! {
    /// Whom an attack's own status (not a Special's trigger) afflicts: every target, or only
    /// a target that took damage, as plain Knockback under `knockback-plain=damaged`.
    pub enum StatusPlain ("a reading") { Always = "always", Damaged = "damaged" }
}

named_enum! {
    /// Whether a capturing Seeker's free action (a Skill that "does not use an action")
    /// cancels its part of the capture as a different action does, or leaves it standing.
    pub enum CaptureFreeAction ("a reading") { Cancels = "cancels", Keeps = "keeps" }
}

named_enum! {
    /// Whether a walking Creature's Instinct search goes round a Pit (a path ending in one
    /// reaches no destination) or walks its shortest path as if the Pit were open ground,
    /// stopping in it.
    pub enum PitPath ("a reading") { Around = "around", Into = "into" }
}

named_enum! {
    /// What an Instinct card drawn for an Escaped Creature does: it is discarded and another
    /// drawn, as a slain or captured Creature's, or it is spent, the Creatures' turn over.
    pub enum InstinctEscaped ("a reading") { Redraw = "redraw", Spent = "spent" }
}

named_enum! {
    /// When an Instinct deck whose cards have all been discarded is made again: as the next
    /// card is to be drawn, or at once, as its last card is discarded.
    pub enum InstinctReshuffle ("a reading") { OnDraw = "on-draw", OnDiscard = "on-discard" }
}

named_enum! {
    /// When a Hunt Creature's Summon may activate within its summoner's activation: at any
    /// point before the summoner moves or acts, or only once the summoner's Instinct card has
    /// its target.
    pub enum SummonTiming ("a reading") { BeforeMove = "before-move", AfterTarget = "after-target" }
}

named_enum! {
    /// Where a miniature climbing out of a Pit may go: any adjacent field it may end on, a
    /// Pit too (it is then in that Pit), or any such field but a Pit.
    pub enum PitExit ("a reading") { AnyField = "any-field", NotPit = "not-pit" }
}

named_enum! {
    /// Which Health an Instinct card's Lowest / Highest HP ranks: what is left of it, or
    /// what the card prints.
    pub enum TargetHp ("a reading") { Remaining = "remaining", Printed = "printed" }
}

named_enum! {
    /// Which Defense an Instinct card's Lowest / Highest PDEF or MDEF ranks: the stat (the
    /// card's, with skills and Equipment), or that with Partial Cover's +1 too.
    pub enum TargetDefense ("a reading") { Stat = "stat", WithCover = "with-cover" }
}

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
              follows), no rounds; for the book's combat examples. `match` (Arena only): a whole Arena match, from the \
              draft through troupes, placement and rounds in the book's activation order to the victory. \
              `campaign` (Hunt only): a whole campaign, the Encampment's setup then Seasons of an encounter and \
              an Encampment phase.",
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
        name: P_PLAYERS,
        kind: ParamKind::Setup,
        allowed: Players::NAMES,
        default: Players::Two.name(),
        doc: "Players of an Arena match: 2, or 4 in two teams of two (a team drafts and plays as one side).",
        section: "Arena: Victory Conditions",
    },
    ParamSpec {
        name: P_SILVESTREM,
        kind: ParamKind::Setup,
        allowed: SilvestremUse::NAMES,
        default: SilvestremUse::On.name(),
        doc: "(Arena) Whether the Silvestrem deck is used: `off` is Vareclea's Day Off, the deck left in the box \
              by agreement.",
        section: "Arena: The Silvestrem Deck (Vareclea's Day Off)",
    },
    ParamSpec {
        name: P_VICTORY,
        kind: ParamKind::Setup,
        allowed: Victory::NAMES,
        default: Victory::Deathmatch.name(),
        doc: "The Arena's victory condition, agreed before the match: `deathmatch` (the default: a side wins as \
              soon as the enemy's Assent, or a team's last Assent, falls) or `last-standing` (every enemy Assent \
              and Creature slain). A side counts once it has had such a miniature on the table.",
        section: "Arena: Victory Conditions",
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
        default: LosCorner::FullCover.name(),
        doc: "\"not cross a field occupied by Full Cover or another miniature\"; Example 6 blocks a line that \
              \"crosses over part of the Daemonspawn's field\"; Full Cover: \"Any attack that draws line of sight \
              through Full Cover cannot be made, even if the miniature is adjacent to the Full Cover (no aiming \
              around corners)\". Default `full-cover`: a line that only touches the corner of Full Cover (or \
              Thornbrush, Spinning Blades) is aimed around that corner and blocked; one that only touches a \
              miniature's corner crosses no part of its field and is clear. `clear`: no corner blocks. \
              `blocked`: every corner touched blocks.",
        section: "Hunt: Obstacles (Full Cover), Line of Sight and Range, Example 6",
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
    ParamSpec {
        name: P_DRAFT_MEDIUM,
        kind: ParamKind::Interpretation,
        allowed: DraftMedium::NAMES,
        default: DraftMedium::Text.name(),
        doc: "Two players' medium Creatures: the text \"Player 1 selects one medium Creature followed by Player 2 \
              selecting two medium Creatures. Player 1 then selects two more medium Creatures, Player 2 selects two \
              medium Creatures and finally Player 1 selects one more\" (4 each; the four-player table agrees) \
              against the two-player table \"1 2 2 1\" (3 each). Default `text`; `table`: P1 1, P2 2, P1 2, P2 1.",
        section: "Arena: Drafting (Creatures), 2-Player draft table",
    },
    ParamSpec {
        name: P_DRAFT_EQUIPMENT,
        kind: ParamKind::Interpretation,
        allowed: DraftEquipment::NAMES,
        default: DraftEquipment::TwoPerAssent.name(),
        doc: "Four players' Equipment: \"Each Assent needs two Equipment cards\" (4 per team) against the \
              four-player table \"_ 1 2 2 1\" (3 per team). Default `two-per-assent`: P2 1, P1 2, P2 2, P1 2, P2 1; \
              `table`: P2 1, P1 2, P2 2, P1 1.",
        section: "Arena: Drafting (Equipment), 4-Player draft table",
    },
    ParamSpec {
        name: P_ASSENT_EQUIPMENT,
        kind: ParamKind::Interpretation,
        allowed: AssentEquipment::NAMES,
        default: AssentEquipment::Two.name(),
        doc: "(Arena, `scope=match`) An Assent's Equipment when the troupes are selected, not drafted: \"They \
              also have customizable slots for two additional Skills and two Equipment cards\" (Assents) and \
              \"Each Assent needs two Equipment cards\" (printed under Drafting, Equipment), while Troupe \
              Building says only \"Players select (or draft, see Drafting) their Creatures, an Assent and the \
              Assent's Equipment cards\", with no number (it gives one for the Skill cards: \"select two\"). \
              Default `two`: the plain words, each Assent needs two, however the cards were chosen; an Assent \
              with fewer at `begin` breaks `wa.arena.equip.two`. `draft-only`: the number is the draft's, as \
              the draft's Creature counts bind only a draft; a selected troupe's Assent may carry fewer. With \
              a recorded draft both readings hold each side to carry its drafted cards \
              (`wa.arena.troupe.drafted`).",
        section: "Arena: Assents (Equipment Slots), Drafting (Equipment), Game Overview (Troupe Building), Final Setup",
    },
    ParamSpec {
        name: P_INSTINCT_SECOND,
        kind: ParamKind::Interpretation,
        allowed: InstinctSecond::NAMES,
        default: InstinctSecond::AnyCard.name(),
        doc: "\"If the Creature is slain or captured, draw a new card. If the second Instinct card drawn is for a \
              slain or captured Creature, discard it and activate the next Seeker. If an Instinct card is ever drawn \
              for a Creature with at least one capture token, Assign 2 damage to each Seeker capturing it and draw a \
              new Instinct card.\" Default `any-card`: the plain words, the second card drawn in the Creature turn, \
              whatever the first was (a capture-token card counts): if it is a slain or captured Creature's, the turn \
              ends; a dead card drawn at any other place is replaced. `dead-only`: only the dead cards count, the \
              turn ends at the second dead card however many capture-token cards came between.",
        section: "Hunt: Playing the Game (Activate Creatures)",
    },
    ParamSpec {
        name: P_KNOCKBACK_PLAIN,
        kind: ParamKind::Interpretation,
        allowed: KnockbackPlain::NAMES,
        default: KnockbackPlain::Damaged.name(),
        doc: "Instinct cards print plain \"Knockback\" (the Wildswood Sentinel); Arena Example 10: \"Tidal Wave has \
              the On Attack: Knockback trait, so even if no damage occurred, all adjacent Gladiators must be \
              moved\" (Hunt Example 10 moves Seekers that took damage). The qualifier is what moves the undamaged: \
              default `damaged`, plain Knockback (catalog `effect knockback`) moves only a target that took \
              damage; `always`: it moves every target, as On Attack: Knockback (`effect on-attack knockback`) \
              always does.",
        section: "Hunt: Instinct Cards, Example 10; Arena: Example 10",
    },
    ParamSpec {
        name: P_CAREFUL_RANGE,
        kind: ParamKind::Interpretation,
        allowed: CarefulRange::NAMES,
        default: CarefulRange::Range.name(),
        doc: "\"Careful Advance: The Creature moves just within range of its target and stops. If the Creature is \
              already in range at the beginning of its activation, it will move as far away from its target (and \
              any other Seeker) as possible while staying in range\"; Example 12: \"stops because Zaxos is now in \
              range ... ignores its remaining Speed\". Default `range`, the plain words: in range is within the \
              card's Range (fields counted with diagonal steps), whatever the line of sight and the facing, so it \
              stops at the first such field and retreats only as far as the Range reaches. `attack`: in range is \
              able to attack (within Range, in line of sight, in the frontal arc), as a Creature \"will never \
              target a miniature it cannot perform its action on\".",
        section: "Hunt: Creature Movement, Example 12",
    },
    ParamSpec {
        name: P_SUMMON_FIELD,
        kind: ParamKind::Interpretation,
        allowed: SummonField::NAMES,
        default: SummonField::Any.name(),
        doc: "(both modes) \"Summons are special Creatures that enter the board via another Creature's Skill\" \
              (Hunt: Summons; Arena: \"special Gladiators that enter the board via another Creature or Assent's \
              Skill\") says nothing of the field, which the summoning Skill's text (not printed) would give. \
              Default `any`, the plain words: any free field on the board (not a miniature's, not cover), as \
              for every Summon the book's examples bring in without saying where. `adjacent`: a field next to \
              its summoner, the reading the engine took silently before rules version 17.",
        section: "Hunt: Summons; Arena: Summons",
    },
    ParamSpec {
        name: P_CAREFUL_TURN,
        kind: ParamKind::Interpretation,
        allowed: CarefulTurn::NAMES,
        default: CarefulTurn::Face.name(),
        doc: "(Hunt) \"If the Creature is already in range at the beginning of its activation, it will move as \
              far away from its target (and any other Seeker) as possible while staying in range\" (Creature \
              Movement) says nothing of its facing once there, while \"Once the Creature's target has been \
              confirmed and it has moved, simply resolve its action\" (Creature Actions) and Example 2 (\"It \
              spends its remaining 1 Speed to rotate so it may attack\") spend Speed left on facing the target, \
              and a Creature \"will never target a miniature it cannot perform its action on\". Default `face`: \
              a Creature that moved away (or stayed) in range turns where it stops, with Speed left, so its \
              target is in its frontal arc when a turn lets it attack (wa.hunt.cmove.face-to-attack, as Advance \
              does); any other turn there is wa.hunt.cmove.careful. `arrive` (rules versions 13 to 16): it stops \
              as it arrives, a shortest path to its field ending there, and a turn on its last field is \
              wa.hunt.cmove.careful, even one that would let it attack. Moving toward a target not yet in range \
              it stops as it arrives under both (\"moves just within range of its target and stops\", Example \
              12: \"ignores its remaining Speed\").",
        section: "Hunt: Creature Movement, Creature Actions, Examples 2 and 12",
    },
    ParamSpec {
        name: P_CAREFUL_AWAY,
        kind: ParamKind::Interpretation,
        allowed: CarefulAway::NAMES,
        default: CarefulAway::TargetFirst.name(),
        doc: "(Hunt) \"Careful Advance: ... If the Creature is already in range at the beginning of its \
              activation, it will move as far away from its target (and any other Seeker) as possible while \
              staying in range\" (Creature Movement): the book does not say how the two distances weigh. \
              Default `target-first`, the sentence's order: its object is the target, the one whose distance \
              \"while staying in range\" bounds, and the parenthesis adds the other Seekers after it, so the \
              Creature ends as far from its target as its Range and Speed allow, and among those fields as far \
              from the nearest other Seeker as it can (fields counted with diagonal steps). `every-seeker`: \
              the target and the others alike, as far from the nearest Seeker of them all as it can, so it \
              may stop closer to its target to stay away from another Seeker.",
        section: "Hunt: Creature Movement",
    },
    ParamSpec {
        name: P_LAST_ESCAPE,
        kind: ParamKind::Interpretation,
        allowed: LastStandingEscape::NAMES,
        default: LastStandingEscape::SlainOnly.name(),
        doc: "\"Last Man Standing requires each enemy Assent and Creature be slain to achieve victory\"; an \
              Escaped miniature \"is removed from the board\" but is not slain. Default `slain-only`: the plain \
              words, a side with an Escaped Assent or Creature is never all slain, so Last Man Standing is not \
              won against it. `gone`: an Escaped miniature is out of the match and counts as slain (Deathmatch's \
              `deathmatch-escape=falls` reading carried over).",
        section: "Arena: Victory Conditions (Last Man Standing), Keywords (Escape)",
    },
    ParamSpec {
        name: P_ESCAPE,
        kind: ParamKind::Interpretation,
        allowed: DeathmatchEscape::NAMES,
        default: DeathmatchEscape::Falls.name(),
        doc: "\"As soon as a player's Assent (or the last Assent on a team) falls, the other player/team wins\"; \
              an Escaped miniature \"is removed from the board\" and takes no further part. Default `falls`: an \
              Escaped Assent is out of the match, so it has fallen. `slain-only`: only a slain Assent falls.",
        section: "Arena: Victory Conditions (Deathmatch), Keywords (Escape)",
    },
    ParamSpec {
        name: P_DOUBLE_FALL,
        kind: ParamKind::Interpretation,
        allowed: DoubleFall::NAMES,
        default: DoubleFall::Draw.name(),
        doc: "One roll resolves on every target of an area attack (Example 10), and the victory is judged once \
              it has (whatever order the log writes the targets in). When both sides' Assents (a team's last \
              Assents; for Last Man Standing, every Assent and Creature) fell in that attack, \"the other \
              player/team wins\" names neither alone, and the book has no rule for it. Default `draw`: the match \
              ends with no winner (`victory draw`). `attacker`: the side that made the attack wins (a house \
              rule: its action met the victory condition).",
        section: "Arena: Victory Conditions (Deathmatch, Last Man Standing), Example 10",
    },
    ParamSpec {
        name: P_HEAL_CAP,
        kind: ParamKind::Interpretation,
        allowed: HealCap::NAMES,
        default: HealCap::HealExempt.name(),
        doc: "\"Creatures can only have 2 dice total\" (Playing the Game) against \"With the exception of Healing \
              dice (and Blanks), the results are assigned to Creatures with a limit of one type per Creature and \
              no more than two dice per Creature ... As for Healing dice, there is no limit\" (Momentum Dice). \
              Default `heal-exempt`: the Momentum section's detailed rule, Healing dice do not count toward the \
              two. `heal-counts`: every die counts.",
        section: "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice",
    },
    ParamSpec {
        name: P_REROLL_COUNT,
        kind: ParamKind::Interpretation,
        allowed: RerollCount::NAMES,
        default: RerollCount::PerDie.name(),
        doc: "\"Players may select any number of Momentum dice to reroll, but the second result must be used\" \
              (Roll Momentum Dice): the duty is a die's (its second result stands), and the words set no one \
              moment for the selection (the timing lets some dice be assigned first, `momentum-reroll-timing`). \
              Default `per-die`: any die not yet rerolled may be rerolled, in one `momentum-reroll` or several; \
              a die's second result is never rerolled. `once`: the side selects its rerolls once a roll (the \
              book's example rerolls both Blanks together), a second `momentum-reroll` breaks \
              wa.arena.momentum.reroll (rules versions up to 21).",
        section: "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice",
    },
    ParamSpec {
        name: P_REROLL,
        kind: ParamKind::Interpretation,
        allowed: RerollTiming::NAMES,
        default: RerollTiming::AnyTime.name(),
        doc: "\"distributes them among their Gladiators ... Players may select any number of Momentum dice to \
              reroll\": the example assigns three dice, then rerolls the two Blanks. Default `any-time`: the \
              unassigned dice may be rerolled (once) after some are assigned, as the example does. \
              `before-assign`: the reroll comes before any die is assigned.",
        section: "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice (Example)",
    },
    // ---- the Hunt campaign (scope=campaign)
    ParamSpec {
        name: P_SEASONS,
        kind: ParamKind::Setup,
        allowed: &["<1-10>"],
        default: "10",
        doc: "(scope=campaign) The Seasons the Seekers must survive: Survival's 10, the default victory \
              condition; fewer is a customized, shorter campaign.",
        section: "Hunt: Victory Conditions (Survival)",
    },
    ParamSpec {
        name: P_SCOUT_ACTIONS,
        kind: ParamKind::Interpretation,
        allowed: ScoutActions::NAMES,
        default: ScoutActions::TwoEach.name(),
        doc: "\"Scouting cost 2 actions per Seeker\" (Scouting) against \"Two Seekers must each have at least \
              one action each remaining to Scout\" (Encampment Actions). Default `two-each`: Scouting costs two \
              Seekers 2 actions each, so a Seeker with one action left cannot scout. `one-each`: one action left \
              is enough, and Scouting costs 1 action each.",
        section: "Hunt: Encampment Actions; Actions always available (Scouting)",
    },
    ParamSpec {
        name: P_DERELICT_TIMING,
        kind: ParamKind::Interpretation,
        allowed: DerelictTiming::NAMES,
        default: DerelictTiming::Spent.name(),
        doc: "\"Each Seeker receives five actions at the beginning of the Encampment phase to spend on tasks as \
              they wish\" against \"Two Seekers must each have at least one action each remaining to Scout to \
              begin the next Encounter. If they do not, a new Encampment phase will begin and the Encampment will \
              become Derelict\" (Encampment Actions), which names no moment. Default `spent`, the plain words: \
              once no two Seekers can Scout, the others may still spend their actions as they wish; the new \
              phase (`derelict`) begins when the players stop, recorded, and is owed once no Seeker has an \
              action left (no visit to the Markets open). `at-once`: the new phase begins the moment no two \
              Seekers can Scout, the actions left unspent (the engine's reading before rules version 14).",
        section: "Hunt: Encampment Actions",
    },
    ParamSpec {
        name: P_DERELICT_SEASON,
        kind: ParamKind::Interpretation,
        allowed: DerelictSeason::NAMES,
        default: DerelictSeason::Uncounted.name(),
        doc: "\"If they do not, a new Encampment phase will begin and the Encampment will become Derelict\" \
              (Encampment Actions) against \"The Hunt mode is divided into two phases, Encounter and Encampment, \
              which are combined to create one Season\" (Playing the Game) and \"survive for the full 10 Seasons\" \
              (Survival): the book never says whether the new phase is a Season. Default `uncounted`: a Season is \
              an Encounter phase and an Encampment phase together, and the Derelict phase has no encounter, so \
              the Season token stays where it is and the next Scouting's encounter is the next Season's \
              (`season N+1`). `counted`: the Derelict phase is a Season of its own, spent without an encounter \
              (time the Seekers lose, \"leaves the Seekers less prepared\"): the Season token moves on as it \
              begins, the next Scouting's encounter is `season N+2`, and when the Derelict phase is the last \
              Season's the campaign is won as it begins (`survival-end=encounter`: no encounter is left to \
              lose) or as it ends (`survival-end=encampment`).",
        section: "Hunt: Encampment Actions; Playing the Game; Victory Conditions (Survival)",
    },
    ParamSpec {
        name: P_INJURED_RETURN,
        kind: ParamKind::Interpretation,
        allowed: InjuredReturn::NAMES,
        default: InjuredReturn::OneHealth.name(),
        doc: "A Seeker's damage \"equal to or greater than their Health\" leaves it \"injured and removed from the \
              game board\" (Seekers), and an encounter is won while some Seekers are injured (End the Encounter); \
              the book never says with what Health an injured Seeker comes back. Its damage is kept between \
              encounters (the Barracks' \"passive healing\" and the Temple heal it in the Encampment phase). \
              Default `one-health`: the damage is kept as for every other Seeker, as much of it as leaves the \
              Seeker alive (1 Health), so an injured Seeker is never better off than a wounded one. `full`: the \
              injury ends with the encounter, the Seeker back at its printed Health.",
        section: "Hunt: Seekers (Health); Playing the Game (End the Encounter); Encampment (Barracks)",
    },
    ParamSpec {
        name: P_TEMPLE_VISITORS,
        kind: ParamKind::Interpretation,
        allowed: TempleVisitors::NAMES,
        default: TempleVisitors::AtOnce.name(),
        doc: "\"Upgrading the Temple of Vil increases the healing and the number of Seekers who can visit \
              simultaneously\" (Encampment), while \"Seekers may spend 1 action to Heal\" each (Heal at the Temple \
              of Vil) and \"Actions must be used in order, with each Seeker spending their actions one at a \
              time\" (Encampment Actions). Default `at-once` (rules version 22, the plain words): it limits Seekers \
              at the Temple at the same moment; as no two actions are spent at once, it never refuses a healing, \
              and the book prints no number for it. `per-phase` (the default up to version 21): the number (the \
              catalog's `visitors`) is of the different Seekers who heal there in one Encampment phase (a Seeker \
              who has healed there may come back).",
        section: "Hunt: Encampment (Temple of Vil); Heal at the Temple of Vil; Encampment Actions",
    },
    ParamSpec {
        name: P_UNHIRED_WORKERS,
        kind: ParamKind::Interpretation,
        allowed: UnhiredWorkers::NAMES,
        default: UnhiredWorkers::Deck.name(),
        doc: "\"Players draw 2 Worker cards and may hire as many (or as few) as they like\" (Hire Workers) says \
              nothing of the ones not hired. Default `deck`: they go back into the Worker deck as the visit ends, \
              as the setup's draw does (\"shuffle the rest ... together\", Setup), the box being named only for a \
              Worker discarded from a slot (\"returned to the box, not added back to the Worker deck\", Workers); a \
              later visit, in the same phase too, may draw them. `box`: they leave the game like a discarded \
              Worker. (Before rules version 15 they stayed out of the deck until the phase ended.)",
        section: "Hunt: Visit the Silvestrem's Markets (Hire Workers); Setup; Workers",
    },
    ParamSpec {
        name: P_WORKER_REPLACE,
        kind: ParamKind::Interpretation,
        allowed: WorkerReplace::NAMES,
        default: WorkerReplace::AnyTime.name(),
        doc: "\"If all of the Encampment Worker slots are full, hiring a new Worker requires discarding an \
              existing Worker. The Worker is returned to the box\" (Workers): a duty when the slots are full, and \
              no word about a discard with a slot free. Default `any-time`: the words forbid nothing, so a hire \
              may discard a hired Worker (`replacing`) with a slot free too. `when-full`: a discard is only the \
              way to make room, and with a slot free `replacing` is wa.hunt.worker.slots.",
        section: "Hunt: Workers",
    },
    ParamSpec {
        name: P_SURVIVAL_END,
        kind: ParamKind::Interpretation,
        allowed: SurvivalEnd::NAMES,
        default: SurvivalEnd::Encounter.name(),
        doc: "\"survive for the full 10 Seasons. If all four Seekers are injured in combat, the game ends and the \
              players lose\" (Survival), and \"The Hunt mode is divided into two phases, Encounter and Encampment, \
              which are combined to create one Season\" (Playing the Game): the last Season has an Encampment \
              phase after its encounter, and the book never says whether it is played. Default `encounter`: the \
              campaign is won as the last Season's encounter is won; nothing in an Encampment phase can lose it \
              (only combat injures), and the phase would prepare for no encounter. `encampment`: the last \
              Season's Encampment phase is played too, and the campaign is won as it ends: when the players stop \
              (`campaign won` recorded), owed where the Derelict rule would be (no two Seekers can Scout and no action is \
              left to spend), or at a Scouting's pick; no Derelict phase follows it.",
        section: "Hunt: Victory Conditions (Survival); Playing the Game",
    },
    ParamSpec {
        name: P_UNLOCK_TIMING,
        kind: ParamKind::Interpretation,
        allowed: UnlockTiming::NAMES,
        default: UnlockTiming::NextPhase.name(),
        doc: "Buildings \"are also required for unlocking Seeker skills to be used in the Encounter phase\", \
              and an upgrade \"does not take effect until the next Encampment phase\" (a new building \"may not \
              be used until the next Encampment phase\"); the encounter that follows the phase comes before the \
              next one. Default `next-phase`: the plain words, a building bought or upgraded in a phase unlocks \
              its Skills from the encounter after the next phase. `at-once`: the purchase or upgrade counts for \
              the very next encounter (only the Encampment's own uses wait).",
        section: "Hunt: Actions always available (Upgrade a Building, Purchase Buildings); Encampment",
    },
    ParamSpec {
        name: P_PLACEMENT,
        kind: ParamKind::Setup,
        allowed: Placement::NAMES,
        default: Placement::Alternate.name(),
        doc: "(Arena, scope=match) `alternate`: obstacles and then Gladiators are placed in turns (Player 1's \
              obstacle first, Player 2's Gladiator first). `simultaneous`: \"players can forego alternating Gladiator \
              and obstacle placement and place everything simultaneously\", by agreement; zones and spacing still \
              hold.",
        section: "Arena: Obstacle and Gladiator Placement",
    },
    ParamSpec {
        name: P_ROUND_START,
        kind: ParamKind::Interpretation,
        allowed: RoundStart::NAMES,
        default: RoundStart::SilvestremFirst.name(),
        doc: "The Game Overview lists \"Roll Momentum Dice\" before \"Draw a Silvestrem Deck card\"; The Silvestrem \
              Deck says \"The first step of a new round is drawing a card from the Silvestrem deck\" and Momentum \
              Dice says they \"are rolled at the beginning of each round after the Silvestrem card is drawn\". \
              Default `silvestrem-first` (two detailed passages against the overview's list): the card, then the \
              Momentum rolls. `momentum-first`: the rolls (and their assignment), then the card.",
        section: "Arena: Playing the Game, The Silvestrem Deck, Momentum Dice",
    },
    ParamSpec {
        name: P_DURATION,
        kind: ParamKind::Interpretation,
        allowed: MomentumDuration::NAMES,
        default: MomentumDuration::ThisRound.name(),
        doc: "\"The bonuses the dice provide persist for the entire round\" (Momentum Dice) against the Keywords \
              \"Damage Dice: Momentum dice that give a Gladiator +1 Damage for the next round\" (Defense Dice \
              alike). Rolled at a round's start, \"the next round\" is most plainly the round about to be played: \
              default `this-round`, the Damage, Defense and Speed bonuses count in the round the dice are rolled \
              in. `next-round`: they count in the round after it (Healing is at once either way).",
        section: "Arena: Momentum Dice; Keywords (Damage Dice, Defense Dice)",
    },
    ParamSpec {
        name: P_UNASSIGNED,
        kind: ParamKind::Interpretation,
        allowed: MomentumUnassigned::NAMES,
        default: MomentumUnassigned::Lost.name(),
        doc: "Each player \"rolls their Momentum dice ... and distributes them among their Gladiators\" (Playing \
              the Game) and a die \"would be discarded because of the '1 type per Creature' rule\" (Momentum \
              Dice, Example); the book names no consequence for a die nobody was given. Default `lost`: a die \
              still unassigned when the activations begin is simply lost, its benefit forfeited (a \
              `momentum-discard` line still claims the die could go to nobody, and is checked). `discarded`: \
              leaving a die unassigned that a Gladiator of its side could take is discarding it without cause, \
              `wa.arena.momentum.discard`, reported once per side as the round's activations begin.",
        section: "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice (Example)",
    },
    ParamSpec {
        name: P_LONE_ASSENT,
        kind: ParamKind::Interpretation,
        allowed: LoneAssentOrder::NAMES,
        default: LoneAssentOrder::Nominal.name(),
        doc: "\"The player/team that activated their Assent second this round will activate a Creature first\" \
              (Playing the Game): silent when one side has no Assent left (slain under Last Man Standing, \
              Escaped). Default `nominal`: the round's order stands as if both Assents had activated (the side \
              due first this round counts as having activated first, so the other side's Creature starts), \
              the order then alternating every round as before. `activated`: only the Assent that did activate \
              counts, and it went first, so the other side's Creature starts.",
        section: "Arena: Playing the Game (Activate Creatures, Begin a new round)",
    },
    ParamSpec {
        name: P_SUMMON_HEAL,
        kind: ParamKind::Interpretation,
        allowed: SummonHeal::NAMES,
        default: SummonHeal::Heal.name(),
        doc: "\"Healing: Heal a Gladiator for 1\" and \"With the exception of Healing dice (and Blanks), the \
              results are assigned to Creatures\" (Momentum Dice), with \"Summons are special Gladiators ... \
              Summons are not Creatures\" (Summons). Default `heal`: the plain words, a Summon is a Gladiator, \
              so it may take Healing dice (a Bleeding one is cured), never a Damage, Defense or Speed die, \
              which go to Creatures (and a Creature's two-dice limit is not its). `none`: no Momentum die goes \
              to a Summon, \"Healing dice are the only Momentum dice that may be assigned to Assents\" read as \
              naming every Gladiator besides the Creatures that may take one.",
        section: "Arena: Momentum Dice, Summons",
    },
    ParamSpec {
        name: P_MOMENTUM_4P,
        kind: ParamKind::Interpretation,
        allowed: Momentum4p::NAMES,
        default: Momentum4p::Team.name(),
        doc: "(Arena, players=4) \"Each player rolls their Momentum dice (determined by the Assent and Skills \
              they have chosen; the default number of Momentum dice is 5)\" (Roll Momentum Dice, l.386) under \
              \"This describes a 2-player match of the Arena; you can simply replace 'player' with 'team' for a \
              4-player match\" (Playing the Game, l.384). Default `team`: the substitution the book orders for \
              that very section, \"Each team rolls their Momentum dice\": one roll of five a side; the section \
              names its four-player exceptions where it means players (l.388, l.389) and names none for the \
              dice, and four players \"roll and draft as a team\" (l.457). `player`: every player of a team \
              rolls five (\"determined by the Assent\", and a team has two), the side's `momentum` line \
              holding both players' dice (5 for each player with a Gladiator on the board) and its one \
              `momentum-reroll` line both players' rerolls; which player's die goes to which Gladiator is not \
              recorded, so not checked.",
        section: "Arena: Playing the Game (Roll Momentum Dice), Momentum Dice",
    },
    ParamSpec {
        name: P_COVER_STACK,
        kind: ParamKind::Interpretation,
        allowed: CoverStack::NAMES,
        default: CoverStack::Once.name(),
        doc: "(both modes) \"Seekers and Creatures adjacent to this field have +1 Defense\" (Hunt: Obstacles, \
              Partial Cover; Arena: \"Gladiators adjacent to this field have +1 Defense\") is silent on a \
              miniature beside two or more of them. Default `once`: being next to Partial Cover is a condition \
              a miniature meets or not, as both Examples 4 speak of \"the +1 Defense\" of standing by cover, so \
              it has +1 Defense however many are adjacent. `each`: every Partial Cover field gives its own +1 to \
              the miniatures adjacent to it, so two give +2. The reading counts wherever Partial Cover's bonus \
              does: the damage a miniature takes, and a Creature's Lowest / Highest PDEF or MDEF under \
              `target-defense=with-cover`.",
        section: "Hunt: Obstacles (Partial Cover), Keywords (Defense); Arena: Obstacles",
    },
    ParamSpec {
        name: P_TARGET_DEFENSE,
        kind: ParamKind::Interpretation,
        allowed: TargetDefense::NAMES,
        default: TargetDefense::Stat.name(),
        doc: "(Hunt) \"Lowest / Highest: The target with the lowest or highest of a particular stat; HP \
              (Health), Physical or Magical Defense (PDEF or MDEF)\" (Creature Targeting) against \
              \"Defense: ... Any bonus to defense is added to both Magical and Physical Defense\" (Keywords) \
              and Partial Cover's \"adjacent to this field have +1 Defense\". Default `stat`: the plain words \
              of the keyword, a stat is what the miniature's card (with its skills and Equipment, which \
              change the stat itself) prints; where it stands is no stat, so Partial Cover's +1 counts \
              against the damage but not in the ranking. `with-cover`: the Keywords' bonus to Defense is \
              part of PDEF and MDEF for the ranking too, so a Seeker next to Partial Cover ranks one higher.",
        section: "Hunt: Creature Targeting; Keywords (Defense); Obstacles (Partial Cover)",
    },
    ParamSpec {
        name: P_TARGET_HP,
        kind: ParamKind::Interpretation,
        allowed: TargetHp::NAMES,
        default: TargetHp::Remaining.name(),
        doc: "(Hunt) \"Lowest / Highest: The target with the lowest or highest of a particular stat; HP \
              (Health)\" (Creature Targeting): the Health the Seeker has left, which its Health tracker shows \
              (\"Move the defender's Health tracker along the side of the board to indicate the Health \
              lost\"), or the Health its card prints (\"The amount of damage the Seeker can sustain\"). \
              Default `remaining`: the tracker, the Health the Seeker has now (the damage taken is \
              \"Highest Missing\"'s own keyword); `printed`: the card's Health, whatever the damage.",
        section: "Hunt: Creature Targeting; Seekers (Health); Attacking and Defending",
    },
    ParamSpec {
        name: P_PIT_EXIT,
        kind: ParamKind::Interpretation,
        allowed: PitExit::NAMES,
        default: PitExit::AnyField.name(),
        doc: "(Pit) \"They must also spend their entire next activation to move to an adjacent field\": the \
              book names no field it may not be. Default `any-field`, the plain words: any adjacent field a \
              miniature may end on, an adjacent Pit too, which it then enters (\"Any Seeker or Creature who \
              enters a Pit field must end their activation immediately\"), so it is in that Pit and climbs \
              out again at its next activation; `not-pit`: an adjacent Pit is refused as the other \
              obstacles are (`wa.obstacle.pit-exit`'s field must be free of every obstacle).",
        section: "Obstacles (Pit); Hunt Example 10; Arena: Obstacles (Pit)",
    },
    ParamSpec {
        name: P_INSTINCT_RESHUFFLE,
        kind: ParamKind::Interpretation,
        allowed: InstinctReshuffle::NAMES,
        default: InstinctReshuffle::OnDraw.name(),
        doc: "(Hunt) \"To activate a Creature, draw one Instinct card and resolve it. ... If all Instinct cards \
              have been discarded, remove the cards for captured and slain Creatures from the discard pile and \
              shuffle the remaining cards to form a new Instinct deck\" (Activate Creatures): the book names no \
              moment. Default `on-draw`: the sentence is a step of activating a Creature, which begins by drawing, \
              so the deck is made again when the next card is to be drawn (`reshuffle` before that `instinct`, \
              after any Seeker activation or new round between), leaving out the cards of every Creature slain \
              or captured until then; `on-discard`: the deck is made again the moment its last card is \
              discarded (`reshuffle` right after that Creature's `end`, or the dead card drawn last, before a \
              Seeker activates or a round begins), so a Creature slain or captured after it has its cards shuffled in, and one of them \
              drawn later is a dead card (\"If the Creature is slain or captured, draw a new card\"). A \
              `reshuffle` at the other moment is `wa.hunt.instinct.reshuffle`.",
        section: "Hunt: Playing the Game (Activate Creatures)",
    },
    ParamSpec {
        name: P_SUMMON_TIMING,
        kind: ParamKind::Interpretation,
        allowed: SummonTiming::NAMES,
        default: SummonTiming::BeforeMove.name(),
        doc: "(Hunt) Summons \"activate as part of their summoner's activation (before that Creature or Seeker \
              moves or performs their action)\" (Summons) against \"Activating Creatures is as simple as \
              following the instructions on their Instinct cards line by line, beginning with identifying the \
              Creature's Target\" (Activating Creatures). Default `before-move`, the plain words of Summons: \
              naming a target is neither a move nor an action, so a Creature's Summon may activate anywhere in \
              its summoner's activation before the summoner moves or acts, before its `target` line too; \
              `after-target`: the activation begins with the target, so a Summon of a Creature whose card names \
              one activates only after the summoner's `target` line (`wa.hunt.instinct.sequence`). The Summon's \
              entry (`summon`) and a card with no named target (\"every enemy in melee range\") are alike \
              under both.",
        section: "Hunt: Summons, Activating Creatures",
    },
    ParamSpec {
        name: P_CAPTURE_FREE_ACTION,
        kind: ParamKind::Interpretation,
        allowed: CaptureFreeAction::NAMES,
        default: CaptureFreeAction::Cancels.name(),
        doc: "(Hunt) Capturing: \"If the Seeker moves or performs a different action, their part of the capture \
              is canceled and the token removed\" against Keywords, Free Action: \"This Skill does not use an \
              action (but will end movement)\". Default `cancels`, the plain words: a free action is an action \
              the Seeker performs, and it is not the capture, so the Seeker's part is cancelled \
              (`wa.hunt.capture.cancel`) even if its action then goes on the capture. `keeps`: a free action uses \
              no action, so it is not the \"different action\"; the part stands while the Seeker's action is \
              still the capture (moving or ending the activation without it still cancels).",
        section: "Hunt: Capturing Creatures, Keywords (Free Action)",
    },
    ParamSpec {
        name: P_PIT_PATH,
        kind: ParamKind::Interpretation,
        allowed: PitPath::NAMES,
        default: PitPath::Around.name(),
        doc: "(Hunt) \"Creatures move the same way Seekers do, taking the shortest path to their destination\" and \
              Advance \"moves toward its target, stopping only if it runs out of Speed or is adjacent to its \
              target\" (Creature Movement) against the Pit: \"Any Seeker or Creature who enters a Pit field must \
              end their activation immediately\" (Obstacles). No example shows a Creature by a Pit. Default \
              `around`, the plain words: a path into a Pit stops there, so it is no path to the destination and \
              no Advance (which stops only out of Speed or adjacent): a walking Creature's search (its targets \
              and its path) leaves out the paths that end in a Pit and goes round it \
              (`wa.hunt.cmove.advance` for one that walks in). `into`: the Pit is open ground to the search, \
              as it blocks no step (\"may not enter a field occupied by another miniature or certain \
              obstacles\"); the Creature walks its shortest path and, entering a Pit on it, stops there \
              (`wa.hunt.cmove.shortest` for a Pit off every shortest path). A Flying Creature flies over Pits \
              under both.",
        section: "Hunt: Creature Movement, Obstacles (Pit)",
    },
    ParamSpec {
        name: P_INSTINCT_ESCAPED,
        kind: ParamKind::Interpretation,
        allowed: InstinctEscaped::NAMES,
        default: InstinctEscaped::Redraw.name(),
        doc: "(Hunt) \"If the Creature is slain or captured, draw a new card. If the second Instinct card drawn \
              is for a slain or captured Creature, discard it and activate the next Seeker. ... remove the \
              cards for captured and slain Creatures from the discard pile\" (Activate Creatures) names two \
              ways out of an encounter; Escape: \"The Seeker or Creature is removed from the board. If a \
              Creature, it does not award resources\" (Keywords). Default `redraw`: the keyword tells an \
              Escaped Creature from a slain one by its resources alone, so its card is a slain Creature's: \
              discarded and another drawn (the second card drawn ends the turn, `instinct-second-card`), its \
              cards left out when the deck is made again. `spent`: the two sentences name slain and captured \
              only, so an Escaped Creature's card is drawn as any other and, with no miniature to resolve \
              it, discarded with no activation: the Creatures' turn is over (a card drawn after it is \
              `wa.hunt.instinct.dead`), and its cards are shuffled back in with the rest.",
        section: "Hunt: Playing the Game (Activate Creatures), Keywords (Escape)",
    },
    ParamSpec {
        name: P_STATUS_PLAIN,
        kind: ParamKind::Interpretation,
        allowed: StatusPlain::NAMES,
        default: StatusPlain::Always.name(),
        doc: "(both modes) Status Effects: \"Certain Skills inflict negative status effects, such as Zaxos's \
              default Skill, Maim. Place the token on the Seeker or Creature's card\" names no condition on the \
              damage; Arena Example 10's \"Tidal Wave has the On Attack: Knockback trait, so even if no damage \
              occurred, all adjacent Gladiators must be moved\" is printed for Knockback alone (`knockback-plain`). \
              Default `always`, the plain words: an attack's own status (catalog `effect status ...`) afflicts \
              each target, whatever damage it took. `damaged`: the Example's contrast read for every trait, so \
              an attack's own status afflicts only a target that took damage, as plain Knockback does under \
              `knockback-plain=damaged`. A status a Special triggers (`on-special status ...`) follows the roll \
              under both, as a Special's Knockback does.",
        section: "Hunt: Status Effects; Arena: General Status Effects, Example 10",
    },
    ParamSpec {
        name: P_CAPTURE_SUMMONS,
        kind: ParamKind::Interpretation,
        allowed: CaptureSummons::NAMES,
        default: CaptureSummons::Skip.name(),
        doc: "(Hunt) \"If all remaining Creatures have capture tokens, assign the damage but do not draw a new \
              card\" (Activate Creatures; Capturing Creatures: \"do not draw again\") against Summons: \"Summons \
              are special Creatures ... Summons do not have cards of their own ... Summons may not be captured\". \
              Default `skip` (rules version 21): the sentence is what ends the drawing once no card can \
              activate a Creature, and Summons, which no Instinct card activates, are left out, so a card is not \
              drawn again once every other Creature left has a token: one capture damage per Creatures' turn, as \
              Example 13 plays it (\"The Gryphon is the only Creature left, so drawing its Instinct card causes \
              Zaxos to be assigned an additional 2 damage and then it is Fani's turn\"). `count`: a Summon is \
              one of the remaining Creatures and never has a capture token, so while one stands another card \
              is drawn, again and again, until the capturers are injured (the default of versions 13 to 20).",
        section: "Hunt: Playing the Game (Activate Creatures), Summons, Capturing Creatures",
    },
    ParamSpec {
        name: P_CAPTURE_COMPLETE,
        kind: ParamKind::Interpretation,
        allowed: CaptureComplete::NAMES,
        default: CaptureComplete::AllCapturers.name(),
        doc: "(Hunt) \"A Creature is captured when it has captured-side capture tokens equal to the number of \
              Seekers required to capture it\" and \"The Seeker must continue using their action (and be \
              assigned 2 damage) every activation until the Creature is fully captured\" (Capturing Creatures) \
              against Example 13: \"If Zaxos and Fani both use their next activations to capture (Zaxos to \
              maintain and Fani to flip her capture token), the Gryphon will be captured (after both Seekers \
              take damage)\", whichever of them activates first. Default `all-capturers`, the example's \
              reading: the capture completes once the captured-side tokens are enough and every Seeker with a \
              token on the Creature has been assigned its capture action's 2 damage since each last was (a \
              capturer's second action begins the next such turn); Fani flipping first leaves the Gryphon \
              uncaptured until Zaxos maintains (rules version 13). `tokens`: captured as soon as enough tokens \
              show the captured side (the engine's reading before version 13).",
        section: "Hunt: Capturing Creatures, Example 13",
    },
    ParamSpec {
        name: P_CREATURE_PIT_EXIT,
        kind: ParamKind::Interpretation,
        allowed: CreaturePitExit::NAMES,
        default: CreaturePitExit::AnyField.name(),
        doc: "(Hunt) A Creature in a Pit: \"They must also spend their entire next activation to move to an \
              adjacent field\" (Obstacles, Pit; Example 10: \"forfeit her next activation to be placed on an \
              adjacent field\") against Creature Movement: \"Creatures move the same way Seekers do, taking the \
              shortest path to their destination\". Default `any-field`, the Pit's plain words: the activation \
              is spent (forfeited) on the climb, so nothing of the Instinct card's movement is resolved, and \
              the sentence names no field: any adjacent field the Creature may end on (`pit-exit` for an \
              adjacent Pit). `toward-target`: the climb is a Creature move, so it goes to an adjacent field \
              that leaves the least way to its card's destination with its target (any target the card \
              allows, when the log names none), its facing kept (`wa.hunt.cmove.shortest`); a Halt card or a \
              card for every enemy names no destination and leaves the field free.",
        section: "Hunt: Obstacles (Pit), Example 10, Creature Movement",
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
    pub players: u8,
    pub silvestrem: bool,
    pub draft_medium: DraftMedium,
    pub draft_equipment: DraftEquipment,
    pub victory: Victory,
    pub escape: DeathmatchEscape,
    pub double_fall: DoubleFall,
    pub instinct_second: InstinctSecond,
    pub knockback_plain: KnockbackPlain,
    pub careful_range: CarefulRange,
    pub careful_turn: CarefulTurn,
    pub summon_field: SummonField,
    pub careful_away: CarefulAway,
    pub last_escape: LastStandingEscape,
    pub heal_cap: HealCap,
    pub reroll: RerollTiming,
    pub reroll_count: RerollCount,
    /// `scope=campaign`: `scope` then reads `encounter` (each Season's encounter is one).
    pub campaign: bool,
    pub seasons: u8,
    pub scout_actions: ScoutActions,
    pub unlock_timing: UnlockTiming,
    pub derelict_timing: DerelictTiming,
    pub derelict_season: DerelictSeason,
    pub injured_return: InjuredReturn,
    pub temple_visitors: TempleVisitors,
    pub unhired_workers: UnhiredWorkers,
    pub worker_replace: WorkerReplace,
    pub survival_end: SurvivalEnd,
    pub placement: Placement,
    pub round_start: RoundStart,
    pub duration: MomentumDuration,
    pub unassigned: MomentumUnassigned,
    pub lone_assent: LoneAssentOrder,
    pub summon_heal: SummonHeal,
    pub momentum_4p: Momentum4p,
    pub target_defense: TargetDefense,
    pub cover_stack: CoverStack,
    pub target_hp: TargetHp,
    pub pit_exit: PitExit,
    pub instinct_reshuffle: InstinctReshuffle,
    pub summon_timing: SummonTiming,
    pub pit_path: PitPath,
    pub instinct_escaped: InstinctEscaped,
    pub capture_free_action: CaptureFreeAction,
    pub status_plain: StatusPlain,
    pub capture_summons: CaptureSummons,
    pub capture_complete: CaptureComplete,
    pub creature_pit_exit: CreaturePitExit,
    pub assent_equipment: AssentEquipment,
}

impl Params {
    /// Read every parameter, keeping every problem in `r`.
    pub fn read(r: &mut Readings, board: &str) -> Params {
        let mode = r.get(P_MODE, Mode::Hunt);
        let scope = r.get(P_SCOPE, Scope::Encounter);
        let campaign = scope == Scope::Campaign;
        if campaign && mode == Mode::Arena {
            r.problem("`scope=campaign` is the Hunt's (`mode=hunt`)");
        }
        let scope = if campaign { Scope::Encounter } else { scope };
        let seasons = r.number(P_SEASONS, 1, 10, 10) as u8;
        if mode == Mode::Arena && scope == Scope::Encounter {
            r.problem("`mode=arena` needs `scope=match` or `scope=combat`: an encounter is the Hunt's");
        }
        if mode == Mode::Hunt && scope == Scope::Match {
            r.problem("`scope=match` is the Arena's (`mode=arena`): the Hunt plays `scope=encounter`");
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
            corner: r.get(P_CORNER, LosCorner::FullCover),
            back: r.get(P_BACK, BackDiagonal::No),
            criteria: r.get(P_CRITERIA, TargetCriteria::InOrder),
            capture: r.get(P_CAPTURE, CaptureHalf::Down),
            stun: r.get(P_STUN, StunConsumes::All),
            bleed_skip: r.get(P_BLEED_SKIP, BleedOnSkip::Tick),
            bleed_stack: r.get(P_BLEED_STACK, BleedStack::Single),
            immobilize: r.get(P_IMMOBILIZE, DoubleImmobilize::StunReplaces),
            silvestrem: r.get(P_SILVESTREM, SilvestremUse::On) == SilvestremUse::On,
            players: if r.get(P_PLAYERS, Players::Two) == Players::Four { 4 } else { 2 },
            draft_medium: r.get(P_DRAFT_MEDIUM, DraftMedium::Text),
            draft_equipment: r.get(P_DRAFT_EQUIPMENT, DraftEquipment::TwoPerAssent),
            victory: r.get(P_VICTORY, Victory::Deathmatch),
            escape: r.get(P_ESCAPE, DeathmatchEscape::Falls),
            double_fall: r.get(P_DOUBLE_FALL, DoubleFall::Draw),
            instinct_second: r.get(P_INSTINCT_SECOND, InstinctSecond::AnyCard),
            knockback_plain: r.get(P_KNOCKBACK_PLAIN, KnockbackPlain::Damaged),
            careful_range: r.get(P_CAREFUL_RANGE, CarefulRange::Range),
            careful_turn: r.get(P_CAREFUL_TURN, CarefulTurn::Face),
            summon_field: r.get(P_SUMMON_FIELD, SummonField::Any),
            careful_away: r.get(P_CAREFUL_AWAY, CarefulAway::TargetFirst),
            last_escape: r.get(P_LAST_ESCAPE, LastStandingEscape::SlainOnly),
            heal_cap: r.get(P_HEAL_CAP, HealCap::HealExempt),
            reroll: r.get(P_REROLL, RerollTiming::AnyTime),
            reroll_count: r.get(P_REROLL_COUNT, RerollCount::PerDie),
            campaign,
            seasons,
            scout_actions: r.get(P_SCOUT_ACTIONS, ScoutActions::TwoEach),
            unlock_timing: r.get(P_UNLOCK_TIMING, UnlockTiming::NextPhase),
            derelict_timing: r.get(P_DERELICT_TIMING, DerelictTiming::Spent),
            derelict_season: r.get(P_DERELICT_SEASON, DerelictSeason::Uncounted),
            injured_return: r.get(P_INJURED_RETURN, InjuredReturn::OneHealth),
            temple_visitors: r.get(P_TEMPLE_VISITORS, TempleVisitors::AtOnce),
            unhired_workers: r.get(P_UNHIRED_WORKERS, UnhiredWorkers::Deck),
            worker_replace: r.get(P_WORKER_REPLACE, WorkerReplace::AnyTime),
            survival_end: r.get(P_SURVIVAL_END, SurvivalEnd::Encounter),
            placement: r.get(P_PLACEMENT, Placement::Alternate),
            round_start: r.get(P_ROUND_START, RoundStart::SilvestremFirst),
            duration: r.get(P_DURATION, MomentumDuration::ThisRound),
            unassigned: r.get(P_UNASSIGNED, MomentumUnassigned::Lost),
            lone_assent: r.get(P_LONE_ASSENT, LoneAssentOrder::Nominal),
            summon_heal: r.get(P_SUMMON_HEAL, SummonHeal::Heal),
            momentum_4p: r.get(P_MOMENTUM_4P, Momentum4p::Team),
            target_defense: r.get(P_TARGET_DEFENSE, TargetDefense::Stat),
            cover_stack: r.get(P_COVER_STACK, CoverStack::Once),
            target_hp: r.get(P_TARGET_HP, TargetHp::Remaining),
            pit_exit: r.get(P_PIT_EXIT, PitExit::AnyField),
            instinct_reshuffle: r.get(P_INSTINCT_RESHUFFLE, InstinctReshuffle::OnDraw),
            summon_timing: r.get(P_SUMMON_TIMING, SummonTiming::BeforeMove),
            pit_path: r.get(P_PIT_PATH, PitPath::Around),
            instinct_escaped: r.get(P_INSTINCT_ESCAPED, InstinctEscaped::Redraw),
            capture_free_action: r.get(P_CAPTURE_FREE_ACTION, CaptureFreeAction::Cancels),
            status_plain: r.get(P_STATUS_PLAIN, StatusPlain::Always),
            capture_summons: r.get(P_CAPTURE_SUMMONS, CaptureSummons::Skip),
            capture_complete: r.get(P_CAPTURE_COMPLETE, CaptureComplete::AllCapturers),
            creature_pit_exit: r.get(P_CREATURE_PIT_EXIT, CreaturePitExit::AnyField),
            assent_equipment: r.get(P_ASSENT_EQUIPMENT, AssentEquipment::Two),
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
        check_reading::<HealCap>(PARAMS, P_HEAL_CAP).unwrap();
        check_reading::<Victory>(PARAMS, P_VICTORY).unwrap();
        check_reading::<Players>(PARAMS, P_PLAYERS).unwrap();
        check_reading::<SilvestremUse>(PARAMS, P_SILVESTREM).unwrap();
        check_reading::<DraftMedium>(PARAMS, P_DRAFT_MEDIUM).unwrap();
        check_reading::<DraftEquipment>(PARAMS, P_DRAFT_EQUIPMENT).unwrap();
        check_reading::<DeathmatchEscape>(PARAMS, P_ESCAPE).unwrap();
        check_reading::<DoubleFall>(PARAMS, P_DOUBLE_FALL).unwrap();
        check_reading::<InstinctSecond>(PARAMS, P_INSTINCT_SECOND).unwrap();
        check_reading::<KnockbackPlain>(PARAMS, P_KNOCKBACK_PLAIN).unwrap();
        check_reading::<CarefulRange>(PARAMS, P_CAREFUL_RANGE).unwrap();
        check_reading::<CarefulTurn>(PARAMS, P_CAREFUL_TURN).unwrap();
        check_reading::<SummonField>(PARAMS, P_SUMMON_FIELD).unwrap();
        check_reading::<CarefulAway>(PARAMS, P_CAREFUL_AWAY).unwrap();
        check_reading::<LastStandingEscape>(PARAMS, P_LAST_ESCAPE).unwrap();
        check_reading::<RerollTiming>(PARAMS, P_REROLL).unwrap();
        check_reading::<RerollCount>(PARAMS, P_REROLL_COUNT).unwrap();
        check_reading::<ScoutActions>(PARAMS, P_SCOUT_ACTIONS).unwrap();
        check_reading::<UnlockTiming>(PARAMS, P_UNLOCK_TIMING).unwrap();
        check_reading::<DerelictTiming>(PARAMS, P_DERELICT_TIMING).unwrap();
        check_reading::<DerelictSeason>(PARAMS, P_DERELICT_SEASON).unwrap();
        check_reading::<InjuredReturn>(PARAMS, P_INJURED_RETURN).unwrap();
        check_reading::<TempleVisitors>(PARAMS, P_TEMPLE_VISITORS).unwrap();
        check_reading::<UnhiredWorkers>(PARAMS, P_UNHIRED_WORKERS).unwrap();
        check_reading::<WorkerReplace>(PARAMS, P_WORKER_REPLACE).unwrap();
        check_reading::<SurvivalEnd>(PARAMS, P_SURVIVAL_END).unwrap();
        check_reading::<Placement>(PARAMS, P_PLACEMENT).unwrap();
        check_reading::<RoundStart>(PARAMS, P_ROUND_START).unwrap();
        check_reading::<MomentumDuration>(PARAMS, P_DURATION).unwrap();
        check_reading::<MomentumUnassigned>(PARAMS, P_UNASSIGNED).unwrap();
        check_reading::<LoneAssentOrder>(PARAMS, P_LONE_ASSENT).unwrap();
        check_reading::<SummonHeal>(PARAMS, P_SUMMON_HEAL).unwrap();
        check_reading::<Momentum4p>(PARAMS, P_MOMENTUM_4P).unwrap();
        check_reading::<TargetDefense>(PARAMS, P_TARGET_DEFENSE).unwrap();
        check_reading::<CoverStack>(PARAMS, P_COVER_STACK).unwrap();
        check_reading::<TargetHp>(PARAMS, P_TARGET_HP).unwrap();
        check_reading::<PitExit>(PARAMS, P_PIT_EXIT).unwrap();
        check_reading::<AssentEquipment>(PARAMS, P_ASSENT_EQUIPMENT).unwrap();
        check_reading::<InstinctReshuffle>(PARAMS, P_INSTINCT_RESHUFFLE).unwrap();
        check_reading::<SummonTiming>(PARAMS, P_SUMMON_TIMING).unwrap();
        check_reading::<PitPath>(PARAMS, P_PIT_PATH).unwrap();
        check_reading::<InstinctEscaped>(PARAMS, P_INSTINCT_ESCAPED).unwrap();
        check_reading::<CaptureFreeAction>(PARAMS, P_CAPTURE_FREE_ACTION).unwrap();
        check_reading::<StatusPlain>(PARAMS, P_STATUS_PLAIN).unwrap();
        check_reading::<CaptureSummons>(PARAMS, P_CAPTURE_SUMMONS).unwrap();
        check_reading::<CaptureComplete>(PARAMS, P_CAPTURE_COMPLETE).unwrap();
        check_reading::<CreaturePitExit>(PARAMS, P_CREATURE_PIT_EXIT).unwrap();
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
