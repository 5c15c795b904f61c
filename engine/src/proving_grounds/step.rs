//! The step function: every rule of the training game, checked and applied in one place.
//!
//! Each handler first judges the event against the state (pushing violations, which only
//! allocate on the illegal path), then applies it as played. Consequences recorded in the
//! log are compared with what `attack::resolve_attack` and the checks require; a consequence
//! the log skipped is reported at the event where its absence shows.

use super::attack::{resolve_attack, resolve_attack_with, Expected, Hold};
use super::dice::{Color, ColorCounts, Dice, Die, MAX_DICE};
use super::event::{Action, Event};
use super::modules::Module;
use super::params::{ExhaustFrom, ReplaceWithoutWhite};
use super::rules::*;
use super::state::{Outcome, Phase, State, EXHAUSTION, MAX_DISCARD, SLOTS};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

/// Defeats needed to win.
pub const DEFEATS_TO_WIN: u8 = 8;

impl ProvingGrounds {
    /// What the rules require of slot `i`'s marker this round (no enemy: nothing).
    pub(super) fn expected_for(&self, s: &State, i: usize) -> Expected {
        match s.slots[i].card {
            None => Expected::Hold(Hold::NoDice),
            Some(c) if self.config.modules.is_empty() => {
                resolve_attack(self.enemy(c), s.slots[i].marker, s.pool.colors_showing(i as u8 + 1))
            }
            Some(c) => {
                let (mods, dice) = self.attack_mods(s, i);
                resolve_attack_with(self.enemy(c), s.slots[i].marker, dice, mods)
            }
        }
    }

    /// The requirement of the space above slot `i`'s marker, as an active conspirator may
    /// have raised it this round.
    fn requirement_now(&self, s: &State, i: usize, en: &super::enemy::Enemy) -> super::enemy::Requirement {
        let mut req = en.requirement(s.slots[i].marker.saturating_add(1));
        if !self.config.modules.is_empty() {
            req.count = req.count.saturating_add(self.attack_mods(s, i).0.extra_count);
        }
        req
    }

    /// The die color a wound from slot `i` sends to the exhaustion track when the player
    /// does not say: white first (colored dice are the valuable ones), then green, yellow, blue.
    pub(super) fn default_exhaust(&self, s: &State, i: usize) -> Color {
        let face = i as u8 + 1;
        let from_enemy =
            self.config.exhaust_from == ExhaustFrom::WoundingEnemy && s.pool.iter().any(|d| d.value == face);
        Color::ALL
            .into_iter()
            .find(|&c| s.pool.iter().any(|d| d.color == c && (!from_enemy || d.value == face)))
            .unwrap_or(Color::White)
    }

