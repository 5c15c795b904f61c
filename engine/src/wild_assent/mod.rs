//! Wild Assent (`wild-assent`): grid skirmishes on a board of fields, in two modes sharing
//! one combat core: the Hunt (four Seekers against Creatures driven by Instinct cards, a
//! co-operative encounter) and the Arena (two sides of Gladiators). Rulebook:
//! wild-assent.txt; notation, catalog format and fact keys: docs/notation/wild-assent.md.
//!
//! **Invariant:** every number a log records as a consequence (damage after defense and
//! back attacks, Knockback destinations, statuses, Bleed, capture damage, Resources) is
//! recomputed here from the catalog, the positions and the recorded dice, and compared; a
//! recorded move is walked step by step against the Speed budget and the fields it crosses,
//! an attack against arc, line of sight and range, and a Creature's target and movement
//! against what its Instinct card requires.

mod ai;
mod board;
mod campaign;
mod cards;
mod combat;
mod decide;
mod draft;
mod due;
mod effect;
mod event;
mod facts;
mod geometry;
mod momentum;
mod names;
mod notation;
mod order;
mod rules;
mod silvestrem;
mod simulate;
mod state;
mod taint;
mod victory;
// The Arena match (scope=match).
mod placement;
mod round;
mod simulate_match;
mod troupe;

pub use campaign::{Building, CampEvent};
pub use cards::{Catalog, DamageKind, Instinct, Movement, Profile, Skill, SkillKind, UnitCard, UnitKind};
pub use effect::{Effect, Status};
pub use event::{Event, Path, Step};
pub use state::momentum::{Dice as MomentumDice, Face as MomentumFace};
pub use state::{Faces, Obstacle, Side, State};

use crate::kit::catalog::{Id, Table};
use crate::kit::due as due_loop;
use crate::kit::name::Name;
use crate::kit::name_ids::{NameHasher, NameIds};
use crate::kit::rules::Readings;
use crate::{Findings, Game, GameInfo, ParamSpec, ParseError, RuleInfo, Setup, SetupError, StepError};
use rules::Params;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// The illustrative catalog shipped for the fixtures (invented numbers except those the
/// book prints; see its header).
pub const ILLUSTRATIVE: &str = include_str!("../../catalogs/wild-assent/illustrative.cat");

/// The game, configured: setup, catalog and interpretations.
#[derive(Debug, Clone)]
pub struct WildAssent {
    /// Shared: `arbiter verify` clones the game it built for every session with this setup.
    setup: Arc<Setup>,
    pub(crate) catalog: Arc<Catalog>,
    pub(crate) params: Params,
    /// The Encampment's buildings and Workers (`building` and `worker` blocks).
    pub(crate) camp_catalog: Arc<campaign::catalog::Catalog>,
    /// Per stat block of the mode's table: the standing effects of its own skills, in card
    /// order ([`WildAssent::standing`] walks them for every attack, defense and Speed; the
    /// catalog never changes after setup, so they are gathered once).
    pub(crate) card_standing: Arc<[Vec<Effect>]>,
    /// The Instinct cards' ids by name (an `instinct` record names one).
    pub(crate) instinct_ids: Arc<NameIds<Instinct>>,
    /// The mode's stat blocks' ids by name (`place`, `summon`).
    pub(crate) unit_ids: Arc<NameIds<UnitCard>>,
    /// The Skill and Equipment cards' ids by name (an attack or skill `with` one names it):
    /// the catalog's own maps are keyed by `String`, and a look-up there checked the name's
    /// UTF-8 and compared strings (~200 instructions a record).
    pub(crate) skill_ids: Arc<NameIds<Skill>>,
    pub(crate) equipment_ids: Arc<NameIds<Skill>>,
    /// Every Summon copy's name (`daemonspawn-2`) with its stat block: what
    /// [`WildAssent::card_of_name`] would work out by cutting the name at its last `-` and
    /// reading the copy's number, found with one look-up (every `summon` record asks).
    pub(crate) copy_ids: Arc<CopyIds>,
}

