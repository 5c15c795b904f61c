//! The modules' steps: their own events, and the hooks `step` calls at the points of the
//! round where the reference card puts each module's step. Like `step`, every handler judges
//! the event, then applies it as played.
//!
//! `step` calls the hooks only when a module is in play, so the training game's hot path is
//! unchanged.

use super::attack::AttackMods;
use super::cards::Effect;
use super::dice::{Color, ColorCounts, Dice, Die};
use super::event::{Action, Event};
use super::modules::Module;
use super::rules::*;
use super::state::{Phase, State, EXHAUSTION, SLOTS};
use super::step::{color_name, describe};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

impl ProvingGrounds {
    fn has(&self, m: Module) -> bool {
        self.config.modules.has(m)
    }

    /// Apply a module event other than the shields' (those are marker turns, see `step`).
    pub(super) fn module_event(
        &self,
        s: &mut State,
        e: &Event,
        dragon_may: bool,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        match &e.action {
            Action::DialTurned { slot } => self.turn_dial(s, *slot as usize - 1, f),
            Action::DieBorrowed { color } => self.borrow(s, *color, f),
            Action::MoonStruck { slot } => self.moon(s, *slot as usize - 1, e, f),
            Action::ConspiratorRolled { value } => self.conspire(s, *value, f),
            Action::ConspiratorRevealed { card } => self.reveal(s, card, f)?,
            Action::DragonlingRolled { value } => {
                if !dragon_may {
                    f.violate(Violation::new(
                        DRAGON_WITH_SET,
                        "the dragonling die is rolled with the pool or rerolled with a set: record it right after that `roll` or `reroll`",
                    ));
                }
                s.mods.dragon = *value;
            }
            Action::ChariotDrawn { card } => self.draw_chariot(s, card, f)?,
            Action::ChariotLoaded { dice } => self.load(s, dice, f)?,
            Action::ChariotResolved { met } => self.resolve_chariot(s, *met, e, f),
            Action::InspirationPlayed { card } => self.inspire(s, card, None, f)?,
            Action::InspirationPlayedOn { card, slot } => {
                self.inspire(s, card, Some(*slot as usize - 1), f)?
            }
            _ => {}
        }
        Ok(())
    }

    /// Start-of-round events come before the roll.
    fn before_roll(&self, s: &State, what: &str, f: &mut Findings) {
        if s.phase != Phase::Draw {
            f.violate(Violation::new(
                STEP_ORDER,
                format!("{what} happens at the start of a round, before the roll"),
            ));
        }
    }

    // ---- Sun and Moon ----------------------------------------------------------------

    fn turn_dial(&self, s: &mut State, i: usize, f: &mut Findings) {
        self.before_roll(s, "turning the dial", f);
        let card = s.slots[i].card;
        if card.is_some() && card == s.mods.faced_last {
            f.violate(Violation::new(
                NOT_SAME_ENEMY,
                format!("Maia faced the enemy in slot {} last round too", i + 1),
            ));
        }
        s.mods.facing = i as u8 + 1;
        s.mods.faced_card = card;
    }

    /// The sun and moon slots (0-based) for the slot faced this round.
    pub(super) fn sun_moon_slots(&self, s: &State) -> Option<(usize, usize)> {
        let faced = (s.mods.facing as usize).checked_sub(1)?;
        Some(if self.config.sun_faced {
            (faced, (faced + 3) % SLOTS)
        } else {
            ((faced + 1) % SLOTS, (faced + SLOTS - 1) % SLOTS)
        })
    }

    /// The moon slot whose marker must move down. `consequence` asks only once every marker
    /// has had its turn.
    pub(super) fn moon_owed(&self, s: &State) -> Option<usize> {
        if !self.has(Module::SunMoon) || s.phase != Phase::Move {
            return None;
        }
        self.moon_owed_ignoring_turns(s)
    }

