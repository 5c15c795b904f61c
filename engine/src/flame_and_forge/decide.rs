//! The step function, and the decisions and random outcomes (reveals) it judges.
//!
//! A consequence goes to the kit's consequence loop. A decision or a reveal first flushes
//! the consequences the log left out (each a finding), unless the rules let it come before
//! them (a dragonslayer card, an advanced token, a challenge before the tile's spots) or the
//! table they lead to would not take it either (`stray_decision`: one finding, nothing
//! flushed); it is then checked against what the table awaits and applied as played when it
//! can be.

use super::catalog::{CardId, CardKind, Dwarf, Subject, TokenId};
use super::city::Tile;
use super::consequence::event_heal;
use super::event::{Colour, Event, Foe};
use super::flow::{Await, Stop};
use super::icon::Gem;
use super::label::Label;
use super::owed::{Due, Owed, Why};
use super::params::{
    ChallengeAtZero, ForgeRefill, FrenzyCards, Haste, Packs, RaidSpots, RelicsEvents, RelicsForge, Reshuffle,
    RetreatPlacement, Scenario, TwoPlayerSpot, WinPending,
};
use super::rules as r;

/// The name an `activate` gives Scenario 01's Well Rested token (`well-rested=advanced-token`),
/// which the scenario gives every player (l.409) and no catalog lists among the Library's piles.
pub(super) const WELL_RESTED: &str = "well-rested";
use super::state::{
    Adversary, At, CStage, Challenge, CityDwarf, End, FStage, Frame, PStage, Phase, Placement, Player,
    RStage, Src, State, EMPTY, MAX_SPOTS,
};
use super::FlameAndForge;
use crate::kit::deck::{Deck, Misdraw};
use crate::kit::due;
use crate::kit::track::Track;
use crate::{Findings, StepError};

impl FlameAndForge {
    pub(super) fn step_event(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        // What the last step passed over as left out (`PassedOver`): trusted for this step only.
        // Almost every step has none: the step that has one is a copy of this one out of line,
        // so that this one carries no memo (testing the memo, then dropping what was taken at
        // every exit, cost every record about a dozen instructions: callgrind `--profile step
        // --game flame-and-forge`).
        if s.passed_over.0.is_some() {
            return self.step_passed_over(s, e, f);
        }
        self.step_with(s, e, f, None)
    }

    /// [`Self::step_event`] when the last step passed a consequence over (rare).
    #[cold]
    #[inline(never)]
    fn step_passed_over(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        let passed_over = s.passed_over.0.take();
        // The consequence reported left out may be recorded after several others, each the one
        // owed (a retreat's heal after its gem discards, l.203-207 "in order"; the King's Haste
        // after the regroup's spots, l.197): while the records are what is owed, the late
        // record is still awaited (one finding for the swap, as the Guardian's heal after the
        // fire damage is). Up to rules version 15 it was awaited for one record only, and the
        // late record then reported not due (a second finding).
        let keep = match passed_over {
            Some((Some(late), _)) if e.is_consequence() && *e != late && self.owed_now(s, e) => Some(late),
            _ => None,
        };
        self.step_with(s, e, f, passed_over)?;
        if keep.is_some() && s.passed_over.0.is_none() {
            s.passed_over.0 = Some((keep, None));
        }
        Ok(())
    }

    /// Whether `e` is the consequence owed now.
    fn owed_now(&self, s: &State, e: &Event) -> bool {
        use due::Consequences as C;
        C::due(self, s).is_some_and(|owed| C::fact(self, &owed) == *e)
    }

    /// The step, with the memo of what the last step passed over (taken from the state).
    #[inline(always)]
    fn step_with(
        &self,
        s: &mut State,
        e: &Event,
        f: &mut Findings,
        passed_over: Option<(Option<Event>, Option<Box<State>>)>,
    ) -> Result<(), StepError> {
        let free = matches!(
            e,
            Event::Pick { .. }
                | Event::Challenge { .. }
                | Event::Hero { .. }
                | Event::Use { .. }
                | Event::Activate { .. }
        );
        // Rare: a record where the game has ended or its end is owed, or where seats are
        // still owed (a log that leaves them out): the test is here, the work out of line.
        if s.over() || s.phase == Phase::Seats || self.end_known_owed(s) {
            if self.after_end(s, e, f)? {
                return Ok(());
            }
            if s.phase == Phase::Seats {
                self.seats_left_out(s, e, f)?;
            }
        }
        // A Relics forge's events still to discard, which the player may decline
        // (`relics-events=may`): a record that goes on past them declines them.
        if matches!(s.stack.last(), Some(Frame::Forge { free: 1.., stage: FStage::Events { .. }, .. }))
            && self.config.relics_events == RelicsEvents::May
        {
            self.relics_events_gone_past(s, e, f);
        }
        // What the last step found owed (`State::settled`): taken before anything changes,
        // so that a step that stops early or fails leaves none.
        let known = s.settled.0.take();
        // Rare (a draw recorded before Phase 1): the test is here, the work out of line.
        if s.phase == Phase::Drawn {
            self.drawn_early(s, e, f);
        }
        // Whether the spot block is the innermost activity, and the spot it stands on (used
        // only then, below): one pass down the stack, none for a record free to come anywhere.
        let (in_block, spot_before) = if free { (false, None) } else { self.spot_block(s) };
        let stop = if e.is_consequence() {
            if let Event::Pick { who, tile } = *e {
                if self.early_pick(s, f, who, tile) {
                    return Ok(());
                }
            }
            let late = match self.late_refill(s, f, e) {
                Late::No => self.health_ahead(s, f, e),
                late => late,
            };
            // The table changed under what was found owed (`late` not `No`): derive it again.
            // Tested in the arms rather than by a copy of the memo made first (a copy of it
            // on every consequence record).
            match known {
                // A health recorded ahead of its discard, applied by `late_refill` or
                // `health_ahead`.
                _ if late == Late::Applied => self.settle(s, f),
                // The kit's loop when the record is what is due (`due::check_recorded`: the
                // fact equals the due's, which is applied), without deriving the due again.
                Some(Some(ref owed)) if late == Late::No && self.fact_is_inline(owed.who, &owed.due, e) => {
                    self.apply_due(s, &owed.due, e, f);
                    self.settle(s, f)
                }
                _ => {
                    let known = if late == Late::No { known } else { None };
                    if let Some((late, alt)) = passed_over {
                        if late == Some(*e) && self.late_record(s, e) {
                            // The table is as it was: what was found owed still is.
                            s.settled.0 = known;
                            return Ok(());
                        }
                        if let Some(alt) = alt.filter(|alt| self.other_reading(s, alt, e)) {
                            *s = *alt;
                        }
                    }
                    self.left_out_before(s, e, f)?;
                    due::check_recorded(self, s, e, f)?;
                    Stop::Unknown
                }
            }
        } else if self.early_draw(s, e) {
            // Drawn as recorded; Phase 1's consequences are still owed (the table changed).
            self.settle(s, f)
        } else {
            let mut declined = false;
            // Nothing owed: `flush` would find nothing to report.
            if known != Some(None) && !self.may_jump(s, e) && !self.misplaced_challenge(s, e) {
                match self.stray_decision(s, e, f)? {
                    Stray::Ignored => {
                        // The table is as it was: what was found owed still is.
                        s.settled.0 = known;
                        return Ok(());
                    }
                    // The step the `pass` stood for is made (`declined_step`).
                    Stray::Declined => declined = true,
                    Stray::No => due::flush(self, s, f)?,
                }
            }
            if declined {
                Stop::Unknown
            } else {
                self.decide(s, e, f)?;
                self.settle(s, f)
            }
        };
        if in_block {
            if let Some(p) = s.placement_mut() {
                // A spot finished by this step, the settle having entered the next one, leaves
                // the next one not begun: step 3 stands between two spots (l.184), which
                // `raid-spots` opens or not (`step3_open`). The same under either reading, so
                // that the table is the same until they part.
                if p.stage == PStage::Spots {
                    p.begun = Some(p.spot) == spot_before;
                }
            }
        }
        // The last act of the step (`begun` above is no part of what is owed).
        s.settled.0 = Some(self.owed_after_settle(s, stop));
        Ok(())
    }

    /// Whether the last step found the game's end owed (`State::settled`; derived afresh
    /// when a state carries no memo). Inlined: one look at the memo on every step.
    #[inline(always)]
    fn end_known_owed(&self, s: &State) -> bool {
        match s.settled.0 {
            Some(Some(owed)) => matches!(owed.due, Due::GameOver { .. }),
            Some(None) => false,
            None => self.end_owed_afresh(s),
        }
    }

    #[cold]
    #[inline(never)]
    fn end_owed_afresh(&self, s: &State) -> bool {
        use due::Consequences as C;
        C::due(self, s).is_some_and(|owed| matches!(owed.due, Due::GameOver { .. }))
    }

