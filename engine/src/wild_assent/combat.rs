//! The read-only arithmetic checking and applying share: stats by Threat, Speed after
//! statuses, the Attack Dice an attack rolls, its damage against each target's defense, the
//! statuses it inflicts and where Knockback sends a miniature.
//!
//! A damage is computed from [`DamageParts`], the numbers that feed it, so that a wrong
//! recorded damage can be recomputed with one part undone (`blame`) to name the rule a log
//! neglected.

use super::cards::{DamageKind, Movement, Skill, SkillKind, Stats, UnitCard, UnitKind};
use super::effect::{Against, Effect, Status};
use super::rules;
use super::state::momentum::Face;
use super::state::{Activation, Attack, Faces, Obstacle, Source, Stage, State, UnitIx};
use super::WildAssent;
use crate::kit::blame::first_explaining;
use crate::kit::catalog::{Id, Table};
use crate::kit::grid::Pos;

/// An attack's statuses and Knockback, as [`WildAssent::after_damage`] finds them: the same
/// for every target and every stage of the attack. Four bytes, so that a consequence of the
/// attack carries it (`due::Cause::Attack`) to the check of what the attack still owes once
/// it is applied, and neither works it out again. The first [`AfterDamage::INLINE`] statuses
/// are held here; one further is asked of [`WildAssent::after_status`], which walks the
/// effects again (an attack giving that many is rare).
///
/// Bits 0-24: the statuses, five bits each (the status's place in `Status::ALL`, then what
/// gives it); 25-27: how many (`MORE`: more than held); 28: every target is knocked back;
/// 29: a target is knocked back if it took damage; 30: not worked out (`UNKNOWN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AfterDamage(u32);

impl AfterDamage {
    /// The statuses held in the word.
    const INLINE: u32 = 5;
    /// The count that says more statuses than are held.
    const MORE: u32 = 6;
    const COUNT: u32 = 25;
    const KNOCKS: u32 = 1 << 28;
    const KNOCKS_DAMAGED: u32 = 1 << 29;
    /// Nothing after damage: no status, no Knockback.
    pub const NONE: AfterDamage = AfterDamage(0);
    /// Not worked out: a consequence that came without it.
    pub const UNKNOWN: AfterDamage = AfterDamage(1 << 30);

    /// The word, as the state keeps it (`state::AttackKept`).
    pub(crate) fn bits(self) -> u32 {
        self.0
    }
    /// Itself, when worked out.
    pub fn known(self) -> Option<AfterDamage> {
        (self != AfterDamage::UNKNOWN).then_some(self)
    }
    fn count(self) -> u32 {
        (self.0 >> Self::COUNT) & 7
    }
    /// Every target is knocked back ("On Attack: Knockback", a Special's trigger).
    pub fn knocks(self) -> bool {
        self.0 & Self::KNOCKS != 0
    }
    /// A target is knocked back if it took damage (plain "Knockback", default reading).
    pub fn knocks_damaged(self) -> bool {
        self.0 & Self::KNOCKS_DAMAGED != 0
    }
    /// Whether a target whose consequences stand at `stage`, past its damage, owes this
    /// attack nothing more: no Knockback, and no status left to give (`false` says nothing,
    /// and so does an attack not worked out). Told from the word alone, without a walk of
    /// the stages.
    pub(crate) fn done_at(self, stage: Stage) -> bool {
        if self == AfterDamage::UNKNOWN || self.0 & (Self::KNOCKS | Self::KNOCKS_DAMAGED) != 0 {
            return false;
        }
        match stage {
            Stage::Knock | Stage::Done => true,
            Stage::Status(k) => self.status(usize::from(k)) == Some(None),
            Stage::Damage | Stage::Hazard | Stage::HazardBleed | Stage::HazardLast => false,
        }
    }
    fn push(&mut self, st: Status, giver: Giver) {
        let n = self.count();
        if n < Self::INLINE {
            let entry = (st.index() as u32) | ((giver as u32) << 3);
            self.0 |= entry << (5 * n);
            self.0 = (self.0 & !(7 << Self::COUNT)) | ((n + 1) << Self::COUNT);
        } else {
            self.0 = (self.0 & !(7 << Self::COUNT)) | (Self::MORE << Self::COUNT);
        }
    }
    /// The `k`-th status the attack inflicts on each target, and its rule; `None` inside
    /// when it has fewer; `None` outside when the `k`-th is not held here.
    fn status(self, k: usize) -> Option<Option<(Status, &'static str)>> {
        let n = self.count();
        if k >= n.min(Self::INLINE) as usize {
            return (n != Self::MORE).then_some(None);
        }
        let entry = (self.0 >> (5 * k)) & 31;
        Some(Some(entry_of(Status::ALL[(entry & 7) as usize], GIVERS[(entry >> 3) as usize])))
    }
}

