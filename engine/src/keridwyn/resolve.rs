//! The step function: a decision flushes the consequences the log left out (each one a
//! violation), a recorded consequence is matched against the one the rules expect and
//! applied as played, with expected and recorded side by side when they differ.

use super::event::Event;
use super::explain;
use super::rules;
use super::state::{ActionKind, Phase, State, Step};
use super::KeridwynFight;
use crate::{Findings, StepError, Violation};
use std::mem::discriminant;

impl KeridwynFight {
    pub(crate) fn step_event(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        self.settle(s);
        if ev.is_consequence() {
            self.consequence(s, ev, f)?;
        } else {
            // A reroll or recall belongs to the roll being resolved (one after its first outcome is
            // reported as such, not as consequences left out).
            let between = matches!(ev, Event::Reroll { .. } | Event::Recall { .. })
                && s.current.as_ref().is_some_and(|c| c.rolled);
            // Decisions the rules rule out altogether are reported and ignored before the
            // pending consequences are flushed (they do not show those are missing).
            if let Some(v) = self.needless(s, ev) {
                f.violate(v);
                return Ok(());
            }
            if !between {
                self.flush_missing(s, f)?;
            }
            self.decide(s, ev, f)?;
        }
        self.settle(s);
        Ok(())
    }

    /// A roll for gear that does not attack, or a second monster action with 2 characters
    /// or fewer: there is nothing to decide.
    fn needless(&self, s: &State, ev: &Event) -> Option<Violation> {
        match ev {
            Event::Roll { who, .. } if s.current.is_none() && s.phase != Phase::AwaitRoll => {
                let i = self.resolve(s, who)?;
                let last = s.done.last().filter(|t| t.who == i)?;
                let card = self.catalog.cards.get(&last.card)?;
                (card.kind == super::cards::CardKind::Gear && card.attack.is_none()).then(|| {
                    Violation::new(
                        rules::GEAR_NO_ROLL,
                        format!(
                            "`{}` is gear that does not attack: it needs no roll, `{ev}` is not due",
                            card.id
                        ),
                    )
                })
            }
            Event::MonsterAction { .. }
                if s.characters <= 2
                    && s.monster_rolled
                    && !matches!(s.phase, Phase::MonsterRoll { .. } | Phase::Reveal) =>
            {
                Some(Violation::new(
                    rules::SECOND_ACTION,
                    format!(
                        "with {} character(s) the monster has one action a round; `{ev}` is not due",
                        s.characters
                    ),
                ))
            }
            _ => None,
        }
    }

