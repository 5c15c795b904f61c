//! The rule catalog and the interpretations: every id the step function can report, with
//! the rulebook section it comes from, and every reading of a silent or contradictory passage.

use crate::{ParamKind, ParamSpec, RuleInfo};

pub const JOIN: &str = "kf.start.join";
pub const WORN: &str = "kf.start.worn-gear";
pub const PRIORITY_TOKEN: &str = "kf.start.priority-token";
pub const TIEBREAK: &str = "kf.start.tiebreak";
pub const START_EFFECT: &str = "kf.start.monster-effect";
pub const SEQUENCE: &str = "kf.round.sequence";
pub const REVEAL_ORDER: &str = "kf.round.reveal-order";
pub const TWO_CARDS: &str = "kf.hand.two-cards";
pub const ONCE: &str = "kf.hand.once-until-focus";
pub const CHOICE: &str = "kf.hand.choice";
pub const MONSTER_ACTION: &str = "kf.round.monster-action";
pub const ORDER: &str = "kf.round.priority-order";
pub const END_ROUND: &str = "kf.round.end";
pub const TARGETING: &str = "kf.monster.targeting";
pub const ATTACK_TARGET: &str = "kf.attack.target";
pub const DICE_COUNT: &str = "kf.roll.dice-count";
pub const ROLL_SKILL: &str = "kf.roll.skill";
pub const DEFENSE: &str = "kf.attack.defense";
pub const WIT_SIX: &str = "kf.spell.wit-six";
pub const DAMAGE: &str = "kf.damage.amount";
pub const BLOCK: &str = "kf.damage.block";
pub const INJURY: &str = "kf.damage.injury";
pub const STACK: &str = "kf.ailment.stack";
pub const IMMUNITY: &str = "kf.ailment.immunity";
pub const BURN: &str = "kf.ailment.burn";
pub const DURATION: &str = "kf.ailment.duration";
pub const REROLL_FAME: &str = "kf.reroll.fame";
pub const REROLL_WHEN: &str = "kf.reroll.before-outcome";
pub const RECALL: &str = "kf.recall.mercenary";
pub const LURE: &str = "kf.lure.breakable";
pub const DEFEAT: &str = "kf.end.defeat";
pub const FAME_AWARD: &str = "kf.end.fame-award";
pub const TROPHY: &str = "kf.end.monster-card";
pub const DAZZLE: &str = "kf.ailment.dazzle";
pub const SLOW: &str = "kf.ailment.slow";
pub const WEAK: &str = "kf.ailment.weak";
pub const REPLACE: &str = "kf.effect.replace";
pub const FIGHT_END: &str = "kf.effect.fight-end";
pub const WHOLE_FIGHT: &str = "kf.effect.whole-fight";
pub const SEATING: &str = "kf.monster.seating";
pub const EXTRA_GRIT: &str = "kf.monster.extra-grit";
pub const EXTRA_PRIORITY: &str = "kf.monster.extra-priority";
pub const SECOND_ACTION: &str = "kf.monster.second-action";
pub const GRANT: &str = "kf.spell.grant-ally";
pub const HOLDER_DEFEATED: &str = "kf.priority.holder-defeated";
pub const GEAR_NO_ROLL: &str = "kf.gear.no-roll";
pub const WORN_PROTECTS: &str = "kf.gear.worn-protects";
pub const ATTACKER_BENEFIT: &str = "kf.attack.attacker-benefit";
pub const ACCURACY_DIFFICULTY: &str = "kf.damage.accuracy-difficulty";
pub const NO_PRIORITY: &str = "kf.hand.no-priority";

