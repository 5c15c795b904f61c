//! Step 2A, Move Battle Markers: "move battle markers, in numerical order (i.e., starting with
//! enemy #1, ending with enemy #6)", each as the dice assigned to it require (`attack`: a single
//! moves it down, a set meeting the space above moves it up, as far as its separate dice
//! reach; the Shields module's table through the same function).
//!
//! A slot's turn is recorded as `up`, `down`, `hold` (or, with shields, `shield`/`unshield`).
//! A move the log skipped is reported when a later marker moves or the checks start, and made
//! as the rules required (one omission, one finding); a hold may be left out.

use super::attack::{resolve_attack, resolve_attack_with, AttackMods, Expected, Hold};
use super::consequence::turn_action;
use super::enemy::{Enemy, Requirement};
use super::event::{Action, Event};
use super::params::MultiSpace;
use super::rules::*;
use super::state::{Phase, State, SLOTS};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

impl ProvingGrounds {
    /// What the rules require of slot `i`'s marker this round (no enemy: nothing).
    pub(super) fn expected_for(&self, s: &State, i: usize) -> Expected {
        match s.slots[i].card {
            None => Expected::Hold(Hold::NoDice),
            Some(c) if self.config.modules.is_empty() => {
                resolve_attack(self.enemy(c), s.slots[i].marker, s.pool.colors_showing(i as u8 + 1))
            }
            Some(c) => {
                let (mods, dice) = self.attack_mods(s, i, s.pool.colors_showing(i as u8 + 1));
                resolve_attack_with(self.enemy(c), s.slots[i].marker, dice, mods)
            }
        }
    }

    /// What the modules change about the attack on slot `i`, and the dice that attack.
    fn attack_mods(
        &self,
        s: &State,
        i: usize,
        mut dice: super::dice::ColorCounts,
    ) -> (AttackMods, super::dice::ColorCounts) {
        let mut mods = AttackMods::default();
        for m in self.modules() {
            m.attack(self, s, i, &mut mods, &mut dice);
        }
        (mods, dice)
    }

    /// The requirement of the space above slot `i`'s marker, as an active conspirator may
    /// have raised it this round.
    fn requirement_now(&self, s: &State, i: usize, en: &Enemy) -> Requirement {
        let mut req = en.requirement(s.slots[i].marker.saturating_add(1));
        let (mods, _) = self.attack_mods(s, i, s.pool.colors_showing(i as u8 + 1));
        req.count = req.count.saturating_add(mods.extra_count);
        req
    }

    /// A marker's turn: `up`, `down`, `hold`, `shield` or `unshield` for slot `i`.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn move_marker(
        &self,
        s: &mut State,
        i: usize,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let Some(card) = s.slots[i].card else {
            // A turn for an empty slot (its enemy defeated, a slot digit slipped): one finding,
            // and nothing to move, so the replay goes on (it stopped here before rules 13).
            f.violate(Violation::new(NO_DICE, format!("slot {} holds no enemy: no marker to move", i + 1)));
            return Ok(());
        };
        if s.has_moved(i) && matches!(s.phase, Phase::Move | Phase::Check) {
            self.second_turn(s, i, e, f);
            return Ok(());
        }
        match s.phase {
            Phase::Roll => self.leave_roll(s, f), // rolling ends when resolution starts
            Phase::Move => {}
            Phase::Check => f.violate(Violation::new(
                CHECK_AFTER_MOVES,
                format!("marker {} moves after defeats and wounds were checked", i + 1),
            )),
            _ => f.violate(Violation::new(STEP_ORDER, "markers move in step 2, after a roll")),
        }
        self.abilities_unverified(s, f);
        if s.phase == Phase::Move {
            if i < s.cursor as usize {
                f.violate(Violation::new(
                    RESOLVE_ORDER,
                    format!("marker {} moves after marker {}: markers move from #1 to #6", i + 1, s.cursor),
                ));
            } else {
                self.report_missing_moves(s, i, e, f);
            }
        }
        for m in self.modules() {
            m.marker_turn(self, s, i, e, f);
        }
        let mut expected = self.expected_for(s, i);
        let mut ok = self.turn_matches(expected, &e.action);
        if !ok {
            if let Some(other) = self.turn_under_unknown_die(s, i, &e.action) {
                (expected, ok) = (other, true);
            }
        }
        if !ok && s.phase == Phase::Move && expected == Expected::Hold(Hold::NoDice) {
            // The turn of an earlier slot, skipped (reported and made just now or before),
            // written on this slot, which no die attacks (`shield 5` for `shield 4`): that one
            // slip was the skipped turn's finding (audit r6 D16).
            let slot = i as u8 + 1;
            if let Some(j) =
                (0..i).find(|&j| s.made.turns[j].is_some_and(|x| turn_action(slot, x) == e.action))
            {
                s.made.turns[j] = None;
                s.made.settle();
                s.cursor = s.cursor.max(j as u8 + 1);
                return Ok(());
            }
        }
        if !ok {
            self.report_wrong_turn(s, i, card, expected, e, f);
        }

