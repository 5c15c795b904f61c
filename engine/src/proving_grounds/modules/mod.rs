//! The optional modules' rules, one file each, and the hooks through which the core round
//! calls them.
//!
//! Each module is a unit struct implementing [`Hooks`]: one method per point of the round
//! where the reference card puts a module's step (start of round, after the roll, a marker's
//! turn, before the checks, recovery ...), each doing nothing unless the module overrides it.
//! The core steps (`roll`, `markers`, `checks`, `recover`, `consequence`) call
//! `for m in self.modules()` at those points; with no module in play the loop ends at once,
//! so the training game pays one test per point. A module's own events go to its `event`.
//!
//! To read one module, read its file: `shields`, `sun_moon`, `conspirators`, `dragonling`,
//! `chariots`, `inspiration`, `rolls`. Its part of the table is in `state` (`ModState`), its
//! facts and board line in `facts` and `board`, its random player in `simulate`.

mod chariots;
mod conspirators;
mod dragonling;
mod inspiration;
mod rolls;
mod shields;
mod sun_moon;

pub(super) use conspirators::UNKNOWN_DIE;

use super::attack::{AttackMods, Expected};
use super::dice::ColorCounts;
use super::event::{Action, Event};
use super::params::Module;
use super::state::State;
use super::ProvingGrounds;
use crate::{Findings, StepError};

/// What a module does at each point of the round. Every method defaults to nothing.
pub(super) trait Hooks: Sync {
    /// The table at setup, before the first event.
    fn setup(&self, _g: &ProvingGrounds, _s: &mut State) {}
    /// Before any event is applied (the dragonling die may only follow a roll).
    fn before_event(&self, _s: &mut State, _e: &Event) {}
    /// One of the module's own events (`Action::module`), applied as played.
    fn event(
        &self,
        _g: &ProvingGrounds,
        _s: &mut State,
        _e: &Event,
        _f: &mut Findings,
    ) -> Result<(), StepError> {
        Ok(())
    }
    /// At a round's roll, before it starts step 1: the start-of-round steps owed.
    fn start_round(&self, _g: &ProvingGrounds, _s: &mut State, _f: &mut Findings) {}
    /// After the roll: this round's step state starts fresh.
    fn after_roll(&self, _g: &ProvingGrounds, _s: &mut State) {}
    /// After a reroll.
    fn after_reroll(&self, _g: &ProvingGrounds, _s: &mut State, _f: &mut Findings) {}
    /// Rolling ends (`stop`, or the first step 2 event).
    fn leave_roll(&self, _g: &ProvingGrounds, _s: &mut State, _f: &mut Findings) {}
    /// A single is rerolled: `true` when the module allows it (and spends the allowance).
    fn allow_single_reroll(&self, _s: &mut State) -> bool {
        false
    }
    /// What the module changes about the attack on slot `i`, and the dice that attack.
    fn attack(
        &self,
        _g: &ProvingGrounds,
        _s: &State,
        _i: usize,
        _m: &mut AttackMods,
        _dice: &mut ColorCounts,
    ) {
    }
    /// Slot `i`'s marker has its turn (`e`), before it is judged.
    fn marker_turn(&self, _g: &ProvingGrounds, _s: &mut State, _i: usize, _e: &Event, _f: &mut Findings) {}
    /// Slot `i`'s turn was recorded as `action` where the rules expected `expected`.
    fn after_turn(
        &self,
        _g: &ProvingGrounds,
        _s: &mut State,
        _i: usize,
        _expected: Expected,
        _action: &Action,
    ) {
    }
    /// Step 2A ends: what the module owed before the checks.
    fn before_checks(&self, _g: &ProvingGrounds, _s: &mut State, _e: &Event, _f: &mut Findings) {}
    /// The enemy in slot `i` was defeated.
    fn after_defeat(&self, _g: &ProvingGrounds, _s: &mut State, _i: usize) {}
    /// The round's steps are over (at `recover`, or where a log skipped it): what was skipped.
    fn close_round(&self, _g: &ProvingGrounds, _s: &mut State, _e: &Event, _f: &mut Findings) {}
    /// Step 3, first: the module's dice that come back to the pool join `pool` (the pool's
    /// dice by color: every die comes back unrolled).
    fn return_dice(&self, _g: &ProvingGrounds, _s: &mut State, _pool: &mut ColorCounts) {}
    /// Step 3, once every die is back in `pool`: the module's own recovery.
    fn recover(&self, _g: &ProvingGrounds, _s: &mut State, _pool: &mut ColorCounts) {}
    /// A consequence due at the start of step 2, before any marker's turn.
    fn due_before_moves(&self, _g: &ProvingGrounds, _s: &State) -> Option<Action> {
        None
    }
    /// A consequence due once every marker has had its turn, before the checks.
    fn due_after_moves(&self, _g: &ProvingGrounds, _s: &State) -> Option<Action> {
        None
    }
    /// A consequence due before defeats and wounds are resolved.
    fn due_before_checks(&self, _g: &ProvingGrounds, _s: &State) -> Option<Action> {
        None
    }
    /// A random event (a card drawn) is owed before the round can end.
    fn awaits_chance(&self, _g: &ProvingGrounds, _s: &State) -> bool {
        false
    }
}

impl Module {
    /// The module's rules.
    pub(super) fn hooks(self) -> &'static dyn Hooks {
        match self {
            Module::Shields => &shields::Shields,
            Module::SunMoon => &sun_moon::SunMoon,
            Module::Conspirators => &conspirators::Conspirators,
            Module::Dragonling => &dragonling::Dragonling,
            Module::Chariots => &chariots::Chariots,
            Module::Inspiration => &inspiration::Inspiration,
            Module::Rolls => &rolls::Rolls,
        }
    }
}

impl ProvingGrounds {
    /// The rules of the modules in play, in the canonical order (none for a training game).
    #[inline]
    pub(super) fn modules(&self) -> impl Iterator<Item = &'static dyn Hooks> {
        self.config.modules.iter().map(Module::hooks)
    }

    /// Whether a module is in play.
    pub(super) fn has(&self, m: Module) -> bool {
        self.config.modules.has(m)
    }
}

impl ProvingGrounds {
    /// Start-of-round events (dial, conspirator die, chariot) come before the roll.
    fn before_roll(&self, s: &State, what: &str, f: &mut Findings) {
        if s.phase != super::state::Phase::Draw {
            f.violate(crate::Violation::new(
                super::rules::STEP_ORDER,
                format!("{what} happens at the start of a round, before the roll"),
            ));
        }
    }
}
