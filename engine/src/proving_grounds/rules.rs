//! The rule catalog of the training game: every rule the step function can report, with
//! the rulebook passage it comes from. Ids are stable forever once shipped.

use crate::kit::rules::rules;

rules! {
    SETUP_SIX_ENEMIES = "pg.setup.six-enemies",
        "Six enemies are drawn, one per slot, before the first roll",
        "Setup (3)";
    DRAW_EMPTY_SLOT = "pg.draw.empty-slot",
        "A drawn enemy is placed in an empty slot",
        "Setup (3); Step 3: Recover";
    DRAW_UNIQUE = "pg.draw.unique",
        "Each enemy card comes from the deck once: a card in play or discarded is not drawn again",
        "Setup (2-3); Defeating an Enemy";
    STEP_ORDER = "pg.round.step-order",
        "A round's steps happen in order: roll dice, resolve attacks, recover",
        "Game Play";
    ROLL_WHOLE_POOL = "pg.roll.whole-pool",
        "The first roll of a round rolls every die of the pool once (one value per die, colors matching the pool)",
        "Step 1: Roll Dice";
    ROLL_WHOLE_SET = "pg.roll.reroll-whole-set",
        "A reroll rerolls the whole set: every die showing that number, each with its color",
        "Reference card: Step 1 (\"Must reroll the whole set\")";
    ROLL_SINGLE = "pg.roll.single-not-rerolled",
        "A single (the only die showing its number) is never rerolled",
        "What is a Single?";
    ROLL_ONE_SET = "pg.roll.one-set-at-a-time",
        "Only one set is rerolled at a time",
        "What is a Set?";
    ROLL_TIMER = "pg.roll.timer",
        "No reroll, and no die placed on a chariot, after the 60-second timer goes off; the timer starts with the roll (see timer)",
        "Step 1: Roll Dice (\"At the beginning of this step, start the timer ... You now have 60 seconds!\")";
    TIME_FORWARD = "pg.round.time-runs-forward",
        "Recorded times never run backwards within a round, from its roll to its recovery",
        "Game Play (\"The main part of each round takes exactly 60 seconds and occurs in real time!\")";
    RESOLVE_ORDER = "pg.resolve.order",
        "Battle markers are moved in numerical order, enemy #1 to #6, each once a round",
        "Step 2: Resolve Attacks";
    RESOLVE_MISSING = "pg.resolve.missing-move",
        "Every marker the dice move is moved before the next enemy's and before defeats and wounds are checked",
        "Step 2: Resolve Attacks; A. Move Battle Markers";
    SINGLE_DOWN = "pg.resolve.single-moves-down",
        "An enemy attacked with a single moves its battle marker down one space",
        "A. Move Battle Markers (Single)";
    SET_UP = "pg.resolve.set-moves-up",
        "A set meeting the requirement of the space above moves the marker up, at least one space and as far as its separate dice reach (see interpretation multi-space)",
        "A. Move Battle Markers (Set; Multiple Spaces)";
    SEPARATE_DICE = "pg.resolve.separate-dice",
        "Each space moved up requires separate dice meeting that space's requirement",
        "A. Move Battle Markers (Multiple Spaces)";
    COLOR_REQUIREMENT = "pg.resolve.color-requirement",
        "A space requiring colored dice is entered only by a set including them",
        "A. Move Battle Markers (Color Requirements)";
    INCORRECT_SET = "pg.resolve.incorrect-set-holds",
        "A set with too few dice for the space above does not move the marker",
        "A. Move Battle Markers (Incorrect Combination)";
    NO_DICE = "pg.resolve.no-dice-holds",
        "An enemy assigned no dice is not attacked: its marker does not move",
        "A. Move Battle Markers (No Dice)";
    CHECK_AFTER_MOVES = "pg.check.after-moves",
        "Defeats and wounds are checked after all battle markers have moved (with Sun and Moon, after the moon's move and the sun's borrow too)",
        "Step 2: Resolve Attacks (\"First, move battle markers ... Then check\")";
    DEFEAT_AT_TOP = "pg.check.defeat-at-top",
        "An enemy is defeated when, and only when, its marker is on the top space",
        "Defeating an Enemy";
    WOUND_AT_BOTTOM = "pg.check.wound-at-bottom",
        "A wound is suffered when, and only when, a marker is on the bottom space",
        "Suffering Wounds";
    CHECK_MISSING = "pg.check.missing",
        "Every marker on a top or bottom space is resolved (defeat or wound) before recovery",
        "B. Check for Defeat or Wounds";
    EXHAUST_DIE = "pg.wound.exhaust-die",
        "A wound adds one of your dice (see exhaust-from) to the top space of the exhaustion track",
        "Suffering Wounds";
    EXHAUST_BY_CARD = "pg.wound.exhaust-by-card",
        "Only a wound adds a die to the exhaustion track; a die more (`exhaust COLOR`) needs a card's text in effect this round",
        "Suffering Wounds";
    REPLACE_OWED = "pg.replace.owed",
        "Under replacement=mandatory, a wound moving the health marker into the stack's space replaces a die before the next wound or the end of the round",
        "Replacing Dice (\"you get to replace\"; see replacement)";
    REPLACE_NOT_OWED = "pg.replace.not-owed",
        "A die is replaced only when a wound moves the health marker into the space of the colored stack",
        "Replacing Dice";
    REPLACE_WHITE = "pg.replace.white-die",
        "The replaced die is a white die of your pool (see replace-without-white)",
        "Replacing Dice";
    REPLACE_FROM_STACK = "pg.replace.from-stack",
        "The colored die taken is one still in the stack",
        "Replacing Dice";
    RECOVER_MISSING = "pg.recover.missing",
        "Each round ends with recovery (dice back, exhaustion track down) before the next roll",
        "Step 3: Recover";
    RECOVER_REFILL = "pg.recover.refill",
        "Every empty slot is refilled from the deck (while it lasts) before the next roll",
        "Step 3: Recover";
    GAME_OVER = "pg.end.game-over",
        "Nothing is played after the game ends: lost on the last health space, won with eight defeats at the end of a round",
        "Object of the Game";
    NOT_IN_PLAY = "pg.modules.not-in-play",
        "A module's event is recorded only when the setup puts that module in play",
        "The Modules (\"add a single module or mix and match\")";
    SHIELD_REMOVE = "pg.shields.single-removes-shield",
        "Shields: a single against a shielded enemy removes the shield (the marker does not move)",
        "Reference card: Attack Resolution Summary, row 1 (Single, enemy shielded)";
    SHIELD_REFLECTED = "pg.shields.set-reflected",
        "Shields: a correct set against a shielded enemy moves its marker down one (reflected)",
        "Reference card: Attack Resolution Summary, row 4 (Correct set, shielded)";
    SHIELD_GAIN = "pg.shields.incorrect-set-shields",
        "Shields: an incorrect set against an unshielded enemy gives it a shield",
        "Reference card: Attack Resolution Summary, row 5 (Incorrect set, unshielded)";
    SHIELD_HOLDS = "pg.shields.shielded-incorrect-holds",
        "Shields: an incorrect set against a shielded enemy does nothing",
        "Reference card: Attack Resolution Summary, row 6 (Incorrect set, shielded)";
    FACE_EACH_ROUND = "pg.sun-moon.face-each-round",
        "Sun and Moon: the dial is turned once at the start of each round, after the refills and before the roll, to face an enemy",
        "Reference card: Start of Round (Sun and Moon module)";
    NOT_SAME_ENEMY = "pg.sun-moon.not-same-enemy",
        "Sun and Moon: Maia cannot face the same enemy two rounds in a row",
        "Reference card: Start of Round (Sun and Moon module)";
    SUN_BORROW = "pg.sun-moon.sun-borrow",
        "Sun and Moon: a hit on the sun enemy borrows one colored die from the dial in step 2A, before defeats and wounds are checked, and only a hit does",
        "Reference card: Step 2A (Sun and Moon module)";
    MOON_DOWN = "pg.sun-moon.moon-down",
        "Sun and Moon: no hit on the moon enemy moves its marker down one, before defeats and wounds are checked",
        "Reference card: Step 2A (Sun and Moon module)";
    CONSPIRE_EACH_ROUND = "pg.conspirators.roll-each-round",
        "Conspirators: one conspirator die is rolled at the start of each round, before the roll",
        "Reference card: Start of Round (Conspirators module)";
    CONSPIRATOR_REVEAL = "pg.conspirators.reveal",
        "Conspirators: a new conspirator is revealed after each defeat while any remain, each card once (at setup, only as many as conspirators-start says: none by default)",
        "Reference card: Step 2B (Conspirators module)";
    CONSPIRATOR_NO_REROLLS = "pg.conspirators.no-rerolls",
        "Conspirators: while a conspirator with `no-rerolls` is active, no set is rerolled (card data)",
        "Reference card: Start of Round (Conspirators module); catalog effect";
    DRAGON_WITH_POOL = "pg.dragonling.rolled-with-pool",
        "Dragonling: the dragonling die is rolled with the pool each round",
        "Reference card: Step 1 (Dragonling module)";
    DRAGON_WITH_SET = "pg.dragonling.with-a-set",
        "Dragonling: the dragonling die is rerolled only together with a set",
        "Reference card: Step 1 (\"May reroll the dragonling die with any set\")";
    CHARIOT_DRAW = "pg.chariots.draw",
        "Chariots (project reading, see chariot-draw): a chariot is drawn before a roll, one at a time, each card once; under chariot-draw=required one is in play at each roll while the deck lasts",
        "Project reading: the reference card names \"the chariot\" in Step 1 and Step 2 but never says when one is drawn";
    CHARIOT_PLACE_DURING_ROLL = "pg.chariots.place-during-roll",
        "Chariots: dice are placed on the chariot during rolling (step 1)",
        "Reference card: Step 1 (Chariots module)";
    CHARIOT_PLACE_FROM_POOL = "pg.chariots.place-from-pool",
        "Chariots: the dice placed on the chariot are dice of the pool, as rolled",
        "Reference card: Step 1 (\"Place any required dice on the chariot\")";
    CHARIOT_PLACE_REQUIRED = "pg.chariots.place-required",
        "Chariots: a die placed on the chariot fills a part of its defeat condition (see chariot-dice)",
        "Reference card: Step 1 (\"Place any required dice on the chariot\")";
    CHARIOT_RESOLVE = "pg.chariots.resolve",
        "Chariots: before markers move, a met chariot is discarded (dice to reserve) and an unmet one activates",
        "Reference card: Step 2 (Chariots module)";
    INSPIRATION_ONCE = "pg.inspiration.once",
        "Inspiration: a card played is spent (see inspiration-reuse)",
        "Components (15 Inspiration Cards)";
    ROLLS_OUT = "pg.rolls.out-of-rerolls",
        "Rolls tracker: each reroll reduces the tracker; no reroll once it is out",
        "Reference card: Step 1 (\"For each reroll, reduce the Rolls tracker ... Stop when ... out of rerolls\")";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_namespaced() {
        for (i, r) in RULES.iter().enumerate() {
            assert!(r.id.starts_with("pg."), "{}", r.id);
            assert!(RULES[i + 1..].iter().all(|o| o.id != r.id), "duplicate {}", r.id);
        }
    }
}
