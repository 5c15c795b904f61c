//! Keridwyn tourney fights (`keridwyn-fight`): characters against a monster or each other,
//! skill rolls against defenses, a Priority track, hands of action cards, ailments and
//! ongoing effects. Rulebook: keridwyn-tourney-fights.txt; notation and catalog format:
//! docs/notation/keridwyn-fight.md.
//!
//! **Invariant:** every number a log records as a consequence (the token holder, outcomes,
//! damage, Block, Injury, ailment durations, awards) is recomputed here from the catalog and
//! the recorded dice and choices, and compared. What is due next is derived from the state
//! (due.rs), never queued.
//!
//! Files, one concept each, in the order of a fight:
//! - `rules.rs`: every rule id with its text and section, and the interpretations (`Params`).
//! - `cards.rs`: the catalog (block format, ids interned); `effect.rs`: skills, ailments and
//!   the card-effect vocabulary.
//! - `event.rs` and `notation.rs`: the recorded facts and their notation; `name.rs`: the
//!   names they carry (seat labels, card ids), kept inline.
//! - `state.rs`: the table (seats and cards by typed index; the cursors of each agenda).
//! - `step.rs`: the step function; `fact.rs`: a consequence resolved to typed facts, and
//!   written back; `due.rs`: the chain of "is X due?" predicates and applying a due
//!   consequence; `compare.rs`: judging a recorded consequence; `blame.rs`: the specific
//!   rule a wrong number neglected (for example `kf.ailment.dazzle`, "-1 on rolls").
//! - `setup.rs` (joins, the monster, begin), `plan.rs` (reveals, the track), `priority.rs`
//!   (the token's Finesse tie-break), `roll.rs` (the monster's action die, targets, rolls, rerolls,
//!   recalls), `action.rs` (an action from the track to its effects), `round.rs` (end of
//!   round, defeat, the fight's end).
//! - `compute.rs`: the read-only arithmetic (turn order, Priority, defenses, roll values with
//!   Dazzle, damage with Weak and Accuracy, Block, targets, the token's winner).
//! - `board.rs`: the board and the facts; `simulate.rs`: a seeded random legal fight.

mod action;
mod blame;
mod board;
mod cards;
mod compare;
mod compute;
mod due;
mod effect;
mod event;
mod fact;
mod name;
mod notation;
mod plan;
mod priority;
mod roll;
mod round;
mod rules;
mod setup;
mod simulate;
mod state;
mod step;

pub use cards::{
    ActionCard, Area, Attack, CardKind, Catalog, CharacterCard, Condition, MercCard, MonsterCard, TraitCard,
};
pub use effect::{Ailment, DamageBase, Effect, Skill};
pub use event::{Event, Place, Play};
pub use name::Name;
pub use state::{Fighter, HandCard, Phase, Seat, State};

use crate::kit::rules::Readings;
use crate::kit::taint::Unverified;
use crate::{Findings, Game, GameInfo, ParamSpec, ParseError, RuleInfo, Setup, SetupError, StepError};
use rules::Params;
use state::{CardId, Tokens, Who};
use std::sync::Arc;

/// The illustrative catalog shipped for the fixtures (invented cards; see its header).
/// A static, not a const: one address, so the text `builtin_catalog` hands out is recognised
/// as the built-in catalog without comparing its bytes (`kit::catalog::is_builtin`).
pub static ILLUSTRATIVE: &str = include_str!("../../catalogs/keridwyn-fight/illustrative.cat");

/// The game, configured: setup, catalog and interpretations.
#[derive(Debug, Clone)]
pub struct KeridwynFight {
    setup: Arc<Setup>,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) params: Params,
}

impl KeridwynFight {
    /// The game a setup and catalog text describe, or every reason they are refused.
    fn build(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError> {
        let mut readings = Readings::new(setup, rules::PARAMS);
        let params = Params::read(&mut readings);
        let catalog = match cards::shared(ILLUSTRATIVE, catalog_text) {
            Ok(c) => c,
            Err(problems) => {
                readings.problems(problems);
                Arc::new(Catalog::default())
            }
        };
        readings.finish(KeridwynFight { setup: Arc::new(setup.clone()), catalog, params })
    }

    /// The catalog this game was built with.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The character or monster card id of a fighter.
    pub(crate) fn card_name(&self, f: &Fighter) -> &str {
        match f.who {
            Who::Character(c) => self.catalog.characters.name(c),
            Who::Monster(m) => self.catalog.monsters.name(m),
        }
    }

    /// The action cards a fighter has (a character's; a monster's come from its d6).
    pub(crate) fn cards_of(&self, f: &Fighter) -> &[CardId] {
        match f.who {
            Who::Character(c) => self.catalog.characters.get(c).map_or(&[], |c| &c.cards),
            Who::Monster(_) => &[],
        }
    }
}

impl Game for KeridwynFight {
    type State = State;
    type Event = Event;

