//! Proving Grounds: the core game (the "training game") and its optional modules.
//!
//! Maia fights six enemies at once: each round she rolls her dice pool, rerolls whole sets
//! within a minute, assigns dice to the enemy slots by face, moves battle markers (singles
//! down, sufficient sets up), resolves defeats and wounds, then recovers. Eight defeats at
//! the end of a round win; the last health space loses at once.
//!
//! Files, one concept each:
//! - data: `dice` (dice and pools), `enemy`, `cards` and `catalog` (cards as data, with
//!   `shared_catalog` caching the built-in one), `params` (setup, interpretations and the
//!   modules in play), `rules` (the rule catalog), `event` and `notation` (what a log holds
//!   and how it is typed), `state` (the table, the modules' part included);
//! - rules, one file per step of the round: `step` (dispatch, times), `draw` (setup and
//!   refills), `roll` (step 1), `markers` (step 2A, with `attack`, the reference card's
//!   resolution table), `checks` (step 2B: defeats, wounds, replacement), `recover` (step 3),
//!   `consequence` (what is due next), and `modules/` (one file per module, called through
//!   the hooks of `modules::Hooks`);
//! - views and players: `facts` and `board`, `simulate` (a seeded random player).
//!
//! The round is a phase machine (`state::Phase`); module steps slot into it through their
//! hooks: start-of-round events (dial, conspirator die, chariot draw) in the draw phase before
//! the roll, the dragonling die and chariot loading in step 1, the chariot's resolution before
//! the markers, shields in the markers' turns, sun and moon after them, conspirator reveals
//! with the checks.

mod attack;
mod board;
mod cards;
mod catalog;
mod checks;
mod consequence;
mod dice;
mod draw;
mod enemy;
mod event;
mod facts;
mod markers;
mod modules;
mod notation;
mod params;
mod recover;
mod roll;
mod rules;
mod simulate;
mod state;
mod step;

#[cfg(test)]
mod module_tests;
#[cfg(test)]
mod tests;

pub use attack::{max_spaces, resolve_attack, resolve_attack_with, AttackMods, Expected, Hold};
pub use cards::{Chariot, Conspirator, DieSpec, Effect, Inspiration};
pub use catalog::{cards, parse_catalog, parse_full_catalog, Catalog, ILLUSTRATIVE};
pub use dice::{Color, ColorCounts, Dice, Die, MAX_DICE};
pub use enemy::{Enemy, Requirement};
pub use event::{Action, Event};
pub use params::{Config, ExhaustFrom, Module, Modules, ReplaceWithoutWhite, PARAMS};
pub use recover::DEFEATS_TO_WIN;
pub use rules::RULES;
pub use state::{ModState, Outcome, Phase, Slot, State};

use crate::{Findings, Game, GameInfo, ParamSpec, ParseError, RuleInfo, Setup, SetupError, StepError};
use std::sync::Arc;

/// The training game, configured: setup validated, catalog parsed.
#[derive(Debug, Clone)]
pub struct ProvingGrounds {
    /// Shared, like the cards, so that a game reused from `new`'s cache clones cheaply.
    setup: Arc<Setup>,
    config: Config,
    /// Every card of the catalog, shared so that cloning a configured game (one per replay
    /// thread) is cheap.
    cards: Arc<Catalog>,
    /// Stands in for a card index the catalog does not have (see `enemy`).
    unknown: Arc<Enemy>,
}

impl ProvingGrounds {
    /// The validated setup.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The enemy cards, in catalog order.
    pub fn enemies(&self) -> &[Enemy] {
        &self.cards.enemies
    }

    /// The enemy with this catalog index. States come from this game's own steps, but a
    /// snapshot read back from storage could name an index past the catalog: it then gets a
    /// placeholder card rather than a panic.
    #[inline]
    pub fn enemy(&self, card: u8) -> &Enemy {
        self.cards.enemies.get(card as usize).unwrap_or(&self.unknown)
    }

    /// The module cards, in catalog order.
    pub fn conspirators(&self) -> &[Conspirator] {
        &self.cards.conspirators
    }
    pub fn chariots(&self) -> &[Chariot] {
        &self.cards.chariots
    }
    pub fn inspirations(&self) -> &[Inspiration] {
        &self.cards.inspirations
    }

