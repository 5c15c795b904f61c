//! Consequences the rulebook owes together, in the order the log states them.
//!
//! The chain (`due.rs`) derives one order for every consequence, which is what
//! `next_consequence` and `verify --derive` write. Where the book owes several at one point
//! and sets no order between them, a log that states another order is as legal, so a record
//! that is one of them is taken as the one owed now (the kit's `Consequences::reorder`,
//! called only when a record is not what the chain put first):
//!
//! - **An area attack's targets.** The book narrates them in no set order (Hunt Example 10:
//!   Berlyne, Zaxos, then Illithena, whatever their places; Arena Example 10: the
//!   Daemonspawn, the Daemonretch, the Exalted Effigy). A target's damage recorded while
//!   another target's is owed brings that target's turn forward; the other targets keep their
//!   order. Each target's own consequences stay together and in order (damage, its statuses,
//!   Knockback, a hazard): Knockback is worked out from the board as it stands, so where one
//!   target lands can depend on who was pushed first, and the engine works it out in the
//!   order the log states.
//! - **The statuses one attack inflicts on a target** (rules version 20, audit r4 D5): the
//!   book lists them on the card and sets no order for assigning them (`afflict X fatigue`
//!   then `afflict X bleed` where the card gives Bleed first). A later one recorded first is
//!   taken now; the one owed keeps its place, and the later one is then no longer owed (a
//!   status held is not inflicted again). Not a Bleed that stacks (`bleed-stack=stack`),
//!   which would be owed a second time at its place.
//! - **The statuses expiring as an activation ends** ("Remove the token at the end of that
//!   target's next activation", each token alike).
//! - **The Seekers hurt by an Instinct card drawn for a Creature they are capturing** (2
//!   damage to each).
//! - **Miniatures leaving together**: the Summons destroyed as their summoner leaves the
//!   board ("if a summoner leaves the board, its Summons are destroyed"), and a slain
//!   Creature's Resources dropped beside them.
//! - **(Arena) the round's Demand judged for each side.**
//!
//! Anything else keeps the chain's order: an interrupt (a miniature at no Health leaves)
//! comes at once, and a target's own consequences follow the card (as a Keridwyn hit's do).

use super::due::{Cause, Due, Fact};
use super::rules::BleedStack;
use super::state::{Stage, State, UnitIx};
use super::Status;
use super::WildAssent;

impl WildAssent {
    /// [`crate::kit::due::Consequences::reorder`] for Wild Assent (see the module doc).
    pub(crate) fn in_log_order(&self, s: &mut State, due: &Due, recorded: &Fact) -> Option<Due> {
        match (due.cause, due.fact, *recorded) {
            (Cause::Attack { at, stage: Stage::Damage, .. }, Fact::Damage(owed, _), Fact::Damage(t, _))
                if t != owed =>
            {
                self.target_first(s, usize::from(at), t)
            }
            (Cause::Plain, Fact::Expire(u, owed), Fact::Expire(v, st)) if u == v && st != owed => {
                let a = s.act.as_ref()?;
                (a.unit == u && self.expiring(s, a) & st.bit() != 0)
                    .then_some(Due { fact: *recorded, ..*due })
            }
            (Cause::CaptureCard(owed), _, Fact::CaptureDamage(seeker, _)) if seeker != owed => {
                let (_, mask) = s.hunt.capture_card?;
                let owes = 1u32.checked_shl(u32::from(seeker)).is_some_and(|bit| mask & bit != 0);
                owes.then_some(Due {
                    fact: Fact::CaptureDamage(seeker, 2),
                    rule: due.rule,
                    cause: Cause::CaptureCard(seeker),
                })
            }
            (
                Cause::Plain,
                Fact::Removed(..) | Fact::Resources(..),
                Fact::Removed(..) | Fact::Resources(..),
            ) if recorded.subject() != due.fact.subject() => self.removal_owed(s, *recorded),
            (Cause::Plain, Fact::Demand(owed, _), Fact::Demand(side, _)) if side != owed => {
                self.demand_for(s, side)
            }
            (Cause::Attack { stage: Stage::Status(k), .. }, Fact::Afflict(t, owed), Fact::Afflict(v, st))
                if t == v && st != owed =>
            {
                self.status_later(s, due, k, t, st)
            }
            _ => None,
        }
    }

    /// The attack's status `st` on `t`, owed after the `k`-th (owed now), recorded first:
    /// taken now, with the stage left before the `k`-th so that it stays owed; `st`, then held,
    /// is not owed again at its place (`affliction`). `None`: the attack owes `t` no such
    /// status later.
    fn status_later(&self, s: &State, due: &Due, k: u8, t: UnitIx, st: Status) -> Option<Due> {
        if st == Status::Bleed && self.params.bleed_stack != BleedStack::Single {
            return None;
        }
        let Cause::Attack { at, after, .. } = due.cause else { return None };
        let a = s.attack.as_ref()?;
        let specials = a.roll?.specials;
        let fx = self.kept_after_damage(s, a, specials);
        let (_, rule) = (usize::from(k) + 1..usize::from(k) + 16)
            .map_while(|j| self.after_status(s, a, fx, specials, j))
            .find(|&(x, _)| x == st)?;
        if self.affliction(s, t, st).map(|(x, _)| x) != Some(st) {
            return None;
        }
        let before = match k.checked_sub(1) {
            Some(j) => Stage::Status(j),
            None => Stage::Damage,
        };
        Some(Due { fact: Fact::Afflict(t, st), rule, cause: Cause::Attack { at, stage: before, after } })
    }

    /// The attack's target `t`, still to be resolved after the target at `at` whose damage
    /// is owed, resolved now: moved to `at` (its line-of-sight flag with it), the targets
    /// between keeping their order. The attack's damage due for it, or `None` (`t` is no
    /// later target on the board, and nothing changes).
    fn target_first(&self, s: &mut State, at: usize, t: super::state::UnitIx) -> Option<Due> {
        if !s.unit(t).on_board() {
            return None;
        }
        let a = s.attack.as_mut()?;
        let later = a.targets.iter().skip(at.checked_add(1)?).position(|&x| x == t)?;
        let j = later.checked_add(at)?.checked_add(1)?;
        if j >= a.back.len() {
            return None;
        }
        let target = a.targets.remove(j);
        a.targets.insert(at, target);
        let back = a.back.remove(j);
        a.back.insert(at, back);
        a.at = u8::try_from(at).ok()?;
        a.stage = Stage::Damage;
        self.attack_due(s)
    }
}