    fn info() -> GameInfo {
        GameInfo {
            id: "keridwyn-fight",
            name: "Keridwyn tourney fights",
            rulebook: "keridwyn-tourney-fights.txt",
            // 2: obligations derived from the state (a new state shape), the book's readings
            // of the trophy, tie-break modifiers, replacement and immunity, and a re-check tie
            // rolled off by default (`priority-recheck-tie=roll`).
            // 3: an Immunity revealed with Maneuver lifts its Ailment before the tokens go down,
            // only the Ailment is stopped by default (`immunity-vs-attack=stop-ailment`), the
            // first Balance of a round holds, and the action die is a skill die.
            // 4: a Breakable effect counted after a successful Lure is kf.lure.breakable, a
            // token given without the Finesse roll-off and a random pick left out are one
            // finding each (the replay goes on), a +0 Fame award is not owed, Focus returns at
            // the end of its round under `focus-refresh=on-reveal`, the action die may be rolled
            // once the cards are placed (`action-die-time`), tie-break rolls come in any order,
            // no spell is granted to the foe between characters, and an attack with two damage
            // effects is refused by the catalog.
            // 5: an attack's targets, the end of round's ticks, the start-of-fight effects and
            // a monster's awards may be recorded in the order the book narrates them.
            // 6: one use of an area attack gives each fighter it hits its own instance of its
            // ongoing effect (the last target's no longer replaces the others'), and each
            // outcome is judged with the defenses at the roll whatever the targets' order.
            // 7: fighters brought to 0 Grit by the end of round's ticks fall together
            // (`end-of-round-defeats=together`): a tick's defeat that decides the fight no
            // longer cancels the ticks the log states after it.
            // 8: an action die rolled during the reveals that shows no action leaves the
            // reveals going (it ended the round, or with more than 2 characters asked for the
            // second roll at once), the second roll then coming after the reveals; a hand card
            // placed twice in one reveal is kf.hand.two-cards (it was kf.hand.once-until-focus).
            // A second die with 2 characters or fewer recorded during the reveals is
            // kf.monster.second-action, ignored (it stopped the replay).
            // 9: a Fame reroll of a Finesse tie-break die is accepted (`reroll-rolls=any-roll`;
            // it was kf.reroll.action-roll), its Fame cost re-checking the token; with more than
            // 2 characters a second action die recorded during the reveals after a first rolled
            // there that gave no action is accepted (`no-first-action=second-roll`; it stopped
            // the replay).
            // 10: with more than 2 characters a second action die recorded before the
            // monster's first action is completed (during the reveals or between tokens) is
            // kf.monster.second-action, taken as the second die (it stopped the replay); a
            // Fame reroll of a Finesse tie-break die (`reroll-rolls=any-roll`) decides the
            // roll-off with the rerolled die, its Fame cost starting no re-check (it re-checked
            // the token from the Fame, which the payer always lost).
            // 11: a Fame reroll of a Finesse tie-break die is `tiebreak-reroll`, by default
            // `recheck` (l.26 "each time after Fame changes"): the Fame it costs re-checks the
            // token from the Fame, which the payer, now lower, loses (a tie among the others
            // rolling off again); version 10's reading, the rerolled die deciding, is
            // `die-decides`. A free reroll (`reroll-fame-cost=0`) changes no Fame and its die
            // decides. A Finesse roll recorded next by a participant the ended roll-off still
            // owed is kf.start.tiebreak, not applied. Under `reroll-rolls=action-roll` a tie-break reroll right after the
            // roll-off's last roll is kf.reroll.action-roll, not applied (it stopped the replay
            // under kf.round.sequence).
            // 12: a reroll its payer cannot afford (kf.reroll.fame) spends no Fame: the Fame
            // stays, and the round's Fame award counts from it (it went below nothing).
            // 13: a worn gear choice left out (or naming none of theirs) is one
            // kf.start.worn-gear: the first worn gear applies until the first damage recorded to
            // the character shows which (it applied none, each Block then a second finding).
            // One participant's two actions on the same Priority may be completed in either
            // order (`own-tie-order`, default `any`: l.33 orders participants; the chain derives
            // the order the reveal names them); the other was kf.round.priority-order. The
            // variant `revealed` takes them primary, secondary, Lure, Maneuver's gear, whatever
            // the order the reveal line names them.
            // 14 (audit r4 O9): a hit's ailments named together (Unicorn Blade's "2 rounds of
            // Slow and Weak", l.58) may be recorded in either order, as their one run of ailment
            // effects names no order: Weak before Slow was two kf.ailment.stack findings (the
            // first read as Slow left out). A damage between ailments keeps the card's order.
            // 15 (audit r6): a mercenary named at a second character's join is kf.start.join
            // (it stays with the first; the other's recall is kf.recall.mercenary: it passed
            // clean); a recall before the
            // dice is accepted (it stopped the replay); a Fame reroll of the monster's action
            // die re-picks the action (`reroll-rolls=any-roll`; it stopped the replay); card text
            // speaking only of Grit ("Heal 3 Grit.") makes only a defeat uncertain, not a tick,
            // outcome or damage (a missed Burn tick after Mend was clean); an unqualified
            // Accuracy-difficulty effect counts by `accuracy-difficulty-side`, default
            // `holder-benefit` (an increase against its holder, a reduction in its holder's
            // attacks; l.58), `both-sides` being version 14's; a face of the monster's action
            // die other than 1 that its card, as the catalog gives it, brackets no action for is
            // reported unverified (l.32; it gave no action silently).
            // 16 (audit r6, continued): one table slip is one finding and the replay goes on as
            // the book has it. An action's roll left out is one kf.roll.skill finding, the
            // outcome recorded taken as the roll's (D7: the outcome was "not due" and the next
            // roll stopped the replay); the monster's action die left out is one
            // kf.round.monster-action finding, its recorded `act` naming the action (D7: it
            // stopped the replay). The `act` of gear that needs no roll (or of Lure between
            // characters) passed over by a later `act` is one finding, applied where it was owed
            // (D2: every later `act` was a finding, and the book's `miss A` a kf.attack.defense
            // one); a roll in the skill of the roller's next token is that token's roll, its `act`
            // left out (D2: it was kf.gear.no-roll after gear). An `act` written after its own
            // roll (or late after being passed over) is that one slip, not a second finding (D4).
            // A Wit roll for Lure between characters is one kf.lure.breakable finding, not
            // applied (D5: it was taken as the next action's roll, and the replay stopped). The
            // awards written after a monster's defeat refused for its +4 Grit follow from that
            // one kf.monster.extra-grit finding (D8: three more findings). A hit's ailment of the
            // wrong length is kf.ailment.amount (D1: it was kf.ailment.stack). The wrong skill
            // rolled with that skill's number of dice is kf.roll.skill only (D10: it was
            // kf.roll.dice-count too). The action's roll written twice (same fighter, same dice,
            // no outcome yet) is one kf.round.sequence finding, not applied (it was taken as the
            // next action's roll: 6 findings, then the replay stopped).
            rules_version: 16,
        }
    }
    fn rules() -> &'static [RuleInfo] {
        rules::RULES
    }
    fn params() -> &'static [ParamSpec] {
        rules::PARAMS
    }
    fn default_catalog() -> &'static str {
        "illustrative"
    }
    fn builtin_catalog(name: &str) -> Option<&'static str> {
        (name == "illustrative").then_some(ILLUSTRATIVE)
    }

    fn new(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError> {
        KeridwynFight::build(setup, catalog_text)
    }
    fn setup(&self) -> &Setup {
        &self.setup
    }
    fn initial_state(&self) -> State {
        State {
            fighters: Vec::new(),
            pending_monster: None,
            characters: 0,
            round: 0,
            phase: Phase::Joining,
            holder: None,
            track: Tokens::new(),
            done: Tokens::new(),
            current: None,
            lured: false,
            monster_rolled: false,
            second_rolled: false,
            rolloff: Vec::new(),
            unrolled: 0,
            action_die: None,
            last_fact: None,
            filled: 0,
            passed: state::Hint(false),
            action_unknown: false,
            held: None,
            balance: None,
            alternate: false,
            last_hit: None,
            winner: None,
            recheck: None,
            starting: false,
            cure_check: false,
            awarding: false,
            trophy_given: false,
            unverified: Unverified::default(),
            may_be_down: state::MayBeDown(false),
        }
    }
    fn parse_event(&self, line: &str) -> Result<Event, ParseError> {
        notation::parse_event(line)
    }
    fn step(&self, state: &mut State, event: &Event, findings: &mut Findings) -> Result<(), StepError> {
        self.step_event(state, event, findings)
    }
    fn next_consequence(&self, state: &State) -> Option<Event> {
        crate::kit::due::next_consequence(self, state)
    }
    fn is_consequence(event: &Event) -> bool {
        event.is_consequence()
    }
    fn precedes_consequences(&self, state: &State, event: &Event) -> bool {
        self.may_precede(state, event)
    }
    fn notation_summary() -> &'static str {
        notation::SUMMARY
    }

    /// The catalog's characters, monsters, cards and mercenaries, and the seats at the table.
    fn names(&self, state: &State) -> Vec<String> {
        let c = &self.catalog;
        let mut names: Vec<String> = state.fighters.iter().map(|f| f.label.to_string()).collect();
        names.extend(c.characters.names().map(str::to_string));
        names.extend(c.monsters.names().map(str::to_string));
        names.extend(c.cards.names().map(str::to_string));
        names.extend(c.mercs.names().map(str::to_string));
        names
    }

    fn board(&self, state: &State) -> String {
        self.render_board(state)
    }
    fn facts(&self, state: &State) -> Vec<(String, String)> {
        self.state_facts(state)
    }
    fn simulate(&self, seed: u64, events: usize) -> Option<Vec<Event>> {
        Some(self.random_fight(seed, events))
    }
}

#[cfg(test)]
mod tests;
