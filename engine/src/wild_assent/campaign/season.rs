//! What the campaign requires next, derived from the state (the kit's consequence loop, as
//! the encounter's due.rs): the first Season once the first Scout card is picked; as an
//! encounter is won, the Encampment phase (or, after the last Season's encounter, victory);
//! in the phase, the Barracks' passive healing, a Temple healing owed, the Derelict rule when
//! no two Seekers can Scout any more; once Scouting picks a card, the next Season.

use super::{at_level, Building, CampEvent, Member, Stage};
use crate::kit::due::{Consequences, Pairing};
use crate::wild_assent::cards::UnitKind;
use crate::wild_assent::event::Event;
use crate::wild_assent::rules::{
    self, DerelictSeason, DerelictTiming, InjuredReturn, ScoutActions, SurvivalEnd,
};
use crate::wild_assent::state::{Outcome, Presence, State};
use crate::wild_assent::WildAssent;
use crate::{Findings, StepError, Violation};

/// The campaign's side of the consequence loop.
pub struct Rules<'g>(pub &'g WildAssent);

/// A campaign consequence as recorded, Seekers by their index in `Camp::seekers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    Season(u8),
    Encampment,
    Heal(u8, i32),
    Derelict,
    Won,
}

/// A consequence the campaign owes (two kinds of healing are recorded alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    Season(u8),
    Encampment,
    /// The Barracks' passive healing as the phase begins.
    Rest(u8, i32),
    /// The Temple's healing after a `temple` action.
    Temple(u8, i32),
    Derelict,
    Won,
}

impl WildAssent {
    /// Actions a Seeker needs left to go Scouting.
    pub(super) fn scout_need(&self) -> u8 {
        match self.params.scout_actions {
            ScoutActions::TwoEach => 2,
            ScoutActions::OneEach => 1,
        }
    }

    /// As the Encampment phase begins: each Seeker's five actions, the upgrades and
    /// purchases of the last phase in effect, nothing visited.
    pub(super) fn start_phase(&self, s: &mut State, f: &mut Findings) {
        let Some(camp) = s.camp.as_deref_mut() else { return };
        for m in &mut camp.seekers {
            m.actions = 5;
            m.visited = false;
        }
        for b in &mut camp.buildings {
            b.level = b.next;
            b.bought = false;
            b.upgraded = false;
        }
        camp.rested = 0;
        camp.market = None;
        camp.scouting = None;
        camp.scouts.clear();
        self.end_worker_draw(camp);
        let mut texts = Vec::new();
        for b in &camp.buildings {
            for t in &self.camp_catalog.building(b.building).text {
                texts.push((false, format!("{}: \"{t}\" (not applied)", b.building)));
            }
        }
        for &w in &camp.workers {
            let worker = &self.camp_catalog.workers[w];
            if camp.buildings.iter().any(|b| b.building == worker.building && b.level > 0) {
                for t in &worker.text {
                    let line = format!("Worker {}: \"{t}\" (not applied)", self.camp_catalog.workers.name(w));
                    texts.push((true, line));
                }
            }
        }
        // A Worker's text may give the Scouting more cards (l.143, "or more depending on
        // buildings and Workers"; the buildings' share is the catalog's `scouts`).
        let mut last = None;
        for (worker, t) in texts {
            let o = s.unverified.report(f, t);
            if worker {
                last = Some(o);
            }
        }
        if let Some(camp) = s.camp.as_deref_mut() {
            camp.camp_text = last;
        }
    }

    /// The Seekers' damage, the captured Creatures and the Resources of the encounter just
    /// won, kept by the campaign.
    fn keep_encounter(&self, s: &mut State) {
        let units = &s.units;
        let Some(camp) = s.camp.as_deref_mut() else { return };
        for u in units {
            match u.kind {
                UnitKind::Seeker => {
                    let health = self.units()[u.card].stats[0].health;
                    // An injured Seeker's Health as it returns is not printed (`injured-return`):
                    // its damage kept, down to 1 Health left, or the injury over.
                    let damage = match self.params.injured_return {
                        InjuredReturn::Full if u.presence == Presence::Injured => 0,
                        _ => u.damage.min(health - 1).max(0),
                    };
                    match camp.seekers.iter_mut().find(|m| m.name == u.name) {
                        Some(m) => m.damage = damage,
                        None => camp.seekers.push(Member {
                            name: u.name,
                            card: u.card,
                            damage,
                            actions: 0,
                            visited: false,
                        }),
                    }
                }
                UnitKind::Creature if u.presence == Presence::Captured => {
                    camp.creatures.push((u.card, u.threat))
                }
                // The Resource cards of the Creature's type: as many as recorded (`resources
                // UNIT N`), else the Threat the rules gave it.
                UnitKind::Creature if u.presence == Presence::Slain && u.dropped => {
                    if let Some(r) = self.units()[u.card].resource {
                        let n = camp.drops.iter().find(|(c, _)| *c == u.name).map_or(u.threat, |&(_, n)| n);
                        camp.resources[r.index()] += u16::from(n);
                    }
                }
                _ => {}
            }
        }
        camp.drops.clear();
        self.discard_after_encounter(camp);
    }

