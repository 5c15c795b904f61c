//! The one consequence loop: what the rules require next is **derived** from the state by
//! an ordered chain of "is X due?" predicates (18xx's `@steps.find(&:active?)`), never kept
//! in a hand-managed queue. A game implements [`Consequences`]; the kit pairs recorded
//! consequences with what is due ([`check_recorded`]), reports what a log left out
//! ([`flush`]), and derives the next consequence ([`next_consequence`]).
//!
//! Labels are resolved once, when an event enters: a recorded consequence becomes a typed
//! *fact* (seats and cards by index) before anything is compared, and a due consequence is
//! written back to notation only when a report or a derived log needs it (shakmaty's
//! San -> Move -> San).
//!
//! **One omission is one finding, under the rule that was broken.** When a recorded fact is
//! not what is due, the loop looks ahead on a copy of the state (a bounded number of dues)
//! for a due it pairs with. Every due passed over on the way is reported once, as left
//! out, under its own rule, and applied; the recorded fact is then judged against the due
//! it pairs with. If nothing ahead pairs with it, it is reported once as not due, and not
//! applied.
//!
//! **Simultaneous consequences in the log's order.** Where the rules owe several
//! consequences at one point and set no order between them, the chain still derives one
//! (what `next_consequence` writes); a record that is another of them is taken as the one
//! owed now ([`Consequences::reorder`]) before anything is reported.

use crate::{Findings, StepError, Violation};

/// How far ahead a recorded consequence is looked for among the dues.
pub const LOOKAHEAD: usize = 256;
/// The most dues [`flush`] reports before a decision (a chain that never settles is a bug
/// in a game; this keeps it from hanging a replay).
pub const FLUSH_LIMIT: usize = 10_000;

/// How a recorded fact relates to a due one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// About the same thing (same kind and subject): any difference is a wrong value.
    Subject,
    /// The same kind of consequence about something else (another target, another fighter).
    Kind,
    /// Unrelated.
    None,
}

/// What a game implements to use the shared consequence loop.
pub trait Consequences {
    type State: Clone;
    /// A consequence the rules owe, with what the game needs to apply it (the cursor of
    /// its agenda it advances).
    type Due: Clone;
    /// A consequence as recorded, labels resolved to typed identities.
    type Fact: Clone + PartialEq;
    /// The game's event (notation): what is recorded, and what a derived log holds.
    type Event: std::fmt::Display;

    /// Resolve a recorded consequence's labels, once (`Err`: it names what is not there).
    fn resolve(&self, s: &Self::State, recorded: &Self::Event) -> Result<Self::Fact, StepError>;
    /// [`Consequences::resolve`], told what is due: most records are the due consequence,
    /// so a game whose labels take a search may look at the due's own subjects first. The
    /// result must be `resolve`'s.
    fn resolve_owed(
        &self,
        s: &Self::State,
        recorded: &Self::Event,
        _due: Option<&Self::Due>,
    ) -> Result<Self::Fact, StepError> {
        self.resolve(s, recorded)
    }

