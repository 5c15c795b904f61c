//! The rule catalog and the interpretations: every id the step function can report, with
//! the rulebook section it comes from, and every reading of a silent or contradictory
//! passage, each a typed value (`Params`) so no rule compares setup strings.

use crate::kit::named::named_enum;
use crate::kit::rules::{rules, Readings};
use crate::{ParamKind, ParamSpec};

rules! {
    JOIN = "kf.start.join",
        "Characters join (in turn order, once each) before the fight begins; a fight with no monster has exactly two characters, a monster fight at least one",
        "STARTING THE FIGHT";
    WORN = "kf.start.worn-gear",
        "A character with more than 1 Worn gear chooses exactly 1 of them as it enters the fight",
        "STARTING THE FIGHT";
    PRIORITY_TOKEN = "kf.start.priority-token",
        "The participant with the highest Fame (a monster's is its Rank) gains the Priority token, at the start and whenever Fame changes or the holder is defeated",
        "STARTING THE FIGHT";
    TIEBREAK = "kf.start.tiebreak",
        "Participants tied for the token each roll Finesse; highest die after modifiers wins, then next highest, a perfect tie rerolls",
        "STARTING THE FIGHT";
    START_EFFECT = "kf.start.monster-effect",
        "A monster's start-of-fight effect applies to each character as the fight begins (a damage there is no attack: no Accuracy, no Block)",
        "SAMPLE ROUND OF COMBAT";
    SEQUENCE = "kf.round.sequence",
        "A fight goes: joins, begin, then each round reveals, the monster's action die, actions, end of round",
        "ACTIONS";
    REVEAL_ORDER = "kf.round.reveal-order",
        "Players reveal their cards in reverse turn order (turn order starts at the Priority token)",
        "ACTIONS";
    TWO_CARDS = "kf.hand.two-cards",
        "Each round each player places exactly two cards from their hand",
        "ACTIONS";
    ONCE = "kf.hand.once-until-focus",
        "Each hand card can only be used once until the player plays Focus",
        "ACTIONS";
    CHOICE = "kf.hand.choice",
        "Primary, Secondary and Maneuver declare a card the character has that the hand card permits",
        "ACTIONS";
    MONSTER_ACTION = "kf.round.monster-action",
        "The monster uses the action whose brackets contain the number its action die shows (one of its skill dice; a 1 no action brackets gives no action, another face the catalog's card leaves out is unverified)",
        "ACTIONS";
    ORDER = "kf.round.priority-order",
        "Actions resolve from the highest Priority down; ties in turn order, the token holder first",
        "ACTIONS";
    END_ROUND = "kf.round.end",
        "When all actions are complete the round ends: used cards discarded, durations reduced",
        "ACTIONS";
    TARGETING = "kf.monster.targeting",
        "A monster's single-target attack goes to Balance's player, else by its two conditions used alternately, else at random",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    ATTACK_TARGET = "kf.attack.target",
        "Characters' attacks target only the monster (the other character in a fight between characters)",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    DICE_COUNT = "kf.roll.dice-count",
        "A skill of tier T rolls T dice",
        "SAMPLE ROUND OF COMBAT";
    ROLL_SKILL = "kf.roll.skill",
        "A roll uses the skill its action names (Wit for spells that do not attack and for Lure)",
        "HOW TO FIGHT";
    DEFENSE = "kf.attack.defense",
        "An attack affects a target only when its highest die after modifiers reaches 6 + the target's tier in the defended skill (+ defense effects)",
        "HOW TO FIGHT";
    WIT_SIX = "kf.spell.wit-six",
        "A Spell that does not attack has effect only on a Wit roll of 6 or higher",
        "HOW TO FIGHT";
    DAMAGE = "kf.damage.amount",
        "Damage is the effect's amount, + damage modifiers, +1 Accuracy per die of 9 or more (Weak and the Accuracy difficulty have their own ids)",
        "HOW TO FIGHT";
    BLOCK = "kf.damage.block",
        "Every applicable Block of the victim reduces the damage",
        "HOW TO FIGHT";
    INJURY = "kf.damage.injury",
        "Damage not Blocked (never below 0) is Injury and reduces Grit",
        "HOW TO FIGHT";
    STACK = "kf.ailment.stack",
        "An Ailment already afflicting the victim adds its duration to the ongoing duration",
        "AILMENTS";
    AILMENT_AMOUNT = "kf.ailment.amount",
        "An effect that causes an Ailment causes the rounds it lists (Fire Breath's 4 rounds of Burn, Unicorn Blade's 2 rounds of Slow and Weak)",
        "ONGOING EFFECTS";
    IMMUNITY = "kf.ailment.immunity",
        "An Immune fighter cannot gain the Ailment and any amount afflicting them is removed",
        "AILMENTS";
    BURN = "kf.ailment.burn",
        "Burn: suffer 1 Injury as its duration is reduced at the end of each round",
        "AILMENTS";
    DURATION = "kf.ailment.duration",
        "At the end of each round every ongoing duration drops by 1",
        "ONGOING EFFECTS";
    REROLL_FAME = "kf.reroll.fame",
        "A character may spend Fame (the reroll cost) to reroll one die of a roll",
        "SAMPLE ROUND OF COMBAT";
    REROLL_ACTION_ROLL = "kf.reroll.action-roll",
        "Under reroll-rolls=action-roll, a Fame reroll is of the roll of the action being resolved, not of a Finesse tie-break roll (the sample's rerolls are of attacks)",
        "SAMPLE ROUND OF COMBAT";
    REROLL_WHEN = "kf.reroll.before-outcome",
        "Rerolls and recalls happen before the roll's outcome is stated",
        "SAMPLE ROUND OF COMBAT";
    RECALL = "kf.recall.mercenary",
        "A character may recall a mercenary they have with them, once a fight, for its bonus on their own roll",
        "SAMPLE ROUND OF COMBAT";
    LURE = "kf.lure.breakable",
        "A successful Lure ignores the monster's Breakable effect for the rest of the round",
        "RUNNING A MONSTER";
    DEFEAT = "kf.end.defeat",
        "A fighter at 0 Grit is defeated (a character is sent to the Inn)",
        "ENDING THE FIGHT";
    FAME_AWARD = "kf.end.fame-award",
        "On a monster's defeat the surviving characters gain Fame from its Rank (see interpretation fame-on-defeat)",
        "ENDING THE FIGHT";
    TROPHY = "kf.end.monster-card",
        "The character who made the last successful attack attains the monster card (defeated or not)",
        "ENDING THE FIGHT";
    DAZZLE = "kf.ailment.dazzle",
        "Dazzle: suffer -1 on rolls",
        "AILMENTS";
    SLOW = "kf.ailment.slow",
        "Slow: suffer -6 Priority",
        "AILMENTS";
    WEAK = "kf.ailment.weak",
        "Weak: deal -1 damage",
        "AILMENTS";
    REPLACE = "kf.effect.replace",
        "A card used again while its ongoing effect is active replaces the earlier instance, on whichever fighter it was (effects do not stack)",
        "ONGOING EFFECTS";
    FIGHT_END = "kf.effect.fight-end",
        "All ongoing effects (and Ailments) end when the fight ends",
        "ONGOING EFFECTS";
    WHOLE_FIGHT = "kf.effect.whole-fight",
        "An effect that lists no duration continues for the entire fight",
        "ONGOING EFFECTS";
    SEATING = "kf.monster.seating",
        "The monster is seated clockwise of the place reached by counting its cage (or zone) number from the first actor",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    EXTRA_GRIT = "kf.monster.extra-grit",
        "For each participating character beyond the first, the monster gains +4 Grit",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    EXTRA_PRIORITY = "kf.monster.extra-priority",
        "For each participating character beyond the first, the monster's actions gain +1 Priority",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    SECOND_ACTION = "kf.monster.second-action",
        "With more than 2 characters the monster rolls a second action after its first, at -6 Priority (with 2 or fewer, none)",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    GRANT = "kf.spell.grant-ally",
        "Only a Spell that does not attack may be granted to another character in the fight",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    HOLDER_DEFEATED = "kf.priority.holder-defeated",
        "When the holder of the Priority token is defeated, the token goes as if Fame just changed",
        "MULTIPLE CHARACTERS FACING A MONSTER";
    GEAR_NO_ROLL = "kf.gear.no-roll",
        "Gear that does not attack requires no roll: it simply grants its effect",
        "HOW TO FIGHT";
    WORN_PROTECTS = "kf.gear.worn-protects",
        "Worn gear protects against each attack without any activation (it is never played)",
        "STARTING THE FIGHT";
    ATTACKER_BENEFIT = "kf.attack.attacker-benefit",
        "A benefit that only applies to the attacker (its `self` effects) takes place as the action is used, even if the attack fails",
        "HOW TO FIGHT";
    ACCURACY_DIFFICULTY = "kf.damage.accuracy-difficulty",
        "Effects that change the difficulty of Accuracy move the 9 needed by that amount",
        "HOW TO FIGHT";
    NO_PRIORITY = "kf.hand.no-priority",
        "Cards that have no Priority (Balance, Focus) complete their effect as revealed; they never go on the Priority track",
        "ACTIONS";
}

