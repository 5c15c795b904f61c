//! Which findings an unverified card text can touch. A `text` line may open with the part of
//! the game it affects (`text activation: Zaxos activates out of turn ...`): `activation`
//! (who activates when), `targeting` (a Creature's choice of target), `movement`, `attack`
//! (what an attack may do and deals), `status`; without one it may touch `any`thing.
//!
//! When such a text is used it is reported unverified and the miniatures it concerns are
//! marked in that scope with its ordinal; a later finding about one of them under a rule of
//! that scope (or of any rule, for `any`) is reported as uncertain after it, not counted. A
//! text about turn order leaves its owner's damage checked, and the reverse.
//!
//! The Cooldown of Unlockable Active Skills (its length unprinted) is reported here too: a
//! Seeker's second use of one in an encounter is unverified ([`WildAssent::cooldown`]).

use super::cards::{Skill, SkillKind, UnitKind};
use super::state::taint::split_text;
use super::state::{State, UnitIx};
use super::WildAssent;
use crate::kit::catalog::Id;
use crate::kit::effect::unverified;
use crate::kit::name::Name;
use crate::{Findings, Violation};

impl WildAssent {
    /// Report a card text as unverified and mark the miniatures it concerns in its scope.
    pub(crate) fn report_text(
        &self,
        s: &mut State,
        f: &mut Findings,
        who: Name,
        card: &str,
        text: &str,
        units: &[UnitIx],
    ) {
        let (scope, _) = split_text(text);
        let o = s.unverified.report(f, unverified(who.as_str(), card, text));
        for &u in units {
            if let Some(x) = s.units.get_mut(usize::from(u)) {
                x.taint.mark(scope, o);
            }
        }
    }

    /// A Seeker uses a Skill (`skill`, `attack ... with`): "Unlockable Active Skills are put
    /// on Cooldown when used", and the Cooldown's length is not printed. A Skill the catalog's
    /// `unlock` lines name (any Skill, when it states no unlock) used again by the same
    /// Seeker in the encounter may still be on Cooldown: that use is reported unverified,
    /// never passed silently. It marks no miniature: what the Skill does is checked as
    /// recorded, and only this use's legality is left open.
    pub(crate) fn cooldown(&self, s: &mut State, f: &mut Findings, u: UnitIx, k: Id<Skill>) {
        if self.params.mode != super::rules::Mode::Hunt
            || s.unit(u).kind != UnitKind::Seeker
            || self.catalog.skills[k].kind != SkillKind::Active
        {
            return;
        }
        let unlockable =
            !self.camp_catalog.states_unlocks() || self.camp_catalog.unlock_needs(k).next().is_some();
        if !unlockable {
            return;
        }
        if s.hunt.cooldowns.contains(&(u, k)) {
            let who = s.unit(u).name;
            let skill = self.catalog.skills.name(k);
            s.unverified.report(
                f,
                format!(
                    "{who}: `{skill}` is an Unlockable Active Skill, put on Cooldown when used, and {who} has used it \
                     in this encounter; the Cooldown's length is not printed, so whether it is over is not checked"
                ),
            );
        } else {
            s.hunt.cooldowns.push((u, k));
        }
    }

    /// Mark a finding uncertain when a miniature it is about may have been changed, in the
    /// finding's scope, by an unverified text.
    pub(crate) fn taint(&self, s: &State, v: Violation, units: &[Option<UnitIx>]) -> Violation {
        let o = units
            .iter()
            .flatten()
            .filter_map(|&u| s.units.get(usize::from(u)).and_then(|x| x.taint.for_rule(v.rule)))
            .max();
        match o {
            Some(o) => v.uncertain_after(o),
            None => v,
        }
    }
}
