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
//! A standing text (a Passive skill's, an Equipment card's) is reported as it can first
//! act: at `begin`, unless its card waits for an event (the catalog's `trigger` line). One
//! that acts "when a Creature is slain" (`trigger slain`: Rout, Soul Feast) is reported, and
//! its owner marked, each time a Creature is slain while its owner is on the board, never
//! before the first: until then it has changed nothing ([`Trigger`]). A Seeker's Skill still
//! locked in a campaign (its building not yet at the level the catalog's `unlock` line
//! names) is not the Seeker's in that encounter: its text never acts.
//!
//! A Silvestrem card's text touches every miniature, but only while the card is in force:
//! a Whim until the next activation begins (it is resolved at once, l.510), a Demand until
//! it is discarded at its round's end (l.512), an Edict for the rest of the match. Its marks
//! are kept with the deck, not on the miniatures, so that they lapse with the card.
//!
//! The Cooldown of Unlockable Active Skills (its length unprinted) is reported here too: a
//! Seeker's second use of one in an encounter is unverified ([`WildAssent::cooldown`]).

use super::cards::{Silvestrem, Skill, SkillKind, UnitKind};
use super::state::taint::{covers, text_scope, Trigger};
use super::state::{State, UnitIx};
use super::WildAssent;
use crate::kit::catalog::{Id, Table};
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
        let scope = text_scope(text);
        let o = s.unverified.report(f, unverified(who.as_str(), card, text));
        for &u in units {
            if let Some(x) = s.units.get_mut(usize::from(u)) {
                x.taint.mark(scope, o);
            }
        }
    }

    /// Report the standing texts (Passive skills, Equipment not used as an action) of every
    /// miniature on the board whose cards wait for `trigger`, marking their owners: at
    /// `begin` those that act from the start, as a Creature is slain those that wait for it.
    /// A Skill locked in a campaign is left out: its owner does not have it yet.
    pub(crate) fn report_standing(&self, s: &mut State, f: &mut Findings, trigger: Trigger) {
        // Every slain Creature comes here. The skills are walked in `each_skill_id`'s order
        // (its card's, its chosen Skill cards, its Equipment). Almost every miniature has no
        // text waiting for `trigger`: a first walk only asks; when one has, the ids are
        // gathered (a report marks the miniature in the state the walk reads) and reported.
        // With the id in hand a reported skill's name is the catalog's own `&str`, not a
        // search for the card and a copy of its name. A report changes only marks and the
        // unverified list, never a card's skills or a miniature's Equipment.
        for i in s.indices() {
            if !s.unit(i).on_board() {
                continue;
            }
            let mut waits = false;
            self.each_skill_id(s, i, |table, k, _| waits |= waits_for(&table[k], trigger));
            if !waits {
                continue;
            }
            let mut ids: smallvec::SmallVec<[(&Table<Skill>, Id<Skill>, bool); 8]> =
                smallvec::SmallVec::new();
            self.each_skill_id(s, i, |table, k, eq| ids.push((table, k, eq)));
            for (table, k, eq) in ids {
                if waits_for(&table[k], trigger) {
                    self.report_standing_texts(s, f, i, &table[k], table.name(k), eq);
                }
            }
        }
    }

    /// A standing skill `k` (named `name`) waiting for the trigger at hand: its texts
    /// reported when it acts on its own and is not locked ([`WildAssent::report_standing`]).
    #[inline(never)]
    fn report_standing_texts(
        &self,
        s: &mut State,
        f: &mut Findings,
        i: UnitIx,
        k: &Skill,
        name: &str,
        eq: bool,
    ) {
        let acts = (k.kind == SkillKind::Passive
            || (eq && k.attack.is_none() && k.kind != SkillKind::Active))
            && (eq || !self.skill_locked(s, i, k));
        if !acts {
            return;
        }
        let who = s.unit(i).name;
        for t in &k.effects.text {
            self.report_text(s, f, who, name, t, &[i]);
        }
    }

    /// A Silvestrem card's text, reported as the card is drawn; its mark lasts while the card
    /// is in force (`silvestrem_mark`).
    pub(crate) fn report_silvestrem(&self, s: &mut State, f: &mut Findings, card: Id<Silvestrem>) {
        let name = self.catalog.silvestrem.name(card).to_string();
        for t in self.catalog.silvestrem[card].text.clone() {
            let scope = text_scope(&t);
            let o = s.unverified.report(f, unverified("the-arena", &name, &t));
            s.silvestrem.texts.push((card, scope, o));
        }
    }

    /// The last text of a Silvestrem card still in force that may touch a finding under
    /// `rule`.
    fn silvestrem_mark(&self, s: &State, rule: &str) -> Option<u32> {
        let d = &s.silvestrem;
        d.texts
            .iter()
            .filter(|(c, sc, _)| {
                covers(*sc, rule) && (d.edicts.contains(c) || d.demand == Some(*c) || d.whim == Some(*c))
            })
            .map(|t| t.2)
            .max()
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
    /// finding's scope, by an unverified text (its own marks, or a Silvestrem card in force).
    pub(crate) fn taint(&self, s: &State, v: Violation, units: &[Option<UnitIx>]) -> Violation {
        let about_one = units.iter().flatten().next().is_some();
        let o = units
            .iter()
            .flatten()
            .filter_map(|&u| s.units.get(usize::from(u)).and_then(|x| x.taint.for_rule(v.rule)))
            .chain(if about_one { self.silvestrem_mark(s, v.rule) } else { None })
            .max();
        match o {
            Some(o) => v.uncertain_after(o),
            None => v,
        }
    }
}

/// Whether skill `k` has texts waiting for `trigger` (the test [`WildAssent::report_standing`]
/// makes of every skill of every miniature; almost every skill waits for another trigger or
/// has no text).
#[inline(always)]
fn waits_for(k: &Skill, trigger: Trigger) -> bool {
    k.trigger == trigger && !k.effects.text.is_empty()
}
