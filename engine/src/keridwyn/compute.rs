//! The numbers the rules derive from the state: turn order, token priorities, defenses,
//! roll values, damage, Block, targets, the token's winner. Read-only, so checking a
//! recorded consequence and deriving it share them; nothing here allocates on the way of
//! a legal log.

use super::cards::{Area, CardKind, Condition};
use super::effect::{Ailment, DamageBase, Effect, Skill};
use super::rules::{AccuracyModifiers, AccuracySide, LureRoll, NoFirstAction, Participating, RecheckTie};
use super::state::{Action, ActionKind, Current, Phase, Seat, Seats, State, Token, Who};
use super::KeridwynFight;

/// Defense = 6 + tier ("HOW TO FIGHT").
pub const BASE_DEFENSE: i32 = 6;
/// "A Spell that does not attack ... If you do not attain 6 or higher, the Spell has no effect."
pub const SUPPORT_SPELL_TARGET: i32 = 6;
/// "Accuracy increases the attack's damage by 1 for each 9 or higher rolled."
pub const ACCURACY_DIFFICULTY: i32 = 9;
/// "Slow: Suffer -6 Priority." and the second monster action's "-6 Priority".
pub const SLOW_PRIORITY: i32 = 6;

/// Who a monster's attack goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Targets {
    /// Balance's player.
    Balance(Seat),
    /// Chosen by the monster's conditions (or the character's foe, or everyone).
    Chosen(Seats),
    /// Neither condition chose: at random among these.
    Random(Seats),
}

/// Who should hold the Priority token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenWinner {
    Unchanged,
    To(Seat),
    /// Tied: these roll Finesse, in turn order.
    Tie(Vec<Seat>),
}

