//! Decks of hidden order and face-up markets.
//!
//! Nobody knows a shuffled deck's order, so the engine does not either: a [`Deck`] is what
//! could still come out of it plus its discard pile, and a reveal (a random outcome the log
//! records, `draw goblin`) is checked only for being possible: the card must still be in
//! the deck it came from, and nothing known to lie above it may be left.
//!
//! A deck is built in **layers**, top first, each shuffled on its own: a scenario's cards
//! shuffled and put on top of the others, the cards put back at the bottom in a known order.
//! A layer may hold only some of its candidates: "take 3 per player of the 1VP monsters", an
//! event deck of so many S, T and D cards chosen at random. Nobody knows which were taken,
//! so a layer is a set of **groups**, each a set of candidates of which a known number are in
//! the deck; the rest never were. A plain shuffled deck is one layer of one group.
//!
//! A [`Market`] is a row of face-up slots; an empty slot with cards left to draw is an
//! obligation ([`Market::refill_due`]) that a game's consequence chain reports like any
//! other due.

use serde::{Deserialize, Serialize};

/// Why a recorded reveal cannot be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misdraw {
    /// The deck is empty (reshuffle the discard first, if the rules allow).
    Empty,
    /// The card is not in the deck: in play, discarded, or drawn already.
    NotInDeck,
    /// The card is in the deck, but below cards that must come out first (it was put at the
    /// bottom, or it is in a lower layer).
    Buried,
    /// The card was a candidate of a group whose cards are all out already: it was left out
    /// when the deck was made (a fourth S card where the table takes three).
    Spent,
}

impl std::fmt::Display for Misdraw {
    /// What went wrong, in words a finding can quote.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Misdraw::Empty => "the deck is empty",
            Misdraw::NotInDeck => "the card is not in the deck (in play, discarded or drawn already)",
            Misdraw::Buried => "the card is in the deck, under cards that come out before it",
            Misdraw::Spent => "the card was left out when the deck was made (its group is drawn out)",
        })
    }
}

/// Candidates of which `left` are still in the deck, their order unknown. Kept sorted so
/// the state is canonical; duplicates are separate copies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Group<C> {
    cards: Vec<C>,
    left: usize,
}

/// One shuffled layer: the groups it was made of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Layer<C> {
    groups: Vec<Group<C>>,
}

impl<C> Layer<C> {
    fn left(&self) -> usize {
        self.groups.iter().map(|g| g.left).sum()
    }
}

/// A deck: layers of hidden order (top first), the cards put at its bottom in a known order,
/// and its discard pile, newest last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck<C> {
    layers: Vec<Layer<C>>,
    /// Cards put at the bottom, top first: they come out in this order, after every layer.
    under: Vec<C>,
    pub discard: Vec<C>,
}

impl<C: Copy + Ord> Deck<C> {
    /// A plain shuffled deck of `cards`.
    pub fn new(cards: Vec<C>) -> Deck<C> {
        Deck::sampled(vec![(cards, usize::MAX)])
    }

    /// One shuffled layer made of `take` cards chosen at random from each pool (all of a
    /// pool when it has fewer; `usize::MAX` for all).
    pub fn sampled(pools: Vec<(Vec<C>, usize)>) -> Deck<C> {
        let mut deck = Deck { layers: Vec::new(), under: Vec::new(), discard: Vec::new() };
        deck.add_layer_below(pools);
        deck
    }

    /// A shuffled layer of `take` cards from each pool, put under the layers already there
    /// (and above the cards put at the bottom).
    pub fn add_layer_below(&mut self, pools: Vec<(Vec<C>, usize)>) {
        let groups = pools
            .into_iter()
            .map(|(mut cards, take)| {
                cards.sort_unstable();
                let left = take.min(cards.len());
                Group { cards, left }
            })
            .collect();
        self.layers.push(Layer { groups });
    }

    /// `cards` shuffled and put on top of the deck (a scenario's cards).
    pub fn put_on_top(&mut self, mut cards: Vec<C>) {
        cards.sort_unstable();
        let left = cards.len();
        self.layers.insert(0, Layer { groups: vec![Group { cards, left }] });
    }

