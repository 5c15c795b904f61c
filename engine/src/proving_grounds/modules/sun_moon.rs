//! Sun and Moon (reference card: Start of Round, Step 2A, Step 3): at the start of each round
//! Maia faces an enemy of the player's choice, never the same enemy two rounds in a row; a hit
//! on the enemy in the sun position borrows a colored die from the dial into the pool until
//! the next round's recovery; the enemy in the moon position, not hit, moves its marker down.
//!
//! Which slots are sun and moon is the interpretation `sun-moon-positions`; whether the
//! borrowed die, "for next round", joins the pool at once or at this round's recovery is
//! `sun-borrow`; which die of its color goes back when a wound exhausted one is
//! `effect-die-return`. The three colored
//! dice start on the dial instead of the health track, so no replacement happens.

use super::Hooks;
use crate::proving_grounds::attack::Expected;
use crate::proving_grounds::dice::{Color, ColorCounts, Die};
use crate::proving_grounds::event::{Action, Event};
use crate::proving_grounds::params::{EffectDieReturn, Module, SunBorrow, SunMoonPositions};
use crate::proving_grounds::rules::*;
use crate::proving_grounds::state::{Phase, State, EXHAUSTION, SLOTS};
use crate::proving_grounds::ProvingGrounds;
use crate::{Findings, StepError, Violation};

pub(super) struct SunMoon;

impl Hooks for SunMoon {
    /// "The three colored dice live on the dial instead" of on the health track.
    fn setup(&self, _g: &ProvingGrounds, s: &mut State) {
        s.mods.sun_moon.dial = s.stack;
        s.stack = ColorCounts::default();
    }

    fn event(&self, g: &ProvingGrounds, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        match e.action {
            Action::DialTurned { slot } => g.turn_dial(s, slot as usize - 1, f),
            Action::DieBorrowed { color } => g.borrow(s, color, f),
            Action::MoonStruck { slot } => g.moon(s, slot as usize - 1, e, f),
            _ => {}
        }
        Ok(())
    }

    fn start_round(&self, _g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        if s.mods.sun_moon.facing == 0 {
            f.violate(Violation::new(
                FACE_EACH_ROUND,
                "the dial was not turned to face an enemy before the roll",
            ));
        }
    }

    fn after_roll(&self, _g: &ProvingGrounds, s: &mut State) {
        let m = &mut s.mods.sun_moon;
        m.hits = 0;
        m.moon_done = false;
        m.borrow_done = false;
        m.borrow_missed = false;
    }

    /// A marker moved up is a hit on that enemy (a reflected `down` is not).
    fn after_turn(&self, _g: &ProvingGrounds, s: &mut State, i: usize, _expected: Expected, action: &Action) {
        if let Action::MarkerMovedUp { .. } = action {
            s.mods.sun_moon.hits |= 1 << i;
        }
    }

    /// Step 2A ends: the moon's move must have been made.
    fn before_checks(&self, g: &ProvingGrounds, s: &mut State, e: &Event, f: &mut Findings) {
        if let Some(m) = g.moon_owed_ignoring_turns(s) {
            // Whether the moon enemy was hit is uncertain after its unverified weakness.
            g.violate_about(
                s,
                m,
                f,
                Violation::new(
                    MOON_DOWN,
                    format!("the moon enemy (slot {}) was not hit, but its marker did not move down", m + 1),
                )
                .expected_recorded(format!("moon {}", m + 1), e.to_string()),
            );
            // One omission is one finding (kit::due): the marker moves down as the card
            // requires (l.24), so a wound it leads to, recorded later, is judged against where
            // the marker is. Not after an unverified effect: it may be why the log has no move.
            if g.certain_about(s, m) {
                s.slots[m].marker -= 1; // `moon_owed` holds it above the bottom space
                s.made.moon = m as u8 + 1; // a late `moon` is the record of this move
                s.made.note();
            }
            s.mods.sun_moon.moon_done = true;
        }
        // The sun's borrow is step 2A's too (card l.22-25): owed and not made, it is reported
        // where its absence shows, as a skipped marker move is.
        if g.borrow_owed(s) {
            let sun = g.sun_moon_slots(s).map_or(SLOTS, |(sun, _)| sun);
            g.violate_about(
                s,
                sun,
                f,
                Violation::new(
                    SUN_BORROW,
                    "the sun enemy was hit but no colored die was borrowed in step 2A, before the checks",
                )
                .expected_recorded("borrow g|y|b", e.to_string()),
            );
            s.mods.sun_moon.borrow_done = true;
            s.mods.sun_moon.borrow_missed = true;
        }
    }

