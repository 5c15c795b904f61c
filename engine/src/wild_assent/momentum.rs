//! Momentum dice (Arena): each side rolls five at a round's start (with four players, one
//! roll a team, or five for each player under `momentum-4p=player`), may reroll any of them
//! once, and assigns them to its Gladiators: Healing to anyone, a Summon too under
//! `momentum-summon-heal=heal` (combined: N dice heal N at once), the others to Creatures only, one die of a type and two dice at most per Creature
//! (interpretation `momentum-heal-cap`); a die that cannot legally be assigned is
//! discarded. What a die gives lasts for the round: Damage +1 to every attack, Defense +1
//! to both defenses, Speed +1.
//!
//! In `scope=combat` the round's start is not recorded: a side's next `momentum` roll is
//! the next round's, and it ends the bonuses of the last. In `scope=match` the `round`
//! ends them (round.rs, interpretation `momentum-duration`).

use super::cards::UnitKind;
use super::due::{Cause, Due, Fact};
use super::effect::Status;
use super::rules::{
    self, HealCap, Mode, Momentum4p, MomentumUnassigned, RerollCount, RerollTiming, SummonHeal,
};
use super::state::momentum::{Dice, Face, Pool};
use super::state::{Side, State, UnitIx};
use super::WildAssent;
use crate::kit::name::Name;
use crate::{Findings, StepError, Violation};

/// The pool's index of a side (red 0, blue 1).
fn slot(side: Side) -> Option<usize> {
    match side {
        Side::Red => Some(0),
        Side::Blue => Some(1),
        _ => None,
    }
}

impl WildAssent {
    /// Whether the Gladiator holds a Momentum die of this face this round.
    pub(crate) fn holds(&self, s: &State, i: UnitIx, f: Face) -> bool {
        self.bonus_dice(s, i) & f.bit() != 0
    }

    /// Momentum is the Arena's, rolled between activations.
    fn momentum_time(&self, s: &State, what: &str, f: &mut Findings) -> Result<bool, StepError> {
        if self.params.mode != Mode::Arena {
            return Err(StepError::new(format!("`{what}`: Momentum dice are the Arena's (mode=arena)")));
        }
        let late = self.params.scope == super::rules::Scope::Match && s.arena.started;
        if s.act.is_some() || s.attack.is_some() || s.skill.is_some() || late {
            f.violate(Violation::new(
                rules::MOMENTUM_BETWEEN,
                format!("`{what}` comes during the round's activations: Momentum dice are rolled and assigned at its start"),
            ));
            return Ok(false);
        }
        Ok(true)
    }

    fn pool_of(&self, side: Side) -> Result<usize, StepError> {
        slot(side).ok_or_else(|| {
            StepError::new(format!("Momentum dice belong to a side, red or blue (not {side})"))
        })
    }

    /// `momentum SIDE DICE`: a new roll; the side's bonuses of the last round end.
    pub(crate) fn momentum_roll(
        &self,
        s: &mut State,
        side: Side,
        dice: Dice,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let p = self.pool_of(side)?;
        if !self.momentum_time(s, "momentum", f)? {
            return Ok(());
        }
        self.round_start(s, Some(side), f);
        let (owed, players) = self.dice_owed(s, side);
        if dice.count() != owed {
            let whose = if players > 1 {
                format!(
                    " (5 for each of its {players} players with Gladiators on the board, momentum-4p=player)"
                )
            } else {
                String::new()
            };
            f.violate(Violation::new(
                rules::MOMENTUM_COUNT,
                format!("{side} rolls {owed} Momentum dice{whose}, not {}", dice.count()),
            ));
        }
        for (i, u) in s.units.iter_mut().enumerate().filter(|(_, u)| u.side == side) {
            u.momentum = 0;
            u.momentum_dice = 0;
            s.momentum_cured &= !(1u32 << i);
        }
        s.momentum[p] = Pool {
            dice,
            rolled: true,
            rerolled: false,
            assigned: false,
            second: Default::default(),
            guessed: false,
        };
        Ok(())
    }

