//! Step 1, Roll Dice: the whole pool is rolled once, then whole sets are rerolled, one at a
//! time, until the player stops or the one-minute timer goes off.
//!
//! "At the beginning of this step, start the timer ... You now have 60 seconds!": the timer
//! runs from the roll's own time (`t=` on the `roll`, 0 when it has none); a reroll more than
//! 60 s after it is late (exactly 60 s is the interpretation `timer`).

use super::dice::{ColorCounts, Dice, MAX_DICE};
use super::event::Event;
use super::params::{Module, RollsTimer};
use super::rules::*;
use super::state::{Made, Phase, State};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

impl ProvingGrounds {
    /// `roll DIE...`: a round starts.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn roll(&self, s: &mut State, dice: &Dice, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Draw => {
                self.check_slots_filled(s, f);
                for m in self.modules() {
                    m.start_round(self, s, f);
                }
            }
            Phase::Roll => f.violate(Violation::new(
                STEP_ORDER,
                "the pool was already rolled this round; only whole sets are rerolled now",
            )),
            _ => {
                self.end_round_without_recovery(s, e, f);
                if s.phase == Phase::Over {
                    return; // a wound the log left out lost the game: nothing follows
                }
                // The recovery was made there: the new round starts as after any other. Its
                // refill is step 3's too (l.185): the one finding covers empty slots as well.
                for m in self.modules() {
                    m.start_round(self, s, f);
                }
            }
        }
        if dice.colors() != s.pool.colors() {
            f.violate(Violation::new(
                ROLL_WHOLE_POOL,
                format!("rolled `{dice}` but the pool holds {:#}", s.pool.colors()),
            ));
            if dice.len() == s.pool.len() {
                // Every die rolled, a color misread (`1` for `1g`): the round is judged by the
                // dice as recorded, and its recovery gives the pool back its own colors (setup
                // l.67; the pool is only changed by a replacement, l.173), as it does for an
                // effect's dice (`recover::end_effect_dice`): the misread die was not lost for
                // the game, so the next correct roll is no second finding (audit r6 D17).
                let (rolled, pool) = (dice.colors(), s.pool.colors());
                s.effect_extra = rolled.minus(pool);
                s.effect_missing = pool.minus(rolled);
            }
        }
        s.pool = *dice;
        s.pool.sort();
        s.round = s.round.saturating_add(1);
        s.rerolls = 0;
        s.timer_start = e.time.unwrap_or(0);
        s.clock = s.timer_start;
        s.moved = 0;
        s.cursor = 0;
        s.phase = Phase::Roll;
        if !s.made.is_empty() {
            // Last round's made consequences wait for their late records no longer; a
            // recovery made at this roll still may get its own.
            s.made = Made { recovery: s.made.recovery, pending: s.made.recovery, ..Made::default() };
        }
        for m in self.modules() {
            m.after_roll(self, s);
        }
    }

    /// `reroll FACE -> DIE...`: the whole set showing `FACE` (a bitmask of faces) rerolled.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn reroll(
        &self,
        s: &mut State,
        faces: u8,
        dice: &Dice,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if s.phase != Phase::Roll {
            f.violate(Violation::new(STEP_ORDER, "rerolls happen in step 1, between the roll and `stop`"));
        }
        self.check_timer(s, e, "reroll", f);
        if faces.count_ones() > 1 {
            f.violate(Violation::new(ROLL_ONE_SET, "only one set may be rerolled at a time"));
        }
        // One pass over the pool: how many dice show each face (as `Dice::faces` counts them),
        // and which dice are in the rerolled sets, by color (bit j = pool die j).
        let mut counts = [0u8; 7];
        let mut by_color = [0u16; 4];
        for (j, d) in s.pool.iter().enumerate() {
            counts[(d.value as usize).min(6)] += 1;
            if d.value <= 6 && faces & (1 << d.value) != 0 {
                by_color[d.color.index()] |= 1 << j;
            }
        }
        let in_set = by_color.iter().fold(0u16, |a, &m| a | m);
        let mut face_missing = false;
        let set_colors = ColorCounts(by_color.map(|m| m.count_ones() as u8));
        let mut total = 0usize;
        for face in 1..=6u8 {
            if faces & (1 << face) == 0 {
                continue;
            }
            match counts[face as usize] {
                // A plausible slip (a face misread): one finding, and the dice listed are
                // taken from the pool as below, so the replay goes on (audit r6 D9).
                0 => {
                    face_missing = true;
                    f.violate(Violation::new(ROLL_WHOLE_SET, format!("no die in the pool shows {face}")))
                }
                // A module (an inspiration card's `reroll-single`) may allow one single.
                1 if !self.modules().any(|m| m.allow_single_reroll(s)) => f.violate(Violation::new(
                    ROLL_SINGLE,
                    format!("the {face} is a single and cannot be rerolled"),
                )),
                _ => {}
            }
            total += counts[face as usize] as usize;
        }
        let colors_differ = dice.colors() != set_colors;
        if dice.len() > total {
            // More dice than the set: the ones beyond it were other dice of the pool picked up
            // with it (card l.5 "Must reroll the whole set" rerolls the set, no more). One
            // finding, and the reroll is applied as listed, the extra dice taken from the pool
            // by color (it stopped the replay before rules 13, audit r6 D9).
            if !face_missing {
                f.violate(Violation::new(
                    ROLL_WHOLE_SET,
                    format!("`{e}` rerolls {} dice but only {total} show those numbers", dice.len()),
                ));
            }
            if dice.len() > s.pool.len() {
                return Err(StepError::new("the reroll lists more dice than the pool holds"));
            }
        } else if (dice.len() < total || colors_differ) && !face_missing {
            f.violate(Violation::new(
                ROLL_WHOLE_SET,
                format!("the set is {set_colors:#} but the reroll lists `{dice}`"),
            ));
        }
        // Pick the rerolled dice first (by color where possible, else any die of the sets; the
        // first in pool order either way), then give them their new faces, so a new face equal
        // to the set's number is not picked twice. The order a line lists dice in is not a
        // fact: when every die finds its color the order cannot matter, otherwise the dice are
        // picked in the canonical order.
        let sorted;
        let listed = if colors_differ {
            sorted = {
                let mut d = *dice;
                d.sort();
                d
            };
            &sorted
        } else {
            dice
        };
        let mut taken = 0u16;
        let mut picks = [0usize; MAX_DICE];
        for (k, d) in listed.iter().enumerate() {
            let exact = by_color[d.color.index()] & !taken;
            // Beyond the set: a die of the pool outside it, of the listed color if one is left.
            let all = (1u16 << s.pool.len()) - 1;
            let outside_color =
                s.pool.iter().enumerate().fold(
                    0u16,
                    |m, (j, x)| {
                        if x.color == d.color {
                            m | (1 << j)
                        } else {
                            m
                        }
                    },
                ) & !in_set
                    & !taken;
            let free = [exact, in_set & !taken, outside_color, all & !taken]
                .into_iter()
                .find(|&m| m != 0)
                .unwrap_or(0);
            if free == 0 {
                return Err(StepError::new("the rerolled dice are not in the pool"));
            }
            let j = free.trailing_zeros() as usize;
            taken |= 1 << j;
            picks[k] = j;
        }
        let pool = s.pool.as_mut_slice();
        for (k, d) in listed.iter().enumerate() {
            pool[picks[k]].value = d.value;
        }
        s.pool.sort();
        s.rerolls = s.rerolls.saturating_add(1);
        for m in self.modules() {
            m.after_reroll(self, s, f);
        }
        Ok(())
    }

    /// A step 1 action (a reroll; dice placed on a chariot, which the reference card puts in
    /// Step 1) after the timer went off: step 1 lasts "until the timer goes off".
    pub(super) fn check_timer(&self, s: &State, e: &Event, what: &str, f: &mut Findings) {
        // `rolls-timer=tracker-only`: the card's Step 1 ("Stop when satisfied or out of
        // rerolls") has the Rolls tracker end rolling instead of the timer.
        if self.config.rolls_timer == RollsTimer::TrackerOnly && self.has(Module::Rolls) {
            return;
        }
        if let Some(t) = e.time {
            let since = t.saturating_sub(s.timer_start);
            if since > self.config.last_reroll_second {
                f.violate(Violation::new(
                    ROLL_TIMER,
                    format!(
                        "{what} at t={t}, {since} s after the roll (t={}): the one-minute timer had gone off",
                        s.timer_start
                    ),
                ));
            }
        }
    }

    /// `stop`: rolling is over ("Battle End", or the timer went off).
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn stop(&self, s: &mut State, f: &mut Findings) {
        if s.phase == Phase::Roll {
            self.leave_roll(s, f);
        } else {
            f.violate(Violation::new(STEP_ORDER, "`stop` ends step 1, but no roll is in progress"));
        }
    }

    /// Rolling ends (`stop`, or the first step 2 event): step 2 starts.
    pub(super) fn leave_roll(&self, s: &mut State, f: &mut Findings) {
        s.phase = Phase::Move;
        for m in self.modules() {
            m.leave_roll(self, s, f);
        }
    }
}