        // A turn recorded otherwise than the rules require is reported once, and the table
        // goes on as the rules say (l.121-133 move the marker by the dice, not by the record):
        // applying the record as played left the marker a space or more off, so the correct
        // records after it (a wound, the next round's moves) were findings too, up to a
        // phantom wound and a game lost early (audit r6 D2, D17). Not where an unverified
        // effect may explain the record: the table may have done what it says.
        let due;
        let action = if !ok && self.certain_about(s, i) {
            due = turn_action(i as u8 + 1, expected);
            s.made.corrected |= 1 << i;
            s.made.note();
            &due
        } else {
            &e.action
        };
        self.apply_turn(s, i, card, expected, action);
        s.cursor = s.cursor.max(i as u8 + 1);
        if s.taint.is_some() {
            // A chariot's resolution left out is made at this turn, and its text may taint
            // the round from here; the omission itself is not the text's doing (card l.12:
            // "If the chariot requirement is not met, activate its effect"), so it stays a
            // violation (audit r6 D7). The rest may follow from the text, an ability or a
            // weakness reported for this turn.
            let own: Vec<Violation> = if s.made.chariot.is_some() && s.tainted_event.is_none() {
                let (own, rest) =
                    std::mem::take(&mut f.violations).into_iter().partition(|v| v.rule == CHARIOT_RESOLVE);
                f.violations = rest;
                own
            } else {
                Vec::new()
            };
            self.taint_findings(s, f);
            f.violations.extend(own);
        }
        Ok(())
    }

    /// Slot `i`'s turn (`action`, recorded or, when the log left it out, the one the rules
    /// required) moves its marker and is over.
    fn apply_turn(&self, s: &mut State, i: usize, card: u8, expected: Expected, action: &Action) {
        let top = self.enemy(card).top();
        let m = &mut s.slots[i].marker;
        match *action {
            Action::MarkerMovedUp { spaces, .. } => *m = m.saturating_add(spaces).min(top),
            Action::MarkerMovedDown { .. } => *m = m.saturating_sub(1),
            _ => {}
        }
        for m in self.modules() {
            m.after_turn(self, s, i, expected, action);
        }
        s.moved |= 1 << i;
    }

    /// Whether a turn recorded as `action` is what `expected` requires (a set may stop short
    /// of the spaces it reaches under `multi-space=optional`).
    fn turn_matches(&self, expected: Expected, action: &Action) -> bool {
        match (expected, action) {
            (Expected::Down | Expected::Reflected, Action::MarkerMovedDown { .. }) => true,
            (Expected::Shield, Action::ShieldGained { .. }) => true,
            (Expected::Unshield, Action::ShieldRemoved { .. }) => true,
            (Expected::Hold(_), Action::MarkerHeld { .. }) => true,
            (Expected::Up(m), Action::MarkerMovedUp { spaces, .. }) => {
                *spaces == m || (self.config.multi_space == MultiSpace::Optional && *spaces < m)
            }
            _ => false,
        }
    }

    /// In a round whose conspirator die the log left out (reported at the roll), the turn
    /// slot `i`'s record is under some face of that die, if any: which revealed conspirator
    /// was active is not in the log, and the record may say it (card l.2).
    fn turn_under_unknown_die(&self, s: &State, i: usize, action: &Action) -> Option<Expected> {
        if s.mods.conspirators.die != super::modules::UNKNOWN_DIE {
            return None;
        }
        let mut t = s.clone();
        (1..=6).find_map(|v| {
            t.mods.conspirators.active = self.active_for(s, v);
            let exp = self.expected_for(&t, i);
            self.turn_matches(exp, action).then_some(exp)
        })
    }

    /// A second record of slot `i`'s turn this round. When an earlier slot's turn was made
    /// where the log skipped it, and this record is that made turn written for slot `i`, the
    /// log wrote the earlier slot's turn on slot `i` (a slot digit slipped, reported then as
    /// the skipped move) and this is slot `i`'s own: no second finding. Otherwise it is the
    /// same turn written twice, or a second move: one `pg.resolve.order` finding, and the
    /// marker is not moved again (l.119-121: each marker moves once a round, by its dice; a
    /// record written twice moved it twice, audit r6 D1).
    fn second_turn(&self, s: &mut State, i: usize, e: &Event, f: &mut Findings) {
        let slot = i as u8 + 1;
        let slipped = (0..i).find(|&j| s.made.turns[j].is_some_and(|x| turn_action(slot, x) == e.action));
        if let Some(j) = slipped {
            s.made.turns[j] = None;
            s.made.settle();
            return;
        }
        // After the checks started it breaks that rule (l.115 "First, move ... Then check").
        let rule = if s.phase == Phase::Check { CHECK_AFTER_MOVES } else { RESOLVE_ORDER };
        self.violate_about(
            s,
            i,
            f,
            Violation::new(
                rule,
                format!("marker {slot} already had its move this round: it is not moved again"),
            ),
        );
        if s.taint.is_some() {
            self.taint_findings(s, f);
        }
    }

    /// The round's attacks start to be resolved: every enemy in play whose card has ability
    /// text is reported unverified, once a round. Rulebook l.47: "Some enemies have abilities
    /// that affect how your attacks are resolved"; the training game defines none, and the
    /// engine cannot tell from the words which attacks one bears on (its own enemy's, or all:
    /// "every other enemy needs one more die"), so every resolution from here to the recovery
    /// is uncertain after it, not only the turns of the enemy carrying it.
    fn abilities_unverified(&self, s: &mut State, f: &mut Findings) {
        if s.abilities_round == s.round {
            return;
        }
        s.abilities_round = s.round;
        for i in 0..SLOTS {
            let Some(card) = s.slots[i].card else { continue };
            if let Some(text) = &self.enemy(card).ability {
                let said = crate::kit::effect::unverified("enemy ability", &self.enemy(card).id, text);
                self.report_unverified(s, f, said, true);
            }
        }
    }

    /// The late record of slot `i`'s turn, which was made (`made`) where the log left it out
    /// (`step::late_record`): the same record is no second finding; a set stopping short of
    /// the spaces made, while no check has come yet, is the player's choice under
    /// `multi-space=optional` (the marker goes back to where the record says); anything else
    /// is reported under the rule the turn carries out, and the turn made stands.
    pub(super) fn late_turn(&self, s: &mut State, i: usize, made: Expected, e: &Event, f: &mut Findings) {
        let slot = i as u8 + 1;
        let due = turn_action(slot, made);
        if due == e.action {
            return;
        }
        if let (Expected::Up(m), Action::MarkerMovedUp { spaces, .. }) = (made, &e.action) {
            if *spaces >= 1
                && *spaces < m
                && s.phase == Phase::Move
                && self.config.multi_space == MultiSpace::Optional
            {
                s.slots[i].marker = s.slots[i].marker.saturating_sub(m - *spaces);
                return;
            }
        }
        self.violate_about(
            s,
            i,
            f,
            Violation::new(
                wrong_turn_rule(made, &e.action),
                format!(
                    "marker {slot}'s turn was made as the rules required where the log left it out; this late record says otherwise"
                ),
            )
            .expected_recorded(due.to_string(), e.to_string()),
        );
    }

    /// A turn recorded otherwise than the rules require, under the rule it breaks.
    fn report_wrong_turn(
        &self,
        s: &State,
        i: usize,
        card: u8,
        expected: Expected,
        e: &Event,
        f: &mut Findings,
    ) {
        let rule = wrong_turn_rule(expected, &e.action);
        let slot = i as u8 + 1;
        let en = self.enemy(card);
        // Uncertain when this enemy met an unverified weakness: its turn may be what the
        // weakness makes it.
        self.violate_about(
            s,
            i,
            f,
            Violation::new(
                rule,
                format!(
                    "enemy #{slot} ({}, marker on space {} of {}, next space needs {}) was attacked with {:#}",
                    en.id,
                    s.slots[i].marker,
                    en.top(),
                    self.requirement_now(s, i, en),
                    s.pool.colors_showing(slot),
                ),
            )
            .expected_recorded(turn_action(slot, expected).to_string(), e.to_string()),
        );
    }

    /// Markers between the cursor and slot `upto` that had to move but were skipped.
    // Inlined: every marker's turn asks, and usually no slot lies between.
    #[inline]
    pub(super) fn report_missing_moves(&self, s: &mut State, upto: usize, e: &Event, f: &mut Findings) {
        if (s.cursor as usize) < upto {
            self.report_skipped_moves(s, upto, e, f);
        }
    }

    fn report_skipped_moves(&self, s: &mut State, upto: usize, e: &Event, f: &mut Findings) {
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
                // A weak enemy's skipped turn meets its unverified weakness here.
                if self.has(super::params::Module::Dragonling) {
                    self.weakness_unverified(s, f, t);
                }
                let due = turn_action(t as u8 + 1, exp);
                self.violate_about(
                    s,
                    t,
                    f,
                    Violation::new(RESOLVE_MISSING, format!("marker {} was not moved", t + 1))
                        .expected_recorded(due.to_string(), e.to_string()),
                );
                // One omission is one finding (kit::due): the move the rules required is
                // made, as `next_consequence` derives it, so the defeat or wound it leads to,
                // recorded later, is judged against where the marker is (l.147 "If the battle
                // marker on an enemy card has now reached the top space or bottom space").
                // Not after an unverified effect: the table may have done what it says.
                // A weak enemy's skipped turn is made too (`only_weak`).
                let make = self.certain_about(s, t) || self.only_weak(s, t);
                if let (Some(card), true) = (s.slots[t].card, make) {
                    self.apply_turn(s, t, card, exp, &due);
                    // Its late record, if the log has one, is the record of this move.
                    s.made.turns[t] = Some(exp);
                    s.made.note();
                }
            }
        }
    }

    /// Step 2A is over (2B starts): every marker still owed a move missed it.
    pub(super) fn finish_moves(&self, s: &mut State, e: &Event, f: &mut Findings) {
        if matches!(s.phase, Phase::Roll | Phase::Move) {
            if s.phase == Phase::Roll {
                self.leave_roll(s, f);
            }
            self.abilities_unverified(s, f);
            self.report_missing_moves(s, SLOTS, e, f);
            self.taint_findings(s, f); // skipped turns an ability may explain
            for m in self.modules() {
                m.before_checks(self, s, e, f);
            }
            s.cursor = SLOTS as u8;
            s.phase = Phase::Check;
        }
    }
}

/// The rule a turn recorded as `action` breaks when the rules require `expected`.
fn wrong_turn_rule(expected: Expected, action: &Action) -> &'static str {
    match (expected, action) {
        (Expected::Up(m), Action::MarkerMovedUp { spaces, .. }) if *spaces > m => SEPARATE_DICE,
        (Expected::Up(_), _) => SET_UP,
        (Expected::Down, _) => SINGLE_DOWN,
        (Expected::Reflected, _) => SHIELD_REFLECTED,
        (Expected::Shield, _) => SHIELD_GAIN,
        (Expected::Unshield, _) => SHIELD_REMOVE,
        (Expected::Hold(Hold::NoDice), _) => NO_DICE,
        (Expected::Hold(Hold::Shielded), _) => SHIELD_HOLDS,
        (Expected::Hold(Hold::MissingColor), _) => COLOR_REQUIREMENT,
        (Expected::Hold(Hold::TooFew | Hold::AtTop), _) => INCORRECT_SET,
    }
}