    /// How many cards can still come out.
    pub fn len(&self) -> usize {
        self.layers.iter().map(Layer::left).sum::<usize>() + self.under.len()
    }
    pub fn is_empty(&self) -> bool {
        self.under.is_empty() && self.layers.iter().all(|l| l.groups.iter().all(|g| g.left == 0))
    }

    /// Whether `card` may still come out of the deck at some point.
    pub fn contains(&self, card: C) -> bool {
        self.layers.iter().flat_map(|l| &l.groups).any(|g| g.left > 0 && g.cards.binary_search(&card).is_ok())
            || self.under.contains(&card)
    }

    /// The cards that may come out next, sorted (not their order: that is unknown).
    pub fn remaining(&self) -> Vec<C> {
        let mut out: Vec<C> = match self.layers.iter().find(|l| l.left() > 0) {
            Some(layer) => {
                layer.groups.iter().filter(|g| g.left > 0).flat_map(|g| g.cards.iter().copied()).collect()
            }
            None => self.under.first().copied().into_iter().collect(),
        };
        out.sort_unstable();
        out
    }

    /// Whether `card` may be the next one out.
    pub fn may_reveal(&self, card: C) -> Result<(), Misdraw> {
        self.position(card).map(|_| ())
    }

    /// Where a reveal of `card` would come from: a layer and group, or the bottom (`None`).
    fn position(&self, card: C) -> Result<Option<(usize, usize, usize)>, Misdraw> {
        match self.layers.iter().position(|l| l.groups.iter().any(|g| g.left > 0)) {
            Some(li) => {
                for (gi, g) in self.layers[li].groups.iter().enumerate() {
                    if let Ok(ci) = g.cards.binary_search(&card) {
                        if g.left > 0 {
                            return Ok(Some((li, gi, ci)));
                        }
                    }
                }
                let spent = self.layers[li]
                    .groups
                    .iter()
                    .any(|g| g.left == 0 && g.cards.binary_search(&card).is_ok());
                Err(if self.contains(card) {
                    Misdraw::Buried
                } else if spent {
                    Misdraw::Spent
                } else {
                    Misdraw::NotInDeck
                })
            }
            None if self.under.is_empty() => Err(Misdraw::Empty),
            None if self.under.first() == Some(&card) => Ok(None),
            None if self.under.contains(&card) => Err(Misdraw::Buried),
            None => Err(Misdraw::NotInDeck),
        }
    }

    /// Check and apply a recorded reveal: the card leaves the deck.
    pub fn reveal(&mut self, card: C) -> Result<(), Misdraw> {
        match self.position(card)? {
            Some((li, gi, ci)) => {
                let g = &mut self.layers[li].groups[gi];
                g.cards.remove(ci);
                // A group's candidates left when its count is spent never were in the deck.
                g.left -= 1;
                // The layer can only be spent when this group is (most reveals skip the sum).
                if g.left == 0 && self.layers[li].left() == 0 {
                    self.layers.remove(li);
                }
            }
            None => {
                self.under.remove(0);
            }
        }
        Ok(())
    }

    /// A card goes to the discard pile.
    pub fn discard(&mut self, card: C) {
        self.discard.push(card);
    }

    /// A card is put at the bottom of the deck: it comes out after everything above it.
    pub fn to_bottom(&mut self, card: C) {
        self.under.push(card);
    }

    /// Everything still in the deck and the discard pile shuffled together (its new order,
    /// again, unknown). A group of which only some candidates are in the deck stays a group
    /// of the one new layer: which they are is still unknown.
    pub fn reshuffle(&mut self) {
        let mut cards = std::mem::take(&mut self.discard);
        cards.append(&mut self.under);
        let mut sampled = Vec::new();
        for layer in self.layers.drain(..) {
            for g in layer.groups {
                if g.left >= g.cards.len() {
                    cards.extend(g.cards);
                } else if g.left > 0 {
                    sampled.push(g);
                }
            }
        }
        let mut groups = Vec::new();
        if !cards.is_empty() {
            cards.sort_unstable();
            let left = cards.len();
            groups.push(Group { cards, left });
        }
        groups.extend(sampled);
        if !groups.is_empty() {
            self.layers.push(Layer { groups });
        }
    }

