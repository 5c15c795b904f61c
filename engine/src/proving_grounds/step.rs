//! The step function: one event judged and applied, dispatched to the step of the round it
//! belongs to.
//!
//! Each handler first judges the event against the state (pushing violations, which only
//! allocate on the illegal path), then applies it as played. The round's steps are one file
//! each: `draw` (setup and refills), `roll` (step 1), `markers` (step 2A), `checks` (step 2B),
//! `recover` (step 3); the modules' rules are in `modules/`, called through their hooks. A
//! consequence the log skipped is reported at the event where its absence shows.

use super::attack::Expected;
use super::dice::Color;
use super::event::{Action, Event};
use super::rules::*;
use super::state::{MadeCheck, Outcome, Phase, State, SLOTS};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

impl ProvingGrounds {
    /// Apply one event (see the module doc). After an unverified effect that may change the
    /// table, what the rules find until the round ends may follow from it: those findings are
    /// uncertain, not violations (see `report_unverified`).
    pub(super) fn apply(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        if s.mods.conspirators.text_waits.is_some() {
            self.text_acts(s, e); // a conspirator's text may act from this event on
        }
        if let Some(ordinal) = s.taint {
            return self.apply_tainted(s, e, f, ordinal);
        }
        if matches!(e.action, Action::DieExhausted { .. }) {
            // Judged here, where no taint says a card's text of this round is in effect (the
            // tainted path, which allows it, clears the taint while the event is applied).
            let v = Violation::new(
                EXHAUST_BY_CARD,
                format!("`{e}`: no card's text in effect this round exhausts a die beyond a wound's"),
            );
            // An unverified dragonling weakness of this round taints only its enemy's
            // resolution, but what it does is not written anywhere (l.49 "a weakness to a
            // specific result from the dragonling die"): the die may be its doing.
            match self.weakness_this_round(s) {
                Some(o) => f.violate(v.uncertain_after(o)),
                None => f.violate(v),
            }
        }
        // An event that reports a tainting effect makes its own findings uncertain
        // (`taint_findings`, called by the handlers that may report one).
        self.apply_event(s, e, f)
    }

    /// An event after an unverified effect of this round: applied as any other (with no
    /// taint, so that the one copy of the step function serves), then its findings are made
    /// uncertain. The round's recovery ends the taint; a new unverified effect replaces it.
    #[cold]
    #[inline(never)]
    fn apply_tainted(
        &self,
        s: &mut State,
        e: &Event,
        f: &mut Findings,
        ordinal: u32,
    ) -> Result<(), StepError> {
        s.taint = None;
        if matches!(e.action, Action::DieExhausted { .. }) && !s.exhaust_named {
            // A die beyond a wound's, while no unverified text of this round speaks of
            // exhausting one: it may still follow from the text (uncertain, below), but it is
            // reported, not silently allowed.
            f.violate(Violation::new(
                EXHAUST_BY_CARD,
                format!("`{e}`: no card's text in effect this round says to exhaust a die beyond a wound's"),
            ));
        }
        // The pool the verified rules know, before a roll the effect may have changed.
        let verified = matches!(e.action, Action::DiceRolled { .. }).then(|| s.pool.colors());
        // `apply_event`, not `apply`: the conspirator's text has had its turn, and an `exhaust`
        // is judged above (a card's text is in effect).
        s.tainted_event = Some(ordinal);
        let applied = self.apply_event(s, e, f);
        s.tainted_event = None;
        if let (Some(before), Action::DiceRolled { dice }) = (verified, &e.action) {
            // "The roll becomes the pool" for this round only: the dice it has beyond (or
            // short of) the verified pool may be the effect's, and every card text acts
            // within its round, so its recovery takes them back (`end_effect_dice`).
            s.effect_extra = dice.colors().minus(before);
            s.effect_missing = before.minus(dice.colors());
        }
        let now = s.taint.unwrap_or(ordinal);
        if matches!(e.action, Action::Recovered) {
            for i in 0..SLOTS {
                self.leave_marker_unknown(s, i, now);
            }
        }
        if s.taint.is_none() && !matches!(e.action, Action::Recovered) {
            s.taint = Some(ordinal);
        }
        for v in std::mem::take(&mut f.violations) {
            f.violate(v.uncertain_after(now));
        }
        applied
    }

