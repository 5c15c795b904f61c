//! Decks of hidden order and face-up markets.
//!
//! Nobody knows a shuffled deck's order, so the engine does not either: a [`Deck`] is the
//! set of cards still in it plus its discard pile, and a reveal (a random outcome the log
//! records, `draw goblin`) is checked only for being possible: the card must still be in
//! the deck it came from. A [`Market`] is a row of face-up slots; an empty slot with cards
//! left to draw is an obligation ([`Market::refill_due`]) that a game's consequence chain
//! reports like any other due.

use serde::{Deserialize, Serialize};

/// Why a recorded reveal cannot be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misdraw {
    /// The deck is empty (reshuffle the discard first, if the rules allow).
    Empty,
    /// The card is not in the deck: in play, discarded, or drawn already.
    NotInDeck,
}

/// A deck: the cards still in it (their order unknown, kept sorted so the state is
/// canonical) and its discard pile, newest last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck<C> {
    cards: Vec<C>,
    pub discard: Vec<C>,
}

impl<C: Copy + Ord> Deck<C> {
    pub fn new(mut cards: Vec<C>) -> Deck<C> {
        cards.sort_unstable();
        Deck { cards, discard: Vec::new() }
    }
    pub fn len(&self) -> usize {
        self.cards.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
    pub fn contains(&self, card: C) -> bool {
        self.cards.binary_search(&card).is_ok()
    }
    /// The cards still in the deck, sorted (not their order: that is unknown).
    pub fn remaining(&self) -> &[C] {
        &self.cards
    }
    /// Check and apply a recorded reveal: the card leaves the deck.
    pub fn reveal(&mut self, card: C) -> Result<(), Misdraw> {
        if self.cards.is_empty() {
            return Err(Misdraw::Empty);
        }
        match self.cards.binary_search(&card) {
            Ok(i) => {
                self.cards.remove(i);
                Ok(())
            }
            Err(_) => Err(Misdraw::NotInDeck),
        }
    }
    /// A card goes to the discard pile.
    pub fn discard(&mut self, card: C) {
        self.discard.push(card);
    }
    /// The discard pile is shuffled back in (its new order, again, unknown).
    pub fn reshuffle(&mut self) {
        self.cards.append(&mut self.discard);
        self.cards.sort_unstable();
    }
    /// A card goes back into the deck (to a place nobody knows, as for "shuffle it in").
    pub fn put_back(&mut self, card: C) {
        let at = self.cards.binary_search(&card).unwrap_or_else(|i| i);
        self.cards.insert(at, card);
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
        assert_eq!(d.remaining(), &[1, 2, 3]);
        for c in [1, 2, 3] {
            assert_eq!(d.reveal(c), Ok(()));
        }
        assert_eq!(d.reveal(1), Err(Misdraw::Empty));
        d.put_back(2);
        assert!(d.contains(2));
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
    }
}