/// What gives an attack's status: the card's own effect, or a Special's trigger (its place
/// here is its code in [`AfterDamage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Giver {
    Own,
    OnSpecial,
    OnEachSpecial,
    OnSpecials,
}

const GIVERS: [Giver; 4] = [Giver::Own, Giver::OnSpecial, Giver::OnEachSpecial, Giver::OnSpecials];

/// A status an attack inflicts, with the rule of what gives it.
fn entry_of(st: Status, giver: Giver) -> (Status, &'static str) {
    let rule = match giver {
        Giver::Own => status_rule(st),
        Giver::OnSpecial => rules::SPECIAL_ONCE,
        Giver::OnEachSpecial => rules::SPECIAL_EACH,
        Giver::OnSpecials => rules::SPECIAL_THRESHOLD,
    };
    (st, rule)
}

/// The numbers one damage is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageParts {
    pub base: i32,
    pub successes: i32,
    pub specials: i32,
    /// +2 from behind.
    pub back: bool,
    /// Skill modifiers (`damage +N`, triggered ones counted as many times as they occur).
    pub bonus: i32,
    /// The part of `bonus` that an On Each Special effect gives, and the Specials it counted.
    pub each: i32,
    pub kind: DamageKind,
    /// The target's Physical and Magical Defense (with skills and Equipment).
    pub pdef: i32,
    pub mdef: i32,
    /// The Defense Partial Cover gives (+1 beside it; more under `partial-cover-stack=each`).
    pub cover: i32,
    /// The damage ignores defense (assigned, or a skill's ignore-defense).
    pub ignore: bool,
    /// Momentum: the attacker's Damage die (+1), the target's Defense die (+1).
    pub surge: bool,
    pub guard: bool,
    /// (Arena) A weapon's attack: the wielder's own Base Damage, which the weapon's replaces.
    pub weapon_base: Option<i32>,
    /// (Arena) The part of both defenses the target's armor gives.
    pub armor: i32,
}

impl DamageParts {
    /// The attack's total before defense.
    pub fn total(&self) -> i32 {
        self.base
            + self.successes
            + self.specials
            + if self.back { 2 } else { 0 }
            + self.bonus
            + i32::from(self.surge)
    }
    /// The defense subtracted.
    pub fn defense(&self) -> i32 {
        let d = if self.kind == DamageKind::Physical { self.pdef } else { self.mdef };
        d + self.cover + i32::from(self.guard)
    }
    /// What is dealt: all of it when assigned, else what the defense leaves (never below 0).
    pub fn dealt(&self) -> i32 {
        if self.ignore {
            self.total().max(0)
        } else {
            (self.total() - self.defense()).max(0)
        }
    }
}

/// Where Knockback sends a miniature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knock {
    To(Pos),
    /// It stays: the field is off the board, covered, or taken.
    Stays,
    /// It stays, pushed against Thornbrush / Spinning Blades.
    Hazard,
}

/// A rule whose part in a damage can be undone, to explain a wrong recorded damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Back,
    Cover,
    DefenseKind,
    NoDefense,
    Assign,
    Specials,
    EachOnce,
    Momentum,
    Weapon,
    Armor,
}

impl Part {
    fn rule(self) -> &'static str {
        match self {
            Part::Back => rules::BACK,
            Part::Cover => rules::PARTIAL_DEFENSE,
            Part::DefenseKind | Part::NoDefense => rules::DEFENSE,
            Part::Assign => rules::ASSIGN,
            Part::Specials => rules::DICE_FACES,
            Part::EachOnce => rules::SPECIAL_EACH,
            Part::Momentum => rules::MOMENTUM_EFFECTS,
            Part::Weapon => rules::EQUIP_WEAPON,
            Part::Armor => rules::EQUIP_ARMOR,
        }
    }
}

impl WildAssent {
    pub(crate) fn card(&self, s: &State, i: UnitIx) -> &UnitCard {
        &self.units()[s.unit(i).card]
    }