    fn initial(&self) -> State {
        let mut s = State::new();
        for m in self.modules() {
            m.setup(self, &mut s);
        }
        s
    }

    /// Check a setup and parse its catalog text (`Game::new` without its cache).
    fn build(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError> {
        let config = Config::from_setup(setup);
        let catalog = catalog::cards(catalog_text);
        // A module whose cards the catalog lacks cannot be played: say so with the rest.
        // The modules named, even when another parameter is wrong, so that every reason is
        // reported at once.
        let named = setup.params.get(params::MODULES).map_or(Ok(Modules::NONE), |m| Modules::parse(m));
        let missing: Vec<String> = match (named, &catalog) {
            (Ok(named), Ok(cat)) => [
                (Module::Conspirators, cat.conspirators.is_empty(), "[conspirators]"),
                (Module::Chariots, cat.chariots.is_empty(), "[chariots]"),
                (Module::Inspiration, cat.inspirations.is_empty(), "[inspiration]"),
            ]
            .into_iter()
            .filter(|&(m, empty, _)| named.has(m) && empty)
            .map(|(m, _, section)| {
                format!("module `{}` needs cards: the catalog has no {section} section", m.name())
            })
            .collect(),
            _ => Vec::new(),
        };
        match (config, catalog) {
            (Ok(config), Ok(cards)) if missing.is_empty() => {
                // Record the defaults too, so the setup names every interpretation in force.
                let mut full = setup.clone();
                for spec in PARAMS {
                    full.params.entry(spec.name.to_string()).or_insert_with(|| spec.default.to_string());
                }
                Ok(ProvingGrounds { setup: Arc::new(full), config, cards, unknown: catalog::unknown_enemy() })
            }
            (config, catalog) => {
                let mut reasons = config.err().map(|e| e.reasons).unwrap_or_default();
                reasons.extend(catalog.err().unwrap_or_default());
                reasons.extend(missing);
                Err(SetupError { reasons })
            }
        }
    }
}

impl Game for ProvingGrounds {
    type State = State;
    type Event = Event;

