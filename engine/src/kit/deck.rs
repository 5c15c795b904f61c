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

use std::fmt;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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

/// One entry of a deck's shape, top first: a layer begins, or a group of the layer begun
/// last. A group is candidates of which `left` are still in the deck, their order unknown:
/// its `len` cards are the next run of the deck's `cards`, kept sorted so the state is
/// canonical; duplicates are separate copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Layer,
    Group { len: u32, left: u32 },
}

/// A deck: layers of hidden order (top first), the cards put at its bottom in a known order,
/// and its discard pile, newest last.
///
/// The layers are kept flat (every group's candidates in one list, the layers' and groups'
/// bounds in another) rather than as nested lists: each session clones the decks of the
/// table it starts from and drops them at its end, and a reveal finds its card, so one
/// contiguous list to copy, free and search costs less than a list per layer and per group.
/// The nesting is what the state means and how it is written: serialised, printed and
/// read back as `layers: [{ groups: [{ cards, left }] }]`, exactly as when it was stored
/// nested (the digest covers it). Equality is the nested one: the flat form is a bijection.
#[derive(Clone, PartialEq, Eq)]
pub struct Deck<C> {
    /// Every group's candidates, group after group, top layer first.
    cards: Vec<C>,
    /// The layers and their groups, top first; empty, or beginning with a `Part::Layer`.
    shape: Vec<Part>,
    /// Cards put at the bottom, top first: they come out in this order, after every layer.
    under: Vec<C>,
    pub discard: Vec<C>,
}

