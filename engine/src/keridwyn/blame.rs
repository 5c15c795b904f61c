//! Naming the most specific rule a wrong consequence breaks, with the kit's counterfactual
//! blame: a recorded number that differs from the derived one is recomputed on copies of
//! the state where one rule's part is undone (Weak not applied, replaced effects left
//! stacking, ...); the first rule whose neglect gives the recorded number is the one the
//! log ignored. Otherwise the broad rule stands.

use super::effect::{Ailment, Effect};
use super::fact::Acting;
use super::rules;
use super::state::{Seat, Source, State, Token};
use super::KeridwynFight;
use crate::kit::blame::first_explaining;

/// A rule whose part in a computation can be undone on a copy of the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ignored {
    Weak,
    Dazzle,
    AccuracyDifficulty,
    Replace,
    WholeFight,
    AttackerBenefit,
    /// A successful Lure's "ignore the Breakable effect for the rest of the round" (l.40).
    Lure,
}

impl Ignored {
    fn rule(self) -> &'static str {
        match self {
            Ignored::Weak => rules::WEAK,
            Ignored::Dazzle => rules::DAZZLE,
            Ignored::AccuracyDifficulty => rules::ACCURACY_DIFFICULTY,
            Ignored::Replace => rules::REPLACE,
            Ignored::WholeFight => rules::WHOLE_FIGHT,
            Ignored::AttackerBenefit => rules::ATTACKER_BENEFIT,
            Ignored::Lure => rules::LURE,
        }
    }
}

/// Candidates for a wrong damage, Block or outcome, most specific first.
pub(crate) const FOR_DAMAGE: &[Ignored] = &[
    Ignored::Weak,
    Ignored::Dazzle,
    Ignored::AccuracyDifficulty,
    Ignored::Replace,
    Ignored::WholeFight,
    Ignored::AttackerBenefit,
    Ignored::Lure,
];
/// (Not worn gear: a Block short by the worn gear's amount is as well explained by any
/// other Block source of that amount, so it stays `kf.damage.block`.)
/// Lure last everywhere: a Breakable effect counted although a Lure succeeded this round
/// (a Block 3 that should be 0) is the Lure rule's, not the broad one's.
pub(crate) const FOR_BLOCK: &[Ignored] =
    &[Ignored::Replace, Ignored::WholeFight, Ignored::AttackerBenefit, Ignored::Lure];
pub(crate) const FOR_OUTCOME: &[Ignored] =
    &[Ignored::Dazzle, Ignored::AttackerBenefit, Ignored::Replace, Ignored::WholeFight, Ignored::Lure];

impl KeridwynFight {
    /// The state as if a log ignored one rule; `None` when that rule plays no part now.
    fn without(&self, s: &State, r: Ignored) -> Option<State> {
        let mut t = s.clone();
        let roller = s.current.as_ref().map(|c| c.who);
        let mut changed = false;
        match r {
            Ignored::Weak | Ignored::Dazzle => {
                let a = if r == Ignored::Weak { Ailment::Weak } else { Ailment::Dazzle };
                if let Some(w) = roller {
                    changed = t.fighter(w).ailment(a) > 0;
                    t.fighter_mut(w).ailments[a.index()] = 0;
                }
            }
            Ignored::AccuracyDifficulty => {
                // Neutralised in place, not removed: a monster's first passive is its Breakable one.
                for f in &mut t.fighters {
                    let all =
                        f.passives.iter_mut().chain(f.effects.iter_mut().flat_map(|o| o.effects.iter_mut()));
                    for e in all {
                        if matches!(e, Effect::AccuracyDifficulty(n)
                            | Effect::AccuracyDifficultyOwn(n)
                            | Effect::AccuracyDifficultyAgainst(n) if *n != 0)
                        {
                            *e = Effect::AccuracyDifficulty(0);
                            changed = true;
                        }
                    }
                }
            }
            Ignored::Replace => {
                for f in &mut t.fighters {
                    changed |= !f.superseded.is_empty();
                    let old = std::mem::take(&mut f.superseded);
                    f.effects.extend(old);
                }
            }
            Ignored::WholeFight => {
                for f in &mut t.fighters {
                    let n = f.effects.len();
                    f.effects.retain(|o| !(o.rounds.is_none() && o.since < s.round));
                    changed |= n != f.effects.len();
                }
            }
            Ignored::AttackerBenefit => {
                for f in &mut t.fighters {
                    let n = f.effects.len();
                    f.effects.retain(|o| !matches!(o.source, Source::SelfBenefit { .. }));
                    changed |= n != f.effects.len();
                }
            }
            Ignored::Lure => {
                // The Breakable passive counts again only where the monster has one.
                changed = s.lured && s.monster().is_some_and(|m| !s.fighter(m).passives.is_empty());
                t.lured = false;
            }
        }
        changed.then_some(t)
    }

