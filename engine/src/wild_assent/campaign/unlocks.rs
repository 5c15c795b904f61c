//! The Seekers' Skills unlocked by the Encampment's buildings. The book: Seekers have "two
//! default Skills and five Skills that can be unlocked by upgrading your Encampment. Consult
//! the diagram on page 9"; the diagram is not printed. A catalog transcribes it as `unlock
//! SKILL LEVEL` lines on the buildings: a Skill needs every building and level its lines
//! name (at that level or above), and a Skill no line names is a default Skill. A Seeker
//! uses a locked Skill (`skill`, `attack ... with`) only against `wa.hunt.skill.unlock`.
//!
//! **Nothing is passed silently:** a catalog without `unlock` lines leaves every unlock
//! unchecked (reported as each Season's encounter begins); a Seeker none of whose Skills a
//! line names is not covered by the catalog's diagram (reported as it is placed); a locked
//! Skill the encounter applies without a recorded use (Passive, Defensive, Special,
//! Movement) keeps its effects in the encounter (reported as the Seeker is placed); its card
//! text, though, never acts while it is locked (a locked Rout marks nobody), so a locked
//! Skill with no effect but text is not reported.

use super::{Building, Camp};
use crate::kit::catalog::Id;
use crate::kit::name::Name;
use crate::kit::taint::Unverified;
use crate::wild_assent::cards::{Skill, SkillKind, UnitKind};
use crate::wild_assent::rules::{self, UnlockTiming};
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;
use crate::{Findings, Violation};

impl WildAssent {
    /// The level of a building that unlocks Skills in the encounter under way
    /// (interpretation `unlock-timing`): the level in effect, or with `at-once` the level
    /// bought in the last Encampment phase.
    fn unlock_level(&self, camp: &Camp, b: Building) -> u8 {
        match self.params.unlock_timing {
            UnlockTiming::NextPhase => camp.level(b),
            UnlockTiming::AtOnce => camp.built(b).map_or(0, |x| x.next),
        }
    }

    /// The first building a Skill needs above the level the Encampment gives it: (the
    /// building, the level needed, the level it has).
    pub(super) fn locked(&self, camp: &Camp, skill: Id<Skill>) -> Option<(Building, u8, u8)> {
        self.camp_catalog.unlock_needs(skill).find_map(|(b, need)| {
            let have = self.unlock_level(camp, b);
            (have < need).then_some((b, need, have))
        })
    }

    /// Whether a Skill of a Seeker's card is still locked in this campaign's encounter (no
    /// campaign, not a Seeker's own Skill, or the catalog states no unlock for it: not locked).
    /// A locked Skill's text never acts (taint.rs `report_standing`): a locked Rout does not
    /// wait for a slain Creature to mark Zaxos.
    pub(crate) fn skill_locked(&self, s: &State, i: crate::wild_assent::state::UnitIx, k: &Skill) -> bool {
        let Some(camp) = s.camp.as_deref() else { return false };
        let u = s.unit(i);
        if u.kind != UnitKind::Seeker {
            return false;
        }
        self.units()[u.card]
            .skills
            .iter()
            .find(|&&id| std::ptr::eq(&self.catalog.skills[id], k))
            .is_some_and(|&id| self.locked(camp, id).is_some())
    }

    /// `skill SEEKER SKILL` or `attack SEEKER ... with SKILL` in a campaign's encounter: a
    /// Skill of the Seeker's card is unlocked (default Skills always are).
    pub(super) fn check_unlocked(&self, s: &State, unit: &Name, skill: &Name, f: &mut Findings) {
        let (Some(camp), Some(k), Some(i)) =
            (s.camp.as_deref(), self.catalog.skills.id(skill.as_str()), s.find(unit))
        else {
            return;
        };
        let u = s.unit(i);
        if u.kind != UnitKind::Seeker || !self.units()[u.card].skills.contains(&k) {
            return;
        }
        let Some((b, need, have)) = self.locked(camp, k) else { return };
        let why = match camp.built(b) {
            None => format!("the Encampment has no {b}"),
            Some(x) if x.next >= need => format!(
                "the {b} reaches level {need} from the next Encampment phase (interpretation unlock-timing=next-phase)"
            ),
            Some(_) => format!("the {b} is at level {have}"),
        };
        f.violate(Violation::new(
            rules::SKILL_UNLOCK,
            format!("{unit}'s {skill} is unlocked by the {b} at level {need}, and {why}"),
        ));
    }

    /// As a Season's encounter begins: with no `unlock` line in the catalog, which Skills the
    /// Encampment unlocks is not checked; reported, not passed silently.
    pub(super) fn report_unlocks(&self, unverified: &mut Unverified, f: &mut Findings) {
        if self.camp_catalog.states_unlocks() {
            return;
        }
        unverified.report(
            f,
            "Seeker Skills unlocked by the Encampment's buildings (the diagram is not printed, and the catalog \
             has no `unlock` line): the Skills used in this encounter are not checked against the buildings \
             (not applied)"
                .to_string(),
        );
    }

    /// As a Seeker is placed in a campaign's encounter: what its unlocks leave unchecked.
    pub(super) fn report_seeker_unlocks(&self, s: &mut State, unit: &Name, f: &mut Findings) {
        if !self.camp_catalog.states_unlocks() {
            return;
        }
        let Some(camp) = s.camp.as_deref() else { return };
        let Some(u) = s.units.last().filter(|u| u.kind == UnitKind::Seeker && u.name == *unit) else {
            return;
        };
        let skills = &self.units()[u.card].skills;
        let mut texts = Vec::new();
        if !skills.iter().any(|&k| self.camp_catalog.unlock_needs(k).next().is_some()) {
            texts.push(format!(
                "Seeker {unit}: the catalog's `unlock` lines name none of its Skills, so which are default \
                 and which unlocked is not stated; its Skills are not checked against the buildings (not applied)"
            ));
        }
        for &k in skills {
            let kind = self.catalog.skills[k].kind;
            // Only text: nothing of it acts while it is locked (`skill_locked`).
            if matches!(kind, SkillKind::Active | SkillKind::Free)
                || self.catalog.skills[k].effects.effects.is_empty()
            {
                continue;
            }
            if let Some((b, need, _)) = self.locked(camp, k) {
                texts.push(format!(
                    "{unit}'s {} ({kind}) is locked (the {b} at level {need}): the encounter still applies it \
                     without a recorded use (not removed)",
                    self.catalog.skills.name(k)
                ));
            }
        }
        for t in texts {
            s.unverified.report(f, t);
        }
    }
}