named_enum! {
    /// `fame-on-defeat`.
    pub enum FameOnDefeat ("a reading of fame-on-defeat") {
        LastAttackerRankOthersHalf = "last-attacker-rank-others-half",
        RankToAll = "rank-to-all",
    }
}
named_enum! {
    /// `lure-roll`.
    pub enum LureRoll ("a reading of lure-roll") { WitVsWitDefense = "wit-vs-wit-defense", WitSix = "wit-six" }
}
named_enum! {
    /// `maneuver-options`.
    pub enum ManeuverOptions ("a reading of maneuver-options") {
        GearAndImmunity = "gear-and-immunity",
        GearOrImmunity = "gear-or-immunity",
    }
}
named_enum! {
    /// `balance-scope`.
    pub enum BalanceScope ("a reading of balance-scope") { Round = "round", NextAttack = "next-attack" }
}
named_enum! {
    /// `immunity-vs-attack`.
    pub enum ImmunityVsAttack ("a reading of immunity-vs-attack") {
        StopAilment = "stop-ailment",
        WholeAttack = "whole-attack",
        AilmentOnly = "ailment-only",
    }
}
named_enum! {
    /// `priority-recheck-tie`.
    pub enum RecheckTie ("a reading of priority-recheck-tie") { HolderKeeps = "holder-keeps", Roll = "roll" }
}
named_enum! {
    /// `focus-refresh`.
    pub enum FocusRefresh ("a reading of focus-refresh") { EndOfRound = "end-of-round", OnReveal = "on-reveal" }
}
named_enum! {
    /// `targeting-alternation`.
    pub enum Alternation ("a reading of targeting-alternation") {
        SingleTarget = "single-target",
        ConditionsUsed = "conditions-used",
        EveryAttack = "every-attack",
    }
}
named_enum! {
    /// `action-die-time`.
    pub enum ActionDieTime ("a reading of action-die-time") {
        AfterPlacement = "after-placement",
        AfterReveals = "after-reveals",
    }
}
named_enum! {
    /// `action-die-modifiers`.
    pub enum ActionDieModifiers ("a reading of action-die-modifiers") {
        Face = "face",
        RollModifiers = "roll-modifiers",
    }
}
named_enum! {
    /// `accuracy-modifiers`.
    pub enum AccuracyModifiers ("a reading of accuracy-modifiers") {
        RollModifiers = "roll-modifiers",
        Face = "face",
    }
}
named_enum! {
    /// `skill-die`.
    pub enum SkillDie ("a reading of skill-die") { D10 = "d10", D12 = "d12" }
}
named_enum! {
    /// `recall-limit`.
    pub enum RecallLimit ("a reading of recall-limit") { OncePerFight = "once-per-fight", OncePerRound = "once-per-round" }
}

