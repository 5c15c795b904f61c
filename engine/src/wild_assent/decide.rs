//! The step function's decisions and random outcomes: setting up (Scout card, draws, setup
//! and obstacle rolls, placements, Equipment, `begin`), activations (a Seeker's, a Creature's
//! Instinct card, a free one, a Summon's within its summoner's), the target, a move checked
//! step by step, a Pit exit, an attack checked against arc, line of sight and range, its
//! roll, a skill, a capture, a Summon entering, a pass.
//!
//! A decision first flushes the consequences the log left out (each one a finding). It is
//! applied as played when it can be; one that makes no sense on this table (an action
//! outside the actor's activation) is reported and ignored.

use super::cards::{Movement, Moving, Pool, SkillKind, UnitKind};
use super::effect::{Effect, Status};
use super::event::{Event, Path, StepKind};
use super::geometry::Blocker;
use super::rules::{self, Mode, Scope};
use super::state::taint::Trigger;
use super::state::{
    Activation, Attack, CaptureUse, Faces, Obstacle, Phase, Presence, Side, SkillRef, SkillUse, Source,
    Stage, State, Unit, UnitIx,
};
use super::WildAssent;
use crate::kit::catalog::Id;
use crate::kit::due;
use crate::kit::grid::{Facing, Pos, Rel};
use crate::kit::name::Name;
use crate::kit::paths::{Move, Mover, Place, Refusal};
use crate::{Findings, StepError, Violation};
use smallvec::SmallVec;

impl WildAssent {
    /// Inlined into its callers, a consequence's check and a decision's each out of line
    /// (each looks first at a movement that may have ended, `landing_ends`): with the
    /// consequence loop inlined here, every record (decisions too) paid for its large frame,
    /// its registers saved and restored, on the way through; now it is two tests and a jump.
    #[inline]
    pub(crate) fn step_event(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        if ev.is_consequence() {
            return self.step_consequence(s, ev, f);
        }
        self.step_decision(s, ev, f)
    }

    /// A Seeker's or Gladiator's movement that may go on in another `move` line
    /// (`State::landing`): a move line of the same miniature goes on with its movement; any
    /// other record comes after it, so the movement ended where the miniature stands.
    #[inline(never)]
    fn landing_ends(&self, s: &mut State, ev: &Event, f: &mut Findings) {
        let Some(u) = s.landing else { return };
        // Names are unique on the table: the move is this miniature's when it bears the
        // name (the same answer as finding the name, without the walk).
        let goes_on = matches!(ev, Event::Move { unit, .. } if s.unit(u).name == *unit);
        if !goes_on {
            s.landing = None;
            self.land(s, u, f);
        }
    }

    /// [`WildAssent::step_event`] for a consequence: the kit's loop pairs it with what is due.
    #[inline(never)]
    fn step_consequence(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        if s.landing.is_some() {
            self.landing_ends(s, ev, f);
        }
        // `due::check_recorded` written out, with the chain's head in line (`chain_head`).
        let owed = self.chain_head(s);
        let recorded = due::Consequences::resolve_owed(self, s, ev, owed.as_ref())?;
        due::judge_recorded(self, s, ev, owed, &recorded, f)
    }

    /// [`WildAssent::step_event`] for a decision or a random outcome. Never inlined: most
    /// records are consequences, and with this inlined their step saved and restored the
    /// registers this one needs.
    #[inline(never)]
    fn step_decision(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        if s.landing.is_some() {
            self.landing_ends(s, ev, f);
        }
        // What the engine made at an omission is late-recorded, if at all, before the next
        // decision (`state::Made`): from here a record of it is judged afresh.
        if !s.made.is_empty() {
            s.made = Default::default();
        }
        // A second roll for an attack already rolled: nothing to decide (and it does not
        // show that the first roll's consequences are missing).
        if let (Event::Roll { unit, .. }, Some(a)) = (ev, s.attack.as_ref()) {
            // The roll is the attacker's when the attacker bears its name (names are unique on
            // the table: the same answer as finding the name, without the walk).
            if a.roll.is_some() && s.unit(a.attacker).name == *unit {
                let v = self.v(
                    s,
                    rules::ONE_ROLL,
                    "the attack is rolled once, for all its targets",
                    &[a.attacker],
                );
                f.violate(v);
                return Ok(());
            }
        }
        // An Instinct card drawn for a Creature with a capture token, resolved as a card
        // instead: one finding, and the activation goes on as played.
        if s.hunt.capture_card.is_some() && s.act.is_none() {
            self.frozen_resolved(s, ev, f);
        }
        // A Stunned miniature that moves or acts instead of skipping: one finding, and the
        // activation goes on as played (its skip, its end and its tokens' removal were each
        // reported as left out, and its actions then refused as out of turn).
        if s.act.as_ref().is_some_and(|a| a.held & Status::Stun.bit() != 0 && !a.skipped && !a.defied) {
            self.stun_defied(s, ev, f);
        }
        // Most decisions come within an activation with nothing owed: told from a few fields,
        // without walking the chain (`flush` with nothing due does nothing).
        let nothing = self.nothing_due(s);
        debug_assert!(
            !nothing || due::Consequences::due(self, s).is_none(),
            "nothing_due said nothing is owed, and the chain owes something"
        );
        let playing = s.phase == Phase::Play;
        if !nothing {
            if self.cancel_waits(s, ev) {
                self.flush_before_cancel(s, f)?;
            } else {
                due::flush(self, s, f)?;
            }
        }
        // A match's `victory` the flush just reported left out is the one finding (r6 D2).
        s.played_on |= playing && s.phase == Phase::Over && self.params.mode == Mode::Arena;
        if self.after_played_on(s, ev, f) {
            return Ok(());
        }
        if s.phase == Phase::Over {
            let what = if self.params.mode == Mode::Arena { "match" } else { "encounter" };
            f.violate(Violation::new(
                self.over_rule(),
                format!("the {what} is over: `{ev}` comes after its end"),
            ));
            return Ok(());
        }
        self.decide(s, ev, f)?;
        self.settle(s);
        Ok(())
    }

    /// An Instinct card drawn for a Creature with a capture token (l.312 "A Creature cannot
    /// activate while at least one capture token is on its card. If an Instinct card is
    /// drawn for that Creature, Assign 2 damage to each Seeker capturing it and discard the
    /// card"), whose record `ev` resolves the card instead (its `target`, or the Creature
    /// moving, acting or passing) before any capturer's damage: reported once under
    /// `wa.hunt.capture.frozen`, and the card is resolved as played (taken back from the
    /// discard pile, the Creature's activation begun, the capture damage no longer owed), as
    /// `scope=combat` does at the card itself. Each record was refused as out of turn.
    #[cold]
    #[inline(never)]
    fn frozen_resolved(&self, s: &mut State, ev: &Event, f: &mut Findings) {
        let Some((c, mask)) = s.hunt.capture_card else { return };
        let name = s.unit(c).name;
        let acts = match ev {
            Event::Target { .. } => true,
            Event::Move { unit, .. }
            | Event::Attack { unit, .. }
            | Event::Skill { unit, .. }
            | Event::Pass { unit } => *unit == name,
            _ => false,
        };
        let mut capturers = 0u32;
        for (i, x) in s.units.iter().enumerate() {
            if x.on_board() && x.capture.is_some_and(|(k, _)| k == c) {
                capturers |= 1u32.checked_shl(i as u32).unwrap_or(0);
            }
        }
        let creature = s.unit(c).card;
        let card =
            s.hunt.deck.discard.last().copied().filter(|&k| self.catalog.instincts[k].creature == creature);
        let Some(card) = card.filter(|_| acts && mask == capturers) else { return };
        f.violate(self.v(
            s,
            rules::CAPTURE_FROZEN,
            format!(
                "a Creature with a capture token cannot activate: `{name}`'s card is discarded and each Seeker \
                 capturing it is assigned 2 damage (`capture-damage`)"
            ),
            &[c],
        ));
        s.hunt.deck.discard.pop();
        s.hunt.capture_card = None;
        self.begin_creature(s, c, card, f);
    }

    /// Whether decision `ev` leaves a capture's cancellation owed rather than left out: "If
    /// the Seeker moves or performs a different action, their part of the capture is canceled
    /// and the token removed" (l.310) names no moment, so `capture-cancel` may be written as
    /// the Seeker moves or acts, or with the end of its activation (the notation's order of
    /// consequences lists it there). Only the Seeker's own move, action, roll or pass within
    /// that activation waits; a capture (which begins its part anew) and anything that begins
    /// another activation take it first.
    fn cancel_waits(&self, s: &State, ev: &Event) -> bool {
        let Some(a) = s.act.as_ref() else { return false };
        let me = s.unit(a.unit);
        if me.capture.is_none() {
            return false;
        }
        match ev {
            Event::Move { unit, .. }
            | Event::Attack { unit, .. }
            | Event::Roll { unit, .. }
            | Event::Skill { unit, .. }
            | Event::Pass { unit } => *unit == me.name,
            _ => false,
        }
    }

    /// `due::flush`, stopping at an owed `capture-cancel` ([`WildAssent::cancel_waits`]): the
    /// consequences before it are left out (each reported once, and applied); the
    /// cancellation stays owed.
    #[cold]
    #[inline(never)]
    fn flush_before_cancel(&self, s: &mut State, f: &mut Findings) -> Result<(), StepError> {
        use crate::kit::due::Consequences;
        for _ in 0..due::FLUSH_LIMIT {
            let Some(d) = self.due(s) else { return Ok(()) };
            if matches!(d.fact, super::due::Fact::CaptureCancel(..)) {
                return Ok(());
            }
            f.violate(due::left_out(self, s, &d));
            let fact = self.fact(&d);
            self.apply(s, &d, &fact, f)?;
        }
        Ok(())
    }

    /// A Stunned miniature's activation (l.259 "Stun - The target skips their next
    /// activation") whose record `ev` is the miniature moving or acting (a Creature's
    /// Instinct card resolved: its `target`) rather than its skip: reported once under
    /// `wa.status.stun`, and the activation goes on as played (`Activation::defied`). Its
    /// Bleed is still owed first; its tokens expire at its end as any activation's.
    #[cold]
    #[inline(never)]
    fn stun_defied(&self, s: &mut State, ev: &Event, f: &mut Findings) {
        let Some(a) = s.act.as_ref() else { return };
        let u = a.unit;
        let name = s.unit(u).name;
        if !s.unit(u).has(Status::Stun) || s.attack.is_some() || s.skill.is_some() || s.capture.is_some() {
            return;
        }
        let acts = match ev {
            Event::Move { unit, .. }
            | Event::Exit { unit, .. }
            | Event::Attack { unit, .. }
            | Event::Skill { unit, .. }
            | Event::Capture { unit, .. }
            | Event::Pass { unit } => *unit == name,
            Event::Target { .. } => a.card.is_some(),
            _ => false,
        };
        if !acts {
            return;
        }
        f.violate(self.v(
            s,
            rules::STUN,
            format!("`{name}` is Stunned: it skips this activation (`stunned {name}`), not `{ev}`"),
            &[u],
        ));
        if let Some(a) = s.act.as_mut() {
            a.defied = true;
        }
    }

    /// Cold: a finding is the rare branch, so its building (a message formatted, the
    /// miniatures it names tainted) is laid out away from the checks that pass.
    #[cold]
    fn v(&self, s: &State, rule: &'static str, msg: impl Into<String>, units: &[UnitIx]) -> Violation {
        let units: Vec<Option<UnitIx>> = units.iter().map(|&u| Some(u)).collect();
        self.taint(s, Violation::new(rule, msg), &units)
    }

    fn unit_named(&self, s: &State, n: &Name) -> Result<UnitIx, StepError> {
        self.unit_named_near(s, n, None)
    }

    /// [`WildAssent::unit_named`], miniature `near` looked at first ([`State::find_near`]).
    #[inline]
    fn unit_named_near(&self, s: &State, n: &Name, near: Option<UnitIx>) -> Result<UnitIx, StepError> {
        s.find_near(n, near).ok_or_else(|| {
            StepError::new(format!("`{n}` is not on the table (no miniature of that name was placed)"))
        })
    }

    /// [`WildAssent::unit_named`] for a decision of the active miniature (a move, an attack,
    /// a pass, a skill), which names it: looked at first.
    #[inline]
    fn actor_named(&self, s: &State, n: &Name) -> Result<UnitIx, StepError> {
        self.unit_named_near(s, n, s.act.as_ref().map(|a| a.unit))
    }