    fn info() -> GameInfo {
        GameInfo {
            id: "proving-grounds",
            name: "Proving Grounds",
            rulebook: "proving-grounds.txt",
            // 2: the replacement may be declined (`replacement`), the timer runs from the roll's
            // own time and times may not run backwards, a wound and a borrow are derived as
            // consequences, targeted card effects are applied, a set may stop short of the
            // spaces it reaches (`multi-space=optional` by default).
            // 3: a chariot's condition is met whenever its dice can fill it (a matching, not
            // a greedy fill), and the dragonling die's weakness concerns only an attacked enemy
            // (no extra die, and nothing unverified, for an enemy assigned no dice).
            // 4: an unverified dragonling weakness taints only its enemy's resolution, and a
            // conspirator's text only from where it can first act; `sun-borrow` (the die borrowed
            // "for next round" joins the pool at recovery by default); a multi-space health loss
            // leaves the stack below the marker; a borrowed die returns to the dial from a
            // chariot; the Rolls tracker is set at recovery, not at the roll; the timer covers
            // `load`; the dial is turned once a round, at an enemy.
            // The interpretation `ring-entry`, named since, keeps this reading by default
            // (`any-loss`); its variant `wound` is the stricter one.
            // 5: an unverified effect's leftovers do not decide later rounds: the dice a roll
            // after it held beyond (or short of) the pool are the effect's for its round only,
            // and a marker it left unresolved on an end space keeps its enemy's findings
            // uncertain until it is placed again; an `exhaust` after a text that does not speak
            // of exhausting is reported (uncertain); a replacement with no white die left breaks
            // only `pg.replace.white-die`; an enemy's ability taints every resolution of its
            // round, from the round's first.
            // 6: an `exhaust` beyond a wound's in the round of an unverified dragonling weakness
            // is uncertain (what a weakness does is written nowhere), not counted; the
            // interpretation `effect-die-return` names which die leaves as an effect's round
            // ends (its default keeps version 5's reading).
            // 7: `effect-die-return` also names which die of its color goes back to the Sun
            // and Moon dial when a wound exhausted one beside the borrowed die (`track-first`
            // now returns the exhausted one; the default keeps version 6's reading).
            // 8: the sun's borrow is step 2A's (card l.22-25): the checks starting with it
            // owed break `pg.sun-moon.sun-borrow`, a borrow after them `pg.check.after-moves`;
            // under `sun-borrow=at-once` a die exhausted before the borrow (a wound recorded
            // before it) is never the borrowed die `track-first` sends back to the dial; a
            // wound with an empty pool exhausts nothing and breaks no rule.
            // 9: a replacement an unmet chariot's health loss allows (the marker entering the
            // coloured ring) may be made where it is owed, before the markers move, and its
            // die counts in the attacks still to resolve (it was pg.resolve.missing-move and
            // pg.check.after-moves); a `replace` nothing allowed is one pg.replace.not-owed
            // finding and swaps nothing. One omission is one finding: a skipped marker move
            // (or moon move) is applied as the rules required, and a defeat or wound left out
            // at `recover` is resolved there, so the correct records after it pass.
            // 10: more omissions made up where they show, one finding each: a round ended
            // without `recover` recovers at the roll or draw that shows it (the dice back, the
            // track down); a chariot resolution left out is made at the first marker's turn
            // (met: discarded, dice to reserve; unmet: its effect, the health loss too); a
            // sun's borrow never made is made at the round's close with the dial's first
            // color; a missing `face` is told by the moon's move, and a borrow with no facing
            // known is accepted when an enemy was hit; a `draw` into a slot that holds an
            // enemy leaves that enemy there (it was replaced).
            // 11: a consequence made where its omission showed is not made again when the log
            // records it late (audit r4 D2): a late marker move, defeat, wound, `recover`
            // (after the next roll), moon's move, chariot resolution or sun's borrow is that
            // consequence's own record, with no second finding (one mistake, one finding), and
            // it is not applied again (a late `down` moved the marker twice, a late wound cost
            // two health, a late `recover` closed the round just rolled); a late wound naming
            // another die exhausts that die instead; a late `hold` moves nothing and is no
            // finding; a wound recorded after its round's recovery sends its die one space
            // down, where the recovery would have moved it; a late borrow after its absence was
            // reported at the checks is no pg.check.after-moves finding.
            // 12: a late `borrow` naming another color than the one made where the log left the
            // borrow out is the player's choice (card l.23): that color is the borrowed die and
            // the made one goes back to the dial (the made one stayed, the late record was a
            // second finding and the next roll broke pg.roll.whole-pool); a color the dial does
            // not hold is pg.sun-moon.sun-borrow, the made die kept.
            // 13 (audit r6): one table mistake is one finding and the table goes on as the book
            // says. A marker turn recorded otherwise than the dice require is made as they
            // require (the defeat or wound it leads to, left out, is made at `recover` with no
            // second finding); a second record of a marker's turn, a `recover` with no round in
            // progress, a defeat or wound of a marker not on its end space are reported and not
            // applied (they moved the marker twice, moved the track twice, cost a second health
            // space, discarded an enemy still in play); a defeat or wound written on the wrong
            // slot is taken as the one another slot owes; a chariot resolution the dice
            // contradict is made as they say (no health lost for a met chariot); a `face`,
            // `conspire` or `chariot` after the markers moved is where the missing `recover` is
            // reported and made (a `recover` after it is its late record); a reroll of more dice
            // than the set, of a face no die shows, or a check or turn on an empty slot is one
            // finding and the replay goes on (it stopped); with the conspirator die left out, a
            // turn some face of it explains is no finding. Two wounds into the stack in one
            // round owe two replacements until the round ends (l.173-175; the first was counted
            // declined at the second wound). `conspirators-start` defaults to 0 (the card
            // reveals conspirators only after defeats; 1 is now a variant). A moon's move on the
            // wrong slot is made on the moon enemy's; a borrow written twice takes no second die;
            // a reveal before its pending defeat is that defeat's; the dragonling die missing
            // from the roll is reported at a reroll; a refill draw after the winning recovery is
            // no finding (l.185, l.31); a wound may exhaust a die in a chariot's reserve (l.159).
            // 14 (audit r6, continued): a `replace` recorded while a marker waits on its
            // bottom space for the wound that enters the stack is that wound's replacement (a
            // ring-entry wound left out is one finding, not three); a `replace` just after
            // `recover` is the late record of the one the close counted declined (one
            // pg.round.step-order, the stack not moved again); a weak enemy's skipped turn is
            // made as l.121-133 say (its finding stays uncertain); nothing is derived past a
            // conspirator owed by a defeat, and a log ending there is incomplete for it; a
            // first roll with a color misread gives the pool back its colors at recovery; a
            // `load` of a die the pool lacks is one pg.chariots.place-from-pool finding (a die
            // of that face in another color is placed) and the replay goes on.
            rules_version: 14,
        }
    }

