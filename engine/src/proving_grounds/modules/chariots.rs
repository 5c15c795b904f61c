//! Chariots (reference card, Step 1, Step 2 and Step 3): during rolling, dice are placed on
//! the chariot to satisfy its defeat condition; at the start of step 2 a met chariot is
//! discarded and its dice go to reserve (back to the pool at recovery), an unmet one
//! activates its effect.
//!
//! Readings: `chariot-draw` (the card never says when a chariot is drawn: the project reads
//! one at the start of each round with none in play), `chariot-dice` (which dice may be
//! placed), `chariot-unmet` (an unmet chariot stays in play or is discarded) and
//! `chariot-unmet-dice`. Effects are card data: `health -N`, `markers -N`, `shield N` are
//! applied and checked; other text is reported unverified when the chariot activates. A
//! `health -N` is no wound, so it allows a replacement only under `ring-entry=any-loss`.

use super::Hooks;
use crate::kit::effect::unverified;
use crate::proving_grounds::cards::Effect;
use crate::proving_grounds::dice::{ColorCounts, Dice};
use crate::proving_grounds::event::{Action, Event};
use crate::proving_grounds::params::{ChariotDice, ChariotDraw, ChariotUnmet, ChariotUnmetDice, Module};
use crate::proving_grounds::rules::*;
use crate::proving_grounds::state::{Phase, State};
use crate::proving_grounds::ProvingGrounds;
use crate::{Findings, StepError, Violation};

pub(super) struct Chariots;

impl Hooks for Chariots {
    fn event(&self, g: &ProvingGrounds, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        match &e.action {
            Action::ChariotDrawn { card } => g.draw_chariot(s, card, f)?,
            Action::ChariotLoaded { dice } => {
                g.check_timer(s, e, "dice placed on the chariot", f);
                g.load(s, dice, f)?
            }
            Action::ChariotResolved { met } => g.resolve_chariot(s, *met, e, f),
            _ => {}
        }
        Ok(())
    }

    /// Under `chariot-draw=required`, a chariot is in play at each roll while the deck lasts.
    fn start_round(&self, g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        let m = &s.mods.chariots;
        if g.config.chariot_draw == ChariotDraw::Required && m.chariot.is_none() {
            let left = (g.cards.chariots.len() as u32).saturating_sub(m.drawn.count_ones());
            if left > 0 {
                f.violate(Violation::new(
                    CHARIOT_DRAW,
                    "no chariot is in play at the roll while the chariot deck lasts",
                ));
            }
        }
    }

    fn after_roll(&self, _g: &ProvingGrounds, s: &mut State) {
        s.mods.chariots.resolved = false;
    }

    /// The chariot must have been resolved before the first marker's turn.
    fn marker_turn(&self, g: &ProvingGrounds, s: &mut State, _i: usize, e: &Event, f: &mut Findings) {
        if s.phase == Phase::Move {
            if let Some(due) = g.chariot_due(s) {
                f.violate(
                    Violation::new(CHARIOT_RESOLVE, "the chariot was not resolved before the markers moved")
                        .expected_recorded(due.to_string(), e.to_string()),
                );
                // Resolved here as the rules required (card l.12: met, it is discarded and its
                // dice go to reserve; unmet, its effect activates), so that the one omission
                // is one finding: the chariot does not stay in play, its health loss counts.
                if let (Action::ChariotResolved { met }, Some(k)) = (due, s.mods.chariots.chariot) {
                    g.settle_chariot(s, k, met, f);
                    s.made.chariot = Some(met); // a late `chariot-met`/`-unmet` records this
                    s.made.note();
                }
            }
        }
    }

    /// Reserve dice back to the pool, and the dice on the chariot unless they stay on it.
    fn return_dice(&self, g: &ProvingGrounds, s: &mut State, pool: &mut ColorCounts) {
        let m = &mut s.mods.chariots;
        *pool = pool.plus(m.reserve);
        m.reserve = ColorCounts::default();
        if m.chariot.is_none() || g.config.chariot_unmet_dice == ChariotUnmetDice::Return {
            *pool = pool.plus(m.dice.colors());
            m.dice = Dice::new();
        }
    }