    /// The decision's own step. Inlined into its one caller, [`WildAssent::step_decision`]:
    /// its frame was set up and torn down again for every decision.
    #[inline(always)]
    fn decide(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        match *ev {
            Event::Scout { card } => self.scout(s, card, f),
            Event::Draw { threat, creature } => self.draw(s, threat, creature, f),
            Event::SetupRoll { face } => self.setup_roll(s, face, f),
            Event::SetupChoice { setup } => self.setup_choice(s, setup, f),
            Event::Equip { unit, card } => self.equip(s, unit, card, f),
            Event::Place { unit, at, facing, threat, side } => {
                self.place(s, unit, at.0, facing, threat, side, f)
            }
            Event::Obstacle { at, kind } => self.obstacle(s, at.0, kind, f),
            Event::ObstacleRoll { at, face } => self.obstacle_roll(s, at.0, face, f),
            Event::DraftRoll { side, faces } => self.draft_roll(s, side, faces, f),
            Event::Draft { side, card } => self.draft_pick(s, side, card, f),
            Event::Troupe { side, ref cards } => self.troupe(s, side, cards.clone(), f),
            Event::Skills { unit, ref skills } => self.choose_skills(s, unit, skills.clone(), f),
            Event::Begin => self.begin(s, f),
            _ if s.phase == Phase::Setup => Err(StepError::new(format!("`{ev}` comes after `begin`"))),
            Event::Activate { unit, free } => self.activate(s, unit, free, f),
            Event::Instinct { card } => self.instinct(s, card, f),
            Event::Target { unit } => self.target(s, unit, f),
            // A Whim's action, outside any activation (silvestrem.rs).
            Event::Move { unit, path, to } if self.whim_moves(s, &unit) => {
                self.whim_move(s, unit, &path, to.map(|t| t.0), f)
            }
            Event::Move { unit, path, to } => self.do_move(s, unit, &path, to.map(|t| t.0), f),
            Event::Exit { unit, to } => self.exit(s, unit, to.0, f),
            Event::Attack { unit, target, with } => self.attack(s, unit, target, with, f),
            Event::Roll { unit, faces } => self.roll(s, unit, faces, f),
            Event::Skill { unit, skill, target } => self.skill(s, unit, skill, target, f),
            Event::Capture { unit, creature } => self.capture(s, unit, creature, f),
            Event::Summon { unit, at, facing } => self.summon(s, unit, at.0, facing, f),
            Event::Pass { unit } => self.pass(s, unit, f),
            Event::Silvestrem { card } => self.silvestrem_draw(s, card, f),
            Event::Momentum { side, dice } => self.momentum_roll(s, side, dice, f),
            Event::MomentumReroll { side, from, to } => self.momentum_reroll(s, side, from, to, f),
            Event::MomentumAssign { unit, dice } => self.momentum_assign(s, unit, dice, f),
            Event::MomentumDiscard { side, dice } => self.momentum_discard(s, side, dice, f),
            _ => Err(StepError::new(format!("`{ev}` is a consequence"))),
        }
    }

    fn setup_only(&self, s: &State, what: &str) -> Result<(), StepError> {
        if s.phase == Phase::Setup {
            Ok(())
        } else {
            Err(StepError::new(format!("`{what}` belongs to the setup, before `begin`")))
        }
    }

    fn encounter_only(&self, what: &str) -> Result<(), StepError> {
        if self.params.scope == Scope::Encounter {
            Ok(())
        } else {
            Err(StepError::new(format!("`{what}` belongs to a Hunt encounter (scope=encounter)")))
        }
    }

    // ---- setting up
    //
    // The setup's handlers (and the Arena draft's, draft.rs and troupe.rs) are cold and out
    // of line: each runs a few times a session, and inlined into `step_decision` they made
    // it ~40 KB, the play's dispatch spread among them and its frame sized for them.

