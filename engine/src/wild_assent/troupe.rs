//! Troupe building (Arena, `scope=match`): each player lays out a troupe, its Assent on the
//! far left and its Creatures to the right in the order they will activate for the whole
//! match (`troupe SIDE ASSENT CREATURE...`); each Assent takes two of its own five Skill
//! cards (`skills ASSENT S1 S2`) and its Equipment in slots whose symbols match (`equip`).
//! A `scope=combat` position may state an Assent's Skill cards in force too (`skills ASSENT
//! S1 [S2]`, before `begin`: one or both), so that a worked example's selected Skill applies.
//! When the draft is recorded, a troupe holds only its side's drafted cards, and every
//! drafted Creature is in a troupe by `begin`. Four players lay out two troupes a side.
//! Without a recorded draft each Assent still carries two Equipment cards by `begin`
//! (interpretation `assent-equipment`, default `two`: "Each Assent needs two Equipment
//! cards"; `draft-only` leaves a selected troupe's number free).
//! An attack with a weapon uses the weapon's numbers and armor adds to both defenses (the
//! combat core computes them from the card); a recorded number that the wielder's own Base
//! Damage or Attack Dice, or the armor left out, explains is reported under the Equipment
//! rule.

use super::cards::{EquipType, UnitKind};
use super::effect::Effect;
use super::event::Lineup;
use super::rules::{self, Mode, Scope};
use super::state::arena::{Pick, Troupe};
use super::state::{Attack, Phase, Side, Source, State, UnitIx};
use super::WildAssent;
use crate::kit::catalog::Id;
use crate::kit::name::Name;
use crate::{Findings, StepError, Violation};

impl WildAssent {
    fn troupe_time(&self, s: &State, what: &str) -> Result<(), StepError> {
        if self.params.mode != Mode::Arena || self.params.scope != Scope::Match {
            return Err(StepError::new(format!("`{what}` builds an Arena troupe (mode=arena scope=match)")));
        }
        if s.phase != Phase::Setup {
            return Err(StepError::new(format!("`{what}` belongs to the setup, before `begin`")));
        }
        Ok(())
    }

    /// The side that drafted `card`, when the draft is recorded and it was picked.
    /// The side recorded with the pick, whatever its turn: a pick out of turn is one finding
    /// at the pick, and the card is the picker's.
    pub(crate) fn drafted_by(&self, s: &State, card: &Name) -> Option<Side> {
        s.draft.first?;
        let n = s.draft.picks.iter().position(|p| p == card)?;
        s.draft.sides.get(n).copied()
    }

    /// Whether `card` is not among `side`'s drafted cards, a pick the log left out aside (it
    /// was reported at the pick after it, and the card it took is taken as this one).
    fn undrafted(&self, s: &State, card: &Name, side: Side) -> bool {
        self.drafting(s)
            && self.drafted_by(s, card) != Some(side)
            && !(s.draft.picks.iter().all(|p| p != card)
                && self.pick_kind(card).is_ok_and(|k| self.pick_left_out(s, side, k)))
    }

    /// Whether a draft was recorded (its roll at least).
    pub(crate) fn drafting(&self, s: &State) -> bool {
        s.draft.first.is_some() || !s.draft.picks.is_empty()
    }

