//! The Hunt campaign (`scope=campaign`): one log spanning many encounters. The Encampment's
//! setup (the Barracks and two buildings, the Worker deck, the first Scout choice), then
//! Seasons: an Encounter phase played by the encounter's own rules (the rest of this game's
//! folder, unchanged), then an Encampment phase of five actions per Seeker (the Temple, the
//! Workshop, upgrades, the Markets, Scouting) that Scouting ends; the Derelict rule when no
//! two Seekers can Scout; victory after the last Season's encounter.
//!
//! **Invariant:** the campaign's part of the state ([`Camp`]) is the only thing that lives
//! from one encounter to the next; as a Season begins the encounter's part is the initial
//! state again, and a Seeker placed in it carries the damage the Encampment left it with.
//!
//! One concept per file: [`season`] (what the rules require next: Seasons, the phase's
//! start, Temple healing, the Derelict rule, victory), [`encampment`] (buildings, upgrades,
//! the Temple, the Workshop, housing), [`equipment`] (stored Equipment taken and discarded),
//! [`unlocks`] (Seeker Skills unlocked by buildings), [`market`], [`workers`], [`scouting`],
//! [`view`] (facts and the board's header), [`simulate`].

pub mod catalog;
mod encampment;
mod equipment;
pub mod event;
mod market;
mod scouting;
mod season;
mod simulate;
mod unlocks;
mod view;
mod workers;

#[cfg(test)]
mod tests;

pub use catalog::Building;
pub use event::CampEvent;

use super::cards::{Scout, Skill, UnitCard, UnitKind};
use super::event::Event;
use super::rules;
use super::state::{Outcome, Phase, State};
use super::WildAssent;
use crate::kit::catalog::Id;
use crate::kit::name::Name;
use crate::{Findings, StepError, Violation};
use catalog::Worker;
use serde::{Deserialize, Serialize};

/// Where the campaign is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The Encampment being set up, the first Scout card not yet picked.
    Setup,
    /// A Season's encounter.
    Encounter,
    /// A Season's Encampment phase.
    Encampment,
    Won,
    Lost,
}

/// A building of the Encampment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Built {
    pub building: Building,
    /// The level in effect this phase (0: bought this phase, not usable yet).
    pub level: u8,
    /// The level once the next Encampment phase begins.
    pub next: u8,
    /// Bought or upgraded in this phase.
    pub bought: bool,
    pub upgraded: bool,
}

/// A Seeker as the campaign knows it between encounters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub name: Name,
    pub card: Id<UnitCard>,
    pub damage: i32,
    /// Actions left in this Encampment phase.
    pub actions: u8,
    /// Healed at the Temple this phase.
    pub visited: bool,
}

/// The Markets' visit under way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Visit {
    /// Workers drawn so far in the visit's one hiring attempt.
    pub drawn: u8,
}