    /// Apply one event (see the module doc).
    pub(super) fn apply(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        if s.phase == Phase::Over {
            // The game has ended: the event is reported and not applied, since no rule says
            // what it would mean.
            f.violate(Violation::new(
                GAME_OVER,
                format!("the game is already {}; `{e}` comes after its end", s.outcome.name()),
            ));
            return Ok(());
        }
        check_shape(e)?;
        if let Some(t) = e.time {
            self.check_time(s, e, t, f);
        }
        // The dragonling die may only follow the roll or reroll it went with.
        let dragon_may = std::mem::replace(&mut s.mods.dragon_may, false);
        if let Some(m) = e.action.module() {
            if !self.config.modules.has(m) {
                f.violate(Violation::new(
                    NOT_IN_PLAY,
                    format!("`{e}` is a {} module event, but the setup does not include it", m.name()),
                ));
            }
        }
        match &e.action {
            Action::EnemyDrawn { slot, card } => self.draw(s, *slot, card, e, f),
            Action::DiceRolled { dice } => {
                match s.phase {
                    Phase::Draw => {
                        self.check_slots_filled(s, f);
                        if !self.config.modules.is_empty() {
                            self.start_round_checks(s, f);
                        }
                    }
                    Phase::Roll => f.violate(Violation::new(
                        STEP_ORDER,
                        "the pool was already rolled this round; only whole sets are rerolled now",
                    )),
                    _ => self.end_round_without_recovery(s, e, f),
                }
                if dice.colors() != s.pool.colors() {
                    f.violate(Violation::new(
                        ROLL_WHOLE_POOL,
                        format!("rolled `{dice}` but the pool holds {}", describe(s.pool.colors())),
                    ));
                }
                s.pool = *dice;
                s.pool.sort();
                s.round = s.round.saturating_add(1);
                s.rerolls = 0;
                // "At the beginning of this step, start the timer": the roll's own time.
                s.timer_start = e.time.unwrap_or(0);
                s.clock = s.timer_start;
                s.moved = 0;
                s.cursor = 0;
                s.phase = Phase::Roll;
                if !self.config.modules.is_empty() {
                    self.begin_roll_mods(s);
                }
                Ok(())
            }
            Action::SetRerolled { faces, dice } => self.reroll(s, *faces, dice, e, f),
            Action::RollingStopped => {
                if s.phase == Phase::Roll {
                    self.leave_roll(s, f);
                } else {
                    f.violate(Violation::new(STEP_ORDER, "`stop` ends step 1, but no roll is in progress"));
                }
                Ok(())
            }
            Action::MarkerMovedUp { slot, .. }
            | Action::MarkerMovedDown { slot }
            | Action::MarkerHeld { slot }
            | Action::ShieldGained { slot }
            | Action::ShieldRemoved { slot } => self.move_marker(s, *slot as usize - 1, e, f),
            Action::EnemyDefeated { slot } => self.defeat(s, *slot as usize - 1, e, f),
            Action::WoundSuffered { slot, exhausted } => self.wound(s, *slot as usize - 1, *exhausted, e, f),
            Action::DieReplaced { discarded, taken } => {
                self.replace(s, *discarded, *taken, e, f);
                Ok(())
            }
            Action::Recovered => {
                self.recover(s, e, f);
                Ok(())
            }
            _ => self.module_event(s, e, dragon_may, f),
        }
    }

    fn draw(
        &self,
        s: &mut State,
        slot: u8,
        name: &str,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let card = self
            .enemies
            .iter()
            .position(|en| en.id == name)
            .ok_or_else(|| StepError::new(format!("no enemy `{name}` in the catalog")))?
            as u8;
        match s.phase {
            Phase::Draw => {}
            Phase::Move | Phase::Check => {
                self.end_round_without_recovery(s, e, f);
                s.phase = Phase::Draw;
            }
            _ => f.violate(Violation::new(
                STEP_ORDER,
                "enemies are drawn during setup or step 3 (recover), not while rolling",
            )),
        }
        let i = slot as usize - 1;
        if let Some(old) = s.slots[i].card {
            f.violate(Violation::new(
                DRAW_EMPTY_SLOT,
                format!("slot {slot} still holds `{}`", self.enemy(old).id),
            ));
        }
        if s.is_drawn(card) {
            f.violate(Violation::new(DRAW_UNIQUE, format!("`{name}` was already drawn this game")));
        }
        s.mark_drawn(card);
        s.slots[i].card = Some(card);
        s.slots[i].marker = self.enemy(card).start;
        Ok(())
    }

    /// Before a roll: every slot holds an enemy unless the deck ran out.
    fn check_slots_filled(&self, s: &State, f: &mut Findings) {
        let empty = s.slots.iter().filter(|sl| sl.card.is_none()).count();
        let left = self.enemies.len().saturating_sub(s.drawn_count() as usize);
        if empty > 0 && left > 0 {
            let rule = if s.round == 0 { SETUP_SIX_ENEMIES } else { RECOVER_REFILL };
            let list: Vec<String> =
                (0..SLOTS).filter(|&i| s.slots[i].card.is_none()).map(|i| (i + 1).to_string()).collect();
            f.violate(Violation::new(
                rule,
                format!(
                    "slot(s) {} are empty at the roll while the deck still has {left} card(s)",
                    list.join(", ")
                ),
            ));
        }
    }