    /// The ordered chain of predicates: the consequence the rules require next, or `None`
    /// when a decision or a random outcome comes next (or the game is over).
    fn due(&self, s: &Self::State) -> Option<Self::Due>;
    /// The fact a due consequence is recorded as.
    fn fact(&self, due: &Self::Due) -> Self::Fact;
    /// How a recorded fact relates to the fact of a due one (they are not equal).
    fn pairing(&self, due: &Self::Fact, recorded: &Self::Fact) -> Pairing;
    /// The rule a due consequence carries out (what leaving it out breaks).
    fn rule(&self, s: &Self::State, due: &Self::Due) -> &'static str;
    /// Apply `played` (the recorded fact, or the due's own) as the due consequence and
    /// move the game on (phase changes that need no record happen here too).
    fn apply(
        &self,
        s: &mut Self::State,
        due: &Self::Due,
        played: &Self::Fact,
        f: &mut Findings,
    ) -> Result<(), StepError>;
    /// Report every way `recorded` (written `event`) differs from `due` (they pair, by
    /// subject or by kind).
    fn compare(
        &self,
        s: &Self::State,
        due: &Self::Due,
        recorded: &Self::Fact,
        event: &Self::Event,
        f: &mut Findings,
    );
    /// Report a recorded fact (written `event`) nothing due pairs with. The state is the
    /// game's to change: a game may apply the fact as played where its finding is uncertain
    /// (an unverified effect may have owed it), so the replay follows the table.
    fn unexpected(&self, s: &mut Self::State, recorded: &Self::Fact, event: &Self::Event, f: &mut Findings);
    /// The event a due consequence is written as (labels only here).
    fn event(&self, s: &Self::State, due: &Self::Due) -> Self::Event;
    /// When `recorded` is not `due` but another consequence owed at this same point, in an
    /// order the rules leave open (an area attack's targets, the statuses expiring together):
    /// rearrange the state's agenda so that it is the one owed now, and return it as due (its
    /// own value, which `recorded` is then judged against). `None` leaves the chain's order.
    /// Called only off the hot path, when a record is not what the chain put first.
    fn reorder(&self, _s: &mut Self::State, _due: &Self::Due, _recorded: &Self::Fact) -> Option<Self::Due> {
        None
    }
    /// The unverified effect (its ordinal) a finding about `due` may follow from; see
    /// `Violation::uncertain`.
    fn uncertain(&self, _s: &Self::State, _due: &Self::Due) -> Option<u32> {
        None
    }
}

/// The finding for a due consequence the log left out.
pub fn left_out<C: Consequences>(game: &C, s: &C::State, due: &C::Due) -> Violation {
    let v = Violation::new(
        game.rule(s, due),
        format!("the log leaves out `{}`, which the rules require here", game.event(s, due)),
    );
    match game.uncertain(s, due) {
        Some(o) => v.uncertain_after(o),
        None => v,
    }
}

/// Judge a recorded consequence and apply it (see the module doc). The hot path, a fact
/// equal to what is due, allocates nothing beyond what resolving its labels needs.
pub fn check_recorded<C: Consequences>(
    game: &C,
    s: &mut C::State,
    event: &C::Event,
    f: &mut Findings,
) -> Result<(), StepError> {
    // What is due first (it reads the state only), so that resolving may start from it.
    let due = game.due(s);
    let recorded = game.resolve_owed(s, event, due.as_ref())?;
    judge_recorded(game, s, event, due, &recorded, f)
}

/// [`check_recorded`] for a caller that has already worked out what is due (`due`, from
/// `game.due(s)` on this state) and resolved the record (`recorded`): a game whose own
/// checks before the shared ones need both derives them once instead of twice.
pub fn judge_recorded<C: Consequences>(
    game: &C,
    s: &mut C::State,
    event: &C::Event,
    due: Option<C::Due>,
    recorded: &C::Fact,
    f: &mut Findings,
) -> Result<(), StepError> {
    let Some(due) = due else {
        game.unexpected(s, recorded, event, f);
        return Ok(());
    };
    let expected = game.fact(&due);
    if expected == *recorded {
        return game.apply(s, &due, recorded, f);
    }
    // Another consequence owed at this point, the rules setting no order between them.
    if let Some(due) = game.reorder(s, &due, recorded) {
        if game.fact(&due) != *recorded {
            game.compare(s, &due, recorded, event, f);
        }
        return game.apply(s, &due, recorded, f);
    }
    let pairing = game.pairing(&expected, recorded);
    if pairing == Pairing::Subject {
        game.compare(s, &due, recorded, event, f);
        return game.apply(s, &due, recorded, f);
    }
    // Look ahead on a copy for the due this fact is about; everything before it was left out.
    let mut ahead = s.clone();
    let mut found = Findings::default();
    let mut next = Some(due.clone());
    for _ in 0..LOOKAHEAD {
        let Some(mut d) = next.take() else { break };
        if let Some(owed) = game.reorder(&mut ahead, &d, recorded) {
            d = owed;
        }
        let fact = game.fact(&d);
        if fact == *recorded || game.pairing(&fact, recorded) == Pairing::Subject {
            if fact != *recorded {
                game.compare(&ahead, &d, recorded, event, &mut found);
            }
            game.apply(&mut ahead, &d, recorded, &mut found)?;
            *s = ahead;
            f.violations.append(&mut found.violations);
            f.unverified.append(&mut found.unverified);
            f.uncertain.append(&mut found.uncertain);
            return Ok(());
        }
        found.violate(left_out(game, &ahead, &d));
        game.apply(&mut ahead, &d, &fact, &mut found)?;
        next = game.due(&ahead);
    }
    // Nothing ahead is about it: the same kind about something else is a wrong subject
    // (another target); anything else is not due at all.
    if pairing == Pairing::Kind {
        game.compare(s, &due, recorded, event, f);
        return game.apply(s, &due, recorded, f);
    }
    game.unexpected(s, recorded, event, f);
    Ok(())
}