    /// Health and defenses at the miniature's Threat.
    pub(crate) fn stats(&self, s: &State, i: UnitIx) -> Stats {
        let u = s.unit(i);
        self.units()[u.card].stats_at(u.threat)
    }

    /// Health left.
    pub(crate) fn remaining(&self, s: &State, i: UnitIx) -> i32 {
        self.stats(s, i).health - s.unit(i).damage
    }

    /// The miniature's own skills and its Equipment, each with whether it is Equipment, in
    /// [`WildAssent::each_skill`]'s order (gathered by it, so the order is written once; the
    /// callers are rare: a leap, a Summon, the simulator).
    pub(crate) fn skills_of<'a>(
        &'a self,
        s: &State,
        i: UnitIx,
    ) -> impl Iterator<Item = (&'a Skill, bool)> + 'a {
        let mut all: smallvec::SmallVec<[(&'a Skill, bool); 8]> = smallvec::SmallVec::new();
        self.each_skill(s, i, |k, equipment| all.push((k, equipment)));
        all.into_iter()
    }

    /// The miniature's own skills and its Equipment, each handed to `f` with whether it is
    /// Equipment, in [`WildAssent::each_skill_id`]'s order. Every attack asks for its targets'
    /// Defensive skills: inlined, `f` sees each table's cards without a test of `eq`.
    #[inline(always)]
    pub(crate) fn each_skill<'a>(&'a self, s: &State, i: UnitIx, mut f: impl FnMut(&'a Skill, bool)) {
        self.each_skill_id(s, i, |table, k, equipment| f(&table[k], equipment));
    }

    /// The ids of the miniature's own skills and its Equipment, each handed to `f` with its
    /// catalog table (the Skill table or the Equipment table) and whether it is Equipment: its
    /// card's skills, its chosen Skill cards, its Equipment slots. The one place this order
    /// is written ([`WildAssent::each_standing`] walks the same order over lists made once
    /// per card). Plain loops over the slices: a chained iterator cost more than the few
    /// skills a card has.
    #[inline(always)]
    pub(crate) fn each_skill_id<'a>(
        &'a self,
        s: &State,
        i: UnitIx,
        mut f: impl FnMut(&'a Table<Skill>, Id<Skill>, bool),
    ) {
        let u = s.unit(i);
        for &k in &self.units()[u.card].skills {
            f(&self.catalog.skills, k, false);
        }
        // Only an Arena match's troupes choose Skill cards: skip the look-up when none has.
        if !s.troupes.skills.is_empty() {
            for k in self.chosen_skills(s, i) {
                f(&self.catalog.skills, k, false);
            }
        }
        for slot in &u.equipment {
            if let Some(k) = *slot {
                f(&self.catalog.equipment, k, true);
            }
        }
    }

    /// Effects that are always on for the miniature (Passive and Defensive skills, Equipment
    /// that is not used as an action), in the order of [`WildAssent::skills_of`]: its card's
    /// skills (gathered once per card, [`card_standing`]), its chosen Skill cards, its
    /// Equipment.
    ///
    /// Each is handed to `f`: plain loops over the slices rather than chained iterators,
    /// whose every step cost more than the few effects a card has (the checks ask for them
    /// several times per record). Inlined: each caller's `f` is a few instructions, and the
    /// call cost about as much as the walk.
    #[inline(always)]
    pub(crate) fn each_standing<'a>(&'a self, s: &State, i: UnitIx, mut f: impl FnMut(&'a Effect)) {
        let u = s.unit(i);
        if let Some(own) = self.card_standing.get(u.card.index()) {
            for e in own {
                f(e);
            }
        }
        // Only an Arena match's troupes choose Skill cards: skip the look-up when none has.
        if !s.troupes.skills.is_empty() {
            for k in self.chosen_skills(s, i) {
                let k = &self.catalog.skills[k];
                if standing_skill(k, false) {
                    for e in &k.effects.effects {
                        f(e);
                    }
                }
            }
        }
        // The two slots read in place: the array's `into_iter().flatten()` cost more than
        // the walk of the effects it leads to.
        for slot in &u.equipment {
            let Some(k) = *slot else { continue };
            let k = &self.catalog.equipment[k];
            if standing_skill(k, true) {
                for e in &k.effects.effects {
                    f(e);
                }
            }
        }
    }

    /// Defense skills and Equipment add to both defenses. Inlined into
    /// [`WildAssent::defenses`]: every damage due asks, and the call cost about as much as
    /// the walk of a card's few standing effects.
    #[inline]
    fn defense_bonus(&self, s: &State, i: UnitIx) -> i32 {
        let mut b = 0;
        self.each_standing(s, i, |e| {
            if let Effect::Defense(n) = e {
                b += *n;
            }
        });
        b
    }

    /// The Physical and Magical Defense of a miniature, with skills and Equipment. Inlined:
    /// every damage due asks for it, and the walk is a few loads once the call is gone.
    #[inline]
    pub(crate) fn defenses(&self, s: &State, i: UnitIx) -> (i32, i32) {
        let st = self.stats(s, i);
        let b = self.defense_bonus(s, i);
        (st.pdef + b, st.mdef + b)
    }

    /// How an activation moves: its Instinct card's type for a Hunt Creature.
    pub(crate) fn movement_of(&self, s: &State, act: &Activation) -> Movement {
        match act.card {
            Some(c) => self.catalog.instincts[c].movement,
            None => self.card(s, act.unit).movement,
        }
    }

    /// The Speed of this activation: the card's (a Creature's Instinct card at its Threat),
    /// skills, then Fatigue (-2, never below 1) and Immobilize (none) held at its start.
    #[inline]
    pub(crate) fn speed_of(&self, s: &State, act: &Activation) -> u8 {
        self.speed_with(s, act, true)
    }

    /// The Speed with or without the statuses (for naming a rule a log neglected).
    ///
    /// Inlined for a Creature's Instinct card (the movement checks and the Creatures' choices
    /// ask for it many times per activation): one look-up, with no skill walked and no
    /// Momentum held; anything else is [`WildAssent::own_speed`], out of line.
    #[inline]
    pub(crate) fn speed_with(&self, s: &State, act: &Activation, statuses: bool) -> u8 {
        let Some(c) = act.card else { return self.own_speed(s, act, statuses) };
        let threat = s.unit(act.unit).threat;
        let base = i32::from(self.catalog.instincts[c].speed[usize::from(threat.clamp(1, 3)) - 1]);
        held_speed(base.clamp(0, 30), act, statuses)
    }

    /// [`WildAssent::speed_with`] for an activation without an Instinct card: the card's
    /// Speed, its skills, and a Momentum Speed die.
    #[inline(never)]
    fn own_speed(&self, s: &State, act: &Activation, statuses: bool) -> u8 {
        let mut bonus: i32 = 0;
        self.each_standing(s, act.unit, |e| {
            if let Effect::Speed(n) = e {
                bonus += *n;
            }
        });
        let base = i32::from(self.card(s, act.unit).speed) + bonus;
        let momentum = i32::from(self.holds(s, act.unit, Face::Speed));
        held_speed((base + momentum).clamp(0, 30), act, statuses)
    }

    /// Every effect that shapes an attack, each handed to `f` (see
    /// [`WildAssent::each_standing`]): its source's (skill, Equipment, Instinct card), then
    /// the attacker's standing ones.
    pub(crate) fn each_attack_effect<'a>(
        &'a self,
        s: &State,
        attacker: UnitIx,
        source: Source,
        mut f: impl FnMut(&'a Effect),
    ) {
        let own: &'a [Effect] = match source {
            Source::Default => &[],
            Source::Skill(k) => &self.catalog.skills[k].effects.effects,
            Source::Equipment(k) => &self.catalog.equipment[k].effects.effects,
            Source::Instinct(c) => &self.catalog.instincts[c].effects.effects,
        };
        for e in own.iter().filter(|e| e.is_attack()) {
            f(e);
        }
        self.each_standing(s, attacker, |e| {
            if e.is_attack() {
                f(e);
            }
        });
    }

    /// Whether a `vs` modifier counts against this target. A Summon is a Creature in the
    /// Hunt ("Summons are special Creatures that enter the board via another Creature's
    /// Skill", Hunt: Summons) and none in the Arena ("Summons are not Creatures (Skills that
    /// target/affect Creatures do not affect them)", Arena: Summons).
    fn against(&self, s: &State, target: UnitIx, a: Against) -> bool {
        let kind = self.card(s, target).kind;
        match a {
            Against::Creatures => match kind {
                UnitKind::Creature | UnitKind::Gladiator => true,
                UnitKind::Summon => self.params.mode == rules::Mode::Hunt,
                UnitKind::Seeker | UnitKind::Assent => false,
            },
            Against::Seekers => kind == UnitKind::Seeker,
        }
    }

    /// The Attack Dice the attack rolls: its own, skill and Equipment modifiers (a `vs`
    /// modifier when every target is of that kind), then Blind held at the activation's
    /// start (-2, never below 1).
    pub(crate) fn dice_for(&self, s: &State, a: &Attack, blind: bool) -> u8 {
        let mut n = i32::from(a.profile.dice);
        self.each_attack_effect(s, a.attacker, a.source, |e| {
            if let Effect::Dice(d, vs) = e {
                let counts = match vs {
                    None => true,
                    Some(v) => !a.targets.is_empty() && a.targets.iter().all(|&t| self.against(s, t, *v)),
                };
                if counts {
                    n += d;
                }
            }
        });
        n = n.max(0);
        if blind && n > 1 {
            n = (n - 2).max(1);
        }
        n.clamp(0, 30) as u8
    }

    /// The numbers of the damage to the attack's target `k`, from its roll.
    pub(crate) fn damage_parts(&self, s: &State, a: &Attack, k: usize, faces: Faces) -> DamageParts {
        self.damage_parts_with(s, a, k, faces, |_| {})
    }

    /// The damage to target `k` and what the attack does after it ([`WildAssent::after_damage`]),
    /// from one walk over its effects: the damage due is worked out once per target, and
    /// what follows it is then known without a walk of its own.
    pub(crate) fn damage_and_after(
        &self,
        s: &State,
        a: &Attack,
        k: usize,
        faces: Faces,
    ) -> (DamageParts, AfterDamage) {
        let mut after = AfterDamage::NONE;
        let p = self.damage_parts_with(s, a, k, faces, |e| self.after_effect(e, faces.specials, &mut after));
        (p, after)
    }

    /// [`WildAssent::damage_parts`], each effect of the attack also handed to `also`.
    #[inline]
    fn damage_parts_with<'a>(
        &'a self,
        s: &State,
        a: &Attack,
        k: usize,
        faces: Faces,
        mut also: impl FnMut(&'a Effect),
    ) -> DamageParts {
        let t = a.targets[k];
        let specials = faces.specials;
        let (mut bonus, mut each, mut ignore) = (0, 0, false);
        self.each_attack_effect(s, a.attacker, a.source, |e| {
            also(e);
            match e {
                Effect::Damage(n) => bonus += n,
                Effect::IgnoreDefense => ignore = true,
                Effect::AssignIfDamaged => ignore |= s.unit(t).damage > 0,
                Effect::On(trigger, inner) => {
                    let times = i32::from(trigger.times(specials));
                    match **inner {
                        Effect::Damage(n) => {
                            bonus += n * times;
                            if *trigger == super::effect::Trigger::OnEachSpecial {
                                each += n * times;
                            }
                        }
                        Effect::IgnoreDefense => ignore |= times > 0,
                        _ => {}
                    }
                }
                _ => {}
            }
        });
        let (pdef, mdef) = self.defenses(s, t);
        DamageParts {
            base: a.profile.damage,
            successes: i32::from(faces.successes),
            specials: i32::from(specials),
            back: a.back.get(k).copied().unwrap_or(false),
            bonus,
            each,
            kind: a.profile.kind,
            pdef,
            mdef,
            cover: self.cover_defense(s, s.unit(t).at),
            ignore,
            surge: self.holds(s, a.attacker, Face::Damage),
            guard: self.holds(s, t, Face::Defense),
            weapon_base: self.weapon_base(s, a),
            armor: self.armor_bonus(s, t),
        }
    }

    /// The rule a wrong recorded damage neglected: the first part whose undoing gives it.
    pub(crate) fn damage_blame(&self, p: DamageParts, recorded: i32, specials: u8) -> &'static str {
        let parts = [
            Part::Specials,
            Part::EachOnce,
            Part::Back,
            Part::Momentum,
            Part::Weapon,
            Part::Armor,
            Part::Cover,
            Part::Assign,
            Part::NoDefense,
            Part::DefenseKind,
        ];
        let without = |p: &DamageParts, r: Part| -> Option<DamageParts> {
            let mut q = *p;
            match r {
                Part::Back => q.back = !q.back,
                // Only a cover bonus the target has can have been left out: a target with no
                // Partial Cover beside it has none to add, so a damage one short there is not
                // blamed on the cover rule (it falls to the attack's total). One +1 is undone:
                // under `partial-cover-stack=each` one of several covers forgotten.
                Part::Cover if q.cover > 0 => q.cover -= 1,
                Part::Momentum if q.surge || q.guard => {
                    q.surge = false;
                    q.guard = false;
                }
                Part::DefenseKind if !q.ignore => {
                    q.kind = if q.kind == DamageKind::Physical {
                        DamageKind::Magical
                    } else {
                        DamageKind::Physical
                    }
                }
                Part::NoDefense if !q.ignore => q.ignore = true,
                Part::Assign if q.ignore => q.ignore = false,
                Part::Weapon if q.weapon_base.is_some_and(|b| b != q.base) => {
                    q.base = q.weapon_base.unwrap_or(q.base)
                }
                Part::Armor if q.armor != 0 => {
                    q.pdef -= q.armor;
                    q.mdef -= q.armor;
                }
                Part::Specials if q.specials > 0 => q.specials = 0,
                Part::EachOnce if q.each != 0 && specials > 1 => {
                    q.bonus -= q.each - q.each / i32::from(specials)
                }
                _ => return None,
            }
            Some(q)
        };
        first_explaining(&p, &parts, &recorded, without, |q| Some(q.dealt()))
            .map_or(rules::ATTACK_TOTAL, Part::rule)
    }

    /// What an attack does to each target after its damage, from one walk over its effects:
    /// the statuses in card order (each as many times as its trigger occurs, with its rule)
    /// and whether it knocks back. The walk is the same for every target and every stage of
    /// the attack, so the consequence chain makes it once per look instead of once per stage.
    pub(crate) fn after_damage(&self, s: &State, a: &Attack, specials: u8) -> AfterDamage {
        let mut out = AfterDamage::NONE;
        self.each_attack_effect(s, a.attacker, a.source, |e| self.after_effect(e, specials, &mut out));
        out
    }

    /// [`WildAssent::after_damage`] of the attack being resolved, as its damage due kept it
    /// in the state (`state::AttackKept`), or worked out.
    #[inline]
    pub(crate) fn kept_after_damage(&self, s: &State, a: &Attack, specials: u8) -> AfterDamage {
        match s.memo.3.after() {
            Some(bits) => {
                debug_assert_eq!(
                    AfterDamage(bits),
                    self.after_damage(s, a, specials),
                    "a kept AfterDamage is stale"
                );
                AfterDamage(bits)
            }
            None => self.after_damage(s, a, specials),
        }
    }

    /// Whether the attack's target `k` took damage from it, worked out on the state as it
    /// stands (a plain Knockback's condition), kept in the state between the two checks of
    /// the Knockback (`state::AttackKept`).
    pub(crate) fn took_damage(&self, s: &State, a: &Attack, k: usize, faces: Faces) -> bool {
        let t = a.targets[k];
        let damage = s.unit(t).damage;
        if let Some(took) = s.memo.3.knock(t, k, damage) {
            debug_assert_eq!(took, self.damage_parts(s, a, k, faces).dealt() > 0, "a kept damage is stale");
            return took;
        }
        let took = self.damage_parts(s, a, k, faces).dealt() > 0;
        s.memo.3.set_knock(t, k, damage, took);
        took
    }

    /// The `k`-th status the attack inflicts on each target, and its rule (`fx`: its
    /// [`WildAssent::after_damage`]).
    pub(crate) fn after_status(
        &self,
        s: &State,
        a: &Attack,
        fx: AfterDamage,
        specials: u8,
        k: usize,
    ) -> Option<(Status, &'static str)> {
        if let Some(held) = fx.status(k) {
            return held;
        }
        // Past the statuses held: the walk again, counting.
        let (mut seen, mut found) = (0, None);
        self.each_attack_effect(s, a.attacker, a.source, |e| {
            self.each_status_after(e, specials, |st, giver| {
                if seen == k {
                    found.get_or_insert(entry_of(st, giver));
                }
                seen += 1;
            });
        });
        found
    }

    /// One effect's part in [`WildAssent::after_damage`]. Always inlined: it is handed each
    /// effect of every damage due ([`WildAssent::damage_and_after`]), and left as a call it
    /// was one per effect.
    #[inline(always)]
    fn after_effect(&self, e: &Effect, specials: u8, out: &mut AfterDamage) {
        match e {
            Effect::Knockback => match self.params.knockback_plain {
                rules::KnockbackPlain::Damaged => out.0 |= AfterDamage::KNOCKS_DAMAGED,
                rules::KnockbackPlain::Always => out.0 |= AfterDamage::KNOCKS,
            },
            Effect::OnAttackKnockback => out.0 |= AfterDamage::KNOCKS,
            Effect::On(t, inner) if **inner == Effect::Knockback => {
                if t.times(specials) > 0 {
                    out.0 |= AfterDamage::KNOCKS;
                }
            }
            _ => self.each_status_after(e, specials, |st, giver| out.push(st, giver)),
        }
    }

    /// The statuses one effect of an attack inflicts on each target, in order (as many times
    /// as its trigger occurs), each with what gives it.
    #[inline]
    fn each_status_after(&self, e: &Effect, specials: u8, mut f: impl FnMut(Status, Giver)) {
        let (st, giver, times) = match e {
            Effect::Status(st) => (*st, Giver::Own, 1),
            Effect::On(t, inner) => {
                let Effect::Status(st) = **inner else { return };
                let giver = match t {
                    super::effect::Trigger::OnSpecial => Giver::OnSpecial,
                    super::effect::Trigger::OnEachSpecial => Giver::OnEachSpecial,
                    super::effect::Trigger::OnSpecials(_) => Giver::OnSpecials,
                };
                (st, giver, t.times(specials))
            }
            _ => return,
        };
        for _ in 0..times {
            f(st, giver);
        }
    }

    /// Where Knockback from `source` sends the miniature `t`: one field directly away.
    pub(crate) fn knock_dest(&self, s: &State, source: Pos, t: UnitIx) -> Knock {
        let at = s.unit(t).at;
        let (dx, dy) = source.delta(at);
        let to = at.offset(dx.signum() as i16, dy.signum() as i16);
        if !self.params.board.contains(to) || s.at(to).is_some() {
            return Knock::Stays;
        }
        match s.obstacle(to) {
            Some(o) if o.is_hazard() => Knock::Hazard,
            Some(Obstacle::Full | Obstacle::Partial) => Knock::Stays,
            _ => Knock::To(to),
        }
    }
}