    fn reroll(
        &self,
        s: &mut State,
        faces: u8,
        dice: &super::dice::Dice,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if s.phase != Phase::Roll {
            f.violate(Violation::new(STEP_ORDER, "rerolls happen in step 1, between the roll and `stop`"));
        }
        if let Some(t) = e.time {
            let since = t.saturating_sub(s.timer_start);
            if since > self.config.last_reroll_second {
                f.violate(Violation::new(
                    ROLL_TIMER,
                    format!(
                        "reroll at t={t}, {since} s after the roll (t={}): the one-minute timer had gone off",
                        s.timer_start
                    ),
                ));
            }
        }
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
        let set_colors = ColorCounts(by_color.map(|m| m.count_ones() as u8));
        let mut total = 0usize;
        for face in 1..=6u8 {
            if faces & (1 << face) == 0 {
                continue;
            }
            match counts[face as usize] {
                0 => return Err(StepError::rule(ROLL_WHOLE_SET, format!("no die in the pool shows {face}"))),
                // An inspiration card (`reroll-single`) lets one single be rerolled.
                1 if s.mods.single_reroll => s.mods.single_reroll = false,
                1 => f.violate(Violation::new(
                    ROLL_SINGLE,
                    format!("the {face} is a single and cannot be rerolled"),
                )),
                _ => {}
            }
            total += counts[face as usize] as usize;
        }
        if dice.len() > total {
            return Err(StepError::rule(
                ROLL_WHOLE_SET,
                format!("`{e}` rerolls {} dice but only {total} show those numbers", dice.len()),
            ));
        }
        if dice.len() < total || dice.colors() != set_colors {
            f.violate(Violation::new(
                ROLL_WHOLE_SET,
                format!("the set is {} but the reroll lists `{dice}`", describe(set_colors)),
            ));
        }
        // Pick the rerolled dice first (by color where possible, else any die of the sets; the
        // first in pool order either way), then give them their new faces, so a new face equal
        // to the set's number is not picked twice.
        // The order a line lists dice in is not a fact: pick in the canonical order.
        let mut listed = *dice;
        listed.sort();
        let mut taken = 0u16;
        let mut picks = [0usize; super::dice::MAX_DICE];
        for (k, d) in listed.iter().enumerate() {
            let exact = by_color[d.color.index()] & !taken;
            let free = if exact != 0 { exact } else { in_set & !taken };
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
        if !self.config.modules.is_empty() {
            self.reroll_mods(s, f);
        }
        Ok(())
    }

    fn move_marker(&self, s: &mut State, i: usize, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        let card = s.slots[i].card.ok_or_else(|| StepError::new(format!("slot {} holds no enemy", i + 1)))?;
        match s.phase {
            Phase::Roll => self.leave_roll(s, f), // rolling ends when resolution starts
            Phase::Move => {}
            Phase::Check => f.violate(Violation::new(
                CHECK_AFTER_MOVES,
                format!("marker {} moves after defeats and wounds were checked", i + 1),
            )),
            _ => f.violate(Violation::new(STEP_ORDER, "markers move in step 2, after a roll")),
        }
        if s.phase == Phase::Move {
            if s.has_moved(i) {
                f.violate(Violation::new(
                    RESOLVE_ORDER,
                    format!("marker {} already had its move this round", i + 1),
                ));
            } else if i < s.cursor as usize {
                f.violate(Violation::new(
                    RESOLVE_ORDER,
                    format!("marker {} moves after marker {}: markers move from #1 to #6", i + 1, s.cursor),
                ));
            } else {
                self.report_missing_moves(s, i, e, f);
            }
        }
        if !self.config.modules.is_empty() {
            self.marker_turn_mods(s, i, e, f);
        }
        let expected = self.expected_for(s, i);
        let slot = i as u8 + 1;
        // A marker that already had its move is only out of order: judging its second move
        // against the moved marker would report the same mistake twice.
        let ok = s.has_moved(i)
            || match (expected, &e.action) {
                (Expected::Down | Expected::Reflected, Action::MarkerMovedDown { .. }) => true,
                (Expected::Shield, Action::ShieldGained { .. }) => true,
                (Expected::Unshield, Action::ShieldRemoved { .. }) => true,
                (Expected::Hold(_), Action::MarkerHeld { .. }) => true,
                (Expected::Up(m), Action::MarkerMovedUp { spaces, .. }) => {
                    *spaces == m || (self.config.multi_space_optional && *spaces < m)
                }
                _ => false,
            };
        if !ok {
            let rule = match (expected, &e.action) {
                (Expected::Up(m), Action::MarkerMovedUp { spaces, .. }) if *spaces > m => SEPARATE_DICE,
                (Expected::Up(_), _) => SET_UP,
                (Expected::Down, _) => SINGLE_DOWN,
                (Expected::Reflected, _) => SHIELD_REFLECTED,
                (Expected::Shield, _) => SHIELD_GAIN,
                (Expected::Unshield, _) => SHIELD_REMOVE,
                (Expected::Hold(Hold::NoDice), _) => NO_DICE,
                (Expected::Hold(Hold::TooFew | Hold::MissingColor), _)
                    if self.config.modules.has(Module::Shields) && s.mods.shields & (1 << i) != 0 =>
                {
                    SHIELD_HOLDS
                }
                (Expected::Hold(Hold::MissingColor), _) => COLOR_REQUIREMENT,
                (Expected::Hold(_), _) => INCORRECT_SET,
            };
            let en = self.enemy(card);
            f.violate(
                Violation::new(
                    rule,
                    format!(
                        "enemy #{slot} ({}, marker on space {} of {}, next space needs {}) was attacked with {}",
                        en.id,
                        s.slots[i].marker,
                        en.top(),
                        self.requirement_now(s, i, en),
                        describe(s.pool.colors_showing(slot)),
                    ),
                )
                .expected_recorded(move_action(slot, expected).to_string(), e.to_string()),
            );
        }
        let en = self.enemy(card);
        let m = &mut s.slots[i].marker;
        match e.action {
            Action::MarkerMovedUp { spaces, .. } => {
                *m = m.saturating_add(spaces).min(en.top());
                s.mods.hits |= 1 << i; // a hit, for the sun position
            }
            Action::MarkerMovedDown { .. } => {
                *m = m.saturating_sub(1);
                if expected == Expected::Reflected && self.config.reflect_removes_shield {
                    s.mods.shields &= !(1 << i);
                }
            }
            Action::ShieldGained { .. } => s.mods.shields |= 1 << i,
            Action::ShieldRemoved { .. } => s.mods.shields &= !(1 << i),
            _ => {}
        }
        if let Some(text) = &en.ability {
            f.unverified
                .push(format!("enemy `{}` has an ability the training game does not define: {text}", en.id));
        }
        s.moved |= 1 << i;
        s.cursor = s.cursor.max(i as u8 + 1);
        Ok(())
    }

    /// Markers between the cursor and slot `upto` that had to move but were skipped.
    pub(super) fn report_missing_moves(&self, s: &State, upto: usize, e: &Event, f: &mut Findings) {
        if s.cursor as usize >= upto {
            return;
        }
        // Without modules, a slot whose number no die shows holds (`Hold::NoDice`), so only
        // the faces showing need the attack resolved; one pass finds them (bit n = face n).
        let showing = if self.config.modules.is_empty() {
            s.pool.iter().fold(0u8, |m, d| m | 1u8.checked_shl(u32::from(d.value)).unwrap_or(0))
        } else {
            u8::MAX
        };
        for t in s.cursor as usize..upto {
            if s.has_moved(t) || s.slots[t].card.is_none() || showing & (1 << (t + 1)) == 0 {
                continue;
            }
            let exp = self.expected_for(s, t);
            if !matches!(exp, Expected::Hold(_)) {
                f.violate(
                    Violation::new(RESOLVE_MISSING, format!("marker {} was not moved", t + 1))
                        .expected_recorded(move_action(t as u8 + 1, exp).to_string(), e.to_string()),
                );
            }
        }
    }

    /// Step 2B starts: every marker still owed a move missed it.
    pub(super) fn finish_moves(&self, s: &mut State, e: &Event, f: &mut Findings) {
        if matches!(s.phase, Phase::Roll | Phase::Move) {
            if s.phase == Phase::Roll {
                self.leave_roll(s, f);
            }
            self.report_missing_moves(s, SLOTS, e, f);
            if !self.config.modules.is_empty() {
                self.before_checks_mods(s, e, f);
            }
            s.cursor = SLOTS as u8;
            s.phase = Phase::Check;
        }
    }

    /// Enter step 2B for a defeat or wound event.
    fn enter_check(&self, s: &mut State, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Roll | Phase::Move => self.finish_moves(s, e, f),
            Phase::Check => {}
            _ => f.violate(Violation::new(
                STEP_ORDER,
                "defeats and wounds are checked in step 2, after a roll",
            )),
        }
    }