    fn close_round(&self, g: &ProvingGrounds, s: &mut State, e: &Event, f: &mut Findings) {
        let owed = g.borrow_owed(s);
        let sun = g.sun_moon_slots(s).map_or(SLOTS, |(sun, _)| sun);
        if owed {
            g.violate_about(
                s,
                sun,
                f,
                Violation::new(SUN_BORROW, "the sun enemy was hit but no colored die was borrowed")
                    .expected_recorded("borrow g|y|b", e.to_string()),
            );
            s.mods.sun_moon.borrow_done = true;
        }
        // A borrow the rules required and the log never made (reported once, here or before
        // the checks) is made as `--derive` makes it, with the dial's first color, so that
        // the next round's pool is the one the rules give (card l.23) and its roll is not
        // flagged for the same omission. Not after an unverified effect on the sun enemy: it
        // may be why no borrow was made.
        if (owed || s.mods.sun_moon.borrow_missed)
            && g.certain_about(s, sun)
            && !s.mods.sun_moon.dial.is_empty()
        {
            let color = g.default_borrow(s);
            g.take_borrow(s, color);
            s.made.borrow = Some(color); // a late `borrow` is the record of this one
            s.made.note();
        }
        s.mods.sun_moon.borrow_missed = false;
    }

    /// Last round's borrowed dice go back to the dial, from the pool, from the exhaustion
    /// track when a wound sent them there, or from a chariot they stay on
    /// (`chariot-unmet-dice=stay`): they are the dial's dice wherever they are.
    ///
    /// A wound while a borrowed die was in the pool may have exhausted a die of its color
    /// (the pool's own green, yellow and blue are still there), and the log names only the
    /// color: which one goes back is `effect-die-return`, the same question as for a die an
    /// effect lent for its round (the Sun Queen's Gift takes one "from the dial" too).
    /// `pool-first` (default): the pool's die goes back, the track's dice moving only as Step 3
    /// moves them (card l.35); `track-first`: the die a wound exhausted while the borrowed one
    /// was in the pool was the borrowed one, and it leaves the track (the bottom one first: the
    /// first wound after it joined took it).
    fn recover(&self, g: &ProvingGrounds, s: &mut State, pool: &mut ColorCounts) {
        // The track has moved down: the spaces holding the dice exhausted while last round's
        // borrowed dice were in the pool (this round's; under `at-once` last round's too,
        // from its step 2 borrow on).
        let lent = match g.config.sun_borrow {
            SunBorrow::NextRound => 1..2,
            SunBorrow::AtOnce => 1..EXHAUSTION,
        };
        let track_first = g.config.effect_die_return == EffectDieReturn::TrackFirst;
        let m = &mut s.mods.sun_moon;
        // The dice of a color on space k exhausted while last round's borrowed die was in the
        // pool: under `at-once`, the bottom space of `lent` (then the top one, last round's
        // step 2) also holds the dice exhausted before the borrow (card l.22-25 puts the borrow
        // in step 2A, before any wound; a chariot's die comes earlier still).
        let before = m.top_before_borrow;
        let lent_on = |track: &[ColorCounts; EXHAUSTION], k: usize, c: Color| {
            let earlier = if k == EXHAUSTION - 1 && g.config.sun_borrow == SunBorrow::AtOnce {
                before.get(c)
            } else {
                0
            };
            track[k].get(c).saturating_sub(earlier)
        };
        for c in Color::COLORED {
            for _ in 0..m.borrowed.get(c) {
                let exhausted = lent.clone().rev().find(|&k| track_first && lent_on(&s.exhaustion, k, c) > 0);
                if let Some(k) = exhausted {
                    s.exhaustion[k].0[c.index()] -= 1;
                    m.dial.add(c);
                } else if pool.get(c) > 0 {
                    pool.0[c.index()] -= 1;
                    m.dial.add(c);
                } else if let Some(k) = (0..EXHAUSTION).rev().find(|&k| s.exhaustion[k].get(c) > 0) {
                    s.exhaustion[k].0[c.index()] -= 1;
                    m.dial.add(c);
                } else if let Some(j) = s.mods.chariots.dice.position(|d| d.color == c) {
                    s.mods.chariots.dice.remove(j);
                    m.dial.add(c);
                }
            }
        }
        if g.config.sun_borrow == SunBorrow::NextRound {
            *pool = pool.plus(m.borrowed_new); // this round's borrow is the player's next round
        }
        m.borrowed = m.borrowed_new;
        m.borrowed_new = ColorCounts::default();
        m.top_before_borrow = m.top_before_borrow_new;
        m.top_before_borrow_new = ColorCounts::default();
        m.faced_last = m.faced_card;
        m.faced_card = None;
        m.facing = 0;
    }

