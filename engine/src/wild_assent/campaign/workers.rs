//! Workers: the setup's draw of three (none of the 2-gold ones) and the one kept; the
//! Markets' one hiring attempt of two cards (each draw exactly that many, fewer only when
//! the Worker deck holds fewer: checked from below when a Worker is hired or the visit
//! ends); the slots (two, more with the Barracks, six at most) and the Worker discarded to
//! the box when they are full. The deck is every Worker not hired, not in the box and not in
//! a draw under way: its order is hidden, so only membership is checked. A Worker drawn at
//! the Markets and left unhired goes, as the visit ends, back into the deck or to the box
//! (interpretation `unhired-workers`: the book is silent).

use super::super::event::Lineup;
use super::{at_level, Building, Stage};
use crate::kit::name::Name;
use crate::wild_assent::rules::{self, UnhiredWorkers, WorkerReplace};
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;
use crate::{Findings, StepError, Violation};

impl WildAssent {
    /// Worker slots this phase.
    pub(super) fn slots(&self, camp: &super::Camp) -> usize {
        let card = self.camp_catalog.building(Building::Barracks);
        usize::from(at_level(card.slots, camp.level(Building::Barracks).max(1)).clamp(2, 6))
    }

    /// How many Workers the draw under way owes: three at setup (from the Workers that do not
    /// cost 2 gold), two at the Markets, fewer only when the deck held fewer as it began.
    /// The deck as the draw began is every Worker not hired and not in the box, with the ones
    /// this draw took counted back in (hired ones moved to `workers`, the rest in `drawn`).
    pub(super) fn worker_draw_owed(&self, camp: &super::Camp) -> usize {
        let setup = camp.stage == Stage::Setup;
        let deck = self
            .camp_catalog
            .workers
            .iter()
            .filter(|(id, _, w)| {
                (!setup || w.cost < 2) && !camp.workers.contains(id) && !camp.boxed.contains(id)
            })
            .count();
        if setup {
            return deck.min(3);
        }
        let out = camp.drawn.len();
        let this = camp.market.map_or(0, |v| usize::from(v.drawn));
        (deck.saturating_sub(out) + this).min(2)
    }

    /// A draw cut short (1 of 2, 1 or 2 of 3 with more in the deck): the finding, under the
    /// draw's rule, when `so_far` Workers were drawn (none drawn is no attempt at all). The
    /// number the draw owed, either way.
    pub(super) fn short_worker_draw(&self, camp: &super::Camp, so_far: usize, f: &mut Findings) -> usize {
        let owed = self.worker_draw_owed(camp);
        if so_far == 0 || so_far >= owed {
            return owed;
        }
        let (rule, what) = if camp.stage == Stage::Setup {
            (rules::SETUP_WORKERS, "the setup draws three Workers")
        } else {
            (rules::MARKET_HIRE, "a hiring attempt draws two Workers")
        };
        f.violate(Violation::new(
            rule,
            format!(
                "{what} (fewer only when the deck holds fewer): {owed} are owed, and {so_far} were drawn"
            ),
        ));
        owed
    }

    /// As a visit to the Markets (or the phase) ends: the Workers it drew and did not hire
    /// leave the draw, back into the deck or to the box (`unhired-workers`).
    pub(super) fn end_worker_draw(&self, camp: &mut super::Camp) {
        if self.params.unhired_workers == UnhiredWorkers::Box && camp.stage != Stage::Setup {
            camp.boxed.extend(camp.drawn.iter().copied());
        }
        camp.drawn.clear();
    }

    /// `worker-draw W...`: at setup three, at the Markets two (the visit's one attempt).
    pub(super) fn worker_draw(
        &self,
        s: &mut State,
        cards: &Lineup,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let stage = s.camp.as_ref().map_or(Stage::Setup, |c| c.stage);
        let (rule, want) =
            if stage == Stage::Setup { (rules::SETUP_WORKERS, 3) } else { (rules::MARKET_HIRE, 2) };
        if stage != Stage::Setup && !self.at_market(s, &format!("worker-draw {cards}"), f) {
            return Ok(());
        }
        let mut ids = Vec::new();
        for n in cards.iter() {
            let id = self
                .camp_catalog
                .workers
                .id(n.as_str())
                .ok_or_else(|| StepError::new(format!("no Worker card `{n}`")))?;
            ids.push(id);
        }
        let camp = self.camp(s)?;
        let so_far = if stage == Stage::Setup {
            camp.drawn.len()
        } else {
            camp.market.map_or(0, |v| usize::from(v.drawn))
        };
        let mut why = None;
        // A second setup draw after a Worker was kept is not played out.
        let again = stage == Stage::Setup && camp.kept;
        if again {
            why = Some("the setup's three Workers are drawn once".to_string());
        } else if so_far + ids.len() > want {
            why = Some(if stage == Stage::Setup {
                "the setup draws three Workers".to_string()
            } else {
                "a visit makes one hiring attempt: two Workers drawn".to_string()
            });
        }
        for &id in &ids {
            if why.is_some() {
                break;
            }
            let n = self.camp_catalog.workers.name(id);
            if camp.workers.contains(&id) || camp.boxed.contains(&id) || camp.drawn.contains(&id) {
                why = Some(format!("`{n}` is not in the Worker deck (hired, drawn or in the box)"));
            } else if stage == Stage::Setup && self.camp_catalog.workers[id].cost >= 2 {
                why = Some(format!("`{n}` costs 2 gold: those are set aside until the setup's draw is done"));
            }
        }
        if let Some(why) = why {
            f.violate(Violation::new(rule, format!("`worker-draw {cards}`: {why}")));
            if again {
                return Ok(());
            }
        }
        // Reported once; the cards are drawn as recorded (those still in the deck: a card
        // hired, in the box or drawn already is not drawn again), so that the Worker kept or
        // hired from them is checked as played.
        let mut n = 0u8;
        for id in ids {
            if !camp.workers.contains(&id) && !camp.boxed.contains(&id) && !camp.drawn.contains(&id) {
                camp.drawn.push(id);
                n = n.saturating_add(1);
            }
        }
        if let Some(v) = camp.market.as_mut() {
            v.drawn = v.drawn.saturating_add(n);
        }
        Ok(())
    }