    fn defeat(&self, s: &mut State, i: usize, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        let card = s.slots[i].card.ok_or_else(|| StepError::new(format!("slot {} holds no enemy", i + 1)))?;
        self.enter_check(s, e, f);
        let en = self.enemy(card);
        if s.slots[i].marker != en.top() {
            f.violate(Violation::new(
                DEFEAT_AT_TOP,
                format!("marker {} is on space {}, not the top space {}", i + 1, s.slots[i].marker, en.top()),
            ));
        }
        if (s.defeated as usize) < MAX_DISCARD {
            s.discard[s.defeated as usize] = card;
        }
        s.defeated = s.defeated.saturating_add(1);
        s.slots[i].card = None;
        s.slots[i].marker = 0;
        if !self.config.modules.is_empty() {
            self.after_defeat_mods(s, i);
        }
        Ok(())
    }

    fn wound(
        &self,
        s: &mut State,
        i: usize,
        color: Color,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let card = s.slots[i].card.ok_or_else(|| StepError::new(format!("slot {} holds no enemy", i + 1)))?;
        self.enter_check(s, e, f);
        if s.replace_owed {
            self.pass_replacement(s, f, "the die replacement of the previous wound was skipped");
        }
        if s.slots[i].marker != 0 {
            f.violate(Violation::new(
                WOUND_AT_BOTTOM,
                format!("marker {} is on space {}, not the bottom space", i + 1, s.slots[i].marker),
            ));
        }
        let face = i as u8 + 1;
        let pick = if self.config.exhaust_from == ExhaustFrom::WoundingEnemy
            && s.pool.iter().any(|d| d.value == face)
        {
            let own = s.pool.position(|d| d.color == color && d.value == face);
            if own.is_none() {
                f.violate(Violation::new(
                    EXHAUST_DIE,
                    format!("under exhaust-from=wounding-enemy the die must be one showing {face}"),
                ));
            }
            own.or_else(|| s.pool.position(|d| d.color == color))
        } else {
            s.pool.position(|d| d.color == color)
        };
        match pick {
            Some(j) => {
                s.pool.remove(j);
                s.exhaustion[0].add(color);
            }
            None => f.violate(Violation::new(
                EXHAUST_DIE,
                format!("no {} die is left in the pool to exhaust", color_name(color)),
            )),
        }
        s.slots[i].marker = self.enemy(card).start;
        self.lose_health(s);
        Ok(())
    }