    /// The Momentum dice a side's roll holds, and the players rolling them: five, one roll a
    /// side ("replace 'player' with 'team' for a 4-player match", l.384, interpretation
    /// `momentum-4p`), or under `momentum-4p=player` in a four-player match five for each
    /// player of the side with a Gladiator on the board (both players' rolls are recorded in
    /// the side's one `momentum` line: a round's second roll of a side is another round's
    /// business, round.rs). A player is a troupe; a match whose troupes are not recorded
    /// (`scope=combat`) counts both players of the side.
    pub(crate) fn dice_owed(&self, s: &State, side: Side) -> (u8, u8) {
        if self.params.players != 4 || self.params.momentum_4p == Momentum4p::Team {
            return (5, 1);
        }
        if s.troupes.troupes.is_empty() {
            return (10, 2);
        }
        let mut playing = 0u64;
        for u in s.units.iter().filter(|u| u.side == side && u.on_board()) {
            if let Some(t) = s.troupes.of(&u.name).filter(|t| *t < 64) {
                playing |= 1u64 << t;
            }
        }
        let n = u8::try_from(playing.count_ones()).unwrap_or(2).max(1);
        (n.saturating_mul(5), n)
    }

    /// The dice must be among the side's unassigned ones. Inlined, the refusal out of line:
    /// every assignment asks, and almost every one is from the pool.
    #[inline]
    fn from_pool(&self, s: &mut State, p: usize, side: Side, dice: &Dice, f: &mut Findings) -> bool {
        let pool = s.momentum[p];
        if pool.rolled && pool.dice.holds(dice) {
            return true;
        }
        self.not_in_pool(s, p, side, dice, f)
    }

    /// [`WildAssent::from_pool`]'s refusal. In a match, a side that assigns (rerolls,
    /// discards) at its round's start with no roll recorded left its `momentum` line out
    /// (audit r6 D13): one finding, and the roll is taken as the dice the side goes on to use
    /// (`guessed`), so each later assignment is not reported again, nor the first activation.
    #[cold]
    #[inline(never)]
    fn not_in_pool(&self, s: &mut State, p: usize, side: Side, dice: &Dice, f: &mut Findings) -> bool {
        let pool = s.momentum[p];
        let matching = self.params.scope == super::rules::Scope::Match;
        if matching && (pool.guessed || !pool.rolled) {
            if !pool.guessed {
                let (rule, msg) = if s.round > 1 {
                    (
                        rules::MOMENTUM_DURATION,
                        format!(
                            "{side} has not rolled this round: the dice of round {} lasted that round \
                             (the roll left out: taken as the dice {side} uses)",
                            s.round - 1
                        ),
                    )
                } else {
                    (
                        rules::ROUND_SEQUENCE,
                        format!(
                            "round {} begins with {side}'s Momentum roll, not recorded (left out): \
                             taken as the dice {side} uses",
                            s.round
                        ),
                    )
                };
                f.violate(Violation::new(rule, msg));
                // The first activation does not report the roll missing again (round.rs).
                s.arena.missed[p] = true;
            }
            let pool = &mut s.momentum[p];
            pool.rolled = true;
            pool.guessed = true;
            let short = dice.minus(&pool.dice);
            pool.dice = pool.dice.plus(&short);
            return true;
        }
        // A die given to a miniature is its side's (a `momentum-assign` names no giver):
        // say whether that side has rolled at all, and what it holds.
        let has = if !pool.rolled {
            format!("{side} has not rolled its Momentum dice this round")
        } else if pool.dice.count() == 0 {
            "none is left".to_string()
        } else {
            format!("it has `{}`", pool.dice)
        };
        f.violate(Violation::new(
            rules::MOMENTUM_POOL,
            format!(
                "{side} has no unassigned Momentum dice `{dice}` ({has}; a side assigns only its own dice)"
            ),
        ));
        false
    }

    /// `momentum-reroll SIDE OLD -> NEW`.
    pub(crate) fn momentum_reroll(
        &self,
        s: &mut State,
        side: Side,
        from: Dice,
        to: Dice,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let p = self.pool_of(side)?;
        if !self.momentum_time(s, "momentum-reroll", f)? || !self.from_pool(s, p, side, &from, f) {
            return Ok(());
        }
        let pool = s.momentum[p];
        // `momentum-reroll-count`: a die's second result stands (`per-die`, any die not
        // rerolled yet may be, in one line or several), or one selection a roll (`once`).
        let firsts = pool.dice.minus(&pool.second);
        let second_result = match self.params.reroll_count {
            RerollCount::PerDie => (!firsts.holds(&from)).then(|| {
                format!("{side} rerolls `{from}`, and its unrerolled dice are `{firsts}`: a die's second result stands")
            }),
            RerollCount::Once => pool.rerolled.then(|| format!("{side} has rerolled once already: the second result stands")),
        };
        if let Some(msg) = second_result {
            f.violate(Violation::new(rules::MOMENTUM_REROLL, msg));
        } else if pool.assigned && self.params.reroll == RerollTiming::BeforeAssign {
            f.violate(Violation::new(
                rules::MOMENTUM_REROLL,
                format!("{side} has assigned dice: the reroll comes before (momentum-reroll-timing=before-assign)"),
            ));
        }
        if to.count() != from.count() {
            f.violate(Violation::new(
                rules::MOMENTUM_REROLL,
                format!(
                    "{} {} rerolled, so {} {}, not {}",
                    from.count(),
                    if from.count() == 1 { "die is" } else { "dice are" },
                    from.count(),
                    if from.count() == 1 { "result" } else { "results" },
                    to.count()
                ),
            ));
        }
        let pool = &mut s.momentum[p];
        pool.dice = pool.dice.minus(&from).plus(&to);
        pool.second = pool.second.minus(&from.minus(&firsts)).plus(&to);
        pool.rerolled = true;
        Ok(())
    }