    /// With no two Seekers able to Scout, whether the new phase is owed now (`derelict-timing`):
    /// at once, or (`spent`) only once no Seeker has an action left to spend "as they wish"
    /// and no visit to the Markets is open; before that the players end the phase by
    /// recording `derelict` ([`WildAssent::derelict_chosen`]).
    fn derelict_owed(&self, camp: &super::Camp) -> bool {
        match self.params.derelict_timing {
            DerelictTiming::AtOnce => true,
            DerelictTiming::Spent => camp.market.is_none() && camp.seekers.iter().all(|m| m.actions == 0),
        }
    }

    /// Under `derelict-timing=spent`, a recorded `derelict` the rules do not owe yet: the players
    /// stop spending actions once no two Seekers can Scout (the actions are theirs to spend
    /// "as they wish", not a duty). True when it was taken as such and the new phase begun.
    pub(super) fn derelict_chosen(&self, s: &mut State, f: &mut Findings) -> Result<bool, StepError> {
        let stopping = self.derelict_stopping(s);
        if stopping {
            Consequences::apply(&Rules(self), s, &Due::Derelict, &Fact::Derelict, f)?;
        }
        Ok(stopping)
    }

    /// [`WildAssent::derelict_chosen`] after the consequences owed before it: a Temple
    /// healing the log left out just before `derelict` is one finding (reported and made
    /// here), and the `derelict` is then the players' stop it records (audit r6 D9).
    pub(super) fn derelict_after_flush(&self, s: &mut State, f: &mut Findings) -> Result<bool, StepError> {
        if Consequences::due(&Rules(self), s).is_some() {
            let mut copy = s.clone();
            crate::kit::due::flush(&Rules(self), &mut copy, &mut Findings::default())?;
            if !self.derelict_stopping(&copy) {
                return Ok(false);
            }
            self.flush_campaign(s, f)?;
        }
        self.derelict_chosen(s, f)
    }

    /// A healing `ev` recorded in an Encampment phase where nothing is owed, while the
    /// players could stop (`derelict`): when it is the Barracks healing the new phase owes,
    /// the `derelict` is left out, one finding under wa.hunt.scout.derelict, and made (the
    /// new phase begun); the healing is then judged in it. `true`: reported and made.
    pub(super) fn derelict_left_out(
        &self,
        s: &mut State,
        ev: &Event,
        f: &mut Findings,
    ) -> Result<bool, StepError> {
        let Event::Heal { unit, .. } = ev else { return Ok(false) };
        if !self.derelict_stopping(s) {
            return Ok(false);
        }
        let Some(i) = s.camp.as_ref().and_then(|c| c.seeker(unit)) else { return Ok(false) };
        let mut copy = s.clone();
        Consequences::apply(
            &Rules(self),
            &mut copy,
            &Due::Derelict,
            &Fact::Derelict,
            &mut Findings::default(),
        )?;
        if copy.camp.as_ref().and_then(|c| Rules(self).rest_of(c, i)).is_none() {
            return Ok(false);
        }
        f.violate(Violation::new(
            rules::SCOUT_DERELICT,
            format!(
                "the log leaves out `derelict`: fewer than two Seekers can go Scouting, the players stopped, \
                 and `{ev}` is the new Encampment phase's Barracks healing"
            ),
        ));
        Consequences::apply(&Rules(self), s, &Due::Derelict, &Fact::Derelict, f)?;
        Ok(true)
    }

