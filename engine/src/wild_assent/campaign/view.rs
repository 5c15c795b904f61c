//! What `replay --to N` and `diff` show of a campaign: the `camp.*` facts (Season, stage,
//! buildings and levels, Workers, gold, stored Equipment, housed Creatures, Resources, each
//! Seeker's damage and actions left) and a header above the encounter's board.

use super::{Camp, Stage};
use crate::kit::facts::{list_or_dash, Facts};
use crate::wild_assent::cards::Resource;
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;

impl WildAssent {
    fn stage_name(c: &Camp) -> &'static str {
        match c.stage {
            Stage::Setup => "setup",
            Stage::Encounter => "encounter",
            Stage::Encampment => "encampment",
            Stage::Won => "won",
            Stage::Lost => "lost",
        }
    }

    fn buildings_text(c: &Camp) -> Vec<String> {
        c.buildings
            .iter()
            .map(|b| {
                if b.next != b.level {
                    format!("{}:{}->{}", b.building, b.level, b.next)
                } else {
                    format!("{}:{}", b.building, b.level)
                }
            })
            .collect()
    }

    /// The `camp.*` facts of a campaign (none for another scope).
    pub(crate) fn campaign_facts(&self, s: &State) -> Vec<(String, String)> {
        let Some(c) = s.camp.as_deref() else { return Vec::new() };
        let mut f = Facts::new();
        f.put("camp.season", c.season).put("camp.stage", Self::stage_name(c));
        f.put_list("camp.buildings", Self::buildings_text(c));
        f.put_list("camp.workers", c.workers.iter().map(|&w| self.camp_catalog.workers.name(w)));
        f.put("camp.slots", self.slots(c));
        f.put("camp.gold", c.gold);
        f.put_list("camp.equipment", c.equipment.iter().map(|&e| self.catalog.equipment.name(e)));
        f.put_list("camp.discarded", c.discarded.iter().map(|&e| self.catalog.equipment.name(e)));
        f.put_list(
            "camp.creatures",
            c.creatures.iter().map(|&(u, t)| format!("{}:t{t}", self.units().name(u))),
        );
        f.put("camp.housing", self.housing(c));
        f.put_list(
            "camp.resources",
            Resource::ALL
                .iter()
                .filter(|r| c.resources[r.index()] > 0)
                .map(|r| format!("{r}:{}", c.resources[r.index()])),
        );
        f.put("camp.derelict", c.derelict);
        f.put("camp.market", if c.market.is_some() { "open" } else { "-" });
        f.put(
            "camp.scouting",
            match (c.pick, c.scouting) {
                (Some(p), _) => format!("picked {}", self.catalog.scouts.name(p)),
                (None, Some(n)) => format!("drawing {}/{n}", c.scouts.len()),
                (None, None) => "-".to_string(),
            },
        );
        for m in &c.seekers {
            f.put(format!("camp.{}.damage", m.name), m.damage);
            f.put(format!("camp.{}.actions", m.name), m.actions);
        }
        f.into_vec()
    }

    /// The lines above the encounter's board in a campaign.
    pub(crate) fn campaign_header(&self, s: &State) -> String {
        let Some(c) = s.camp.as_deref() else { return String::new() };
        let mut out = format!(
            "Season {} of {} ({}); gold {}; buildings {}\n",
            c.season,
            self.params.seasons,
            Self::stage_name(c),
            c.gold,
            Self::buildings_text(c).join(" ")
        );
        let workers: Vec<&str> = c.workers.iter().map(|&w| self.camp_catalog.workers.name(w)).collect();
        let equipment: Vec<&str> = c.equipment.iter().map(|&e| self.catalog.equipment.name(e)).collect();
        let creatures: Vec<String> =
            c.creatures.iter().map(|&(u, t)| format!("{} t{t}", self.units().name(u))).collect();
        out.push_str(&format!(
            "Workers: {}; Equipment: {}; Creatures: {}\n",
            list_or_dash(workers, ", "),
            list_or_dash(equipment, ", "),
            list_or_dash(creatures, ", ")
        ));
        if c.stage == Stage::Encampment {
            for m in &c.seekers {
                out.push_str(&format!("  {}: damage {}, {} actions left\n", m.name, m.damage, m.actions));
            }
        }
        out
    }
}