    /// The findings reported so far for this event may follow from the current unverified
    /// effect: uncertain (called by the handlers whose event may report one, once they are
    /// done).
    pub(super) fn taint_findings(&self, s: &State, f: &mut Findings) {
        if let (Some(ordinal), false) = (s.taint, f.violations.is_empty()) {
            for v in std::mem::take(&mut f.violations) {
                f.violate(v.uncertain_after(ordinal));
            }
        }
    }

    /// Report an effect the engine cannot apply or check. When it `taints` (it may change the
    /// table: card text, a card played without saying on whom), every finding from here to
    /// the round's recovery names it as what it may follow from. The rounds after are judged
    /// as usual: every card's text the catalogs carry acts within its round.
    /// Its ordinal is returned, for an effect whose taint is narrower (one enemy's
    /// resolution: `weakness_unverified`; from a later point: `conspire`).
    pub(super) fn report_unverified(
        &self,
        s: &mut State,
        f: &mut Findings,
        text: String,
        taints: bool,
    ) -> u32 {
        // Whether the text may send a die to the exhaustion track (`apply_tainted`).
        s.exhaust_named |= text.to_ascii_lowercase().contains("exhaust");
        let ordinal = s.unverified.report(f, text);
        if taints {
            s.taint = Some(ordinal);
        }
        ordinal
    }

    // One function with `apply`: every event passes here.
    #[inline(always)]
    fn apply_event(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        // A late record of a consequence made where its absence showed (or a late `hold`,
        // which moves nothing): judged as that record, not applied again. Before the end of
        // the game, since what it records came before it (a wound made at `recover` may have
        // lost the game).
        // (A hold in its turn's order is the common case: not asked about.)
        let late_hold = matches!(e.action, Action::MarkerHeld { slot }
            if s.phase != Phase::Move || slot <= s.cursor);
        if (!s.made.is_empty() || late_hold) && self.late_record(s, e, f) {
            s.made.settle();
            return Ok(());
        }
        if s.phase == Phase::Over {
            if let (Outcome::Won, Action::EnemyDrawn { slot, .. }) = (s.outcome, &e.action) {
                // Step 3's refills (l.185) are part of the winning round: "at the end of the
                // round, you win" (l.31) comes after them. A draw into a slot left empty is
                // the table finishing that round: no finding, and nothing to apply (audit r6 A3).
                let i = (*slot as usize).saturating_sub(1);
                if i < SLOTS && s.slots[i].card.is_none() {
                    return Ok(());
                }
            }
            // The game has ended: the event is reported and not applied, since no rule says
            // what it would mean.
            f.violate(Violation::new(
                GAME_OVER,
                format!("the game is already {}; `{e}` comes after its end", s.outcome.name()),
            ));
            return Ok(());
        }
        e.check_shape()?;
        if let Some(t) = e.time {
            self.check_time(s, e, t, f);
        }
        for m in self.modules() {
            m.before_event(s, e);
        }
        match &e.action {
            Action::EnemyDrawn { slot, card } => self.draw(s, *slot, card, e, f),
            Action::DiceRolled { dice } => {
                self.roll(s, dice, e, f);
                Ok(())
            }
            Action::SetRerolled { faces, dice } => self.reroll(s, *faces, dice, e, f),
            Action::RollingStopped => {
                self.stop(s, f);
                Ok(())
            }
            Action::MarkerMovedUp { slot, .. }
            | Action::MarkerMovedDown { slot }
            | Action::MarkerHeld { slot }
            | Action::ShieldGained { slot }
            | Action::ShieldRemoved { slot } => {
                // The Shields module's turns are module events.
                if matches!(e.action, Action::ShieldGained { .. } | Action::ShieldRemoved { .. }) {
                    self.not_in_play(e, f);
                }
                self.move_marker(s, *slot as usize - 1, e, f)
            }
            Action::EnemyDefeated { slot } => self.defeat(s, *slot as usize - 1, e, f),
            Action::WoundSuffered { slot, exhausted } => self.wound(s, *slot as usize - 1, *exhausted, e, f),
            Action::DieReplaced { discarded, taken } => {
                self.replace(s, *discarded, *taken, f);
                Ok(())
            }
            Action::Recovered => {
                self.recover(s, e, f);
                Ok(())
            }
            Action::DieExhausted { color } => {
                self.exhaust_by_card(s, *color, f);
                Ok(())
            }
            action => match action.module() {
                // Applied as played even when its module is not in play (and reported).
                Some(m) => {
                    self.not_in_play(e, f);
                    if self.opens_round_unrecovered(s, action) {
                        // A start-of-round record (card l.1-3) after the round's markers moved
                        // shows the round ended without `recover`: one finding, the recovery
                        // made here (as a roll or draw shows it, rules 10), and the record
                        // judged in the round it opens. A `recover` written after it is the
                        // late record of this recovery (audit r6 D3, D8).
                        self.end_round_without_recovery(s, e, f);
                        if s.phase == Phase::Over {
                            return Ok(()); // a wound the log left out lost the game
                        }
                    }
                    let applied = m.hooks().event(self, s, e, f);
                    self.taint_findings(s, f); // a card's text may have been reported
                    applied
                }
                None => Ok(()),
            },
        }
    }