named_enum! {
    /// `participating-characters`.
    pub enum Participating ("a reading of participating-characters") { Joined = "joined", Living = "living" }
}

named_enum! {
    /// `tiebreak-unequal-dice`.
    pub enum TiebreakDice ("a reading of tiebreak-unequal-dice") {
        FewerLoses = "fewer-loses",
        PerfectTie = "perfect-tie",
    }
}

named_enum! {
    /// `declared-card-repeat`.
    pub enum DeclaredRepeat ("a reading of declared-card-repeat") { Allowed = "allowed", Refused = "refused" }
}

named_enum! {
    /// `no-first-action`.
    pub enum NoFirstAction ("a reading of no-first-action") {
        SecondRoll = "second-roll",
        NoSecondRoll = "no-second-roll",
    }
}

named_enum! {
    /// `reroll-rolls`.
    pub enum RerollRolls ("a reading of reroll-rolls") { AnyRoll = "any-roll", ActionRoll = "action-roll" }
}

named_enum! {
    /// `tiebreak-reroll`.
    pub enum TiebreakReroll ("a reading of tiebreak-reroll") { Recheck = "recheck", DieDecides = "die-decides" }
}
named_enum! {
    /// `own-tie-order`.
    pub enum OwnTieOrder ("a reading of own-tie-order") { Any = "any", Revealed = "revealed" }
}

named_enum! {
    /// `track-priority`.
    pub enum TrackPriority ("a reading of track-priority") { AsPlaced = "as-placed", Current = "current" }
}

named_enum! {
    /// `accuracy-difficulty-side`.
    pub enum AccuracySide ("a reading of accuracy-difficulty-side") {
        HolderBenefit = "holder-benefit",
        BothSides = "both-sides",
    }
}

named_enum! {
    /// `end-of-round-defeats`.
    pub enum RoundDefeats ("a reading of end-of-round-defeats") { Together = "together", AsRecorded = "as-recorded" }
}

impl SkillDie {
    /// The faces of a skill die.
    pub fn sides(self) -> u8 {
        match self {
            SkillDie::D10 => 10,
            SkillDie::D12 => 12,
        }
    }
}