    /// A record after the game's end (Phase 4, l.344 "The game ends immediately", l.346; under
    /// `end-timing=immediate`, l.154 "If at any point you have 7 scorched tiles in the city,
    /// you lose the game"), or where the end is owed and the log goes on as if it were not.
    /// Nothing happens after the end but a won game's scoring, so a log that goes on is one
    /// mistake: one finding, under the end's rule where the log leaves the end out (the end
    /// then applied as the rules reach it), else `ff.end.game-over` (or `ff.score.when` for a
    /// lost game's score); every record after it but a won game's scores is then ignored with
    /// no finding of its own. Up to rules version 16 each record was a finding (48 for a game
    /// lost at a Phase 1 scorch under `immediate`, audit r5 O2), the consequences among them
    /// under the rule of the phase they stood in (`ff.event.draw`). Whether the step goes on.
    #[cold]
    #[inline(never)]
    fn after_end(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<bool, StepError> {
        use due::Consequences as C;
        let score =
            matches!(e, Event::ScoreDragon { .. } | Event::ScorePlayer { .. } | Event::ScoreTeam { .. });
        if s.over() {
            let won = matches!(s.phase, Phase::Over { won: true, .. });
            if score && won {
                return Ok(false);
            }
            if s.after_end {
                s.settled.0 = None;
                return Ok(true);
            }
            // The first record after the end: judged as before (its one finding), the records
            // after it then ignored.
            s.after_end = true;
            return Ok(false);
        }
        if s.phase == Phase::Seats {
            return Ok(false);
        }
        let Some(owed) = C::due(self, s) else { return Ok(false) };
        let Due::GameOver { won } = owed.due else { return Ok(false) };
        // The end itself (a wrong one is ff.end.check-order), and what a player may do at any
        // moment (a dragonslayer card before Phase 4's check, l.415), are judged as before.
        if matches!(
            e,
            Event::GameOver { .. } | Event::Hero { .. } | Event::Use { .. } | Event::Activate { .. }
        ) {
            return Ok(false);
        }
        let end = Event::GameOver { won };
        let why = match owed.due {
            _ if won => "the Dragon was beaten",
            _ if s.end_reached() == Some(false) => "7 city tiles are scorched",
            _ => "no event card is left to draw",
        };
        let rule = self.rule_of(s, &owed.due);
        let rest = if won { "but the scores " } else { "" };
        self.report(
            s,
            f,
            None,
            rule,
            format!(
                "`{e}`: the game has ended ({why}) and the log leaves out `{end}`: this record and every \
                 one after it {rest}are ignored"
            ),
        );
        let mut scratch = Findings::default();
        self.apply_due(s, &owed.due, &end, &mut scratch);
        s.after_end = true;
        s.settled.0 = None;
        // A won game's score right after the end left out is judged as owed.
        Ok(!(score && won))
    }

    /// Under `relics-events=may` (l.318 "items forged this way may Discard events as normal"),
    /// the events a Relics forge's item may still discard are the player's to take or leave: a
    /// record of the player that is neither such a discard nor its health goes on past them,
    /// and so declines them, with no finding (the book makes them optional). A `pass` declines
    /// them only when nothing else is open to it: where the player's next research action
    /// follows the forge (the Library's research spots, l.292-298), the `pass` is that action's,
    /// the events declined by going on. Up to rules version 16 the events were owed until a
    /// `pass`: a log that left out the last of them (audit r4 O8) had its next `pass` taken for
    /// them, the research action it declined then left open, and the rest of the game judged
    /// against it (about 42 findings).
    #[cold]
    #[inline(never)]
    fn relics_events_gone_past(&self, s: &mut State, e: &Event, f: &mut Findings) {
        let Some(seat) = self.relics_events_open(s) else { return };
        let mine = |who: Colour| s.seat_of(who) == Some(seat);
        let decline = |t: &mut State| {
            if let Some(Frame::Forge { stage: FStage::Events { left, .. }, .. }) = t.stack.last_mut() {
                *left = [0; 3];
            }
        };
        match *e {
            Event::DiscardEvent { who, .. } | Event::Health { who, .. } if mine(who) => return,
            Event::Hero { .. } | Event::Use { .. } | Event::Activate { .. } => return,
            Event::Market { .. } if self.refill_mid_events(s) => return,
            Event::Pass { who } if mine(who) => {
                let mut trial = s.clone();
                decline(&mut trial);
                let mut scratch = Findings::default();
                self.settle(&mut trial, &mut scratch);
                if !matches!(self.awaited(&trial), Await::Research { seat: k, .. } if k == seat) {
                    return;
                }
            }
            _ => {}
        }
        decline(s);
        s.settled.0 = None;
        self.settle(s, f);
        s.settled.0 = None;
    }

    /// Seats the log leaves out (Game Setup 7, l.67: each player takes a colour in turn order
    /// before the first turn): a record other than a `seat` where one is owed. One
    /// `ff.setup.first-player` finding, and the missing seats taken as made, as other left-out
    /// records are made: the first free colours (a colour the record names first), the Miner
    /// side (l.69 "we recommend for your first play that all players use the Miner side"),
    /// their bonus gems (l.101) with them. The record is then judged on that table. Up to
    /// rules version 16 every record after was judged against a table with no turn begun (24
    /// findings under 4 rules for a 3-player log without its third seat, audit r5 O2).
    #[cold]
    #[inline(never)]
    fn seats_left_out(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        if matches!(e, Event::Seat { .. })
            || !s.stack.is_empty()
            || s.seats.len() >= usize::from(self.config.players)
        {
            return Ok(());
        }
        let Some(side) = Label::new("miner") else { return Ok(()) };
        let mut made = Vec::new();
        let mut scratch = Findings::default();
        while s.seats.len() < usize::from(self.config.players) {
            let named = e.who().filter(|c| s.seat_of(*c).is_none());
            let free = Colour::ALL.iter().copied().find(|c| s.seat_of(*c).is_none());
            let Some(colour) = named.or(free) else { break };
            self.seat_player(s, &mut scratch, colour, side, None)?;
            let mut text = format!("`seat {colour} miner`");
            if let Some(Frame::Bonus { seat }) = s.stack.last().copied() {
                s.stack.pop();
                let n = seat.min(3).min(s.supply[0]);
                s.supply[0] -= n;
                s.player_mut(seat).gems[0] += n;
                text = format!("{text} with `bonus {colour} {n}`");
            }
            made.push(text);
        }
        let missing = made.len();
        self.report(
            s,
            f,
            None,
            r::SETUP_FIRST_PLAYER,
            format!(
                "`{e}`: {} players take their seats before the first turn, and the log leaves out {missing}: \
                 taken as made, {}",
                self.config.players,
                made.join(", ")
            ),
        );
        s.settled.0 = None;
        self.settle(s, f);
        s.settled.0 = None;
        Ok(())
    }

    /// A recorded consequence that is not the one owed, but the one owed right after it
    /// (what the table owes once the owed one is done): the owed one was left out (or is
    /// written after this record). It is reported once, as left out, under its own rule and
    /// applied as the rules say, and the record is then judged against the consequence it is
    /// (the docs' "one the log leaves out is reported under its own rule ... and applied").
    /// Up to rules version 14 a record of the same kind and subject was taken as the owed one
    /// "as played" (a Regroup's blue gem recorded where its red one was owed became the red
    /// one, blue, and the blue one was then left out too: two findings and the wrong gems),
    /// and a swap of a fire and its scorch applied the late fire a second time.
    ///
    /// Only where the chain has no other reading: a record the rules let come in another
    /// order (`Consequences::reorder`) is left to the kit. Off the hot path (the record equal
    /// to what is owed never comes here); the trial runs on a copy of the table.
    #[cold]
    #[inline(never)]
    fn left_out_before(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        use due::Consequences as C;
        let Some(owed) = C::due(self, s) else { return Ok(()) };
        let fact = C::fact(self, &owed);
        if fact == *e {
            return Ok(());
        }
        let mut trial = s.clone();
        if C::reorder(self, &mut trial, &owed, e).is_some() {
            return Ok(());
        }
        let mut trial = s.clone();
        let mut found = Findings::default();
        C::apply(self, &mut trial, &owed, &fact, &mut found)?;
        let Some(next) = C::due(self, &trial) else { return Ok(()) };
        if C::fact(self, &next) != *e {
            return Ok(());
        }
        // The other reading, the record a wrong value of the owed consequence (the kit's, for
        // a record about the same thing), kept for the next step to choose (`other_reading`).
        let alt = (C::pairing(self, &fact, e) == due::Pairing::Subject).then(|| {
            let mut alt = s.clone();
            let mut scratch = Findings::default();
            C::apply(self, &mut alt, &owed, e, &mut scratch).ok().map(|()| Box::new(alt))
        });
        let v = due::left_out(self, s, &owed);
        f.violate(v);
        f.violations.append(&mut found.violations);
        f.unverified.append(&mut found.unverified);
        f.uncertain.append(&mut found.uncertain);
        *s = trial;
        s.passed_over.0 = Some((Some(fact), alt.flatten()));
        Ok(())
    }

    /// Whether the record after one `left_out_before` read as the consequence owed next is
    /// what the other reading's table (`alt`: that record a wrong value of the owed one)
    /// owes, and not what this table owes: the log kept to the other reading (`gain red b`,
    /// `gain red b` where `gain red y`, `gain red b` are owed: a wrong gem, then the next one
    /// as owed, where reading the first as the second left the second not due). The replay
    /// goes on from that table; the one finding already made stands for the wrong record.
    #[cold]
    #[inline(never)]
    fn other_reading(&self, s: &State, alt: &State, e: &Event) -> bool {
        use due::Consequences as C;
        let owes = |t: &State| C::due(self, t).is_some_and(|owed| C::fact(self, &owed) == *e);
        !owes(s) && owes(alt)
    }

    /// The record of a consequence the step before reported left out and applied
    /// (`left_out_before`, `PassedOver`), coming right after the record that stood in its
    /// place: the two were written in the other order. It is on the table already: neither
    /// applied again nor reported again (the swap is the one finding). Not when it is owed
    /// again now (then it is simply due).
    #[cold]
    #[inline(never)]
    fn late_record(&self, s: &State, e: &Event) -> bool {
        use due::Consequences as C;
        C::due(self, s).is_none_or(|owed| C::fact(self, &owed) != *e)
    }

    /// Phase 2's event drawn while Phase 1 is still resolving the top event (l.125 "Phase 1:
    /// Resolve an Event -> Phase 2: Draw a new Event"): the card is drawn as recorded (it joins
    /// the active events) and Phase 1 is still owed, its action the one chosen when the turn
    /// began (the Event Counter counts the events active then, l.131); Phase 2 is done, so
    /// Phase 3 follows Phase 1 (`Phase::Drawn`). Nothing is reported here: the log may have
    /// left Phase 1's icons out (then each is reported as left out at the next decision, one
    /// finding, as before), or recorded them after the draw, which the first of them proves:
    /// that record is the one `ff.turn.phases` finding (`drawn_early`). Up to rules version 13
    /// the draw flushed Phase 1's icons as left out and each recorded after it was then "not
    /// due": two contradictory findings for one swap. A card the deck cannot give now takes
    /// the usual path (a draw wrong in itself too).
    #[inline(always)]
    fn early_draw(&self, s: &mut State, e: &Event) -> bool {
        let Event::Draw { card } = *e else { return false };
        if s.phase != Phase::Resolve || s.stack.is_empty() || s.over() {
            return false;
        }
        let Some(id) = self.catalog.names.events.get(card) else { return false };
        let mut deck = s.event_deck.clone();
        if deck.reveal(id).is_err() {
            return false;
        }
        s.event_deck = deck;
        if !s.events.contains(&id) {
            s.events.push(id);
        }
        s.phase = Phase::Drawn;
        true
    }

    /// A record carrying Phase 1 on after Phase 2's event was drawn ahead of it
    /// (`early_draw`): the consequence Phase 1 owes (or one about the same thing), or the
    /// Retaliation or monster card a fire's defeat of a monster awaits. It proves the draw
    /// came too early: one `ff.turn.phases` finding, and the record is then judged as usual
    /// (it is due). Any other record leaves Phase 1's consequences to be flushed as left out.
    #[cold]
    #[inline(never)]
    fn drawn_early(&self, s: &mut State, e: &Event, f: &mut Findings) {
        if s.phase != Phase::Drawn || s.stack.is_empty() {
            return;
        }
        let carries = match <Self as due::Consequences>::due(self, s) {
            Some(owed) => {
                e.is_consequence() && {
                    let fact = <Self as due::Consequences>::fact(self, &owed);
                    fact == *e || <Self as due::Consequences>::pairing(self, &fact, e) != due::Pairing::None
                }
            }
            None => matches!(e, Event::Retaliation { .. } | Event::Monster { .. }),
        };
        if !carries {
            return;
        }
        let drawn =
            s.events.last().map(|&id| self.catalog.names.event_label(id).to_string()).unwrap_or_default();
        self.report(
            s,
            f,
            None,
            r::TURN_PHASES,
            format!(
                "`{e}` is Phase 1's, recorded after Phase 2's draw (`event {drawn}`): Phase 2 draws the new event \
                 once Phase 1 has resolved the top one; the draw is taken as recorded, Phase 1 as it comes"
            ),
        );
        s.phase = Phase::Place;
    }

    /// A decision (or reveal) recorded while consequences are owed, which the table those
    /// consequences lead to would not take either (it would be reported there and leave the
    /// table as it was: a `pass` with nothing to decline, a `forge` with no anvil open): one
    /// finding for the stray record, and the table left as it was, the consequences still
    /// owed to the records that follow. A decision otherwise proves the log left the
    /// consequences out (they are flushed, each a finding); a stray one proves nothing, and
    /// flushing for it turned one stray record into a finding per consequence applied and
    /// another per recorded consequence then "not due" (9 for one `pass` after a raid). A
    /// trial on a copy of the table decides it; a decision the flushed table would apply,
    /// even as a violation (a raid out of line), still flushes.
    ///
    /// A `pass` by the player whose compulsory step is owed now is not stray: it stands where
    /// that step is, and declines what the rules give no choice to decline (`declined_step`).
    #[inline(always)]
    fn stray_decision(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<Stray, StepError> {
        let Some(owed) = <Self as due::Consequences>::due(self, s) else { return Ok(Stray::No) };
        let mut trial = s.clone();
        let mut scratch = Findings::default();
        due::flush(self, &mut trial, &mut scratch)?;
        let flushed = trial.clone();
        let mut judged = Findings::default();
        self.decide(&mut trial, e, &mut judged)?;
        // Ignored there: reported, and the table unchanged by it.
        if judged.violations.is_empty() || trial != flushed {
            return Ok(Stray::No);
        }
        if let Event::Pass { who } = *e {
            if self.declinable(s, &owed.due, who) {
                self.declined_step(s, e, owed, f)?;
                return Ok(Stray::Declined);
            }
        }
        let next = <Self as due::Consequences>::event(self, s, &owed);
        for v in judged.violations {
            self.report(
                s,
                f,
                None,
                v.rule,
                format!(
                    "`{e}` is not open here, nor once the consequences owed first are done (`{next}` and \
                     what follows it, still owed), where {}",
                    v.message
                ),
            );
        }
        Ok(Stray::Ignored)
    }

    /// Whether a `pass` by `who` where `due` is owed stands where a step of that player's is
    /// owed: a consequence the player carries out (not the turn passing, the setup's bonus
    /// gems or a score).
    #[cold]
    #[inline(never)]
    fn declinable(&self, s: &State, due: &Due, who: Colour) -> bool {
        !matches!(due, Due::Turn { .. } | Due::Bonus { .. } | Due::ScorePlayer { .. })
            && due.seat().is_some()
            && due.seat() == s.seat_of(who)
    }

    /// The rule a `pass` breaks where `due` is owed, no choice to decline being open (now or
    /// once the consequences owed are done): the rule of the compulsory thing it skipped. A
    /// spot's (or a board spot's) icon is the icon's own rule (l.219-231: the grey fire icon
    /// "Remove a fire token", l.226), which a pass declines, where a spot left out of the log
    /// breaks the spot order (`ff.raid.spots`, l.185); the pending actions a flight owes are
    /// the flight's (l.251 "Resolve all the pending actions in cards that you played");
    /// anything else is the rule leaving it out breaks (`rule_of`): a tile's gems (l.186), a
    /// forge's events (l.269), a win's event (l.255), a retreat's gem limit (l.207).
    fn decline_rule(&self, s: &State, due: &Due) -> &'static str {
        let (src, own) = match *due {
            Due::Gain { src, .. } => (src, r::ICON_GEM),
            Due::Health { why: Why::Icons(src), delta, .. } => {
                (src, if delta < 0 { r::ICON_BURST } else { r::ICON_HEART })
            }
            Due::Haste { src, .. } => (src, r::ICON_HASTE),
            Due::Footprint { src, .. } => (src, r::ICON_FOOTPRINT),
            Due::Extinguish { src, .. } => (src, r::ICON_EXTINGUISH),
            Due::Success { why: Why::Icons(src), .. } => (src, r::ICON_AXE),
            Due::Frenzy { src, .. } => (src, r::FRENZY_OWE),
            Due::Pay { src, .. } => (src, r::ICON_GEM_EXCHANGE),
            _ => return self.rule_of(s, due),
        };
        let fled = |k: u8| s.challenges.get(k as usize).and_then(|c| c.end) == Some(End::Fled);
        match src {
            Src::Spot { .. } | Src::Board { .. } if self.rule_of(s, due) != r::RAID_ZERO_CONTINUES => own,
            Src::Pending(k) if fled(k) => r::CHALLENGE_FLEE,
            _ => self.rule_of(s, due),
        }
    }

    /// What makes the consequences owed one step for a `pass` that stands where they are: the
    /// rule it breaks, and the source of an icon's (one spot, one card's pending actions).
    fn step_key(&self, s: &State, due: &Due) -> (&'static str, Option<Src>, Option<u8>) {
        let src = match *due {
            Due::Gain { src, .. }
            | Due::Haste { src, .. }
            | Due::Footprint { src, .. }
            | Due::Extinguish { src, .. }
            | Due::Frenzy { src, .. }
            | Due::Pay { src, .. }
            | Due::Health { why: Why::Icons(src), .. }
            | Due::Success { why: Why::Icons(src), .. } => Some(src),
            _ => None,
        };
        (self.decline_rule(s, due), src, due.seat())
    }

    /// A `pass` recorded where the player owes a compulsory step and nothing they may decline
    /// is open, now or once the consequences owed are done (`stray_decision`): it declines
    /// that step, which the book gives no choice to decline. One finding, under the rule of
    /// what it skipped (`decline_rule`), and the step made as the rules say, as a step left
    /// out of the log is: the consequence owed and those after it that are the same step (a
    /// forge's events and their health, a retreat's gem discards, a win's event and its
    /// health, one spot's icons). Up to rules version 15 it was reported under the rule of
    /// whatever the table awaited once everything owed was done (the next player's Phase 2, a
    /// Retaliation card), the table left as it was, and the step was then reported left out
    /// at the next record too.
    ///
    /// A log that records the step after the `pass` after all (the pass stray): the table
    /// before it is kept as the other reading (`PassedOver`), which the next record chooses
    /// when that table owes it and this one does not (`other_reading`), so the step's records
    /// are taken as owed and the pass stays the one finding.
    #[cold]
    #[inline(never)]
    fn declined_step(&self, s: &mut State, e: &Event, owed: Owed, f: &mut Findings) -> Result<(), StepError> {
        use due::Consequences as C;
        let before = Box::new(s.clone());
        let rule = self.decline_rule(s, &owed.due);
        let key = self.step_key(s, &owed.due);
        let uncertain = C::uncertain(self, s, &owed);
        let mut found = Findings::default();
        let mut step = vec![C::fact(self, &owed)];
        C::apply(self, s, &owed, &step[0], &mut found)?;
        for _ in 0..due::LOOKAHEAD {
            let Some(next) = C::due(self, s) else { break };
            if self.step_key(s, &next.due) != key {
                break;
            }
            let fact = C::fact(self, &next);
            C::apply(self, s, &next, &fact, &mut found)?;
            step.push(fact);
        }
        let list = step.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>().join(", ");
        let v = crate::Violation::new(
            rule,
            format!(
                "`{e}` stands where the rules require {list}, which is no choice to decline: taken as left out, \
                 and made as the rules say"
            ),
        );
        f.violate(match uncertain {
            Some(o) => v.uncertain_after(o),
            None => v,
        });
        f.violations.append(&mut found.violations);
        f.unverified.append(&mut found.unverified);
        f.uncertain.append(&mut found.uncertain);
        s.passed_over.0 = Some((None, Some(before)));
        Ok(())
    }

    /// Whether the innermost activity is the placement's spot block (not a challenge begun
    /// inside it).
    fn in_spot_block(&self, s: &State) -> bool {
        self.spot_block(s).0
    }

    /// [`Self::in_spot_block`], and the spot of the innermost placement (`State::placement`),
    /// in one pass down the stack: each step asks both, and the second pass cost it about as
    /// much as the first.
    fn spot_block(&self, s: &State) -> (bool, Option<u8>) {
        // The first of a challenge, a spot's icons or a placement decides the block.
        let mut block = None;
        for frame in s.stack.iter().rev() {
            match frame {
                Frame::Challenge => {
                    block.get_or_insert(false);
                }
                Frame::Icons { src: Src::Spot { .. } | Src::Board { .. }, .. } => {
                    block.get_or_insert(true);
                }
                Frame::Placement(p) => return (block.unwrap_or(false), Some(p.spot)),
                _ => {}
            }
        }
        (block.unwrap_or(false), None)
    }

    /// Whether step 3 stands where its gems or its challenge may come: after the spots, or
    /// before one of them (none of its icons resolved yet): under `raid-spots=interleave` any
    /// of them, under `block` the first.
    fn step3_open(&self, s: &State) -> bool {
        s.placement().is_some_and(|p| {
            p.stage == PStage::Pick
                || (p.stage == PStage::Spots
                    && !p.begun
                    && (self.config.raid_spots == RaidSpots::Interleave
                        || self.first_spot(s, p).map(|i| i + 1) == Some(p.spot)))
        })
    }

    /// The first spot a raid resolves (with icons, free or the player's own, from the dwarf's
    /// spot to the right), as the settle finds it.
    fn first_spot(&self, s: &State, p: &Placement) -> Option<u8> {
        let At::Tile { tile, spot } = p.at else { return None };
        let t = s.tile(tile);
        let n = self.catalog.spots(tile, t.scorched).min(MAX_SPOTS);
        (spot as usize..n)
            .find(|&i| {
                !self.catalog.spot(tile, t.scorched, i).is_empty()
                    && (t.spots[i] == EMPTY || t.spots[i] == p.seat)
            })
            .map(|i| i as u8)
    }

    /// The gems of the tile picked up before its spots (step 3 in the player's order); in the
    /// middle of them they are picked up too, and the order reported.
    #[inline(always)]
    fn early_pick(&self, s: &mut State, f: &mut Findings, who: Colour, tile: Tile) -> bool {
        let Some(p) = s.placement().copied() else { return false };
        let ok = p.stage == PStage::Spots
            && !p.picked
            && p.at == At::Tile { tile, spot: self.placed_spot(s, p.seat, tile) }
            && s.seat_of(who) == Some(p.seat)
            && s.tile(tile).gem_count() > 0;
        if !ok {
            return false;
        }
        if self.in_spot_block(s) && !self.step3_open(s) {
            let msg = match self.config.raid_spots {
                RaidSpots::Interleave => {
                    "a spot's actions are performed one at a time (l.185): the gems are picked up before, \
                     between or after the spots, not in the middle of one"
                }
                RaidSpots::Block => {
                    "the spots are resolved as one block (`raid-spots=block`): the gems are picked up before \
                     or after them"
                }
            };
            self.report(s, f, Some(p.seat), r::RAID_STEP3_ORDER, msg.into());
        }
        let gems = std::mem::take(&mut s.tiles[tile.index()].gems);
        for (held, got) in s.player_mut(p.seat).gems.iter_mut().zip(gems) {
            *held += got;
        }
        if let Some(pm) = s.placement_mut() {
            pm.picked = true;
        }
        true
    }

    /// Whether the Relics forge on top of the stack can take no face-up item: a forge spends
    /// "the exact gems that match it's cost" (l.265), so with nothing the multicolour gems
    /// (and, under `relics-forge=with-stash`, the stash) can pay there is nothing to forge, and
    /// declining is all the player can do ("may" perform a forge is no duty to do the
    /// impossible).
    fn relics_out_of_reach(&self, s: &State) -> bool {
        let Some(&Frame::Forge { seat, free, .. }) = s.stack.last() else { return false };
        let p = s.player(seat);
        s.market.cards().all(|i| {
            let cost = &self.catalog.cards[i].cost;
            match self.config.relics_forge {
                RelicsForge::MulticolourOnly => cost.len() > free as usize,
                RelicsForge::WithStash => {
                    let mut need = [0u8; 3];
                    for g in cost {
                        need[g.index()] += 1;
                    }
                    let lack: usize =
                        Gem::ALL.iter().map(|g| usize::from(need[g.index()].saturating_sub(p.gem(*g)))).sum();
                    lack > free as usize
                }
            }
        })
    }

    /// `forge-refill=immediate`: a forge's event, or the health it gives, recorded while the
    /// Forge's refill is owed (the order of `after-events`, the captions' l.271, l.320) is one
    /// deviation, reported once under `ff.forge.refill`; the events are then taken as played
    /// and the refill is awaited after them (or where the log records it, `refill_mid_events`),
    /// so neither they, their health nor the late refill are reported again (one finding,
    /// where each of them was one). A health comes before its discard only so: it is applied
    /// here, and the event discarded later owes none (`FStage::Events`' `heal` below 0).
    #[inline(always)]
    fn late_refill(&self, s: &mut State, f: &mut Findings, e: &Event) -> Late {
        let (who, card) = match *e {
            Event::DiscardEvent { who, card } => (who, Some(card)),
            Event::Health { who, .. } => (who, None),
            _ => return Late::No,
        };
        if self.config.forge_refill != ForgeRefill::Immediate {
            return Late::No;
        }
        let Some(&Frame::Forge { seat, free, refreshed, item: Some(item), stage: FStage::Refill }) =
            s.stack.last()
        else {
            return Late::No;
        };
        let mut left = [0u8; 3];
        for g in &self.catalog.cards[item].cost {
            left[g.index()] += 1;
        }
        let names = &self.catalog.names;
        let heal = event_heal(s, seat, Why::ForgeEvent);
        let matching = match card {
            Some(card) => s.events.iter().any(|&id| {
                names.event_label(id) == card
                    && matches!(self.catalog.events.get(id).map(|ev| ev.discard),
                        Some(super::catalog::Condition::Gem(g)) if left[g.index()] > 0)
            }),
            // The health an event of this forge gives (+1), with an event left to give it.
            None => self.fact_is(who, &heal, e) && self.forge_discards_left(s, left) > 0,
        };
        if s.seat_of(who) != Some(seat) || !matching || s.market.refill_due(&s.items).is_none() {
            return Late::No;
        }
        if let Some(top) = s.stack.last_mut() {
            *top = Frame::Forge {
                seat,
                free,
                refreshed,
                item: Some(item),
                stage: FStage::Events { left, heal: 0, ahead: card.is_none() },
            };
        }
        self.report(
            s,
            f,
            Some(seat),
            r::FORGE_REFILL,
            format!(
                "`{e}`: the Forge's empty spot is refilled at once, before the forge's events are discarded \
                 and their health gained (`forge-refill=immediate`); the events and their health are taken \
                 as recorded, the refill where the log records it"
            ),
        );
        if card.is_some() {
            return Late::Rederive;
        }
        // Applied as owed ahead of its event: `heal` goes below 0.
        self.apply_due(s, &heal, e, f);
        Late::Applied
    }

    /// An event's health gain recorded before the discard of the event it is for, in a forge
    /// or a won challenge (`events_stage`): l.271 "For each gem on the item cost discard one
    /// matching event to the bottom of the event deck. Gain one health for each event
    /// discarded this way" (l.269 "Gain one Health per Event you discard"), and l.257 "Discard
    /// resolved events to the bottom of the event deck. Gain one health for each event
    /// discarded this way" (l.255): the discard comes first. The record is judged where the
    /// log puts it: the +1 the player's health is owed for one of the events still to discard,
    /// reported once for the forge under `ff.forge.events`, for the win under
    /// `ff.challenge.win-event`, and applied ahead of its event, which then owes none (the
    /// stage's `heal` below 0). One ordering mistake is one finding: the further gains may come
    /// ahead of their discards too (`ahead`, and the reorder in `consequence.rs`), where
    /// deriving the discard first made each swap a left-out discard, a discard of an event
    /// already gone and a last discard not due.
    #[inline(always)]
    fn health_ahead(&self, s: &mut State, f: &mut Findings, e: &Event) -> Late {
        let Event::Health { who, .. } = *e else { return Late::No };
        let Some(st) = self.events_stage(s) else { return Late::No };
        let gain = event_heal(s, st.seat, st.why);
        if st.ahead
            || s.seat_of(who) != Some(st.seat)
            || !st.gain_ahead_open()
            || !self.fact_is(who, &gain, e)
        {
            return Late::No;
        }
        // The other reading: the discard owed now left out of the log, and this its health
        // (kept for the next step to choose, `other_reading`: a next record that is the
        // discard after it, not one this reading owes, shows the discard was left out).
        let alt = self.discard_left_out(s, e);
        Self::set_events_ahead(s);
        let (rule, whose, line, others) = match st.why {
            Why::WinEvent => (r::CHALLENGE_WIN_EVENT, "a won challenge's event", "l.257", "the win's"),
            _ => (r::FORGE_EVENTS, "a forge's event", "l.271", "the forge's"),
        };
        self.report(
            s,
            f,
            Some(st.seat),
            rule,
            format!(
                "`{e}`: the health of {whose} is gained for an event discarded ({line} \"Gain one health for each \
                 event discarded this way\"), after its discard; taken as the gain of the next event discarded, \
                 which owes none, and {others} other gains as recorded"
            ),
        );
        self.apply_due(s, &gain, e, f);
        s.passed_over.0 = alt.map(|alt| (None, Some(alt)));
        Late::Applied
    }

    /// The table where the event discard owed now was left out of the log and `e` (a health)
    /// is the gain owed after it (applied as the rules say), if that is what `e` is there.
    #[cold]
    #[inline(never)]
    fn discard_left_out(&self, s: &State, e: &Event) -> Option<Box<State>> {
        use due::Consequences as C;
        let owed = C::due(self, s)?;
        let mut alt = s.clone();
        let mut scratch = Findings::default();
        let fact = C::fact(self, &owed);
        C::apply(self, &mut alt, &owed, &fact, &mut scratch).ok()?;
        let next = C::due(self, &alt)?;
        if C::fact(self, &next) != *e {
            return None;
        }
        C::apply(self, &mut alt, &next, e, &mut scratch).ok()?;
        Some(Box::new(alt))
    }

    /// The seat whose Relics forge (a forge with multicolour gems, l.318) owes its next event
    /// discard, no health being owed before it: l.318 "items forged this way may Discard events
    /// as normal", which `relics-events` reads.
    pub(super) fn relics_events_open(&self, s: &State) -> Option<u8> {
        match s.stack.last() {
            Some(&Frame::Forge {
                seat,
                free,
                item: Some(_),
                stage: FStage::Events { left, heal, .. },
                ..
            }) if free > 0 && heal <= 0 && self.forge_discards_left(s, left) > 0 => Some(seat),
            _ => None,
        }
    }

    /// A raid's path finding (the line, the adjacency) for a special dwarf whose ability on
    /// the player's board side is text the engine cannot apply (a guild side's, not printed,
    /// l.75 "changes ... the abilities of the special dwarfs"): the Miner's Dragonrider (l.310)
    /// shows an ability may be where the dwarf may raid, so the finding is uncertain after that
    /// ability, reported unverified as the raid resolves it (the next unverified ordinal).
    fn unprinted_special(&self, s: &State, seat: u8, dwarf: Dwarf, v: crate::Violation) -> crate::Violation {
        let text = self.catalog.boards.get(s.player(seat).side).is_some_and(|b| {
            b.specials
                .get(dwarf.index())
                .is_some_and(|a| a.iter().any(|sym| matches!(sym.icon, super::icon::Icon::Text(_))))
        });
        if text {
            v.uncertain_after(s.unverified.reported)
        } else {
            v
        }
    }

    /// Under `forge-refill=immediate`, whether the refill a late refill left owed
    /// (`late_refill`) may come now, in the middle of the forge's events: the log records
    /// it where the player made it, and the one finding was given at the first event.
    pub(super) fn refill_mid_events(&self, s: &State) -> bool {
        self.config.forge_refill == ForgeRefill::Immediate
            && matches!(
                s.stack.last(),
                Some(Frame::Forge { item: Some(_), stage: FStage::Events { .. }, .. })
            )
            && s.market.refill_due(&s.items).is_some()
    }

    fn placed_spot(&self, s: &State, seat: u8, tile: Tile) -> u8 {
        s.player(seat).city.iter().flatten().find(|d| d.tile == tile).map_or(0, |d| d.spot)
    }

    /// Whether a decision may come before the consequences owed (the rules let it happen at
    /// any moment, or step 3 is in the player's order).
    pub(super) fn may_jump(&self, s: &State, e: &Event) -> bool {
        if s.over() {
            return false;
        }
        match *e {
            Event::Hero { .. } | Event::Use { .. } | Event::Activate { .. } => true,
            // `reshuffle=on-draw`: fleeing after the last card comes before the shuffle owed to
            // draw on, which the flee makes needless.
            Event::Flee { who } => self.config.reshuffle == Reshuffle::OnDraw && self.shuffle_to_draw(s, who),
            // Declining a won challenge's pending actions comes before the ones owed; declining a
            // Haste placement (`haste=may`) before the retreat an empty campfire owes for it.
            Event::Pass { who } => {
                let seat = s.seat_of(who);
                self.won_pending(s).is_some_and(|k| seat == Some(k))
                    || (self.config.haste == Haste::May && seat.is_some() && self.haste_owed(s) == seat)
                    || (seat.is_some() && self.relics_events_open(s) == seat)
            }
            // A placement more than the turn gives is judged as such, not as a turn left out.
            Event::Raid { who, .. } | Event::Regroup { who, .. } => {
                // (Alone at the table, the next placement is the next turn's.)
                s.phase == Phase::End && s.placed > 0 && s.seats.len() > 1 && s.seat_of(who) == Some(s.active)
            }
            Event::Challenge { who, foe } => self.step3_open(s) && self.raid_challenge_left(s, who, foe),
            // The refill a late refill left owed, recorded among the forge's events.
            Event::Market { .. } => self.refill_mid_events(s),
            _ => false,
        }
    }

    /// Whether the placement's own challenge (its monster, the Dragon in the Castle) is still
    /// to be taken, by `who`. Whatever `foe` the record names: a challenge recorded where step 3
    /// may take it is the raid's challenge, taken there (l.184 "in any order you choose"); a
    /// wrong target is its one mistake, reported by `challenge` under `ff.challenge.target`,
    /// and proves no spot left out (up to rules version 12 the spots owed were flushed
    /// ahead of it, three false `ff.raid.spots` findings for one wrong name).
    fn raid_challenge_left(&self, s: &State, who: Colour, _foe: Foe) -> bool {
        s.placement()
            .is_some_and(|p| !p.challenged && s.seat_of(who) == Some(p.seat) && self.raid_foe(s, p).is_some())
    }

    /// The raid's own challenge taken while its spots are being resolved where step 3 is not
    /// open (in the middle of a spot; under `raid-spots=block`, between two spots): reported
    /// under `ff.raid.step3-order` and applied as played, as a pick there is, so the spots
    /// owed are not reported as left out before it.
    fn misplaced_challenge(&self, s: &State, e: &Event) -> bool {
        let Event::Challenge { who, foe } = *e else { return false };
        !s.over()
            && !self.step3_open(s)
            && s.placement().is_some_and(|p| p.stage == PStage::Spots)
            && self.in_spot_block(s)
            && self.raid_challenge_left(s, who, foe)
    }

    /// Whether what is owed next is only the running challenge's shuffle of `who`'s discard
    /// pile into the deck they ran out of, with no Battle Frenzy owed (which must be drawn).
    fn shuffle_to_draw(&self, s: &State, who: Colour) -> bool {
        let Some(seat) = s.seat_of(who) else { return false };
        let frenzy = s.challenges.last().map_or(0, |c| c.frenzy);
        frenzy == 0
            && matches!(
                due::Consequences::due(self, s),
                Some(super::owed::Owed { due: super::owed::Due::Shuffle { seat: k }, .. }) if k == seat
            )
    }

    /// The seat whose won challenge's pending actions are being resolved, when the next one
    /// is owed (the top of the stack is their list of icons).
    fn won_pending(&self, s: &State) -> Option<u8> {
        match s.stack.last() {
            Some(&Frame::Icons { seat, src: Src::Pending(k), .. }) => {
                s.challenges.get(k as usize).filter(|ch| ch.end == Some(End::Won)).map(|_| seat)
            }
            _ => None,
        }
    }

    /// The seat owed a Haste placement now: a placement of the turn is made and resolved, and
    /// Phase 3 owes one more (a retreat for it may still be owed first).
    fn haste_owed(&self, s: &State) -> Option<u8> {
        (s.phase == Phase::Place && s.stack.is_empty() && s.placed > 0 && s.placements > 0)
            .then_some(s.active)
    }

    /// The seat owed the turn's placement right after its retreat (nothing of the retreat left
    /// to resolve, no placement made yet this turn).
    fn retreat_placement_owed(&self, s: &State) -> Option<u8> {
        (s.phase == Phase::Place && s.stack.is_empty() && s.retreated && s.placed == 0 && s.placements > 0)
            .then_some(s.active)
    }

    /// What a placement may challenge: the monster on its tile, or the Dragon in the Castle.
    fn raid_foe(&self, s: &State, p: &Placement) -> Option<FoeKey> {
        match p.at {
            At::Tile { tile, .. } => s.monster_on(tile).map(|(c, _)| FoeKey::Monster(c)),
            At::Castle => Some(FoeKey::Dragon),
            At::Board { .. } => None,
        }
    }

    /// A finding about order, placement or cards: never uncertain.
    fn report(&self, _s: &State, f: &mut Findings, _seat: Option<u8>, rule: &'static str, msg: String) {
        f.violate(crate::Violation::new(rule, msg));
    }

    /// A Pack A event at a table that has not unlocked Pack A: reported, and nothing applied.
    fn pack_a_locked(&self, f: &mut Findings) -> bool {
        let locked = self.config.packs != Packs::A;
        if locked {
            f.violate(crate::Violation::new(
                r::UNLOCK_APPLY_ALL,
                "Pack A is not unlocked at this table (`packs=a`)",
            ));
        }
        locked
    }

    /// A finding that rests on the seat's health, gems or successes (uncertain after an
    /// unverified effect of theirs).
    fn report_res(&self, s: &State, f: &mut Findings, seat: Option<u8>, rule: &'static str, msg: String) {
        f.violate(self.finding(s, seat, rule, msg));
    }

    fn seat(&self, s: &State, who: Colour) -> Result<u8, StepError> {
        s.seat_of(who).ok_or_else(|| StepError::rule(r::SETUP_FIRST_PLAYER, format!("no player plays {who}")))
    }

    fn card(&self, l: Label) -> Result<CardId, StepError> {
        self.catalog
            .names
            .cards
            .get(l)
            .ok_or_else(|| StepError::new(format!("the catalog has no card `{l}`")))
    }

    /// The order in which to reveal the tokens of one advanced draw (indices into `drawn`):
    /// the first of their orders the pile allows, or the listed one when none does. A draw
    /// takes at most 3 tokens, so at most 6 orders are tried.
    fn token_draw_order(&self, pile: &Deck<TokenId>, drawn: &[Option<TokenId>; 3]) -> Vec<usize> {
        let listed: Vec<usize> = (0..drawn.len()).filter(|&i| drawn[i].is_some()).collect();
        const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        for order in ORDERS {
            let picked: Vec<usize> =
                order.iter().copied().filter(|&k| k < listed.len()).map(|k| listed[k]).collect();
            let mut trial = pile.clone();
            if picked.iter().all(|&i| drawn[i].is_some_and(|id| trial.reveal(id).is_ok())) {
                return picked;
            }
        }
        listed
    }

    /// Judge and apply a decision or a reveal.
    fn decide(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        // The choice of the active token a kept token opens lasts one decision.
        let choosing = s.choosing_token.take();
        let a = self.awaited(s);
        if s.over() {
            self.report(
                s,
                f,
                None,
                r::END_GAME_OVER,
                format!("`{e}`: the game is over (the records after it but a won game's scores are ignored)"),
            );
            return Ok(());
        }
        let blocks = matches!(a, Await::RetaliationCard(_) | Await::MonsterCard);
        let fits = matches!(
            e,
            Event::Retaliation { .. }
                | Event::Monster { .. }
                | Event::Hero { .. }
                | Event::Use { .. }
                | Event::Activate { .. }
        );
        if blocks && !fits {
            let rule = self.await_rule(s, a);
            self.report(s, f, None, rule, format!("`{e}`: the table awaits {}", self.await_text(s, a)));
            return Ok(());
        }
        match *e {
            Event::Seat { who, side, books } => self.seat_player(s, f, who, side, books),
            Event::Market { items } => {
                let a = if self.refill_mid_events(s) {
                    Await::Market(
                        s.market.slots.iter().filter(|x| x.is_none()).count().min(s.items.len()) as u8
                    )
                } else {
                    a
                };
                self.market(s, f, a, items)
            }
            Event::Retaliation { card, territory } => {
                let Some(id) = self.catalog.names.retaliations.get(card) else {
                    return Err(StepError::new(format!("the catalog has no Retaliation card `{card}`")));
                };
                let Await::RetaliationCard(owed) = a else {
                    self.report(
                        s,
                        f,
                        None,
                        r::RETALIATION_REPLACE,
                        format!("`{e}`: no Retaliation is owed (no monster was defeated)"),
                    );
                    return Ok(());
                };
                if territory != owed {
                    let setup = matches!(s.phase, Phase::Retaliations(_));
                    if setup && self.opening_left(s, territory) {
                        // Game Setup 6 (l.57) "Wastelands then Valley then Outskirts": a card
                        // resolved on a territory whose turn is still to come is one ordering
                        // mistake. It is resolved where the log puts it (its monster and tokens
                        // are placed there, so the table stays the log's), and the territories
                        // not yet resolved are owed after it (`settle_phase`, `opening_next`).
                        // Up to rules version 13 it was resolved on the territory owed: every
                        // token of it then a finding (six for two cards swapped) and the
                        // monsters moved where the gems were not.
                        self.report(
                            s,
                            f,
                            None,
                            r::SETUP_RETALIATION_ORDER,
                            format!(
                                "the opening Retaliations are resolved Wastelands, then Valley, then Outskirts: \
                                 the {owed} comes before the {territory}; the card is resolved on the {territory} \
                                 as recorded, the {owed} still owed"
                            ),
                        );
                        if let Some(Frame::Retaliation { territory: at, .. }) = s.stack.last_mut() {
                            *at = territory;
                        }
                    } else {
                        let rule = if setup { r::SETUP_RETALIATION_ORDER } else { r::RETALIATION_REPLACE };
                        self.report(
                            s,
                            f,
                            None,
                            rule,
                            format!("this Retaliation is resolved on the {owed}, not the {territory}"),
                        );
                    }
                }
                match s.dragon_deck.reveal(id) {
                    Ok(()) => {}
                    Err(m) => {
                        let sleeping_left = self
                            .catalog
                            .scenario01
                            .sleeping
                            .iter()
                            .any(|&x| s.dragon_deck.remaining().contains(&x));
                        let rule = match m {
                            Misdraw::Buried if sleeping_left && self.config.scenario == Scenario::S01 => {
                                r::S01_SLEEPING_DRAGON
                            }
                            Misdraw::Buried => r::RETALIATION_BOTTOM,
                            _ => r::SETUP_RETALIATION_DECK,
                        };
                        self.report(
                            s,
                            f,
                            None,
                            rule,
                            format!("`{card}` cannot come off the Retaliation deck now: {m}"),
                        );
                        s.dragon_deck.take(id);
                    }
                }
                if let Some(Frame::Retaliation { card: slot, .. }) = s.stack.last_mut() {
                    *slot = Some(id);
                }
                Ok(())
            }
            Event::Monster { card, tile: recorded } => {
                let id = self.card(card)?;
                if !self.is_monster(id) {
                    return Err(StepError::rule(r::SETUP_MONSTER_DECK, format!("`{card}` is not a monster")));
                }
                let Some(Frame::Retaliation { territory, card: Some(ret), monster: false, next, done }) =
                    s.stack.last().copied()
                else {
                    self.report(
                        s,
                        f,
                        None,
                        r::RETALIATION_RESOLVE,
                        format!("`{e}`: no Retaliation card is placing a monster"),
                    );
                    return Ok(());
                };
                if let Err(m) = s.monster_deck.reveal(id) {
                    let msg = if self.monster_left_out(s, id) {
                        // The deck no longer holds the one-VP layer once its 3 per player are
                        // drawn, so it cannot tell this card was never in it (`Misdraw`).
                        format!(
                            "`{card}` was left out of the game at setup: only {} of the 1VP monsters (3 per \
                             player) went into the monster deck, and the rest went back to the box",
                            3 * u32::from(self.config.players)
                        )
                    } else {
                        format!("`{card}` cannot come off the monster deck now: {m}")
                    };
                    self.report(s, f, None, r::SETUP_MONSTER_DECK, msg);
                }
                let (row, pos) = self.catalog.retaliations.get(ret).map_or((1, 0), |c| c.monster);
                let tile = Tile::relative(territory, row, pos).unwrap_or(Tile(0));
                if recorded != tile {
                    let name = self.catalog.retaliations.name(ret);
                    self.report(
                        s,
                        f,
                        None,
                        r::RETALIATION_RESOLVE,
                        format!("`{name}` on the {territory} marks {tile} for the monster, not {recorded}"),
                    );
                }
                s.monsters[territory.index()] = Some((id, tile));
                if let Some(fr) = s.stack.last_mut() {
                    *fr = Frame::Retaliation { territory, card: Some(ret), monster: true, next, done };
                }
                Ok(())
            }
            Event::Deal { who, cards } => {
                if self.pack_a_locked(f) {
                    return Ok(());
                }
                let seat = self.seat(s, who)?;
                if a != Await::Deal(seat) {
                    self.report(s, f, Some(seat), r::PACKA_DEAL, format!("`{e}`: each player is dealt two cards once, in seat order, before the first turn"));
                    return Ok(());
                }
                let mut dealt = Vec::new();
                for l in cards {
                    let Some(id) = self.catalog.names.slayers.get(l) else {
                        return Err(StepError::new(format!("the catalog has no dragonslayer card `{l}`")));
                    };
                    if let Err(m) = s.slayers.reveal(id) {
                        self.report(
                            s,
                            f,
                            Some(seat),
                            r::PACKA_DEAL,
                            format!("`{l}` is not in the dragonslayer deck: {m}"),
                        );
                    }
                    dealt.push(id);
                }
                s.player_mut(seat).dealt = dealt;
                Ok(())
            }
            Event::Slayer { who, card } => {
                if self.pack_a_locked(f) {
                    return Ok(());
                }
                let seat = self.seat(s, who)?;
                let id = self.catalog.names.slayers.get(card);
                let ok =
                    a == Await::KeepSlayer(seat) && id.is_some_and(|id| s.player(seat).dealt.contains(&id));
                if !ok {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::PACKA_DEAL,
                        format!("`{e}`: a player keeps one of the two cards dealt to them"),
                    );
                    return Ok(());
                }
                s.player_mut(seat).slayer = id;
                if let Phase::Deal(k) = s.phase {
                    s.phase = Phase::Deal(k + 1);
                }
                Ok(())
            }
            Event::Draw { card } => {
                let Some(id) = self.catalog.names.events.get(card) else {
                    return Err(StepError::new(format!("the catalog has no event card `{card}`")));
                };
                if a != Await::EventDraw {
                    self.report(
                        s,
                        f,
                        None,
                        r::TURN_PHASES,
                        format!("`{e}`: the event is drawn in Phase 2 ({})", self.await_text(s, a)),
                    );
                    return Ok(());
                }
                if let Err(m) = s.event_deck.reveal(id) {
                    // The deck no longer holds a drawn-out group's other candidates, so it cannot
                    // tell a card never in it from one drawn already (`NotInDeck`): an event card
                    // neither in the deck nor active was left out at setup.
                    let left_out =
                        m == Misdraw::Spent || !s.events.contains(&id) && !s.event_deck.contains(id);
                    let (rule, msg) = if left_out {
                        let msg = format!(
                            "`{card}` was left out of the game at setup: the event deck holds only the table's \
                             numbers of S, T and D cards, and the rest went back to the box"
                        );
                        (r::SETUP_EVENT_DECK, msg)
                    } else {
                        (r::EVENT_DRAW, format!("`{card}` cannot come off the event deck now: {m}"))
                    };
                    self.report(s, f, None, rule, msg);
                }
                if !s.events.contains(&id) {
                    s.events.push(id);
                }
                s.phase = Phase::Place;
                Ok(())
            }
            Event::Raid { who, dwarf, tile, spot } => self.raid(s, f, a, who, dwarf, tile, spot),
            Event::Regroup { who, dwarf, spot } => self.regroup(s, f, a, who, dwarf, spot),
            Event::Challenge { who, foe } => self.challenge(s, f, a, who, foe),
            Event::Reveal { who, card } => self.reveal(s, f, a, who, card),
            Event::Flee { who } => {
                let seat = self.seat(s, who)?;
                if a != Await::Reveal(seat) {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::CHALLENGE_FLEE,
                        format!("`{e}`: {who} is not in a challenge they can flee"),
                    );
                    return Ok(());
                }
                let p = s.player(seat);
                let exhausted = p.deck.is_empty() && p.deck.discard.is_empty();
                let (frenzy, dragon) =
                    s.challenges.last().map_or((0, false), |c| (c.frenzy, c.foe == Adversary::Dragon));
                // l.235: starting a challenge is revealing cards "until you either decide to:
                // abandon the challenge or ..."; the decision to fight or not is taken before it
                // (l.187 "you may choose to challenge it", the bow's `pass`). With no card at all
                // to reveal, fleeing is all the player can do.
                if s.challenges.last().is_some_and(|c| c.played.is_empty()) && !exhausted {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::CHALLENGE_REVEAL,
                        format!(
                            "`{e}`: a challenge is fought by revealing cards until the player flees (l.235): \
                             {who} flees before revealing any"
                        ),
                    );
                }
                if frenzy > 0 && !exhausted {
                    let rule = if p.deck.is_empty() { r::FRENZY_EXHAUSTED } else { r::FRENZY_OWE };
                    self.report_res(
                        s,
                        f,
                        Some(seat),
                        rule,
                        format!("{frenzy} Battle Frenzy card(s) still owed: no fleeing while a card is left"),
                    );
                }
                let next = self.after(CStage::Running, Some(End::Fled), dragon);
                if let Some(c) = s.challenges.last_mut() {
                    c.end = Some(End::Fled);
                    c.stage = next;
                }
                Ok(())
            }
            Event::Forge { who, item } => self.forge(s, f, a, who, item),
            Event::Refresh { who } => {
                let seat = self.seat(s, who)?;
                match a {
                    Await::Forge { seat: k, refreshed: false } if k == seat => {
                        // "placing all items in the bottom of the deck" (l.263): the book sets no
                        // order among them and the log records none, so they go under the deck as
                        // one layer of unknown order (any of them may come out first).
                        s.market.clear_to_bottom(&mut s.items);
                        if let Some(Frame::Forge { stage, item, .. }) = s.stack.last_mut() {
                            *stage = FStage::Refill;
                            *item = None;
                        }
                    }
                    Await::Forge { .. } => self.report(
                        s,
                        f,
                        Some(seat),
                        r::FORGE_REFRESH,
                        "the Forge is refreshed once per forge action".into(),
                    ),
                    _ => self.report(
                        s,
                        f,
                        Some(seat),
                        r::ICON_ANVIL,
                        format!("`{e}`: no forge action ({})", self.await_text(s, a)),
                    ),
                }
                Ok(())
            }
            Event::Retire { who, card } => {
                let seat = self.seat(s, who)?;
                let id = self.card(card)?;
                if a != Await::Retire(seat) {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::ICON_TANKARD,
                        format!("`{e}`: a retire comes from a tankard icon ({})", self.await_text(s, a)),
                    );
                    return Ok(());
                }
                let p = s.player_mut(seat);
                p.deck.reshuffle();
                if !p.deck.take(id) {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RETIRE_PICK,
                        format!("`{card}` is neither in {who}'s deck nor their discard pile"),
                    );
                    return Ok(());
                }
                s.player_mut(seat).retired.push(id);
                s.stack.pop();
                Ok(())
            }
            Event::Research { who, subject, exchange } => self.research(s, f, a, who, subject, exchange),
            Event::Upgrade { who, dwarf } => {
                let seat = self.seat(s, who)?;
                let Await::Upgrade { seat: k, optional } = a else {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::ICON_UPGRADE,
                        format!("`{e}`: no upgrade is owed ({})", self.await_text(s, a)),
                    );
                    return Ok(());
                };
                let rule = if optional { r::ICON_UPGRADE } else { r::RESEARCH_LEGENDS };
                let p = s.player(seat);
                if k != seat
                    || dwarf == Dwarf::Plain
                    || !p.stash[dwarf.index()]
                    || p.campfire[Dwarf::Plain.index()] == 0
                {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        rule,
                        format!("`{e}`: a dwarf on the campfire becomes a special dwarf still in the stash"),
                    );
                    return Ok(());
                }
                let p = s.player_mut(seat);
                p.campfire[Dwarf::Plain.index()] -= 1;
                p.campfire[dwarf.index()] += 1;
                p.stash[dwarf.index()] = false;
                s.stack.pop();
                Ok(())
            }
            Event::Advanced { who, tokens } => {
                let seat = self.seat(s, who)?;
                let Await::AdvancedDraw(k, subject) = a else {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_DRAW,
                        format!("`{e}`: tokens are drawn on reaching a subject's top level"),
                    );
                    return Ok(());
                };
                let pile = s.advanced[subject.index()].len().min(3);
                let n = tokens.iter().flatten().count();
                if k != seat || n != pile {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_DRAW,
                        format!("{} draws the top {pile} {subject} tokens", s.player(k).colour),
                    );
                }
                let mut drawn = [None; 3];
                for (slot, l) in drawn.iter_mut().zip(tokens.iter().flatten()) {
                    let Some(id) = self.catalog.names.tokens.get(*l) else {
                        return Err(StepError::new(format!("the catalog has no token `{l}`")));
                    };
                    *slot = Some(id);
                }
                // "Draw the top 3 tokens" (l.334) is one draw: the tokens come out together, so
                // the log may list them in any order. The pile's known order (tokens put at its
                // bottom) is checked for the set: they are revealed in the first order the pile
                // allows, or as listed when none does (and the misdraw is reported).
                let order = self.token_draw_order(&s.advanced[subject.index()], &drawn);
                for (l, id) in order.iter().filter_map(|&i| {
                    let l = tokens.iter().flatten().nth(i)?;
                    Some((l, drawn[i]?))
                }) {
                    if let Err(m) = s.advanced[subject.index()].reveal(id) {
                        let other = self.catalog.tokens[id].subject != subject;
                        let rule = if other { r::SETUP_LIBRARY } else { r::RESEARCH_ADVANCED_DRAW };
                        self.report(
                            s,
                            f,
                            Some(seat),
                            rule,
                            format!("`{l}` is not in the {subject} pile: {m}"),
                        );
                    }
                }
                if let Some(Frame::Advanced { drawn: d, .. }) = s.stack.last_mut() {
                    *d = drawn;
                }
                Ok(())
            }
            Event::Keep { who, token } => {
                let seat = self.seat(s, who)?;
                let id = self.catalog.names.tokens.get(token);
                let Some(Frame::Advanced { subject, drawn, .. }) =
                    s.stack.last().copied().filter(|_| a == Await::KeepToken(seat))
                else {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_DRAW,
                        format!("`{e}`: no tokens drawn to keep from"),
                    );
                    return Ok(());
                };
                let Some(id) = id.filter(|id| drawn.contains(&Some(*id))) else {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_DRAW,
                        format!("`{token}` is not one of the tokens drawn"),
                    );
                    return Ok(());
                };
                // "place the rest at the bottom of its pile" (l.334): in no order the book sets
                // or the log records, so as one layer of unknown order.
                let rest = drawn.iter().flatten().copied().filter(|&t| t != id).collect();
                s.advanced[subject.index()].put_under_unordered(rest);
                let p = s.player_mut(seat);
                // Scenario 01's Well Rested token (`well-rested=advanced-token`) sits on the
                // board's slot as the active token from the start: a kept token competes with it.
                if p.active_token.is_none() && p.rested == 0 {
                    p.active_token = Some(id);
                } else {
                    // The new token waits in the stash unless the player's next decision
                    // chooses it (or another) as the active one (l.338).
                    p.tokens.push(id);
                    s.choosing_token = Some(seat);
                }
                s.stack.pop();
                Ok(())
            }
            Event::Use { who, token } => {
                let seat = self.seat(s, who)?;
                let id = self.catalog.names.tokens.get(token);
                let p = s.player(seat);
                if id.is_none() || p.active_token != id {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_ACTIVE,
                        format!("`{token}` is not {who}'s active token"),
                    );
                    return Ok(());
                }
                if id.is_some_and(|id| p.face_down.contains(&id)) {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_USE,
                        format!("`{token}` was used this turn: it is face down"),
                    );
                    return Ok(());
                }
                let Some(id) = id else { return Ok(()) };
                s.player_mut(seat).face_down.push(id);
                if let Some(when) = self.catalog.tokens[id].when {
                    // When it may be used is card text: not checked.
                    let text = crate::kit::effect::unverified(
                        &who.to_string(),
                        token.as_str(),
                        self.catalog.text(when),
                    );
                    let o = s.unverified.report(f, text);
                    s.player_mut(seat).taint = Some(o);
                }
                if !self.catalog.tokens[id].effect.is_empty() {
                    s.stack.push(Frame::Icons { seat, src: Src::Token(id), next: 0, sub: 0 });
                }
                Ok(())
            }
            Event::Activate { who, token } => {
                let seat = self.seat(s, who)?;
                let id = self.catalog.names.tokens.get(token);
                let regroup =
                    s.placement().is_some_and(|p| p.seat == seat && matches!(p.at, At::Board { .. }));
                let retreat =
                    s.stack.iter().any(|f| matches!(f, Frame::Retreat { seat: k, .. } if *k == seat));
                let acquiring = choosing == Some(seat);
                let p = s.player_mut(seat);
                // Scenario 01's Well Rested token, named `well-rested` (it has no catalog id: the
                // scenario gives it, l.409), made active again from the stash.
                let rested = id.is_none() && token.as_str() == WELL_RESTED && p.rested_stash > 0;
                match id.and_then(|id| p.tokens.iter().position(|&t| t == id)) {
                    _ if rested && (regroup || retreat || acquiring) => {
                        p.rested = std::mem::take(&mut p.rested_stash);
                        if let Some(old) = p.active_token.take() {
                            p.tokens.push(old);
                        }
                    }
                    Some(i) if regroup || retreat || acquiring => {
                        let new = p.tokens.remove(i);
                        if let Some(old) = p.active_token.replace(new) {
                            p.tokens.push(old);
                        }
                        if p.rested > 0 {
                            p.rested_stash = std::mem::take(&mut p.rested);
                        }
                    }
                    None if rested => self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_ACTIVE,
                        "the active token is switched only on a regroup or a retreat, or chosen as a token is kept"
                            .into(),
                    ),
                    Some(_) => self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_ACTIVE,
                        "the active token is switched only on a regroup or a retreat, or chosen as a token is kept"
                            .into(),
                    ),
                    None => self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_ADVANCED_ACTIVE,
                        format!("`{token}` is not in {who}'s stash of tokens"),
                    ),
                }
                Ok(())
            }
            Event::Hero { who } => {
                let seat = self.seat(s, who)?;
                if self.pack_a_locked(f) {
                    return Ok(());
                }
                let p = s.player(seat);
                let Some(card) = p.slayer.filter(|_| !p.slayer_used) else {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::PACKA_USE,
                        format!("{who} has no unused dragonslayer card"),
                    );
                    return Ok(());
                };
                s.player_mut(seat).slayer_used = true;
                let active = s.active;
                s.stack.push(Frame::Icons { seat: active, src: Src::Slayer(card), next: 0, sub: 0 });
                Ok(())
            }
            Event::Pass { who } => self.pass(s, f, a, who),
            _ => Ok(()),
        }
    }

    fn seat_player(
        &self,
        s: &mut State,
        f: &mut Findings,
        who: Colour,
        side: Label,
        books: Option<Subject>,
    ) -> Result<(), StepError> {
        if s.seat_of(who).is_some()
            || s.seats.len() >= usize::from(self.config.players)
            || !matches!(s.phase, Phase::Seats | Phase::Market | Phase::Retaliations(_))
        {
            self.report(
                s,
                f,
                None,
                r::SETUP_FIRST_PLAYER,
                format!(
                    "`seat {who}`: {} players take one colour each, before the first turn",
                    self.config.players
                ),
            );
            return Ok(());
        }
        if s.phase != Phase::Seats {
            self.report(
                s,
                f,
                None,
                r::SETUP_FIRST_PLAYER,
                "the dwarfs are seated after the city, the Forge and the opening Retaliations (Game Setup 7)"
                    .into(),
            );
        }
        let board = match self.catalog.names.boards.get(side) {
            Some(b) => b,
            None => {
                self.report(
                    s,
                    f,
                    None,
                    r::SETUP_BOARD_SIDE,
                    format!("the catalog has no board side `{side}`: the Miner side is used"),
                );
                self.catalog
                    .boards
                    .id("miner")
                    .ok_or_else(|| StepError::new("the catalog has no Miner board"))?
            }
        };
        if books.is_some() && self.config.book_tokens == super::params::BookTokens::OnePerSubject {
            self.report(
                s,
                f,
                None,
                r::SETUP_BOOK,
                "with a book token on every subject (`book-tokens=one-per-subject`) no subject is named"
                    .into(),
            );
        }
        let seat = s.seats.len() as u8;
        let start = self.starting_books(books);
        let rested = if self.config.scenario == Scenario::S01
            && self.config.well_rested == super::params::WellRested::AdvancedToken
        {
            self.catalog.scenario01.rested_heal
        } else {
            0
        };
        let mut campfire = [0; 6];
        campfire[Dwarf::Plain.index()] = 7;
        let mut deck = crate::kit::deck::Deck::new(self.catalog.gang.clone());
        // Room for a first pass through the deck's discards at once, not grown card by card.
        deck.discard.reserve(16);
        s.seats.push(Player {
            colour: who,
            side: board,
            health: Track::new(super::state::MAX_HEALTH, 0, super::state::MAX_HEALTH),
            health_changed: false,
            gems: [0; 3],
            campfire,
            stash: [false, true, true, true, true, true],
            board: [None; MAX_SPOTS],
            city: [None; 7],
            deck,
            retired: Vec::new(),
            books: start,
            best: start,
            active_token: None,
            tokens: Vec::new(),
            face_down: Vec::new(),
            rested,
            rested_stash: 0,
            footprint: false,
            dealt: Vec::new(),
            slayer: None,
            slayer_used: false,
            taint: None,
            path_reset: false,
            score: None,
        });
        if seat > 0 {
            s.stack.push(Frame::Bonus { seat });
        }
        // A guild side's abilities are text: the player's later numbers rest on them.
        Ok(())
    }

    fn market(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        items: [Option<Label>; 3],
    ) -> Result<(), StepError> {
        let mut named = [None; 3];
        for (slot, &l) in named.iter_mut().zip(items.iter().flatten()) {
            *slot = Some(self.card(l)?);
        }
        let ids = named.into_iter().flatten();
        let (rule, want) = match (a, s.phase) {
            (Await::Market(n), Phase::Market) => (r::SETUP_FORGE, n),
            (Await::Market(n), _) => {
                let refresh = matches!(s.stack.last(), Some(Frame::Forge { item: None, .. }));
                (if refresh { r::FORGE_REFRESH } else { r::FORGE_REFILL }, n)
            }
            _ => {
                self.report(s, f, None, r::FORGE_REFILL, "no Forge spot is waiting to be refilled".into());
                return Ok(());
            }
        };
        let count = ids.clone().count();
        if count != usize::from(want) {
            self.report(s, f, None, rule, format!("{want} item(s) are revealed into the Forge, not {count}"));
        }
        for id in ids {
            if self.catalog.cards.get(id).is_none_or(|c| c.kind != CardKind::Item) {
                return Err(StepError::rule(
                    rule,
                    format!("`{}` is not an item", self.catalog.cards.name(id)),
                ));
            }
            let slot = s.market.slots.iter().position(Option::is_none);
            let Some(slot) = slot else {
                self.report(s, f, None, rule, "the Forge holds 3 items".into());
                break;
            };
            if let Err(m) = s.market.refill(slot, id, &mut s.items) {
                self.report(
                    s,
                    f,
                    None,
                    rule,
                    format!("`{}` cannot come off the item deck now: {m}", self.catalog.cards.name(id)),
                );
                s.market.slots[slot] = Some(id);
            }
        }
        if s.phase == Phase::Market {
            s.phase = Phase::Retaliations(0);
        }
        Ok(())
    }

    /// Whether a monster card was left out of the game at setup (l.56 "Return the rest of the
    /// 1VP monsters to the box"): a one-VP monster that is nowhere in the game (the monster
    /// deck, the city, the horde, a player's cards or a challenge).
    fn monster_left_out(&self, s: &State, id: CardId) -> bool {
        self.catalog.cards.get(id).is_some_and(|c| c.vp == 1)
            && !s.monster_deck.contains(id)
            && !s.monster_deck.discard.contains(&id)
            && s.monster_territory(id).is_none()
            && !s.horde.contains(&id)
            && !s.challenges.iter().any(|c| c.played.contains(&id))
            && !s
                .seats
                .iter()
                .any(|p| p.deck.contains(id) || p.deck.discard.contains(&id) || p.retired.contains(&id))
    }

    /// Check that it is this player's turn to place a dwarf now.
    fn placement_turn(&self, s: &mut State, f: &mut Findings, a: Await, seat: u8) -> bool {
        if s.seats.is_empty()
            || matches!(
                s.phase,
                Phase::Market | Phase::Retaliations(_) | Phase::Seats | Phase::Deal(_) | Phase::TurnStart
            )
        {
            self.report(
                s,
                f,
                Some(seat),
                r::TURN_PHASES,
                format!("no turn has begun ({})", self.await_text(s, a)),
            );
            return false;
        }
        if seat != s.active {
            self.report(
                s,
                f,
                Some(seat),
                r::TURN_ORDER,
                format!("it is {}'s turn", s.player(s.active).colour),
            );
            return false;
        }
        match a {
            Await::Placement(_) => true,
            Await::EventDraw => {
                self.report(
                    s,
                    f,
                    Some(seat),
                    r::TURN_PHASES,
                    "Phase 2 draws an event before the dwarf is placed".into(),
                );
                s.phase = Phase::Place;
                true
            }
            _ if !s.stack.is_empty() && s.placed > 0 => {
                let rule = if s.placements > 0 { r::HASTE_AFTER } else { r::PLACE_MAIN_ACTION };
                self.report(
                    s,
                    f,
                    Some(seat),
                    rule,
                    format!("the placement being resolved comes first ({})", self.await_text(s, a)),
                );
                false
            }
            _ if s.phase == Phase::End || (s.phase == Phase::Place && s.placements == 0) => {
                let rule = if s.placed >= 2 { r::HASTE_REPEAT } else { r::PLACE_MAIN_ACTION };
                self.report(s, f, Some(seat), rule, "one dwarf a turn, one more per Haste".into());
                s.phase = Phase::Place;
                s.placements = 1;
                true
            }
            _ => {
                self.report(s, f, Some(seat), r::TURN_PHASES, format!("not now ({})", self.await_text(s, a)));
                false
            }
        }
    }

    /// Take a dwarf off the campfire (reporting one that is not there).
    fn take_dwarf(&self, s: &mut State, f: &mut Findings, seat: u8, dwarf: Dwarf) {
        let p = s.player(seat);
        if p.campfire[dwarf.index()] == 0 {
            let rule = if dwarf != Dwarf::Plain && p.stash[dwarf.index()] {
                r::SETUP_PLAYER_KIT
            } else {
                r::PLACE_MAIN_ACTION
            };
            let why = if rule == r::SETUP_PLAYER_KIT {
                "is still in the stash (an upgrade brings it out)"
            } else {
                "is not on the campfire"
            };
            self.report(s, f, Some(seat), rule, format!("{}'s {dwarf} {why}", p.colour));
        }
        let p = s.player_mut(seat);
        p.campfire[dwarf.index()] = p.campfire[dwarf.index()].saturating_sub(1);
        s.placements = s.placements.saturating_sub(1);
        s.placed = s.placed.saturating_add(1);
    }

    /// The spot a raid on a tile takes (none in the Castle).
    pub(super) fn spot_for(&self, s: &State, seat: u8, tile: Tile) -> Option<u8> {
        if tile.is_castle() {
            None
        } else {
            self.raid_spot(s, seat, tile, true)
        }
    }

    /// The spot a raid takes: the leftmost empty one (with two players, the leftmost empty
    /// one with an available action, `two-player-spot`).
    fn raid_spot(&self, s: &State, seat: u8, tile: Tile, two_player: bool) -> Option<u8> {
        let scorched = s.tile(tile).scorched;
        let n = self.catalog.spots(tile, scorched).min(MAX_SPOTS);
        let spots = s.tile(tile).spots;
        let empty = (0..n).filter(move |&i| spots[i] == EMPTY);
        let plain = empty.clone().next().map(|i| i as u8);
        if !two_player || self.config.players != 2 {
            return plain;
        }
        let available = |i: usize| -> bool {
            let icons = self.catalog.spot(tile, scorched, i);
            match self.config.two_player_spot {
                TwoPlayerSpot::SkipBlank => !icons.is_empty(),
                TwoPlayerSpot::SkipBlocked => {
                    !icons.is_empty()
                        && !matches!(icons.first().map(|s| s.icon), Some(super::icon::Icon::Pay(g)) if s.player(seat).gem(g) == 0)
                }
            }
        };
        empty.clone().find(|&i| available(i)).map(|i| i as u8).or(plain)
    }

    #[allow(clippy::too_many_arguments)]
    fn raid(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        who: Colour,
        dwarf: Dwarf,
        tile: Tile,
        spot: Option<u8>,
    ) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        if !self.placement_turn(s, f, a, seat) {
            return Ok(());
        }
        let (zero_health, top, path_reset, footprint) = {
            let p = s.player(seat);
            (p.health.value == 0, p.top(), p.path_reset, p.footprint)
        };
        if zero_health {
            self.report_res(
                s,
                f,
                Some(seat),
                r::PLACE_ZERO_HEALTH,
                format!("{who} is at 0 health: the placement must be a Regroup"),
            );
        }
        // The line and the adjacency.
        let line = tile.line();
        let rider = self.rider(s, seat, dwarf);
        match top {
            None if line != 1 => {
                let rule = if path_reset { r::RETREAT_RETURN } else { r::RAID_FIRST_LINE };
                // Under `ff.retreat.return` when a retreat emptied the city: the log raids on as if
                // it had not brought the dwarfs home (the one way to break that rule, the retreat
                // itself being one record); the placement rule it leads to is l.174's.
                let why = if path_reset {
                    "the retreat brought every dwarf home, so the raid path starts again: this raid"
                } else {
                    "a player's first city dwarf"
                };
                self.report(
                    s,
                    f,
                    Some(seat),
                    rule,
                    format!("{why} goes on the Outskirts' bottom line, not {tile}"),
                );
            }
            None => {}
            Some(top) if top.tile.is_castle() => {
                self.report(s, f, Some(seat), r::RAID_CASTLE, "nothing is above the Castle".into());
            }
            Some(top) if line <= top.tile.line() => {
                self.report(
                    s,
                    f,
                    Some(seat),
                    r::RAID_NO_SAME_LINE,
                    format!(
                        "{who} has a dwarf on line {} ({}): never a second in a line or one below",
                        top.tile.line(),
                        top.tile
                    ),
                );
            }
            Some(top) if line > top.tile.line() + 1 => {
                let rule = if rider {
                    r::SPECIAL_DRAGONRIDER
                } else if footprint {
                    r::ICON_FOOTPRINT
                } else if tile.is_castle() {
                    r::RAID_CASTLE
                } else {
                    r::RAID_ADVANCE
                };
                let v = crate::Violation::new(
                    rule,
                    format!(
                        "the next raid goes exactly one line above {} (line {})",
                        top.tile,
                        top.tile.line()
                    ),
                );
                f.violate(self.unprinted_special(s, seat, dwarf, v));
            }
            Some(top) if !rider && !footprint && !top.tile.touches_above(tile) => {
                let rule = if tile.is_castle() { r::RAID_CASTLE } else { r::RAID_ADVANCE };
                let v = crate::Violation::new(
                    rule,
                    format!("{tile} does not touch {}, {who}'s topmost dwarf", top.tile),
                );
                f.violate(self.unprinted_special(s, seat, dwarf, v));
            }
            Some(_) => {}
        }
        // The spot.
        let at = if tile.is_castle() {
            At::Castle
        } else {
            let Some(derived) = self.raid_spot(s, seat, tile, true) else {
                self.report(s, f, Some(seat), r::RAID_LEFTMOST, format!("{tile} has no empty spot"));
                return Ok(());
            };
            let mut chosen = derived;
            if let Some(given) = spot.filter(|&g| g != derived) {
                let plain = self.raid_spot(s, seat, tile, false);
                let rule = if self.config.players == 2 && plain == Some(given) {
                    r::RAID_TWO_PLAYER
                } else {
                    r::RAID_LEFTMOST
                };
                self.report(
                    s,
                    f,
                    Some(seat),
                    rule,
                    format!("the dwarf takes spot {} of {tile}, not spot {}", derived + 1, given + 1),
                );
                let n = self.catalog.spots(tile, s.tile(tile).scorched).min(MAX_SPOTS);
                if (given as usize) < n && s.tile(tile).spots[given as usize] == EMPTY {
                    chosen = given;
                }
            }
            At::Tile { tile, spot: chosen }
        };
        self.take_dwarf(s, f, seat, dwarf);
        let spot_index = match at {
            At::Tile { spot, .. } => spot,
            _ => 0,
        };
        if let At::Tile { tile, spot } = at {
            s.tiles[tile.index()].spots[spot as usize] = seat;
        }
        let pl = s.player_mut(seat);
        let idx = (line as usize).clamp(1, 7) - 1;
        if let Some(old) = pl.city[idx] {
            // A second dwarf in a line (already reported): the earlier one goes home.
            pl.campfire[old.dwarf.index()] += 1;
        }
        pl.city[idx] = Some(CityDwarf { tile, dwarf, spot: spot_index });
        pl.footprint = false;
        pl.path_reset = false;
        s.stack.push(Frame::Placement(Placement {
            seat,
            dwarf,
            at,
            stage: self.first_stage(at),
            spot: spot_index,
            begun: false,
            picked: false,
            challenged: false,
            bank: 0,
        }));
        Ok(())
    }

    fn regroup(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        who: Colour,
        dwarf: Dwarf,
        given: Option<u8>,
    ) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        if !self.placement_turn(s, f, a, seat) {
            return Ok(());
        }
        let Some(spot) = self.free_board_spot(s, seat) else {
            self.report(s, f, Some(seat), r::REGROUP_LEFTMOST, format!("{who}'s board has no free spot"));
            return Ok(());
        };
        if let Some(g) = given.filter(|&g| g != spot) {
            self.report(
                s,
                f,
                Some(seat),
                r::REGROUP_LEFTMOST,
                format!("the dwarf takes the leftmost free spot, {}, not {}", spot + 1, g + 1),
            );
        }
        self.take_dwarf(s, f, seat, dwarf);
        s.player_mut(seat).board[spot as usize] = Some(dwarf);
        s.stack.push(Frame::Placement(Placement {
            seat,
            dwarf,
            at: At::Board { spot },
            stage: PStage::Ability,
            spot,
            begun: false,
            picked: false,
            challenged: false,
            bank: 0,
        }));
        Ok(())
    }

    fn challenge(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        who: Colour,
        foe: Foe,
    ) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        let key = foe_key(s, self, foe);
        let (bow, raid) = match a {
            Await::Bow(k) if k == seat => (true, false),
            Await::ChallengeOption(k) if k == seat => (false, true),
            _ if self.may_jump(s, &Event::Challenge { who, foe }) => (false, true),
            _ if self.misplaced_challenge(s, &Event::Challenge { who, foe }) => {
                let msg = match self.config.raid_spots {
                    RaidSpots::Interleave => {
                        "a spot's actions are performed one at a time (l.185): the raid's challenge comes \
                         before, between or after the spots, not in the middle of one"
                    }
                    RaidSpots::Block => {
                        "the spots are resolved as one block (`raid-spots=block`): the raid's challenge \
                         comes before or after them"
                    }
                };
                self.report(s, f, Some(seat), r::RAID_STEP3_ORDER, msg.into());
                (false, true)
            }
            _ => {
                self.report(
                    s,
                    f,
                    Some(seat),
                    r::RAID_CHALLENGE_OPTION,
                    format!("`challenge {who} {foe}` is not open now ({})", self.await_text(s, a)),
                );
                return Ok(());
            }
        };
        let adversary = match key {
            FoeKey::Dragon => Adversary::Dragon,
            FoeKey::Monster(card) => match s.monster_territory(card) {
                Some(territory) => Adversary::Monster { card, territory },
                None => {
                    let rule = if bow { r::ICON_BOW } else { r::CHALLENGE_TARGET };
                    self.report(s, f, Some(seat), rule, format!("`{foe}` is not a monster in the city"));
                    return Ok(());
                }
            },
            FoeKey::Unknown => return Err(StepError::new(format!("the catalog has no monster `{foe}`"))),
        };
        if raid {
            let p = s.placement().copied();
            let allowed = p.and_then(|p| self.raid_foe(s, &p));
            if allowed != Some(key) {
                self.report(
                    s,
                    f,
                    Some(seat),
                    r::CHALLENGE_TARGET,
                    "a raid challenges the monster on its own tile (the Dragon in the Castle)".into(),
                );
            }
        }
        if s.player(seat).health.value == 0 && self.config.challenge_at_zero == ChallengeAtZero::Forbidden {
            self.report_res(
                s,
                f,
                Some(seat),
                r::CHALLENGE_PASS_OUT,
                "at 0 health no challenge can be begun (`challenge-at-zero=forbidden`)".into(),
            );
            if bow {
                s.stack.pop();
            } else if let Some(p) = s.placement_mut() {
                p.challenged = true;
            }
            return Ok(());
        }
        let mut bank = 0;
        if bow {
            s.stack.pop();
        }
        if let Some(p) = s.placement_mut() {
            if raid {
                p.challenged = true;
            }
            bank = std::mem::take(&mut p.bank);
        }
        let strength = match adversary {
            Adversary::Dragon => match self.config.scenario {
                Scenario::S01 => self.catalog.scenario01.dragon.strength,
                Scenario::Free => self.catalog.dragon.strength,
            },
            Adversary::Monster { card, .. } => self.catalog.cards.get(card).map_or(1, |c| c.strength),
        };
        let taint = s.player(seat).taint;
        s.challenges.push(Challenge {
            seat,
            foe: adversary,
            strength,
            successes: bank,
            frenzy: 0,
            // Room for a challenge's usual cards at once, not grown from nothing card by card.
            played: Vec::with_capacity(16),
            pending: Vec::new(),
            end: None,
            stage: CStage::Running,
            taint,
        });
        s.stack.push(Frame::Challenge);
        Ok(())
    }

    fn reveal(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        who: Colour,
        card: Label,
    ) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        let id = self.card(card)?;
        if a != Await::Reveal(seat) {
            self.report(
                s,
                f,
                Some(seat),
                r::CHALLENGE_REVEAL,
                format!("`reveal {who} {card}`: {who} is not revealing cards ({})", self.await_text(s, a)),
            );
            return Ok(());
        }
        if let Err(m) = s.player_mut(seat).deck.reveal(id) {
            let p = s.player(seat);
            let forged = p.deck.discard.contains(&id)
                && self.catalog.cards.get(id).is_some_and(|c| c.kind == CardKind::Item);
            let rule = if forged { r::FORGE_TO_DISCARD } else { r::CHALLENGE_REVEAL };
            // Where the card's copies are instead, so the reader sees why none could come out:
            // a card the gang holds twice (two `strike`s) may have one copy revealed and the
            // other retired, and naming only the first would be false (audit r5 O5).
            let count = |v: &[CardId]| v.iter().filter(|c| **c == id).count();
            let played =
                s.challenges.iter().filter(|c| c.seat == seat).map(|c| count(&c.played)).sum::<usize>();
            let discarded = count(&p.deck.discard);
            let retired = count(&p.retired);
            let places = [
                (played, "revealed already in this challenge"),
                (discarded, "in the discard pile"),
                (retired, "retired"),
            ];
            let held: Vec<(usize, &str)> = places.into_iter().filter(|(n, _)| *n > 0).collect();
            let why = if forged {
                "a forged item goes to the discard pile, not the deck".to_string()
            } else if m == Misdraw::Empty {
                "the deck is empty".to_string()
            } else if held.len() > 1 {
                let parts: Vec<String> = held.iter().map(|(n, place)| format!("{n} {place}")).collect();
                format!("no copy of it is left in the deck: {}", parts.join(", "))
            } else if played > 0 {
                "it was revealed already in this challenge".to_string()
            } else if discarded > 0 {
                "it is in the discard pile, which becomes the deck only when the deck runs out in a challenge"
                    .to_string()
            } else if retired > 0 {
                "it is retired".to_string()
            } else {
                "it is not in the deck".to_string()
            };
            self.report(
                s,
                f,
                Some(seat),
                rule,
                format!("`{card}` cannot be revealed from {who}'s challenge deck: {why}"),
            );
        }
        let set_aside = self.config.frenzy_cards == FrenzyCards::SetAside;
        let Some(c) = s.challenges.last_mut() else { return Ok(()) };
        c.played.push(id);
        let paying = c.frenzy > 0;
        if paying {
            c.frenzy -= 1;
        }
        if !(paying && set_aside) {
            s.stack.push(Frame::Icons { seat, src: Src::Card(id), next: 0, sub: 0 });
        }
        Ok(())
    }

    fn forge(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        who: Colour,
        item: Label,
    ) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        let id = self.card(item)?;
        let Await::Forge { seat: k, .. } = a else {
            self.report(
                s,
                f,
                Some(seat),
                r::ICON_ANVIL,
                format!(
                    "`forge {who} {item}`: a forge comes from an anvil icon or a Relics reward ({})",
                    self.await_text(s, a)
                ),
            );
            return Ok(());
        };
        if k != seat {
            self.report(
                s,
                f,
                Some(seat),
                r::ICON_ANVIL,
                format!("the forge action is {}'s", s.player(k).colour),
            );
            return Ok(());
        }
        let Some(slot) = s.market.slot_of(id) else {
            self.report(s, f, Some(seat), r::FORGE_CHOOSE, format!("`{item}` is not face up in the Forge"));
            return Ok(());
        };
        let free = match s.stack.last() {
            Some(Frame::Forge { free, .. }) => *free,
            _ => 0,
        };
        let cost = &self.catalog.cards[id].cost;
        if free > 0 && cost.len() > free as usize && self.config.relics_forge == RelicsForge::MulticolourOnly
        {
            self.report_res(
                s,
                f,
                Some(seat),
                r::RESEARCH_RELICS,
                format!(
                    "`{item}` costs {} gems: the Relics forge is paid by its {free} multicolour gem(s) alone \
                     (`relics-forge=multicolour-only`)",
                    cost.len()
                ),
            );
        }
        // Multicolour gems first, then the stash, gem for gem. Which colours they stand for is
        // the player's choice and the log does not say: first those the stash lacks (the
        // choice that makes the forge legal when one does), then in gem order.
        let mut need = [0u8; 3];
        for g in cost {
            need[g.index()] += 1;
        }
        let mut multi = free;
        for g in Gem::ALL {
            let lack = need[g.index()].saturating_sub(s.player(seat).gem(*g));
            let covered = lack.min(multi);
            multi -= covered;
            need[g.index()] -= covered;
        }
        let mut short = Vec::new();
        for g in Gem::ALL {
            let mut n = need[g.index()];
            let covered = n.min(multi);
            multi -= covered;
            n -= covered;
            let have = s.player(seat).gem(*g);
            if have < n {
                short.push(format!("{} {g}", n - have));
            }
            let paid = n.min(have);
            s.player_mut(seat).gems[g.index()] -= paid;
            s.supply[g.index()] += paid;
        }
        if !short.is_empty() {
            self.report_res(
                s,
                f,
                Some(seat),
                r::FORGE_EXACT,
                format!(
                    "`{item}` costs {}: {who} lacks {}",
                    gems_text(&self.catalog.cards[id].cost),
                    short.join(", ")
                ),
            );
        }
        s.market.take(slot);
        s.player_mut(seat).deck.discard(id);
        if let Some(Frame::Forge { stage, item, .. }) = s.stack.last_mut() {
            *stage = FStage::Refill;
            *item = Some(id);
        }
        Ok(())
    }

    fn research(
        &self,
        s: &mut State,
        f: &mut Findings,
        a: Await,
        who: Colour,
        subject: Option<(Subject, u8)>,
        exchange: Option<(Gem, Gem, Gem)>,
    ) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        let Await::Research { seat: k, .. } = a else {
            let rule = match a {
                Await::Forge { .. } if exchange.is_some() => r::FORGE_NO_EXCHANGE,
                _ if s.placement().is_some_and(|p| p.dwarf == Dwarf::Alchemist && self.past_ability(p)) => {
                    r::SPECIAL_ALCHEMIST
                }
                _ => r::ICON_RESEARCH,
            };
            self.report(
                s,
                f,
                Some(seat),
                rule,
                format!("no research action is open ({})", self.await_text(s, a)),
            );
            return Ok(());
        };
        if k != seat {
            self.report(
                s,
                f,
                Some(seat),
                r::ICON_RESEARCH,
                format!("the research action is {}'s", s.player(k).colour),
            );
            return Ok(());
        }
        if let Some((x, y, z)) = exchange {
            let mut give = [x, y];
            give.sort_unstable();
            let rule = self.catalog.exchanges.iter().find(|e| e.give == give && e.get == z);
            let mut need = [0u8; 3];
            need[x.index()] += 1;
            need[y.index()] += 1;
            let held = (0..3).all(|i| s.player(seat).gems[i] >= need[i]);
            match rule {
                Some(_) if held => {
                    let p = s.player_mut(seat);
                    for (held, n) in p.gems.iter_mut().zip(need) {
                        *held -= n;
                    }
                    p.gems[z.index()] += 1;
                    for (pile, n) in s.supply.iter_mut().zip(need) {
                        *pile += n;
                    }
                    s.supply[z.index()] = s.supply[z.index()].saturating_sub(1);
                }
                Some(_) => self.report_res(
                    s,
                    f,
                    Some(seat),
                    r::RESEARCH_TRANSMUTE,
                    format!("{who} does not hold {x} and {y}"),
                ),
                None => self.report_res(
                    s,
                    f,
                    Some(seat),
                    r::RESEARCH_TRANSMUTE,
                    format!("the Library has no exchange {x}+{y}->{z}"),
                ),
            }
        }
        let Some((subject, recorded)) = subject else {
            s.stack.pop();
            return Ok(());
        };
        let level = s.player(seat).books[subject.index()];
        let top = self.catalog.top_level(subject);
        if level >= top {
            self.report(
                s,
                f,
                Some(seat),
                r::RESEARCH_FUND,
                format!("{who}'s book token is at the top of {subject}"),
            );
            s.stack.pop();
            return Ok(());
        }
        // From no token (`book-tokens=single`) a research brings one to the first level, for
        // the subject's first funding cost.
        let next = level + 1;
        let cost = self.catalog.level(subject, next.max(2)).and_then(|l| l.cost);
        if let Some(g) = cost {
            if s.player(seat).gem(g) == 0 {
                self.report_res(
                    s,
                    f,
                    Some(seat),
                    r::RESEARCH_FUND,
                    format!("the step to {subject} level {next} is funded with a {g} gem, which {who} lacks"),
                );
            } else {
                s.player_mut(seat).gems[g.index()] -= 1;
                s.supply[g.index()] += 1;
            }
        }
        let mut reached = next;
        if recorded != next {
            // A research moves a token "to the next step" (l.288), so a token on the Library
            // that reaches another level breaks the research rule, wherever it started. Only a
            // subject with no token yet (`book-tokens=single`) says something of the setup: a
            // log recording a level past the first assumes a token was set on it (l.99).
            let rule = if level == 0 { r::SETUP_BOOK } else { r::RESEARCH_FUND };
            self.report(
                s,
                f,
                Some(seat),
                rule,
                format!("one step up {subject} from level {level} reaches level {next}, not {recorded}"),
            );
            reached = recorded.clamp(1, top);
        }
        let p = s.player_mut(seat);
        p.books[subject.index()] = reached;
        p.best[subject.index()] = p.best[subject.index()].max(reached);
        if let Some(Frame::Research { stage, .. }) = s.stack.last_mut() {
            *stage = RStage::Reward { subject, level: reached };
        }
        Ok(())
    }

    fn pass(&self, s: &mut State, f: &mut Findings, a: Await, who: Colour) -> Result<(), StepError> {
        let seat = self.seat(s, who)?;
        let mine = |k: u8| k == seat;
        let free_forge = matches!(s.stack.last(), Some(Frame::Forge { free, .. }) if *free > 0);
        if self.won_pending(s) == Some(seat) {
            // "Then finally you may resolve all the cards that you played" (l.255).
            match self.config.win_pending {
                WinPending::May => {
                    s.stack.pop();
                }
                WinPending::Must => self.report(
                    s,
                    f,
                    Some(seat),
                    r::CHALLENGE_WIN_PENDING,
                    "a won challenge's pending actions are resolved (`win-pending=must`)".into(),
                ),
            }
            return Ok(());
        }
        if self.haste_owed(s) == Some(seat) {
            // l.213 "you may do this multiple times if able" (`haste`).
            match self.config.haste {
                Haste::May => s.placements -= 1,
                Haste::Must => self.report(
                    s,
                    f,
                    Some(seat),
                    r::ICON_HASTE,
                    "a Haste placement is made (`haste=must`)".into(),
                ),
            }
            return Ok(());
        }
        if self.relics_events_open(s) == Some(seat) {
            // l.318 "items forged this way may Discard events as normal" (`relics-events`).
            match self.config.relics_events {
                RelicsEvents::May => {
                    if let Some(Frame::Forge { stage: FStage::Events { left, .. }, .. }) = s.stack.last_mut() {
                        *left = [0; 3];
                    }
                }
                RelicsEvents::Must => self.report(
                    s,
                    f,
                    Some(seat),
                    r::FORGE_EVENTS,
                    "a Relics forge's item discards its matching events as a forge's do (`relics-events=must`)"
                        .into(),
                ),
            }
            return Ok(());
        }
        if self.retreat_placement_owed(s) == Some(seat) {
            // l.203 "you will still resolve your action afterward normally" against l.211 "they
            // may place a dwarf afterward" (`retreat-placement`).
            match self.config.retreat_placement {
                RetreatPlacement::May => s.placements -= 1,
                RetreatPlacement::Must => self.report(
                    s,
                    f,
                    Some(seat),
                    r::RETREAT_FREE,
                    "retreating is not an action: the placement still follows (`retreat-placement=must`)"
                        .into(),
                ),
            }
            return Ok(());
        }
        match a {
            Await::Forge { seat: k, .. } if mine(k) && free_forge => {
                // No face-up item the Relics forge's gems (and, under `with-stash`, the stash)
                // can pay: there is nothing the forge can take.
                if !self.relics_out_of_reach(s) {
                    self.report(
                        s,
                        f,
                        Some(seat),
                        r::RESEARCH_RELICS,
                        "a Relics forge spot gives a forge at once, with its multicolour gems".into(),
                    );
                }
                s.stack.pop();
            }
            Await::Forge { seat: k, .. }
            | Await::Research { seat: k, .. }
            | Await::Bow(k)
            | Await::Upgrade { seat: k, optional: true }
                if mine(k) =>
            {
                s.stack.pop();
            }
            Await::ChallengeOption(k) if mine(k) => {
                if let Some(p) = s.placement_mut() {
                    p.challenged = true;
                }
            }
            Await::Upgrade { seat: k, optional: false } if mine(k) => {
                self.report(
                    s,
                    f,
                    Some(seat),
                    r::RESEARCH_LEGENDS,
                    "a Legends upgrade spot replaces a campfire dwarf at once".into(),
                );
                s.stack.pop();
            }
            Await::Retire(k) if mine(k) => {
                self.report(s, f, Some(seat), r::ICON_TANKARD, "a tankard retires a card".into());
                s.stack.pop();
            }
            Await::Reveal(k) if mine(k) => {
                self.report(
                    s,
                    f,
                    Some(seat),
                    r::CHALLENGE_REVEAL,
                    "a challenge goes on until the player flees, passes out or wins (`flee`)".into(),
                );
            }
            _ => {
                let rule = self.await_rule(s, a);
                self.report(
                    s,
                    f,
                    Some(seat),
                    rule,
                    format!("`pass {who}`: nothing {who} may decline is open ({})", self.await_text(s, a)),
                );
            }
        }
        Ok(())
    }
}

/// A challenge's adversary, resolved against the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FoeKey {
    Monster(CardId),
    Dragon,
    Unknown,
}

fn foe_key(_s: &State, g: &FlameAndForge, foe: Foe) -> FoeKey {
    match foe {
        Foe::Dragon => FoeKey::Dragon,
        Foe::Monster(l) => g.catalog.names.cards.get(l).map_or(FoeKey::Unknown, FoeKey::Monster),
    }
}

fn gems_text(gems: &[Gem]) -> String {
    gems.iter().map(|g| g.name()).collect::<Vec<_>>().join(" ")
}

/// What `stray_decision` made of a decision recorded while consequences are owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stray {
    /// Not stray: the consequences are flushed as left out and the decision judged.
    No,
    /// Reported once, the table left as it was.
    Ignored,
    /// A `pass` where a compulsory step is owed: reported once, the step made.
    Declined,
}

/// What `late_refill` made of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Late {
    /// Not a late refill: judged as any record.
    No,
    /// The first event of a late refill: the stage changed, judged against it.
    Rederive,
    /// A health ahead of its event: reported and applied.
    Applied,
}