/// Summon copies' names and their stat blocks ([`WildAssent::copy_ids`]), hashed as
/// [`NameIds`] hashes names.
pub(crate) type CopyIds = HashMap<Name, Id<UnitCard>, BuildHasherDefault<NameHasher>>;

/// [`CopyIds`] of the stat blocks `units` (`ids`: their ids by name): for each Summon, its
/// copies `ID-1` .. `ID-N`, each with the stat block the name's part before its last `-`
/// names, as `card_of_name` reads them (a copy whose name is no `Name` is left out: no
/// record can carry it).
fn copy_ids(units: &Table<UnitCard>, ids: &NameIds<UnitCard>) -> CopyIds {
    let mut out = CopyIds::default();
    for (_, name, _) in units.iter() {
        let Some(id) = Name::new(name).and_then(|n| ids.get(&n)) else { continue };
        let card = &units[id];
        if card.kind != UnitKind::Summon {
            continue;
        }
        for k in 1..=card.copies {
            if let Some(copy) = Name::new(&format!("{name}-{k}")) {
                out.entry(copy).or_insert(id);
            }
        }
    }
    out
}

impl WildAssent {
    /// The catalog this game was built with.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }
    /// The stat blocks of the mode being played.
    pub(crate) fn units(&self) -> &crate::kit::catalog::Table<UnitCard> {
        self.catalog.units(self.params.mode == rules::Mode::Arena)
    }
}

impl Game for WildAssent {
    type State = State;
    type Event = Event;