    /// The rule a consequence of this step checks.
    fn rule_of(&self, s: &State, step: &Step, recorded: Option<&Event>) -> &'static str {
        match step {
            Step::Priority(_) | Step::PriorityCheck if s.holder.is_some_and(|h| s.fighters[h].defeated) => {
                rules::HOLDER_DEFEATED
            }
            Step::Priority(_) | Step::PriorityCheck => rules::PRIORITY_TOKEN,
            Step::Afflict { start: true, .. } | Step::StartEffects => rules::START_EFFECT,
            Step::Afflict { .. } => rules::STACK,
            Step::Cure { .. } => rules::IMMUNITY,
            Step::Act => {
                let next = self.ordered_track(s).into_iter().next();
                match (next, recorded) {
                    (Some(t), Some(Event::Act { who, card }))
                        if s.fighters[t.who].monster
                            && self.resolve(s, who) == Some(t.who)
                            && *card != t.card =>
                    {
                        rules::MONSTER_ACTION
                    }
                    (Some(t), Some(Event::Act { who, card })) => match self.resolve(s, who) {
                        Some(w) => self.order_rule(s, &t, w, card),
                        None => rules::ORDER,
                    },
                    _ => rules::ORDER,
                }
            }
            Step::Outcome { .. } => match s.current.as_ref().map(|c| c.kind) {
                Some(ActionKind::SupportSpell) => rules::WIT_SIX,
                Some(ActionKind::Lure) => rules::LURE,
                _ => rules::DEFENSE,
            },
            Step::Damage { .. } | Step::Effects { .. } => rules::DAMAGE,
            Step::DefeatCheck(_) => rules::DEFEAT,
            Step::Tick { ailment, .. } if *ailment == super::effect::Ailment::Burn => rules::BURN,
            Step::Tick { .. } => rules::DURATION,
            Step::EndRound | Step::EndAction | Step::NextAction => rules::END_ROUND,
            Step::Fame { .. } => rules::FAME_AWARD,
            Step::Trophy { .. } => rules::TROPHY,
        }
    }

    /// Every consequence still pending is missing from the log: report and apply it.
    fn flush_missing(&self, s: &mut State, f: &mut Findings) -> Result<(), StepError> {
        loop {
            self.settle(s);
            if matches!(s.phase, Phase::TieBreak { .. }) || s.steps.is_empty() {
                return Ok(());
            }
            let step = s.steps.remove(0);
            if let Some(exp) = self.expected(s, &step) {
                f.violate(Violation::new(
                    self.rule_of(s, &step, None),
                    format!("the log leaves out `{exp}`, which the rules require here"),
                ));
                self.apply_consequence(s, &exp, f)?;
            }
        }
    }

    /// The participant (and ailment) a consequence is about, to pair recorded and expected.
    fn subject(&self, s: &State, ev: &Event) -> (Option<usize>, Option<super::effect::Ailment>) {
        let r = |n: &String| self.resolve(s, n);
        match ev {
            Event::Afflict { who, ailment, .. }
            | Event::Cure { who, ailment, .. }
            | Event::Tick { who, ailment, .. } => (r(who), Some(*ailment)),
            Event::Outcome { target, .. } => (r(target), None),
            Event::Damage { who, .. } | Event::Defeated { who } | Event::Fame { who, .. } => (r(who), None),
            _ => (None, None),
        }
    }

    fn consequence(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        let same_kind = |a: &Event| discriminant(a) == discriminant(ev);
        let exact = |s: &State, a: &Event| same_kind(a) && self.subject(s, a) == self.subject(s, ev);
        // Pair with the first pending step expecting this very consequence; failing that,
        // with the head when it expects the same kind (then the difference is reported).
        if matches!(s.phase, Phase::TieBreak { .. }) {
            f.violate(self.unexpected(s, ev));
            return Ok(());
        }
        let pending: Vec<Option<Event>> = s.steps.iter().map(|st| self.expected(s, st)).collect();
        if pending.iter().any(|e| e.as_ref().is_some_and(|e| exact(s, e))) {
            // Whatever the rules expected before it was left out of the log. Bounded: each
            // pass removes a step, and control steps add finitely many.
            for _ in 0..10_000 {
                self.settle(s);
                if matches!(s.phase, Phase::TieBreak { .. }) {
                    break;
                }
                let Some(head) = s.steps.first().cloned() else { break };
                let Some(exp) = self.expected(s, &head) else { break };
                if exact(s, &exp) {
                    break;
                }
                s.steps.remove(0);
                f.violate(Violation::new(
                    self.rule_of(s, &head, None),
                    format!("the log leaves out `{exp}`, which the rules require here"),
                ));
                self.apply_consequence(s, &exp, f)?;
            }
        }
        self.settle(s);
        let head = s.steps.first().cloned();
        let exp = head.as_ref().and_then(|h| self.expected(s, h));
        let (Some(step), Some(exp)) = (head, exp) else {
            f.violate(self.unexpected(s, ev));
            return Ok(());
        };
        if !same_kind(&exp) || matches!(s.phase, Phase::TieBreak { .. }) {
            f.violate(self.unexpected(s, ev));
            return Ok(());
        }
        s.steps.remove(0);
        self.compare(s, &step, &exp, ev, f);
        self.apply_consequence(s, ev, f)
    }

    fn unexpected(&self, s: &State, ev: &Event) -> Violation {
        let over = s.phase == Phase::Over;
        let rule = match ev {
            Event::Afflict { .. } | Event::Tick { .. } | Event::Damage { .. } | Event::EndRound { .. }
                if over =>
            {
                rules::FIGHT_END
            }
            Event::Defeated { who } if self.beaten_without_bonus(s, who) => rules::EXTRA_GRIT,
            Event::Act { card, .. } if matches!(card.as_str(), "balance" | "focus") => rules::NO_PRIORITY,
            Event::Priority { .. } => rules::PRIORITY_TOKEN,
            Event::Afflict { who, ailment, .. } => match self.resolve(s, who) {
                Some(i) if self.immune(s, i, *ailment) => rules::IMMUNITY,
                _ => rules::STACK,
            },
            Event::Cure { .. } => rules::IMMUNITY,
            Event::Act { .. } => rules::ORDER,
            Event::Outcome { .. } => rules::DEFENSE,
            Event::Damage { .. } => rules::DAMAGE,
            Event::Tick { ailment, .. } if *ailment == super::effect::Ailment::Burn => rules::BURN,
            Event::Tick { .. } => rules::DURATION,
            Event::Defeated { .. } => rules::DEFEAT,
            Event::Fame { .. } => rules::FAME_AWARD,
            Event::Trophy { .. } => rules::TROPHY,
            _ => rules::END_ROUND,
        };
        let v = Violation::new(
            rule,
            format!("`{ev}` is not what the rules call for here (nothing of the kind is due)"),
        );
        // A defeat that is a number wrong: the Grit left, side by side with the record.
        match (rule, ev) {
            (rules::EXTRA_GRIT, Event::Defeated { who }) => {
                let (grit, bonus) = self
                    .resolve(s, who)
                    .map(|m| (s.fighters[m].grit, 4 * (s.characters as i32 - 1)))
                    .unwrap_or_default();
                Violation::new(
                    rule,
                    format!(
                        "{who} still has {grit} Grit (its +{bonus} for the characters beyond the first counted)"
                    ),
                )
                .expected_recorded(format!("{who} at {grit} Grit"), ev.to_string())
            }
            _ => v,
        }
    }

    /// A monster recorded as defeated whose Grit would be gone without the +4 per character
    /// beyond the first.
    fn beaten_without_bonus(&self, s: &State, who: &str) -> bool {
        self.resolve(s, who).is_some_and(|m| {
            let f = &s.fighters[m];
            let bonus = 4 * (s.characters as i32 - 1);
            f.monster && !f.defeated && bonus > 0 && f.grit > 0 && f.grit - bonus <= 0
        })
    }

    /// Report every way the recorded consequence differs from the expected one.
    fn compare(&self, s: &State, step: &Step, exp: &Event, rec: &Event, f: &mut Findings) {
        if exp == rec {
            return;
        }
        let v = |rule: &'static str, msg: String| {
            Violation::new(rule, msg).expected_recorded(exp.to_string(), rec.to_string())
        };
        match (exp, rec) {
            (Event::Outcome { target: a, hit: ha }, Event::Outcome { target: b, hit: hb }) => {
                if self.resolve(s, a) != self.resolve(s, b) {
                    let monster = s.current.as_ref().is_some_and(|c| s.fighters[c.who].monster);
                    let rule = if monster { rules::TARGETING } else { rules::ATTACK_TARGET };
                    f.violate(v(rule, format!("the action targets {a}, not {b}")));
                } else if ha != hb {
                    let (roll, need) = s
                        .current
                        .as_ref()
                        .map(|c| {
                            (self.roll_value(s, c), self.threshold(s, c, self.resolve(s, a).unwrap_or(0)))
                        })
                        .unwrap_or_default();
                    let target = self.resolve(s, a).unwrap_or(0);
                    let specific = self.explain(s, explain::FOR_OUTCOME, hb, |t| {
                        t.current.as_ref().map(|c| self.succeeds(t, c, target))
                    });
                    f.violate(v(
                        specific.unwrap_or_else(|| self.rule_of(s, step, Some(rec))),
                        format!("the roll is {roll} against {need} needed"),
                    ));
                }
            }
            (
                Event::Damage { damage: d1, block: b1, .. },
                Event::Damage { damage: d2, block: b2, injury: i2, .. },
            ) => {
                let (target, base) = match step {
                    Step::Damage { target, base } => (Some(*target), Some(base)),
                    _ => (None, None),
                };
                if d1 != d2 {
                    let specific = self.explain(s, explain::FOR_DAMAGE, d2, |t| {
                        let c = t.current.as_ref()?;
                        Some(self.damage(t, c, target?, base?))
                    });
                    f.violate(v(specific.unwrap_or(rules::DAMAGE), format!("the damage is {d1}, not {d2}")));
                }
                if b1 != b2 {
                    let specific = self.explain(s, explain::FOR_BLOCK, b2, |t| {
                        let c = t.current.as_ref()?;
                        Some(self.block(t, c, target?))
                    });
                    f.violate(v(
                        specific.unwrap_or(rules::BLOCK),
                        format!("the applicable Block is {b1}, not {b2}"),
                    ));
                }
                if *i2 != d2.saturating_sub(*b2).max(0) {
                    f.violate(v(
                        rules::INJURY,
                        format!(
                            "{d2} damage with {b2} Blocked is {} Injury, not {i2}",
                            d2.saturating_sub(*b2).max(0)
                        ),
                    ));
                }
                if d1 == d2 && b1 == b2 && *i2 == d2.saturating_sub(*b2).max(0) {
                    f.violate(v(rules::DAMAGE, "the damage goes to another fighter".into()));
                }
            }
            (
                Event::Tick { from: f1, to: t1, injury: j1, .. },
                Event::Tick { from: f2, to: t2, injury: j2, .. },
            ) => {
                if (f1, t1) != (f2, t2) {
                    f.violate(v(rules::DURATION, format!("the duration goes {f1} -> {t1}")));
                }
                if j1 != j2 {
                    f.violate(v(rules::BURN, "Burn deals 1 Injury as it drops (other ailments none)".into()));
                }
                if (f1, t1) == (f2, t2) && j1 == j2 {
                    f.violate(v(self.rule_of(s, step, Some(rec)), "another fighter's ailment is due".into()));
                }
            }
            (Event::Act { who: a, card: ca }, Event::Act { who: b, card: cb }) => {
                // Both Priorities, as on the track, so the numbers stand side by side.
                let on = |who: &String, card: &String| {
                    let w = self.resolve(s, who);
                    s.track
                        .iter()
                        .find(|t| Some(t.who) == w && &t.card == card)
                        .map_or("not on the track".to_string(), |t| format!("on {}", t.priority))
                };
                f.violate(v(
                    self.rule_of(s, step, Some(rec)),
                    format!("the rules call for `{exp}` ({}) here; `{rec}` is {}", on(a, ca), on(b, cb)),
                ))
            }
            _ => f.violate(v(self.rule_of(s, step, Some(rec)), format!("the rules call for `{exp}` here"))),
        }
    }
}
