//! Judging a recorded consequence against the due one it pairs with: every way it differs,
//! each under the most specific rule (blame.rs), expected and recorded side by side; and
//! the rule of a consequence nothing due pairs with.

use super::blame::{FOR_BLOCK, FOR_DAMAGE, FOR_OUTCOME};
use super::effect::{Ailment, Effect};
use super::event::Event;
use super::fact::{Acting, Cause, Due, Fact};
use super::rules;
use super::state::{Action, Phase, Seat, State};
use super::KeridwynFight;
use crate::kit::due::Consequences;
use crate::{Findings, Violation};

impl KeridwynFight {
    /// Report every way the recorded consequence differs from the due one.
    pub(crate) fn compare_fact(&self, s: &State, due: &Due, rec: &Fact, event: &Event, f: &mut Findings) {
        if due.fact == *rec {
            return;
        }
        let exp = self.notate(s, &due.fact).to_string();
        let taint = Consequences::uncertain(self, s, due);
        let mut out = |rule: &'static str, msg: String| {
            let v = Violation::new(rule, msg).expected_recorded(exp.clone(), event.to_string());
            f.violate(match taint {
                Some(o) => v.uncertain_after(o),
                None => v,
            });
        };
        match (due.fact, *rec) {
            (Fact::Outcome { target: a, hit: ha }, Fact::Outcome { target: b, hit: hb }) => {
                let Some(c) = s.current.as_ref() else {
                    return out(self.rule(s, due), "no action is resolving".into());
                };
                if a != b {
                    let rule =
                        if s.fighter(c.who).is_monster() { rules::TARGETING } else { rules::ATTACK_TARGET };
                    out(rule, format!("the action targets {}, not {}", self.label(s, a), self.label(s, b)));
                } else if ha != hb {
                    let (roll, need) = (self.roll_value(s, c), self.threshold(s, c, a));
                    let specific = self
                        .blame(s, FOR_OUTCOME, &hb, |t| t.current.as_ref().map(|c| self.succeeds(t, c, a)));
                    out(
                        specific.unwrap_or(self.rule(s, due)),
                        format!("the roll is {roll} against {need} needed"),
                    );
                }
            }
            (
                Fact::DamageDealt { who: w1, damage: d1, block: b1, .. },
                Fact::DamageDealt { who: w2, damage: d2, block: b2, injury: i2 },
            ) => {
                let base = match due.cause {
                    Cause::Effect { effect, .. } => s.current.as_ref().and_then(|c| match c.action {
                        Action::Card(id) => {
                            match self.catalog.cards.get(id)?.effects.get(usize::from(effect))? {
                                Effect::Damage(base) => Some(*base),
                                _ => None,
                            }
                        }
                        Action::Lure => None,
                    }),
                    _ => None,
                };
                let broad =
                    if matches!(due.cause, Cause::Start { .. }) { Some(rules::START_EFFECT) } else { None };
                if d1 != d2 {
                    let specific = base.and_then(|base| {
                        self.blame(s, FOR_DAMAGE, &d2, |t| {
                            t.current.as_ref().map(|c| self.damage(t, c, w1, base))
                        })
                    });
                    out(specific.or(broad).unwrap_or(rules::DAMAGE), format!("the damage is {d1}, not {d2}"));
                }
                if b1 != b2 {
                    let specific = base.and_then(|_| {
                        self.blame(s, FOR_BLOCK, &b2, |t| t.current.as_ref().map(|c| self.block(t, c, w1)))
                    });
                    let why =
                        if broad.is_some() { " (a start-of-fight effect is not an attack)" } else { "" };
                    out(
                        specific.or(broad).unwrap_or(rules::BLOCK),
                        format!("the applicable Block is {b1}, not {b2}{why}"),
                    );
                }
                let injury = d2.saturating_sub(b2).max(0);
                if i2 != injury {
                    out(rules::INJURY, format!("{d2} damage with {b2} Blocked is {injury} Injury, not {i2}"));
                }
                if d1 == d2 && b1 == b2 && i2 == injury && w1 != w2 {
                    out(broad.unwrap_or(rules::DAMAGE), "the damage goes to another fighter".into());
                }
            }
            (
                Fact::Ticked { from: f1, to: t1, injury: j1, .. },
                Fact::Ticked { from: f2, to: t2, injury: j2, .. },
            ) => {
                if (f1, t1) != (f2, t2) {
                    out(rules::DURATION, format!("the duration goes {f1} -> {t1}"));
                }
                if j1 != j2 {
                    out(rules::BURN, "Burn deals 1 Injury as it drops (other ailments none)".into());
                }
                if (f1, t1) == (f2, t2) && j1 == j2 {
                    out(self.rule(s, due), "another fighter's ailment is due".into());
                }
            }
            (Fact::Acted { who: dw, action: Acting::Token(da) }, Fact::Acted { who: rw, action: ra }) => {
                let on = |who: Seat, a: Acting| match a {
                    Acting::Token(a) => s
                        .track
                        .iter()
                        .find(|t| t.who == who && t.action == a)
                        .map_or("not on the track".to_string(), |t| format!("on {}", t.priority)),
                    _ => "not on the track".to_string(),
                };
                let due_token = s.track.iter().find(|t| t.who == dw && t.action == da).copied();
                let rule = match due_token {
                    Some(t)
                        if s.fighter(t.who).is_monster() && rw == t.who && ra != Acting::Token(t.action) =>
                    {
                        rules::MONSTER_ACTION
                    }
                    Some(t) => self.order_rule(s, &t, rw, ra),
                    None => rules::ORDER,
                };
                out(
                    rule,
                    format!(
                        "the rules call for `{exp}` ({}) here; `{event}` is {}",
                        on(dw, Acting::Token(da)),
                        on(rw, ra)
                    ),
                );
            }
            // A hit's ailment of the wrong length: the card's amount is what is wrong, not the
            // stacking (audit r6 D1: `afflict B burn +5 -> 7` for Fire Breath's 4 rounds on 2
            // was cited as kf.ailment.stack, whose sum the line does right).
            (
                Fact::Afflicted { who: w1, ailment: a1, add: n1, total: t1 },
                Fact::Afflicted { who: w2, ailment: a2, add: n2, total: t2 },
            ) if w1 == w2 && a1 == a2 && n1 != n2 && matches!(due.cause, Cause::Effect { .. }) => {
                let card = s.current.as_ref().map_or("the card", |c| self.action_name(c.action));
                let before = t1.saturating_sub(n1);
                let sum = before.saturating_add(n2);
                let also = if t2 == sum {
                    String::new()
                } else {
                    format!("; and {before} + {n2} is {sum}, not {t2}")
                };
                out(rules::AILMENT_AMOUNT, format!("`{card}` causes {n1} round(s) of {a1}, not {n2}{also}"));
            }
            _ => out(self.rule(s, due), format!("the rules call for `{exp}` here")),
        }
    }

    /// The finding for a recorded consequence nothing due pairs with.
    pub(crate) fn not_due(&self, s: &State, rec: &Fact, ev: &Event) -> Violation {
        let over = matches!(s.phase, Phase::Over);
        let rule = match *rec {
            Fact::Afflicted { .. }
            | Fact::Ticked { .. }
            | Fact::DamageDealt { .. }
            | Fact::RoundEnded { .. }
                if over =>
            {
                rules::FIGHT_END
            }
            Fact::Defeated { who } if self.beaten_without_bonus(s, who) => rules::EXTRA_GRIT,
            Fact::Acted { action: Acting::NoPriority(_), .. } => rules::NO_PRIORITY,
            Fact::TokenGained { .. } => rules::PRIORITY_TOKEN,
            Fact::Afflicted { who, ailment, .. } if self.immune(s, who, ailment) => rules::IMMUNITY,
            Fact::Afflicted { .. } => rules::STACK,
            Fact::Cured { .. } => rules::IMMUNITY,
            Fact::Acted { .. } => rules::ORDER,
            Fact::Outcome { .. } => rules::DEFENSE,
            Fact::DamageDealt { .. } => rules::DAMAGE,
            Fact::Ticked { ailment: Ailment::Burn, .. } => rules::BURN,
            Fact::Ticked { .. } => rules::DURATION,
            Fact::Defeated { .. } => rules::DEFEAT,
            Fact::FameGained { .. } => rules::FAME_AWARD,
            Fact::TrophyTaken { .. } => rules::TROPHY,
            Fact::RoundEnded { .. } => rules::END_ROUND,
        };
        if let (rules::EXTRA_GRIT, Fact::Defeated { who }) = (rule, *rec) {
            let grit = s.fighter(who).grit;
            let bonus = 4 * (s.characters as i32 - 1);
            let label = self.label(s, who);
            return Violation::new(
                rule,
                format!("{label} still has {grit} Grit (its +{bonus} for the characters beyond the first counted)"),
            )
            .expected_recorded(format!("{label} at {grit} Grit"), ev.to_string());
        }
        Violation::new(
            rule,
            format!("`{ev}` is not what the rules call for here (nothing of the kind is due)"),
        )
    }

    /// A monster recorded as defeated whose Grit would be gone without the +4 per character
    /// beyond the first.
    fn beaten_without_bonus(&self, s: &State, who: Seat) -> bool {
        let f = s.fighter(who);
        let bonus = 4 * (s.characters as i32 - 1);
        f.is_monster() && !f.defeated && bonus > 0 && f.grit > 0 && f.grit - bonus <= 0
    }
}