    /// A record `ev` of the Encampment phase where the `encampment` after the encounter won
    /// is owed: it is left out, one finding under wa.hunt.season.sequence, and made (the
    /// phase begun: the Seekers' damage kept, their actions given).
    pub(super) fn encampment_left_out(
        &self,
        s: &mut State,
        ev: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if Consequences::due(&Rules(self), s) != Some(Due::Encampment) {
            return Ok(());
        }
        f.violate(Violation::new(
            rules::SEASON_SEQUENCE,
            format!("the log leaves out `encampment`: the encounter won begins the Encampment phase, before `{ev}`"),
        ));
        Consequences::apply(&Rules(self), s, &Due::Encampment, &Fact::Encampment, f)
    }

    /// Whether a `derelict` recorded now is the players' stop: under `derelict-timing=spent`,
    /// in an Encampment phase (not the last Season's) with no Scouting under way and nothing
    /// owed, fewer than two Seekers able to Scout.
    fn derelict_stopping(&self, s: &State) -> bool {
        self.params.derelict_timing == DerelictTiming::Spent
            && s.camp.as_ref().is_some_and(|c| {
                c.stage == Stage::Encampment
                    && c.pick.is_none()
                    && c.scouting.is_none()
                    && !self.last_phase(c)
            })
            && self.scouts_able(s) < 2
            && Consequences::due(&Rules(self), s).is_none()
    }

    /// Whether this is the last Season's Encampment phase, played under
    /// `survival-end=encampment`: the campaign is won as it ends.
    pub(super) fn last_phase(&self, camp: &super::Camp) -> bool {
        self.params.survival_end == SurvivalEnd::Encampment
            && camp.stage == Stage::Encampment
            && camp.season >= self.params.seasons
    }

    /// Under `survival-end=encampment`, a recorded `won` the rules do not owe yet in the last
    /// Season's Encampment phase: the players stop spending actions (theirs to spend "as they
    /// wish"), and the phase, the last Season and the campaign end. True when it was taken
    /// as such.
    pub(super) fn won_chosen(&self, s: &mut State, f: &mut Findings) -> Result<bool, StepError> {
        let stopping =
            s.camp.as_ref().is_some_and(|c| self.last_phase(c) && c.pick.is_none() && c.scouting.is_none())
                && Consequences::due(&Rules(self), s).is_none();
        if stopping {
            Consequences::apply(&Rules(self), s, &Due::Won, &Fact::Won, f)?;
        }
        Ok(stopping)
    }

    /// How many Seekers can still go Scouting.
    fn scouts_able(&self, s: &State) -> usize {
        let need = self.scout_need();
        s.camp.as_ref().map_or(0, |c| c.seekers.iter().filter(|m| m.actions >= need).count())
    }
}

impl Rules<'_> {
    /// A `season N` recorded where its Scout card's pick is left out: the Season the pick
    /// would have begun, with Scout cards drawn and none picked (at setup, or in an
    /// Encampment phase's Scouting).
    fn season_unpicked(&self, s: &State, recorded: &Fact) -> Option<u8> {
        let Fact::Season(n) = *recorded else { return None };
        let camp = s.camp.as_ref()?;
        let stage = matches!(camp.stage, Stage::Setup | Stage::Encampment);
        (stage && camp.pick.is_none() && !camp.scouts.is_empty() && n == camp.season.saturating_add(1))
            .then_some(n)
    }

    /// The Barracks' passive healing Seeker `i` is owed as the phase begins, if any.
    fn rest_of(&self, camp: &super::Camp, i: usize) -> Option<Due> {
        let rest =
            at_level(self.0.camp_catalog.building(Building::Barracks).rest, camp.level(Building::Barracks));
        let m = camp.seekers.get(i)?;
        let rested = camp.rested & 1u8.checked_shl(u32::try_from(i).ok()?)? != 0;
        (!rested && rest > 0 && m.damage > 0).then(|| Due::Rest(i as u8, m.damage.min(i32::from(rest))))
    }

    /// The building whose upgrade of this phase a recorded healing uses before it takes
    /// effect: a `temple` action healing the amount of the level bought, where the level in
    /// effect gives another. (The Barracks' passive healing comes as a phase begins, before
    /// any upgrade of it, so only the Temple's can be early.)
    fn early_upgrade(&self, s: &State, due: &Due, recorded: &Fact) -> Option<Building> {
        let camp = s.camp.as_ref()?;
        let (Due::Temple(i, n), Fact::Heal(j, m)) = (*due, *recorded) else { return None };
        let built = camp.built(Building::Temple).filter(|x| x.next > x.level)?;
        let per = self.0.camp_catalog.building(Building::Temple).heal;
        let damage = camp.seekers.get(usize::from(i))?.damage;
        let early = damage.min(i32::from(at_level(per, built.next)));
        (i == j && m != n && m == early).then_some(Building::Temple)
    }
}