    /// A hit on the sun enemy owes a borrowed die (while the dial has one).
    pub(super) fn borrow_owed(&self, s: &State) -> bool {
        if !self.has(Module::SunMoon) || s.mods.borrow_done || s.mods.dial.is_empty() {
            return false;
        }
        matches!(self.sun_moon_slots(s), Some((sun, _)) if s.mods.hits & (1 << sun) != 0)
    }

    /// The color a derived borrow takes: the first on the dial (green, yellow, blue).
    pub(super) fn default_borrow(&self, s: &State) -> Color {
        Color::COLORED.into_iter().find(|&c| s.mods.dial.get(c) > 0).unwrap_or(Color::Green)
    }

    fn borrow(&self, s: &mut State, color: Color, f: &mut Findings) {
        if !matches!(s.phase, Phase::Move | Phase::Check) {
            f.violate(Violation::new(STEP_ORDER, "a die is borrowed in step 2, after the sun enemy is hit"));
        }
        let why = match self.sun_moon_slots(s) {
            _ if s.mods.borrow_done => Some("a die was already borrowed this round".to_string()),
            None => Some("the dial was not turned this round".to_string()),
            Some((sun, _)) if s.mods.hits & (1 << sun) == 0 => {
                Some(format!("the enemy in the sun position (slot {}) was not hit", sun + 1))
            }
            // Owed; an empty dial or a missing color is reported below.
            Some(_) => None,
        };
        if let Some(why) = why {
            f.violate(Violation::new(SUN_BORROW, why));
        }
        if s.mods.dial.get(color) == 0 {
            f.violate(Violation::new(
                SUN_BORROW,
                format!("the dial holds {}, not {}", describe(s.mods.dial), color_name(color)),
            ));
        } else {
            s.mods.dial.0[color.index()] -= 1;
            s.mods.borrowed_new.add(color);
            s.pool.push(Die::new(0, color));
            s.pool.sort();
        }
        s.mods.borrow_done = true;
    }