    #[cold]
    #[inline(never)]
    fn scout(&self, s: &mut State, card: Name, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "scout")?;
        self.encounter_only("scout")?;
        let id = self
            .catalog
            .scouts
            .id(card.as_str())
            .ok_or_else(|| StepError::new(format!("no Scout card `{card}`")))?;
        if s.hunt.scout.is_some() {
            f.violate(Violation::new(rules::NAMED, "the encounter already has its Scout card"));
            return Ok(());
        }
        let sc = &self.catalog.scouts[id];
        s.hunt.scout = Some(id);
        s.hunt.owed = sc.draw;
        s.hunt.creatures = sc.prey.clone();
        // The Environment is reported at `begin`, when it concerns every miniature.
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn draw(&self, s: &mut State, threat: u8, creature: Name, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "draw")?;
        self.encounter_only("draw")?;
        let id = self
            .unit_ids
            .get(&creature)
            .filter(|&c| self.units()[c].kind == UnitKind::Creature)
            .ok_or_else(|| StepError::new(format!("`{creature}` is no Hunt creature")))?;
        let t = usize::from(threat) - 1;
        let scout = s.hunt.scout.map(|sc| &self.catalog.scouts[sc]);
        if s.hunt.owed[t] == 0 {
            f.violate(Violation::new(rules::DRAW, format!("the Scout card owes no Threat {threat} draw")));
            return Ok(());
        }
        if scout.is_some_and(|sc| sc.prey.iter().any(|(c, _)| *c == id)) {
            f.violate(Violation::new(
                rules::DRAW,
                format!("`{creature}` is the Scout card's named Creature: its cards were set aside"),
            ));
            return Ok(());
        }
        if s.hunt.creatures.iter().any(|(c, _)| *c == id) {
            return Ok(()); // a duplicate: discarded, another card is drawn
        }
        s.hunt.creatures.push((id, threat));
        s.hunt.owed[t] -= 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn setup_roll(&self, s: &mut State, face: u8, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "setup-roll")?;
        self.encounter_only("setup-roll")?;
        if s.hunt.setup_roll.is_some() {
            f.violate(Violation::new(rules::SETUP_ROLL, "the setup is rolled once"));
            return Ok(());
        }
        s.hunt.setup_roll = Some(face);
        s.hunt.setup = (face <= 5).then_some(face);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn setup_choice(&self, s: &mut State, setup: u8, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "setup-choice")?;
        self.encounter_only("setup-choice")?;
        if s.hunt.setup_roll != Some(6) {
            f.violate(Violation::new(
                rules::SETUP_ROLL,
                format!(
                    "the players choose the setup only on a 6 (the roll is {})",
                    s.hunt.setup_roll.map_or("not made".to_string(), |r| r.to_string())
                ),
            ));
        }
        s.hunt.setup = Some(setup);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn equip(&self, s: &mut State, unit: Name, card: Name, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "equip")?;
        let u = self
            .unit_named(s, &unit)
            .map_err(|_| StepError::new(format!("place `{unit}` before equipping it")))?;
        let id = self
            .equipment_ids
            .get(&card)
            .ok_or_else(|| StepError::new(format!("no Equipment card `{card}`")))?;
        if !matches!(self.card(s, u).kind, UnitKind::Seeker | UnitKind::Assent) {
            return Err(StepError::new(format!("`{unit}` carries no Equipment (Seekers and Assents do)")));
        }
        let slots = s.unit(u).equipment;
        let Some(free) = slots.iter().position(Option::is_none) else {
            // A third card: the Arena's "two Equipment cards" (Assents: Equipment Slots), the
            // Hunt's one. A finding, and the card is not carried; the replay goes on.
            let (rule, msg) = if self.params.mode == Mode::Hunt {
                (rules::EQUIP_ONE, format!("`{unit}` already brings an Equipment card"))
            } else {
                (
                    rules::EQUIP_SLOT,
                    format!("`{unit}` has two Equipment slots, both taken: `{card}` is not carried"),
                )
            };
            f.violate(self.v(s, rule, msg, &[u]));
            return Ok(());
        };
        if self.params.mode == Mode::Hunt && free > 0 {
            f.violate(self.v(
                s,
                rules::EQUIP_ONE,
                format!("`{unit}` already brings an Equipment card"),
                &[u],
            ));
        }
        self.check_equip(s, u, card, f);
        s.unit_mut(u).equipment[free] = Some(id);
        Ok(())
    }

    /// A miniature's id: a stat block's, or a Summon's copy (`daemonspawn-2`).
    fn card_of_name(&self, n: &Name) -> Option<Id<super::cards::UnitCard>> {
        if let Some(id) = self.unit_ids.get(n) {
            return (self.units()[id].kind != UnitKind::Summon).then_some(id);
        }
        // A copy as the catalog names it: the answer the reading below gives it, kept.
        if let Some(&id) = self.copy_ids.get(n) {
            debug_assert_eq!(Some(id), self.card_of_copy(n), "a kept Summon copy differs");
            return Some(id);
        }
        // Any other spelling the reading accepts (`daemonspawn-01`).
        self.card_of_copy(n)
    }

    /// A Summon's copy read from its name: the stat block named before its last `-`, and a
    /// copy number after it within its copies.
    fn card_of_copy(&self, n: &Name) -> Option<Id<super::cards::UnitCard>> {
        let (base, copy) = n.as_str().rsplit_once('-')?;
        let copy: u8 = copy.parse().ok()?;
        // By `Name` (a few word operations), not the catalog's string map.
        let id = self.unit_ids.get(&Name::new(base)?)?;
        let card = &self.units()[id];
        (card.kind == UnitKind::Summon && (1..=card.copies).contains(&copy)).then_some(id)
    }

    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn place(
        &self,
        s: &mut State,
        unit: Name,
        at: Pos,
        facing: Facing,
        threat: Option<u8>,
        side: Option<Side>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if s.phase != Phase::Setup {
            return Err(StepError::new(
                "miniatures are placed before `begin` (a Summon enters with `summon`)",
            ));
        }
        let card = self.card_of_name(&unit).ok_or_else(|| {
            StepError::new(format!("`{unit}` is no miniature of the catalog (a Summon is named with its copy, like `daemonspawn-1`)"))
        })?;
        if s.find(&unit).is_some() {
            return Err(StepError::new(format!("`{unit}` is already on the table")));
        }
        let c = &self.units()[card];
        let hunt = self.params.mode == Mode::Hunt;
        let fits = match c.kind {
            UnitKind::Seeker | UnitKind::Creature => hunt,
            UnitKind::Assent | UnitKind::Gladiator => !hunt,
            UnitKind::Summon => true,
        };
        if !fits {
            return Err(StepError::new(format!(
                "a {} does not take part in the {}",
                c.kind, self.params.mode
            )));
        }
        let summoner = match c.summoner {
            Some(sc) => Some(
                s.indices()
                    .find(|&i| s.unit(i).card == sc)
                    .ok_or_else(|| StepError::new(format!("place `{unit}`'s summoner before it")))?,
            ),
            None => None,
        };
        let side = match (hunt, side, c.kind, summoner) {
            (_, _, _, Some(sm)) => s.unit(sm).side,
            (true, None, UnitKind::Seeker, _) => Side::Seekers,
            (true, None, _, _) => Side::Creatures,
            (true, Some(_), _, _) => return Err(StepError::new("Hunt miniatures have no side to name")),
            (false, Some(sd), _, _) => sd,
            (false, None, _, _) => return Err(StepError::new(format!("name `{unit}`'s side (red or blue)"))),
        };
        let threat = match (c.kind, threat) {
            (UnitKind::Creature, _) if self.params.scope == Scope::Encounter => {
                let drawn = s.hunt.creatures.iter().find(|(k, _)| *k == card).map(|(_, t)| *t);
                match drawn {
                    None => {
                        f.violate(Violation::new(
                            rules::NAMED,
                            format!("`{unit}` is not one of the encounter's Creatures"),
                        ));
                        threat.unwrap_or(1)
                    }
                    Some(t) => {
                        if threat.is_some_and(|g| g != t) {
                            f.violate(Violation::new(
                                rules::NAMED,
                                format!("`{unit}` is in this encounter at Threat {t}"),
                            ));
                        }
                        threat.unwrap_or(t)
                    }
                }
            }
            (UnitKind::Creature, Some(t)) => t,
            (UnitKind::Creature, None) => {
                return Err(StepError::new(format!("give `{unit}`'s Threat (t1, t2, t3)")));
            }
            (_, Some(_)) => return Err(StepError::new("only a Hunt Creature has a Threat")),
            (_, None) => 1,
        };
        if !self.params.board.contains(at) {
            f.violate(Violation::new(rules::BOUNDS, format!("{} is off the board", at.algebraic())));
        } else if let Some(o) = s.at(at) {
            f.violate(Violation::new(
                rules::FIELD,
                format!("{} already holds `{}`", at.algebraic(), s.unit(o).name),
            ));
        } else if let Some(o) = s.obstacle(at).filter(|o| *o != Obstacle::Pit) {
            f.violate(Violation::new(rules::FIELD, format!("{} holds {o}", at.algebraic())));
        }
        if c.kind != UnitKind::Summon && !hunt {
            self.check_gladiator(s, unit, side, at, f);
        }
        // A whole match or encounter starts from its setup, and a Summon is no part of it: it
        // "enter[s] the board via another Creature or Assent's Skill" (Arena, Summons; the Hunt
        // says the same). `scope=combat` starts wherever the recorded position stands, a Summon
        // already on the board included (Arena Example 10).
        if c.kind == UnitKind::Summon && matches!(self.params.scope, Scope::Match | Scope::Encounter) {
            f.violate(Violation::new(
                rules::SUMMON_ENTER,
                format!("`{unit}` is a Summon: it enters the board through its summoner's Skill during the match, not at setup"),
            ));
        }
        if s.units.len() >= super::state::MAX_UNITS {
            return Err(StepError::new(format!(
                "at most {} miniatures are on the table",
                super::state::MAX_UNITS
            )));
        }
        s.put_unit(
            None,
            Unit {
                name: unit,
                card,
                kind: c.kind,
                side,
                threat,
                at,
                facing,
                presence: Presence::OnBoard,
                damage: 0,
                statuses: 0,
                bleed: 0,
                equipment: [None; 2],
                taint: Default::default(),
                exhausted: false,
                in_pit: s.obstacle(at) == Some(Obstacle::Pit),
                capture: None,
                capture_kept: false,
                dropped: false,
                momentum: 0,
                momentum_dice: 0,
            },
        );
        Ok(())
    }

    fn place_obstacle(&self, s: &mut State, at: Pos, kind: Obstacle, f: &mut Findings) {
        if !self.params.board.contains(at) {
            f.violate(Violation::new(rules::BOUNDS, format!("{} is off the board", at.algebraic())));
            return;
        }
        if let Some(o) = s.obstacle(at) {
            f.violate(Violation::new(rules::FIELD, format!("{} already holds {o}", at.algebraic())));
            return;
        }
        if let Some(u) = s.at(at) {
            f.violate(Violation::new(rules::FIELD, format!("{} holds `{}`", at.algebraic(), s.unit(u).name)));
        }
        s.push_obstacle(at, kind);
    }

    #[cold]
    #[inline(never)]
    fn obstacle(&self, s: &mut State, at: Pos, kind: Obstacle, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "obstacle")?;
        if self.params.scope == Scope::Encounter {
            f.violate(Violation::new(
                rules::OBSTACLE_ROLL,
                "a Hunt encounter's obstacles come from a 1D6 for each X (`obstacle-roll`)",
            ));
        }
        self.check_obstacle(s, at, kind, f);
        self.place_obstacle(s, at, kind, f);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn obstacle_roll(&self, s: &mut State, at: Pos, face: u8, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "obstacle-roll")?;
        self.encounter_only("obstacle-roll")?;
        if let Some(p) = s.hunt.reroll.filter(|p| *p != at) {
            f.violate(Violation::new(
                rules::OBSTACLE_ROLL,
                format!(
                    "the X on {} is rolled again first (its obstacle came up a third time)",
                    p.algebraic()
                ),
            ));
        }
        let (kind, k) = match face {
            1 | 2 => (Obstacle::Partial, 0),
            3 | 4 => (Obstacle::Full, 1),
            5 => (Obstacle::Thornbrush, 2),
            _ => (Obstacle::Pit, 3),
        };
        if s.hunt.kinds[k] >= 2 {
            s.hunt.reroll = Some(at);
            return Ok(());
        }
        s.hunt.reroll = None;
        s.hunt.kinds[k] += 1;
        self.place_obstacle(s, at, kind, f);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn begin(&self, s: &mut State, f: &mut Findings) -> Result<(), StepError> {
        self.setup_only(s, "begin")?;
        if self.params.scope == Scope::Encounter {
            let h = &s.hunt;
            if h.scout.is_none() {
                f.violate(Violation::new(rules::NAMED, "no Scout card was chosen"));
            }
            if h.owed != [0; 3] {
                f.violate(Violation::new(
                    rules::DRAW,
                    format!(
                        "Creatures are still to be drawn (Threat 1/2/3: {}/{}/{})",
                        h.owed[0], h.owed[1], h.owed[2]
                    ),
                ));
            }
            if h.setup.is_none() {
                f.violate(Violation::new(
                    rules::SETUP_ROLL,
                    "the setup is not known (roll 1D6; on a 6, choose)",
                ));
            }
            if let Some(p) = h.reroll {
                f.violate(Violation::new(
                    rules::OBSTACLE_ROLL,
                    format!("the X on {} is still to be rolled again", p.algebraic()),
                ));
            }
            let seekers = s.units.iter().filter(|u| u.kind == UnitKind::Seeker).count();
            if seekers != 4 {
                f.violate(Violation::new(
                    rules::FOUR_SEEKERS,
                    format!("{seekers} Seekers are placed; the Hunt is played with four"),
                ));
            }
            for (c, _) in &h.creatures {
                if !s.units.iter().any(|u| u.card == *c) {
                    f.violate(Violation::new(
                        rules::NAMED,
                        format!("`{}` is in the encounter but not placed", self.units().name(*c)),
                    ));
                }
            }
            let creatures: Vec<_> = h.creatures.iter().map(|(c, _)| *c).collect();
            let mut cards: Vec<_> = self
                .catalog
                .instincts
                .iter()
                .filter(|(_, _, card)| creatures.contains(&card.creature))
                .map(|(id, _, _)| id)
                .collect();
            cards.sort_unstable();
            s.hunt.deck = crate::kit::deck::Deck::new(cards);
        }
        self.troupes_complete(s, f);
        self.placement_complete(s, f);
        // Standing text (Passive skills, Equipment) may touch anything its owner does, in its
        // scope: reported once, its owner marked from here, unless its words wait for a
        // Creature to be slain (taint.rs). The Environment concerns everyone.
        self.report_standing(s, f, Trigger::Always);
        if let Some(sc) = s.hunt.scout {
            let everyone: Vec<UnitIx> = s.indices().collect();
            let name = self.catalog.scouts.name(sc).to_string();
            for t in self.catalog.scouts[sc].text.clone() {
                self.report_text(s, f, Name::literal("the-encounter"), &name, &t, &everyone);
            }
        }
        s.phase = Phase::Play;
        Ok(())
    }

    /// The id a skill or Equipment card is known by.
    pub(crate) fn skill_name(&self, k: &super::cards::Skill) -> String {
        let by = |t: &crate::kit::catalog::Table<super::cards::Skill>| {
            t.iter().find(|(_, _, x)| std::ptr::eq(*x, k)).map(|(_, n, _)| n.to_string())
        };
        by(&self.catalog.skills).or_else(|| by(&self.catalog.equipment)).unwrap_or_else(|| "?".into())
    }

    // ---- activations

    /// An activation still open when another begins: reported once, then ended as if passed.
    /// Inlined: none is open at almost every `activate` and `instinct` (the last one's end was
    /// flushed), and the report's frame ([`WildAssent::close_open_report`]) is then not set up.
    #[inline]
    fn close_open(
        &self,
        s: &mut State,
        what: &dyn std::fmt::Display,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        match s.act {
            None => Ok(()),
            Some(_) => self.close_open_report(s, what, f),
        }
    }

    /// [`WildAssent::close_open`] with an activation open.
    #[cold]
    #[inline(never)]
    fn close_open_report(
        &self,
        s: &mut State,
        what: &dyn std::fmt::Display,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let Some(a) = s.act.as_ref() else { return Ok(()) };
        let name = s.unit(a.unit).name;
        f.violate(self.v(
            s,
            rules::ONE_AT_A_TIME,
            format!("`{name}`'s activation is not over (`pass {name}`) when {what}"),
            &[a.unit],
        ));
        if let Some(a) = s.act.as_mut() {
            a.done = true;
        }
        s.attack = None;
        s.skill = None;
        s.capture = None;
        let mut quiet = Findings::default();
        due::flush(self, s, &mut quiet)
    }

    fn new_activation(
        &self,
        s: &State,
        u: UnitIx,
        free: bool,
        card: Option<Id<super::cards::Instinct>>,
    ) -> Activation {
        let unit = s.unit(u);
        Activation {
            unit: u,
            free,
            card,
            target: None,
            start: unit.place(),
            held: unit.statuses,
            bled: false,
            skipped: false,
            defied: false,
            owed_targets: 0,
            spent: 0,
            moved: false,
            acted: false,
            free_action: false,
            captured: false,
            done: false,
            expired: 0,
            pit: unit.in_pit,
            checked: false,
        }
    }

    /// A miniature that has left the board: the rule that says it takes no further part.
    fn gone_rule(&self, s: &State, u: UnitIx) -> &'static str {
        match s.unit(u).presence {
            Presence::Injured => rules::INJURED,
            Presence::Escaped => rules::ESCAPE,
            Presence::Captured => rules::CAPTURE_COMPLETE,
            _ => rules::SLAIN,
        }
    }

    fn activate(&self, s: &mut State, unit: Name, free: bool, f: &mut Findings) -> Result<(), StepError> {
        let u = self.unit_named(s, &unit)?;
        // A Whim was resolved at once, before anyone activates: it is out of force.
        s.silvestrem.whim = None;
        if !s.unit(u).on_board() {
            let how = s.unit(u).presence;
            f.violate(self.v(
                s,
                self.gone_rule(s, u),
                format!("`{unit}` is {how}: it takes no further part"),
                &[u],
            ));
            return Ok(());
        }
        let kind = self.card(s, u).kind;
        if self.params.mode == Mode::Hunt && kind == UnitKind::Creature {
            f.violate(self.v(
                s,
                rules::INSTINCT_DRAW,
                format!("a Creature activates by an Instinct card, not `activate {unit}`"),
                &[u],
            ));
            return Ok(());
        }
        // A Summon activates inside its summoner's activation, before the summoner moves or acts.
        let summoner = self.card(s, u).summoner;
        let nested = kind == UnitKind::Summon
            && s.act.as_ref().is_some_and(|a| {
                Some(s.unit(a.unit).card) == summoner && !a.moved && !a.acted && !a.done && s.outer.is_none()
            });
        if kind == UnitKind::Summon && !nested {
            f.violate(self.v(
                s,
                rules::SUMMON_ACTIVATION,
                format!("`{unit}` activates only within its summoner's activation, before the summoner moves or acts"),
                &[u],
            ));
        }
        if nested {
            // "beginning with identifying the Creature's Target" (`summon-timing`): under
            // `after-target` a Summon of a Creature whose Instinct card names a target waits
            // for its summoner's `target` line; under `before-move` (default) it need not.
            if self.params.summon_timing == rules::SummonTiming::AfterTarget {
                self.summon_before_target(s, u, f);
            }
            let mut a = self.new_activation(s, u, free, None);
            a.free = true;
            s.outer = s.act.take();
            s.act = Some(a);
            return Ok(());
        }
        self.close_open(s, &format_args!("`{unit}` activates"), f)?;
        self.momentum_unused(s, f);
        if free && s.grant != Some(u) {
            f.violate(self.v(
                s,
                rules::FREE_ACTIVATION,
                format!("no skill grants `{unit}` a free activation"),
                &[u],
            ));
        }
        if !free && self.params.scope == Scope::Encounter && kind == UnitKind::Seeker {
            match self.next_side(s) {
                Some(Side::Seekers) => {}
                _ => {
                    let rule = if s.hunt.drawing && s.hunt.dead_draws == 1 {
                        rules::INSTINCT_DEAD
                    } else if s.hunt.seekers_done == 0 && s.hunt.creatures_done == 0 {
                        if s.round <= 1 {
                            rules::FIRST_SIDE
                        } else {
                            rules::SAME_START
                        }
                    } else {
                        rules::ALTERNATE
                    };
                    let why = if rule == rules::INSTINCT_DEAD {
                        "the card drawn was a slain or captured Creature's: another is drawn"
                    } else {
                        "a Creature activation comes next (`instinct`)"
                    };
                    f.violate(self.v(s, rule, why, &[u]));
                    if rule == rules::ALTERNATE {
                        // Judged as played: the Creature activation owed here was skipped, and
                        // the sides alternate on from this Seeker (a Creature next, and the
                        // round's end counted from the activations made), so one Seeker out of
                        // turn is one finding, not the reshuffle, the draw and the round's end
                        // after it as well (rules version 19).
                        s.hunt.creatures_done = s.hunt.creatures_done.saturating_add(1);
                    }
                }
            }
            if s.unit(u).exhausted {
                f.violate(self.v(
                    s,
                    rules::SEEKER_ONCE,
                    format!("`{unit}` has activated this round (Exhaust token)"),
                    &[u],
                ));
            }
            s.unit_mut(u).exhausted = true;
            s.hunt.seekers_done += 1;
        }
        if !free {
            self.match_activation(s, u, f);
        }
        s.grant = None;
        s.act = Some(self.new_activation(s, u, free, None));
        Ok(())
    }

    /// Under `summon-timing=after-target`: Summon `u` activating within its summoner's
    /// activation before the summoner's Instinct card has its target is reported (a card
    /// naming no target, "every enemy in melee range", has no `target` line to wait for).
    fn summon_before_target(&self, s: &State, u: UnitIx, f: &mut Findings) {
        let Some(a) = s.act.as_ref() else { return };
        let names_target = a.card.is_some_and(|c| self.catalog.instincts[c].pool != Pool::Enemies);
        if names_target && a.target.is_none() {
            let (summon, summoner) = (s.unit(u).name, s.unit(a.unit).name);
            f.violate(self.v(
                s,
                rules::SEQUENCE,
                format!(
                    "`{summon}` activates before `{summoner}`'s target is identified (`summon-timing=after-target`: \
                     the activation begins with the target)"
                ),
                &[u, a.unit],
            ));
        }
    }

    fn instinct(&self, s: &mut State, card: Name, f: &mut Findings) -> Result<(), StepError> {
        if self.params.mode != Mode::Hunt {
            return Err(StepError::new("Instinct cards belong to the Hunt"));
        }
        let id = self
            .instinct_ids
            .get(&card)
            .ok_or_else(|| StepError::new(format!("no Instinct card `{card}`")))?;
        let creature_card = self.catalog.instincts[id].creature;
        // The miniatures walked as a slice, here and for the capturers below (every card drawn
        // asks): by index, each was looked up and bounds-checked again.
        let creature = s.units.iter().position(|x| x.card == creature_card).map(|i| i as UnitIx);
        self.close_open(s, &format_args!("`instinct {card}` is drawn"), f)?;
        s.grant = None;
        if self.params.scope == Scope::Combat {
            let u = creature.filter(|&u| s.unit(u).on_board()).ok_or_else(|| {
                StepError::new(format!("`{}` is not on the board", self.units().name(creature_card)))
            })?;
            if s.units.iter().any(|o| o.on_board() && o.capture.is_some_and(|(c, _)| c == u)) {
                // One finding, and the card is resolved as played (l.312 "A Creature cannot
                // activate while at least one capture token is on its card"): its target,
                // movement and action are judged as any activation's, rather than each refused
                // as out of turn.
                f.violate(self.v(
                    s,
                    rules::CAPTURE_FROZEN,
                    "a Creature with a capture token cannot activate",
                    &[u],
                ));
            }
            self.begin_creature(s, u, id, f);
            return Ok(());
        }
        if self.next_side(s) != Some(Side::Creatures) {
            let rule = if !s.hunt.drawing
                && s.hunt.dead_draws >= 2
                && s.hunt.creatures_done > s.hunt.seekers_done.saturating_sub(1)
            {
                rules::INSTINCT_DEAD
            } else if s.hunt.seekers_done == 0 && s.hunt.creatures_done == 0 {
                if s.round <= 1 {
                    rules::FIRST_SIDE
                } else {
                    rules::SAME_START
                }
            } else {
                rules::ALTERNATE
            };
            f.violate(Violation::new(rule, "a Seeker activation comes next"));
        }
        match s.hunt.deck.reveal(id) {
            Ok(()) => {}
            Err(crate::kit::deck::Misdraw::Empty) => {
                f.violate(Violation::new(
                    rules::RESHUFFLE,
                    "the Instinct deck is empty: it is reshuffled first",
                ));
            }
            // The Instinct deck has no layers and nothing put at the bottom: a card that
            // cannot come out is simply not in it.
            Err(
                crate::kit::deck::Misdraw::NotInDeck
                | crate::kit::deck::Misdraw::Buried
                | crate::kit::deck::Misdraw::Spent,
            ) => {
                let why = if s.hunt.creatures.iter().any(|(c, _)| *c == creature_card) {
                    "is not in the Instinct deck (drawn already)"
                } else {
                    "belongs to a Creature outside this encounter"
                };
                f.violate(Violation::new(rules::INSTINCT_DECK, format!("`{card}` {why}")));
            }
        }
        if !s.hunt.drawing {
            s.hunt.drawing = true;
            s.hunt.dead_draws = 0;
            s.hunt.draws = 0;
            s.hunt.creatures_done += 1;
        }
        s.hunt.draws = s.hunt.draws.saturating_add(1);
        let Some(u) = creature.filter(|&u| s.unit(u).on_board()) else {
            // A slain or captured Creature's card: discarded; the second card drawn (default
            // `any-card`), or the second dead one (`dead-only`), ends the turn, any other is
            // replaced by a new card.
            s.hunt.deck.discard(id);
            let ends = match self.params.instinct_second {
                rules::InstinctSecond::AnyCard => s.hunt.draws == 2,
                rules::InstinctSecond::DeadOnly => s.hunt.dead_draws >= 1,
            };
            // `instinct-escaped=spent`: an Escaped Creature's card is neither a slain nor a
            // captured one's; with no miniature to resolve it, it is spent and the turn is
            // over, as at a second dead card. (Flag first: the default looks no further.)
            let spent = self.params.instinct_escaped == rules::InstinctEscaped::Spent
                && creature.is_some_and(|c| s.unit(c).presence == Presence::Escaped);
            s.hunt.dead_draws = if ends || spent { 2 } else { 1 };
            return Ok(());
        };
        let mut capturers = 0u32;
        for (i, x) in s.units.iter().enumerate() {
            if x.on_board() && x.capture.is_some_and(|(c, _)| c == u) {
                capturers |= 1 << i;
            }
        }
        if capturers != 0 {
            s.hunt.deck.discard(id);
            s.hunt.capture_card = Some((u, capturers));
            return Ok(());
        }
        self.begin_creature(s, u, id, f);
        Ok(())
    }

    fn begin_creature(&self, s: &mut State, u: UnitIx, card: Id<super::cards::Instinct>, f: &mut Findings) {
        let c = &self.catalog.instincts[card];
        let who = s.unit(u).name;
        let name = self.catalog.instincts.name(card);
        for t in &c.effects.text {
            self.report_text(s, f, who, name, t, &[u]);
        }
        s.act = Some(self.new_activation(s, u, false, Some(card)));
        s.memo.0.forget();
    }

    /// The active miniature is `u`; otherwise report it (the action is then ignored).
    /// Inlined, the report out of line: every move, attack and pass asks, and the report's
    /// frame was set up for each (it is made only for a record out of turn).
    #[inline]
    fn acting(&self, s: &mut State, u: UnitIx, what: &str, f: &mut Findings) -> bool {
        match s.act.as_ref() {
            Some(a) if a.unit == u => true,
            _ => self.not_acting(s, u, what, f),
        }
    }

    /// [`WildAssent::acting`]'s report: `true` when the record is taken as the first of an
    /// activation whose `activate` line was left out (`activation_left_out`).
    #[cold]
    #[inline(never)]
    fn not_acting(&self, s: &mut State, u: UnitIx, what: &str, f: &mut Findings) -> bool {
        if self.activation_left_out(s, u, what, f) {
            return true;
        }
        let name = s.unit(u).name;
        let rule = if s.unit(u).on_board() { rules::OWN } else { self.gone_rule(s, u) };
        f.violate(self.v(s, rule, format!("`{name}` {what} outside its own activation"), &[u]));
        false
    }

    /// A Seeker or Gladiator that moves or acts with no activation open, where its `activate`
    /// would have been legal (its turn, not yet activated this round): the `activate` line
    /// was left out (audit r6 D12). One `wa.activation.own` finding naming the missing
    /// record, and the activation is opened as if recorded, so its move, action and end are
    /// judged as any other and the order of the later activations is not disturbed (each of
    /// them was "out of order", and its attack's roll stopped the replay). An activation
    /// that would itself break a rule (out of turn, a second one) is not guessed at.
    fn activation_left_out(&self, s: &mut State, u: UnitIx, what: &str, f: &mut Findings) -> bool {
        // A `scope=combat` snippet keeps no round: whether the activation would be legal
        // (the miniature's turn, its first this round) cannot be told there.
        if self.params.scope == Scope::Combat
            || s.outer.is_some()
            || s.phase != Phase::Play
            || !s.unit(u).on_board()
        {
            return false;
        }
        // A Summon's activation opens inside its summoner's (`activate` nests it there when
        // that is legal); any other's with none open.
        let kind = self.card(s, u).kind;
        let opens = match self.params.mode {
            Mode::Hunt => kind == UnitKind::Seeker && s.act.is_none(),
            Mode::Arena => (kind == UnitKind::Summon) == s.act.is_some(),
        };
        if !opens {
            return false;
        }
        let name = s.unit(u).name;
        let mut t = s.clone();
        let mut q = Findings::default();
        if self.activate(&mut t, name, false, &mut q).is_err()
            || !q.is_clean()
            || t.act.as_ref().is_none_or(|a| a.unit != u)
        {
            return false;
        }
        *s = t;
        f.unverified.append(&mut q.unverified);
        f.uncertain.append(&mut q.uncertain);
        f.violate(self.v(
            s,
            rules::OWN,
            format!("`{name}` {what} with no `activate {name}` recorded (left out): taken as its activation"),
            &[u],
        ));
        true
    }

    /// A `summon` with no activation open: when its summoner (the one miniature on the board
    /// of that card) could have activated here, its `activate` line was left out (audit r6
    /// D12, the Summon entering "during its activation before it moves or acts"). One
    /// `wa.activation.own` finding and its activation opened, so the Summon enters in it and
    /// the replay goes on (the Summon's own `activate` was refused, and stopped it).
    #[cold]
    #[inline(never)]
    fn summoner_left_out(
        &self,
        s: &mut State,
        summoner: Option<Id<super::cards::UnitCard>>,
        f: &mut Findings,
    ) -> bool {
        let Some(card) = summoner else { return false };
        let mut found =
            s.units.iter().enumerate().filter(|(_, u)| {
                u.card == card && u.on_board() && u.kind != UnitKind::Summon && !u.exhausted
            });
        let (Some((i, _)), None) = (found.next(), found.next()) else { return false };
        let Ok(u) = UnitIx::try_from(i) else { return false };
        self.activation_left_out(s, u, "summons", f)
    }

    /// A miniature in a Pit spends its activation climbing out. Inlined, the report out of
    /// line, as [`WildAssent::acting`].
    #[inline]
    fn in_pit(&self, s: &State, u: UnitIx, f: &mut Findings) -> bool {
        let pit = s.act.as_ref().is_some_and(|a| a.pit) && s.unit(u).in_pit;
        if pit {
            self.report_in_pit(s, u, f);
        }
        pit
    }

    /// [`WildAssent::in_pit`]'s report.
    #[cold]
    #[inline(never)]
    fn report_in_pit(&self, s: &State, u: UnitIx, f: &mut Findings) {
        let name = s.unit(u).name;
        f.violate(self.v(
            s,
            rules::PIT_EXIT,
            format!("`{name}` is in a Pit: its activation is spent climbing out (`exit`)"),
            &[u],
        ));
    }

    /// Why a target the card does not allow is wrong (`target_allowed` said it is). Out of
    /// line and cold: a log's target is almost always one the card allows, and this (its
    /// three lists, its messages) inlined made the target's check twice its size.
    #[cold]
    #[inline(never)]
    fn explain_target(
        &self,
        s: &State,
        a: &Activation,
        card: Option<&super::cards::Instinct>,
        unit: Name,
        t: UnitIx,
        f: &mut Findings,
    ) {
        // One candidate is the target whether the Creature can reach it or not.
        let (pool, able, best) = match self.pool(s, a).as_slice() {
            &[only] => (vec![only], Vec::new(), vec![only]),
            _ => self.legal_targets(s, a),
        };
        let mut taint = pool.clone();
        taint.push(a.unit);
        let names =
            |v: &[UnitIx]| v.iter().map(|&i| s.unit(i).name.to_string()).collect::<Vec<_>>().join(", ");
        if !pool.contains(&t) {
            let kind = card.map_or("", |c| c.pool.name());
            f.violate(self.v(
                s,
                rules::TARGET_KIND,
                format!("`{unit}` is no `{kind}` of this Creature"),
                &taint,
            ));
        } else if !able.is_empty() && !able.contains(&t) {
            f.violate(self.v(
                s,
                rules::TARGET_ACTIONABLE,
                format!(
                    "it cannot perform its action on `{unit}` this activation; it can on {}",
                    names(&able)
                ),
                &taint,
            ));
        } else if !best.contains(&t) {
            let rule = if able.is_empty() { rules::TARGET_UNREACHABLE } else { rules::TARGET_CRITERIA };
            let why = if able.is_empty() {
                "it can reach none of its targets: it goes for the closest".to_string()
            } else {
                format!("its card's keywords pick {}", names(&best))
            };
            f.violate(self.v(s, rule, format!("{why}, not `{unit}`"), &taint));
        } else {
            debug_assert!(false, "`target_allowed` and `legal_targets` disagree on `{unit}`");
        }
    }

    fn target(&self, s: &mut State, unit: Name, f: &mut Findings) -> Result<(), StepError> {
        let t = self.unit_named(s, &unit)?;
        let Some(a) = s.act.clone().filter(|a| a.card.is_some()) else {
            f.violate(Violation::new(rules::SEQUENCE, "no Instinct card is being resolved"));
            return Ok(());
        };
        let card = a.card.map(|c| &self.catalog.instincts[c]);
        if a.target.is_some() || a.moved || a.acted {
            f.violate(self.v(
                s,
                rules::SEQUENCE,
                "the target comes first, before the movement and the action",
                &[a.unit],
            ));
        }
        let taint = [a.unit, t];
        let mut owed = 0u32;
        if card.is_some_and(|c| c.pool == Pool::Enemies) {
            f.violate(self.v(
                s,
                rules::TARGET_KIND,
                "the card targets every enemy in melee range: it names none",
                &taint,
            ));
        } else {
            let pool = self.pool_mask(s, &a);
            // Taken out to be worked on beside the state (a box and a flag are moved, not the
            // reach), and put back with a reach made here for the movement to use again.
            let mut kept = std::mem::take(&mut s.memo.0);
            self.judge_kept(s, &a, &mut kept, None);
            let allowed = self.target_allowed(s, &a, &mut kept, pool, t);
            s.memo.0 = kept;
            if !allowed {
                self.explain_target(s, &a, card, unit, t, f);
                owed = self.owed_targets(s, &a);
            }
        }
        if let Some(a) = s.act.as_mut() {
            a.target = Some(t);
            a.owed_targets = owed;
        }
        Ok(())
    }

    /// The targets the card allows activation `a` (the keywords' pick among those it can act
    /// on, else the closest: `legal_targets`), as a bit per unit index: kept when the log's
    /// `target` names another (`Activation::owed_targets`). Cold: asked only after a wrong
    /// target.
    #[cold]
    #[inline(never)]
    fn owed_targets(&self, s: &State, a: &Activation) -> u32 {
        let best = match self.pool(s, a).as_slice() {
            &[only] => vec![only],
            _ => self.legal_targets(s, a).2,
        };
        best.iter().fold(0u32, |m, &i| m | 1u32.checked_shl(u32::from(i)).unwrap_or(0))
    }

    /// Whether a Creature's movement judged a breach against its recorded target is what
    /// its card requires with one of the targets the rules allowed instead (`owed`, after a
    /// wrong `target`, reported once): `judge` judges the movement for an activation.
    #[cold]
    #[inline(never)]
    fn fits_owed_target(
        &self,
        act: &Activation,
        r: &mut super::state::reach::Reach,
        mut judge: impl FnMut(&Activation, &mut super::state::reach::Reach) -> Option<super::ai::Breach>,
    ) -> bool {
        super::ai::members(act.owed_targets).any(|t| {
            let mut alt = act.clone();
            alt.target = Some(t);
            alt.owed_targets = 0;
            judge(&alt, r).is_none()
        })
    }

    /// What stands on a field, as a rule a step into it breaks.
    fn blocked_rule(&self, s: &State, p: Pos) -> (&'static str, String) {
        if let Some(u) = s.at(p) {
            return (rules::OCCUPIED, format!("{} is occupied by `{}`", p.algebraic(), s.unit(u).name));
        }
        match s.obstacle(p) {
            Some(Obstacle::Partial) => (
                rules::PARTIAL_CROSS,
                format!("{} is Partial Cover: it is crossed with a hop (`hop`)", p.algebraic()),
            ),
            Some(o) if o.is_hazard() => {
                (rules::HAZARD_IS_FULL, format!("{} is {o}, impassable as Full Cover", p.algebraic()))
            }
            _ => (rules::FULL_IMPASSABLE, format!("{} is Full Cover", p.algebraic())),
        }
    }

    /// Where a step lands, whatever the rules say (to apply an illegal step as played).
    pub(crate) fn raw_step(place: Place, kind: StepKind) -> (Place, i16) {
        match kind {
            StepKind::Turn(t) => (Place::new(place.at, place.facing.turned(t)), 0),
            StepKind::Step(r) => {
                let (dx, dy) = place.facing.toward(r);
                (Place::new(place.at.offset(dx, dy), place.facing), 1)
            }
            StepKind::Hop(r) => {
                let (dx, dy) = place.facing.toward(r);
                (Place::new(place.at.offset(2 * dx, 2 * dy), place.facing), 2)
            }
            StepKind::Leap => {
                let (dx, dy) = place.facing.forward();
                (Place::new(place.at.offset(2 * dx, 2 * dy), place.facing), 2)
            }
        }
    }

    /// The Speed a movement skill's leap costs this miniature.
    fn leap_cost(&self, s: &State, u: UnitIx) -> Option<u8> {
        self.skills_of(s, u)
            .filter(|(k, _)| k.kind == SkillKind::Movement)
            .flat_map(|(k, _)| k.effects.effects.iter())
            .find_map(|e| if let Effect::Leap(n) = e { Some(*n) } else { None })
    }

    fn do_move(
        &self,
        s: &mut State,
        unit: Name,
        path: &Path,
        to: Option<Pos>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let u = self.actor_named(s, &unit)?;
        if !self.acting(s, u, "moves", f) {
            return Ok(());
        }
        if self.in_pit(s, u, f) {
            self.walked_out_of_pit(s, u, unit, path, to);
            return Ok(());
        }
        let Some(act) = s.act.clone() else { return Ok(()) };
        let creature = act.card.map(|c| &self.catalog.instincts[c]);
        if act.acted || act.free_action {
            f.violate(self.v(
                s,
                rules::ACTION_ENDS,
                format!("`{unit}` has acted: its movement is over"),
                &[u],
            ));
        }
        if creature.is_some_and(|c| c.pool != Pool::Enemies) && act.target.is_none() {
            f.violate(self.v(s, rules::SEQUENCE, "the Creature's target comes first (`target`)", &[u]));
        }
        let immobile = act.held & Status::Immobilize.bit() != 0;
        if immobile {
            self.report_immobile(s, u, unit, path, f);
        }
        let movement = self.movement_of(s, &act);
        let mover = self.mover(s, u, movement, false);
        // A leap's cost and mover, worked out at the path's first leap (the ~160-byte mover
        // was copied for every move, and a pass over the steps looked for a leap): the state
        // they read does not change while the steps are checked, so they are the same
        // whichever step asks first.
        let mut leap: Option<(Option<u8>, Mover)> = None;
        let before = (s.unit(u).place(), act.spent);
        let mut place = before.0;
        let mut spent = act.spent;
        // Where each step led, with the Speed spent so far, for a Creature's movement (which
        // is judged step by step; a Seeker's is not). Inline: a recorded move has a handful of
        // steps, so checking it allocates nothing.
        let mut places: SmallVec<[(Place, u8); Path::MAX]> = SmallVec::new();
        let mut pit = false;
        // The walk was cut short by a step the rules refuse (reported): the steps after it
        // were not walked, so the destination the log gives is not held to the walk.
        let mut cut = false;
        // The step that cut it led off the board: with a `-> FIELD` on it, the walk began
        // elsewhere (a `move` left out, `destination_contradicted`), not a step off the edge.
        let mut off = false;
        // The findings so far: a walk from where the miniature was not is not judged.
        let mark = (f.violations.len(), f.uncertain.len());
        for (k, step) in path.steps().enumerate() {
            if pit {
                f.violate(self.v(
                    s,
                    rules::PIT_STOP,
                    format!("`{unit}` entered a Pit: its activation ended there"),
                    &[u],
                ));
                let _ = k;
                cut = true;
                break;
            }
            let kind = step.kind();
            let result = match kind {
                StepKind::Turn(t) => mover.apply(place, Move::Turn(t)),
                StepKind::Step(r) => mover.apply(place, Move::Step(r)),
                StepKind::Hop(r) => mover.apply(place, Move::Hop(r)),
                StepKind::Leap => {
                    let (cost, leaper) = leap.get_or_insert_with(|| {
                        let cost = self.leap_cost(s, u);
                        let leaper = Mover {
                            hop_over: self.occupied(s, &[u]),
                            hop_cost: cost,
                            steps: &[Rel::F],
                            ..mover
                        };
                        (cost, leaper)
                    });
                    match cost {
                        Some(_) => leaper.apply(place, Move::Hop(Rel::F)),
                        None => Err(Refusal::NotAStep(Rel::F)),
                    }
                }
            };
            let (next, cost) = match result {
                Ok(x) => x,
                Err(refusal) => {
                    self.report_refusal(s, u, unit, movement, step, kind, refusal, f);
                    if matches!(refusal, Refusal::OffBoard(_) | Refusal::Stopped(_)) {
                        cut = true;
                        off = matches!(refusal, Refusal::OffBoard(_));
                        break;
                    }
                    let (next, _) = Self::raw_step(place, kind);
                    let cost = match kind {
                        StepKind::Hop(_) => mover.hop_cost.unwrap_or(3),
                        // A leap's step set `leap` first.
                        StepKind::Leap => leap.as_ref().and_then(|l| l.0).unwrap_or(3),
                        _ => 1,
                    };
                    (next, cost)
                }
            };
            spent = spent.saturating_add(cost);
            place = next;
            if creature.is_some() {
                places.push((place, spent));
            }
            if mover.stop.contains(place.at) {
                pit = true;
            }
        }
        // Where the movement ends, and where the log says it ends.
        let end = place.at;
        if let Some(to) = to.filter(|&t| {
            t != end && (!cut || (off && self.params.board.contains(t) && s.at(t).is_none_or(|o| o == u)))
        }) {
            place = self.destination_contradicted(s, u, unit, (before.0, path), place, to, mark, f)?;
        }
        let end = place.at;
        // Where its movement ends is judged at once for a Creature (its movement is one
        // record); a Seeker's or Gladiator's may go on in the next `move` line, so it is
        // judged at the next record that is not its move (`land`).
        let landing = !pit && creature.is_none();
        if !pit && end != before.0.at && creature.is_some() {
            if let Some((rule, msg)) = self.landing_breach(s, u, movement, end) {
                f.violate(self.v(s, rule, msg, &[u]));
            }
            if movement == Movement::Flying && s.obstacle(end) == Some(Obstacle::Pit) {
                pit = true;
            }
        }
        let speed = self.speed_of(s, &act);
        // A Halt card's Creature does not move at all: that rule says so, not its Speed.
        let halt = creature.is_some_and(|c| c.moving == super::cards::Moving::Halt);
        // More Speed spent than the miniature has is the budget's breach whichever step (a
        // rotation, a hop) went over it (Hunt Example 1: "she would need 6 Speed ... "); only
        // Fatigue, which lowered the budget, is named instead.
        if spent > speed && !immobile && !halt {
            self.report_overspent(s, &act, unit, spent, speed, f);
        }
        // A Creature's movement is one record: its path, then where it stops, are judged here.
        if creature.is_some() {
            // Overspent (reported just above): the movement the card required ended where its
            // Speed ran out (l.293 Advance stops "only if it runs out of Speed or is adjacent
            // to its target"), so the walk is judged up to there; the steps beyond the budget
            // are the Speed finding's, not a second one.
            let (judged, stop, stop_spent) = if spent > speed && !immobile && !halt {
                let within = places.iter().take_while(|&&(_, c)| c <= speed).count();
                let (p, c) = within.checked_sub(1).map_or((before.0, before.1), |k| places[k]);
                (&places[..within], p, c)
            } else {
                (&places[..], place, spent)
            };
            let mut kept = std::mem::take(&mut s.memo.0);
            let r = self.reach_after(s, &act, &mover, &mut kept);
            // A walker stopped by a Pit its search took as open ground (`pit-path=into`,
            // `pit` told first: the usual move ends in none) is judged by where the Pit lies.
            let judge = |act: &Activation, r: &mut super::state::reach::Reach| {
                let goal = self.creature_goal(s, act, r);
                self.check_creature_path(s, act, r, goal.as_ref(), before, judged).or_else(|| {
                    if pit && self.params.pit_path == rules::PitPath::Into && movement != Movement::Flying {
                        self.check_creature_pit(s, act, r, goal.as_ref(), place, spent)
                    } else {
                        self.check_creature_stop(s, act, r, goal.as_ref(), stop, stop_spent)
                    }
                })
            };
            let mut breach = judge(&act, r);
            if breach.is_some() && act.owed_targets != 0 && self.fits_owed_target(&act, r, judge) {
                breach = None;
            }
            // The reach is of the board before the move: no later record uses it (its room is
            // kept for the next).
            kept.forget();
            s.memo.0 = kept;
            if let Some((rule, msg)) = breach {
                f.violate(self.v(s, rule, msg, &[u]));
            }
        }
        s.landing = landing.then_some(u);
        s.move_unit(u, place.at);
        let unit_mut = s.unit_mut(u);
        unit_mut.facing = place.facing;
        unit_mut.in_pit = pit;
        if let Some(a) = s.act.as_mut() {
            a.spent = spent;
            a.moved = true;
            a.checked |= a.card.is_some();
            if pit {
                a.done = true;
            }
        }
        Ok(())
    }

    /// A move whose steps lead elsewhere than its `-> FIELD`: the miniature was not where
    /// the steps began, a `move` of it left out before (audit r6 D12). One finding, and the
    /// miniature is taken where the log says it went, so the records after it are judged from
    /// there (the replay stopped here). A field the miniature may not be taken to (off the
    /// board, another miniature's) still stops the replay.
    ///
    /// Its facing is the one the book implies: the steps are relative to the facing at each
    /// one, so they lead to `to` from one start field for each facing the miniature may have
    /// had; the left-out movement is taken as the cheapest that puts it there (fields walked
    /// plus quarter turns, each 1 Speed; a start on its own field first, the omission then
    /// only a turn), and the miniature faces as those steps leave it. Taking the facing as
    /// walked from the old one made every later move of it contradict itself again.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn destination_contradicted(
        &self,
        s: &State,
        u: UnitIx,
        unit: Name,
        (start, path): (Place, &Path),
        place: Place,
        to: Pos,
        mark: (usize, usize),
        f: &mut Findings,
    ) -> Result<Place, StepError> {
        if !self.params.board.contains(to) || s.at(to).is_some_and(|o| o != u) {
            return Err(StepError::new(format!(
                "`{unit}`'s steps lead to {}, not {}: the record contradicts itself",
                place.at.algebraic(),
                to.algebraic()
            )));
        }
        // The start (field, facing) of each reading, and the facing the steps leave.
        let mut best: Option<((u32, u32), Place, Facing)> = None;
        let facings = [start.facing, start.facing.right(), start.facing.left(), start.facing.right().right()];
        for (turns, f0) in [0u32, 1, 1, 2].into_iter().zip(facings) {
            let mut p = Place::new(start.at, f0);
            for step in path.steps() {
                p = Self::raw_step(p, step.kind()).0;
            }
            let (dx, dy) = start.at.delta(p.at);
            let (Ok(dx), Ok(dy)) = (i16::try_from(dx), i16::try_from(dy)) else { continue };
            let from = Place::new(to.offset(-dx, -dy), f0);
            if !self.params.board.contains(from.at) {
                continue;
            }
            let far = start.at.distance(from.at);
            let key = (far + turns, far);
            if best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, from, p.facing));
            }
        }
        let (from, facing) = best.map_or((start, place.facing), |b| (b.1, b.2));
        // Where the steps lead from where the replay had it (off the board, it may be).
        let walked = path.steps().fold(start, |p, step| Self::raw_step(p, step.kind()).0);
        // The steps' findings were of a walk from the wrong field: dropped.
        f.violations.truncate(mark.0);
        f.uncertain.truncate(mark.1);
        let why = if from.at == start.at {
            format!("it faced {} where they begin (a turn left out?)", from.facing)
        } else {
            "it was not where they begin (a `move` left out?)".to_string()
        };
        f.violate(self.v(
            s,
            rules::DIRECTIONS,
            format!(
                "`{unit}`'s steps lead to {}, not {}: {why}; taken to {} as recorded, facing {facing}",
                walked.at.algebraic(),
                to.algebraic(),
                to.algebraic()
            ),
            &[u],
        ));
        Ok(Place::new(to, facing))
    }

    /// A miniature in a Pit that moves instead of climbing out (`exit`), reported by
    /// `in_pit`: the move goes on as played (audit r6 D5). It leaves the Pit where the walk
    /// ends and its activation is spent, as a climb out spends it, so the `end` after it is
    /// owed, not a second finding. The walk's own findings are the Pit's: not reported.
    #[cold]
    #[inline(never)]
    fn walked_out_of_pit(&self, s: &mut State, u: UnitIx, unit: Name, path: &Path, to: Option<Pos>) {
        let kept = s.clone();
        s.unit_mut(u).in_pit = false;
        if let Some(a) = s.act.as_mut() {
            a.pit = false;
        }
        let mut quiet = Findings::default();
        if self.do_move(s, unit, path, to, &mut quiet).is_err() {
            *s = kept;
        }
        s.landing = None;
        if let Some(a) = s.act.as_mut() {
            a.moved = true;
            a.done = true;
        }
    }

    /// An Immobilized miniature's move, reported (out of line and cold, as
    /// [`WildAssent::report_refusal`]).
    #[cold]
    #[inline(never)]
    fn report_immobile(&self, s: &State, u: UnitIx, unit: Name, path: &Path, f: &mut Findings) {
        // Turning in place is movement too: a rotation costs 1 Speed, which an
        // Immobilized miniature may not use (`wa.move.rotate` names that cost).
        let turns_only = path.steps().all(|st| matches!(st.kind(), StepKind::Turn(_)));
        let (rule, why) = if turns_only {
            (rules::ROTATE, "a rotation costs 1 Speed, and it may not use Speed")
        } else {
            (rules::IMMOBILIZE, "it may not use Speed")
        };
        f.violate(self.v(s, rule, format!("`{unit}` is Immobilized: {why}"), &[u]));
    }

    /// More Speed spent than the miniature has, reported (out of line and cold, as
    /// [`WildAssent::report_refusal`]).
    #[cold]
    #[inline(never)]
    fn report_overspent(
        &self,
        s: &State,
        act: &Activation,
        unit: Name,
        spent: u8,
        speed: u8,
        f: &mut Findings,
    ) {
        let fatigue_speed = self.speed_with(s, act, false);
        let rule = if act.held & Status::Fatigue.bit() != 0 && spent <= fatigue_speed {
            rules::FATIGUE
        } else {
            rules::SPEED
        };
        f.violate(self.v(s, rule, format!("`{unit}` spends {spent} Speed of its {speed}"), &[act.unit]));
    }

    /// The breach of a step the mover refused (`Mover::apply`), reported. Out of line and
    /// cold: a recorded step is refused only in a broken log, and its messages, inlined,
    /// made the move's check several times larger than its usual path.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn report_refusal(
        &self,
        s: &State,
        u: UnitIx,
        unit: Name,
        movement: Movement,
        step: super::event::Step,
        kind: StepKind,
        refusal: Refusal,
        f: &mut Findings,
    ) {
        let (rule, msg) = match (refusal, kind) {
            (Refusal::OffBoard(p), _) => {
                (rules::BOUNDS, format!("`{step}` leads off the board, to {}", p.algebraic()))
            }
            (Refusal::Stopped(p), _) => (
                rules::PIT_STOP,
                format!("`{unit}` entered the Pit on {}: its activation ended there", p.algebraic()),
            ),
            (Refusal::NotAStep(_), StepKind::Leap) => {
                (rules::DIRECTIONS, format!("`{unit}` has no skill to leap with"))
            }
            (Refusal::NotAStep(r), _) => {
                let back = matches!(r, Rel::B | Rel::Bl | Rel::Br);
                if movement == Movement::Swift && matches!(r, Rel::Bl | Rel::Br) {
                    (rules::SWIFT, format!("Swift steps diagonally forward, never back (`{step}`)"))
                } else if back {
                    (rules::DIRECTIONS, format!("`{step}` steps backwards: turn first"))
                } else {
                    (rules::DIRECTIONS, format!("`{step}` is a diagonal step: only Swift takes it"))
                }
            }
            (Refusal::NoHop(p), StepKind::Leap) => {
                (rules::DIRECTIONS, format!("a leap goes over a miniature; {} holds none", p.algebraic()))
            }
            (Refusal::NoHop(p), _) => match s.obstacle(p) {
                Some(o) if o.is_full() => self.blocked_rule(s, p),
                _ if s.at(p).is_some() => self.blocked_rule(s, p),
                _ => {
                    (rules::PARTIAL_CROSS, format!("a hop crosses Partial Cover; {} is none", p.algebraic()))
                }
            },
            (Refusal::Blocked(p), _) => self.blocked_rule(s, p),
        };
        f.violate(self.v(s, rule, msg, &[u]));
    }

    /// What a movement ending on `end` breaks: Partial Cover (no miniature ends its movement
    /// there), or for Flying a miniature's field or Full Cover (l.76: Flying "may not end
    /// their movement on an occupied field").
    fn landing_breach(
        &self,
        s: &State,
        u: UnitIx,
        movement: Movement,
        end: Pos,
    ) -> Option<(&'static str, String)> {
        // The name is looked up only for a breach (most movements end where they may).
        let unit = || s.unit(u).name;
        if s.obstacle(end) == Some(Obstacle::Partial) {
            let unit = unit();
            return Some((
                rules::PARTIAL_NO_END,
                format!("`{unit}` ends its movement on Partial Cover ({})", end.algebraic()),
            ));
        }
        if movement != Movement::Flying {
            return None;
        }
        // Another miniature on the field (the mover may already stand there too).
        if let Some(o) = s.indices().find(|&o| o != u && s.unit(o).on_board() && s.unit(o).at == end) {
            return Some((
                rules::FLYING_END,
                format!("`{}` ends its flight on `{}`'s field", unit(), s.unit(o).name),
            ));
        }
        let o = s.obstacle(end).filter(|o| o.is_full())?;
        let rule = if o.is_hazard() { rules::HAZARD_IS_FULL } else { rules::FULL_IMPASSABLE };
        Some((rule, format!("`{}` ends its flight on {o}", unit())))
    }

    /// A Seeker's or Gladiator's movement ended (the record after its last `move` line is
    /// not a move of it): judge where it stands, and a Flying miniature that ends over a Pit
    /// is in it, its activation over.
    fn land(&self, s: &mut State, u: UnitIx, f: &mut Findings) {
        let Some(act) = s.act.clone() else { return };
        let end = s.unit(u).at;
        if !s.unit(u).on_board() {
            return;
        }
        let movement = self.movement_of(s, &act);
        if let Some((rule, msg)) = self.landing_breach(s, u, movement, end) {
            f.violate(self.v(s, rule, msg, &[u]));
        }
        if movement == Movement::Flying && s.obstacle(end) == Some(Obstacle::Pit) {
            s.unit_mut(u).in_pit = true;
            if let Some(a) = s.act.as_mut() {
                a.done = true;
            }
        }
    }

    fn exit(&self, s: &mut State, unit: Name, to: Pos, f: &mut Findings) -> Result<(), StepError> {
        let u = self.actor_named(s, &unit)?;
        if !self.acting(s, u, "climbs out", f) {
            return Ok(());
        }
        if !s.unit(u).in_pit {
            self.exit_not_in_pit(s, u, unit, to, f);
            return Ok(());
        }
        let from = s.unit(u).at;
        if !self.params.board.contains(to) {
            f.violate(self.v(s, rules::BOUNDS, format!("{} is off the board", to.algebraic()), &[u]));
            return Ok(());
        }
        if !from.adjacent(to) {
            f.violate(self.v(
                s,
                rules::PIT_EXIT,
                format!("out of a Pit to an adjacent field; {} is not", to.algebraic()),
                &[u],
            ));
        }
        // "move to an adjacent field" (`pit-exit`): under `any-field` an adjacent Pit may be
        // entered as any movement enters one, and the miniature is in that Pit.
        let into_pit =
            s.obstacle(to) == Some(Obstacle::Pit) && self.params.pit_exit == rules::PitExit::AnyField;
        if from.adjacent(to) && s.at(to).is_none() && s.obstacle(to) == Some(Obstacle::Pit) && !into_pit {
            let msg =
                format!("{} is a Pit: not a field to climb out to (`pit-exit=not-pit`)", to.algebraic());
            f.violate(self.v(s, rules::PIT_EXIT, msg, &[u]));
        } else if from.adjacent(to) && (s.at(to).is_some() || (s.obstacle(to).is_some() && !into_pit)) {
            let (rule, msg) = self.blocked_rule(s, to);
            let rule = if rule == rules::PARTIAL_CROSS { rules::PARTIAL_NO_END } else { rule };
            f.violate(self.v(s, rule, msg, &[u]));
        }
        // A Creature's climb under `creature-pit-exit=toward-target`: toward its destination.
        if self.params.creature_pit_exit == rules::CreaturePitExit::TowardTarget && from.adjacent(to) {
            let breach = s
                .act
                .as_ref()
                .filter(|a| a.card.is_some() && a.unit == u)
                .and_then(|a| self.check_creature_exit(s, a, to));
            if let Some((rule, msg)) = breach {
                f.violate(self.v(s, rule, msg, &[u]));
            }
        }
        s.move_unit(u, to);
        s.unit_mut(u).in_pit = into_pit;
        if let Some(a) = s.act.as_mut() {
            a.moved = true;
            a.done = true;
        }
        Ok(())
    }

    /// An `exit` of a miniature not in a Pit: one finding, and the climb goes on as played
    /// (audit r6 D5): it is taken to the adjacent field named when that is free, and its
    /// activation is spent, so the `end` after it is owed (it was "not due", a second
    /// finding).
    #[cold]
    #[inline(never)]
    fn exit_not_in_pit(&self, s: &mut State, u: UnitIx, unit: Name, to: Pos, f: &mut Findings) {
        f.violate(self.v(s, rules::PIT_EXIT, format!("`{unit}` is not in a Pit"), &[u]));
        let from = s.unit(u).at;
        if self.params.board.contains(to)
            && from.adjacent(to)
            && s.at(to).is_none()
            && s.obstacle(to).is_none()
        {
            s.move_unit(u, to);
        }
        if let Some(a) = s.act.as_mut() {
            a.moved = true;
            a.done = true;
        }
    }

    /// Judge where a Creature stopped, at its action or pass, when it did not move (a move
    /// is judged as it is recorded). Inlined, the judging out of line: a Seeker's action,
    /// and a Creature's after its move, have nothing to judge.
    #[inline]
    fn creature_stop(&self, s: &mut State, f: &mut Findings) {
        if s.act.as_ref().is_some_and(|a| a.card.is_some() && !a.checked) {
            self.judge_creature_stop(s, f);
        }
    }

    /// [`WildAssent::creature_stop`] for a Creature whose stop is still to be judged.
    #[inline(never)]
    fn judge_creature_stop(&self, s: &mut State, f: &mut Findings) {
        let Some(a) = s.act.clone().filter(|a| a.card.is_some() && !a.checked) else { return };
        // A Halt card's Creature, or one without a target (but of a card for every enemy), has
        // no stop to judge (`check_creature_stop` finds no goal): no reach is made for it. The
        // kept one is dropped, as taking it would have.
        let card = a.card.map(|c| &self.catalog.instincts[c]);
        if card.is_some_and(|c| c.pool != Pool::Enemies && (c.moving == Moving::Halt || a.target.is_none())) {
            s.memo.0.forget();
        } else {
            let mut kept = std::mem::take(&mut s.memo.0);
            let r = self.reach_now(s, &a, &mut kept);
            let here = s.unit(a.unit).place();
            let judge = |a: &Activation, r: &mut super::state::reach::Reach| {
                let goal = self.creature_goal(s, a, r);
                self.check_creature_stop(s, a, r, goal.as_ref(), here, a.spent)
            };
            let mut breach = judge(&a, r);
            // After a wrong `target` (one finding): a stop the card requires with a target the
            // rules allowed is no second one.
            if breach.is_some() && a.owed_targets != 0 && self.fits_owed_target(&a, r, judge) {
                breach = None;
            }
            // Judged once: no later record of the activation uses the reach.
            kept.forget();
            s.memo.0 = kept;
            if let Some((rule, msg)) = breach {
                f.violate(self.v(s, rule, msg, &[a.unit]));
            }
        }
        if let Some(a) = s.act.as_mut() {
            a.checked = true;
        }
    }

    /// A Creature's attack on its Instinct card's target out of its frontal arc, where it
    /// stopped with Speed left to turn toward the target and attack: that turn's omission
    /// was its movement's finding (`wa.hunt.cmove.face-to-attack`), so the attack made as
    /// the turn would have let it is not a second one (audit r6 D6; "a breach there is no
    /// second finding").
    #[cold]
    #[inline(never)]
    fn turn_owed(&self, s: &State, act: &Activation, t: UnitIx) -> bool {
        let careful = act.card.is_some_and(|c| self.catalog.instincts[c].moving == Moving::Careful);
        act.card.is_some()
            && !(careful && self.params.careful_turn != rules::CarefulTurn::Face)
            && act.target == Some(t)
            && self.speed_of(s, act) > act.spent
            && self.could_turn_to(s, act, s.unit(act.unit).place(), t)
    }

    /// A skill or Equipment card of the miniature, by its id.
    fn own_skill(&self, s: &State, u: UnitIx, name: &Name) -> Option<SkillRef> {
        let card = self.card(s, u);
        // By `Name` (`skill_ids`, `equipment_ids`): the same ids as the catalog's string maps.
        if let Some(id) = self
            .skill_ids
            .get(name)
            .filter(|id| card.skills.contains(id) || self.chosen_skills(s, u).contains(id))
        {
            return Some(SkillRef::Skill(id));
        }
        let id = self.equipment_ids.get(name)?;
        s.unit(u).equipment.contains(&Some(id)).then_some(SkillRef::Equipment(id))
    }

    fn attack(
        &self,
        s: &mut State,
        unit: Name,
        target: Option<Name>,
        with: Option<Name>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let u = self.actor_named(s, &unit)?;
        if !self.acting(s, u, "attacks", f) || self.in_pit(s, u, f) {
            return Ok(());
        }
        self.creature_stop(s, f);
        let Some(act) = s.act.clone() else { return Ok(()) };
        let threat = usize::from(s.unit(u).threat.clamp(1, 3)) - 1;
        // The Instinct card's target, when there is one, is the miniature most attacks name.
        let hint = s.act.as_ref().and_then(|a| a.target);
        let named = target.map(|t| self.unit_named_near(s, &t, hint)).transpose()?;
        // What the attack is made with.
        let (profile, source) = match (act.card, with) {
            (Some(c), w) => {
                let card = &self.catalog.instincts[c];
                if w.is_some() {
                    f.violate(self.v(s, rules::CACTION, "a Creature performs its card's action", &[u]));
                }
                let Some(p) = card.attack else {
                    f.violate(self.v(s, rules::CACTION, "its card's action is not an attack", &[u]));
                    return Ok(());
                };
                if card.pool != Pool::Enemies {
                    match act.target {
                        None => f.violate(self.v(
                            s,
                            rules::SEQUENCE,
                            "the Creature's target comes first (`target`)",
                            &[u],
                        )),
                        // After a wrong `target` (one finding), an attack on a target the
                        // rules allowed is the card's action as it should have been.
                        Some(t)
                            if named.is_some_and(|n| {
                                n != t && act.owed_targets & 1u32.checked_shl(u32::from(n)).unwrap_or(0) == 0
                            }) =>
                        {
                            let tn = s.unit(t).name;
                            f.violate(self.v(
                                s,
                                rules::CACTION,
                                format!("its card's action is on its target, `{tn}`"),
                                &[u, t],
                            ));
                        }
                        _ => {}
                    }
                }
                (p[threat], Source::Instinct(c))
            }
            (None, None) => {
                let p = self
                    .card(s, u)
                    .attack
                    .ok_or_else(|| StepError::new(format!("`{unit}` has no default attack")))?;
                (p, Source::Default)
            }
            (None, Some(w)) => match self.own_skill(s, u, &w) {
                None => {
                    f.violate(self.v(
                        s,
                        rules::ACTIVE_SKILL,
                        format!("`{unit}` has no skill or Equipment `{w}`"),
                        &[u],
                    ));
                    return Ok(());
                }
                Some(SkillRef::Skill(k)) => {
                    let skill = &self.catalog.skills[k];
                    match skill.attack {
                        Some(p) if matches!(skill.kind, SkillKind::Active | SkillKind::Free) => {
                            (p, Source::Skill(k))
                        }
                        _ => {
                            f.violate(self.v(
                                s,
                                rules::ACTIVE_SKILL,
                                format!("`{w}` is no attack {unit} makes as an action"),
                                &[u],
                            ));
                            return Ok(());
                        }
                    }
                }
                Some(SkillRef::Instinct(_)) => return Ok(()),
                Some(SkillRef::Equipment(k)) => match self.catalog.equipment[k].attack {
                    Some(p) => (p, Source::Equipment(k)),
                    None => {
                        f.violate(self.v(s, rules::ACTIVE_SKILL, format!("`{w}` makes no attack"), &[u]));
                        return Ok(());
                    }
                },
            },
        };
        if let Source::Skill(k) = source {
            self.cooldown(s, f, u, k);
        }
        let free = matches!(source, Source::Skill(k) if self.catalog.skills[k].kind == SkillKind::Free);
        if act.acted && !free {
            f.violate(self.v(s, rules::ACTION_ONE, format!("`{unit}` has used its action"), &[u]));
        }
        let me = s.unit(u).place();
        let targets: SmallVec<[UnitIx; 4]> = if profile.area {
            // `area adjacent` (Tidal Wave) hits every adjacent miniature, allies too ("all
            // adjacent Gladiators", Arena Example 10); `area adjacent-enemies` the enemies.
            let around: SmallVec<[UnitIx; 4]> = s
                .indices()
                .filter(|&i| {
                    i != u
                        && s.unit(i).on_board()
                        && (profile.allies || self.enemies(s, u, i))
                        && s.unit(i).at.adjacent(me.at)
                })
                .collect();
            if let Some(t) = named.filter(|t| !around.contains(t)) {
                let tn = s.unit(t).name;
                let what = if profile.allies { "a miniature" } else { "an enemy" };
                f.violate(self.v(s, rules::RANGE, format!("`{tn}` is not {what} next to `{unit}`"), &[u, t]));
            }
            around
        } else {
            let t = named.or(act.target.filter(|_| act.card.is_some()));
            let Some(t) = t else { return Err(StepError::new("name the target of the attack")) };
            let tn = s.unit(t).name;
            if !s.unit(t).on_board() {
                f.violate(self.v(
                    s,
                    self.gone_rule(s, t),
                    format!("`{tn}` is no longer on the board"),
                    &[u, t],
                ));
                return Ok(());
            }
            if !self.enemies(s, u, t) {
                f.violate(self.v(
                    s,
                    rules::NO_ALLY_TARGET,
                    format!("`{tn}` is an ally of `{unit}`"),
                    &[u, t],
                ));
            }
            let sight = self.sight_judged(s, me, s.unit(t).at, &[]);
            if !sight.arc && !self.turn_owed(s, &act, t) {
                f.violate(self.v(
                    s,
                    rules::ARC,
                    format!("`{tn}` on {} is outside `{unit}`'s frontal arc", s.unit(t).at.algebraic()),
                    &[u, t],
                ));
            }
            if let Some((p, b, _)) = sight.blocked {
                let (rule, what) = match b {
                    Blocker::Miniature(o) => (rules::BLOCKED, format!("`{}`", s.unit(o).name)),
                    Blocker::Obstacle(o) if o.is_hazard() => (rules::HAZARD_IS_FULL, o.name().to_string()),
                    Blocker::Obstacle(o) => (rules::FULL_BLOCKS_LOS, o.name().to_string()),
                };
                f.violate(self.v(
                    s,
                    rule,
                    format!("the line of sight to `{tn}` crosses {what} on {}", p.algebraic()),
                    &[u, t],
                ));
            }
            if sight.range > u32::from(profile.range) {
                f.violate(self.v(
                    s,
                    rules::RANGE,
                    format!("`{tn}` is {} fields away; the attack's Range is {}", sight.range, profile.range),
                    &[u, t],
                ));
            }
            smallvec::smallvec![t]
        };
        let back = targets.iter().map(|&t| self.from_behind(s.unit(t).at, s.unit(t).facing, me.at)).collect();
        // Text the form cannot express: the skill's own, and each target's Defensive skills.
        let mut texts: Vec<(UnitIx, String, String)> = Vec::new();
        if let Source::Skill(k) | Source::Equipment(k) = source {
            let sk = match source {
                Source::Equipment(_) => &self.catalog.equipment[k],
                _ => &self.catalog.skills[k],
            };
            for t in &sk.effects.text {
                texts.push((u, self.skill_name(sk), t.clone()));
            }
        }
        for &t in &targets {
            self.each_skill(s, t, |k, _| {
                if k.kind == SkillKind::Defensive {
                    for x in &k.effects.text {
                        texts.push((t, self.skill_name(k), x.clone()));
                    }
                }
            });
        }
        // Walked by reference: most attacks have no text, and the list's owning iterator was
        // made and dropped (out of line) for every one.
        for (who, name, t) in &texts {
            let wn = s.unit(*who).name;
            self.report_text(s, f, wn, name, t, &[*who, u]);
        }
        let mut a = Attack {
            attacker: u,
            source,
            profile,
            targets,
            back,
            dice: 0,
            roll: None,
            at: 0,
            stage: Stage::Damage,
        };
        a.dice = self.dice_for(s, &a, act.held & Status::Blind.bit() != 0);
        s.attack = Some(a);
        s.hunt.hurt = 0;
        s.memo.3.forget();
        if let Some(x) = s.act.as_mut() {
            x.use_action(free);
        }
        Ok(())
    }

    fn roll(&self, s: &mut State, unit: Name, faces: Faces, f: &mut Findings) -> Result<(), StepError> {
        // The attacker is who rolls.
        let u = self.unit_named_near(s, &unit, s.attack.as_ref().map(|a| a.attacker))?;
        // Borrowed, not cloned: the attack's lists are copied only for a Special's texts.
        if !s.attack.as_ref().is_some_and(|a| a.attacker == u) {
            self.attack_left_out(s, u, unit, f)?;
        }
        let Some(a) = s.attack.as_ref().filter(|a| a.attacker == u) else {
            return Ok(());
        };
        if a.roll.is_some() {
            f.violate(self.v(s, rules::ONE_ROLL, "the attack is rolled once, for all its targets", &[u]));
            return Ok(());
        }
        let n = faces.count();
        if n != a.dice {
            let blind_held = s.act.as_ref().is_some_and(|x| x.held & Status::Blind.bit() != 0);
            let rule = if blind_held && n == self.dice_for(s, a, false) {
                rules::BLIND
            } else if let Source::Instinct(c) = a.source {
                let card = &self.catalog.instincts[c];
                let other =
                    card.attack.is_some_and(|p| p.iter().any(|pr| pr.dice != a.profile.dice && pr.dice == n));
                if other {
                    rules::THREAT
                } else {
                    rules::DICE_COUNT
                }
            } else if self.weapon_dice_mistaken(s, &a, n) {
                rules::EQUIP_WEAPON
            } else {
                rules::DICE_COUNT
            };
            f.violate(self.v(s, rule, format!("the attack rolls {} Attack Dice, not {n}", a.dice), &[u]));
        }
        if faces.specials > 0 {
            // The attacker's Special skills' texts, walked by plain loops (`each_skill`); the
            // targets are copied only when there is a text to report.
            let mut texts: Vec<(String, String)> = Vec::new();
            self.each_skill(s, u, |k, _| {
                if k.kind == SkillKind::Special {
                    for t in &k.effects.text {
                        texts.push((self.skill_name(k), t.clone()));
                    }
                }
            });
            let targets = if texts.is_empty() { SmallVec::new() } else { a.targets.clone() };
            for (name, t) in texts {
                let mut who = targets.clone();
                who.push(u);
                self.report_text(s, f, unit, &name, &t, &who);
            }
        }
        if let Some(x) = s.attack.as_mut() {
            x.roll = Some(faces);
            s.memo.3.forget();
        }
        Ok(())
    }

    /// A `roll` with no attack of its roller awaiting it, in the roller's own activation
    /// before its action: the `attack` line was left out (audit r6 D12). One finding, and the
    /// attack is taken as made on the target the table shows: a Creature's on its Instinct
    /// card's target (or every enemy its card names), a Seeker's or Gladiator's default
    /// attack on the one enemy it could make it on; its roll and consequences are then
    /// checked as any other's (the replay stopped here). With no such target the roll is
    /// dropped and the action taken as used: what follows is checked as far as it can be.
    /// A roll outside any activation, or after the action, still cannot be applied.
    #[cold]
    #[inline(never)]
    fn attack_left_out(
        &self,
        s: &mut State,
        u: UnitIx,
        unit: Name,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let refused = || StepError::new(format!("no attack of `{unit}` awaits a roll"));
        let Some(act) = s.act.clone().filter(|a| a.unit == u && !a.acted && !a.done) else {
            return Err(refused());
        };
        if s.attack.is_some() || s.skill.is_some() {
            return Err(refused());
        }
        let creature = act.card.is_some();
        let target: Option<UnitIx> = match act.card {
            Some(c) => {
                let card = &self.catalog.instincts[c];
                if card.attack.is_none() {
                    return Err(refused());
                }
                if card.pool == Pool::Enemies {
                    None
                } else {
                    Some(act.target.ok_or_else(refused)?)
                }
            }
            None => {
                let me = s.unit(u).place();
                let range = self.card(s, u).attack.map(|p| p.range);
                let mut open = s.indices().filter(|&i| {
                    s.unit(i).on_board()
                        && self.enemies(s, u, i)
                        && range.is_some_and(|r| {
                            let sight = self.sight_judged(s, me, s.unit(i).at, &[]);
                            sight.arc && sight.blocked.is_none() && sight.range <= u32::from(r)
                        })
                });
                match (open.next(), open.next()) {
                    (Some(t), None) => Some(t),
                    _ => None,
                }
            }
        };
        let rule = if creature { rules::SEQUENCE } else { rules::ACTION_ONE };
        let mut t = s.clone();
        let mut q = Findings::default();
        let named = target.map(|x| s.unit(x).name);
        let made = (creature || named.is_some())
            && self.attack(&mut t, unit, named, None, &mut q).is_ok()
            && t.attack.as_ref().is_some_and(|a| a.attacker == u);
        if made {
            // The attack the engine made stands for the one left out: its checks are of a
            // guess, not of a record, so only its unverified texts are kept.
            *s = t;
            f.unverified.append(&mut q.unverified);
            let on = named.map_or_else(|| "every enemy its card names".to_string(), |n| format!("`{n}`"));
            f.violate(self.v(
                s,
                rule,
                format!("`{unit}` rolls with no `attack` recorded before it (left out): taken as its attack on {on}"),
                &[u],
            ));
        } else {
            f.violate(self.v(
                s,
                rule,
                format!("`{unit}` rolls with no `attack` recorded before it (left out): its target is not known, the roll is not checked"),
                &[u],
            ));
            // The action is used and the activation over: its `end` is owed next.
            if let Some(a) = s.act.as_mut() {
                a.use_action(false);
                a.done = true;
            }
        }
        Ok(())
    }

    fn skill(
        &self,
        s: &mut State,
        unit: Name,
        skill: Name,
        target: Option<Name>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let u = self.actor_named(s, &unit)?;
        if !self.acting(s, u, "uses a skill", f) || self.in_pit(s, u, f) {
            return Ok(());
        }
        self.creature_stop(s, f);
        let card = s.act.as_ref().and_then(|a| a.card);
        let r = match card {
            // A Creature's action is its Instinct card's.
            Some(c) if self.catalog.instincts.name(c) == skill.as_str() => {
                if self.catalog.instincts[c].attack.is_some() {
                    f.violate(self.v(s, rules::CACTION, "its card's action is an attack (`attack`)", &[u]));
                    return Ok(());
                }
                SkillRef::Instinct(c)
            }
            Some(_) => {
                f.violate(self.v(s, rules::CACTION, "a Creature performs its card's action", &[u]));
                return Ok(());
            }
            None => match self.own_skill(s, u, &skill) {
                Some(r) => r,
                None => {
                    let msg = format!("`{unit}` has no skill or Equipment `{skill}`");
                    f.violate(self.v(s, rules::ACTIVE_SKILL, msg, &[u]));
                    return Ok(());
                }
            },
        };
        let (kind, attack) = match r {
            SkillRef::Skill(id) => (self.catalog.skills[id].kind, self.catalog.skills[id].attack.is_some()),
            SkillRef::Equipment(id) => {
                (self.catalog.equipment[id].kind, self.catalog.equipment[id].attack.is_some())
            }
            SkillRef::Instinct(_) => (SkillKind::Active, false),
        };
        if !matches!(kind, SkillKind::Active | SkillKind::Free) || attack {
            let why = if attack { "an attack (`attack ... with`)" } else { "not used as an action" };
            f.violate(self.v(s, rules::ACTIVE_SKILL, format!("`{skill}` is {why} ({kind})"), &[u]));
            return Ok(());
        }
        let (uses, _) = self.use_of(r);
        let free = kind == SkillKind::Free;
        let Some(act) = s.act.clone() else { return Ok(()) };
        if act.acted && !free {
            f.violate(self.v(s, rules::ACTION_ONE, format!("`{unit}` has used its action"), &[u]));
        }
        let t = match target {
            Some(t) => self.unit_named(s, &t)?,
            None => act.target.filter(|_| card.is_some()).unwrap_or(u),
        };
        let hostile = uses.effects.iter().any(|e| matches!(e, Effect::Status(_)));
        if hostile && !self.enemies(s, u, t) {
            let tn = s.unit(t).name;
            f.violate(self.v(s, rules::NO_ALLY_TARGET, format!("`{tn}` is an ally of `{unit}`"), &[u, t]));
        }
        if uses.effects.contains(&Effect::FreeActivation) {
            s.grant = Some(t);
        }
        // An Instinct card's text was reported as it was drawn.
        if !matches!(r, SkillRef::Instinct(_)) {
            for text in uses.text.clone() {
                self.report_text(s, f, unit, skill.as_str(), &text, &[u, t]);
            }
        }
        if let SkillRef::Skill(k) = r {
            self.cooldown(s, f, u, k);
        }
        s.skill = Some(SkillUse { user: u, skill: r, target: t, next: 0 });
        if let Some(x) = s.act.as_mut() {
            x.use_action(free);
        }
        Ok(())
    }

    fn capture(&self, s: &mut State, unit: Name, creature: Name, f: &mut Findings) -> Result<(), StepError> {
        if self.params.mode != Mode::Hunt {
            return Err(StepError::new("capturing belongs to the Hunt"));
        }
        let u = self.unit_named(s, &unit)?;
        let c = self.unit_named(s, &creature)?;
        if !self.acting(s, u, "captures", f) || self.in_pit(s, u, f) {
            return Ok(());
        }
        let taint = [u, c];
        if self.card(s, u).kind != UnitKind::Seeker {
            f.violate(self.v(s, rules::CAPTURE_START, "only a Seeker captures", &taint));
            return Ok(());
        }
        if !s.unit(c).on_board() {
            f.violate(self.v(
                s,
                self.gone_rule(s, c),
                format!("`{creature}` is no longer on the board"),
                &taint,
            ));
            return Ok(());
        }
        match self.card(s, c).kind {
            UnitKind::Summon => {
                f.violate(self.v(s, rules::CAPTURE_NO_SUMMON, "Summons cannot be captured", &taint));
                return Ok(());
            }
            UnitKind::Creature => {}
            _ => {
                f.violate(self.v(s, rules::CAPTURE_START, format!("`{creature}` is no Creature"), &taint));
                return Ok(());
            }
        }
        let Some(act) = s.act.clone() else { return Ok(()) };
        if act.acted {
            f.violate(self.v(s, rules::ACTION_ONE, format!("`{unit}` has used its action"), &taint));
        }
        if !s.unit(u).at.adjacent(s.unit(c).at) {
            f.violate(self.v(
                s,
                rules::CAPTURE_START,
                format!("`{unit}` is not adjacent to `{creature}`"),
                &taint,
            ));
        }
        let token = s.unit(u).capture;
        if token.is_none() {
            let health = self.stats(s, c).health;
            let half = match self.params.capture {
                super::rules::CaptureHalf::Down => health / 2,
                super::rules::CaptureHalf::Up => (health + 1) / 2,
            };
            let left = self.remaining(s, c);
            if left > half {
                f.violate(self.v(
                    s,
                    rules::CAPTURE_ELIGIBLE,
                    format!("`{creature}` has {left} of {health} Health; it is captured at {half} or less"),
                    &taint,
                ));
            }
        }
        if token.is_some_and(|(x, _)| x != c) {
            // Capturing another Creature is a different action: the old part is cancelled.
            s.unit_mut(u).end_capture();
            s.tokens_changed();
        }
        s.capture = Some(CaptureUse { seeker: u, creature: c, hurt: false, marked: false });
        if let Some(x) = s.act.as_mut() {
            x.acted = true;
            x.captured = true;
        }
        Ok(())
    }

    fn summon(
        &self,
        s: &mut State,
        unit: Name,
        at: Pos,
        facing: Facing,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let card = self
            .card_of_name(&unit)
            .filter(|&c| self.units()[c].kind == UnitKind::Summon)
            .ok_or_else(|| {
                StepError::new(format!(
                    "`{unit}` is no Summon of the catalog (name its copy, like `daemonspawn-1`)"
                ))
            })?;
        let existing = s.find(&unit);
        if existing.is_some_and(|e| s.unit(e).on_board()) {
            return Err(StepError::new(format!("`{unit}` is already on the board")));
        }
        let c = &self.units()[card];
        if s.act.is_none() && !self.summoner_left_out(s, c.summoner, f) {
            f.violate(Violation::new(
                rules::SUMMON_ENTER,
                "a Summon enters during its summoner's activation",
            ));
            return Ok(());
        }
        let Some(act) = s.act.clone() else { return Ok(()) };
        let summoner = act.unit;
        let sname = s.unit(summoner).name;
        if Some(s.unit(summoner).card) != c.summoner {
            f.violate(self.v(
                s,
                rules::SUMMON_ENTER,
                format!("`{sname}` is not `{unit}`'s summoner"),
                &[summoner],
            ));
            return Ok(());
        }
        let skill = self.skills_of(s, summoner).any(|(k, _)| {
            k.effects
                .effects
                .iter()
                .any(|e| matches!(e, Effect::Summon(n) if self.unit_ids.get(n) == Some(card)))
        });
        if !skill {
            f.violate(self.v(
                s,
                rules::SUMMON_ENTER,
                format!("`{sname}` has no skill that summons `{unit}`"),
                &[summoner],
            ));
        }
        if act.moved || act.acted {
            f.violate(self.v(
                s,
                rules::SUMMON_ENTER,
                format!("a Summon enters before `{sname}` moves or acts"),
                &[summoner],
            ));
        }
        if !self.params.board.contains(at) {
            f.violate(self.v(s, rules::BOUNDS, format!("{} is off the board", at.algebraic()), &[summoner]));
            return Ok(());
        }
        if self.params.summon_field == rules::SummonField::Adjacent && !s.unit(summoner).at.adjacent(at) {
            f.violate(self.v(
                s,
                rules::SUMMON_ENTER,
                format!("a Summon enters next to its summoner; {} is not", at.algebraic()),
                &[summoner],
            ));
        }
        if s.at(at).is_some() || s.obstacle(at).is_some_and(|o| o != Obstacle::Pit) {
            f.violate(self.v(s, rules::FIELD, format!("{} is taken", at.algebraic()), &[summoner]));
        }
        let side = s.unit(summoner).side;
        let fresh = Unit {
            name: unit,
            card,
            kind: UnitKind::Summon,
            side,
            threat: 1,
            at,
            facing,
            presence: Presence::OnBoard,
            damage: 0,
            statuses: 0,
            bleed: 0,
            equipment: [None; 2],
            taint: s.unit(summoner).taint,
            exhausted: false,
            in_pit: s.obstacle(at) == Some(Obstacle::Pit),
            capture: None,
            capture_kept: false,
            dropped: true,
            momentum: 0,
            momentum_dice: 0,
        };
        match existing {
            Some(e) => s.put_unit(Some(e), fresh),
            None if s.units.len() >= super::state::MAX_UNITS => {
                return Err(StepError::new(format!(
                    "at most {} miniatures are on the table",
                    super::state::MAX_UNITS
                )));
            }
            None => s.put_unit(None, fresh),
        }
        Ok(())
    }

    fn pass(&self, s: &mut State, unit: Name, f: &mut Findings) -> Result<(), StepError> {
        let u = self.actor_named(s, &unit)?;
        if !self.acting(s, u, "passes", f) {
            return Ok(());
        }
        self.in_pit(s, u, f);
        self.creature_stop(s, f);
        if let Some(act) = s.act.clone().filter(|a| a.card.is_some() && !a.acted) {
            let card = act.card.map(|c| &self.catalog.instincts[c]);
            if let Some(c) = act.card.filter(|&c| {
                let k = &self.catalog.instincts[c];
                k.attack.is_none() && !k.effects.effects.is_empty()
            }) {
                let name = self.catalog.instincts.name(c);
                let msg = format!("`{unit}` performs its card's action (`skill {unit} {name}`)");
                f.violate(self.v(s, rules::CACTION, msg, &[u]));
            }
            if let Some(card) = card.filter(|c| c.attack.is_some()) {
                let here = s.unit(u).place();
                let can = if card.pool == Pool::Enemies {
                    s.indices().any(|i| {
                        s.unit(i).on_board() && self.enemies(s, u, i) && s.unit(i).at.adjacent(here.at)
                    })
                } else {
                    act.target.is_some_and(|t| s.unit(t).on_board() && self.ready(s, &act, here, t))
                };
                if can {
                    f.violate(self.v(
                        s,
                        rules::CACTION,
                        format!("`{unit}` can perform its card's attack: it does"),
                        &[u],
                    ));
                }
            }
        }
        if let Some(a) = s.act.as_mut() {
            a.done = true;
        }
        Ok(())
    }
}