/// A Speed (0-30) after the statuses held at the activation's start, when they count:
/// Fatigue (-2, never below 1), then Immobilize (none).
#[inline]
fn held_speed(speed: i32, act: &Activation, statuses: bool) -> u8 {
    let mut speed = speed;
    if statuses && act.held & Status::Fatigue.bit() != 0 && speed > 1 {
        speed = (speed - 2).max(1);
    }
    if statuses && act.held & Status::Immobilize.bit() != 0 {
        speed = 0;
    }
    speed as u8
}

/// Whether a skill (`equipment`: an Equipment card) is always on for its owner: Passive,
/// Defensive and Special skills, and Equipment that is not used as an action.
fn standing_skill(k: &Skill, equipment: bool) -> bool {
    matches!(k.kind, SkillKind::Passive | SkillKind::Defensive | SkillKind::Special)
        || (equipment && k.attack.is_none() && !matches!(k.kind, SkillKind::Active | SkillKind::Free))
}

/// Per stat block of the mode's table (by id): the effects of its own standing skills, in
/// card order.
pub(crate) fn card_standing(catalog: &super::cards::Catalog, arena: bool) -> std::sync::Arc<[Vec<Effect>]> {
    catalog
        .units(arena)
        .iter()
        .map(|(_, _, card)| {
            card.skills
                .iter()
                .map(|&k| &catalog.skills[k])
                .filter(|k| standing_skill(k, false))
                .flat_map(|k| k.effects.effects.iter().cloned())
                .collect()
        })
        .collect()
}

/// The rule of a status an attack inflicts.
pub(crate) fn status_rule(st: Status) -> &'static str {
    match st {
        Status::Immobilize => rules::IMMOBILIZE,
        Status::Bleed => rules::BLEED_TICK,
        Status::Fatigue => rules::FATIGUE,
        Status::Blind => rules::BLIND,
        Status::Stun => rules::STUN,
    }
}