    fn due_before_moves(&self, g: &ProvingGrounds, s: &State) -> Option<Action> {
        g.chariot_due(s)
    }
}

impl ProvingGrounds {
    /// `chariot CARD`: before a roll, one at a time, each card once.
    fn draw_chariot(&self, s: &mut State, card: &str, f: &mut Findings) -> Result<(), StepError> {
        let k = self
            .cards
            .chariots
            .iter()
            .position(|c| c.id == card)
            .ok_or_else(|| StepError::new(format!("no chariot `{card}` in the catalog")))?;
        self.before_roll(s, "drawing a chariot", f);
        let m = &mut s.mods.chariots;
        if let Some(old) = m.chariot {
            f.violate(Violation::new(
                CHARIOT_DRAW,
                format!("`{}` is still in play: one chariot at a time", self.cards.chariots[old as usize].id),
            ));
        }
        if m.drawn & (1 << k) != 0 {
            f.violate(Violation::new(CHARIOT_DRAW, format!("`{card}` was already drawn this game")));
        }
        m.drawn |= 1 << k;
        m.chariot = Some(k as u8);
        m.dice = Dice::new();
        Ok(())
    }

    /// `load DIE...`: during step 1, dice from the pool onto the chariot.
    fn load(&self, s: &mut State, dice: &Dice, f: &mut Findings) -> Result<(), StepError> {
        let k = s
            .mods
            .chariots
            .chariot
            .ok_or_else(|| StepError::new("no chariot is in play to place dice on"))?;
        if s.phase != Phase::Roll {
            f.violate(Violation::new(
                CHARIOT_PLACE_DURING_ROLL,
                "dice go on the chariot during step 1, after the roll",
            ));
        }
        for d in dice.iter() {
            let mut placed = *d;
            let j = match s.pool.position(|p| p.value == d.value && p.color == d.color) {
                Some(j) => j,
                None => {
                    // A die the pool does not hold (a face or color misread): one finding, and
                    // the replay goes on (it stopped here). A die showing that face in another
                    // color is the one placed (the color misread); with none, nothing is.
                    f.violate(Violation::new(
                        CHARIOT_PLACE_FROM_POOL,
                        format!("no die {d} in the pool to place on the chariot (the pool: {})", s.pool),
                    ));
                    let Some(j) = s.pool.position(|p| p.value == d.value) else { continue };
                    placed = s.pool.as_mut_slice()[j];
                    j
                }
            };
            s.pool.remove(j);
            if !s.mods.chariots.dice.push(placed) {
                return Err(StepError::new("the chariot cannot hold more dice than the box has"));
            }
        }
        // Canonical order, so that the same dice placed in another order are the same table.
        s.mods.chariots.dice.sort();
        let chariot = &self.cards.chariots[k as usize];
        let (_, unused) = chariot.fill(s.mods.chariots.dice.iter().map(|d| (d.value, d.color)));
        if self.config.chariot_dice == ChariotDice::Required && unused != 0 {
            f.violate(Violation::new(
                CHARIOT_PLACE_REQUIRED,
                format!(
                    "`{}` needs {}; the chariot holds {} (some dice fill nothing)",
                    chariot.id,
                    chariot.condition_text(),
                    s.mods.chariots.dice
                ),
            ));
        }
        Ok(())
    }

    /// Whether the dice on the chariot in play meet its condition (`None`: no chariot).
    pub(in crate::proving_grounds) fn chariot_met(&self, s: &State) -> Option<bool> {
        let m = &s.mods.chariots;
        let chariot = self.cards.chariots.get(m.chariot? as usize)?;
        let (missing, _) = chariot.fill(m.dice.iter().map(|d| (d.value, d.color)));
        Some(missing == 0)
    }

