//! Which findings an unverified card text can touch. A `text` line may open with the part of
//! the game it affects (`text activation: Zaxos activates out of turn ...`): `activation`
//! (who activates when), `targeting` (a Creature's choice of target), `movement`, `attack`
//! (what an attack may do and deals), `status`; without one it may touch `any`thing.
//!
//! When such a text is used it is reported unverified and the miniatures it concerns are
//! marked in that scope with its ordinal; a later finding about one of them under a rule of
//! that scope (or of any rule, for `any`) is reported as uncertain after it, not counted. A
//! text about turn order leaves its owner's damage checked, and the reverse.

use super::state::taint::split_text;
use super::state::{State, UnitIx};
use super::WildAssent;
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
