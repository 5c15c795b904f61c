//! The Silvestrem's Markets: two Seekers spend 3 actions each; during the visit Creatures
//! are sold (gold = Threat, plus the Creature Pens' bonus), one hiring attempt is made
//! (workers.rs) and buildings are bought (2 gold, level 1, usable from the next phase). The
//! visit lasts until another action is spent or the phase ends.

use super::{at_level, Building, Built, Visit};
use crate::kit::name::Name;
use crate::wild_assent::rules;
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;
use crate::{Findings, StepError, Violation};

/// What a new building costs.
const BUILDING_COST: u32 = 2;

impl WildAssent {
    /// `market A B`: two Seekers, 3 actions each.
    pub(super) fn market(&self, s: &mut State, a: Name, b: Name, f: &mut Findings) -> Result<(), StepError> {
        if !self.in_encampment(s, rules::CAMP_ACTIONS, &format!("market {a} {b}"), f) {
            return Ok(());
        }
        if self.two_seekers(s, a, b, 3, rules::MARKET_COST, "a visit to the Markets", f) {
            self.spend(s, &a, 3, rules::MARKET_COST, f);
            self.spend(s, &b, 3, rules::MARKET_COST, f);
        } else {
            // Reported; the visit is applied as played, so its tasks are checked on their own.
            self.spend_as_played(s, a, b, 3, f);
        }
        self.camp(s)?.market = Some(Visit::default());
        Ok(())
    }

    /// Two distinct Seekers of the campaign with `n` actions left each (else the finding).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn two_seekers(
        &self,
        s: &State,
        a: Name,
        b: Name,
        n: u8,
        rule: &'static str,
        what: &str,
        f: &mut Findings,
    ) -> bool {
        let Some(camp) = s.camp.as_ref() else { return false };
        let why = if a == b {
            Some(format!("{what} takes two Seekers, and `{a}` is named twice"))
        } else {
            [a, b].iter().find_map(|n2| match camp.seeker(n2) {
                None => Some(format!("`{n2}` is none of the campaign's Seekers")),
                Some(i) if camp.seekers[i].actions < n => Some(format!(
                    "{what} takes {n} actions of each Seeker, and {n2} has {} left",
                    camp.seekers[i].actions
                )),
                Some(_) => None,
            })
        };
        match why {
            Some(why) => {
                f.violate(Violation::new(rule, why));
                false
            }
            None => true,
        }
    }

    /// Whether a visit to the Markets is under way (else the finding).
    pub(super) fn at_market(&self, s: &State, ev: &str, f: &mut Findings) -> bool {
        let ok = s.camp.as_ref().is_some_and(|c| c.market.is_some() && c.stage == super::Stage::Encampment);
        if !ok {
            f.violate(Violation::new(
                rules::MARKET_COST,
                format!("`{ev}` is a task of the Markets, and no visit (two Seekers, 3 actions each) is under way"),
            ));
        }
        ok
    }

    /// `sell CREATURE`: a housed Creature for gold.
    pub(super) fn sell(&self, s: &mut State, creature: Name, f: &mut Findings) -> Result<(), StepError> {
        if !self.at_market(s, &format!("sell {creature}"), f) {
            return Ok(());
        }
        let card = self.units().id(creature.as_str());
        let bonus = u32::from(at_level(
            self.camp_catalog.building(Building::Pens).sell,
            s.camp.as_ref().map_or(0, |c| c.level(Building::Pens)),
        ));
        let camp = self.camp(s)?;
        match camp.creatures.iter().position(|(c, _)| Some(*c) == card) {
            Some(i) => {
                let (_, threat) = camp.creatures.remove(i);
                camp.gold += u32::from(threat) + bonus;
            }
            None => f.violate(Violation::new(
                rules::MARKET_SELL,
                format!("no `{creature}` is housed in the Encampment"),
            )),
        }
        Ok(())
    }

    /// `buy B`: a new building, 2 gold, level 1, usable from the next phase.
    pub(super) fn buy(&self, s: &mut State, b: Building, f: &mut Findings) -> Result<(), StepError> {
        if !self.at_market(s, &format!("buy {b}"), f) {
            return Ok(());
        }
        let camp = self.camp(s)?;
        let why = if camp.built(b).is_some() {
            Some(format!("the Encampment already has the {b}"))
        } else if camp.gold < BUILDING_COST {
            Some(format!("a building costs {BUILDING_COST} gold; the Encampment has {}", camp.gold))
        } else {
            None
        };
        if let Some(why) = why {
            f.violate(Violation::new(rules::MARKET_BUY, format!("`buy {b}`: {why}")));
            return Ok(());
        }
        camp.gold -= BUILDING_COST;
        camp.buildings.push(Built { building: b, level: 0, next: 1, bought: true, upgraded: false });
        Ok(())
    }
}