    /// Why `dice` may not go to `i` now (the first rule broken), if any.
    pub(crate) fn assign_refusal(&self, s: &State, i: UnitIx, dice: &Dice) -> Option<(&'static str, String)> {
        let u = s.unit(i);
        let name = u.name;
        // "Healing: Heal a Gladiator for 1", and a Summon is a Gladiator but no Creature
        // (interpretation `momentum-summon-heal`): Healing dice only, and the Creature's
        // one-of-a-type and two-dice limits are not a Summon's.
        if u.kind == UnitKind::Summon {
            let heal_only = dice.of(Face::Heal) == dice.count();
            if heal_only && self.params.summon_heal == SummonHeal::Heal {
                return None;
            }
            return Some((
                rules::SUMMON_NOT_CREATURE,
                match self.params.summon_heal {
                    SummonHeal::Heal => format!("{name} is a Summon, not a Creature: only Healing dice"),
                    SummonHeal::None => {
                        format!("{name} is a Summon, not a Creature: no Momentum dice (momentum-summon-heal=none)")
                    }
                },
            ));
        }
        // "With the exception of Healing dice (and Blanks), the results are assigned to
        // Creatures" (l.527): a Blank has no effect and goes to nobody, Assent or Creature.
        if dice.of(Face::Blank) > 0 {
            return Some((
                rules::MOMENTUM_BLANK,
                format!("a Blank die has no effect: it is assigned to nobody, {name} neither"),
            ));
        }
        let effects = dice.of(Face::Damage) + dice.of(Face::Defense) + dice.of(Face::Speed);
        if u.kind == UnitKind::Assent && effects > 0 {
            return Some((
                rules::MOMENTUM_ASSENT_HEAL,
                format!("{name} is an Assent: only Healing dice go to an Assent"),
            ));
        }
        for face in [Face::Damage, Face::Defense, Face::Speed] {
            let n = dice.of(face) + u8::from(u.momentum & face.bit() != 0);
            if n > 1 {
                return Some((
                    rules::MOMENTUM_DISTINCT,
                    format!("{name} would hold {n} {face} dice: one of each type"),
                ));
            }
        }
        let counted = match self.params.heal_cap {
            HealCap::HealExempt => effects,
            HealCap::HealCounts => effects + dice.of(Face::Heal),
        };
        let held = u.momentum_dice;
        if held.saturating_add(counted) > 2 {
            return Some((
                rules::MOMENTUM_TWO,
                format!("{name} would hold {} Momentum dice: two at most", held.saturating_add(counted)),
            ));
        }
        None
    }

    /// `momentum-assign UNIT DICE`.
    pub(crate) fn momentum_assign(
        &self,
        s: &mut State,
        unit: Name,
        dice: Dice,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let i = s.find(&unit).ok_or_else(|| StepError::new(format!("`{unit}` is not on the table")))?;
        let side = s.unit(i).side;
        let p = self.pool_of(side)?;
        if !s.unit(i).on_board() {
            return Err(StepError::new(format!("{unit} is not on the board")));
        }
        if !self.momentum_time(s, "momentum-assign", f)? || !self.from_pool(s, p, side, &dice, f) {
            return Ok(());
        }
        if let Some((rule, msg)) = self.assign_refusal(s, i, &dice) {
            f.violate(Violation::new(rule, msg));
        }
        let pool = &mut s.momentum[p];
        pool.dice = pool.dice.minus(&dice);
        // A die that leaves the pool is taken as a reroll's result where one is there (the
        // log does not say which of two like dice it was): what stays may still be rerolled.
        pool.second = pool.second.minus(&dice);
        pool.assigned = true;
        let counted = match self.params.heal_cap {
            HealCap::HealExempt => dice.count() - dice.of(Face::Heal) - dice.of(Face::Blank),
            HealCap::HealCounts => dice.count() - dice.of(Face::Blank),
        };
        let u = s.unit_mut(i);
        for face in dice.faces().filter(|f| *f != Face::Blank) {
            u.momentum |= face.bit();
        }
        u.momentum_dice = u.momentum_dice.saturating_add(counted);
        if dice.of(Face::Heal) > 0 {
            s.momentum_heal = Some((i, dice.of(Face::Heal)));
        }
        Ok(())
    }