    /// The health marker moves down one space: the last space loses at once, the stack's
    /// space owes a replacement.
    pub(super) fn lose_health(&self, s: &mut State) {
        s.health = s.health.saturating_add(1).min(self.config.health);
        if s.health >= self.config.health {
            s.outcome = Outcome::Lost;
            s.phase = Phase::Over;
        } else if s.health == s.stack_at(self.config.rings) && !s.stack.is_empty() {
            let has_white = s.pool.iter().any(|d| d.color == Color::White);
            if has_white || self.config.replace_without_white != ReplaceWithoutWhite::Skip {
                s.replace_owed = true;
            } else {
                s.stack_moved = s.stack_moved.saturating_add(1); // nothing to replace: the stack still moves down
            }
        }
    }

    /// The replacement a wound allowed was not made before the next wound or the end of the
    /// round: declined. "You get to replace" is a permission (`replacement=optional`), and
    /// the stack still moves down one space, so the next wound enters it again ("The next
    /// time you suffer a wound ... you will get to replace a die again").
    fn pass_replacement(&self, s: &mut State, f: &mut Findings, why: &str) {
        if self.config.replacement_mandatory {
            f.violate(Violation::new(REPLACE_OWED, why));
        }
        s.replace_owed = false;
        s.stack_moved = s.stack_moved.saturating_add(1);
    }