/// Before a decision or a random outcome: every consequence still due was left out of the
/// log. Report each once and apply it.
pub fn flush<C: Consequences>(game: &C, s: &mut C::State, f: &mut Findings) -> Result<(), StepError> {
    for _ in 0..FLUSH_LIMIT {
        let Some(due) = game.due(s) else { return Ok(()) };
        f.violate(left_out(game, s, &due));
        let fact = game.fact(&due);
        game.apply(s, &due, &fact, f)?;
    }
    Ok(())
}

/// `Game::next_consequence` for a game on this loop.
pub fn next_consequence<C: Consequences>(game: &C, s: &C::State) -> Option<C::Event> {
    game.due(s).map(|d| game.event(s, &d))
}

#[cfg(test)]
mod tests {
    //! A toy game: a counter that must be announced up to a target, one `tick N` at a time,
    //! then the bells owed rung (`bell K`, in any order: the toy's rules set none), then
    //! `done`. Decisions set the target.
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct S {
        at: u32,
        target: u32,
        /// The bells still owed (bit K: `bell K`).
        bells: u8,
        done: bool,
    }
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Fact {
        Tick(u32),
        Bell(u8),
        Done,
    }
    struct Toy;

    impl Consequences for Toy {
        type State = S;
        type Due = Fact;
        type Fact = Fact;
        type Event = String;
        fn resolve(&self, _: &S, e: &String) -> Result<Fact, StepError> {
            match e.split_once(' ') {
                Some(("tick", n)) => n.parse().map(Fact::Tick).map_err(|_| StepError::new("a number")),
                Some(("bell", k)) => k.parse().map(Fact::Bell).map_err(|_| StepError::new("a number")),
                _ if e == "done" => Ok(Fact::Done),
                _ => Err(StepError::new(format!("not a consequence: {e}"))),
            }
        }
        fn due(&self, s: &S) -> Option<Fact> {
            if s.at < s.target {
                Some(Fact::Tick(s.at + 1))
            } else if s.bells != 0 {
                Some(Fact::Bell(s.bells.trailing_zeros() as u8))
            } else if !s.done && s.target > 0 {
                Some(Fact::Done)
            } else {
                None
            }
        }
        fn fact(&self, d: &Fact) -> Fact {
            *d
        }
        fn reorder(&self, s: &mut S, d: &Fact, recorded: &Fact) -> Option<Fact> {
            match (d, recorded) {
                (Fact::Bell(_), Fact::Bell(k)) if s.bells & 1u8.checked_shl(u32::from(*k))? != 0 => {
                    Some(*recorded)
                }
                _ => None,
            }
        }
        fn pairing(&self, a: &Fact, b: &Fact) -> Pairing {
            match (a, b) {
                (Fact::Tick(_), Fact::Tick(_)) | (Fact::Bell(_), Fact::Bell(_)) => Pairing::Kind,
                _ => Pairing::None,
            }
        }
        fn rule(&self, _: &S, d: &Fact) -> &'static str {
            match d {
                Fact::Tick(_) => "toy.tick",
                Fact::Bell(_) => "toy.bell",
                Fact::Done => "toy.done",
            }
        }
        fn apply(&self, s: &mut S, d: &Fact, played: &Fact, _: &mut Findings) -> Result<(), StepError> {
            match (d, played) {
                (Fact::Tick(_), Fact::Tick(n)) => s.at = *n,
                (Fact::Bell(_), Fact::Bell(k)) => s.bells &= !1u8.checked_shl(u32::from(*k)).unwrap_or(0),
                (Fact::Done, _) => s.done = true,
                _ => {}
            }
            Ok(())
        }
        fn compare(&self, _: &S, d: &Fact, _: &Fact, e: &String, f: &mut Findings) {
            f.violate(Violation::new("toy.tick", format!("{d:?} not `{e}`")));
        }
        fn unexpected(&self, _: &mut S, _: &Fact, e: &String, f: &mut Findings) {
            f.violate(Violation::new("toy.unexpected", e.clone()));
        }
        fn event(&self, _: &S, d: &Fact) -> String {
            match d {
                Fact::Tick(n) => format!("tick {n}"),
                Fact::Bell(k) => format!("bell {k}"),
                Fact::Done => "done".into(),
            }
        }
    }

    fn rules(f: &Findings) -> Vec<&'static str> {
        f.violations.iter().map(|v| v.rule).collect()
    }

    #[test]
    fn one_omission_is_one_finding_under_its_own_rule() {
        let mut s = S { at: 0, target: 3, bells: 0, done: false };
        let mut f = Findings::default();
        check_recorded(&Toy, &mut s, &"tick 1".into(), &mut f).unwrap();
        assert!(f.is_clean());
        // `done` recorded with tick 2 and 3 left out: two findings, then done applies.
        check_recorded(&Toy, &mut s, &"done".into(), &mut f).unwrap();
        assert_eq!(rules(&f), ["toy.tick", "toy.tick"]);
        assert!(f.violations[0].message.contains("`tick 2`"));
        assert_eq!(s, S { at: 3, target: 3, bells: 0, done: true });
        // Nothing due: not due, not applied.
        let mut f = Findings::default();
        check_recorded(&Toy, &mut s, &"tick 9".into(), &mut f).unwrap();
        assert_eq!(rules(&f), ["toy.unexpected"]);
        assert_eq!(s.at, 3);
        assert_eq!(next_consequence(&Toy, &s), None);
    }

    #[test]
    fn a_wrong_value_pairs_and_a_decision_flushes_what_is_owed() {
        let mut s = S { at: 0, target: 2, bells: 0, done: false };
        let mut f = Findings::default();
        check_recorded(&Toy, &mut s, &"tick 5".into(), &mut f).unwrap();
        assert!(check_recorded(&Toy, &mut s, &"roll".into(), &mut f).is_err());
        assert_eq!(rules(&f), ["toy.tick"], "a tick of another number: compared, applied as played");
        assert_eq!(s.at, 5);
        let mut s = S { at: 0, target: 2, bells: 0, done: false };
        assert_eq!(next_consequence(&Toy, &s), Some("tick 1".into()));
        let mut f = Findings::default();
        flush(&Toy, &mut s, &mut f).unwrap();
        assert_eq!(rules(&f), ["toy.tick", "toy.tick", "toy.done"]);
        assert!(s.done);
    }

    #[test]
    fn consequences_owed_together_are_taken_in_the_log_order() {
        // Bells 0, 1 and 2 owed: the chain says 0 first, the log rings 2, 0, 1.
        let mut s = S { at: 0, target: 0, bells: 0b111, done: false };
        let mut f = Findings::default();
        for e in ["bell 2", "bell 0", "bell 1"] {
            check_recorded(&Toy, &mut s, &e.into(), &mut f).unwrap();
        }
        assert!(f.is_clean(), "{:?}", f.violations);
        assert_eq!(s.bells, 0);
        // A bell not owed is not one of them: paired by kind with the one owed, and reported.
        let mut s = S { at: 0, target: 0, bells: 0b001, done: false };
        check_recorded(&Toy, &mut s, &"bell 3".into(), &mut f).unwrap();
        assert_eq!(rules(&f), ["toy.tick"]);
        // In the look-ahead too: a tick left out, then a later bell: one finding, the tick's.
        let mut s = S { at: 0, target: 1, bells: 0b011, done: false };
        let mut f = Findings::default();
        check_recorded(&Toy, &mut s, &"bell 1".into(), &mut f).unwrap();
        assert_eq!(rules(&f), ["toy.tick"]);
        assert_eq!((s.at, s.bells), (1, 0b001));
        assert_eq!(next_consequence(&Toy, &s), Some("bell 0".into()));
    }
}
