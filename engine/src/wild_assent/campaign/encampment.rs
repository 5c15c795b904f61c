//! The Encampment's buildings and what is done at them: the two buildings chosen at setup,
//! upgrades (gold, no action, in effect from the next Encampment phase), healing at the
//! Temple of Vil, crafting at the Workshop (its recipe's Resources found by type in the
//! Encampment's pool and discarded), and the housing of captured Creatures (the Barracks'
//! one, the Creature Pens' by level).

use super::{at_level, Building, Built, Stage};
use crate::kit::name::Name;
use crate::wild_assent::rules::{self, TempleVisitors};
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;
use crate::{Findings, StepError, Violation};

impl WildAssent {
    /// `build B`: at setup, a building of the players' choice at level 1.
    pub(super) fn build(&self, s: &mut State, b: Building, f: &mut Findings) -> Result<(), StepError> {
        let camp = self.camp(s)?;
        let chosen = camp.buildings.iter().filter(|x| x.building != Building::Barracks).count();
        let why = if camp.stage != Stage::Setup {
            Some("buildings are chosen at setup; later ones are bought at the Markets".to_string())
        } else if b == Building::Barracks || camp.built(b).is_some() {
            Some(format!("the Encampment already has the {b}"))
        } else if chosen >= 2 {
            Some("the Encampment starts with the Barracks and two buildings".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            // A building the Encampment has already, chosen at setup: one of the two choices
            // spent on it (the count as the setup ends is not reported again).
            if camp.stage == Stage::Setup
                && chosen < 2
                && (b == Building::Barracks || camp.built(b).is_some())
            {
                camp.builds_refused = camp.builds_refused.saturating_add(1);
            }
            f.violate(Violation::new(rules::SETUP_ENCAMPMENT, format!("`build {b}`: {why}")));
            return Ok(());
        }
        camp.buildings.push(Built { building: b, level: 1, next: 1, bought: false, upgraded: false });
        Ok(())
    }

    /// `upgrade B`: 2 gold to level 2, 3 gold to level 3, no action, in effect next phase.
    pub(super) fn upgrade(&self, s: &mut State, b: Building, f: &mut Findings) -> Result<(), StepError> {
        if !self.in_encampment(s, rules::UPGRADE_TIMING, &format!("upgrade {b}"), f) {
            return Ok(());
        }
        let camp = self.camp(s)?;
        let gold = camp.gold;
        let Some(x) = camp.buildings.iter_mut().find(|x| x.building == b) else {
            f.violate(Violation::new(
                rules::UPGRADE_COST,
                format!("only an existing building is upgraded; there is no {b}"),
            ));
            return Ok(());
        };
        if x.bought || x.upgraded {
            let why = if x.bought {
                "it was bought in this Encampment phase"
            } else {
                "it was upgraded in this phase already"
            };
            f.violate(Violation::new(
                rules::UPGRADE_TIMING,
                format!("the {b} cannot be upgraded now: {why}"),
            ));
            return Ok(());
        }
        let cost = match x.next {
            1 => 2,
            2 => 3,
            _ => {
                f.violate(Violation::new(rules::UPGRADE_COST, format!("the {b} is at level 3, the top")));
                return Ok(());
            }
        };
        if gold < cost {
            f.violate(Violation::new(
                rules::UPGRADE_COST,
                format!(
                    "upgrading the {b} to level {} costs {cost} gold; the Encampment has {gold}",
                    x.next + 1
                ),
            ));
            return Ok(());
        }
        x.next += 1;
        x.upgraded = true;
        camp.gold -= cost;
        Ok(())
    }

    /// `temple SEEKER`: 1 action; the healing (the Temple's level's) is a consequence.
    pub(super) fn temple(&self, s: &mut State, seeker: Name, f: &mut Findings) -> Result<(), StepError> {
        if !self.in_encampment(s, rules::CAMP_ACTIONS, &format!("temple {seeker}"), f) {
            return Ok(());
        }
        let card = self.camp_catalog.building(Building::Temple);
        let camp = self.camp(s)?;
        let level = camp.level(Building::Temple);
        if level == 0 {
            let (rule, why) = match camp.built(Building::Temple) {
                Some(_) => {
                    (rules::MARKET_BUY, "the Temple of Vil was bought in this phase: usable from the next")
                }
                None => (rules::CAMP_HEAL, "the Encampment has no Temple of Vil"),
            };
            f.violate(Violation::new(rule, format!("`temple {seeker}`: {why}")));
            return Ok(());
        }
        let visitors = camp.seekers.iter().filter(|m| m.visited).count();
        let cap = usize::from(at_level(card.visitors, level));
        let again = camp.seeker(&seeker).is_some_and(|i| camp.seekers[i].visited);
        // `temple-visitors`: the Seekers of the phase, or (`at-once`) of one moment, which
        // holds one Seeker's one action (l.118: actions are spent one at a time).
        let limited = self.params.temple_visitors == TempleVisitors::PerPhase;
        if limited && !again && card.visitors != [0; 3] && visitors >= cap {
            f.violate(Violation::new(
                rules::CAMP_HEAL,
                format!("the Temple of Vil at level {level} admits {cap} Seekers in a phase, and {visitors} have healed"),
            ));
            return Ok(());
        }
        // A visit short of actions is reported once and made as the table played it, as a
        // Scouting or a Markets visit is: its healing is then owed (audit r6 D3).
        let i = match self.spend(s, &seeker, 1, rules::CAMP_ACTIONS, f) {
            Some(i) => i,
            None => {
                let Some(i) = self.camp(s)?.seeker(&seeker) else { return Ok(()) };
                self.spend_as_played(s, seeker, seeker, 1, f);
                i
            }
        };
        let camp = self.camp(s)?;
        let m = &mut camp.seekers[i];
        m.visited = true;
        let amount = m.damage.min(i32::from(at_level(card.heal, level)));
        if amount > 0 {
            camp.heal = Some((i as u8, amount));
        }
        Ok(())
    }

    /// `craft SEEKER CARD`: the Workshop, a hired Worker with the recipe (its building
    /// standing), the Resources; 1 action; the card is stored in the Encampment.
    pub(super) fn craft(
        &self,
        s: &mut State,
        seeker: Name,
        card: Name,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if !self.in_encampment(s, rules::CAMP_ACTIONS, &format!("craft {seeker} {card}"), f) {
            return Ok(());
        }
        let eq = self
            .catalog
            .equipment
            .id(card.as_str())
            .ok_or_else(|| StepError::new(format!("no Equipment card `{card}`")))?;
        let camp = self.camp(s)?;
        if camp.level(Building::Workshop) == 0 {
            let (rule, why) = match camp.built(Building::Workshop) {
                Some(_) => (rules::MARKET_BUY, "the Workshop was bought in this phase: usable from the next"),
                None => (rules::CAMP_CRAFT, "the Encampment has no Workshop"),
            };
            f.violate(Violation::new(rule, format!("`craft {seeker} {card}`: {why}")));
            return Ok(());
        }
        let recipes: Vec<(bool, &super::catalog::Recipe)> = camp
            .workers
            .iter()
            .flat_map(|&w| {
                let worker = &self.camp_catalog.workers[w];
                let usable = camp.level(worker.building) > 0;
                worker.recipes.iter().filter(|r| r.equipment == eq).map(move |r| (usable, r))
            })
            .collect();
        let Some(&(_, recipe)) = recipes.iter().find(|(usable, _)| *usable) else {
            let (rule, why) = if recipes.is_empty() {
                (rules::CAMP_CRAFT, "no hired Worker has its Crafting Recipe".to_string())
            } else {
                (rules::WORKER_BUILDING, "the Worker with its recipe lacks its building".to_string())
            };
            f.violate(Violation::new(rule, format!("`craft {seeker} {card}`: {why}")));
            return Ok(());
        };
        if let Some((r, n)) = recipe.needs.iter().find(|(r, n)| camp.resources[r.index()] < u16::from(*n)) {
            f.violate(Violation::new(
                rules::CAMP_CRAFT,
                format!("`{card}` takes {n} {r}, and the Encampment has {}", camp.resources[r.index()]),
            ));
            return Ok(());
        }
        let needs = recipe.needs.clone();
        if self.spend(s, &seeker, 1, rules::CAMP_ACTIONS, f).is_none() {
            return Ok(());
        }
        let camp = self.camp(s)?;
        for (r, n) in needs {
            camp.resources[r.index()] -= u16::from(n);
        }
        camp.equipment.push(eq);
        Ok(())
    }

    /// `release CREATURE`: a housed Creature let go (the surplus the housing cannot hold).
    pub(super) fn release(&self, s: &mut State, creature: Name, f: &mut Findings) -> Result<(), StepError> {
        if !self.in_encampment(s, rules::HOUSING, &format!("release {creature}"), f) {
            return Ok(());
        }
        let card = self.units().id(creature.as_str());
        let camp = self.camp(s)?;
        match camp.creatures.iter().position(|(c, _)| Some(*c) == card) {
            Some(i) => {
                camp.creatures.remove(i);
            }
            None => f.violate(Violation::new(
                rules::HOUSING,
                format!("no `{creature}` is housed in the Encampment"),
            )),
        }
        Ok(())
    }

    /// Creatures the Encampment houses this phase.
    pub(super) fn housing(&self, camp: &super::Camp) -> usize {
        [Building::Barracks, Building::Pens]
            .iter()
            .map(|&b| usize::from(at_level(self.camp_catalog.building(b).housing, camp.level(b))))
            .sum()
    }

    /// As the Encampment phase ends: the housed Creatures fit.
    pub(super) fn check_housing(&self, s: &State, f: &mut Findings) {
        let Some(camp) = s.camp.as_ref() else { return };
        let room = self.housing(camp);
        if camp.creatures.len() > room {
            f.violate(Violation::new(
                rules::HOUSING,
                format!(
                    "the Encampment houses {room} Creatures and keeps {} as the phase ends (sell or release the rest)",
                    camp.creatures.len()
                ),
            ));
        }
    }

    /// As a Season's encounter begins with the Seeker's Den upgraded and in use: its text
    /// about the Resources of slain Creatures (the book: "Upgrading the Seeker's Den results
    /// in ... more resources when slaying Creatures", the amount not printed) is reported
    /// unverified; its ordinal, for the `resources` counts it may raise. None when no Den in
    /// use is above level 1 (a Den not yet upgraded adds nothing, as its Scout cards show:
    /// `scouts` gives level 1 none) or the catalog gives it no text.
    pub(super) fn report_den(
        &self,
        camp: &super::Camp,
        unverified: &mut crate::kit::taint::Unverified,
        f: &mut Findings,
    ) -> Option<u32> {
        if camp.level(Building::Den) < 2 {
            return None;
        }
        let texts = &self.camp_catalog.building(Building::Den).text;
        (!texts.is_empty()).then(|| {
            unverified.report(
                f,
                format!(
                    "seekers-den: \"{}\" (not applied): a slain Creature's Resources above its Threat are not checked",
                    texts.join(" ")
                ),
            )
        })
    }

    /// A `resources` count of `recorded` where the Threat gives `due`: when it is more and the
    /// Seeker's Den's unverified text may add the difference, the finding is uncertain.
    pub(crate) fn den_resources(&self, s: &State, due: u8, recorded: u8, v: Violation) -> Violation {
        match s.camp.as_ref().and_then(|c| c.den_text) {
            Some(o) if recorded > due && v.uncertain.is_none() => v.uncertain_after(o),
            _ => v,
        }
    }
}