pub static RULES: &[RuleInfo] = &[
    RuleInfo { id: JOIN, text: "Characters join (in turn order, once each) before the fight begins; a fight with no monster has exactly two characters, a monster fight at least one", section: "STARTING THE FIGHT" },
    RuleInfo { id: WORN, text: "A character with more than 1 Worn gear chooses exactly 1 of them as it enters the fight", section: "STARTING THE FIGHT" },
    RuleInfo { id: PRIORITY_TOKEN, text: "The participant with the highest Fame (a monster's is its Rank) gains the Priority token, at the start and whenever Fame changes or the holder is defeated", section: "STARTING THE FIGHT" },
    RuleInfo { id: TIEBREAK, text: "Participants tied for the token each roll Finesse; highest die wins, then next highest, a perfect tie rerolls", section: "STARTING THE FIGHT" },
    RuleInfo { id: START_EFFECT, text: "A monster's start-of-fight effect applies to each character as the fight begins", section: "SAMPLE ROUND OF COMBAT" },
    RuleInfo { id: SEQUENCE, text: "A fight goes: joins, begin, then each round reveals, the monster's d6, actions, end of round", section: "ACTIONS" },
    RuleInfo { id: REVEAL_ORDER, text: "Players reveal their cards in reverse turn order (turn order starts at the Priority token)", section: "ACTIONS" },
    RuleInfo { id: TWO_CARDS, text: "Each round each player places exactly two cards from their hand", section: "ACTIONS" },
    RuleInfo { id: ONCE, text: "Each hand card can only be used once until the player plays Focus", section: "ACTIONS" },
    RuleInfo { id: CHOICE, text: "Primary, Secondary and Maneuver declare a card the character has that the hand card permits", section: "ACTIONS" },
    RuleInfo { id: MONSTER_ACTION, text: "The monster uses the action whose brackets contain its d6 roll", section: "ACTIONS" },
    RuleInfo { id: ORDER, text: "Actions resolve from the highest Priority down; ties in turn order, the token holder first", section: "ACTIONS" },
    RuleInfo { id: END_ROUND, text: "When all actions are complete the round ends: used cards discarded, durations reduced", section: "ACTIONS" },
    RuleInfo { id: TARGETING, text: "A monster's single-target attack goes to Balance's player, else by its two conditions used alternately, else at random", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: ATTACK_TARGET, text: "Characters' attacks target only the monster (the other character in a fight between characters)", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: DICE_COUNT, text: "A skill of tier T rolls T dice", section: "SAMPLE ROUND OF COMBAT" },
    RuleInfo { id: ROLL_SKILL, text: "A roll uses the skill its action names (Wit for spells that do not attack and for Lure)", section: "HOW TO FIGHT" },
    RuleInfo { id: DEFENSE, text: "An attack affects a target only when its highest die after modifiers reaches 6 + the target's tier in the defended skill (+ defense effects)", section: "HOW TO FIGHT" },
    RuleInfo { id: WIT_SIX, text: "A Spell that does not attack has effect only on a Wit roll of 6 or higher", section: "HOW TO FIGHT" },
    RuleInfo { id: DAMAGE, text: "Damage is the effect's amount, + damage modifiers, +1 Accuracy per die of 9 or more (Weak and the Accuracy difficulty have their own ids)", section: "HOW TO FIGHT" },
    RuleInfo { id: BLOCK, text: "Every applicable Block of the victim reduces the damage", section: "HOW TO FIGHT" },
    RuleInfo { id: INJURY, text: "Damage not Blocked (never below 0) is Injury and reduces Grit", section: "HOW TO FIGHT" },
    RuleInfo { id: STACK, text: "An Ailment already afflicting the victim adds its duration to the ongoing duration", section: "AILMENTS" },
    RuleInfo { id: IMMUNITY, text: "An Immune fighter cannot gain the Ailment and any amount afflicting them is removed", section: "AILMENTS" },
    RuleInfo { id: BURN, text: "Burn: suffer 1 Injury as its duration is reduced at the end of each round", section: "AILMENTS" },
    RuleInfo { id: DURATION, text: "At the end of each round every ongoing duration drops by 1", section: "ONGOING EFFECTS" },
    RuleInfo { id: REROLL_FAME, text: "A character may spend Fame (the reroll cost) to reroll one die of a roll", section: "SAMPLE ROUND OF COMBAT" },
    RuleInfo { id: REROLL_WHEN, text: "Rerolls and recalls happen before the roll's outcome is stated", section: "SAMPLE ROUND OF COMBAT" },
    RuleInfo { id: RECALL, text: "A character may recall a mercenary they have with them, once a fight, for its bonus on their own roll", section: "SAMPLE ROUND OF COMBAT" },
    RuleInfo { id: LURE, text: "A successful Lure ignores the monster's Breakable effect for the rest of the round", section: "RUNNING A MONSTER" },
    RuleInfo { id: DEFEAT, text: "A fighter at 0 Grit is defeated (a character is sent to the Inn)", section: "ENDING THE FIGHT" },
    RuleInfo { id: FAME_AWARD, text: "On a monster's defeat the surviving characters gain Fame from its Rank (see interpretation fame-on-defeat)", section: "ENDING THE FIGHT" },
    RuleInfo { id: TROPHY, text: "The character who made the last successful attack attains the monster card", section: "ENDING THE FIGHT" },
    RuleInfo { id: DAZZLE, text: "Dazzle: suffer -1 on rolls", section: "AILMENTS" },
    RuleInfo { id: SLOW, text: "Slow: suffer -6 Priority", section: "AILMENTS" },
    RuleInfo { id: WEAK, text: "Weak: deal -1 damage", section: "AILMENTS" },
    RuleInfo { id: REPLACE, text: "A card used again while its ongoing effect is active replaces the earlier instance (effects do not stack)", section: "ONGOING EFFECTS" },
    RuleInfo { id: FIGHT_END, text: "All ongoing effects (and Ailments) end when the fight ends", section: "ONGOING EFFECTS" },
    RuleInfo { id: WHOLE_FIGHT, text: "An effect that lists no duration continues for the entire fight", section: "ONGOING EFFECTS" },
    RuleInfo { id: SEATING, text: "The monster is seated clockwise of the place reached by counting its cage (or zone) number from the first actor", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: EXTRA_GRIT, text: "For each participating character beyond the first, the monster gains +4 Grit", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: EXTRA_PRIORITY, text: "For each participating character beyond the first, the monster's actions gain +1 Priority", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: SECOND_ACTION, text: "With more than 2 characters the monster rolls a second action after its first, at -6 Priority (with 2 or fewer, none)", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: GRANT, text: "Only a Spell that does not attack may be granted to another character in the fight", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: HOLDER_DEFEATED, text: "When the holder of the Priority token is defeated, the token goes as if Fame just changed", section: "MULTIPLE CHARACTERS FACING A MONSTER" },
    RuleInfo { id: GEAR_NO_ROLL, text: "Gear that does not attack requires no roll: it simply grants its effect", section: "HOW TO FIGHT" },
    RuleInfo { id: WORN_PROTECTS, text: "Worn gear protects against each attack without any activation (it is never played)", section: "STARTING THE FIGHT" },
    RuleInfo { id: ATTACKER_BENEFIT, text: "A benefit that only applies to the attacker takes place even if the attack fails", section: "HOW TO FIGHT" },
    RuleInfo { id: ACCURACY_DIFFICULTY, text: "Effects that change the difficulty of Accuracy move the 9 needed by that amount", section: "HOW TO FIGHT" },
    RuleInfo { id: NO_PRIORITY, text: "Cards that have no Priority (Balance, Focus) complete their effect as revealed; they never go on the Priority track", section: "ACTIONS" },
];