impl KeridwynFight {
    /// Every effect holding on a fighter: passives (minus the Breakable one while lured),
    /// the worn gear and traits (kept in passives), and ongoing effects.
    pub(crate) fn effects_on<'a>(&self, s: &'a State, i: Seat) -> impl Iterator<Item = &'a Effect> + 'a {
        let f = s.fighter(i);
        let skip = usize::from(f.is_monster() && s.lured && !f.passives.is_empty());
        f.passives[skip..].iter().chain(f.effects.iter().flat_map(|o| o.effects.iter()))
    }

    fn sum(&self, s: &State, i: Seat, pick: impl Fn(&Effect) -> Option<i32>) -> i32 {
        let mut total = 0i32;
        self.each_effect(s, i, |e| {
            if let Some(n) = pick(e) {
                total = total.saturating_add(n);
            }
        });
        total
    }

    /// Visit every effect on fighter `i`: its passives (but a lured monster's first) and
    /// its ongoing effects. Written as plain loops (not `effects_on`): the chained iterator
    /// cost twice as much on the hot path of every roll and damage.
    fn each_effect(&self, s: &State, i: Seat, mut visit: impl FnMut(&Effect)) {
        let f = s.fighter(i);
        let skip = usize::from(f.is_monster() && s.lured && !f.passives.is_empty());
        f.passives[skip..].iter().for_each(&mut visit);
        for o in &f.effects {
            o.effects.iter().for_each(&mut visit);
        }
    }

    pub(crate) fn immune(&self, s: &State, i: Seat, a: Ailment) -> bool {
        self.effects_on(s, i).any(|e| *e == Effect::Immunity(a))
    }

    /// Every ailment a fighter is Immune to, one bit each (`1 << Ailment::index`).
    pub(crate) fn immunities(&self, s: &State, i: Seat) -> u8 {
        let mark = |m: u8, e: &Effect| if let Effect::Immunity(a) = e { m | 1 << a.index() } else { m };
        let f = s.fighter(i);
        let skip = usize::from(f.is_monster() && s.lured && !f.passives.is_empty());
        let mut m = f.passives[skip..].iter().fold(0, mark);
        for o in &f.effects {
            m = o.effects.iter().fold(m, mark);
        }
        m
    }

    /// The seat turn order starts from: the token holder (the first seat before anyone holds it).
    fn first(&self, s: &State) -> usize {
        s.holder.map_or(0, Seat::i)
    }

    /// Position of a seat in turn order (0 = the token holder), counting every seat.
    pub(crate) fn turn_pos(&self, s: &State, i: Seat) -> usize {
        let n = s.fighters.len().max(1);
        (i.i() + n - self.first(s) % n) % n
    }

    /// Living participants in turn order: clockwise from the token holder.
    pub(crate) fn turn_order<'a>(&self, s: &'a State) -> impl DoubleEndedIterator<Item = Seat> + 'a {
        let n = s.fighters.len();
        let start = self.first(s) % n.max(1);
        // The seats from the holder on, wrapping round: a subtraction, not a division, per seat.
        (start..start + n)
            .map(move |k| Seat::of(if k >= n { k - n } else { k }))
            .filter(move |&i| !s.fighter(i).defeated)
    }

    /// Living characters in turn order.
    pub(crate) fn characters<'a>(&self, s: &'a State) -> impl DoubleEndedIterator<Item = Seat> + 'a {
        self.turn_order(s).filter(move |&i| !s.fighter(i).is_monster())
    }

    /// Who reveals next: living characters in reverse turn order.
    pub(crate) fn next_revealer(&self, s: &State) -> Option<Seat> {
        // `characters(s).rev().find(..)`, written as one loop: it runs twice per reveal.
        let n = s.fighters.len();
        let start = self.first(s) % n.max(1);
        (0..n).rev().map(|k| if start + k >= n { start + k - n } else { start + k }).map(Seat::of).find(
            |&i| {
                let f = s.fighter(i);
                !f.defeated && !f.is_monster() && !f.revealed
            },
        )
    }

    /// `next_revealer`, and how many living characters have yet to reveal, in one pass: a
    /// reveal asks both (the second to know whether it is the round's last).
    pub(crate) fn revealers(&self, s: &State) -> (Option<Seat>, usize) {
        let n = s.fighters.len();
        let start = self.first(s) % n.max(1);
        let (mut next, mut waiting) = (None, 0);
        for k in (0..n).rev() {
            let i = if start + k >= n { start + k - n } else { start + k };
            let f = &s.fighters[i];
            if !f.defeated && !f.is_monster() && !f.revealed {
                waiting += 1;
                next = next.or(Some(Seat::of(i)));
            }
        }
        (next, waiting)
    }

    /// The Priority a token goes on: the card's, + priority effects, -6 while Slow, and for
    /// the monster +1 per character beyond the first (-6 for its second action).
    pub(crate) fn token_priority(&self, s: &State, who: Seat, base: i32, second: bool) -> i32 {
        let f = s.fighter(who);
        let mut p =
            base.saturating_add(self.sum(
                s,
                who,
                |e| if let Effect::Priority(n) = e { Some(*n) } else { None },
            ));
        // Immunity removes the Ailment at once (l.19), before the token goes down: a Slow the
        // fighter is Immune to costs no Priority, though its `cure` is recorded after.
        if f.ailment(Ailment::Slow) > 0 && !self.immune(s, who, Ailment::Slow) {
            p -= SLOW_PRIORITY;
        }
        if f.is_monster() {
            p += i32::try_from(self.counted_characters(s).saturating_sub(1)).unwrap_or(0);
            if second {
                p -= SLOW_PRIORITY;
            }
        }
        p
    }

    /// The characters l.44 counts for the monster's +1 Priority per character beyond the
    /// first and its second action (`participating-characters`): every character who joined,
    /// or only those not yet defeated.
    pub(crate) fn counted_characters(&self, s: &State) -> u32 {
        match self.params.participating {
            Participating::Joined => s.characters,
            Participating::Living => u32::try_from(self.characters(s).count()).unwrap_or(u32::MAX),
        }
    }

    /// Whether the monster's second action die is owed because its first gave no action
    /// (with more than 2 characters, under `no-first-action=second-roll`): its first die is
    /// rolled, the second is not, and no token of its own is down or resolved this round.
    pub(crate) fn second_after_no_action(&self, s: &State) -> bool {
        s.monster_rolled
            && !s.second_rolled
            && self.counted_characters(s) > 2
            && self.first_gave_none(s)
            && self.params.no_first_action == NoFirstAction::SecondRoll
    }

    /// Whether a monster action die recorded now is its second, rolled before the first action
    /// it gave is completed (with more than 2 characters: l.44 "after the monster completes
    /// their first action of the round, they roll for a second action"): during the reveals or
    /// between tokens, the first die rolled and its token still on the track, the second not
    /// rolled. Reported as kf.monster.second-action and taken as that second die, so the
    /// replay goes on and the second action it records is judged (it stopped the replay).
    pub(crate) fn second_before_first_done(&self, s: &State) -> bool {
        let Some(m) = s.monster() else { return false };
        matches!(s.phase, Phase::Reveal | Phase::Actions)
            && s.current.is_none()
            && s.monster_rolled
            && !s.second_rolled
            && self.counted_characters(s) > 2
            && s.track.iter().any(|t| t.who == m && !t.second)
    }

    /// Whether the monster's first action die of this round is rolled and gave no action.
    pub(crate) fn first_gave_none(&self, s: &State) -> bool {
        let Some(m) = s.monster() else { return false };
        s.monster_rolled && !s.track.iter().chain(s.done.iter()).any(|t| t.who == m)
    }

    /// The token that resolves next: highest Priority, ties in turn order, a player's two
    /// tokens on one number in the order they were placed (the one the chain derives; under
    /// `own-tie-order=any` the other is owed as much, `due.rs`'s `reorder`).
    pub(crate) fn next_token(&self, s: &State) -> Option<(usize, Token)> {
        // `turn_pos` without its divisions: the holder's seat is found once.
        let n = s.fighters.len().max(1);
        let first = self.first(s) % n;
        let pos = |i: Seat| match i.i() + n - first {
            p if p < n => p,
            p if p < 2 * n => p - n,
            p => p % n,
        };
        let mut best: Option<(usize, &Token)> = None;
        for (k, t) in s.track.iter().enumerate() {
            let better = match best {
                None => true,
                Some((_, b)) => {
                    t.priority > b.priority || (t.priority == b.priority && pos(t.who) < pos(b.who))
                }
            };
            if better {
                best = Some((k, t));
            }
        }
        best.map(|(k, t)| (k, *t))
    }

    /// The track in resolution order (for the board and facts).
    pub(crate) fn ordered_track(&self, s: &State) -> Vec<Token> {
        let mut t = s.track.to_vec();
        t.sort_by(|a, b| {
            b.priority.cmp(&a.priority).then(self.turn_pos(s, a.who).cmp(&self.turn_pos(s, b.who)))
        });
        t
    }

    pub(crate) fn defense(&self, s: &State, i: Seat, skill: Skill) -> i32 {
        BASE_DEFENSE
            + i32::from(s.fighter(i).tier(skill))
            + self.sum(s, i, |e| if let Effect::Defense(n) = e { Some(*n) } else { None })
    }

    /// Every modifier on a fighter's rolls: roll effects, -1 while Dazzled.
    pub(crate) fn roller_modifier(&self, s: &State, who: Seat) -> i32 {
        Self::with_dazzle(s, who, self.sum(s, who, |e| if let Effect::Roll(n) = e { Some(*n) } else { None }))
    }

    /// A fighter's summed roll effects with Dazzle's -1.
    fn with_dazzle(s: &State, who: Seat, roll: i32) -> i32 {
        roll - i32::from(s.fighter(who).ailment(Ailment::Dazzle) > 0)
    }

    /// Every modifier on the current roll: the roller's, plus recalled mercenaries.
    pub(crate) fn roll_modifier(&self, s: &State, c: &Current) -> i32 {
        // A recorded recall bonus can be any number: saturate rather than overflow.
        self.roller_modifier(s, c.who).saturating_add(c.bonus)
    }

    /// "the roll is the highest die after modifiers" (a modifier raises every die).
    pub(crate) fn roll_value(&self, s: &State, c: &Current) -> i32 {
        c.dice.with(self.roll_modifier(s, c)).highest()
    }

    /// Whether the current roll affects `target`.
    pub(crate) fn succeeds(&self, s: &State, c: &Current, target: Seat) -> bool {
        self.roll_value(s, c) >= self.threshold(s, c, target)
    }

    pub(crate) fn threshold(&self, s: &State, c: &Current, target: Seat) -> i32 {
        match c.kind {
            ActionKind::SupportSpell => SUPPORT_SPELL_TARGET,
            ActionKind::Lure if self.params.lure == LureRoll::WitSix => SUPPORT_SPELL_TARGET,
            ActionKind::Lure => self.defense(s, target, Skill::Wit),
            ActionKind::Attack(_) => {
                let def = match c.action {
                    Action::Card(id) => self.catalog.cards.get(id).and_then(|k| k.attack).map(|a| a.defense),
                    Action::Lure => None,
                };
                self.defense(s, target, def.unwrap_or(c.skill))
            }
        }
    }

    /// The amount of a damage effect before modifiers.
    pub(crate) fn base_damage(&self, s: &State, target: Seat, base: DamageBase) -> i32 {
        match base {
            DamageBase::Fixed(n) => n,
            DamageBase::PerAilment(a) => i32::try_from(s.fighter(target).ailment(a)).unwrap_or(i32::MAX),
        }
    }

    /// Whether an attack's effects deal any damage to `target` before Accuracy, its Ailments
    /// the target is Immune to stopped (`immunity-vs-attack=stop-ailment`): a fixed damage
    /// above 0, or a damage per round of an Ailment the target has or this attack gives it.
    pub(crate) fn deals_damage(&self, s: &State, target: Seat, effects: &[Effect]) -> bool {
        effects.iter().any(|e| match *e {
            Effect::Damage(DamageBase::Fixed(n)) => n > 0,
            Effect::Damage(DamageBase::PerAilment(a)) => {
                s.fighter(target).ailment(a) > 0
                    || (!self.immune(s, target, a)
                        && effects.iter().any(|g| matches!(*g, Effect::Ailment(b, n) if b == a && n > 0)))
            }
            _ => false,
        })
    }

    /// Damage before Block: base, + modifiers of the attacker, -1 while Weak, + Accuracy.
    pub(crate) fn damage(&self, s: &State, c: &Current, target: Seat, base: DamageBase) -> i32 {
        self.damage_parts(s, c, target, base).total()
    }

    /// The terms `damage` adds up, kept apart for `explain` (the board's "Rules call for").
    #[inline]
    pub(crate) fn damage_parts(&self, s: &State, c: &Current, target: Seat, base: DamageBase) -> DamageParts {
        let base = self.base_damage(s, target, base);
        let (mods, acc_own, roll) = self.attacker_mods(s, c.who);
        let attacker = s.fighter(c.who);
        let weak = i32::from(attacker.ailment(Ailment::Weak) > 0);
        // The target's effects that count in attacks against it: `against`, and an unqualified
        // one as `accuracy-difficulty-side` says (an increase, or either under `both-sides`).
        let both = self.params.accuracy_side == AccuracySide::BothSides;
        let acc_target = self.sum(s, target, |e| match e {
            Effect::AccuracyDifficulty(n) if both || *n > 0 => Some(*n),
            Effect::AccuracyDifficultyAgainst(n) => Some(*n),
            _ => None,
        });
        let difficulty = ACCURACY_DIFFICULTY.saturating_add(acc_own).saturating_add(acc_target);
        // `roll_modifier`, from the sum taken above; under `accuracy-modifiers=face` the dice
        // count as rolled (the modifiers only move the roll against the defense).
        let roll_mod = match self.params.accuracy_modifiers {
            AccuracyModifiers::RollModifiers => Self::with_dazzle(s, c.who, roll).saturating_add(c.bonus),
            AccuracyModifiers::Face => 0,
        };
        let accuracy = c.dice.with(roll_mod).reaching(difficulty) as i32;
        DamageParts { base, mods, weak, accuracy, difficulty }
    }

    /// An attacker's damage, Accuracy-difficulty and roll modifiers, each summed as `sum`
    /// sums it, in one pass over its effects rather than three (asked for every damage).
    fn attacker_mods(&self, s: &State, i: Seat) -> (i32, i32, i32) {
        let (mut damage, mut accuracy, mut roll) = (0i32, 0i32, 0i32);
        let both = self.params.accuracy_side == AccuracySide::BothSides;
        self.each_effect(s, i, |e| match *e {
            Effect::DamageMod(n) => damage = damage.saturating_add(n),
            // The attacker's effects that count in its own attacks: `own`, and an unqualified
            // one as `accuracy-difficulty-side` says (a reduction, or either under `both-sides`).
            Effect::AccuracyDifficulty(n) if both || n < 0 => accuracy = accuracy.saturating_add(n),
            Effect::AccuracyDifficultyOwn(n) => accuracy = accuracy.saturating_add(n),
            Effect::Roll(n) => roll = roll.saturating_add(n),
            _ => {}
        });
        (damage, accuracy, roll)
    }

    /// Every applicable Block of the target against this attack.
    pub(crate) fn block(&self, s: &State, c: &Current, target: Seat) -> i32 {
        let spell = matches!(c.kind, ActionKind::Attack(CardKind::Spell));
        self.sum(s, target, |e| match e {
            Effect::Block { amount, non_spell } if !(spell && *non_spell) => Some(*amount),
            _ => None,
        })
    }

    /// Targets of an attack by `who`.
    pub(crate) fn targets(&self, s: &State, who: Seat, area: Area) -> Targets {
        let attacker = s.fighter(who);
        let Who::Monster(monster) = attacker.who else {
            // A character's attack goes to the monster, or to the other character.
            let monster_in = s.monster().is_some();
            let mut foes = Seats::new();
            // Pushed one by one: `collect` through a filtered iterator cost more than the rest
            // of starting the action.
            for i in self.turn_order(s) {
                if i != who && (s.fighter(i).is_monster() || !monster_in) {
                    foes.push(i);
                }
            }
            return Targets::Chosen(foes);
        };
        let mut chars = Seats::new();
        for i in self.characters(s) {
            chars.push(i);
        }
        if area == Area::All {
            return Targets::Chosen(chars);
        }
        if let Some(b) = s.balance.filter(|b| chars.contains(b)) {
            return Targets::Balance(b);
        }
        let Some(card) = self.catalog.monsters.get(monster) else { return Targets::Random(chars) };
        let conds = if s.alternate { [card.targets[1], card.targets[0]] } else { card.targets };
        for cond in conds {
            let key = |i: Seat| match cond {
                Condition::HighestGrit | Condition::LowestGrit => s.fighter(i).grit,
                Condition::HighestFame | Condition::LowestFame => s.fighter(i).fame,
            };
            let best = match cond {
                Condition::HighestGrit | Condition::HighestFame => chars.iter().map(|&i| key(i)).max(),
                Condition::LowestGrit | Condition::LowestFame => chars.iter().map(|&i| key(i)).min(),
            };
            let mut meet = chars.iter().copied().filter(|&i| Some(key(i)) == best);
            if let (Some(one), None) = (meet.next(), meet.next()) {
                return Targets::Chosen(smallvec::smallvec![one]);
            }
        }
        Targets::Random(chars)
    }

    /// Who should hold the token: the highest Fame among the living; a tie rolls off,
    /// unless it includes a living holder and the holder keeps it (`priority-recheck-tie`).
    pub(crate) fn token_winner(&self, s: &State) -> TokenWinner {
        // One pass for the top Fame, its first holder in turn order and whether it is tied
        // (asked after every change of Fame); the tied list only when there is a tie.
        let mut best: Option<(i32, Seat, bool)> = None;
        for i in self.turn_order(s) {
            let fame = s.fighter(i).fame;
            best = match best {
                Some((top, w, _)) if fame == top => Some((top, w, true)),
                Some((top, _, _)) if fame < top => best,
                _ => Some((fame, i, false)),
            };
        }
        let Some((top, w, tie)) = best else {
            return TokenWinner::Unchanged;
        };
        if !tie {
            return if s.holder == Some(w) { TokenWinner::Unchanged } else { TokenWinner::To(w) };
        }
        let tied: Vec<Seat> = self.turn_order(s).filter(|&i| s.fighter(i).fame == top).collect();
        let holder_alive = s.holder.is_some_and(|h| !s.fighter(h).defeated);
        if holder_alive
            && s.holder.is_some_and(|h| tied.contains(&h))
            && self.params.recheck == RecheckTie::HolderKeeps
        {
            return TokenWinner::Unchanged;
        }
        TokenWinner::Tie(tied)
    }
}

/// A damage's terms (l.12-13, l.58: the card's damage, the effects' modifiers, Weak's -1 and
/// one per die reaching the Accuracy difficulty).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DamageParts {
    /// The card's damage (a per-ailment damage already counted).
    pub base: i32,
    /// The attacker's damage modifiers.
    pub mods: i32,
    /// 1 while the attacker is Weak.
    pub weak: i32,
    /// Dice (after roll modifiers) reaching the difficulty.
    pub accuracy: i32,
    pub difficulty: i32,
}

impl DamageParts {
    pub(crate) fn total(&self) -> i32 {
        self.base.saturating_add(self.mods).saturating_sub(self.weak).saturating_add(self.accuracy).max(0)
    }
}