/// `n` as a group's count. A deck is made from a catalog the engine read, and no catalog
/// holds 2^32 cards of one group (its text alone would take tens of gigabytes), so the
/// count saturates rather than giving the deck's callers an error no input can cause.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<C: Copy + Ord> Deck<C> {
    /// A plain shuffled deck of `cards`.
    pub fn new(mut cards: Vec<C>) -> Deck<C> {
        // What `sampled(vec![(cards, usize::MAX)])` makes, with the cards' list moved in.
        cards.sort_unstable();
        let len = count(cards.len());
        Deck {
            cards,
            shape: vec![Part::Layer, Part::Group { len, left: len }],
            under: Vec::new(),
            discard: Vec::new(),
        }
    }

    /// One shuffled layer made of `take` cards chosen at random from each pool (all of a
    /// pool when it has fewer; `usize::MAX` for all).
    pub fn sampled(pools: Vec<(Vec<C>, usize)>) -> Deck<C> {
        let mut deck = Deck { cards: Vec::new(), shape: Vec::new(), under: Vec::new(), discard: Vec::new() };
        deck.add_layer_below(pools);
        deck
    }

    /// A shuffled layer of `take` cards from each pool, put under the layers already there
    /// (and above the cards put at the bottom).
    pub fn add_layer_below(&mut self, pools: Vec<(Vec<C>, usize)>) {
        self.shape.reserve(1 + pools.len());
        self.shape.push(Part::Layer);
        for (mut cards, take) in pools {
            cards.sort_unstable();
            let len = count(cards.len());
            let left = count(take.min(cards.len()));
            self.shape.push(Part::Group { len, left });
            if self.cards.is_empty() {
                self.cards = cards;
            } else {
                self.cards.extend(cards);
            }
        }
    }

    /// `cards` shuffled and put on top of the deck (a scenario's cards).
    pub fn put_on_top(&mut self, mut cards: Vec<C>) {
        cards.sort_unstable();
        let len = count(cards.len());
        self.shape.splice(0..0, [Part::Layer, Part::Group { len, left: len }]);
        self.cards.splice(0..0, cards);
    }

    /// How many cards can still come out.
    pub fn len(&self) -> usize {
        let left: usize = self
            .shape
            .iter()
            .map(|p| match *p {
                Part::Group { left, .. } => left as usize,
                Part::Layer => 0,
            })
            .sum();
        left + self.under.len()
    }
    pub fn is_empty(&self) -> bool {
        self.under.is_empty() && self.shape.iter().all(|p| !matches!(*p, Part::Group { left: 1.., .. }))
    }

    /// Each group, top first: its index in `shape`, its candidates, how many are left, and
    /// its layer's number (0 for the top one).
    fn groups(&self) -> impl Iterator<Item = (usize, &[C], u32, usize)> + '_ {
        let mut at = 0;
        let mut layer = usize::MAX;
        self.shape.iter().enumerate().filter_map(move |(i, p)| match *p {
            Part::Layer => {
                layer = layer.wrapping_add(1);
                None
            }
            Part::Group { len, left } => {
                let cards = &self.cards[at..at + len as usize];
                at += len as usize;
                Some((i, cards, left, layer))
            }
        })
    }

    /// Whether `card` may still come out of the deck at some point.
    pub fn contains(&self, card: C) -> bool {
        self.groups().any(|(_, cards, left, _)| left > 0 && cards.binary_search(&card).is_ok())
            || self.under.contains(&card)
    }

    /// The cards that may come out next, sorted (not their order: that is unknown).
    pub fn remaining(&self) -> Vec<C> {
        let mut out: Vec<C> = match self.groups().find(|g| g.2 > 0) {
            Some((_, _, _, top)) => self
                .groups()
                .filter(|&(_, _, left, layer)| layer == top && left > 0)
                .flat_map(|(_, cards, _, _)| cards.iter().copied())
                .collect(),
            None => self.under.first().copied().into_iter().collect(),
        };
        out.sort_unstable();
        out
    }

    /// Whether `card` may be the next one out.
    pub fn may_reveal(&self, card: C) -> Result<(), Misdraw> {
        self.position(card).map(|_| ())
    }

    /// Where a reveal of `card` would come from: a group (its index in `shape`) and the
    /// card's index in `cards`, or the bottom (`None`).
    fn position(&self, card: C) -> Result<Option<(usize, usize)>, Misdraw> {
        // The top layer with a card left: where its groups begin in `shape` and `cards`.
        let mut at = 0;
        let mut begun = (0, 0);
        let mut top = None;
        for (i, p) in self.shape.iter().enumerate() {
            match *p {
                Part::Layer => begun = (i + 1, at),
                Part::Group { len, left } => {
                    if left > 0 {
                        top = Some(begun);
                        break;
                    }
                    at += len as usize;
                }
            }
        }
        let Some((first, mut at)) = top else {
            return match self.under.first() {
                None => Err(Misdraw::Empty),
                Some(&c) if c == card => Ok(None),
                Some(_) if self.under.contains(&card) => Err(Misdraw::Buried),
                Some(_) => Err(Misdraw::NotInDeck),
            };
        };
        let mut spent = false;
        for (i, p) in self.shape[first..].iter().enumerate() {
            let Part::Group { len, left } = *p else { break };
            let cards = &self.cards[at..at + len as usize];
            if let Ok(ci) = cards.binary_search(&card) {
                if left > 0 {
                    return Ok(Some((first + i, at + ci)));
                }
                spent = true;
            }
            at += len as usize;
        }
        Err(if self.contains(card) {
            Misdraw::Buried
        } else if spent {
            Misdraw::Spent
        } else {
            Misdraw::NotInDeck
        })
    }

    /// The layer holding the group at `shape[group]`: its range in `shape` (from its
    /// `Part::Layer`) and in `cards`.
    fn layer_of(&self, group: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let mut at = 0;
        let mut begun = (0, 0);
        let mut i = 0;
        while i <= group {
            match self.shape[i] {
                Part::Layer => begun = (i, at),
                Part::Group { len, .. } => at += len as usize,
            }
            i += 1;
        }
        let mut end = at;
        while let Some(&Part::Group { len, .. }) = self.shape.get(i) {
            end += len as usize;
            i += 1;
        }
        (begun.0..i, begun.1..end)
    }

    /// The card at `cards[at]`, of the group at `shape[group]`, leaves the deck; its layer
    /// goes when nothing is left in it.
    fn remove(&mut self, group: usize, at: usize) {
        self.cards.remove(at);
        let Part::Group { len, left } = &mut self.shape[group] else { return };
        *len -= 1;
        // A group's candidates left when its count is spent never were in the deck.
        *left -= 1;
        if *left == 0 {
            self.drop_if_spent(group);
        }
    }

    /// Check and apply a recorded reveal: the card leaves the deck.
    pub fn reveal(&mut self, card: C) -> Result<(), Misdraw> {
        // One pass for what `position` finds: the first group with a card left marks the top
        // layer; its live groups are searched in order up to the next layer (spent groups
        // only matter to say why a reveal cannot be, which `position` works out).
        let mut at = 0;
        let mut live = false;
        for i in 0..self.shape.len() {
            match self.shape[i] {
                Part::Layer if live => break,
                Part::Layer | Part::Group { left: 0, .. } => {}
                Part::Group { len, left } => {
                    live = true;
                    if let Ok(ci) = self.cards[at..at + len as usize].binary_search(&card) {
                        self.cards.remove(at + ci);
                        // A group's candidates left when its count is spent never were in
                        // the deck.
                        self.shape[i] = Part::Group { len: len - 1, left: left - 1 };
                        // The layer can only be spent when this group is.
                        if left == 1 {
                            self.drop_if_spent(i);
                        }
                        return Ok(());
                    }
                }
            }
            if let Part::Group { len, .. } = self.shape[i] {
                at += len as usize;
            }
        }
        if !live && self.under.first() == Some(&card) {
            self.under.remove(0);
            return Ok(());
        }
        Err(self.position(card).err().unwrap_or(Misdraw::NotInDeck))
    }

    /// The layer of the group at `shape[group]` goes if nothing is left in it.
    #[cold]
    fn drop_if_spent(&mut self, group: usize) {
        let (parts, cards) = self.layer_of(group);
        if self.shape[parts.clone()].iter().all(|p| !matches!(*p, Part::Group { left: 1.., .. })) {
            self.shape.drain(parts);
            self.cards.drain(cards);
        }
    }

    /// A card goes to the discard pile.
    pub fn discard(&mut self, card: C) {
        self.discard.push(card);
    }

    /// A card is put at the bottom of the deck: it comes out after everything above it.
    pub fn to_bottom(&mut self, card: C) {
        self.under.push(card);
    }

    /// `cards` put at the bottom of the deck together, in an order no one knows (a row of
    /// cards cleared to the bottom, the tokens a player did not keep): they come out after
    /// everything above them, in any order among themselves. The cards already at the bottom
    /// keep their order above them, each a layer of its own.
    pub fn put_under_unordered(&mut self, cards: Vec<C>) {
        if cards.is_empty() {
            return;
        }
        for card in std::mem::take(&mut self.under) {
            self.add_layer_below(vec![(vec![card], 1)]);
        }
        self.add_layer_below(vec![(cards, usize::MAX)]);
    }

    /// Room for `n` more cards put at the bottom, made at once (a cloned deck has none, and
    /// a game that sends cards to the bottom all along would otherwise grow it push by push).
    pub fn reserve_under(&mut self, n: usize) {
        self.under.reserve(n);
    }

    /// Everything still in the deck and the discard pile shuffled together (its new order,
    /// again, unknown). A group of which only some candidates are in the deck stays a group
    /// of the one new layer: which they are is still unknown.
    pub fn reshuffle(&mut self) {
        let mut cards = std::mem::take(&mut self.discard);
        cards.append(&mut self.under);
        // The old lists are reused in place (no list is made or freed): the groups kept
        // whole move to the front of the old shape and candidates, in order, while the
        // cards of the full groups join the pile.
        let mut old = std::mem::take(&mut self.cards);
        let mut shape = std::mem::take(&mut self.shape);
        let (mut at, mut kept, mut kept_at) = (0, 0, 0);
        for i in 0..shape.len() {
            let Part::Group { len, left } = shape[i] else { continue };
            let n = len as usize;
            if left as usize >= n {
                cards.extend_from_slice(&old[at..at + n]);
            } else if left > 0 {
                old.copy_within(at..at + n, kept_at);
                shape[kept] = Part::Group { len, left };
                kept += 1;
                kept_at += n;
            }
            at += n;
        }
        shape.truncate(kept);
        if !cards.is_empty() {
            cards.sort_unstable();
            let len = count(cards.len());
            shape.insert(0, Part::Group { len, left: len });
        }
        cards.extend_from_slice(&old[..kept_at]);
        if !shape.is_empty() {
            shape.insert(0, Part::Layer);
        }
        self.shape = shape;
        self.cards = cards;
        // The old list's room is kept for the new discard pile (the one taken was the new
        // deck's), which then does not grow again from nothing card by card.
        old.clear();
        self.discard = old;
    }

    /// A card goes back into the deck's top layer (to a place nobody knows, as for "shuffle
    /// it in").
    pub fn put_back(&mut self, card: C) {
        let found = self.groups().find(|&(_, cards, left, layer)| layer == 0 && left as usize == cards.len());
        let mut at = 0;
        match found {
            Some((group, cards, _, _)) => {
                at += self.shape[..group]
                    .iter()
                    .map(|p| match *p {
                        Part::Group { len, .. } => len as usize,
                        Part::Layer => 0,
                    })
                    .sum::<usize>();
                at += cards.binary_search(&card).unwrap_or_else(|i| i);
                if let Part::Group { len, left } = &mut self.shape[group] {
                    *len += 1;
                    *left += 1;
                }
                self.cards.insert(at, card);
            }
            None => {
                self.shape.splice(0..0, [Part::Layer, Part::Group { len: 1, left: 1 }]);
                self.cards.insert(0, card);
            }
        }
    }

    /// Take a card out of the deck wherever it is (a player searching the deck for it, as a
    /// Retire does); `false` when it is not there.
    pub fn take(&mut self, card: C) -> bool {
        let mut at = 0;
        let mut found = None;
        for (i, p) in self.shape.iter().enumerate() {
            if let Part::Group { len, left } = *p {
                let cards = &self.cards[at..at + len as usize];
                if left == len {
                    if let Ok(ci) = cards.binary_search(&card) {
                        found = Some((i, at + ci));
                        break;
                    }
                }
                at += len as usize;
            }
        }
        if let Some((group, at)) = found {
            self.remove(group, at);
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
            .groups()
            .filter(|&(_, cards, left, _)| left as usize == cards.len())
            .flat_map(|(_, cards, _, _)| cards.iter().copied())
            .chain(self.under.iter().copied())
            .collect();
        out.sort_unstable();
        out
    }
}