    /// A card goes back into the deck's top layer (to a place nobody knows, as for "shuffle
    /// it in").
    pub fn put_back(&mut self, card: C) {
        match self.layers.first_mut().and_then(|l| l.groups.iter_mut().find(|g| g.left == g.cards.len())) {
            Some(g) => {
                let at = g.cards.binary_search(&card).unwrap_or_else(|i| i);
                g.cards.insert(at, card);
                g.left += 1;
            }
            None => self.layers.insert(0, Layer { groups: vec![Group { cards: vec![card], left: 1 }] }),
        }
    }

    /// Take a card out of the deck wherever it is (a player searching the deck for it, as a
    /// Retire does); `false` when it is not there.
    pub fn take(&mut self, card: C) -> bool {
        let found = self.layers.iter().enumerate().find_map(|(li, l)| {
            l.groups.iter().enumerate().find_map(|(gi, g)| {
                let known = g.left == g.cards.len();
                g.cards.binary_search(&card).ok().filter(|_| known).map(|ci| (li, gi, ci))
            })
        });
        if let Some((li, gi, ci)) = found {
            let g = &mut self.layers[li].groups[gi];
            g.cards.remove(ci);
            g.left -= 1;
            if self.layers[li].left() == 0 {
                self.layers.remove(li);
            }
            return true;
        }
        match self.under.iter().position(|&c| c == card) {
            Some(i) => {
                self.under.remove(i);
                true
            }
            None => false,
        }
    }

    /// Every card known to be in the deck, sorted (a group of which only some candidates
    /// were taken contributes none: which they are is unknown).
    pub fn known(&self) -> Vec<C> {
        let mut out: Vec<C> = self
            .layers
            .iter()
            .flat_map(|l| &l.groups)
            .filter(|g| g.left == g.cards.len())
            .flat_map(|g| g.cards.iter().copied())
            .chain(self.under.iter().copied())
            .collect();
        out.sort_unstable();
        out
    }
}

/// A row of face-up slots refilled from a deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Market<C> {
    pub slots: Vec<Option<C>>,
}

impl<C: Copy + Ord> Market<C> {
    /// `size` empty slots.
    pub fn new(size: usize) -> Market<C> {
        Market { slots: vec![None; size] }
    }
    /// Take a card from a slot, leaving it empty.
    pub fn take(&mut self, slot: usize) -> Option<C> {
        self.slots.get_mut(slot).and_then(Option::take)
    }
    /// The slot holding `card`.
    pub fn slot_of(&self, card: C) -> Option<usize> {
        self.slots.iter().position(|s| *s == Some(card))
    }
    /// The first empty slot while `deck` has cards to reveal into it: the refill owed.
    pub fn refill_due(&self, deck: &Deck<C>) -> Option<usize> {
        if deck.is_empty() {
            return None;
        }
        self.slots.iter().position(Option::is_none)
    }
    /// Fill a slot with a card revealed from `deck` (checked as any reveal).
    pub fn refill(&mut self, slot: usize, card: C, deck: &mut Deck<C>) -> Result<(), Misdraw> {
        deck.reveal(card)?;
        if let Some(s) = self.slots.get_mut(slot) {
            *s = Some(card);
        }
        Ok(())
    }
    /// Every card of the row goes to the bottom of `deck`, left to right, leaving the row
    /// empty (a refresh: the refills are then owed).
    pub fn clear_to_bottom(&mut self, deck: &mut Deck<C>) {
        for slot in &mut self.slots {
            if let Some(card) = slot.take() {
                deck.to_bottom(card);
            }
        }
    }
    /// The cards face up, left to right.
    pub fn cards(&self) -> impl Iterator<Item = C> + '_ {
        self.slots.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revealed_card_must_still_be_in_its_deck() {
        let mut d = Deck::new(vec![3u8, 1, 2]);
        assert_eq!(d.reveal(2), Ok(()));
        assert_eq!(d.reveal(2), Err(Misdraw::NotInDeck));
        d.discard(2);
        assert!(!d.contains(2));
        d.reshuffle();
        assert_eq!(d.remaining(), vec![1, 2, 3]);
        for c in [1, 2, 3] {
            assert_eq!(d.reveal(c), Ok(()));
        }
        assert_eq!(d.reveal(1), Err(Misdraw::Empty));
        d.put_back(2);
        assert!(d.contains(2));
    }