    /// `troupe SIDE ASSENT CREATURE...`.
    #[cold]
    #[inline(never)]
    pub(crate) fn troupe(
        &self,
        s: &mut State,
        side: Side,
        cards: Lineup,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        self.troupe_time(s, "troupe")?;
        // The draft is over when the troupes are laid out: its last pick left out is found
        // here, once (a pick left out before another was found at that one).
        if s.troupes.troupes.is_empty() {
            self.draft_unfinished(s, f);
        }
        let units = self.catalog.units(true);
        let mut kinds = Vec::new();
        for n in cards.iter() {
            let id = units
                .id(n.as_str())
                .ok_or_else(|| StepError::new(format!("no Assent or Gladiator `{n}` in the catalog")))?;
            kinds.push((n, units[id].kind));
        }
        // One Assent written among its Creatures is one finding (the Assent is on the far
        // left, l.379): the card says which it is, so the troupe is read as that Assent and
        // then its Creatures in the order written.
        let assents = kinds.iter().filter(|(_, k)| *k == UnitKind::Assent).count();
        if assents == 1 && kinds.first().is_some_and(|(_, k)| *k != UnitKind::Assent) {
            let k = kinds.iter().position(|(_, k)| *k == UnitKind::Assent).unwrap_or(0);
            let assent = kinds.remove(k);
            f.violate(Violation::new(
                rules::TROUPE_ORDER,
                format!("a troupe's Assent is on the far left (Assents activate first): `{}` is written after `{}`", assent.0, kinds[0].0),
            ));
            kinds.insert(0, assent);
        }
        let mut names = Vec::new();
        for (k, (n, kind)) in kinds.into_iter().enumerate() {
            let want = if k == 0 { UnitKind::Assent } else { UnitKind::Gladiator };
            if kind != want {
                let msg = if k == 0 {
                    format!("a troupe's Assent is on the far left: `{n}` is no Assent")
                } else {
                    let kind = kind.to_string();
                    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                    format!("`{n}` is {article} {kind}: only Creatures follow the Assent")
                };
                f.violate(Violation::new(rules::TROUPE_ORDER, msg));
            }
            if s.troupes.of(&n).is_some() || names.contains(&n) {
                f.violate(Violation::new(rules::TROUPE_ORDER, format!("`{n}` is in a troupe already")));
            }
            if self.undrafted(s, &n, side) {
                f.violate(Violation::new(
                    rules::TROUPE_DRAFTED,
                    format!("`{n}` is not one of {side}'s drafted cards"),
                ));
            }
            names.push(n);
        }
        let per_side = usize::from(self.params.players / 2);
        if s.troupes.troupes.iter().filter(|t| t.side == side).count() >= per_side {
            f.violate(Violation::new(
                rules::TROUPE_ORDER,
                format!(
                    "{side} has laid out its {per_side} troupe(s) already: the order is kept for the match"
                ),
            ));
        }
        s.troupes.troupes.push(Troupe { side, cards: names });
        Ok(())
    }

    /// `skills ASSENT S1 S2`.
    #[cold]
    #[inline(never)]
    pub(crate) fn choose_skills(
        &self,
        s: &mut State,
        unit: Name,
        skills: Lineup,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        // A match's troupe building, or (`scope=combat`) the Skill cards in force in the
        // recorded position: "During setup he selected his Onslaught Skill" (Arena Example 9).
        let combat = self.params.mode == Mode::Arena && self.params.scope == Scope::Combat;
        if combat {
            if s.phase != Phase::Setup {
                return Err(StepError::new("`skills` belongs to the setup, before `begin`"));
            }
        } else {
            self.troupe_time(s, "skills")?;
        }
        let units = self.catalog.units(true);
        let id = units
            .id(unit.as_str())
            .filter(|&i| units[i].kind == UnitKind::Assent)
            .ok_or_else(|| StepError::new(format!("`{unit}` is no Assent of the catalog")))?;
        let card = &units[id];
        let mut chosen = Vec::new();
        for k in skills.iter() {
            let sid = self
                .catalog
                .skills
                .id(k.as_str())
                .ok_or_else(|| StepError::new(format!("no skill `{k}` in the catalog")))?;
            if !card.skill_cards.contains(&sid) {
                f.violate(Violation::new(
                    rules::TROUPE_SKILLS,
                    format!("`{k}` is not one of {unit}'s Skill cards"),
                ));
            }
            if chosen.contains(&sid) {
                f.violate(Violation::new(rules::TROUPE_SKILLS, format!("`{k}` is taken twice")));
            }
            chosen.push(sid);
        }
        // A combat's position may state only the cards that matter to it.
        if chosen.len() != 2 && !(combat && chosen.len() == 1) {
            f.violate(Violation::new(
                rules::TROUPE_SKILLS,
                format!("{unit} takes exactly two of its Skill cards, not {}", chosen.len()),
            ));
        }
        if s.troupes.skills.iter().any(|(n, _)| *n == unit) {
            f.violate(Violation::new(
                rules::TROUPE_SKILLS,
                format!("{unit} has chosen its Skill cards already"),
            ));
            return Ok(());
        }
        s.troupes.skills.push((unit, chosen));
        Ok(())
    }

