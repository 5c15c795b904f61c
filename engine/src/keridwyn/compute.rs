//! The numbers the rules derive from the state: turn order, token priorities, defenses,
//! roll values, damage, Block, targets. Read-only, so checking and applying share them.

use super::cards::{Area, CardKind, Condition};
use super::effect::{Ailment, DamageBase, Effect, Skill};
use super::state::{ActionKind, Current, State, Token};
use super::KeridwynFight;

/// Defense = 6 + tier ("HOW TO FIGHT").
pub const BASE_DEFENSE: i32 = 6;
/// "A Spell that does not attack ... If you do not attain 6 or higher, the Spell has no effect."
pub const SUPPORT_SPELL_TARGET: i32 = 6;
/// "Accuracy increases the attack's damage by 1 for each 9 or higher rolled."
pub const ACCURACY_DIFFICULTY: i32 = 9;
/// "Slow: Suffer -6 Priority." and the second monster action's "-6 Priority".
pub const SLOW_PRIORITY: i32 = 6;

impl KeridwynFight {
    /// Every effect holding on a fighter: passives (minus the Breakable one while lured),
    /// the worn gear and traits (kept in passives), and ongoing effects.
    pub(crate) fn effects_on<'a>(&self, s: &'a State, i: usize) -> Vec<&'a Effect> {
        let f = &s.fighters[i];
        let skip_breakable = f.monster && s.lured;
        let passives = f.passives.iter().enumerate().filter(move |(n, _)| !(skip_breakable && *n == 0));
        passives.map(|(_, e)| e).chain(f.effects.iter().flat_map(|o| o.effects.iter())).collect()
    }

    fn sum(&self, s: &State, i: usize, pick: impl Fn(&Effect) -> Option<i32>) -> i32 {
        self.effects_on(s, i).into_iter().filter_map(pick).sum()
    }

    pub(crate) fn immune(&self, s: &State, i: usize, a: Ailment) -> bool {
        self.effects_on(s, i).into_iter().any(|e| *e == Effect::Immunity(a))
    }

    /// Living participants in turn order: clockwise from the token holder (from the first
    /// seat before anyone holds it).
    pub(crate) fn turn_order(&self, s: &State) -> Vec<usize> {
        let n = s.fighters.len();
        let start = s.holder.unwrap_or(0);
        (0..n).map(|k| (start + k) % n).filter(|&i| !s.fighters[i].defeated).collect()
    }

    /// Who reveals next: living characters in reverse turn order.
    pub(crate) fn next_revealer(&self, s: &State) -> Option<usize> {
        self.turn_order(s).into_iter().rev().find(|&i| !s.fighters[i].monster && !s.fighters[i].revealed)
    }

    pub(crate) fn monster(&self, s: &State) -> Option<usize> {
        s.fighters.iter().position(|f| f.monster)
    }

    /// The Priority a token goes on: the card's, + priority effects, -6 while Slow, and for
    /// the monster +1 per character beyond the first (-6 for its second action).
    pub(crate) fn token_priority(&self, s: &State, who: usize, base: i32, second: bool) -> i32 {
        let f = &s.fighters[who];
        let mut p = base + self.sum(s, who, |e| if let Effect::Priority(n) = e { Some(*n) } else { None });
        if f.ailment(Ailment::Slow) > 0 {
            p -= SLOW_PRIORITY;
        }
        if f.monster {
            p += s.characters.saturating_sub(1) as i32;
            if second {
                p -= SLOW_PRIORITY;
            }
        }
        p
    }

    /// The track in resolution order: highest Priority first, ties in turn order.
    pub(crate) fn ordered_track(&self, s: &State) -> Vec<Token> {
        let order = self.turn_order(s);
        let seat = |who: usize| order.iter().position(|&i| i == who).unwrap_or(usize::MAX);
        let mut t = s.track.clone();
        // Stable sort: a player's two tokens on one number keep the order they were placed.
        t.sort_by(|a, b| b.priority.cmp(&a.priority).then(seat(a.who).cmp(&seat(b.who))));
        t
    }

    pub(crate) fn defense(&self, s: &State, i: usize, skill: Skill) -> i32 {
        BASE_DEFENSE
            + i32::from(s.fighters[i].tier(skill))
            + self.sum(s, i, |e| if let Effect::Defense(n) = e { Some(*n) } else { None })
    }

    /// Every modifier on the current roll: roll effects, -1 while Dazzled, mercenaries.
    pub(crate) fn roll_modifier(&self, s: &State, c: &Current) -> i32 {
        let dazzle = if s.fighters[c.who].ailment(Ailment::Dazzle) > 0 { 1 } else { 0 };
        // A recorded recall bonus can be any number: saturate rather than overflow.
        (self.sum(s, c.who, |e| if let Effect::Roll(n) = e { Some(*n) } else { None }) - dazzle)
            .saturating_add(c.bonus)
    }

    /// "the roll is the highest die after modifiers" (a modifier raises every die).
    pub(crate) fn roll_value(&self, s: &State, c: &Current) -> i32 {
        c.dice.iter().map(|&d| i32::from(d)).max().unwrap_or(0).saturating_add(self.roll_modifier(s, c))
    }

    /// Whether the current roll affects `target`.
    pub(crate) fn succeeds(&self, s: &State, c: &Current, target: usize) -> bool {
        self.roll_value(s, c) >= self.threshold(s, c, target)
    }

    pub(crate) fn threshold(&self, s: &State, c: &Current, target: usize) -> i32 {
        match c.kind {
            ActionKind::SupportSpell => SUPPORT_SPELL_TARGET,
            ActionKind::Lure if self.params.lure_wit_six => SUPPORT_SPELL_TARGET,
            ActionKind::Lure => self.defense(s, target, Skill::Wit),
            ActionKind::Attack(_) => {
                let def = self.catalog.cards.get(&c.card).and_then(|k| k.attack).map(|a| a.defense);
                self.defense(s, target, def.unwrap_or(c.skill))
            }
        }
    }

    /// Damage before Block: base, + modifiers of the attacker, -1 while Weak, + Accuracy.
    pub(crate) fn damage(&self, s: &State, c: &Current, target: usize, base: &DamageBase) -> i32 {
        let base = match base {
            DamageBase::Fixed(n) => *n,
            DamageBase::PerAilment(a) => i32::try_from(s.fighters[target].ailment(*a)).unwrap_or(i32::MAX),
        };
        let mods = self.sum(s, c.who, |e| if let Effect::DamageMod(n) = e { Some(*n) } else { None });
        let weak = if s.fighters[c.who].ailment(Ailment::Weak) > 0 { 1 } else { 0 };
        let acc_mod =
            |i| self.sum(s, i, |e| if let Effect::AccuracyDifficulty(n) = e { Some(*n) } else { None });
        let difficulty = ACCURACY_DIFFICULTY + acc_mod(c.who) + acc_mod(target);
        let roll_mod = self.roll_modifier(s, c);
        let accuracy =
            c.dice.iter().filter(|&&d| i32::from(d).saturating_add(roll_mod) >= difficulty).count() as i32;
        base.saturating_add(mods).saturating_sub(weak).saturating_add(accuracy).max(0)
    }

    /// Every applicable Block of the target against this attack.
    pub(crate) fn block(&self, s: &State, c: &Current, target: usize) -> i32 {
        let spell = matches!(c.kind, ActionKind::Attack(CardKind::Spell));
        self.sum(s, target, |e| match e {
            Effect::Block { amount, non_spell } if !(spell && *non_spell) => Some(*amount),
            _ => None,
        })
    }

    /// Targets of an attack, or `Err(candidates)` when the monster's pick is random.
    pub(crate) fn targets(&self, s: &State, who: usize, area: Area) -> Result<Vec<usize>, Vec<usize>> {
        let living: Vec<usize> = self.turn_order(s);
        let attacker = &s.fighters[who];
        if !attacker.monster {
            // A character's attack goes to the monster, or to the other character.
            let foes = living
                .iter()
                .copied()
                .filter(|&i| i != who && (s.fighters[i].monster || self.monster(s).is_none()));
            return Ok(foes.collect());
        }
        let chars: Vec<usize> = living.into_iter().filter(|&i| !s.fighters[i].monster).collect();
        if area == Area::All {
            return Ok(chars);
        }
        if let Some(b) = s.balance.filter(|b| chars.contains(b)) {
            return Ok(vec![b]);
        }
        let Some(card) = self.catalog.monsters.get(&attacker.card) else { return Err(chars) };
        let conds =
            if s.alternate { [card.targets[1], card.targets[0]] } else { [card.targets[0], card.targets[1]] };
        for cond in conds {
            let key = |i: &usize| match cond {
                Condition::HighestGrit | Condition::LowestGrit => s.fighters[*i].grit,
                Condition::HighestFame | Condition::LowestFame => s.fighters[*i].fame,
            };
            let best = match cond {
                Condition::HighestGrit | Condition::HighestFame => chars.iter().map(key).max(),
                Condition::LowestGrit | Condition::LowestFame => chars.iter().map(key).min(),
            };
            let meet: Vec<usize> = chars.iter().copied().filter(|i| Some(key(i)) == best).collect();
            if meet.len() == 1 {
                return Ok(meet);
            }
        }
        Err(chars)
    }

    /// Who should hold the token: `Ok(Some)` a change, `Ok(None)` no change, `Err` a tie
    /// to roll off (in turn order).
    pub(crate) fn priority_winner(&self, s: &State) -> Result<Option<usize>, Vec<usize>> {
        let living = self.turn_order(s);
        let Some(top) = living.iter().map(|&i| s.fighters[i].fame).max() else { return Ok(None) };
        let tied: Vec<usize> = living.into_iter().filter(|&i| s.fighters[i].fame == top).collect();
        if tied.len() == 1 {
            return Ok((s.holder != Some(tied[0])).then_some(tied[0]));
        }
        let holder_alive = s.holder.is_some_and(|h| !s.fighters[h].defeated);
        if holder_alive && s.holder.is_some_and(|h| tied.contains(&h)) && self.params.holder_keeps {
            return Ok(None);
        }
        Err(tied)
    }
}
