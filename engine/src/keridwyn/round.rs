//! The end of a round and of the fight: durations run down as the round ends (ailment
//! ticks are due in due.rs), a defeat removes a fighter's tokens and may end the fight or
//! pass the token, and the fight's end clears every ongoing effect and owes the awards.

use super::effect::Ailment;
use super::rules::{FocusRefresh, RoundDefeats};
use super::state::{HandCard, Phase, Recheck, Seat, State};
use super::KeridwynFight;

impl KeridwynFight {
    /// `end round N`: used cards discarded (the hand returns after Focus), durations
    /// reduced, the next round's reveals.
    pub(crate) fn end_round(&self, s: &mut State) {
        let on_reveal = self.params.focus == FocusRefresh::OnReveal;

        for f in &mut s.fighters {
            if f.focus_played {
                if !on_reveal {
                    // Refilled in place: the hand keeps its allocation round after round.
                    f.hand.clear();
                    f.hand.extend_from_slice(HandCard::ALL);
                    f.discarded.clear();
                } else if let Some(p) = f.discarded.iter().position(|h| *h == HandCard::Focus) {
                    // `on-reveal`: the earlier discards came back as Focus was revealed; Focus
                    // itself, played, is usable again from the next round ("each of which can
                    // only be used once until the player plays Focus", l.29). Kept out, it
                    // could never be played again and the hand would run dry within three
                    // rounds, leaving no legal reveal (l.31 "two cards from their hand").
                    f.discarded.remove(p);
                    f.hand.push(HandCard::Focus);
                }
                f.focus_played = false;
            }
            f.revealed = false;
            f.ticked = 0;

            for o in f.effects.iter_mut().chain(f.superseded.iter_mut()) {
                if let Some(r) = o.rounds.as_mut() {
                    *r = r.saturating_sub(1);
                }
            }
            f.effects.retain(|o| o.rounds != Some(0));
            f.superseded.retain(|o| o.rounds != Some(0));
        }
        // The Breakable passive (an Immunity, maybe) holds again.
        s.cure_check |= s.lured;
        s.lured = false;
        s.done.clear();
        s.filled = 0;
        s.passed = super::state::Hint(false);
        s.action_unknown = false;
        s.monster_rolled = false;
        s.second_rolled = false;
        s.balance = None;
        s.round = s.round.saturating_add(1);
        s.set_phase(Phase::Reveal);
    }

    /// `defeated X`.
    pub(crate) fn defeat(&self, s: &mut State, i: Seat) {
        s.fighter_mut(i).defeated = true;
        s.track.retain(|t| t.who != i);
        if self.ticks_together(s) && self.fight_decided(s) {
            // "reduce the duration of all ongoing effects by 1" (l.33) is one act: the other
            // fighters' ticks of this round still happen, and the fight ends after them
            // (`end-of-round-defeats=together`, `settle_after_ticks`).
            return;
        }
        self.settle(s, i);
    }

    /// Whether the end of round's ticks are under way with some still owed to a living
    /// fighter, and the fighters they defeat fall together (`end-of-round-defeats=together`).
    fn ticks_together(&self, s: &State) -> bool {
        self.params.round_defeats == RoundDefeats::Together
            && matches!(s.phase, Phase::Actions)
            && s.current.is_none()
            && s.track.is_empty()
            && self
                .turn_order(s)
                .any(|j| Ailment::ALL.iter().any(|&a| super::due::tick_due_of(s, j, a).is_some()))
    }

    /// Whether the defeats so far end the fight: the monster, every character, or (between
    /// characters) all but one.
    fn fight_decided(&self, s: &State) -> bool {
        let living = self.characters(s).count();
        match s.monster() {
            Some(m) => s.fighter(m).defeated || living == 0,
            None => living < 2,
        }
    }

    /// A tick applied: when it was the round's last and a defeat earlier in the ticks decided
    /// the fight, the fight ends now (a tick that defeats its own fighter settles it at its
    /// `defeated` instead).
    pub(crate) fn settle_after_ticks(&self, s: &mut State, ticked: Seat) {
        if self.params.round_defeats != RoundDefeats::Together
            || !matches!(s.phase, Phase::Actions)
            || s.fighter(ticked).grit <= 0
            || self.ticks_together(s)
            || !self.fight_decided(s)
        {
            return;
        }
        // The fight is decided, so `settle` ends it whichever fallen fighter it is told of.
        self.settle(s, ticked);
    }

    /// The fight after fighter `i`'s defeat: over (the monster fell, or the characters did),
    /// or on, with the token re-checked when its holder fell.
    fn settle(&self, s: &mut State, i: Seat) {
        let monster = s.monster();
        let (first, second) = {
            let mut living = self.characters(s);
            (living.next(), living.next())
        };
        if monster.is_some_and(|m| s.fighter(m).defeated) {
            // "the character who made the last successful attack attains the monster card"
            // (defeated or not); the others' Fame is due in the award agenda.
            s.winner = s.last_hit.or(first);
            s.awarding = true;
            self.finish(s);
        } else if monster.is_none() && first.is_some() && second.is_none() {
            s.winner = first;
            self.finish(s);
        } else if first.is_none() {
            s.winner = monster;
            self.finish(s);
        } else if s.holder == Some(i) {
            s.recheck = Some(Recheck::Check);
        }
    }

    /// The fight is over: only the awards remain to be recorded.
    fn finish(&self, s: &mut State) {
        // "All ongoing effects end when the fight ends."
        for f in &mut s.fighters {
            f.effects.clear();
            f.superseded.clear();
            f.ailments = [0; 4];
        }
        s.set_phase(Phase::Over);
        s.track.clear();
        s.current = None;
        s.recheck = None;
        s.starting = false;
    }
}