pub const P_FAME: &str = "fame-on-defeat";
pub const P_LURE: &str = "lure-roll";
pub const P_MANEUVER: &str = "maneuver-options";
pub const P_BALANCE: &str = "balance-scope";
pub const P_IMMUNITY: &str = "immunity-vs-attack";
pub const P_RECHECK: &str = "priority-recheck-tie";
pub const P_FOCUS: &str = "focus-refresh";
pub const P_REROLL: &str = "reroll-fame-cost";
pub const P_ALTERNATION: &str = "targeting-alternation";
pub const P_DIE: &str = "skill-die";
pub const P_RECALL: &str = "recall-limit";
pub const P_ACTION_DIE: &str = "action-die-time";
pub const P_ACTION_MODIFIERS: &str = "action-die-modifiers";
pub const P_ROUND_DEFEATS: &str = "end-of-round-defeats";
pub const P_ACCURACY_MODIFIERS: &str = "accuracy-modifiers";
pub const P_PARTICIPATING: &str = "participating-characters";
pub const P_TIEBREAK_DICE: &str = "tiebreak-unequal-dice";
pub const P_DECLARED_REPEAT: &str = "declared-card-repeat";
pub const P_NO_FIRST_ACTION: &str = "no-first-action";
pub const P_REROLL_ROLLS: &str = "reroll-rolls";
pub const P_TRACK_PRIORITY: &str = "track-priority";
pub const P_TIEBREAK_REROLL: &str = "tiebreak-reroll";
pub const P_OWN_TIE_ORDER: &str = "own-tie-order";
pub const P_ACCURACY_SIDE: &str = "accuracy-difficulty-side";

/// The most Fame a reroll may cost (catalog numbers stay below 1000).
pub const MAX_REROLL_COST: i32 = 999;

pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: P_FAME,
        kind: ParamKind::Interpretation,
        allowed: FameOnDefeat::NAMES,
        default: FameOnDefeat::LastAttackerRankOthersHalf.name(),
        doc: "\"each surviving character gains Fame equal to the monster's Rank, the character who made the \
              last successful attack attains the monster card, and any other characters who fought and were \
              not defeated gain Fame equal to half the monster's Rank, rounded down.\" The two clauses \
              contradict. Default: the last successful attacker gains the Rank and the others half (otherwise \
              the half clause could never apply); a defeated character gains no Fame, and the survivors other \
              than the last successful attacker gain half even when that attacker was defeated. `rank-to-all`: every \
              surviving character gains the Rank. Either way the last successful attacker attains the \
              monster card, defeated or not: that clause has no survival condition.",
        section: "ENDING THE FIGHT",
    },
    ParamSpec {
        name: P_LURE,
        kind: ParamKind::Interpretation,
        allowed: LureRoll::NAMES,
        default: LureRoll::WitVsWitDefense.name(),
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
        allowed: ManeuverOptions::NAMES,
        default: ManeuverOptions::GearAndImmunity.name(),
        doc: "Maneuver's options are never listed; the sample has it \"gain Immunity to Burn this round, \
              immediately removing the Burn\" and also select \"their Heavy Shield card to use\". Default: \
              Maneuver may choose one non-worn gear card and Immunity to one Ailment for the round (as \
              revealed). `gear-or-immunity`: one of the two.",
        section: "SAMPLE ROUND OF COMBAT",
    },
    ParamSpec {
        name: P_BALANCE,
        kind: ParamKind::Interpretation,
        allowed: BalanceScope::NAMES,
        default: BalanceScope::Round.name(),
        doc: "\"unless a character already determined who is attacked by using Balance\": Balance acts as \
              revealed (it has no Priority) and makes its player the target of the monster's single-target \
              attacks. Default: for every such attack this round. `next-attack`: only the next one.",
        section: "MULTIPLE CHARACTERS FACING A MONSTER",
    },
    ParamSpec {
        name: P_IMMUNITY,
        kind: ParamKind::Interpretation,
        allowed: ImmunityVsAttack::NAMES,
        default: ImmunityVsAttack::StopAilment.name(),
        doc: "\"While Immune, a fighter cannot gain the Ailment\": silent on the rest of an attack that causes \
              it, and the sample round says Fire Breath's 9 would not have hurt Player A, Immune to Burn \
              (\"the Immunity to Burn would have fully protected them anyway\"). Default `stop-ailment`, \
              the plain words and the sample together: only the Ailment is stopped, and an attack that \
              then deals no damage (Fire Breath's \"damage equal to the rounds of Burn\" comes to 0) has no \
              effect on the target, Accuracy included (\"All rolls made to attack grant Accuracy to effects \
              that deal damage\"); an attack with damage of its own (2 damage and Dazzle against a target \
              Immune to Dazzle) deals it, Accuracy included. `whole-attack`: an attack causing an Ailment \
              the target is Immune to has no effect on it at all. `ailment-only`: only the Ailment is \
              stopped and Accuracy always applies (Fire Breath then deals 0 Burn + 1 Accuracy).",
        section: "AILMENTS",
    },
    ParamSpec {
        name: P_RECHECK,
        kind: ParamKind::Interpretation,
        allowed: RecheckTie::NAMES,
        default: RecheckTie::Roll.name(),
        doc: "\"each time after Fame changes, the participant with the highest Fame gains the Priority token. \
              If participants are tied, they each roll Finesse\". Default, the plain words: a tie after a \
              re-check is rolled off in Finesse like any other, the holder included. `holder-keeps`: a \
              tie that includes the current holder leaves the token where it is.",
        section: "STARTING THE FIGHT",
    },
    ParamSpec {
        name: P_FOCUS,
        kind: ParamKind::Interpretation,
        allowed: FocusRefresh::NAMES,
        default: FocusRefresh::EndOfRound.name(),
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
              die). Any number from 0 to 999.",
        section: "SAMPLE ROUND OF COMBAT",
    },
    ParamSpec {
        name: P_ALTERNATION,
        kind: ParamKind::Interpretation,
        allowed: Alternation::NAMES,
        default: Alternation::SingleTarget.name(),
        doc: "\"Each monster has two conditions used to determine who they attack when using an attack against \
              a single character unless a character already determined who is attacked by using Balance. ... \
              Each time they attack, they begin with the alternate condition.\" Which attacks count is not \
              said. Default, the paragraph's own subject: every attack against a single character flips the \
              order, Balance-forced ones included. `conditions-used`: only attacks whose target the \
              conditions chose (not those Balance forced). `every-attack`: area attacks flip it too.",
        section: "MULTIPLE CHARACTERS FACING A MONSTER",
    },
    ParamSpec {
        name: P_DIE,
        kind: ParamKind::Interpretation,
        allowed: SkillDie::NAMES,
        default: SkillDie::D10.name(),
        doc: "The dice are never named. The sample rolls \"9, 8, 4, and 1\" and a die that \"shows 9\", \
              Accuracy counts \"each 9 or higher rolled\", and no die ever shows more than 9 before a \
              modifier: ten-sided dice by default. `d12`: twelve-sided dice (the board's zones ask for rolls \
              of \"12 or higher\").",
        section: "HOW TO FIGHT",
    },
    ParamSpec {
        name: P_RECALL,
        kind: ParamKind::Interpretation,
        allowed: RecallLimit::NAMES,
        default: RecallLimit::OncePerFight.name(),
        doc: "\"They decide to recall their mercenary Chargo to gain +1 on the roll\": silent on how often. \
              Default: a recalled mercenary has left the fight (recalling is what a pawn does when it goes \
              home), so once a fight. `once-per-round`: each mercenary once a round.",
        section: "SAMPLE ROUND OF COMBAT",
    },
    ParamSpec {
        name: P_ACTION_DIE,
        kind: ParamKind::Interpretation,
        allowed: ActionDieTime::NAMES,
        default: ActionDieTime::AfterPlacement.name(),
        doc: "\"At the start of each round each player chooses their actions by placing two cards ... face-down\" \
              and \"After players have made their selections ..., randomly choose what action the monster will \
              use by rolling 1 die\"; the sample rolls it after both reveals. Default, the plain words: the \
              selections are made when the cards are placed, so the die may be rolled any time after that, \
              before, between or after the reveals (nothing a reveal does changes the monster's action). \
              `after-reveals`: only once every player has revealed, the sample's order (earlier is \
              kf.round.sequence).",
        section: "ACTIONS",
    },
    ParamSpec {
        name: P_ACTION_MODIFIERS,
        kind: ParamKind::Interpretation,
        allowed: ActionDieModifiers::NAMES,
        default: ActionDieModifiers::Face.name(),
        doc: "\"Dazzle: Suffer -1 on rolls\" names no roll, and the monster's action is chosen \"by rolling 1 \
              die\"; but \"They will use the action on their card that contains the number rolled in its square \
              brackets\" names the number rolled, and a shifted random pick is no penalty (\"Ailments cause a \
              penalty\"). Default: the face rolled picks the action, whatever modifies the monster's skill \
              rolls. `roll-modifiers`: the monster's roll modifiers (Dazzle's -1, `roll +N` effects) apply to \
              the action die too, and the modified number picks the action (a Dazzled Troll's 5 is a 4).",
        section: "AILMENTS",
    },
    ParamSpec {
        name: P_ROUND_DEFEATS,
        kind: ParamKind::Interpretation,
        allowed: RoundDefeats::NAMES,
        default: RoundDefeats::Together.name(),
        doc: "\"Once all actions are complete, discard all used hand cards, reduce the duration of all ongoing \
              effects by 1\" (l.33) and \"Burn: Suffer 1 Injury as its duration is reduced at the end of each \
              round\" (l.15) name no order for the fighters' ticks (the sample ticks Player B's Burn before the \
              Wyvern's Slow and Weak, l.59), so when Burn takes the last character and the monster (or both \
              characters of a fight between characters) to 0 Grit in the same end of round, the order a log \
              writes the ticks in would pick the winner. Default `together`, the plain words: the durations \
              are reduced in one act, so every tick of the round happens and every fighter it brings to 0 \
              falls; the fight ends after the ticks (a monster among the fallen is defeated: Fame to the \
              surviving characters, none if all fell, and the card to the last successful attacker). \
              `as-recorded`: the first defeat that ends the fight ends it at once, and the ticks the log has \
              not yet stated never happen (rules version 6's behaviour).",
        section: "ONGOING EFFECTS; AILMENTS",
    },
    ParamSpec {
        name: P_ACCURACY_MODIFIERS,
        kind: ParamKind::Interpretation,
        allowed: AccuracyModifiers::NAMES,
        default: AccuracyModifiers::RollModifiers.name(),
        doc: "\"Accuracy increases the attack's damage by 1 for each 9 or higher rolled\" (l.8) does not say \
              whether a die counts as it was rolled or after the roll's modifiers (Dazzle's -1, `roll +N`, a \
              recalled mercenary's +1), and the sample's numbers do not tell: Yahmra's dice 9, 5, 3 \
              \"have become 10, 6, and 4\" with Chargo's +1, and \"they gain 1 damage from Accuracy\" either way \
              (l.57-58). Default `roll-modifiers`, the sample's words: a modifier changes the roll's dice (\"the \
              roll has become 10, 6, and 4\"), Dazzle is a penalty \"on rolls\" (l.16), and Accuracy counts the \
              dice of that roll, so a Dazzled 9 grants none and an 8 with `roll +1` grants 1. `face`: the \
              number rolled on the die counts, and the modifiers only move the roll against the defense.",
        section: "HOW TO FIGHT; SAMPLE ROUND OF COMBAT",
    },
    ParamSpec {
        name: P_PARTICIPATING,
        kind: ParamKind::Interpretation,
        allowed: Participating::NAMES,
        default: Participating::Joined.name(),
        doc: "\"For each participating character beyond the first, the monster gains +4 Grit and their actions \
              gain +1 Priority. If there are more than 2 characters, after the monster completes their first \
              action of the round, they roll for a second action\" (l.44) does not say whether a character \
              defeated earlier in the fight still counts. Default `joined`, the book's own use of the words: \
              \"A fight against a monster continues until either the monster or all participating characters \
              are defeated\" (l.1) calls defeated characters participating, so every character who joined \
              counts for the whole fight. `living`: only the characters not yet defeated count, for the +1 \
              Priority of each token placed and for the second action (the +4 Grit is gained as the fight \
              begins, when every character stands, so it is the same under both).",
        section: "MULTIPLE CHARACTERS FACING A MONSTER",
    },
    ParamSpec {
        name: P_TIEBREAK_DICE,
        kind: ParamKind::Interpretation,
        allowed: TiebreakDice::NAMES,
        default: TiebreakDice::FewerLoses.name(),
        doc: "\"If participants are tied, they each roll Finesse. The highest roll gains the Priority token, \
              comparing second highest and lower dice if higher values match, rerolling if needed on a perfect \
              tie\" (l.26) is silent when the tied roll different numbers of dice (their Finesse tiers differ) \
              and every die the shorter roll has matches. Default `fewer-loses`: the comparison goes on to \
              the next die, and a roll that has none left is the lower (8 3 beats 8): a tie is \"perfect\" \
              only when nothing is left to compare, and the die left over is one more that is higher. \
              `perfect-tie`: only the dice both rolls have are compared, so 8 3 against 8 is a perfect tie and \
              is rerolled (among three or more, those no other roll beats roll again).",
        section: "STARTING THE FIGHT",
    },
    ParamSpec {
        name: P_DECLARED_REPEAT,
        kind: ParamKind::Interpretation,
        allowed: DeclaredRepeat::NAMES,
        default: DeclaredRepeat::Allowed.name(),
        doc: "\"Players determine their actions by playing cards from their hand, each of which can only be used \
              once until the player plays Focus\" (l.29) limits the hand cards; \"if they chose Primary, \
              Secondary, or Maneuver, they declare their choice of the applicable card or effect it permits them \
              to use\" (l.31) sets no limit on the card declared, and nothing says two declarations of one \
              round must differ (the sample's two happen to: Unicorn Blade and Enhance Power, l.50). Default \
              `allowed`, the plain words: Primary and Secondary (and Maneuver's gear) may declare the same card \
              in one round, each putting its own token down. `refused`: the cards declared in one reveal are \
              different cards, a repeat being kf.hand.choice (reported, and played as recorded).",
        section: "ACTIONS",
    },
    ParamSpec {
        name: P_NO_FIRST_ACTION,
        kind: ParamKind::Interpretation,
        allowed: NoFirstAction::NAMES,
        default: NoFirstAction::SecondRoll.name(),
        doc: "\"Some monsters do not use any action if a 1 is rolled\" (l.32) and \"If there are more than 2 \
              characters, after the monster completes their first action of the round, they roll for a second \
              action, though that action has -6 Priority\" (l.44): silent on a first roll that gives no action. \
              Default `second-roll`, the plain words: with more than 2 characters the monster rolls twice a \
              round, the \"after\" clause saying when (a first roll that gives no action is done at once), so \
              the second die is rolled right after it, or, when the first was rolled during the reveals \
              (`action-die-time=after-placement`), during them or once they are done. `no-second-roll`: \
              with no first action there is none to complete, and no second action that round (a second die \
              recorded is kf.monster.second-action, ignored).",
        section: "ACTIONS; MULTIPLE CHARACTERS FACING A MONSTER",
    },
    ParamSpec {
        name: P_REROLL_ROLLS,
        kind: ParamKind::Interpretation,
        allowed: RerollRolls::NAMES,
        default: RerollRolls::AnyRoll.name(),
        doc: "Rerolls are never stated as a rule: the sample's two (\"Player A decides to expend 2 Fame to reroll \
              the 9\", l.56; \"chooses to expend 2 Fame to reroll the 2\", l.57) are of attacks, and \"Fame ... can \
              help characters act first and change their luck\" (l.61) names no roll. Default `any-roll`, a \
              permission the book does not limit: the monster's action die may be rerolled right after it is rolled (the action is \
              picked again with the new face), and a die of a Finesse tie-break roll for the Priority token \
              (l.26) may be rerolled too, while the roll-off is open or right after its last roll (the payer's \
              own roll when it shows the die, else the latest roll that does); what the reroll then decides is \
              `tiebreak-reroll`. `action-roll`: only the roll of the action being resolved is rerolled, one of a \
              tie-break roll (the roll-off open or its last roll just come) or of the action die being \
              kf.reroll.action-roll (reported, not applied, the replay going on).",
        section: "STARTING THE FIGHT; SAMPLE ROUND OF COMBAT",
    },
    ParamSpec {
        name: P_TRACK_PRIORITY,
        kind: ParamKind::Interpretation,
        allowed: TrackPriority::NAMES,
        default: TrackPriority::AsPlaced.name(),
        doc: "\"Each participant places an action token on the Priority track for each of their actions on the \
              number matching the action's Priority. While there are tokens on the tracker, remove the highest \
              number token and complete that action\" (l.33), and \"Slow: Suffer -6 Priority\" (l.17): silent on a \
              Priority that changes after the tokens are down (a Slow gained from an action earlier on the \
              track, a Priority effect that starts or ends mid-round). Default `as-placed`, the procedure's \
              plain words: a token stays on the number it was placed on, and the track is resolved from the \
              tokens on it (a fighter Slowed mid-round acts on the number its token is on; its later tokens, \
              such as the monster's second action, are placed with the -6). `current`: a token follows its \
              action's Priority, moving as a Slow, Immunity or Priority effect on its owner (or, under \
              participating-characters=living, a defeat) changes it, so a fighter Slowed mid-round acts 6 \
              later.",
        section: "ACTIONS; AILMENTS",
    },
    ParamSpec {
        name: P_TIEBREAK_REROLL,
        kind: ParamKind::Interpretation,
        allowed: TiebreakReroll::NAMES,
        default: TiebreakReroll::Recheck.name(),
        doc: "A Fame reroll of a Finesse tie-break die (`reroll-rolls=any-roll`) spends Fame, and \"As the fight \
              begins and each time after Fame changes, the participant with the highest Fame gains the Priority \
              token. ... If participants are tied, they each roll Finesse\" (l.26). Default `recheck`, the plain \
              words: once the cost is paid the payer's Fame has changed, so the roll-off gives way to the token's \
              check from the Fame (the payer, tied before paying, is now lower; a tie among the others rolls off \
              again, as `priority-recheck-tie` says); a reroll that changes no Fame (`reroll-fame-cost=0`) starts \
              no check, and its die decides the roll-off. `die-decides` (rules version 10): the rerolled die \
              decides the roll-off (\"The highest roll gains the Priority token\", l.26; Fame \"can help \
              characters act first\", l.61), an open roll-off going on with it and a finished one decided again \
              (a perfect tie asking for a new one); the Fame is spent within the roll-off and starts no check.",
        section: "STARTING THE FIGHT",
    },
    ParamSpec {
        name: P_OWN_TIE_ORDER,
        kind: ParamKind::Interpretation,
        allowed: OwnTieOrder::NAMES,
        default: OwnTieOrder::Any.name(),
        doc: "One participant's two actions on the same Priority: \"If multiple actions have the same Priority, \
              those actions occur in turn order\" (l.33) orders participants, and says nothing of one \
              participant's two tokens on one number. Default `any`, the plain words: the book sets no order \
              between them, so either may be completed first (the chain derives the order the reveal names \
              them). `revealed`: they occur primary, secondary, Lure, Maneuver's gear (the order l.24 lists the \
              hand), whatever order the reveal names them; the other is kf.round.priority-order.",
        section: "ACTIONS",
    },
    ParamSpec {
        name: P_ACCURACY_SIDE,
        kind: ParamKind::Interpretation,
        allowed: AccuracySide::NAMES,
        default: AccuracySide::HolderBenefit.name(),
        doc: "\"When an effect reduces the difficulty of Accuracy, instead of needing a 9, the number is reduced \
              by that amount. Similarly, if the difficulty is increased, the number needed is that much higher\" \
              (l.8) names no side for an effect a fighter has (`accuracy-difficulty N` with neither `own` nor \
              `against`); the book's one example is the target's increase, checked by the attacker: \"They \
              confirm the Wyvern does not increase the Accuracy difficulty from 9\" (l.58). Default \
              `holder-benefit`, the example and the plain sense of an effect a fighter has: an increase \
              counts in attacks against its holder (the Wyvern's would harden Yahmra's attack on it, not the \
              Wyvern's own), a reduction in its holder's own attacks (a Keen -1 eases its holder's attacks, \
              not the monster's against them). `both-sides` (rules versions up to 14): the effect counts in \
              every attack its holder takes part in, as attacker or as target, so the Boar's +1 also hardens \
              its own Gore and a Keen -1 also eases the attacks on its holder.",
        section: "HOW TO FIGHT; SAMPLE ROUND OF COMBAT",
    },
];