    fn rules() -> &'static [RuleInfo] {
        RULES
    }

    fn params() -> &'static [ParamSpec] {
        PARAMS
    }

    fn default_catalog() -> &'static str {
        "illustrative"
    }

    fn builtin_catalog(name: &str) -> Option<&'static str> {
        (name == "illustrative").then_some(ILLUSTRATIVE)
    }

    fn new(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError> {
        Self::build(setup, catalog_text)
    }

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn initial_state(&self) -> State {
        self.initial()
    }

    fn parse_event(&self, line: &str) -> Result<Event, ParseError> {
        notation::parse_event(line)
    }

    fn step(&self, state: &mut State, event: &Event, findings: &mut Findings) -> Result<(), StepError> {
        self.apply(state, event, findings)
    }

    fn next_consequence(&self, state: &State) -> Option<Event> {
        self.consequence(state).map(Event::new)
    }

    /// A replacement owed under `replacement=mandatory`: the player's choice of die, so
    /// `next_consequence` derives nothing and a log ending here is incomplete.
    fn owed_decision(&self, state: &State) -> Option<String> {
        self.decision_owed(state)
    }

    /// Marker moves (shields and the moon's move included), defeats, wounds, a chariot's
    /// resolution, a borrow from the dial and recovery. A wound and a borrow carry the player's
    /// choice of die (`wound 2 exhaust y`, `borrow b`): `next_consequence` derives them with
    /// the die a player who does not say would send (white first; the dial's first color), and
    /// a recorded one may name any legal die.
    /// A `replace` the last wound allows comes before the consequences derived after it.
    fn precedes_consequences(&self, state: &State, event: &Event) -> bool {
        self.may_precede(state, event)
    }

    fn is_consequence(event: &Event) -> bool {
        matches!(
            event.action,
            Action::MarkerMovedUp { .. }
                | Action::MarkerMovedDown { .. }
                | Action::MarkerHeld { .. }
                | Action::EnemyDefeated { .. }
                | Action::Recovered
                | Action::ShieldGained { .. }
                | Action::ShieldRemoved { .. }
                | Action::MoonStruck { .. }
                | Action::ChariotResolved { .. }
                | Action::WoundSuffered { .. }
                | Action::DieBorrowed { .. }
        )
    }

    fn notation_summary() -> &'static str {
        notation::SUMMARY
    }

    /// Every card id of the catalog: enemies, conspirators, chariots, inspirations.
    fn names(&self, _state: &State) -> Vec<String> {
        let c = &self.cards;
        let ids = c.enemies.iter().map(|e| &e.id).chain(c.conspirators.iter().map(|x| &x.id));
        ids.chain(c.chariots.iter().map(|x| &x.id))
            .chain(c.inspirations.iter().map(|x| &x.id))
            .cloned()
            .collect()
    }

    fn board(&self, state: &State) -> String {
        self.board_text(state)
    }

    fn facts(&self, state: &State) -> Vec<(String, String)> {
        self.fact_list(state)
    }

    fn simulate(&self, seed: u64, events: usize) -> Option<Vec<Event>> {
        Some(self.simulate_log(seed, events))
    }
}