    /// `momentum-discard SIDE DICE`: only a die no Gladiator of the side may take.
    pub(crate) fn momentum_discard(
        &self,
        s: &mut State,
        side: Side,
        dice: Dice,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let p = self.pool_of(side)?;
        if !self.momentum_time(s, "momentum-discard", f)? || !self.from_pool(s, p, side, &dice, f) {
            return Ok(());
        }
        if let Some((face, t)) = self.first_takeable(s, side, &dice) {
            f.violate(Violation::new(
                rules::MOMENTUM_DISCARD,
                format!(
                    "the {face} die can still go to {}: only a die no Gladiator may take is discarded",
                    s.unit(t).name
                ),
            ));
        }
        let pool = &mut s.momentum[p];
        pool.dice = pool.dice.minus(&dice);
        // A die that leaves the pool is taken as a reroll's result where one is there (the
        // log does not say which of two like dice it was): what stays may still be rerolled.
        pool.second = pool.second.minus(&dice);
        Ok(())
    }

    /// The first die of `dice` (Blanks aside) that a Gladiator of `side` on the board could
    /// still be assigned, with that Gladiator: what makes a discard, or a die left unassigned,
    /// one without cause.
    fn first_takeable(&self, s: &State, side: Side, dice: &Dice) -> Option<(Face, UnitIx)> {
        dice.faces().filter(|f| *f != Face::Blank).find_map(|face| {
            let mut one = Dice::default();
            one.add(face);
            let taker = s.indices().find(|&i| {
                s.unit(i).on_board() && s.unit(i).side == side && self.assign_refusal(s, i, &one).is_none()
            });
            taker.map(|t| (face, t))
        })
    }

    /// An activation begins (interpretation `momentum-unassigned=discarded`): the round's
    /// dice are distributed by now. "Distributes them
    /// among their Gladiators ... the second result must be used" (l.386) and a die "would be
    /// discarded because of the '1 type per Creature' rule" (l.535): a die left unassigned that
    /// a Gladiator of its side could take is a die discarded without cause, reported once per
    /// side under the discard's rule; it is lost either way (Blanks, and dice nobody may
    /// take, are lost silently).
    pub(crate) fn momentum_unused(&self, s: &mut State, f: &mut Findings) {
        if self.params.mode != Mode::Arena || self.params.unassigned != MomentumUnassigned::Discarded {
            return;
        }
        for side in [Side::Red, Side::Blue] {
            let Some(p) = slot(side) else { continue };
            let pool = s.momentum[p];
            if !pool.rolled {
                continue;
            }
            if let Some((face, t)) = self.first_takeable(s, side, &pool.dice) {
                f.violate(Violation::new(
                    rules::MOMENTUM_DISCARD,
                    format!(
                        "{side}'s {face} die is left unassigned as the activations begin, though {} could take it: the dice are distributed",
                        s.unit(t).name
                    ),
                ));
            }
            let mut blanks = Dice::default();
            for _ in 0..pool.dice.of(Face::Blank) {
                blanks.add(Face::Blank);
            }
            s.momentum[p].dice = blanks;
            let second = s.momentum[p].second;
            s.momentum[p].second = second.minus(&second.minus(&blanks));
        }
    }

    /// The healing of Healing dice just assigned, combined (a Bleeding Gladiator is cured
    /// instead).
    pub(crate) fn momentum_due(&self, s: &State) -> Option<Due> {
        let (i, n) = s.momentum_heal?;
        let u = s.unit(i);
        // This round's Healing dice already cured it: all of them are one healing (l.527), and
        // the cure leaves its Health as it is "regardless of how much" (l.594).
        if !u.on_board() || s.momentum_cured & (1u32 << i) != 0 {
            return None;
        }
        let cause = Cause::Momentum;
        if u.has(Status::Bleed) {
            return Some(Due { fact: Fact::Cure(i), rule: rules::BLEED_HEAL, cause });
        }
        let amount = i32::from(n).min(u.damage).max(0);
        (amount > 0).then_some(Due { fact: Fact::Heal(i, amount), rule: rules::MOMENTUM_HEAL, cause })
    }
}