/// The deck as it is written and printed: its layers, each its groups (views of the flat
/// lists, so writing one builds nothing).
struct Layers<'a, C>(&'a Deck<C>);
struct Layer<'a, C> {
    parts: &'a [Part],
    cards: &'a [C],
}
struct Groups<'a, C>(&'a Layer<'a, C>);
struct Group<'a, C> {
    cards: &'a [C],
    left: usize,
}

impl<'a, C> Layers<'a, C> {
    fn iter(&self) -> impl Iterator<Item = Layer<'a, C>> + 'a {
        let deck = self.0;
        let mut at = 0;
        deck.shape.split(|p| *p == Part::Layer).skip(1).map(move |parts| {
            let len: usize = parts
                .iter()
                .map(|p| match *p {
                    Part::Group { len, .. } => len as usize,
                    Part::Layer => 0,
                })
                .sum();
            let layer = Layer { parts, cards: &deck.cards[at..at + len] };
            at += len;
            layer
        })
    }
    fn count(&self) -> usize {
        self.0.shape.iter().filter(|p| **p == Part::Layer).count()
    }
}

impl<'a, C> Groups<'a, C> {
    fn iter(&self) -> impl Iterator<Item = Group<'a, C>> + 'a {
        let (parts, cards) = (self.0.parts, self.0.cards);
        let mut at = 0;
        parts.iter().map(move |p| {
            let (len, left) = match *p {
                Part::Group { len, left } => (len as usize, left as usize),
                Part::Layer => (0, 0),
            };
            let group = Group { cards: &cards[at..at + len], left };
            at += len;
            group
        })
    }
}

