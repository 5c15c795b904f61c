//! Step 2B, Check for Defeat or Wounds: after every marker moved, a marker on the top space is
//! a defeat, one on the bottom space a wound (a die to the exhaustion track, health down one,
//! the marker back to start); a wound moving the health marker into the stack's space lets the
//! player replace a white die with a colored one.
//!
//! Defeats and wounds may be recorded in any slot order. One left out is reported when the
//! round ends and resolved there as the rules required, so it is reported once. "You get to replace" is a permission
//! (`replacement`): a replacement not made before the next wound or the end of the round was
//! declined, and the stack still moves down one space.

use super::dice::{Color, Die};
use super::event::{Action, Event};
use super::params::{ExhaustFrom, ReplaceWithoutWhite, Replacement, RingEntry};
use super::rules::*;
use super::state::{MadeCheck, Outcome, Phase, State, MAX_DISCARD, SLOTS};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

impl ProvingGrounds {
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

    /// `defeat SLOT`: the enemy is discarded.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn defeat(
        &self,
        s: &mut State,
        i: usize,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        self.enter_check(s, e, f);
        let Some(card) = s.slots[i].card else {
            // A defeat written twice, or on a slot emptied this round: one finding, and the
            // replay goes on (it stopped here before rules 13, audit r6 D1).
            let why = format!("slot {} holds no enemy to defeat", i + 1);
            f.violate(Violation::new(DEFEAT_AT_TOP, why));
            return Ok(());
        };
        let top = self.enemy(card).top();
        if s.slots[i].marker != top {
            let why = format!("marker {} is on space {}, not the top space {top}", i + 1, s.slots[i].marker);
            let mut v = Violation::new(DEFEAT_AT_TOP, why);
            let owed = self.owed_check_elsewhere(s, i, true);
            if let Some(j) = owed {
                v = v.expected_recorded(
                    Action::EnemyDefeated { slot: j as u8 + 1 }.to_string(),
                    e.to_string(),
                );
            }
            self.violate_about(s, i, f, v);
            if self.certain_about(s, i) {
                // "If the battle marker reaches the top space ... Remove the enemy card"
                // (l.147-151): an enemy whose marker is not there stays in play. A defeat
                // owed on another slot is the one this record meant (a slot digit slipped):
                // it is made, and a later record of it is its late record.
                if let Some(j) = owed {
                    let other = s.slots[j].card.unwrap_or(card);
                    self.discard_enemy(s, j, other);
                    s.made.checks[j] = Some(MadeCheck::Defeat);
                    s.made.note();
                }
                return Ok(());
            }
        }
        self.discard_enemy(s, i, card);
        Ok(())
    }

    /// The first slot other than `i` whose defeat (`defeat`) or wound is owed, with nothing
    /// unverified about it: the slot a check written on slot `i` stood for.
    fn owed_check_elsewhere(&self, s: &State, i: usize, defeat: bool) -> Option<usize> {
        (0..SLOTS).find(|&j| {
            j != i
                && s.made.checks[j].is_none()
                && self.certain_about(s, j)
                && s.slots[j].card.is_some_and(|c| {
                    if defeat {
                        s.slots[j].marker >= self.enemy(c).top()
                    } else {
                        s.slots[j].marker == 0
                    }
                })
        })
    }

    /// Slot `i`'s enemy (`card`) is defeated: discarded, its slot empty.
    fn discard_enemy(&self, s: &mut State, i: usize, card: u8) {
        if (s.defeated as usize) < MAX_DISCARD {
            s.discard[s.defeated as usize] = card;
        }
        s.defeated = s.defeated.saturating_add(1);
        s.slots[i].card = None;
        s.slots[i].marker = 0;
        s.marker_unknown &= !(1 << i);
        s.marker_unknown_ordinal[i] = 0; // meaningless once known: canonical for the digest
        for m in self.modules() {
            m.after_defeat(self, s, i);
        }
    }

    /// `wound SLOT exhaust COLOR`: a die of that color to the exhaustion track, health down one,
    /// the marker back to its start space.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn wound(
        &self,
        s: &mut State,
        i: usize,
        color: Color,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        self.enter_check(s, e, f);
        let Some(mut card) = s.slots[i].card else {
            // A wound on a slot emptied this round: one finding, and the replay goes on.
            let why = format!("slot {} holds no enemy to wound Maia", i + 1);
            f.violate(Violation::new(WOUND_AT_BOTTOM, why));
            return Ok(());
        };
        let mut i = i;
        if s.slots[i].marker != 0 {
            let why = format!("marker {} is on space {}, not the bottom space", i + 1, s.slots[i].marker);
            let mut v = Violation::new(WOUND_AT_BOTTOM, why);
            let owed = self.owed_check_elsewhere(s, i, false);
            if let Some(j) = owed {
                let due = Action::WoundSuffered { slot: j as u8 + 1, exhausted: color };
                v = v.expected_recorded(due.to_string(), e.to_string());
            }
            self.violate_about(s, i, f, v);
            if self.certain_about(s, i) {
                // One wound is one die and one health space (l.157-163), and only a marker on
                // its bottom space wounds: a wound written twice, or on a slot whose marker is
                // elsewhere, costs nothing more (audit r6 D1, D5). A wound owed on another
                // slot is the one this record meant (a slot digit slipped): it is suffered
                // there, with the die named, and a later record of it is its late record.
                let Some(j) = owed else { return Ok(()) };
                s.made.checks[j] = Some(MadeCheck::Wound(color));
                s.made.note();
                i = j;
                card = s.slots[j].card.unwrap_or(card);
            }
        }
        if s.replace_owed {
            self.bank_replacement(s);
        }
        s.replace_no_white = false;
        let face = i as u8 + 1;
        if self.config.exhaust_from == ExhaustFrom::WoundingEnemy
            && s.pool.iter().any(|d| d.value == face)
            && !s.pool.iter().any(|d| d.color == color && d.value == face)
        {
            f.violate(Violation::new(
                EXHAUST_DIE,
                format!("under exhaust-from=wounding-enemy the die must be one showing {face}"),
            ));
        }
        let recovered = s.phase == Phase::Draw && s.round > 0;
        let before = s.exhaustion[0].get(color);
        self.suffer_wound(s, i, card, color, f);
        if recovered && s.exhaustion[0].get(color) > before {
            // Recorded after its round's recovery (reported above): the wound is that round's
            // (its marker was left on the bottom space), so its die is where the recovery
            // would have moved it, one space down, and comes back when the rules say (l.183).
            s.exhaustion[0].0[color.index()] -= 1;
            s.exhaustion[1].add(color);
        }
        Ok(())
    }

    /// Slot `i`'s enemy (`card`) wounds: a die of `color` to the exhaustion track (under
    /// `exhaust-from=wounding-enemy` one showing the enemy's number when there is one), the
    /// marker back to its start space, health down one.
    fn suffer_wound(&self, s: &mut State, i: usize, card: u8, color: Color, f: &mut Findings) {
        let face = i as u8 + 1;
        let own = (self.config.exhaust_from == ExhaustFrom::WoundingEnemy)
            .then(|| s.pool.position(|d| d.color == color && d.value == face))
            .flatten();
        let pick = own.or_else(|| s.pool.position(|d| d.color == color));
        // "Add one of your dice to the exhaustion track" (l.159) cannot be done once every die
        // is on the track: the wound's other two steps still happen, and the color the
        // notation makes the log name (`next_consequence` derives `w`) stands for no die.
        let reserve = &mut s.mods.chariots.reserve;
        if pick.is_none() && reserve.get(color) > 0 {
            // A die in a met chariot's reserve is still one of "your dice" (l.159 "Add one of
            // your dice"; card l.12 "put the dice in reserve", l.36 they "return to the dice
            // pool"), as a die assigned to an enemy is: a wound may exhaust it (audit r6 A4).
            reserve.0[color.index()] -= 1;
            s.exhaustion[0].add(color);
        } else if !s.pool.is_empty() {
            exhaust_at(s, pick, color, f);
        }
        s.slots[i].marker = self.enemy(card).start;
        s.marker_unknown &= !(1 << i); // back on its start space: known again
        s.marker_unknown_ordinal[i] = 0;
        self.lose_health(s, true);
    }

    /// `exhaust COLOR`: a card's text sends one more die to the top space of the exhaustion
    /// track (whether one is in effect is judged by `apply`); from there it moves down and comes
    /// back as every exhausted die does, so later rounds' pools stay verifiable.
    pub(super) fn exhaust_by_card(&self, s: &mut State, color: Color, f: &mut Findings) {
        let pick = s.pool.position(|d| d.color == color);
        exhaust_at(s, pick, color, f);
    }

    /// The die color a wound from slot `i` sends to the exhaustion track when the player
    /// does not say: white first (colored dice are the valuable ones), then green, yellow, blue.
    pub(super) fn default_exhaust(&self, s: &State, i: usize) -> Color {
        let face = i as u8 + 1;
        let from_enemy =
            self.config.exhaust_from == ExhaustFrom::WoundingEnemy && s.pool.iter().any(|d| d.value == face);
        Color::ALL
            .iter()
            .copied()
            .find(|&c| s.pool.iter().any(|d| d.color == c && (!from_enemy || d.value == face)))
            .unwrap_or(Color::White)
    }

    /// The health marker moves down one space (`wound`: a wound's, else a card's): the last
    /// space loses at once, the stack's space allows a replacement (after a wound, or after
    /// any loss under `ring-entry=any-loss`).
    pub(super) fn lose_health(&self, s: &mut State, wound: bool) {
        s.health = s.health.saturating_add(1).min(self.config.health);
        if s.health >= self.config.health {
            s.outcome = Outcome::Lost;
            s.phase = Phase::Over;
        } else if !wound && self.config.ring_entry == RingEntry::Wound {
            // "If suffering a wound causes the health marker to move into the space ..." (l.173):
            // a card's loss allows no replacement, and the stack stays on its space.
        } else if s.health == s.stack_at(self.config.rings) && s.replace_ahead > 0 {
            // The replacement recorded ahead of this wound is its own (`replace_out_of_turn`).
            s.replace_ahead -= 1;
            self.stack_moves_down(s);
        } else if s.health == s.stack_at(self.config.rings) && !s.stack.is_empty() {
            let has_white = s.pool.iter().any(|d| d.color == Color::White);
            if has_white || self.config.replace_without_white != ReplaceWithoutWhite::Skip {
                s.replace_owed = true;
            } else {
                self.stack_moves_down(s); // nothing to replace: the stack still moves down
                s.replace_no_white = true;
            }
        }
    }

    /// `replace COLOR -> COLOR`: a white die of the pool for a colored die of the stack.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn replace(&self, s: &mut State, discarded: Option<Color>, taken: Color, f: &mut Findings) {
        // Entering the stack's space with no white die is a ring entry all the same: a
        // replacement then breaks only the white-die rule (below).
        let owed = s.replace_owed || s.replace_no_white || s.replace_banked > 0;
        if !owed && self.replace_out_of_turn(s, discarded, taken, f) {
            return;
        }
        if !owed {
            // One mistake, one finding: a replacement nothing allowed is that rule's alone,
            // whatever dice it names (under Sun and Moon there is no stack at all).
            f.violate(Violation::new(
                REPLACE_NOT_OWED,
                "no wound has just moved the health marker into the space of the colored stack",
            ));
        } else if !matches!(s.phase, Phase::Move | Phase::Check) {
            // Allowed where it is owed: after a wound (step 2B), or at the start of step 2
            // when an unmet chariot's health loss carried the marker into the ring
            // (`ring-entry=any-loss`; card l.12 resolves the chariot before "A) Move Battle
            // Markers", and l.32/l.56 "Health marker enters colored ring: Replace one of your
            // white dice"). Made before the markers move, the die counts in their attacks.
            f.violate(Violation::new(STEP_ORDER, "dice are replaced in step 2, right after the wound"));
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
        if let (Some(why), true) = (wrong, owed) {
            f.violate(Violation::new(REPLACE_WHITE, why));
        }
        if s.stack.get(taken) == 0 {
            if owed {
                f.violate(Violation::new(
                    REPLACE_FROM_STACK,
                    format!("the stack holds {:#}, not {}", s.stack, taken.word()),
                ));
            }
            // No such die to take: no swap happened, and the pool keeps its die. An owed
            // replacement is then passed as declined (the stack moves down), so its absence
            // is not reported a second time.
            if s.replace_banked > 0 {
                s.replace_banked -= 1;
            } else if s.replace_owed {
                s.replace_owed = false;
                self.stack_moves_down(s);
            }
            s.replace_no_white = false;
            return;
        }
        let mut value = 0;
        if let Some(c) = discarded {
            // Before the markers moved (a chariot's loss), which white die goes matters to
            // the attacks: the log names a color only, so the lowest face goes (the pool is
            // sorted by face).
            match s.pool.position(|d| d.color == c) {
                Some(j) => value = s.pool.remove(j).map_or(0, |d| d.value),
                None if c != Color::White && owed => {
                    f.violate(Violation::new(REPLACE_WHITE, format!("no {} die in the pool", c.word())))
                }
                None => {}
            }
        }
        // The die replacing a white one keeps its face for the rest of the round: in step 2A
        // it is assigned where the white die was, and counts in the attacks still to resolve.
        s.stack.0[taken.index()] -= 1;
        s.pool.push(Die::new(value, taken));
        s.pool.sort();
        if s.replace_banked > 0 {
            // An earlier wound's replacement: the stack moved down at the wound after it.
            s.replace_banked -= 1;
            return;
        }
        if !s.replace_no_white {
            self.stack_moves_down(s); // (with no white die it moved down at the wound)
        }
        s.replace_owed = false;
        s.replace_no_white = false;
    }

    /// A `replace` nothing allows at this point that is a replacement recorded out of its
    /// place, made as recorded with at most one finding (true), or not (false):
    /// - before the wound that allows it (left out, or recorded after it): in step 2, while
    ///   an enemy's marker sits on its bottom space, its wound not yet resolved, and the next
    ///   wound moves the health marker into the stack's space. The next wound into the stack
    ///   is then its wound ("you get to replace", l.173): no finding here, and that wound
    ///   moves the stack down as the replacement would have; a wound left out is reported
    ///   where it is made (audit r6 D12: the replacements after a missing ring-entry wound
    ///   were findings too).
    /// - after `recover`, before the next roll, when the close counted a replacement
    ///   declined: its late record (the stack moved down then), reported once under
    ///   `pg.round.step-order` (under `replacement=mandatory` the close reported it already).
    ///   It was reported and applied with the stack moved a second time, so the next wound
    ///   into the stack was refused its replacement (audit r6 D10).
    #[cold]
    #[inline(never)]
    fn replace_out_of_turn(
        &self,
        s: &mut State,
        discarded: Option<Color>,
        taken: Color,
        f: &mut Findings,
    ) -> bool {
        let white = discarded == Some(Color::White) && s.pool.iter().any(|d| d.color == Color::White);
        if !white || s.stack.get(taken) == 0 {
            return false;
        }
        let late = s.phase == Phase::Draw && s.round > 0 && s.replace_declined > 0;
        let ahead = matches!(s.phase, Phase::Move | Phase::Check)
            && s.health.saturating_add(1) == s.stack_at(self.config.rings)
            && (0..SLOTS)
                .filter(|&j| s.slots[j].card.is_some() && s.slots[j].marker == 0 && self.certain_about(s, j))
                .count()
                > s.replace_ahead as usize;
        if late {
            s.replace_declined -= 1;
            if self.config.replacement != Replacement::Mandatory {
                f.violate(Violation::new(
                    STEP_ORDER,
                    "dice are replaced in step 2, right after the wound: this replacement comes after the round's recovery",
                ));
            }
        } else if ahead {
            s.replace_ahead += 1;
        } else {
            return false;
        }
        // As `replace` does: the lowest white die goes, and its face stays with the new die.
        let value = s
            .pool
            .position(|d| d.color == Color::White)
            .and_then(|j| s.pool.remove(j))
            .map_or(0, |d| d.value);
        s.stack.0[taken.index()] -= 1;
        s.pool.push(Die::new(value, taken));
        s.pool.sort();
        true
    }

    /// A wound comes while the last one's replacement is still owed: that replacement stays
    /// owed until the round ends (l.173-175: each wound into the stack gives one, audit r6
    /// A1), and the stack moves down as after it, so this wound may enter it again.
    fn bank_replacement(&self, s: &mut State) {
        s.replace_owed = false;
        s.replace_banked = s.replace_banked.saturating_add(1);
        self.stack_moves_down(s);
    }

    /// The replacement a wound allowed was not made before the end of the round: declined. "You get to replace" is a permission (`replacement=optional`), and
    /// the stack still moves down one space, so the next wound enters it again ("The next
    /// time you suffer a wound ... you will get to replace a die again").
    fn pass_replacement(&self, s: &mut State, f: &mut Findings, why: &str) {
        if self.config.replacement == Replacement::Mandatory {
            f.violate(Violation::new(REPLACE_OWED, why));
        }
        s.replace_owed = false;
        self.stack_moves_down(s);
    }

    /// "Any remaining colored dice in the stack are then moved down one space on the health
    /// track. The next time you suffer a wound and your health marker moves down another
    /// space, you will get to replace a die again": one space down, and at least one below
    /// the health marker, which a loss of several spaces (a chariot's `health -2`) may have
    /// carried past the stack's space.
    fn stack_moves_down(&self, s: &mut State) {
        let below_marker = s.health.saturating_add(1).saturating_sub(self.config.rings);
        s.stack_moved = s.stack_moved.saturating_add(1).max(below_marker);
    }

    /// The round is recovered with slot `i`'s marker still on its top or bottom space, and an
    /// unverified effect (`ordinal`) may be why: the table may have done what the effect says
    /// ("Ignore the next wound this round") and moved the marker as the log cannot say. Its
    /// place is unknown from here, so later findings about that enemy's resolution are
    /// uncertain (`violate_about`) until a wound, a defeat or a draw places it again.
    pub(super) fn leave_marker_unknown(&self, s: &mut State, i: usize, ordinal: u32) {
        let Some(card) = s.slots[i].card else { return };
        let m = s.slots[i].marker;
        if m == 0 || m >= self.enemy(card).top() {
            s.marker_unknown |= 1 << i;
            s.marker_unknown_ordinal[i] = ordinal;
        }
    }

    /// Step 2B is over: markers left on a top or bottom space, and a replacement not made.
    pub(super) fn close_checks(&self, s: &mut State, e: &Event, f: &mut Findings) {
        s.replace_declined = 0;
        if s.made.recovery {
            s.made.recovery = false; // the round being closed is not the one recovered before
            s.made.settle();
        }
        self.finish_moves(s, e, f);
        for i in 0..SLOTS {
            let Some(card) = s.slots[i].card else { continue };
            let missing = if s.slots[i].marker >= self.enemy(card).top() {
                Some(Action::EnemyDefeated { slot: i as u8 + 1 })
            } else if s.slots[i].marker == 0 {
                Some(Action::WoundSuffered { slot: i as u8 + 1, exhausted: self.default_exhaust(s, i) })
            } else {
                None
            };
            let Some(a) = missing else { continue };
            // A turn recorded wrongly and made as the rules require was reported then; the
            // defeat or wound it leads to, which the table going by its record could not see,
            // is made here with no second finding (one mistake, one finding).
            let corrected = s.made.corrected & (1 << i) != 0 && self.certain_about(s, i);
            if !corrected {
                self.violate_about(
                    s,
                    i,
                    f,
                    Violation::new(
                        CHECK_MISSING,
                        format!("marker {} reached the end of its track unresolved", i + 1),
                    )
                    .expected_recorded(a.to_string(), e.to_string()),
                );
            }
            // One omission is one finding (kit::due): the defeat or wound is resolved as the
            // rules required (l.147 "you must resolve the consequences"; a wound with the die
            // `next_consequence` derives), so the marker is not reported again at every later
            // recovery and the next roll is judged against the pool the wound left. Not after
            // an unverified effect ("Ignore the next wound"): the table may have done that.
            if !self.certain_about(s, i) {
                continue;
            }
            // Its late record, if the log has one, is the record of this defeat or wound.
            s.made.checks[i] = Some(match a {
                Action::WoundSuffered { exhausted, .. } => MadeCheck::Wound(exhausted),
                _ => MadeCheck::Defeat,
            });
            s.made.note();
            match a {
                Action::WoundSuffered { exhausted, .. } => {
                    if s.replace_owed {
                        self.bank_replacement(s);
                    }
                    self.suffer_wound(s, i, card, exhausted, f);
                    if s.replace_owed {
                        // The log, which left the wound out, could not make its replacement:
                        // declined, not a second finding.
                        s.replace_owed = false;
                        self.stack_moves_down(s);
                    }
                    s.replace_no_white = false;
                }
                _ => self.discard_enemy(s, i, card),
            }
            if s.phase == Phase::Over {
                return; // the wound left out reached the last health space: lost at once
            }
        }
        if s.replace_owed {
            self.pass_replacement(s, f, "the wound entered the ring space but no die was replaced");
            s.replace_declined = 1;
        }
        if s.replace_ahead > 0 {
            // Recorded ahead of a wound into the stack that never came: not owed after all.
            s.replace_ahead = 0;
            f.violate(Violation::new(
                REPLACE_NOT_OWED,
                "no wound of this round moved the health marker into the space of the colored stack for the replacement recorded before it",
            ));
        }
        if s.replace_banked > 0 {
            // Owed by earlier wounds, not made by the round's end: declined (the stack moved
            // down when the next wound came).
            s.replace_declined = s.replace_declined.saturating_add(s.replace_banked);
            s.replace_banked = 0;
            if self.config.replacement == Replacement::Mandatory {
                f.violate(Violation::new(
                    REPLACE_OWED,
                    "a wound entered the ring space but no die was replaced",
                ));
            }
        }
        s.replace_no_white = false;
        for m in self.modules() {
            m.close_round(self, s, e, f);
        }
    }
}

/// Move the pool's die at `pick` (of `color`) to the top space of the exhaustion track; with
/// none to pick, the exhaustion a wound or a card's text requires cannot be made.
fn exhaust_at(s: &mut State, pick: Option<usize>, color: Color, f: &mut Findings) {
    match pick {
        Some(j) => {
            s.pool.remove(j);
            s.exhaustion[0].add(color);
        }
        None => f.violate(Violation::new(
            EXHAUST_DIE,
            format!("no {} die is left in the pool to exhaust", color.word()),
        )),
    }
}
