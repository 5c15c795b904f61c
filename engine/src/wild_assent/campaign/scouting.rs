//! Scouting: two Seekers spend their actions (interpretation `scout-actions`), Scout cards
//! are drawn (two, more with the Seeker's Den) and one is picked, which ends the Encampment
//! phase; the next Season's encounter is played on it. At setup, the first Scouting draws
//! two Threat 1 cards, and the setup's other choices must be made by then.

use super::super::event::Lineup;
use super::{at_level, Building, Stage};
use crate::kit::name::Name;
use crate::wild_assent::rules;
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;
use crate::{Findings, StepError, Violation};

impl WildAssent {
    /// `scouting A B`.
    pub(super) fn go_scouting(
        &self,
        s: &mut State,
        a: Name,
        b: Name,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if !self.in_encampment(s, rules::CAMP_ACTIONS, &format!("scouting {a} {b}"), f) {
            return Ok(());
        }
        let need = self.scout_need();
        if self.two_seekers(s, a, b, need, rules::SCOUT_COST, "Scouting", f) {
            self.spend(s, &a, need, rules::SCOUT_COST, f);
            self.spend(s, &b, need, rules::SCOUT_COST, f);
        } else {
            // Reported; the table went Scouting all the same, and its draw, its pick and the
            // Season after it are checked as played (one finding, not one per record).
            self.spend_as_played(s, a, b, need, f);
        }
        let extra = s.camp.as_ref().map_or(0, |c| {
            at_level(self.camp_catalog.building(Building::Den).scouts, c.level(Building::Den))
        });
        self.camp(s)?.scouting = Some(2 + extra);
        Ok(())
    }

    /// `scout-draw C...`.
    pub(super) fn scout_draw(
        &self,
        s: &mut State,
        cards: &Lineup,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let mut ids = Vec::new();
        for n in cards.iter() {
            ids.push(
                self.catalog
                    .scouts
                    .id(n.as_str())
                    .ok_or_else(|| StepError::new(format!("no Scout card `{n}`")))?,
            );
        }
        let camp = self.camp(s)?;
        let setup = camp.stage == Stage::Setup;
        let rule = if setup { rules::SETUP_FIRST_SCOUT } else { rules::SCOUT_COST };
        let owed = if setup { Some(2) } else { camp.scouting };
        let why = match owed {
            None => Some("Scout cards are drawn when two Seekers go Scouting".to_string()),
            Some(_) if camp.pick.is_some() => Some("a Scout card is already picked".to_string()),
            Some(n) if camp.scouts.len() + ids.len() > usize::from(n) => {
                Some(format!("this Scouting draws {n} cards"))
            }
            Some(_) => ids.iter().find_map(|&id| {
                let name = self.catalog.scouts.name(id);
                if camp.scouts.contains(&id) || ids.iter().filter(|&&x| x == id).count() > 1 {
                    Some(format!("`{name}` is drawn twice"))
                } else if setup && self.catalog.scouts[id].threat != 1 {
                    Some(format!(
                        "`{name}` is a Threat {} card; the first two are Threat 1",
                        self.catalog.scouts[id].threat
                    ))
                } else {
                    None
                }
            }),
        };
        let Some(why) = why else {
            camp.scouts.extend(ids);
            return Ok(());
        };
        // A draw after the pick is not played out (the pick stands).
        if camp.pick.is_some() {
            f.violate(Violation::new(rule, format!("`scout-draw {cards}`: {why}")));
            return Ok(());
        }
        // More cards than the Den gives, while a Worker's text is in use that may give more
        // ("or more depending on buildings and Workers", l.143): uncertain.
        let over = owed.is_some_and(|n| camp.scouts.len() + ids.len() > usize::from(n));
        let unique =
            ids.iter().enumerate().all(|(k, id)| !camp.scouts.contains(id) && !ids[..k].contains(id));
        let v = Violation::new(rule, format!("`scout-draw {cards}`: {why}"));
        match (camp.camp_text, setup, over && unique) {
            (Some(o), false, true) => f.violate(v.uncertain_after(o)),
            _ => f.violate(v),
        }
        // Reported once; the cards are drawn as recorded (a card already drawn, once), so that
        // the pick and the Season after it are checked against them. A draw with no Scouting
        // recorded before it stands for that Scouting (its cards owed as for any).
        for id in ids {
            if !camp.scouts.contains(&id) {
                camp.scouts.push(id);
            }
        }
        if !setup && camp.scouting.is_none() {
            let extra = at_level(self.camp_catalog.building(Building::Den).scouts, camp.level(Building::Den));
            camp.scouting = Some(2 + extra);
        }
        Ok(())
    }

    /// `scout-pick C`: ends the setup, or the Encampment phase.
    pub(super) fn scout_pick(&self, s: &mut State, card: Name, f: &mut Findings) -> Result<(), StepError> {
        let id = self
            .catalog
            .scouts
            .id(card.as_str())
            .ok_or_else(|| StepError::new(format!("no Scout card `{card}`")))?;
        let camp = self.camp(s)?;
        let setup = camp.stage == Stage::Setup;
        let rule = if setup { rules::SETUP_FIRST_SCOUT } else { rules::SCOUT_COST };
        let owed = if setup { Some(2) } else { camp.scouting };
        let why = match owed {
            None => Some("a Scout card is picked when two Seekers go Scouting".to_string()),
            Some(_) if camp.pick.is_some() => Some("a Scout card is already picked".to_string()),
            Some(n) if camp.scouts.len() < usize::from(n) => {
                Some(format!("{n} cards are drawn first, and {} are", camp.scouts.len()))
            }
            Some(_) if !camp.scouts.contains(&id) => Some(format!("`{card}` is not among the cards drawn")),
            Some(_) => None,
        };
        if let Some(why) = why {
            f.violate(Violation::new(rule, format!("`scout-pick {card}`: {why}")));
            // Reported once; the encounter that follows is played on the card as picked
            // (a second pick is not: the first stands).
            if camp.pick.is_some() {
                return Ok(());
            }
        }
        if setup {
            // A building refused as already there took one of the two choices (reported then).
            let chosen = camp.buildings.iter().filter(|b| b.building != Building::Barracks).count();
            if chosen + usize::from(camp.builds_refused) != 2 {
                f.violate(Violation::new(
                    rules::SETUP_ENCAMPMENT,
                    format!(
                        "the Encampment starts with the Barracks and two buildings; {chosen} were chosen"
                    ),
                ));
            }
            if !camp.kept {
                f.violate(Violation::new(rules::SETUP_WORKERS, "no Worker was kept from the setup's three"));
            }
        }
        camp.pick = Some(id);
        camp.scouting = None;
        if !setup {
            self.check_housing(s, f);
        }
        Ok(())
    }
}