    fn info() -> GameInfo {
        // 2: the campaign checks Skill unlocks and Equipment discard timing and counts the
        // recorded Resource cards, so verdicts (and the state's stored form) changed.
        // 3: Worker draws are checked from below (three at setup, two at the Markets); "the
        // second Instinct card drawn" counts every card of the Creature turn
        // (`instinct-second-card`); plain Knockback moves only a damaged target
        // (`knockback-plain`, new rule wa.knockback.damaged); Speed overspend is always
        // wa.move.speed-budget; a repeated Unlockable Active Skill use is reported unverified
        // (Cooldown); an Escaped Assent is not slain for Last Man Standing
        // (`last-standing-escape`). Verdicts and the state's stored form (Encounter `draws`, `cooldowns`)
        // changed.
        // 4: Careful Advance's "in range" is within Range by default
        // (`careful-range`, was: able to attack); a line touching only a Full Cover's corner
        // is blocked by default (`los-corner=full-cover`, was `clear`); where a Seeker's or
        // Gladiator's movement ends (Partial Cover, Flying on a miniature or cover) is judged
        // at the first record after its last `move` line, not at each line (State `landing`).
        // 4, later: a standing text waiting for a slain Creature (Rout, Soul Feast) marks nothing
        // before one is slain; a Silvestrem card's text marks findings only while the card is
        // in force; Summons placed at a match's or encounter's setup break wa.summon.enter; a
        // round's Healing dice on one Gladiator are one healing across lines; a Blank die is
        // assigned to nobody (new rule wa.arena.momentum.blank); drafted Equipment is carried;
        // a missing Silvestrem card is one finding; a Worker's extra Scout card is uncertain;
        // interpretations `momentum-unassigned` and `lone-assent-order`. Verdicts and the
        // state's stored form (`momentum_cured`, the deck's `whim` and `texts`, the round's
        // `missed` and `lead`, the camp's `camp_text`) changed.
        // 5 (wafix3): the illustrative catalog's Onslaught is one of Gurantev's Skill cards (not
        // a default Skill; `skills` may state the cards in force in `scope=combat`), each Assent
        // has two default Skills (four invented Active ones), Tidal Wave hits every adjacent
        // miniature (`area adjacent`, allies too), Soul Feast's text is `health:`-scoped (new
        // text scope `health`) and Rout's and Soul Feast's wait for a slain Creature by the
        // catalog's `trigger slain` (no longer by their words); a third Equipment card breaks
        // wa.arena.equip.slot (wa.hunt.equip.one in the Hunt) and the replay goes on; a
        // Skill locked in a campaign never acts through its text. Verdicts and the state's
        // stored form (a miniature's marks: seven scopes; an attack's profile `allies`) changed.
        // 6 (waaudit): a Hunt Summon is a Creature for a `vs creatures` bonus ("Summons are
        // special Creatures"); a Healing Momentum die may go to an Arena Summon ("Heal a
        // Gladiator for 1", interpretation `momentum-summon-heal`). Verdicts changed.
        // 7: consequences the book owes together are accepted in the log's order (order.rs).
        // 8: a card for "the most enemies in melee range" whose Creature can end next to no
        // enemy moves toward the closest one along a shortest path, as any card's Creature that
        // can reach none of its targets (it was let stop anywhere; wa.hunt.target.unreachable);
        // interpretations `target-defense` and `target-hp` name the readings the engine had
        // taken silently (their defaults keep them). Verdicts changed.
        // 9: a miniature climbing out of a Pit may go into an adjacent Pit, and is then in it
        // (interpretation `pit-exit`, default `any-field`: it was refused as Full Cover).
        // Verdicts changed.
        // 9, later: interpretations `instinct-reshuffle` (when an Instinct deck whose cards
        // have all been discarded is made again) and `summon-timing` (whether a Hunt
        // Creature's Summon may activate before its summoner's target) name readings the
        // engine had taken silently; their defaults (`on-draw`, `before-move`) keep them, so
        // no verdict changed.
        // 10: a Flying Creature's Instinct search flies over Pits as over any obstacle (l.76,
        // Example 3), ending in none; it went round them, so a target reachable only over a
        // Pit was ruled out and a path over one refused. An Arena match is judged once the
        // attack being resolved is over on every target (a log's `victory` written before
        // another target's damage breaks the rules); both sides fallen in one attack: a draw,
        // `victory draw` (interpretation `double-fall`). Verdicts changed.
        // 11: an attack already rolled is resolved on every target though its attacker leaves
        // the board during it (a Summon destroyed as its area attack slays its summoner): it
        // was dropped, the later targets' damage never owed. Interpretations `pit-path` (a
        // walking Creature's search goes round a Pit, or takes it as open ground) and
        // `instinct-escaped` (an Escaped Creature's Instinct card is drawn again, or spent)
        // name readings the engine had taken silently; their defaults (`around`, `redraw`)
        // keep them. Verdicts changed.
        // 12: every Creature move is a shortest path to where it stops, place by place.
        // 13: a Careful Advance moving away while in range stops as it arrives: a turn on its
        // last field once in range there is wa.hunt.cmove.careful, as after its stop (it was
        // let turn for no more than the place cost); a capture completes once every capturing
        // Seeker has taken its capture action's damage since each last did (interpretation
        // `capture-complete`, default `all-capturers`, Example 13: it completed at the flip
        // that made the tokens enough); a Hunt Summon counts among "all remaining Creatures"
        // with capture tokens, so another card is drawn while one stands (`capture-summons`,
        // default `count`: Summons were left out). Interpretations `status-plain` (an attack's
        // own status on an undamaged target) and `creature-pit-exit` (a Creature's climb out
        // of a Pit) name readings the engine had taken silently; their defaults (`always`,
        // `any-field`) keep them. Verdicts and the state's stored form (a Seeker's
        // `capture_kept`) changed.
        // Rules version 14: the Derelict rule's new Encampment phase (Encampment Actions) no
        // longer begins the moment no two Seekers can Scout: the others may still spend their
        // actions "as they wish" and the log records `derelict` where the players stop
        // (interpretation `derelict-timing`, default `spent`; `at-once` is the old reading).
        // Logs that spent an action after that moment were refused and now pass; the break
        // fixture's omission is now one of a phase whose actions are all spent. A phase that
        // ends by the Derelict rule ends all the same: the Creatures kept beyond the housing are
        // `wa.hunt.encampment.housing` there too (were checked only as Scouting ended a phase).
        // Rules version 15: Workers drawn at the Markets and not hired go back into the Worker
        // deck as the visit ends, as the setup's draw does (interpretation `unhired-workers`,
        // default `deck`; `box` puts them out of the game): they stayed out of the deck until
        // the phase ended, so a second visit in the same phase could neither draw them nor be
        // owed them (a draw of one where the deck held two more was accepted).
        // Rules version 16: a damage one short of the computed one is blamed on the cover rule
        // only when the target has a Partial Cover bonus (its neglect is a damage one more);
        // with no Partial Cover beside the target it is wa.attack.total, not
        // wa.obstacle.partial-defense (a rule id changed, no verdict of clean or not).
        // Rules version 17: with four players, only the players with the fewest Creature
        // activations this round may activate one, whichever team they are on ("each player
        // should activate one Creature before the first player activates a second (players
        // who have no available Creatures are skipped)"): a team whose other player has no
        // Creature left no longer goes again at its turn ahead of the other team's players
        // (it was accepted, and the book's order refused). Campaign: the Seeker's Den adds
        // Resources only once upgraded ("Upgrading the Seeker's Den results in ... more
        // resources"): at level 1 a count above the Threat breaks wa.hunt.resource.drop (it
        // was uncertain after the Den's text); an upgrade, no action, may be made while a
        // Scouting is under way (it broke wa.hunt.camp.order), and one made outside an
        // Encampment phase breaks wa.hunt.camp.upgrade-timing (was wa.hunt.camp.actions).
        // The illustrative catalog's invented Barracks healing and Den Scout cards now rise
        // with every upgrade (rest 1 2 3, scouts 0 1 2), as the book's words say they do.
        // A move whose walk a refused step cut short (past a Pit, off the board) no longer
        // stops the replay when its `-> FIELD` names where the log says it went. A Careful
        // Advance that moves away while in range (or stays) turns, with Speed left, to face
        // its target when that lets it attack (interpretation `careful-retreat-turn`, default
        // `face`; `arrive` is versions 13-16's reading): the turn was wa.hunt.cmove.careful,
        // and stopping without it is now wa.hunt.cmove.face-to-attack. A Summon enters on any
        // free field (interpretation `summon-field`, default `any`: the book names none; it had
        // to be next to its summoner, now the variant `adjacent`). A damage, healing or status
        // recorded where nothing is owed, uncertain after an unverified effect (a Demand's
        // Failure), is applied as played (it was dropped, and the replay left the table). An
        // activation a Pit ended (entered, or climbed out of) owes its `end` under
        // wa.obstacle.pit-stop / wa.obstacle.pit-exit, which acting on after it now cites
        // (it was wa.activation.one-at-a-time).
        // Rules version 18 (Arena): the order is judged as played. A round's first Assent out
        // of turn is one finding, and the Creatures then start with the side whose Assent
        // went second as played (next round with it too); the Creatures alternate from the
        // side that went last (a Creature out of turn was followed by findings against legal
        // play). A `round N+1` while an Assent or Creature has not activated is
        // wa.arena.round.sequence (it was the Hunt's wa.hunt.round.end) and begins as played
        // (the next round was refused). A Whim's moves are its action, unverified and applied
        // (they were wa.activation.own); an obstacle placed out of turn is one
        // wa.arena.place.obstacle-turns finding (it was also two zone findings); without a
        // draft an Assent carries two Equipment cards (interpretation `assent-equipment`,
        // default `two`, rule wa.arena.equip.two). Campaign: a refused Scouting, Scout draw
        // or pick, Markets visit, setup Worker or building choice is one finding and goes on
        // as played (the Season after it was refused record by record); an action after
        // `scout-pick` is one finding.
        // Rules version 19: Campaign: an Encampment action or upgrade recorded at setup after
        // the first `scout-pick` is one finding (wa.hunt.camp.actions / upgrade-timing) and is
        // left, no phase having begun (it was three: Season 1 taken as left out, the action as
        // during the encounter, the `season 1` after it as not due); a Markets' task there is
        // its own one finding (wa.hunt.camp.market-cost); a `build`, `worker-draw` or `hire`
        // there is applied as the setup's (what the pick found missing was its one finding),
        // and a second Scout draw or pick is wa.hunt.setup.first-scout, not played out. A Worker kept at setup or
        // hired at the Markets that was never drawn is one finding (wa.hunt.setup.workers /
        // wa.hunt.market.hire) and is applied as recorded (it was dropped: at setup the pick
        // then reported that no Worker was kept). Arena: who rolls the Momentum dice with four
        // players is interpretation `momentum-4p` (default `team`, the fixed reading so far;
        // `player`: five dice for each player with Gladiators on the board).
        // Also 19 (Hunt audit): a Stunned miniature that moves, acts or passes instead of its
        // `stunned` skip is one wa.status.stun finding and its activation goes on as played
        // (it was also wa.status.expire, wa.activation.one-at-a-time, wa.activation.own,
        // wa.hunt.instinct.sequence, and the replay stopped). A Creature with a capture token
        // whose Instinct card is resolved is one wa.hunt.capture.frozen finding and the card is
        // resolved as played (scope=combat at the card; in an encounter at the first record
        // resolving it before any capture damage, the capture damage then no longer owed). A
        // Creature that overspends its Speed is judged, for its path and stop, up to where its
        // Speed ran out (no wa.hunt.cmove.* beside the Speed finding). After a wrong `target`,
        // a movement or action that is the card's with a target the rules allowed is no second
        // finding. A push into a hazard may record its Bleed before its damage (l.170).
        // `capture-cancel` may be written up to the activation's end (l.310 names no moment);
        // leaving it out is reported at the record that ends the activation (or at a `capture`
        // or the next activation). A Knockback recorded on a target the attack did not damage,
        // after plain Knockback, is wa.knockback.damaged (was wa.knockback.away). A Seeker
        // activating when a Creature's turn was owed is one wa.hunt.round.alternate: the
        // order goes on as played (the owed Creature activation skipped), so the round's end
        // after it is not flagged; a reshuffle recorded while the deck holds cards is made as
        // recorded (one finding, the draw after it passes). Under
        // `momentum-4p=player` the simulator rolls five dice a player.
        // Rules version 20 (audit r4 D6): a consequence the engine made itself at an omission
        // finding (reported as left out and applied) and then recorded late, before the next
        // decision, is the record of what was made: no second finding (it was a second
        // "nothing of the kind is due") and not applied again (after an unverified effect it
        // was "uncertain" and applied twice: a 4-damage hit cost 8, a Gladiator or an Assent
        // fell early and the match ended early or the replay stopped). Also 20 (audit r4 D7):
        // a Careful Advance moving away while in range walks the least Speed that reaches the
        // field where it stops (any facing in range), one rotation to face its target on top
        // under `careful-retreat-turn=face`; a dearer way there (`tb r` for `l`) is
        // wa.hunt.cmove.shortest (it was clean when (field, facing) cost the same either way),
        // and the simulator retreats that way. Also 20 (audit r4 D5): the statuses one attack
        // inflicts on a target may be recorded in any order (`afflict X fatigue` before
        // `afflict X bleed`): both applied, no finding (it was wa.status.bleed-tick, the
        // first applied in place of the second and the second dropped as not due).
        // Rules version 21 (audit r4 O10): `capture-summons` defaults to `skip`. A Summon
        // (no Instinct card, never a capture token, l.272) no longer counts among "all
        // remaining Creatures" (l.63, l.312), so once every Creature left with cards has a
        // token the capturers are assigned 2 once and no card is drawn again, as in Example
        // 13 (l.314); under `count`, now a variant, a standing Summon kept the cards coming
        // until the capturers were injured. A card drawn after that damage is
        // wa.hunt.round.alternate (was clean), one left out is no longer a finding.
        // Rules version 22 (audit r6): one table mistake in the Arena's setup and round and in
        // the campaign's Encampment is one finding, the left-out step made or the records
        // re-synchronised on. Under `placement=simultaneous` the first obstacle line no
        // longer names Player 1 (D14: a legal log was flagged; the first Assent to activate is
        // taken as played). The draft is judged as played: a pick out of turn swaps its
        // phase's turns, a pick left out is one finding and its card may still be laid out
        // (D1, was a finding at every later pick); an obstacle out of turn or left out is one
        // finding, the alternation going on from play, and too few obstacles is reported
        // once (was at every Gladiator). A troupe with its Assent after a Creature is one
        // wa.arena.troupe.order, read Assent first (D15). A Deathmatch `victory` left out is
        // one finding at the record after the fall, the records played on noted as not
        // checked (D2, was wa.activation.one-at-a-time and wa.arena.end.game-over at each);
        // an Arena `end` with the action or `pass` left out is one finding, taken as passed
        // (D13). Campaign: `campaign won` left out after the last Season is one
        // wa.hunt.season.victory naming `survival-end` (D4); a Temple visit short of actions
        // is made as played (D3); a healing with nothing owed is applied as played (D11); a
        // Temple healing left out before `derelict`, a `derelict` left out, an `encampment`
        // left out and a Scout card's pick left out are one finding each, the step made and
        // the encounter played on the drawn card its setup fits (D9, D10: the replay stopped
        // or every later record was a finding). State's stored form changed (`played_on`,
        // the draft's `sides` and `aligns`, the camp's `unpicked`).
        // Rules version 23 (audit r6 D12, D5-D8): a record left out
        // is one finding and the replay goes on from what the book implies. A Seeker's or
        // Gladiator's move or action with no activation open, where its `activate` would
        // have been legal, is one wa.activation.own finding and opens the activation (it
        // was one finding a record, then every later Creature "out of order", or the replay
        // stopped at the roll). A `roll` with no `attack` recorded in the roller's activation
        // is one finding (wa.hunt.instinct.sequence for a Creature, wa.action.one otherwise)
        // and the attack is taken as made on the Creature's target, or on the one enemy a
        // Seeker's or Gladiator's default attack could reach (the replay stopped). A move
        // whose steps lead elsewhere than its `-> FIELD` is one wa.move.directions finding
        // and the miniature is taken there (the replay stopped). A move in a Pit (D5) is one
        // wa.obstacle.pit-exit finding and climbs out as walked, spending the activation; an
        // `exit` not from a Pit does the same: the `end` after either is owed (it was "not
        // due"). A Creature that stops without its owed turn toward its target (D6) is taken
        // as turned: its attack is not also wa.los.arc. A Creature out of the alternation as
        // played but on the book's schedule (D8: two activations swapped) is accepted. A
        // Silvestrem card or Momentum roll reported missing is not a second finding when it
        // is recorded late (D7).
        // Rules version 24 (audit r6, the items left): a Knockback recorded as staying where
        // the rules move the miniature leaves it where the rules put it (Hunt Example 10:
        // knocked into the Pit, its `exit` is no second finding). A move left out whose
        // movement turned the miniature: the later move that contradicts its `-> FIELD` takes
        // the facing the cheapest left-out movement gives (it kept the old one, so each later
        // move was a finding again), also where its steps from the old place left the board.
        // A `summon` with no activation open opens its summoner's (`activate` left out: one
        // wa.activation.own; the replay stopped at the Summon's `activate`). An Arena
        // Momentum roll left out is one finding (wa.arena.round.sequence, or
        // wa.arena.momentum.duration after round 1) and taken as the dice the side uses (was
        // one per assignment and one at the first activation). An obstacle placed after the
        // first Gladiator, reported there, is no second wa.arena.place.obstacle-turns.
        // Two Creature activations swapped in a four-player match are one finding (D8).
        GameInfo { id: "wild-assent", name: "Wild Assent", rulebook: "wild-assent.txt", rules_version: 24 }
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
        let mut r = Readings::new(setup, rules::PARAMS);
        let board = setup.params.get(rules::P_BOARD).map(String::as_str).unwrap_or(rules::DEFAULT_BOARD);
        let params = Params::read(&mut r, board);
        let catalog = Catalog::load(catalog_text).map_err(|e| r.problems(e)).unwrap_or_default();
        let camp_catalog = Arc::new(
            campaign::catalog::Catalog::parse(catalog_text, &catalog)
                .map_err(|e| r.problems(e))
                .unwrap_or_default(),
        );
        let card_standing = combat::card_standing(&catalog, params.mode == rules::Mode::Arena);
        let instinct_ids = Arc::new(NameIds::of(&catalog.instincts));
        let units = catalog.units(params.mode == rules::Mode::Arena);
        let unit_ids = NameIds::of(units);
        let copy_ids = Arc::new(copy_ids(units, &unit_ids));
        let unit_ids = Arc::new(unit_ids);
        let skill_ids = Arc::new(NameIds::of(&catalog.skills));
        let equipment_ids = Arc::new(NameIds::of(&catalog.equipment));
        r.finish(WildAssent {
            setup: Arc::new(setup.clone()),
            catalog,
            params,
            camp_catalog,
            card_standing,
            instinct_ids,
            unit_ids,
            skill_ids,
            equipment_ids,
            copy_ids,
        })
    }
    fn setup(&self) -> &Setup {
        &self.setup
    }
    fn initial_state(&self) -> State {
        State {
            phase: state::Phase::Setup,
            units: Vec::new(),
            obstacles: Vec::new(),
            round: 0,
            act: None,
            outer: None,
            attack: None,
            last_attack: None,
            skill: None,
            capture: None,
            grant: None,
            hunt: state::Encounter::default(),
            outcome: None,
            ended: false,
            unverified: Default::default(),
            momentum: Default::default(),
            momentum_heal: None,
            momentum_cured: 0,
            winner: None,
            draft: Default::default(),
            silvestrem: Default::default(),
            memo: state::Memo::default(),
            camp: self.params.campaign.then(|| Box::new(campaign::Camp::new())),
            troupes: Default::default(),
            arena: Default::default(),
            landing: None,
            made: Default::default(),
            played_on: false,
        }
    }
    fn parse_event(&self, line: &str) -> Result<Event, ParseError> {
        notation::parse_event(line)
    }
    fn step(&self, state: &mut State, event: &Event, findings: &mut Findings) -> Result<(), StepError> {
        if self.params.campaign || matches!(event, Event::Camp(_)) {
            return self.campaign_step(state, event, findings);
        }
        self.step_event(state, event, findings)
    }
    fn next_consequence(&self, state: &State) -> Option<Event> {
        if self.params.campaign {
            return self.campaign_next(state);
        }
        due_loop::next_consequence(self, state)
    }
    fn is_consequence(event: &Event) -> bool {
        event.is_consequence()
    }
    fn board(&self, state: &State) -> String {
        if self.params.campaign {
            // Between encounters there is no board (l.59, l.116-143): the finished
            // encounter's, with its Health before the Encampment's healing, would contradict
            // the Seekers' damage in the header (audit r6 O3).
            if state.camp.as_ref().is_some_and(|c| c.stage == campaign::Stage::Encampment) {
                return self.campaign_header(state) + "(the Encampment phase: no encounter board)\n";
            }
            return self.campaign_header(state) + &self.render_board(state);
        }
        self.render_board(state)
    }
    fn facts(&self, state: &State) -> Vec<(String, String)> {
        let mut facts = self.state_facts(state);
        facts.extend(self.campaign_facts(state));
        facts
    }
    fn simulate(&self, seed: u64, events: usize) -> Option<Vec<Event>> {
        if self.params.campaign {
            return Some(self.random_campaign(seed, events));
        }
        Some(self.random_encounter(seed, events))
    }
}

#[cfg(test)]
mod tests;