    /// A recorded time: within a round (from its roll to its recovery) times never go back.
    fn check_time(&self, s: &mut State, e: &Event, t: u16, f: &mut Findings) {
        if matches!(e.action, Action::DiceRolled { .. })
            || !matches!(s.phase, Phase::Roll | Phase::Move | Phase::Check)
        {
            return; // a roll starts the round's clock; between rounds the clock may restart
        }
        if t < s.clock {
            f.violate(Violation::new(
                TIME_FORWARD,
                format!("`{e}` is recorded at t={t}, before t={} recorded earlier this round", s.clock),
            ));
        }
        s.clock = s.clock.max(t);
    }

    fn replace(&self, s: &mut State, discarded: Option<Color>, taken: Color, e: &Event, f: &mut Findings) {
        // An unmet chariot's health loss owes a replacement at the start of step 2; it is
        // made once the markers have moved, and starts step 2B like a defeat or a wound.
        if s.phase == Phase::Move && s.replace_owed {
            self.finish_moves(s, e, f);
        }
        if s.phase != Phase::Check {
            f.violate(Violation::new(STEP_ORDER, "dice are replaced in step 2, right after the wound"));
        }
        if !s.replace_owed {
            f.violate(Violation::new(
                REPLACE_NOT_OWED,
                "no wound has just moved the health marker into the space of the colored stack",
            ));
        }
        let has_white = s.pool.iter().any(|d| d.color == Color::White);
        let rww = self.config.replace_without_white;
        let wrong = match discarded {
            Some(Color::White) => (!has_white).then_some("there is no white die in the pool"),
            Some(_) if has_white => Some("a white die must be replaced while the pool has one"),
            Some(_) if rww != ReplaceWithoutWhite::Colored => {
                Some("replacing a colored die needs replace-without-white=colored")
            }
            None if has_white => Some("a white die must be replaced while the pool has one"),
            None if rww != ReplaceWithoutWhite::Add => {
                Some("taking a die without discarding needs replace-without-white=add")
            }
            _ => None,
        };
        if let Some(why) = wrong {
            f.violate(Violation::new(REPLACE_WHITE, why));
        }
        let mut value = 0;
        if let Some(c) = discarded {
            match s.pool.position(|d| d.color == c) {
                Some(j) => value = s.pool.remove(j).map_or(0, |d| d.value),
                None if c != Color::White => {
                    f.violate(Violation::new(REPLACE_WHITE, format!("no {} die in the pool", color_name(c))))
                }
                None => {}
            }
        }
        if s.stack.get(taken) == 0 {
            f.violate(Violation::new(
                REPLACE_FROM_STACK,
                format!("the stack holds {}, not {}", describe(s.stack), color_name(taken)),
            ));
        } else {
            s.stack.0[taken.index()] -= 1;
            s.pool.push(Die::new(value, taken));
            s.pool.sort();
            s.stack_moved = s.stack_moved.saturating_add(1);
        }
        s.replace_owed = false;
    }

    /// Step 2B is over: markers left on a top or bottom space and a skipped replacement.
    fn close_checks(&self, s: &mut State, e: &Event, f: &mut Findings) {
        self.finish_moves(s, e, f);
        for i in 0..SLOTS {
            let Some(card) = s.slots[i].card else { continue };
            let en = self.enemy(card);
            let missing = if s.slots[i].marker >= en.top() {
                Some(Action::EnemyDefeated { slot: i as u8 + 1 })
            } else if s.slots[i].marker == 0 {
                Some(Action::WoundSuffered { slot: i as u8 + 1, exhausted: self.default_exhaust(s, i) })
            } else {
                None
            };
            if let Some(a) = missing {
                f.violate(
                    Violation::new(
                        CHECK_MISSING,
                        format!("marker {} reached the end of its track unresolved", i + 1),
                    )
                    .expected_recorded(a.to_string(), e.to_string()),
                );
            }
        }
        if s.replace_owed {
            self.pass_replacement(s, f, "the wound entered the ring space but no die was replaced");
        }
        if !self.config.modules.is_empty() {
            self.close_round_mods(s, e, f);
        }
    }