    fn due_after_moves(&self, g: &ProvingGrounds, s: &State) -> Option<Action> {
        g.moon_owed(s).map(|slot| Action::MoonStruck { slot: slot as u8 + 1 })
    }

    /// The player chooses the color; derived, the first one on the dial.
    fn due_before_checks(&self, g: &ProvingGrounds, s: &State) -> Option<Action> {
        g.borrow_owed(s).then(|| Action::DieBorrowed { color: g.default_borrow(s) })
    }
}

impl ProvingGrounds {
    /// `face N`: a start-of-round decision.
    fn turn_dial(&self, s: &mut State, i: usize, f: &mut Findings) {
        self.before_roll(s, "turning the dial", f);
        let card = s.slots[i].card;
        // An enemy the dial may face (a deck run out can leave none but last round's).
        let last = s.mods.sun_moon.faced_last;
        let choice = s.slots.iter().any(|sl| sl.card.is_some() && sl.card != last);
        let m = &mut s.mods.sun_moon;
        // "Rotate the dial so Maia faces the enemy of your choice", once, at the start of the
        // round: after step 3's refills (an empty slot is no enemy), and not again.
        if m.facing != 0 {
            f.violate(Violation::new(FACE_EACH_ROUND, "the dial was already turned this round"));
        }
        if card.is_none() && choice {
            f.violate(Violation::new(
                FACE_EACH_ROUND,
                format!(
                    "slot {} holds no enemy: the dial faces an enemy, at the start of the round (after step 3's refills)",
                    i + 1
                ),
            ));
        }
        if card.is_some() && card == m.faced_last {
            f.violate(Violation::new(
                NOT_SAME_ENEMY,
                format!("Maia faced the enemy in slot {} last round too", i + 1),
            ));
        }
        m.facing = i as u8 + 1;
        m.faced_card = card;
    }

    /// The sun and moon slots (0-based) for the slot faced this round.
    pub(in crate::proving_grounds) fn sun_moon_slots(&self, s: &State) -> Option<(usize, usize)> {
        let faced = (s.mods.sun_moon.facing as usize).checked_sub(1)?;
        Some(if self.config.sun_moon_positions == SunMoonPositions::FacedOpposite {
            (faced, (faced + 3) % SLOTS)
        } else {
            ((faced + 1) % SLOTS, (faced + SLOTS - 1) % SLOTS)
        })
    }

    /// The moon slot whose marker must move down, once every marker has had its turn.
    pub(in crate::proving_grounds) fn moon_owed(&self, s: &State) -> Option<usize> {
        if !self.has(Module::SunMoon) || s.phase != Phase::Move {
            return None;
        }
        self.moon_owed_ignoring_turns(s)
    }

    fn moon_owed_ignoring_turns(&self, s: &State) -> Option<usize> {
        let m = &s.mods.sun_moon;
        if m.moon_done {
            return None;
        }
        let (_, moon) = self.sun_moon_slots(s)?;
        (s.slots[moon].card.is_some() && m.hits & (1 << moon) == 0 && s.slots[moon].marker > 0)
            .then_some(moon)
    }

    /// A hit on the sun enemy owes a borrowed die (while the dial has one).
    pub(in crate::proving_grounds) fn borrow_owed(&self, s: &State) -> bool {
        let m = &s.mods.sun_moon;
        if !self.has(Module::SunMoon) || m.borrow_done || m.dial.is_empty() {
            return false;
        }
        matches!(self.sun_moon_slots(s), Some((sun, _)) if m.hits & (1 << sun) != 0)
    }