    /// `hire W [replacing V]`: a drawn Worker kept at setup (free), or hired at the Markets
    /// at its cost; into full slots only by discarding a hired Worker to the box.
    pub(super) fn hire(
        &self,
        s: &mut State,
        worker: Name,
        replacing: Option<Name>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let stage = s.camp.as_ref().map_or(Stage::Setup, |c| c.stage);
        let rule = if stage == Stage::Setup { rules::SETUP_WORKERS } else { rules::MARKET_HIRE };
        if stage != Stage::Setup && !self.at_market(s, &format!("hire {worker}"), f) {
            return Ok(());
        }
        let id = self
            .camp_catalog
            .workers
            .id(worker.as_str())
            .ok_or_else(|| StepError::new(format!("no Worker card `{worker}`")))?;
        let slots = s.camp.as_ref().map_or(2, |c| self.slots(c));
        // The draw is complete before a Worker is kept or hired (reported, the hire stands,
        // and at the Markets the attempt counts as made: no more cards are drawn in it).
        if let Some(c) = s.camp.as_deref() {
            let so_far = if stage == Stage::Setup {
                c.drawn.len()
            } else {
                c.market.map_or(0, |v| usize::from(v.drawn))
            };
            if so_far > 0 && !(stage == Stage::Setup && c.kept) {
                let owed = self.short_worker_draw(c, so_far, f);
                if let Some(v) = s.camp.as_deref_mut().and_then(|c| c.market.as_mut()) {
                    v.drawn = v.drawn.max(owed.min(2) as u8);
                }
            }
        }
        let camp = self.camp(s)?;
        let cost = if stage == Stage::Setup { 0 } else { u32::from(self.camp_catalog.workers[id].cost) };
        // At setup the draw stays known until the first Season (`drawn`), so a second Worker
        // kept is reported as that, and applied as played when it was drawn.
        let why = if stage == Stage::Setup && camp.kept {
            let first = camp.workers.first().map_or("", |&w| self.camp_catalog.workers.name(w));
            Some(format!("one of the setup's three Workers is kept, and `{first}` was"))
        } else if !camp.drawn.contains(&id) {
            Some(format!("`{worker}` is not among the Workers drawn"))
        } else {
            None
        };
        if let Some(why) = why {
            f.violate(Violation::new(rule, format!("`hire {worker}`: {why}")));
        }
        // A Worker hired already is in the Encampment as it was: nothing to apply. Any other
        // one never drawn (still in the deck, or in the box) is reported once above and
        // applied as recorded (rules version 19; before, the hire was dropped and the setup's
        // keep was reported missing again at the pick), so the rest of the log is checked as
        // the table played it.
        if camp.workers.contains(&id) {
            return Ok(());
        }
        let out = match replacing {
            // `worker-replace`: the book asks for a discard when the slots are full and
            // forbids none otherwise (`any-time`), or a discard only makes room (`when-full`).
            Some(v)
                if self.params.worker_replace == WorkerReplace::WhenFull && camp.workers.len() < slots =>
            {
                f.violate(Violation::new(
                    rules::WORKER_SLOTS,
                    format!(
                        "`hire {worker} replacing {v}`: {} of the Encampment's {slots} Worker slots are taken, and a Worker is discarded only to make room",
                        camp.workers.len()
                    ),
                ));
                return Ok(());
            }
            Some(v) => match self.camp_catalog.workers.id(v.as_str()).filter(|w| camp.workers.contains(w)) {
                Some(w) => Some(w),
                None => {
                    f.violate(Violation::new(rules::WORKER_SLOTS, format!("`{v}` is no hired Worker")));
                    return Ok(());
                }
            },
            None if camp.workers.len() >= slots => {
                f.violate(Violation::new(
                    rules::WORKER_SLOTS,
                    format!("the Encampment's {slots} Worker slots are full: hiring `{worker}` discards a Worker (`replacing`)"),
                ));
                return Ok(());
            }
            None => None,
        };
        if camp.gold < cost {
            f.violate(Violation::new(
                rule,
                format!("`hire {worker}`: it costs {cost} gold; the Encampment has {}", camp.gold),
            ));
            return Ok(());
        }
        if let Some(w) = out {
            camp.workers.retain(|x| *x != w);
            camp.boxed.push(w);
        }
        camp.gold -= cost;
        camp.drawn.retain(|x| *x != id);
        camp.boxed.retain(|x| *x != id);
        camp.workers.push(id);
        if stage == Stage::Setup {
            // The other two go back, shuffled with the 2-gold ones, into the deck as the first
            // Season begins (`season.rs` clears the draw then).
            camp.kept = true;
        }
        Ok(())
    }
}