    fn moon(&self, s: &mut State, i: usize, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Roll | Phase::Move => {
                if s.phase == Phase::Roll {
                    self.leave_roll(s, f);
                }
                // The moon comes after every marker's turn.
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
                (None, Some((_, m))) if s.mods.moon_done => {
                    format!("the moon enemy (slot {}) already moved down", m + 1)
                }
                (None, Some((_, m))) => {
                    format!("the moon enemy (slot {}) was hit, or has no marker to move", m + 1)
                }
            };
            f.violate(Violation::new(MOON_DOWN, why));
        }
        s.slots[i].marker = s.slots[i].marker.saturating_sub(1);
        s.mods.moon_done = true;
    }

    fn moon_owed_ignoring_turns(&self, s: &State) -> Option<usize> {
        if s.mods.moon_done {
            return None;
        }
        let (_, moon) = self.sun_moon_slots(s)?;
        (s.slots[moon].card.is_some() && s.mods.hits & (1 << moon) == 0 && s.slots[moon].marker > 0)
            .then_some(moon)
    }

    // ---- Conspirators ----------------------------------------------------------------

    fn conspire(&self, s: &mut State, value: u8, f: &mut Findings) {
        self.before_roll(s, "the conspirator die", f);
        if s.mods.conspire != 0 {
            f.violate(Violation::new(
                CONSPIRE_EACH_ROUND,
                "the conspirator die was already rolled this round",
            ));
        }
        s.mods.conspire = value;
        s.mods.active = 0;
        for (k, c) in self.conspirators.iter().enumerate() {
            if s.mods.revealed & (1 << k) != 0 && c.die == value {
                s.mods.active |= 1 << k;
                if let Effect::Text(t) = &c.effect {
                    f.unverified
                        .push(format!("conspirator `{}` is active; its effect is card text: {t}", c.id));
                }
            }
        }
    }

    fn reveal(&self, s: &mut State, card: &str, f: &mut Findings) -> Result<(), StepError> {
        let k = self
            .conspirators
            .iter()
            .position(|c| c.id == card)
            .ok_or_else(|| StepError::new(format!("no conspirator `{card}` in the catalog")))?;
        if s.mods.revealed & (1 << k) != 0 {
            f.violate(Violation::new(CONSPIRATOR_REVEAL, format!("`{card}` is already revealed")));
        } else if self.reveals_owed(s) == 0 {
            f.violate(Violation::new(
                CONSPIRATOR_REVEAL,
                "no conspirator is owed: one is revealed at setup and after each defeat",
            ));
        }
        s.mods.revealed |= 1 << k;
        s.mods.reveal_owed = s.mods.reveal_owed.saturating_sub(1);
        Ok(())
    }

    fn unrevealed(&self, s: &State) -> u32 {
        self.conspirators.len() as u32 - s.mods.revealed.count_ones().min(self.conspirators.len() as u32)
    }

    /// Conspirators to reveal now: those of the setup (`conspirators-start`, until the first
    /// roll) not yet revealed, and one for each defeat since. The setup's count is not kept in
    /// the table, so that readings of `conspirators-start` start from the same table and split
    /// where a reveal (or its absence) first tells them apart.
    pub(super) fn reveals_owed(&self, s: &State) -> u8 {
        let setup = if s.round == 0 {
            let start = self.config.conspirators_start.min(self.conspirators.len() as u8);
            start.saturating_sub(s.mods.revealed.count_ones() as u8)
        } else {
            0
        };
        setup.saturating_add(s.mods.reveal_owed)
    }

    /// A reveal is owed and a card remains to be revealed.
    pub(super) fn reveal_pending(&self, s: &State) -> bool {
        self.has(Module::Conspirators) && self.reveals_owed(s) > 0 && self.unrevealed(s) > 0
    }

    pub(super) fn after_defeat_mods(&self, s: &mut State, i: usize) {
        if self.has(Module::Conspirators) && self.unrevealed(s) > u32::from(self.reveals_owed(s)) {
            s.mods.reveal_owed = s.mods.reveal_owed.saturating_add(1);
        }
        // A defeated enemy's shield goes with its card.
        s.mods.shields &= !(1 << i);
    }

    /// The requirement increase of the active conspirators.
    fn extra_count(&self, s: &State) -> u8 {
        let mut n = 0u8;
        for (k, c) in self.conspirators.iter().enumerate() {
            if s.mods.active & (1 << k) != 0 {
                if let Effect::RequireMore(m) = c.effect {
                    n = n.saturating_add(m);
                }
            }
        }
        n
    }

    // ---- Dragonling ------------------------------------------------------------------

    fn weak_to_dragon(&self, s: &State, i: usize) -> bool {
        match s.slots[i].card {
            Some(c) => s.mods.dragon != 0 && self.enemy(c).icon == Some(s.mods.dragon),
            None => false,
        }
    }

    /// Rolling ends (`stop`, or the first step 2 event): the dragonling die must have been rolled.
    pub(super) fn leave_roll(&self, s: &mut State, f: &mut Findings) {
        s.phase = Phase::Move;
        if self.has(Module::Dragonling) && s.mods.dragon == 0 {
            f.violate(Violation::new(
                DRAGON_WITH_POOL,
                "the dragonling die was not rolled with the pool this round (`dragon N` after the `roll`)",
            ));
        }
    }

    // ---- Chariots --------------------------------------------------------------------

    fn draw_chariot(&self, s: &mut State, card: &str, f: &mut Findings) -> Result<(), StepError> {
        let k = self
            .chariots
            .iter()
            .position(|c| c.id == card)
            .ok_or_else(|| StepError::new(format!("no chariot `{card}` in the catalog")))?;
        self.before_roll(s, "drawing a chariot", f);
        if let Some(old) = s.mods.chariot {
            f.violate(Violation::new(
                CHARIOT_DRAW,
                format!("`{}` is still in play: one chariot at a time", self.chariots[old as usize].id),
            ));
        }
        if s.mods.chariots_drawn & (1 << k) != 0 {
            f.violate(Violation::new(CHARIOT_DRAW, format!("`{card}` was already drawn this game")));
        }
        s.mods.chariots_drawn |= 1 << k;
        s.mods.chariot = Some(k as u8);
        s.mods.chariot_dice = Dice::new();
        Ok(())
    }

    fn load(&self, s: &mut State, dice: &Dice, f: &mut Findings) -> Result<(), StepError> {
        let k = s.mods.chariot.ok_or_else(|| StepError::new("no chariot is in play to place dice on"))?;
        if s.phase != Phase::Roll {
            f.violate(Violation::new(
                CHARIOT_PLACE_DURING_ROLL,
                "dice go on the chariot during step 1, after the roll",
            ));
        }
        for d in dice.iter() {
            let j = s
                .pool
                .position(|p| p.value == d.value && p.color == d.color)
                .ok_or_else(|| StepError::new(format!("no die {d} in the pool to place on the chariot")))?;
            s.pool.remove(j);
            if !s.mods.chariot_dice.push(*d) {
                return Err(StepError::new("the chariot cannot hold more dice than the box has"));
            }
        }
        // Canonical order, so that the same dice placed in another order are the same table.
        s.mods.chariot_dice.sort();
        let chariot = &self.chariots[k as usize];
        let (_, unused) = chariot.fill(s.mods.chariot_dice.iter().map(|d| (d.value, d.color)));
        if self.config.chariot_required_only && unused != 0 {
            f.violate(Violation::new(
                CHARIOT_PLACE_REQUIRED,
                format!(
                    "`{}` needs {}; the chariot holds {} (some dice fill nothing)",
                    chariot.id,
                    chariot.condition_text(),
                    s.mods.chariot_dice
                ),
            ));
        }
        Ok(())
    }

    /// Whether the dice on the chariot in play meet its condition (`None`: no chariot).
    pub(super) fn chariot_met_now(&self, s: &State) -> Option<bool> {
        self.chariot_met(s)
    }

    fn chariot_met(&self, s: &State) -> Option<bool> {
        let k = s.mods.chariot?;
        let (missing, _) =
            self.chariots[k as usize].fill(s.mods.chariot_dice.iter().map(|d| (d.value, d.color)));
        Some(missing == 0)
    }

    /// The chariot's resolution is due (start of step 2, before any marker).
    pub(super) fn chariot_consequence(&self, s: &State) -> Option<Action> {
        if !self.has(Module::Chariots) || s.mods.chariot_resolved || s.cursor > 0 {
            return None;
        }
        self.chariot_met(s).map(|met| Action::ChariotResolved { met })
    }

    fn resolve_chariot(&self, s: &mut State, met: bool, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Roll => self.leave_roll(s, f),
            Phase::Move if s.cursor == 0 => {}
            _ => f.violate(Violation::new(
                CHARIOT_RESOLVE,
                "the chariot is resolved at the start of step 2, before the markers move",
            )),
        }
        if s.mods.chariot_resolved {
            f.violate(Violation::new(CHARIOT_RESOLVE, "the chariot was already resolved this round"));
        }
        let Some(k) = s.mods.chariot else {
            f.violate(Violation::new(CHARIOT_RESOLVE, "no chariot is in play"));
            return;
        };
        let chariot = &self.chariots[k as usize];
        if self.chariot_met(s) != Some(met) {
            let expected = Action::ChariotResolved { met: !met };
            f.violate(
                Violation::new(
                    CHARIOT_RESOLVE,
                    format!(
                        "`{}` needs {}; the chariot holds {}",
                        chariot.id,
                        chariot.condition_text(),
                        s.mods.chariot_dice
                    ),
                )
                .expected_recorded(expected.to_string(), e.to_string()),
            );
        }
        s.mods.chariot_resolved = true;
        if met {
            // Discarded; its dice go to reserve and come back at recovery.
            s.mods.reserve = add_counts(s.mods.reserve, s.mods.chariot_dice.colors());
            s.mods.chariot_dice = Dice::new();
            s.mods.chariot = None;
            s.mods.chariots_met = s.mods.chariots_met.saturating_add(1);
            return;
        }
        match &chariot.effect {
            Effect::Health(n) => {
                for _ in 0..*n {
                    if s.phase == Phase::Over {
                        break;
                    }
                    self.lose_health(s);
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
                    s.mods.shields |= 1 << (*n - 1);
                }
            }
            Effect::ShieldSlot(n) => f.unverified.push(format!(
                "chariot `{}` activates: it gives slot {n} a shield, but the shields module is not in play",
                chariot.id
            )),
            other => f
                .unverified
                .push(format!("chariot `{}` activates; its effect is card text: {other}", chariot.id)),
        }
        if self.config.chariot_unmet_discarded {
            // Discarded after it activates; the dice on it come back at recovery.
            s.mods.chariot = None;
        }
    }

    // ---- Inspiration -----------------------------------------------------------------

    /// An inspiration card played, on the enemy in slot `on` when the log names one.
    fn inspire(
        &self,
        s: &mut State,
        card: &str,
        on: Option<usize>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let k = self
            .inspirations
            .iter()
            .position(|c| c.id == card)
            .ok_or_else(|| StepError::new(format!("no inspiration card `{card}` in the catalog")))?;
        let c = &self.inspirations[k];
        let target = match on {
            Some(i) if s.slots[i].card.is_none() => {
                return Err(StepError::new(format!(
                    "`{card}` is played on slot {}, which holds no enemy",
                    i + 1
                )))
            }
            // Free text may say what it acts on; a form of the engine's says whether it does.
            Some(_) if !c.effect.targets_an_enemy() && !matches!(c.effect, Effect::Text(_)) => {
                return Err(StepError::new(format!(
                    "`{card}` ({}) is not played on an enemy: write `inspire {card}`",
                    c.effect
                )))
            }
            other => other,
        };
        if self.config.inspiration_once && s.mods.inspired & (1 << k) != 0 {
            f.violate(Violation::new(INSPIRATION_ONCE, format!("`{card}` was already played")));
        }
        s.mods.inspired |= 1 << k;
        match (&c.effect, target) {
            (Effect::MarkerUp(n), Some(i)) => {
                if let Some(en) = s.slots[i].card.map(|card| self.enemy(card)) {
                    s.slots[i].marker = s.slots[i].marker.saturating_add(*n).min(en.top());
                }
            }
            (Effect::Unshield, Some(i)) => s.mods.shields &= !(1 << i),
            (effect, None) if effect.targets_an_enemy() => f.unverified.push(format!(
                "inspiration `{}` ({effect}) acts on one enemy, but the log does not say which (`inspire {} SLOT`)",
                c.id, c.id
            )),
            (Effect::Heal(n), _) => s.health = s.health.saturating_sub(*n).max(1),
            (Effect::Text(t), Some(i)) => f.unverified.push(format!(
                "inspiration `{}` is played on slot {}; its effect is card text: {t}",
                c.id,
                i + 1
            )),
            (effect, _) => self.inspire_untargeted(s, c, effect, f),
        }
        Ok(())
    }

    /// The effects of an inspiration card played on no enemy.
    fn inspire_untargeted(
        &self,
        s: &mut State,
        c: &super::cards::Inspiration,
        effect: &Effect,
        f: &mut Findings,
    ) {
        match effect {
            Effect::Rolls(n) if self.has(Module::Rolls) => {
                s.mods.rolls_left = s.mods.rolls_left.saturating_add(*n)
            }
            Effect::RerollSingle => s.mods.single_reroll = true,
            Effect::Rolls(_) => f.unverified.push(format!(
                "inspiration `{}` adds rerolls, but no Rolls tracker is in play (module `rolls`)",
                c.id
            )),
            other => f
                .unverified
                .push(format!("inspiration `{}` is played; its effect is card text: {other}", c.id)),
        }
    }

    // ---- Hooks called by `step` ------------------------------------------------------

    /// At the roll: the start-of-round steps the modules require.
    pub(super) fn start_round_checks(&self, s: &mut State, f: &mut Findings) {
        if self.has(Module::SunMoon) && s.mods.facing == 0 {
            f.violate(Violation::new(
                FACE_EACH_ROUND,
                "the dial was not turned to face an enemy before the roll",
            ));
        }
        if self.has(Module::Conspirators) {
            if s.mods.conspire == 0 {
                f.violate(Violation::new(
                    CONSPIRE_EACH_ROUND,
                    "the conspirator die was not rolled before the roll",
                ));
            }
            if self.reveal_pending(s) {
                f.violate(Violation::new(
                    CONSPIRATOR_REVEAL,
                    format!(
                        "{} conspirator(s) should have been revealed before the roll",
                        self.reveals_owed(s)
                    ),
                ));
                s.mods.reveal_owed = 0;
            }
        }
        if self.has(Module::Chariots) && self.config.chariot_draw_required && s.mods.chariot.is_none() {
            let left = self.chariots.len() as u32
                - s.mods.chariots_drawn.count_ones().min(self.chariots.len() as u32);
            if left > 0 {
                f.violate(Violation::new(
                    CHARIOT_DRAW,
                    "no chariot is in play at the roll while the chariot deck lasts",
                ));
            }
        }
    }

    /// After the roll: this round's step state starts fresh.
    pub(super) fn begin_roll_mods(&self, s: &mut State) {
        let m = &mut s.mods;
        m.hits = 0;
        m.moon_done = false;
        m.borrow_done = false;
        m.chariot_resolved = false;
        m.dragon = 0;
        m.dragon_may = self.has(Module::Dragonling);
        if self.has(Module::Rolls) && (self.config.rolls_per_round || s.round <= 1) {
            m.rolls_left = self.config.rolls;
        }
    }

    /// After a reroll: the tracker, an active conspirator forbidding rerolls, the dragonling.
    pub(super) fn reroll_mods(&self, s: &mut State, f: &mut Findings) {
        if self.has(Module::Rolls) {
            if s.mods.rolls_left == 0 {
                f.violate(Violation::new(ROLLS_OUT, "the Rolls tracker is out of rerolls"));
            }
            s.mods.rolls_left = s.mods.rolls_left.saturating_sub(1);
        }
        if self.has(Module::Conspirators) {
            let blocking = self
                .conspirators
                .iter()
                .enumerate()
                .find(|(k, c)| s.mods.active & (1 << k) != 0 && c.effect == Effect::NoRerolls);
            if let Some((_, c)) = blocking {
                f.violate(Violation::new(
                    CONSPIRATOR_NO_REROLLS,
                    format!("conspirator `{}` is active this round: no set may be rerolled", c.id),
                ));
            }
        }
        s.mods.dragon_may = self.has(Module::Dragonling);
    }

    /// What the modules change about the attack on slot `i`, and the dice that attack.
    pub(super) fn attack_mods(&self, s: &State, i: usize) -> (AttackMods, ColorCounts) {
        let mut dice = s.pool.colors_showing(i as u8 + 1);
        if self.has(Module::Dragonling) && self.config.dragon_extra_die && self.weak_to_dragon(s, i) {
            dice.add(Color::White);
        }
        let mods = AttackMods {
            shields: self.has(Module::Shields),
            shielded: s.mods.shields & (1 << i) != 0,
            extra_count: if self.has(Module::Conspirators) { self.extra_count(s) } else { 0 },
        };
        (mods, dice)
    }

    /// A marker's turn: the chariot must have been resolved first; a weakness is unverified.
    pub(super) fn marker_turn_mods(&self, s: &mut State, i: usize, e: &Event, f: &mut Findings) {
        if self.has(Module::Chariots) && s.phase == Phase::Move {
            if let Some(met) = self.chariot_consequence(s) {
                f.violate(
                    Violation::new(CHARIOT_RESOLVE, "the chariot was not resolved before the markers moved")
                        .expected_recorded(met.to_string(), e.to_string()),
                );
                s.mods.chariot_resolved = true;
            }
        }
        if self.has(Module::Dragonling) && !self.config.dragon_extra_die && self.weak_to_dragon(s, i) {
            if let Some(c) = s.slots[i].card {
                f.unverified.push(format!(
                    "the dragonling die shows {}, the weakness of `{}`; the rulebook does not say what a weakness does (dragonling-weakness=unverified)",
                    s.mods.dragon,
                    self.enemy(c).id
                ));
            }
        }
    }

    /// Step 2A ends: the moon's move must have been made.
    pub(super) fn before_checks_mods(&self, s: &mut State, e: &Event, f: &mut Findings) {
        if let Some(m) = self.moon_owed_ignoring_turns(s).filter(|_| self.has(Module::SunMoon)) {
            f.violate(
                Violation::new(
                    MOON_DOWN,
                    format!("the moon enemy (slot {}) was not hit, but its marker did not move down", m + 1),
                )
                .expected_recorded(format!("moon {}", m + 1), e.to_string()),
            );
            s.mods.moon_done = true;
        }
    }

    /// The round's steps are over: a borrow owed and a reveal owed were skipped.
    pub(super) fn close_round_mods(&self, s: &mut State, e: &Event, f: &mut Findings) {
        if self.borrow_owed(s) {
            f.violate(
                Violation::new(SUN_BORROW, "the sun enemy was hit but no colored die was borrowed")
                    .expected_recorded("borrow g|y|b", e.to_string()),
            );
            s.mods.borrow_done = true;
        }
        if self.reveal_pending(s) {
            f.violate(Violation::new(
                CONSPIRATOR_REVEAL,
                "a defeat owed a new conspirator, but none was revealed",
            ));
            s.mods.reveal_owed = 0;
        }
    }

    /// Step 3 for the modules: reserve and chariot dice back, last round's borrowed dice back
    /// to the dial, this round's start-of-round choices cleared.
    pub(super) fn recover_mods(&self, s: &mut State) {
        let m = &mut s.mods;
        for c in Color::ALL {
            for _ in 0..m.reserve.get(c) {
                s.pool.push(Die::new(0, c));
            }
        }
        m.reserve = ColorCounts::default();
        if m.chariot.is_none() || !self.config.chariot_dice_stay {
            for d in m.chariot_dice.iter() {
                s.pool.push(Die::new(0, d.color));
            }
            m.chariot_dice = Dice::new();
        }
        // Borrowed last round: back to the dial, from the pool, or from the exhaustion track
        // when a wound sent it there (it is the dial's die either way).
        for c in Color::COLORED {
            for _ in 0..m.borrowed.get(c) {
                if let Some(j) = s.pool.position(|d| d.color == c) {
                    s.pool.remove(j);
                    m.dial.add(c);
                } else if let Some(k) = (0..EXHAUSTION).rev().find(|&k| s.exhaustion[k].get(c) > 0) {
                    s.exhaustion[k].0[c.index()] -= 1;
                    m.dial.add(c);
                }
            }
        }
        m.borrowed = m.borrowed_new;
        m.borrowed_new = ColorCounts::default();
        m.faced_last = m.faced_card;
        m.faced_card = None;
        m.facing = 0;
        m.conspire = 0;
        m.active = 0;
        m.single_reroll = false;
    }
}

fn add_counts(a: ColorCounts, b: ColorCounts) -> ColorCounts {
    let mut out = a;
    for c in Color::ALL {
        out.0[c.index()] = out.0[c.index()].saturating_add(b.get(c));
    }
    out
}