    /// The first candidate rule whose neglect gives the recorded value.
    pub(crate) fn blame<T: PartialEq>(
        &self,
        s: &State,
        candidates: &[Ignored],
        recorded: &T,
        value: impl Fn(&State) -> Option<T>,
    ) -> Option<&'static str> {
        first_explaining(s, candidates, recorded, |s, r| self.without(s, r), value).map(Ignored::rule)
    }

    /// The token first on the track under a given turn order.
    fn first_in(&self, track: &[Token], order: &[Seat]) -> Option<Token> {
        let seat = |who: Seat| order.iter().position(|&i| i == who).unwrap_or(usize::MAX);
        let mut t = track.to_vec();
        t.sort_by(|a, b| b.priority.cmp(&a.priority).then(seat(a.who).cmp(&seat(b.who))));
        t.into_iter().next()
    }

    /// Which rule an action taken out of order breaks: the Priority a token should have had
    /// (Slow, the monster's bonus, its second action's -6), the monster's seat on a tie, or
    /// the broad order rule.
    pub(crate) fn order_rule(&self, s: &State, due: &Token, who: Seat, action: Acting) -> &'static str {
        let rec = match action {
            Acting::Token(a) => s.track.iter().find(|t| t.who == who && t.action == a),
            Acting::NoPriority(_) => return rules::NO_PRIORITY,
            Acting::Unknown => None,
        };
        let Some(rec) = rec else { return rules::ORDER };
        let order: Vec<Seat> = self.turn_order(s).collect();
        if rec.priority == due.priority {
            return if self.seating_explains(s, rec) { rules::SEATING } else { rules::ORDER };
        }
        let extra = i32::try_from(self.counted_characters(s).saturating_sub(1)).unwrap_or(0);
        type Adjust<'a> = dyn Fn(&Token) -> i32 + 'a;
        let adjusted: [(&'static str, &Adjust); 3] = [
            (rules::SLOW, &|t: &Token| {
                let slow = s.fighter(t.who).ailment(Ailment::Slow) > 0;
                t.priority + if slow { super::compute::SLOW_PRIORITY } else { 0 }
            }),
            (rules::EXTRA_PRIORITY, &|t: &Token| {
                t.priority - if s.fighter(t.who).is_monster() { extra } else { 0 }
            }),
            (rules::SECOND_ACTION, &|t: &Token| {
                t.priority + if t.second { super::compute::SLOW_PRIORITY } else { 0 }
            }),
        ];
        for (rule, adjust) in adjusted {
            let track: Vec<Token> = s.track.iter().map(|t| Token { priority: adjust(t), ..*t }).collect();
            if track[..] == s.track[..] {
                continue;
            }
            if self.first_in(&track, &order).is_some_and(|t| t.who == rec.who && t.action == rec.action) {
                return rule;
            }
        }
        rules::ORDER
    }

    /// Whether the recorded tie winner would be first with the monster in another seat.
    fn seating_explains(&self, s: &State, rec: &Token) -> bool {
        let Some(m) = s.monster() else { return false };
        let chars: Vec<Seat> = s.seats().filter(|&i| i != m).collect();
        let actual: Vec<Seat> = self.turn_order(s).collect();
        (0..=chars.len()).any(|p| {
            let mut seats = chars.clone();
            seats.insert(p, m);
            let start = s.holder.and_then(|h| seats.iter().position(|&i| i == h)).unwrap_or(0);
            let n = seats.len();
            let order: Vec<Seat> =
                (0..n).map(|k| seats[(start + k) % n]).filter(|&i| !s.fighter(i).defeated).collect();
            order != actual
                && self.first_in(&s.track, &order).is_some_and(|t| t.who == rec.who && t.action == rec.action)
        })
    }
}