    /// A roll or draw shows the round ended without `recover`.
    fn end_round_without_recovery(&self, s: &mut State, e: &Event, f: &mut Findings) {
        self.close_checks(s, e, f);
        f.violate(
            Violation::new(RECOVER_MISSING, "the round ended without step 3 (recover)")
                .expected_recorded("recover", e.to_string()),
        );
    }

    fn recover(&self, s: &mut State, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Roll | Phase::Move | Phase::Check => self.close_checks(s, e, f),
            _ => f.violate(Violation::new(STEP_ORDER, "recovery ends a round, but no round is in progress")),
        }
        let back = s.exhaustion[EXHAUSTION - 1];
        if self.config.modules.is_empty() {
            // Every die comes back unrolled, so the sorted pool is its dice by color: built
            // from the counts (the returning dice joining while there is room, white first, as
            // the pushes below would), rather than reset, pushed and sorted die by die.
            let mut counts = s.pool.colors();
            let mut room = MAX_DICE.saturating_sub(s.pool.len());
            for c in Color::ALL {
                let n = back.get(c).min(room as u8);
                counts.0[c.index()] += n;
                room -= n as usize;
            }
            s.pool = Dice::new();
            for c in Color::ALL {
                for _ in 0..counts.get(c) {
                    s.pool.push(Die::new(0, c));
                }
            }
        } else {
            for d in s.pool.as_mut_slice() {
                d.value = 0;
            }
            for c in Color::ALL {
                for _ in 0..back.get(c) {
                    s.pool.push(Die::new(0, c));
                }
            }
        }
        for k in (1..EXHAUSTION).rev() {
            s.exhaustion[k] = s.exhaustion[k - 1];
        }
        s.exhaustion[0] = ColorCounts::default();
        if !self.config.modules.is_empty() {
            self.recover_mods(s);
            s.pool.sort();
        }
        if s.defeated >= DEFEATS_TO_WIN {
            s.outcome = Outcome::Won;
            s.phase = Phase::Over;
        } else {
            s.phase = Phase::Draw;
        }
    }

    /// The consequence the state requires next (see `Game::next_consequence`).
    pub(super) fn consequence(&self, s: &State) -> Option<Action> {
        match s.phase {
            Phase::Over | Phase::Draw | Phase::Roll => return None,
            Phase::Move => {
                if let Some(a) = self.chariot_consequence(s) {
                    return Some(a);
                }
                for i in s.cursor as usize..SLOTS {
                    if s.slots[i].card.is_some() && !s.has_moved(i) {
                        let exp = self.expected_for(s, i);
                        if let Some(a) = move_action(i as u8 + 1, exp).into_turn(exp) {
                            return Some(a);
                        }
                    }
                }
                if let Some(slot) = self.moon_owed(s) {
                    return Some(Action::MoonStruck { slot: slot as u8 + 1 });
                }
            }
            Phase::Check => {}
        }
        if self.borrow_owed(s) {
            // The player chooses the color; derived, the first one on the dial.
            return Some(Action::DieBorrowed { color: self.default_borrow(s) });
        }
        if s.replace_owed {
            return None; // the player decides: replace (and which die), or decline
        }
        for i in 0..SLOTS {
            let Some(card) = s.slots[i].card else { continue };
            if s.slots[i].marker >= self.enemy(card).top() {
                return Some(Action::EnemyDefeated { slot: i as u8 + 1 });
            }
        }
        if let Some(i) = self.pending_wound(s) {
            // The wound carries the player's choice of die; derived, the die a player who does
            // not say sends (`default_exhaust`).
            return Some(Action::WoundSuffered { slot: i as u8 + 1, exhausted: self.default_exhaust(s, i) });
        }
        if self.reveal_pending(s) {
            return None; // the conspirator drawn is random
        }
        Some(Action::Recovered)
    }

    /// The first slot whose marker is on the bottom space (a wound to resolve).
    pub(super) fn pending_wound(&self, s: &State) -> Option<usize> {
        (0..SLOTS).find(|&i| s.slots[i].card.is_some() && s.slots[i].marker == 0)
    }
}