    /// Whether `e` is the log's late record of a consequence already made (`State::made`):
    /// the omission was reported where it showed and the consequence applied as the rules
    /// required (kit::due, "one omission is one finding"), so its record coming later is the
    /// same mistake: no second finding, and nothing applied again (rulebook l.121 moves a
    /// marker one space for a single; l.157-163 one wound is one die and one health space).
    /// A record about the same thing that differs from what was made is reported under the
    /// rule the made consequence carries out, and not applied (the table the rules say
    /// stands). A `hold` recorded after its slot's turn (holds are optional, and a skipped one
    /// is never reported) moves nothing and is no finding either.
    #[cold]
    #[inline(never)]
    fn late_record(&self, s: &mut State, e: &Event, f: &mut Findings) -> bool {
        let slot_of = |slot: u8| Some(slot as usize).filter(|&n| (1..=SLOTS).contains(&n)).map(|n| n - 1);
        match e.action {
            Action::MarkerMovedUp { slot, .. }
            | Action::MarkerMovedDown { slot }
            | Action::MarkerHeld { slot }
            | Action::ShieldGained { slot }
            | Action::ShieldRemoved { slot } => {
                let Some(i) = slot_of(slot) else { return false };
                if let Some(made) = s.made.turns[i] {
                    s.made.turns[i] = None;
                    self.late_turn(s, i, made, e, f);
                    return true;
                }
                let after_turn = match s.phase {
                    Phase::Move => i < s.cursor as usize,
                    Phase::Check => true,
                    // After the round's recovery (the pool's faces are gone): a turn the rules
                    // required was made at `recover`, so a slot that did not move held.
                    Phase::Draw => s.round > 0,
                    _ => false,
                };
                let held = matches!(e.action, Action::MarkerHeld { .. })
                    && after_turn
                    && !s.has_moved(i)
                    && s.slots[i].card.is_some()
                    && (s.phase == Phase::Draw || matches!(self.expected_for(s, i), Expected::Hold(_)));
                if held {
                    s.moved |= 1 << i;
                }
                held
            }
            Action::EnemyDefeated { slot } => {
                let Some(i) = slot_of(slot) else { return false };
                let made = s.made.checks[i] == Some(MadeCheck::Defeat);
                if made {
                    s.made.checks[i] = None;
                }
                made
            }
            Action::WoundSuffered { slot, exhausted } => {
                let Some(i) = slot_of(slot) else { return false };
                let Some(MadeCheck::Wound(sent)) = s.made.checks[i] else { return false };
                s.made.checks[i] = None;
                if sent != exhausted {
                    // The die is the player's choice (l.159 "Add one of your dice"): the
                    // record says which went, so it takes the place of the one derived.
                    self.rechoose_exhausted(s, sent, exhausted);
                }
                true
            }
            Action::Recovered => {
                let before_moves = match s.phase {
                    Phase::Draw | Phase::Roll => true,
                    Phase::Move => s.cursor == 0 && s.moved == 0,
                    _ => false,
                };
                let made = s.made.recovery && before_moves;
                if made {
                    s.made.recovery = false;
                }
                made
            }
            Action::MoonStruck { slot } => {
                let made = s.made.moon != 0 && s.made.moon == slot;
                if made {
                    s.made.moon = 0;
                }
                made
            }
            Action::ChariotResolved { met } => {
                let Some(was) = s.made.chariot else { return false };
                s.made.chariot = None;
                if was != met {
                    f.violate(
                        Violation::new(
                            CHARIOT_RESOLVE,
                            "the chariot was resolved at the first marker's turn, where the log left its resolution out; this late record says otherwise",
                        )
                        .expected_recorded(Action::ChariotResolved { met: was }.to_string(), e.to_string()),
                    );
                }
                true
            }
            Action::DieBorrowed { color } => {
                let Some(made) = s.made.borrow else { return false };
                s.made.borrow = None;
                // The color is the player's choice (card l.23, "borrow a colored die"): the
                // late record says which was borrowed, so it takes the place of the one
                // derived, while the dial holds it.
                if made != color && !self.rechoose_borrowed(s, made, color) {
                    let dial = s.mods.sun_moon.dial;
                    f.violate(
                        Violation::new(SUN_BORROW, format!("the dial holds {dial:#}, not {}", color.word()))
                            .expected_recorded(
                                Action::DieBorrowed { color: made }.to_string(),
                                e.to_string(),
                            ),
                    );
                }
                true
            }
            _ => false,
        }
    }