/// The campaign's part of the state: what lives from one encounter to the next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Camp {
    pub stage: Stage,
    /// The Season on the token (0 before the first begins).
    pub season: u8,
    pub buildings: Vec<Built>,
    /// Hired Workers, in hiring order.
    pub workers: Vec<Id<Worker>>,
    /// Workers discarded to the box (out of the deck for good).
    pub boxed: Vec<Id<Worker>>,
    /// Workers of the draw under way (at setup, or the Markets' hiring attempt).
    pub drawn: Vec<Id<Worker>>,
    /// The Worker kept at setup.
    pub kept: bool,
    /// Setup `build` records refused because the Encampment already had the building (the
    /// Barracks, or one chosen twice): each took one of the players' two choices, so the
    /// count checked as the setup ends is not reported again for it.
    #[serde(default)]
    pub builds_refused: u8,
    pub gold: u32,
    /// Equipment cards stored in the Encampment.
    pub equipment: Vec<Id<Skill>>,
    /// Stored Equipment taken by a Seeker to the encounter under way.
    pub taken: Vec<Id<Skill>>,
    /// Taken Equipment discarded after use in the encounter under way: (Seeker, card).
    pub spent: Vec<(Name, Id<Skill>)>,
    /// Equipment cards discarded (after use or after an Encounter): out of the Encampment.
    pub discarded: Vec<Id<Skill>>,
    /// Housed Creatures (card, Threat).
    pub creatures: Vec<(Id<UnitCard>, u8)>,
    /// Resource cards, by type (`Resource::index`).
    pub resources: [u16; 6],
    /// The `resources UNIT N` counts recorded in the encounter under way (the cards the
    /// Seekers take home, of the Creature's Resource type, as the encounter is won).
    pub drops: Vec<(Name, u8)>,
    pub seekers: Vec<Member>,
    /// The Scouting under way: Scout cards owed, cards drawn.
    pub scouting: Option<u8>,
    pub scouts: Vec<Id<Scout>>,
    /// The next encounter's Scout card.
    pub pick: Option<Id<Scout>>,
    pub market: Option<Visit>,
    /// Seekers (bits by `seekers` index) whose Barracks healing of this phase is settled.
    pub rested: u8,
    /// A Temple healing owed: the Seeker (index in `seekers`) and the amount.
    pub heal: Option<(u8, i32)>,
    /// Times the Encampment became Derelict.
    pub derelict: u8,
    /// The Seeker's Den's unverified text of this Season's encounter ("more resources when
    /// slaying Creatures"), by its ordinal: a `resources` count above the Threat follows
    /// from it, uncertain.
    pub den_text: Option<u32>,
    /// The last Worker text reported unverified as this Encampment phase began: the Scouting
    /// may draw "more depending on buildings and Workers" (l.143) through it (the buildings'
    /// share is the catalog's `scouts`).
    pub camp_text: Option<u32>,
    /// A Season begun with its Scout card's pick left out (reported there): the cards that
    /// were drawn, one of which the encounter is played on; the first setup record that
    /// tells them apart (a `draw`, a named Creature placed, `begin`) settles it.
    #[serde(default)]
    pub unpicked: Vec<Id<Scout>>,
    /// The `draw` records made on the card taken for now while [`Camp::unpicked`] still
    /// holds others they fit: played again on another card if a named Creature placed shows
    /// that it was the one picked.
    #[serde(default)]
    pub unpicked_draws: Vec<(u8, Name)>,
}

impl Camp {
    pub fn new() -> Camp {
        Camp {
            stage: Stage::Setup,
            season: 0,
            buildings: vec![Built {
                building: Building::Barracks,
                level: 1,
                next: 1,
                bought: false,
                upgraded: false,
            }],
            workers: Vec::new(),
            boxed: Vec::new(),
            drawn: Vec::new(),
            kept: false,
            builds_refused: 0,
            gold: 0,
            equipment: Vec::new(),
            taken: Vec::new(),
            spent: Vec::new(),
            discarded: Vec::new(),
            creatures: Vec::new(),
            resources: [0; 6],
            drops: Vec::new(),
            seekers: Vec::new(),
            scouting: None,
            scouts: Vec::new(),
            pick: None,
            market: None,
            rested: 0,
            heal: None,
            derelict: 0,
            den_text: None,
            camp_text: None,
            unpicked: Vec::new(),
            unpicked_draws: Vec::new(),
        }
    }

    pub fn built(&self, b: Building) -> Option<&Built> {
        self.buildings.iter().find(|x| x.building == b)
    }
    /// The level in effect this phase (0: missing, or not usable yet).
    pub fn level(&self, b: Building) -> u8 {
        self.built(b).map_or(0, |x| x.level)
    }
    pub fn seeker(&self, n: &Name) -> Option<usize> {
        self.seekers.iter().position(|m| m.name == *n)
    }
}

impl Default for Camp {
    fn default() -> Self {
        Camp::new()
    }
}