pub const P_FAME: &str = "fame-on-defeat";
pub const P_LURE: &str = "lure-roll";
pub const P_MANEUVER: &str = "maneuver-options";
pub const P_BALANCE: &str = "balance-scope";
pub const P_IMMUNITY: &str = "immunity-vs-attack";
pub const P_RECHECK: &str = "priority-recheck-tie";
pub const P_FOCUS: &str = "focus-refresh";
pub const P_REROLL: &str = "reroll-fame-cost";

pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: P_FAME,
        kind: ParamKind::Interpretation,
        allowed: &["last-attacker-rank-others-half", "rank-to-all"],
        default: "last-attacker-rank-others-half",
        doc: "\"each surviving character gains Fame equal to the monster's Rank, the character who made the \
              last successful attack attains the monster card, and any other characters who fought and were \
              not defeated gain Fame equal to half the monster's Rank, rounded down.\" The two clauses \
              contradict. Default: the last successful attacker gains the Rank and the others half (otherwise \
              the half clause could never apply). `rank-to-all`: every surviving character gains the Rank.",
        section: "ENDING THE FIGHT",
    },
    ParamSpec {
        name: P_LURE,
        kind: ParamKind::Interpretation,
        allowed: &["wit-vs-wit-defense", "wit-six"],
        default: "wit-vs-wit-defense",
        doc: "\"If a character successfully uses Lure against the monster, ignore the Breakable effect\" never \
              says what success is. Default, from the sample (\"They roll 4 and 2, failing to reach the 8 \
              needed to reach the Wyvern's Wit defense\"): a Wit roll reaching the monster's Wit defense. \
              `wit-six`: a Wit roll of 6, as for a Spell that does not attack. Lure has no effect in a fight \
              between characters (no Breakable effect).",
        section: "RUNNING A MONSTER",
    },
    ParamSpec {
        name: P_MANEUVER,
        kind: ParamKind::Interpretation,
        allowed: &["gear-and-immunity", "gear-or-immunity"],
        default: "gear-and-immunity",
        doc: "Maneuver's options are never listed; the sample has it \"gain Immunity to Burn this round, \
              immediately removing the Burn\" and also select \"their Heavy Shield card to use\". Default: \
              Maneuver may choose one non-worn gear card and Immunity to one Ailment for the round (as \
              revealed). `gear-or-immunity`: one of the two.",
        section: "SAMPLE ROUND OF COMBAT",
    },
    ParamSpec {
        name: P_BALANCE,
        kind: ParamKind::Interpretation,
        allowed: &["round", "next-attack"],
        default: "round",
        doc: "\"unless a character already determined who is attacked by using Balance\": Balance acts as \
              revealed (it has no Priority) and makes its player the target of the monster's single-target \
              attacks. Default: for every such attack this round. `next-attack`: only the next one.",
        section: "MULTIPLE CHARACTERS FACING A MONSTER",
    },
    ParamSpec {
        name: P_IMMUNITY,
        kind: ParamKind::Interpretation,
        allowed: &["ailment-only", "whole-attack"],
        default: "ailment-only",
        doc: "\"While Immune, a fighter cannot gain the Ailment\": silent on the rest of an attack that causes \
              it. Default: only the Ailment is stopped; other effects apply (Fire Breath's damage equals the \
              Burn afflicting the target, 0 when Immune, so \"the Immunity to Burn would have fully protected \
              them anyway\"). `whole-attack`: an attack causing an Ailment the target is Immune to has no \
              effect on that target.",
        section: "AILMENTS",
    },
    ParamSpec {
        name: P_RECHECK,
        kind: ParamKind::Interpretation,
        allowed: &["holder-keeps", "roll"],
        default: "holder-keeps",
        doc: "\"each time after Fame changes, the participant with the highest Fame gains the Priority token. \
              If participants are tied, they each roll Finesse\": silent on a tie that includes the current \
              holder after a re-check. Default: the holder keeps the token. `roll`: the tied roll Finesse.",
        section: "STARTING THE FIGHT",
    },
    ParamSpec {
        name: P_FOCUS,
        kind: ParamKind::Interpretation,
        allowed: &["end-of-round", "on-reveal"],
        default: "end-of-round",
        doc: "\"each of which can only be used once until the player plays Focus\": silent on when the cards \
              return. Default: the whole hand (Focus included) returns when the round of Focus ends. \
              `on-reveal`: the cards discarded in earlier rounds return as Focus is revealed; Focus and its \
              partner card are discarded as usual.",
        section: "ACTIONS",
    },
    ParamSpec {
        name: P_REROLL,
        kind: ParamKind::Interpretation,
        allowed: &["<number>"],
        default: "2",
        doc: "Only the sample states a price: \"Player A decides to expend 2 Fame to reroll the 9\". Default: \
              2 Fame per die rerolled, paid by any character for any roll (the sample rerolls the Wyvern's \
              die).",
        section: "SAMPLE ROUND OF COMBAT",
    },
];