    /// A wound made at the round's close sent a die of `sent`; its late record names
    /// `recorded`: that die goes to the track instead, where the made one is now (on the top
    /// space, or one below once the round was recovered), and the made one comes back.
    fn rechoose_exhausted(&self, s: &mut State, sent: Color, recorded: Color) {
        let k = usize::from(s.phase != Phase::Move && s.phase != Phase::Check && s.phase != Phase::Roll);
        let Some(j) = s.pool.position(|d| d.color == recorded) else { return };
        if s.exhaustion[k].get(sent) == 0 {
            return;
        }
        s.exhaustion[k].0[sent.index()] -= 1;
        s.exhaustion[k].add(recorded);
        s.pool.as_mut_slice()[j].color = sent;
        s.pool.sort();
    }

    /// Whether `action` opens a round (the dial, the conspirator die, a chariot drawn) while
    /// the round in progress is past its first marker's turn: written where `recover` was
    /// owed. (Before any marker moved it is only out of order, `pg.round.step-order`.)
    fn opens_round_unrecovered(&self, s: &State, action: &Action) -> bool {
        matches!(
            action,
            Action::DialTurned { .. } | Action::ConspiratorRolled { .. } | Action::ChariotDrawn { .. }
        ) && (s.phase == Phase::Check || (s.phase == Phase::Move && (s.cursor > 0 || s.moved != 0)))
    }

    /// A module's event is recorded only when the setup puts that module in play.
    fn not_in_play(&self, e: &Event, f: &mut Findings) {
        if let Some(m) = e.action.module().filter(|&m| !self.has(m)) {
            f.violate(Violation::new(
                NOT_IN_PLAY,
                format!("`{e}` is a {} module event, but the setup does not include it", m.name()),
            ));
        }
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
}