    /// The Skill cards an Assent took into the match.
    pub(crate) fn chosen_skills(&self, s: &State, i: UnitIx) -> Vec<Id<super::cards::Skill>> {
        let name = s.unit(i).name;
        s.troupes.skills.iter().find(|(n, _)| *n == name).map(|(_, k)| k.clone()).unwrap_or_default()
    }

    /// An Arena match's `equip`: the card is the Assent's side's, and fits a free slot.
    pub(crate) fn check_equip(&self, s: &State, u: UnitIx, card: Name, f: &mut Findings) {
        if self.params.scope != Scope::Match {
            return;
        }
        let unit = s.unit(u);
        if self.undrafted(s, &card, unit.side) {
            f.violate(Violation::new(
                rules::TROUPE_DRAFTED,
                format!("`{card}` is not one of {}'s drafted Equipment cards", unit.side),
            ));
        }
        let Some(eq) = self.catalog.equipment.id(card.as_str()) else { return };
        let Some(kind) = self.catalog.equipment[eq].equip_type else { return };
        let slots = self.catalog.units(true)[unit.card].slots;
        // The cards already carried and this one must each find a slot of their own.
        let mut types: Vec<EquipType> =
            unit.equipment.iter().flatten().filter_map(|e| self.catalog.equipment[*e].equip_type).collect();
        types.push(kind);
        let fit = |t: EquipType, k: usize| slots[k] == EquipType::Any || slots[k] == t;
        let fits = match types.as_slice() {
            [a] => fit(*a, 0) || fit(*a, 1),
            [a, b] => (fit(*a, 0) && fit(*b, 1)) || (fit(*a, 1) && fit(*b, 0)),
            _ => true,
        };
        if !fits {
            f.violate(Violation::new(
                rules::EQUIP_SLOT,
                format!(
                    "{} has no free slot for {kind} Equipment (its slots: {}, {})",
                    unit.name, slots[0], slots[1]
                ),
            ));
        }
    }

    /// (Arena) A weapon's attack: the wielder's own Base Damage (a damage recorded with it
    /// instead of the weapon's breaks `wa.arena.equip.weapon`).
    pub(crate) fn weapon_base(&self, s: &State, a: &Attack) -> Option<i32> {
        let Source::Equipment(id) = a.source else { return None };
        if self.params.mode != Mode::Arena || self.catalog.equipment[id].attack.is_none() {
            return None;
        }
        self.catalog.units(true)[s.unit(a.attacker).card].attack.map(|p| p.damage)
    }

    /// (Arena) A weapon's attack rolled with the wielder's own Attack Dice.
    pub(crate) fn weapon_dice_mistaken(&self, s: &State, a: &Attack, n: u8) -> bool {
        self.weapon_base(s, a).is_some()
            && self.catalog.units(true)[s.unit(a.attacker).card].attack.is_some_and(|p| p.dice == n)
    }

    /// (Arena) The defense the miniature's armor (Equipment of type `armor`) adds to both.
    pub(crate) fn armor_bonus(&self, s: &State, i: UnitIx) -> i32 {
        if self.params.mode != Mode::Arena {
            return 0;
        }
        let armor = s.unit(i).equipment.into_iter().flatten().map(|id| &self.catalog.equipment[id]);
        armor
            .filter(|k| k.equip_type == Some(EquipType::Armor))
            .flat_map(|k| k.effects.effects.iter())
            .map(|e| if let Effect::Defense(n) = e { *n } else { 0 })
            .sum()
    }