    /// The chariot's resolution, when it is due (start of step 2, before any marker).
    fn chariot_due(&self, s: &State) -> Option<Action> {
        if !self.has(Module::Chariots) || s.mods.chariots.resolved || s.cursor > 0 {
            return None;
        }
        self.chariot_met(s).map(|met| Action::ChariotResolved { met })
    }

    /// `chariot-met` / `chariot-unmet`.
    fn resolve_chariot(&self, s: &mut State, met: bool, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Roll => self.leave_roll(s, f),
            Phase::Move if s.cursor == 0 => {}
            _ => f.violate(Violation::new(
                CHARIOT_RESOLVE,
                "the chariot is resolved at the start of step 2, before the markers move",
            )),
        }
        if s.mods.chariots.resolved {
            f.violate(Violation::new(CHARIOT_RESOLVE, "the chariot was already resolved this round"));
        }
        let Some(k) = s.mods.chariots.chariot else {
            f.violate(Violation::new(CHARIOT_RESOLVE, "no chariot is in play"));
            return;
        };
        let chariot = &self.cards.chariots[k as usize];
        let mut met = met;
        if self.chariot_met(s) != Some(met) {
            let expected = Action::ChariotResolved { met: !met };
            f.violate(
                Violation::new(
                    CHARIOT_RESOLVE,
                    format!(
                        "`{}` needs {}; the chariot holds {}",
                        chariot.id,
                        chariot.condition_text(),
                        s.mods.chariots.dice
                    ),
                )
                .expected_recorded(expected.to_string(), e.to_string()),
            );
            // Resolved as the dice on it say (card l.12 "If met, discard the chariot and put
            // the dice in reserve"): one finding, and a met chariot recorded unmet costs no
            // health, nor keeps the chariot in play (audit r6 D6). Not after an unverified
            // effect, which may explain the record.
            if s.taint.is_none() && s.tainted_event.is_none() {
                met = !met;
            }
        }
        self.settle_chariot(s, k, met, f);
    }

    /// A chariot's resolution applied: met, discarded with its dice in reserve; unmet, its
    /// effect activates.
    fn settle_chariot(&self, s: &mut State, k: u8, met: bool, f: &mut Findings) {
        let m = &mut s.mods.chariots;
        m.resolved = true;
        if met {
            // Discarded; its dice go to reserve and come back at recovery.
            m.reserve = m.reserve.plus(m.dice.colors());
            m.dice = Dice::new();
            m.chariot = None;
            m.met = m.met.saturating_add(1);
            return;
        }
        self.activate(s, k, f);
        if self.config.chariot_unmet == ChariotUnmet::Discarded {
            // Discarded after it activates; the dice on it come back at recovery.
            s.mods.chariots.chariot = None;
        }
    }

    /// An unmet chariot's effect.
    fn activate(&self, s: &mut State, k: u8, f: &mut Findings) {
        let chariot = &self.cards.chariots[k as usize];
        match &chariot.effect {
            Effect::Health(n) => {
                for _ in 0..*n {
                    if s.phase == Phase::Over {
                        break;
                    }
                    self.lose_health(s, false);
                }
            }
            // Before any marker's turn: a marker sent to the bottom owes a wound at the checks.
            Effect::MarkersDown(n) => {
                for slot in s.slots.iter_mut().filter(|sl| sl.card.is_some()) {
                    slot.marker = slot.marker.saturating_sub(*n);
                }
            }
            Effect::ShieldSlot(n) if self.has(Module::Shields) => {
                if s.slots[*n as usize - 1].card.is_some() {
                    s.mods.shields.shielded |= 1 << (*n - 1);
                }
            }
            Effect::ShieldSlot(n) => {
                let why = format!(
                    "chariot `{}` activates: it gives slot {n} a shield, but the shields module is not in play",
                    chariot.id
                );
                self.report_unverified(s, f, why, false);
            }
            Effect::Text(t) => {
                let said = unverified("chariot (activates)", &chariot.id, t);
                self.report_unverified(s, f, said, true);
            }
            // Another kind's effect: refused when the catalog is read.
            _ => {}
        }
    }
}
