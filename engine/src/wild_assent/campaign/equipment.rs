//! The Encampment's Equipment cards between encounters: a Seeker takes a stored card to an
//! encounter (any Seeker, one copy each, `wa.hunt.equip.craft-shared`), and a card leaves
//! the Encampment as the catalog's `discard` line says (the book: "some may be discarded
//! after use (or after the Encounter)", no card printed): `after-use` at its first use
//! (`skill` or `attack ... with`; a second use breaks `wa.hunt.equip.discard`),
//! `after-encounter` as the encounter is won, `never` not at all. A discarded card is not
//! kept: taking it again breaks `wa.hunt.equip.discard`. A card without a `discard` line,
//! and an `after-use` card that is never used by a recorded action (a passive one), are
//! reported unverified when taken; they stay stored.

use super::catalog::Discard;
use crate::kit::name::Name;
use crate::wild_assent::cards::SkillKind;
use crate::wild_assent::rules;
use crate::wild_assent::state::State;
use crate::wild_assent::WildAssent;
use crate::{Findings, Violation};

impl WildAssent {
    /// `equip SEEKER CARD` in a campaign's encounter: a card stored in the Encampment, not
    /// taken by another Seeker, not discarded.
    pub(super) fn take_equipment(&self, s: &mut State, _unit: &Name, card: &Name, f: &mut Findings) {
        let Some(eq) = self.catalog.equipment.id(card.as_str()) else { return };
        let Some(camp) = s.camp.as_deref_mut() else { return };
        let stored = camp.equipment.iter().filter(|&&e| e == eq).count();
        let taken = camp.taken.iter().filter(|&&e| e == eq).count();
        let timing = self.camp_catalog.discard(eq);
        if taken >= stored {
            let v = match timing {
                Some(d @ (Discard::AfterUse | Discard::AfterEncounter)) if camp.discarded.contains(&eq) => {
                    Violation::new(
                        rules::EQUIP_DISCARD,
                        format!("`{card}` is discarded {}: the Encampment does not keep it", when(d)),
                    )
                }
                _ => Violation::new(
                    rules::CRAFT_SHARED,
                    format!("`{card}` is not stored in the Encampment (or another Seeker has taken it)"),
                ),
            };
            f.violate(v);
            return;
        }
        camp.taken.push(eq);
        let active = matches!(self.catalog.equipment[eq].kind, SkillKind::Active | SkillKind::Free);
        let text = match timing {
            None => format!(
                "Equipment {card}: whether it is discarded after use or after the Encounter is not printed, and \
                 the catalog has no `discard` line; it stays stored in the Encampment (not applied)"
            ),
            Some(Discard::AfterUse) if !active => format!(
                "Equipment {card}: discarded after use, and its use (passive) is no recorded action; it stays \
                 stored in the Encampment (not applied)"
            ),
            Some(_) => return,
        };
        s.unverified.report(f, text);
    }

    /// `skill SEEKER CARD` or `attack SEEKER ... with CARD` in a campaign's encounter: a card
    /// discarded after use leaves the Encampment at its first use, and is not used again.
    pub(super) fn use_equipment(&self, s: &mut State, unit: &Name, card: &Name, f: &mut Findings) {
        let Some(eq) = self.catalog.equipment.id(card.as_str()) else { return };
        if self.camp_catalog.discard(eq) != Some(Discard::AfterUse) {
            return;
        }
        let Some(camp) = s.camp.as_deref_mut() else { return };
        if camp.spent.contains(&(*unit, eq)) {
            f.violate(Violation::new(
                rules::EQUIP_DISCARD,
                format!("`{card}` is discarded after use, and {unit} has used it in this encounter"),
            ));
            return;
        }
        // Only a card taken from the Encampment is the campaign's to discard.
        let Some(i) = camp.taken.iter().position(|&e| e == eq) else { return };
        camp.taken.remove(i);
        if let Some(j) = camp.equipment.iter().position(|&e| e == eq) {
            camp.equipment.remove(j);
        }
        camp.spent.push((*unit, eq));
        camp.discarded.push(eq);
    }

    /// As an encounter is won: the cards taken to it that are discarded after the Encounter
    /// leave the Encampment; the rest stay for the next.
    pub(super) fn discard_after_encounter(&self, camp: &mut super::Camp) {
        for eq in std::mem::take(&mut camp.taken) {
            if self.camp_catalog.discard(eq) == Some(Discard::AfterEncounter) {
                if let Some(j) = camp.equipment.iter().position(|&e| e == eq) {
                    camp.equipment.remove(j);
                }
                camp.discarded.push(eq);
            }
        }
        camp.spent.clear();
    }
}

/// "after use", "after the Encounter".
fn when(d: Discard) -> &'static str {
    match d {
        Discard::AfterUse => "after use",
        Discard::AfterEncounter => "after the Encounter",
        Discard::Never => "never",
    }
}