/// Events read from JSONL skip the notation parser, so the ranges it guarantees (slots 1-6,
/// faces 1-6, at least one die) are checked again before anything indexes with them.
// Inlined into `apply`: every event passes here, and the call cost about as much as the checks.
#[inline]
fn check_shape(e: &Event) -> Result<(), StepError> {
    // One match, since every event passes here: each kind has at most one range to check
    // (a reroll two, dice first, as the messages were always ordered).
    let bad_dice =
        |dice: &super::dice::Dice| dice.is_empty() || dice.iter().any(|d| !(1..=6).contains(&d.value));
    match &e.action {
        Action::EnemyDrawn { slot, .. }
        | Action::MarkerMovedUp { slot, .. }
        | Action::MarkerMovedDown { slot }
        | Action::MarkerHeld { slot }
        | Action::EnemyDefeated { slot }
        | Action::WoundSuffered { slot, .. }
        | Action::ShieldGained { slot }
        | Action::ShieldRemoved { slot }
        | Action::DialTurned { slot }
        | Action::MoonStruck { slot }
        | Action::InspirationPlayedOn { slot, .. }
            if !(1..=SLOTS as u8).contains(slot) =>
        {
            return Err(StepError::new(format!("`{e}` names a slot outside 1-{SLOTS}")));
        }
        Action::ConspiratorRolled { value } | Action::DragonlingRolled { value }
            if !(1..=6).contains(value) =>
        {
            return Err(StepError::new(format!("`{e}` needs a die value 1-6")));
        }
        Action::DiceRolled { dice } | Action::ChariotLoaded { dice } if bad_dice(dice) => {
            return Err(StepError::new(format!("`{e}` needs one or more die values 1-6")));
        }
        Action::SetRerolled { faces, dice } => {
            if bad_dice(dice) {
                return Err(StepError::new(format!("`{e}` needs one or more die values 1-6")));
            }
            if *faces == 0 || faces & !0b0111_1110 != 0 {
                return Err(StepError::new(format!("`{e}` must name sets by faces 1-6")));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The recorded form of what the rules require of a marker.
pub(super) struct MoveAction(Action);

impl MoveAction {
    /// What the slot's turn records, or `None` for a slot that was not attacked. A slot whose
    /// dice do not move its marker gets an explicit `hold` at its turn, so that an auditor
    /// asking "what should this record have been?" about a wrong `up 4` is told `hold 4`
    /// rather than the next moving slot. Holds stay optional in a log: a skipped hold is
    /// never reported (see `report_missing_moves`).
    fn into_turn(self, why: Expected) -> Option<Action> {
        match (self.0, why) {
            (Action::MarkerHeld { .. }, Expected::Hold(Hold::NoDice)) => None,
            (a, _) => Some(a),
        }
    }
}

impl std::fmt::Display for MoveAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

fn move_action(slot: u8, e: Expected) -> MoveAction {
    MoveAction(match e {
        Expected::Down | Expected::Reflected => Action::MarkerMovedDown { slot },
        Expected::Shield => Action::ShieldGained { slot },
        Expected::Unshield => Action::ShieldRemoved { slot },
        Expected::Up(spaces) => Action::MarkerMovedUp { slot, spaces },
        Expected::Hold(_) => Action::MarkerHeld { slot },
    })
}

pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Green => "green",
        Color::Yellow => "yellow",
        Color::Blue => "blue",
    }
}

/// `5 white, 1 green`, or `no dice`.
pub(super) fn describe(c: ColorCounts) -> String {
    let parts: Vec<String> = Color::ALL
        .iter()
        .filter(|&&k| c.get(k) > 0)
        .map(|&k| format!("{} {}", c.get(k), color_name(k)))
        .collect();
    if parts.is_empty() {
        "no dice".to_string()
    } else {
        parts.join(", ")
    }
}