    /// At `begin`: every troupe laid out, every drafted Creature in one, every Assent's
    /// Skill cards chosen.
    pub(crate) fn troupes_complete(&self, s: &State, f: &mut Findings) {
        if self.params.scope != Scope::Match {
            return;
        }
        let per_side = usize::from(self.params.players / 2);
        for side in [Side::Red, Side::Blue] {
            let n = s.troupes.troupes.iter().filter(|t| t.side == side).count();
            if n != per_side {
                f.violate(Violation::new(
                    rules::TROUPE_ORDER,
                    format!("{side} lays out {per_side} troupe(s) (`troupe`), not {n}"),
                ));
            }
        }
        if self.drafting(s) {
            for card in s.draft.picks.iter() {
                let kind = self.pick_kind(card).ok();
                let creature = matches!(kind, Some(Pick::Large | Pick::Medium | Pick::Assent));
                if creature && s.troupes.of(card).is_none() {
                    f.violate(Violation::new(
                        rules::TROUPE_DRAFTED,
                        format!("the drafted `{card}` is in no troupe"),
                    ));
                }
                // "Each Assent needs two Equipment cards" (Drafting) and "Place your Equipment
                // cards on your Assent's Equipment Slots" (Final Setup): a drafted card is carried.
                let equipment = kind == Some(Pick::Equipment);
                let carried = self
                    .catalog
                    .equipment
                    .id(card.as_str())
                    .is_some_and(|e| s.units.iter().any(|u| u.equipment.contains(&Some(e))));
                // Only a card its side's Assents have a free slot for: one that fits none was
                // drafted to no use, and placing it would break wa.arena.equip.slot instead.
                let placeable = equipment
                    && !carried
                    && s.indices().any(|u| {
                        let x = s.unit(u);
                        let mut g = Findings::default();
                        if x.kind != UnitKind::Assent
                            || self.drafted_by(s, card) != Some(x.side)
                            || x.equipment.iter().all(Option::is_some)
                        {
                            return false;
                        }
                        self.check_equip(s, u, *card, &mut g);
                        g.is_clean()
                    });
                if placeable {
                    f.violate(Violation::new(
                        rules::TROUPE_DRAFTED,
                        format!("the drafted Equipment `{card}` is on no Assent's Equipment slot (`equip`)"),
                    ));
                }
            }
        }
        // Selected troupes (no draft recorded): "Each Assent needs two Equipment cards" under
        // the default reading (`assent-equipment=two`). With a draft, carrying the drafted
        // cards is wa.arena.troupe.drafted's, above; an Assent not placed is
        // wa.arena.place.gladiator-turns's.
        if !self.drafting(s) && self.params.assent_equipment == rules::AssentEquipment::Two {
            for a in s.troupes.troupes.iter().filter_map(|t| t.cards.first()) {
                let Some(u) = s.find(a).filter(|&u| s.unit(u).kind == UnitKind::Assent) else { continue };
                let n = s.unit(u).equipment.iter().flatten().count();
                if n < 2 {
                    f.violate(Violation::new(
                        rules::EQUIP_TWO,
                        format!(
                            "{a} carries {n} Equipment card(s): each Assent needs two (`equip`; setup \
                             assent-equipment=draft-only leaves a selected troupe's number free)"
                        ),
                    ));
                }
            }
        }
        for t in &s.troupes.troupes {
            if let Some(a) = t.cards.first() {
                if !s.troupes.skills.iter().any(|(n, _)| n == a) {
                    f.violate(Violation::new(
                        rules::TROUPE_SKILLS,
                        format!("{a} has not chosen its two Skill cards"),
                    ));
                }
            }
        }
    }
}