impl<C: fmt::Debug> fmt::Debug for Deck<C> {
    /// As `#[derive(Debug)]` printed the nested deck.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deck")
            .field("layers", &Layers(self))
            .field("under", &self.under)
            .field("discard", &self.discard)
            .finish()
    }
}
impl<C: fmt::Debug> fmt::Debug for Layers<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
impl<C: fmt::Debug> fmt::Debug for Layer<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layer").field("groups", &Groups(self)).finish()
    }
}
impl<C: fmt::Debug> fmt::Debug for Groups<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
impl<C: fmt::Debug> fmt::Debug for Group<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group").field("cards", &self.cards).field("left", &self.left).finish()
    }
}

impl<C: Serialize> Serialize for Deck<C> {
    /// As `#[derive(Serialize)]` wrote the nested deck (the state's digest covers it).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Deck", 3)?;
        st.serialize_field("layers", &Layers(self))?;
        st.serialize_field("under", &self.under)?;
        st.serialize_field("discard", &self.discard)?;
        st.end()
    }
}
impl<C: Serialize> Serialize for Layers<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.count()))?;
        for layer in self.iter() {
            seq.serialize_element(&layer)?;
        }
        seq.end()
    }
}
impl<C: Serialize> Serialize for Layer<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Layer", 1)?;
        st.serialize_field("groups", &Groups(self))?;
        st.end()
    }
}
impl<C: Serialize> Serialize for Groups<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.parts.len()))?;
        for group in self.iter() {
            seq.serialize_element(&group)?;
        }
        seq.end()
    }
}
impl<C: Serialize> Serialize for Group<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Group", 2)?;
        st.serialize_field("cards", self.cards)?;
        st.serialize_field("left", &self.left)?;
        st.end()
    }
}