    #[test]
    fn duplicates_are_separate_copies() {
        let mut d = Deck::new(vec![5u8, 5, 6]);
        assert_eq!(d.reveal(5), Ok(()));
        assert_eq!(d.reveal(5), Ok(()));
        assert_eq!(d.reveal(5), Err(Misdraw::NotInDeck));
        assert!(d.take(6));
        assert!(d.is_empty());
    }

    #[test]
    fn a_card_at_the_bottom_comes_out_after_the_shuffled_part() {
        let mut d = Deck::new(vec![1u8, 2]);
        assert_eq!(d.reveal(1), Ok(()));
        d.to_bottom(1);
        assert_eq!(d.reveal(1), Err(Misdraw::Buried));
        assert_eq!(d.reveal(2), Ok(()));
        d.to_bottom(7);
        assert_eq!(d.reveal(7), Err(Misdraw::Buried), "under 1, put there first");
        assert_eq!(d.remaining(), vec![1]);
        assert_eq!(d.reveal(1), Ok(()));
        assert_eq!(d.reveal(7), Ok(()));
        assert!(d.is_empty());
    }

    #[test]
    fn layers_and_sampled_groups() {
        // 2 of the 1s on top of all the 2s; a scenario's 9 shuffled on top of everything.
        let mut d = Deck::sampled(vec![(vec![10u8, 11, 12, 13], 2)]);
        d.add_layer_below(vec![(vec![20, 21], usize::MAX)]);
        d.put_on_top(vec![9]);
        assert_eq!(d.len(), 5);
        assert_eq!(d.reveal(10), Err(Misdraw::Buried));
        assert_eq!(d.reveal(9), Ok(()));
        assert_eq!(d.reveal(20), Err(Misdraw::Buried));
        assert_eq!(d.reveal(12), Ok(()));
        assert_eq!(d.reveal(10), Ok(()));
        assert_eq!(d.reveal(11), Err(Misdraw::NotInDeck), "the group is spent: 11 was never in");
        assert!(!d.contains(13));
        assert_eq!(d.remaining(), vec![20, 21]);
        // Quotas per pool in one mixed layer: S and T cards come out in any order.
        let mut e = Deck::sampled(vec![(vec![1u8, 2, 3], 1), (vec![4, 5], 2)]);
        assert_eq!(e.reveal(4), Ok(()));
        assert_eq!(e.reveal(2), Ok(()));
        assert_eq!(e.reveal(3), Err(Misdraw::Spent));
        assert_eq!(e.known(), vec![5]);
        assert_eq!(e.reveal(5), Ok(()));
        assert_eq!(e.reveal(5), Err(Misdraw::Empty));
    }

    #[test]
    fn an_empty_market_slot_owes_a_refill_while_cards_remain() {
        let mut deck = Deck::new(vec![10u16, 11, 12]);
        let mut m: Market<u16> = Market::new(2);
        assert_eq!(m.refill_due(&deck), Some(0));
        assert_eq!(m.refill(0, 11, &mut deck), Ok(()));
        assert_eq!(m.refill(1, 11, &mut deck), Err(Misdraw::NotInDeck));
        assert_eq!(m.refill(1, 12, &mut deck), Ok(()));
        assert_eq!(m.refill_due(&deck), None);
        assert_eq!(m.take(0), Some(11));
        assert_eq!(m.slot_of(12), Some(1));
        assert_eq!(m.refill_due(&deck), Some(0));
        deck.reveal(10).unwrap();
        assert_eq!(m.refill_due(&deck), None, "nothing left to draw: no refill owed");
        m.clear_to_bottom(&mut deck);
        assert_eq!(m.cards().count(), 0);
        assert_eq!(deck.remaining(), vec![12]);
    }
}