    /// The color a derived borrow takes: the first on the dial (green, yellow, blue).
    pub(in crate::proving_grounds) fn default_borrow(&self, s: &State) -> Color {
        Color::COLORED.into_iter().find(|&c| s.mods.sun_moon.dial.get(c) > 0).unwrap_or(Color::Green)
    }

    /// `borrow COLOR`: step 2, after a hit on the sun enemy.
    fn borrow(&self, s: &mut State, color: Color, f: &mut Findings) {
        if !matches!(s.phase, Phase::Move | Phase::Check) {
            f.violate(Violation::new(STEP_ORDER, "a die is borrowed in step 2, after the sun enemy is hit"));
        }
        // The card's Sun and Moon lines (l.22-24) come under "A) Move Battle Markers", before
        // "B) Check for Defeat or Wounds" (l.25), like the moon's move: a borrow after a defeat
        // or wound is late (its absence was reported when the checks started). It is applied
        // as played: under `sun-borrow=at-once` a wound recorded before it could not exhaust
        // the borrowed die (`top_before_borrow_new`).
        // One mistake, one finding: a borrow whose absence was reported as the checks started
        // (`borrow_missed`) is that omission's late record, not a second mistake.
        if s.phase == Phase::Check && !s.mods.sun_moon.borrow_missed {
            f.violate(Violation::new(
                CHECK_AFTER_MOVES,
                "a die is borrowed after defeats and wounds were checked: the sun's borrow is part of step 2A",
            ));
        }
        // The slot whose hit the finding is about (past the slots: none).
        let (about, why) = match self.sun_moon_slots(s) {
            _ if s.mods.sun_moon.borrow_done && !s.mods.sun_moon.borrow_missed => {
                (SLOTS, Some("a die was already borrowed this round".to_string()))
            }
            // The dial was not turned (one finding, at the roll) and no moon's move told its
            // facing: any enemy hit this round may be the sun's.
            None if s.mods.sun_moon.hits != 0 => (SLOTS, None),
            None => (SLOTS, Some("the dial was not turned this round, and no enemy was hit".to_string())),
            Some((sun, _)) if s.mods.sun_moon.hits & (1 << sun) == 0 => {
                (sun, Some(format!("the enemy in the sun position (slot {}) was not hit", sun + 1)))
            }
            // Owed; an empty dial or a missing color is reported below.
            Some(_) => (SLOTS, None),
        };
        if let Some(why) = why {
            // Whether the sun enemy was hit is uncertain after its unverified weakness.
            self.violate_about(s, about, f, Violation::new(SUN_BORROW, why));
            if s.mods.sun_moon.borrow_done && !s.mods.sun_moon.borrow_missed {
                // A borrow written twice: one finding, and no second die leaves the dial (card
                // l.23 "borrow one colored die"; it was a second finding, audit r6 D1).
                return;
            }
        }
        let m = &mut s.mods.sun_moon;
        if m.dial.get(color) == 0 {
            f.violate(Violation::new(
                SUN_BORROW,
                format!("the dial holds {:#}, not {}", m.dial, color.word()),
            ));
        } else {
            self.take_borrow(s, color);
        }
        s.mods.sun_moon.borrow_done = true;
        s.mods.sun_moon.borrow_missed = false;
    }

    /// A borrow made with `made` (the dial's first color, where the log left it out) whose
    /// late record names `recorded`: the recorded color is the one borrowed, and the made die
    /// goes back to the dial, from the pool once it has joined it (at once, or at this
    /// round's recovery under `next-round`). False when the dial holds no die of `recorded`.
    pub(in crate::proving_grounds) fn rechoose_borrowed(
        &self,
        s: &mut State,
        made: Color,
        recorded: Color,
    ) -> bool {
        let at_once = self.config.sun_borrow == SunBorrow::AtOnce;
        let m = &mut s.mods.sun_moon;
        if m.dial.get(recorded) == 0 {
            return false;
        }
        // Counted as this round's borrow until the recovery, as last round's after it.
        let joined = if m.borrowed_new.get(made) > 0 {
            m.borrowed_new.0[made.index()] -= 1;
            m.borrowed_new.add(recorded);
            at_once
        } else if m.borrowed.get(made) > 0 {
            m.borrowed.0[made.index()] -= 1;
            m.borrowed.add(recorded);
            true
        } else {
            return false;
        };
        m.dial.0[recorded.index()] -= 1;
        m.dial.add(made);
        if joined {
            if let Some(j) = s.pool.position(|d| d.color == made) {
                s.pool.as_mut_slice()[j].color = recorded;
                s.pool.sort();
            }
        }
        true
    }