/// A per-level number of a building in effect (0 when it is not usable).
pub(super) fn at_level(levels: [u8; 3], level: u8) -> u8 {
    match level {
        1..=3 => levels[usize::from(level) - 1],
        _ => 0,
    }
}

impl WildAssent {
    /// The step function of a campaign: the campaign's own events here, the encounter's
    /// passed to the encounter's step function while a Season's encounter is played.
    /// Never inlined into `Game::step`: there it made every encounter's step save and
    /// restore the registers this one needs.
    #[inline(never)]
    pub(crate) fn campaign_step(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        let result = self.campaign_event(s, ev, f);
        // An encounter lost is the campaign lost.
        if let Some(camp) = s.camp.as_deref_mut() {
            if camp.stage == Stage::Encounter && s.ended && s.outcome == Some(Outcome::Lost) {
                camp.stage = Stage::Lost;
            }
        }
        result
    }

    fn campaign_event(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        // A campaign the engine ended itself where the log left out `campaign won` (reported
        // there, once): the records the table played on are noted, not each a finding.
        if s.played_on && s.camp.as_ref().is_some_and(|c| c.stage == Stage::Won) {
            f.unverified.push(format!(
                "`{ev}` is played on after the campaign's end (`campaign won` left out above): not checked"
            ));
            return Ok(());
        }
        let Some(stage) = s.camp.as_ref().map(|c| c.stage) else {
            if matches!(ev, Event::Camp(_)) {
                return Err(StepError::new(format!("`{ev}` belongs to a Hunt campaign (scope=campaign)")));
            }
            return self.step_event(s, ev, f);
        };
        let ours = match ev {
            Event::Camp(_) => true,
            // A healing after the encounter is won is the Encampment phase's: its `encampment`
            // left out is then one finding, reported and made by the campaign's loop.
            Event::Heal { .. } => stage != Stage::Encounter || (s.ended && s.outcome == Some(Outcome::Won)),
            _ => false,
        };
        if !ours {
            if stage != Stage::Encounter {
                self.flush_campaign(s, f)?;
                let now = s.camp.as_ref().map_or(stage, |c| c.stage);
                if now != Stage::Encounter {
                    f.violate(self.outside_encounter(now, ev));
                    return Ok(());
                }
            }
            return self.encounter_event(s, ev, f);
        }
        // The encounter's consequences first: what its log left out is its own finding.
        if stage == Stage::Encounter && s.phase != Phase::Over {
            crate::kit::due::flush(self, s, f)?;
        }
        match ev {
            // A record after the Scouting's pick, before the next Season: the pick ended the
            // Encampment phase (l.143); one finding, and the record is applied as played (the
            // Season it leaves due is still the next record's to begin).
            Event::Camp(c) if !c.is_consequence() && self.after_pick(s) => self.after_pick_decide(s, c, f),
            Event::Camp(c) if !c.is_consequence() => {
                self.flush_campaign(s, f)?;
                self.camp_decide(s, c, f)
            }
            Event::Camp(CampEvent::Derelict) if self.derelict_after_flush(s, f)? => Ok(()),
            Event::Camp(CampEvent::Won) if self.won_chosen(s, f)? => Ok(()),
            // A healing where the `encampment` after the encounter won is owed: it is left out,
            // one finding, and made; the healing is the new phase's (audit r6 D9).
            Event::Heal { .. } if stage == Stage::Encounter => {
                self.encampment_left_out(s, ev, f)?;
                crate::kit::due::check_recorded(&season::Rules(self), s, ev, f)
            }
            // The Barracks healing of a new phase while the players could stop (fewer than
            // two Seekers can Scout): the `derelict` between them is left out, one finding.
            Event::Heal { .. } if stage == Stage::Encampment && self.derelict_left_out(s, ev, f)? => {
                crate::kit::due::check_recorded(&season::Rules(self), s, ev, f)
            }
            _ => crate::kit::due::check_recorded(&season::Rules(self), s, ev, f),
        }
    }