impl Consequences for Rules<'_> {
    type State = State;
    type Due = Due;
    type Fact = Fact;
    type Event = Event;

    fn resolve(&self, s: &State, e: &Event) -> Result<Fact, StepError> {
        let camp =
            s.camp.as_ref().ok_or_else(|| StepError::new("the campaign's events need `scope=campaign`"))?;
        Ok(match e {
            Event::Camp(CampEvent::Season { n }) => Fact::Season(*n),
            Event::Camp(CampEvent::Encampment) => Fact::Encampment,
            Event::Camp(CampEvent::Derelict) => Fact::Derelict,
            Event::Camp(CampEvent::Won) => Fact::Won,
            Event::Heal { unit, amount } => {
                let i = camp
                    .seeker(unit)
                    .ok_or_else(|| StepError::new(format!("`{unit}` is none of the campaign's Seekers")))?;
                Fact::Heal(i as u8, *amount)
            }
            _ => return Err(StepError::new(format!("`{e}` is no campaign consequence"))),
        })
    }

    fn due(&self, s: &State) -> Option<Due> {
        let g = self.0;
        let camp = s.camp.as_ref()?;
        match camp.stage {
            Stage::Setup => camp.pick.map(|_| Due::Season(1)),
            Stage::Encounter => match (s.ended, s.outcome) {
                (true, Some(Outcome::Won))
                    if camp.season >= g.params.seasons && g.params.survival_end == SurvivalEnd::Encounter =>
                {
                    Some(Due::Won)
                }
                (true, Some(Outcome::Won)) => Some(Due::Encampment),
                _ => None,
            },
            Stage::Encampment => {
                // Under `derelict-season=counted` a Derelict phase can be the last Season's:
                // with `survival-end=encounter` no encounter is left to lose, so the campaign is
                // won as that phase begins. (Otherwise a phase of the last Season is reached only
                // under `survival-end=encampment`, which plays it.)
                if camp.season >= g.params.seasons && g.params.survival_end == SurvivalEnd::Encounter {
                    return Some(Due::Won);
                }
                let last = g.last_phase(camp);
                if camp.pick.is_some() {
                    // A `temple` recorded after the pick (reported, applied as played) owes its
                    // healing before the phase is over.
                    if let Some((i, n)) = camp.heal {
                        return Some(Due::Temple(i, n));
                    }
                    // A Scouting ends the phase; the last Season's ends the campaign.
                    return Some(if last { Due::Won } else { Due::Season(camp.season.saturating_add(1)) });
                }
                if let Some(d) = (0..camp.seekers.len()).find_map(|i| self.rest_of(camp, i)) {
                    return Some(d);
                }
                if let Some((i, n)) = camp.heal {
                    return Some(Due::Temple(i, n));
                }
                // The last Season's phase ends where the Derelict rule would begin a new one.
                (camp.scouting.is_none() && g.scouts_able(s) < 2 && g.derelict_owed(camp))
                    .then_some(if last { Due::Won } else { Due::Derelict })
            }
            Stage::Won | Stage::Lost => None,
        }
    }

    /// The Barracks heals every wounded Seeker as the phase begins and the book orders none
    /// of them: another Seeker's healing still owed is taken as the one owed now.
    fn reorder(&self, s: &mut State, due: &Due, recorded: &Fact) -> Option<Due> {
        match (*due, *recorded) {
            (Due::Rest(owed, _), Fact::Heal(i, _)) if i != owed => {
                self.rest_of(s.camp.as_ref()?, usize::from(i))
            }
            _ => None,
        }
    }

    fn fact(&self, due: &Due) -> Fact {
        match *due {
            Due::Season(n) => Fact::Season(n),
            Due::Encampment => Fact::Encampment,
            Due::Rest(i, n) | Due::Temple(i, n) => Fact::Heal(i, n),
            Due::Derelict => Fact::Derelict,
            Due::Won => Fact::Won,
        }
    }

    fn pairing(&self, due: &Fact, recorded: &Fact) -> Pairing {
        match (due, recorded) {
            (Fact::Season(_), Fact::Season(_)) => Pairing::Subject,
            (Fact::Heal(a, _), Fact::Heal(b, _)) if a == b => Pairing::Subject,
            (Fact::Heal(..), Fact::Heal(..)) => Pairing::Kind,
            _ => Pairing::None,
        }
    }

    fn rule(&self, _s: &State, due: &Due) -> &'static str {
        match due {
            Due::Season(1) => rules::SETUP_SEASON,
            Due::Season(_) | Due::Encampment => rules::SEASON_SEQUENCE,
            Due::Rest(..) | Due::Temple(..) => rules::CAMP_HEAL,
            Due::Derelict => rules::SCOUT_DERELICT,
            Due::Won => rules::SEASON_VICTORY,
        }
    }

    fn apply(&self, s: &mut State, due: &Due, played: &Fact, f: &mut Findings) -> Result<(), StepError> {
        let g = self.0;
        match *due {
            Due::Season(n) => {
                let Some(mut camp) = s.camp.take() else { return Ok(()) };
                let card = camp.pick.take();
                camp.season = n;
                camp.stage = Stage::Encounter;
                camp.scouting = None;
                camp.scouts.clear();
                // Only the setup's draw can be left here (a visit ends as Scouting spends
                // its actions): its Workers go back into the deck.
                camp.drawn.clear();
                camp.market = None;
                let unverified = s.unverified;
                *s = crate::Game::initial_state(g);
                s.unverified = unverified;
                camp.den_text = g.report_den(&camp, &mut s.unverified, f);
                g.report_unlocks(&mut s.unverified, f);
                s.camp = Some(camp);
                if let Some(card) = card {
                    let name = crate::kit::name::Name::new(g.catalog.scouts.name(card))
                        .ok_or_else(|| StepError::new("a Scout card's id is no name"))?;
                    g.step_event(s, &Event::Scout { card: name }, f)?;
                }
            }
            Due::Encampment => {
                g.keep_encounter(s);
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.stage = Stage::Encampment;
                }
                g.start_phase(s, f);
            }
            Due::Rest(i, _) | Due::Temple(i, _) => {
                let amount = match played {
                    Fact::Heal(_, n) => *n,
                    _ => 0,
                };
                let Some(camp) = s.camp.as_deref_mut() else { return Ok(()) };
                if matches!(due, Due::Rest(..)) {
                    camp.rested |= 1 << i;
                } else {
                    camp.heal = None;
                }
                // Healing never takes a Seeker above its printed Health.
                let target = match played {
                    Fact::Heal(j, _) => usize::from(*j),
                    _ => usize::from(i),
                };
                if let Some(m) = camp.seekers.get_mut(target) {
                    m.damage = (m.damage - amount.max(0)).max(0);
                }
            }
            Due::Derelict => {
                // The phase ends here too (a new one begins): the housing holds as at a Scouting.
                g.check_housing(s, f);
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.derelict = camp.derelict.saturating_add(1);
                    // `derelict-season=counted`: the new phase is a Season of its own.
                    if g.params.derelict_season == DerelictSeason::Counted {
                        camp.season = camp.season.saturating_add(1);
                    }
                }
                s.unverified.report(
                    f,
                    "Derelict Encampment: its effects are not printed (\"increases the danger to the Encampment\"); \
                     not applied"
                        .to_string(),
                );
                g.start_phase(s, f);
            }
            Due::Won => {
                // The last Season's Encampment phase (`survival-end=encampment`) ends here: the
                // housing holds as at a Scouting.
                // (A Derelict phase won as it begins, `derelict-season=counted`, had its housing
                // checked as the phase before it ended.)
                if s.camp.as_ref().is_some_and(|c| g.last_phase(c)) {
                    g.check_housing(s, f);
                }
                if let Some(camp) = s.camp.as_deref_mut() {
                    camp.stage = Stage::Won;
                }
            }
        }
        Ok(())
    }

    fn compare(&self, s: &State, due: &Due, recorded: &Fact, event: &Event, f: &mut Findings) {
        let expected = self.event(s, due);
        let (rule, why) = match self.early_upgrade(s, due, recorded) {
            Some(b) => (
                rules::UPGRADE_TIMING,
                format!(
                    "`{event}` heals as the {b}'s upgrade of this phase would, and the rules require `{expected}`: \
                     an upgrade takes effect from the next Encampment phase"
                ),
            ),
            None => (self.rule(s, due), format!("`{event}` is recorded where the rules require `{expected}`")),
        };
        f.violate(Violation::new(rule, why).expected_recorded(expected.to_string(), event.to_string()));
    }

    fn unexpected(&self, s: &mut State, recorded: &Fact, event: &Event, f: &mut Findings) {
        let g = self.0;
        // The last Season is over and `campaign won` left out (audit r6 D4): one finding
        // under the victory rule, saying why; the campaign ends there, and the records the
        // table played on after it are noted, not each a finding (`played_on`).
        if !matches!(recorded, Fact::Won) && self.due(s) == Some(Due::Won) {
            let season = s.camp.as_ref().map_or(0, |c| c.season);
            let why = match g.params.survival_end {
                SurvivalEnd::Encounter => {
                    "its encounter won ends the campaign (survival-end=encounter; the variant `encampment` plays its Encampment phase first)"
                }
                SurvivalEnd::Encampment => "its Encampment phase ends the campaign",
            };
            f.violate(Violation::new(
                rules::SEASON_VICTORY,
                format!(
                    "the log leaves out `campaign won`: Season {season} of {} is the last, and {why}; `{event}` plays on",
                    g.params.seasons
                ),
            ));
            let _ = self.apply(s, &Due::Won, &Fact::Won, f);
            s.played_on = true;
            return;
        }
        // A Season begun with its Scout card's pick left out (audit r6 D10): one finding; the
        // Season begins, and the encounter is played on the drawn card its setup fits.
        if let Some(n) = self.season_unpicked(s, recorded) {
            let setup = s.camp.as_ref().is_some_and(|c| c.stage == Stage::Setup);
            let rule = if setup { rules::SETUP_FIRST_SCOUT } else { rules::SCOUT_COST };
            let drawn: Vec<&str> = s
                .camp
                .as_ref()
                .map(|c| c.scouts.iter().map(|&id| g.catalog.scouts.name(id)).collect())
                .unwrap_or_default();
            f.violate(Violation::new(
                rule,
                format!(
                    "the log leaves out the Scout card's pick (`scout-pick CARD`, one of {}) before `{event}`",
                    drawn.join(", ")
                ),
            ));
            if let Some(camp) = s.camp.as_deref_mut() {
                camp.unpicked = camp.scouts.clone();
            }
            if !setup {
                g.check_housing(s, f);
            }
            let _ = self.apply(s, &Due::Season(n), recorded, f);
            return;
        }
        let rule = match recorded {
            Fact::Season(_) | Fact::Encampment => rules::SEASON_SEQUENCE,
            Fact::Heal(..) => rules::CAMP_HEAL,
            Fact::Derelict => rules::SCOUT_DERELICT,
            Fact::Won => rules::SEASON_VICTORY,
        };
        let why = match s.camp.as_ref().map(|c| c.stage) {
            Some(Stage::Won) => "the campaign is already won".to_string(),
            Some(Stage::Lost) => "the campaign is lost".to_string(),
            _ => "nothing of the kind is due here".to_string(),
        };
        f.violate(Violation::new(rule, format!("`{event}` is not due: {why}")));
        // A healing recorded with nothing owed (its `temple` left out or refused) is applied
        // as played, as unverified healing is: the Seeker's damage follows the table, so the
        // next healings and Seasons are not judged from a state the log never had (r6 D11).
        if let (Fact::Heal(i, n), Some(camp)) = (*recorded, s.camp.as_deref_mut()) {
            if camp.stage == Stage::Encampment {
                // The Temple of Vil standing, a healing there implies the visit: its `temple`
                // line left out, the action it took is spent as played, so the Derelict rule
                // and the Scouting after it see the actions the table had.
                let temple = camp.level(Building::Temple) > 0;
                if let Some(m) = camp.seekers.get_mut(usize::from(i)) {
                    m.damage = (m.damage - n.max(0)).max(0);
                    if temple && m.actions > 0 {
                        m.actions -= 1;
                        m.visited = true;
                    }
                }
            }
        }
    }

    fn event(&self, s: &State, due: &Due) -> Event {
        match *due {
            Due::Season(n) => Event::Camp(CampEvent::Season { n }),
            Due::Encampment => Event::Camp(CampEvent::Encampment),
            Due::Derelict => Event::Camp(CampEvent::Derelict),
            Due::Won => Event::Camp(CampEvent::Won),
            Due::Rest(i, amount) | Due::Temple(i, amount) => {
                let unit = s
                    .camp
                    .as_ref()
                    .and_then(|c| c.seekers.get(usize::from(i)))
                    .map_or(crate::kit::name::Name::literal("x"), |m| m.name);
                Event::Heal { unit, amount }
            }
        }
    }
}