/// The interpretations, read once from the setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    pub fame: FameOnDefeat,
    pub lure: LureRoll,
    pub maneuver: ManeuverOptions,
    pub balance: BalanceScope,
    pub immunity: ImmunityVsAttack,
    pub recheck: RecheckTie,
    pub focus: FocusRefresh,
    pub reroll_cost: i32,
    pub alternation: Alternation,
    pub die: SkillDie,
    pub recall: RecallLimit,
    pub action_die: ActionDieTime,
    pub action_modifiers: ActionDieModifiers,
    pub round_defeats: RoundDefeats,
    pub accuracy_modifiers: AccuracyModifiers,
    pub participating: Participating,
    pub tiebreak_dice: TiebreakDice,
    pub declared_repeat: DeclaredRepeat,
    pub no_first_action: NoFirstAction,
    pub reroll_rolls: RerollRolls,
    pub track_priority: TrackPriority,
    pub tiebreak_reroll: TiebreakReroll,
    pub own_tie_order: OwnTieOrder,
    pub accuracy_side: AccuracySide,
}

impl Params {
    /// Read every interpretation; problems stay in `r`.
    pub fn read(r: &mut Readings) -> Params {
        Params {
            fame: r.get(P_FAME, FameOnDefeat::LastAttackerRankOthersHalf),
            lure: r.get(P_LURE, LureRoll::WitVsWitDefense),
            maneuver: r.get(P_MANEUVER, ManeuverOptions::GearAndImmunity),
            balance: r.get(P_BALANCE, BalanceScope::Round),
            immunity: r.get(P_IMMUNITY, ImmunityVsAttack::StopAilment),
            recheck: r.get(P_RECHECK, RecheckTie::Roll),
            focus: r.get(P_FOCUS, FocusRefresh::EndOfRound),
            reroll_cost: r.number(P_REROLL, 0, MAX_REROLL_COST, 2),
            alternation: r.get(P_ALTERNATION, Alternation::SingleTarget),
            die: r.get(P_DIE, SkillDie::D10),
            recall: r.get(P_RECALL, RecallLimit::OncePerFight),
            action_die: r.get(P_ACTION_DIE, ActionDieTime::AfterPlacement),
            action_modifiers: r.get(P_ACTION_MODIFIERS, ActionDieModifiers::Face),
            round_defeats: r.get(P_ROUND_DEFEATS, RoundDefeats::Together),
            accuracy_modifiers: r.get(P_ACCURACY_MODIFIERS, AccuracyModifiers::RollModifiers),
            participating: r.get(P_PARTICIPATING, Participating::Joined),
            tiebreak_dice: r.get(P_TIEBREAK_DICE, TiebreakDice::FewerLoses),
            declared_repeat: r.get(P_DECLARED_REPEAT, DeclaredRepeat::Allowed),
            no_first_action: r.get(P_NO_FIRST_ACTION, NoFirstAction::SecondRoll),
            reroll_rolls: r.get(P_REROLL_ROLLS, RerollRolls::AnyRoll),
            track_priority: r.get(P_TRACK_PRIORITY, TrackPriority::AsPlaced),
            tiebreak_reroll: r.get(P_TIEBREAK_REROLL, TiebreakReroll::Recheck),
            own_tie_order: r.get(P_OWN_TIE_ORDER, OwnTieOrder::Any),
            accuracy_side: r.get(P_ACCURACY_SIDE, AccuracySide::HolderBenefit),
        }
    }
}