/// The nested deck as it is written, read back and then laid flat.
mod nested {
    use serde::Deserialize;

    #[derive(Deserialize)]
    #[serde(rename = "Group")]
    pub struct Group<C> {
        pub cards: Vec<C>,
        pub left: usize,
    }
    #[derive(Deserialize)]
    #[serde(rename = "Layer")]
    pub struct Layer<C> {
        pub groups: Vec<Group<C>>,
    }
    #[derive(Deserialize)]
    #[serde(rename = "Deck")]
    pub struct Deck<C> {
        pub layers: Vec<Layer<C>>,
        pub under: Vec<C>,
        pub discard: Vec<C>,
    }
}

impl<'de, C: Deserialize<'de>> Deserialize<'de> for Deck<C> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = nested::Deck::<C>::deserialize(d)?;
        let mut deck = Deck { cards: Vec::new(), shape: Vec::new(), under: n.under, discard: n.discard };
        for layer in n.layers {
            deck.shape.push(Part::Layer);
            for g in layer.groups {
                let len = u32::try_from(g.cards.len()).map_err(serde::de::Error::custom)?;
                let left = u32::try_from(g.left).map_err(serde::de::Error::custom)?;
                deck.shape.push(Part::Group { len, left });
                deck.cards.extend(g.cards);
            }
        }
        Ok(deck)
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
    /// Every card of the row goes to the bottom of `deck` together, in no known order
    /// ([`Deck::put_under_unordered`]), leaving the row empty (a refresh: the refills are
    /// then owed).
    pub fn clear_to_bottom(&mut self, deck: &mut Deck<C>) {
        deck.put_under_unordered(self.slots.iter_mut().filter_map(Option::take).collect());
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
    fn a_reshuffle_keeps_partly_known_groups_after_the_pile() {
        // Layer 1: {1,2,3} of which 2 are in the deck, {7,8} drawn out; layer 2: {10,11,12}
        // of which 1; a card at the bottom and one discarded. The pile (discard, bottom, whole
        // groups) sorted comes first, then the partly known groups in order; spent ones go.
        let mut d = Deck::sampled(vec![(vec![1u8, 2, 3], 2), (vec![7, 8], 2)]);
        d.add_layer_below(vec![(vec![10, 11, 12], 1)]);
        assert_eq!(d.reveal(7), Ok(()));
        assert_eq!(d.reveal(8), Ok(()));
        d.to_bottom(30);
        d.discard(40);
        d.reshuffle();
        assert_eq!(
            format!("{d:?}"),
            "Deck { layers: [Layer { groups: [Group { cards: [30, 40], left: 2 }, \
             Group { cards: [1, 2, 3], left: 2 }, Group { cards: [10, 11, 12], left: 1 }] }], \
             under: [], discard: [] }"
        );
        // Nothing left but a partly known group: no pile group before it.
        let mut d = Deck::sampled(vec![(vec![4u8, 5, 6], 1)]);
        d.reshuffle();
        assert_eq!(format!("{d:?}"), "Deck { layers: [Layer { groups: [Group { cards: [4, 5, 6], left: 1 }] }], under: [], discard: [] }");
        // Nothing at all: no layer.
        let mut d = Deck::new(vec![9u8]);
        assert_eq!(d.reveal(9), Ok(()));
        d.reshuffle();
        assert_eq!(format!("{d:?}"), "Deck { layers: [], under: [], discard: [] }");
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
    fn written_and_printed_as_nested_layers_and_groups() {
        let mut d = Deck::sampled(vec![(vec![12u8, 10, 11], 2), (vec![], 0)]);
        d.add_layer_below(vec![(vec![21, 20], usize::MAX)]);
        d.to_bottom(7);
        d.discard(3);
        assert_eq!(
            format!("{d:?}"),
            "Deck { layers: [Layer { groups: [Group { cards: [10, 11, 12], left: 2 }, Group { cards: [], left: 0 }] }, \
             Layer { groups: [Group { cards: [20, 21], left: 2 }] }], under: [7], discard: [3] }"
        );
        let config = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec(&d, config).unwrap();
        // layers: 2; [10 11 12] 2, [] 0; [20 21] 2; under [7]; discard [3].
        assert_eq!(bytes, vec![2, 2, 3, 10, 11, 12, 2, 0, 0, 1, 2, 20, 21, 2, 1, 7, 1, 3]);
        let (back, _): (Deck<u8>, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert_eq!(back, d);
        d.reveal(11).unwrap();
        d.reveal(12).unwrap();
        assert_eq!(d.reveal(10), Err(Misdraw::NotInDeck), "the layer went with its last card");
        assert_eq!(format!("{d:?}"), "Deck { layers: [Layer { groups: [Group { cards: [20, 21], left: 2 }] }], under: [7], discard: [3] }");
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

    #[test]
    fn cards_put_under_together_come_out_in_any_order_after_those_under_before() {
        let mut d = Deck::new(vec![1]);
        d.to_bottom(5);
        d.put_under_unordered(vec![8, 7]);
        d.put_under_unordered(Vec::new());
        let mut other = d.clone();
        assert_eq!(d.reveal(7), Err(Misdraw::Buried), "under the deck and the card put under first");
        d.reveal(1).unwrap();
        assert_eq!(d.reveal(8), Err(Misdraw::Buried), "5 was put under first");
        d.reveal(5).unwrap();
        d.reveal(8).unwrap();
        d.reveal(7).unwrap();
        assert!(d.is_empty());
        other.reveal(1).unwrap();
        other.reveal(5).unwrap();
        other.reveal(7).unwrap();
        other.reveal(8).unwrap();
        assert!(other.is_empty());
    }
}