    /// A die of `color` (on the dial) borrowed: "for next round", under `sun-borrow=next-round`
    /// it joins the pool at recovery; under `at-once`, now.
    fn take_borrow(&self, s: &mut State, color: Color) {
        let m = &mut s.mods.sun_moon;
        m.dial.0[color.index()] -= 1;
        m.borrowed_new.add(color);
        if self.config.sun_borrow == SunBorrow::AtOnce {
            // What the top space holds now was exhausted before this die joined the pool.
            m.top_before_borrow_new = s.exhaustion[0];
            s.pool.push(Die::new(0, color));
            s.pool.sort();
        }
    }

    /// `moon N`: step 2A, after every marker's turn.
    fn moon(&self, s: &mut State, i: usize, e: &Event, f: &mut Findings) {
        if s.mods.sun_moon.facing == 0 && s.slots[i].card.is_some() {
            // The dial was not turned (reported at the roll, `start_round`): the moon's slot
            // says which enemy Maia faced, so the one omission is one finding and this move,
            // and the sun's borrow after it, are judged by that facing.
            let faced = match self.config.sun_moon_positions {
                SunMoonPositions::FacedOpposite => (i + 3) % SLOTS,
                _ => (i + 1) % SLOTS,
            };
            let m = &mut s.mods.sun_moon;
            m.facing = faced as u8 + 1;
            m.faced_card = s.slots[faced].card;
        }
        match s.phase {
            Phase::Roll | Phase::Move => {
                if s.phase == Phase::Roll {
                    self.leave_roll(s, f);
                }
                self.report_missing_moves(s, SLOTS, e, f);
                s.cursor = SLOTS as u8;
            }
            _ => f.violate(Violation::new(
                CHECK_AFTER_MOVES,
                "the moon enemy's marker moves in step 2A, before defeats and wounds are checked",
            )),
        }
        let owed = self.moon_owed_ignoring_turns(s);
        if owed != Some(i) {
            let why = match (owed, self.sun_moon_slots(s)) {
                (_, None) => "the dial was not turned this round".to_string(),
                (Some(m), _) => format!("the moon enemy is in slot {}, not {}", m + 1, i + 1),
                (None, Some((_, m))) if s.mods.sun_moon.moon_done => {
                    format!("the moon enemy (slot {}) already moved down", m + 1)
                }
                (None, Some((_, m))) => {
                    format!("the moon enemy (slot {}) was hit, or has no marker to move", m + 1)
                }
            };
            // Whether the moon enemy was hit is uncertain after its unverified weakness.
            let moon = self.sun_moon_slots(s).map_or(SLOTS, |(_, m)| m);
            let mut v = Violation::new(MOON_DOWN, why);
            if let Some(m) = owed {
                v = v.expected_recorded(Action::MoonStruck { slot: m as u8 + 1 }.to_string(), e.to_string());
            }
            self.violate_about(s, moon, f, v);
            // Card l.24 moves the moon enemy's marker only: a move written on another slot (or
            // a second one) moves no other marker; the moon's move owed is the one this record
            // meant, made on its slot (audit r6 D16). Not where an unverified effect may explain
            // the record.
            if s.taint.is_none() && s.tainted_event.is_none() && self.certain_about(s, moon) {
                if let Some(m) = owed.filter(|&m| s.slots[m].card.is_some()) {
                    s.slots[m].marker = s.slots[m].marker.saturating_sub(1);
                    s.mods.sun_moon.moon_done = true;
                    // A wound it leads to, which the table going by its record could not
                    // see, is made at `recover` with no second finding.
                    s.made.corrected |= 1 << m;
                    s.made.note();
                }
                return;
            }
        }
        s.slots[i].marker = s.slots[i].marker.saturating_sub(1);
        s.mods.sun_moon.moon_done = true;
    }
}