    fn outside_encounter(&self, stage: Stage, ev: &Event) -> Violation {
        match stage {
            Stage::Won => Violation::new(rules::SEASON_VICTORY, format!("the campaign is won: `{ev}` comes after it")),
            Stage::Lost => {
                Violation::new(rules::CAMPAIGN_LOST, format!("the campaign is lost: `{ev}` comes after it"))
            }
            _ => Violation::new(
                rules::SEASON_SEQUENCE,
                format!("`{ev}` belongs to an encounter, and no Season's encounter is under way (a Scout card is picked first)"),
            ),
        }
    }

    /// An encounter's event, with what the campaign adds to it: a Seeker placed carries its
    /// damage (and its Skills' unlocks are reported where the catalog cannot check them), an
    /// Equipment card it takes must be stored in the Encampment, a Skill it uses must be
    /// unlocked, an Equipment card discarded after use is used once, and the Resource cards
    /// of a slain Creature are counted as recorded.
    fn encounter_event(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        if s.camp.as_ref().is_some_and(|c| !c.unpicked.is_empty()) {
            self.settle_unpicked(s, ev, f)?;
        }
        match ev {
            Event::Equip { unit, card } => self.take_equipment(s, unit, card, f),
            Event::Skill { unit, skill, .. } | Event::Attack { unit, with: Some(skill), .. } => {
                self.check_unlocked(s, unit, skill, f);
                self.use_equipment(s, unit, skill, f);
            }
            Event::Resources { unit, n } => {
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.drops.retain(|(u, _)| u != unit);
                    camp.drops.push((*unit, *n));
                }
            }
            _ => {}
        }
        let before = s.units.len();
        self.step_event(s, ev, f)?;
        if let (Event::Place { unit, .. }, true) = (ev, s.units.len() > before) {
            self.report_seeker_unlocks(s, unit, f);
        }
        if let (Event::Place { unit, .. }, Some(camp)) = (ev, s.camp.as_ref()) {
            if s.units.len() > before {
                if let Some(m) = camp.seekers.iter().find(|m| m.name == *unit) {
                    let damage = m.damage;
                    if let Some(u) = s.units.last_mut().filter(|u| u.kind == UnitKind::Seeker) {
                        u.damage = damage;
                        s.units_changed();
                    }
                }
            }
        }
        Ok(())
    }

    /// A Season begun with its Scout card's pick left out ([`Camp::unpicked`]): the drawn
    /// card the setup record `ev` fits is taken as picked (a `draw` of a Threat it owes and
    /// of a Creature it does not name; a Creature it names placed; at `begin`, the first
    /// drawn), so the encounter is checked on it and the one finding stays at the Season.
    fn settle_unpicked(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        let Some(camp) = s.camp.as_deref() else { return Ok(()) };
        let cards = &self.catalog.scouts;
        let creature = |n: &Name| self.unit_ids.get(n);
        let names = |id: Id<Scout>, n: &Name| cards[id].prey.iter().any(|(p, _)| Some(*p) == creature(n));
        let taken = s.hunt.scout;
        match ev {
            // The draws fit the card taken for now, or the first drawn card that owes one.
            Event::Draw { threat, creature: c } => {
                let t = usize::from(*threat).saturating_sub(1);
                let fits = |id: Id<Scout>| cards[id].draw.get(t).is_some_and(|n| *n > 0) && !names(id, c);
                let fitting: Vec<Id<Scout>> = camp.unpicked.iter().copied().filter(|&id| fits(id)).collect();
                let Some(&first) = fitting.first() else { return Ok(()) };
                let keep = match taken {
                    Some(id) if fitting.contains(&id) => id,
                    Some(_) => return Ok(()),
                    None => {
                        self.take_scout(s, first, f)?;
                        first
                    }
                };
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.unpicked.retain(|id| fitting.contains(id));
                    camp.unpicked.retain(|&id| id != keep);
                    camp.unpicked.insert(0, keep);
                    camp.unpicked_draws.push((*threat, *c));
                    if camp.unpicked.len() < 2 {
                        camp.unpicked.clear();
                        camp.unpicked_draws.clear();
                    }
                }
            }
            // A Creature a drawn card names, placed: that card was the one picked.
            Event::Place { unit, .. } => {
                if taken.is_some_and(|id| names(id, unit)) {
                    if let Some(camp) = s.camp.as_deref_mut() {
                        camp.unpicked.clear();
                        camp.unpicked_draws.clear();
                    }
                    return Ok(());
                }
                let Some(id) = camp.unpicked.iter().copied().find(|&id| names(id, unit)) else {
                    return Ok(());
                };
                let draws = camp.unpicked_draws.clone();
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.unpicked.clear();
                    camp.unpicked_draws.clear();
                }
                // The draws made on the card taken for now, played again on this one.
                s.hunt.scout = None;
                s.hunt.owed = [0; 3];
                s.hunt.creatures.clear();
                self.take_scout(s, id, f)?;
                for (threat, creature) in draws {
                    self.step_event(s, &Event::Draw { threat, creature }, &mut Findings::default())?;
                }
            }
            Event::Begin => {
                let first = camp.unpicked.first().copied();
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.unpicked.clear();
                    camp.unpicked_draws.clear();
                }
                if let (None, Some(id)) = (taken, first) {
                    self.take_scout(s, id, f)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The encounter played on Scout card `id` (its `scout` record).
    fn take_scout(&self, s: &mut State, id: Id<Scout>, f: &mut Findings) -> Result<(), StepError> {
        let name = Name::new(self.catalog.scouts.name(id))
            .ok_or_else(|| StepError::new("a Scout card's id is no name"))?;
        self.step_event(s, &Event::Scout { card: name }, f)
    }

    /// The consequences the campaign owes that the log left out.
    pub(super) fn flush_campaign(&self, s: &mut State, f: &mut Findings) -> Result<(), StepError> {
        crate::kit::due::flush(&season::Rules(self), s, f)
    }

    /// The next consequence of a campaign: the encounter's while it owes one, else the
    /// campaign's.
    pub(crate) fn campaign_next(&self, s: &State) -> Option<Event> {
        if s.camp.as_ref().is_some_and(|c| c.stage == Stage::Encounter) {
            if let Some(e) = crate::kit::due::next_consequence(self, s) {
                return Some(e);
            }
        }
        crate::kit::due::next_consequence(&season::Rules(self), s)
    }

    /// Whether a Scouting's pick has ended the Encampment phase, and the next Season (or the
    /// campaign's end) is still to be recorded.
    /// At setup too: the first Scout card picked ends the setup ("Pick one and prepare the
    /// Encounter", l.55), and Season 1 is due.
    fn after_pick(&self, s: &State) -> bool {
        s.camp
            .as_ref()
            .is_some_and(|c| matches!(c.stage, Stage::Encampment | Stage::Setup) && c.pick.is_some())
    }

    /// A decision recorded after the Scouting's pick (l.143: "Scouting ... ends the Encampment
    /// phase"). The draw and pick, the Markets' tasks (no visit outlives a Scouting) and a setup
    /// `build` have their own checks, which say what is wrong with them; an action, an upgrade
    /// or a release is reported once here and applied as played (an action's healing is owed
    /// before the Season, see `season.rs`), so the `season` record that follows is in place.
    fn after_pick_decide(&self, s: &mut State, ev: &CampEvent, f: &mut Findings) -> Result<(), StepError> {
        let rule = match ev {
            CampEvent::Upgrade { .. } => Some(rules::UPGRADE_TIMING),
            CampEvent::Release { .. } => Some(rules::HOUSING),
            CampEvent::Scout { .. }
            | CampEvent::Temple { .. }
            | CampEvent::Craft { .. }
            | CampEvent::Market { .. } => Some(rules::CAMP_ACTIONS),
            _ => None,
        };
        // A second Scouting is not played out: its draw and pick would only repeat the finding.
        // At setup no Encampment phase has begun (the first comes after Season 1's encounter,
        // l.59): an action or upgrade there has no phase to be played in, so it is reported once
        // and left (before rules version 19 the Season was taken as left out, the action then
        // reported as coming during the encounter, and the `season 1` after it as not due).
        let setup = s.camp.as_ref().is_some_and(|c| c.stage == Stage::Setup);
        if setup && rule.is_none() {
            // The setup's own records (a `build`, a Worker drawn or kept) after its pick: what
            // the pick found missing was reported there (`wa.hunt.setup.encampment`,
            // `wa.hunt.setup.workers`, l.55), so each is applied as played, still the setup's,
            // with only its own checks (a third building, a second Worker kept); a second
            // Scout draw or pick is reported once and not played out. Season 1 stays due, so
            // the `season 1` after them is in place (before, Season 1 was taken as left out,
            // the record reported as coming during the encounter, and `season 1` as not due).
            if matches!(ev, CampEvent::ScoutDraw { .. } | CampEvent::ScoutPick { .. }) {
                let card = s.camp.as_ref().and_then(|c| c.pick).map_or("", |id| self.catalog.scouts.name(id));
                f.violate(Violation::new(
                    rules::SETUP_FIRST_SCOUT,
                    format!("`{ev}` comes after `scout-pick {card}`: the setup draws two Scout cards and picks one (l.55)"),
                ));
                return Ok(());
            }
            // A Markets' task has its own check (no visit is under way), one finding.
            return self.camp_decide(s, ev, f);
        }
        let skip = matches!(ev, CampEvent::Scout { .. }) || (setup && rule.is_some());
        if let Some(rule) = rule {
            let card = s.camp.as_ref().and_then(|c| c.pick).map_or("", |id| self.catalog.scouts.name(id));
            let why = if setup {
                "the first Scout card picked ends the setup, and the first Encampment phase follows Season 1's encounter"
            } else {
                "the Scouting ended the Encampment phase"
            };
            f.violate(Violation::new(rule, format!("`{ev}` comes after `scout-pick {card}`: {why}")));
        }
        if skip {
            return Ok(());
        }
        self.camp_decide(s, ev, f)
    }

    fn camp_decide(&self, s: &mut State, ev: &CampEvent, f: &mut Findings) -> Result<(), StepError> {
        let stage = s.camp.as_ref().map_or(Stage::Setup, |c| c.stage);
        if matches!(stage, Stage::Won | Stage::Lost) {
            f.violate(self.outside_encounter(stage, &Event::Camp(ev.clone())));
            return Ok(());
        }
        // An upgrade is no action ("This does not use any Seeker actions"): its own check
        // says when one may be made (`wa.hunt.camp.upgrade-timing`), and a Scouting under way
        // does not hold it up.
        if stage == Stage::Encounter && !matches!(ev, CampEvent::Build { .. } | CampEvent::Upgrade { .. }) {
            f.violate(Violation::new(
                rules::CAMP_ACTIONS,
                format!("`{ev}` belongs to the Encampment phase, and a Season's encounter is under way"),
            ));
            return Ok(());
        }
        // A Scouting under way is finished (its cards drawn and one picked) first.
        let scouting = s.camp.as_ref().is_some_and(|c| c.scouting.is_some() && stage == Stage::Encampment);
        if scouting
            && !matches!(
                ev,
                CampEvent::ScoutDraw { .. } | CampEvent::ScoutPick { .. } | CampEvent::Upgrade { .. }
            )
        {
            f.violate(Violation::new(
                rules::CAMP_ORDER,
                format!("`{ev}` comes while the Scouting is under way: its Scout cards are drawn and one picked first"),
            ));
            return Ok(());
        }
        match *ev {
            CampEvent::Build { building } => self.build(s, building, f),
            CampEvent::WorkerDraw { ref cards } => self.worker_draw(s, cards, f),
            CampEvent::Hire { worker, replacing } => self.hire(s, worker, replacing, f),
            CampEvent::Scout { a, b } => self.go_scouting(s, a, b, f),
            CampEvent::ScoutDraw { ref cards } => self.scout_draw(s, cards, f),
            CampEvent::ScoutPick { card } => self.scout_pick(s, card, f),
            CampEvent::Temple { seeker } => self.temple(s, seeker, f),
            CampEvent::Craft { seeker, card } => self.craft(s, seeker, card, f),
            CampEvent::Upgrade { building } => self.upgrade(s, building, f),
            CampEvent::Market { a, b } => self.market(s, a, b, f),
            CampEvent::Sell { creature } => self.sell(s, creature, f),
            CampEvent::Buy { building } => self.buy(s, building, f),
            CampEvent::Release { creature } => self.release(s, creature, f),
            _ => Err(StepError::new(format!("`{ev}` is a consequence"))),
        }
    }

    /// The campaign's part, for a decision that needs it.
    pub(super) fn camp<'s>(&self, s: &'s mut State) -> Result<&'s mut Camp, StepError> {
        s.camp.as_deref_mut().ok_or_else(|| StepError::new("the campaign's events need `scope=campaign`"))
    }

    /// Whether the phase is the Encampment's, else the finding under `rule`.
    pub(super) fn in_encampment(&self, s: &State, rule: &'static str, ev: &str, f: &mut Findings) -> bool {
        let ok = s.camp.as_ref().is_some_and(|c| c.stage == Stage::Encampment);
        if !ok {
            f.violate(Violation::new(rule, format!("`{ev}` belongs to an Encampment phase")));
        }
        ok
    }

    /// A two-Seeker action (Scouting, the Markets) already reported as not allowed, applied
    /// as the table played it so that the records following it (the draw and the pick, the
    /// Markets' tasks) are checked on their own: each Seeker of the campaign named spends
    /// the actions it has, up to `n` (a Seeker named twice, once).
    pub(super) fn spend_as_played(&self, s: &mut State, a: Name, b: Name, n: u8, f: &mut Findings) {
        let Some(camp) = s.camp.as_deref_mut() else { return };
        for (k, seeker) in [a, b].iter().enumerate() {
            if k == 1 && a == b {
                break;
            }
            if let Some(i) = camp.seeker(seeker) {
                let m = &mut camp.seekers[i];
                m.actions = m.actions.saturating_sub(n);
            }
        }
        // Any other action ends a visit to the Markets, as in `spend`.
        if let Some(v) = camp.market {
            self.short_worker_draw(camp, usize::from(v.drawn), f);
            self.end_worker_draw(camp);
        }
        camp.market = None;
    }

    /// Spend `n` actions of a Seeker (reported under `rule` when it has fewer left).
    pub(super) fn spend(
        &self,
        s: &mut State,
        seeker: &Name,
        n: u8,
        rule: &'static str,
        f: &mut Findings,
    ) -> Option<usize> {
        let camp = s.camp.as_deref_mut()?;
        let Some(i) = camp.seeker(seeker) else {
            f.violate(Violation::new(rule, format!("`{seeker}` is none of the campaign's Seekers")));
            return None;
        };
        let m = &mut camp.seekers[i];
        if m.actions < n {
            f.violate(Violation::new(
                rule,
                format!("{seeker} has {} of its five actions left, and this takes {n}", m.actions),
            ));
            return None;
        }
        m.actions -= n;
        // Any other action ends a visit to the Markets: a hiring draw left short is owed.
        if let Some(v) = camp.market {
            self.short_worker_draw(camp, usize::from(v.drawn), f);
            self.end_worker_draw(camp);
        }
        camp.market = None;
        Some(i)
    }
}
