//! Consequences as typed facts. A recorded consequence is resolved once, as it enters
//! (`resolve`: labels to seats, card names to indices); a due consequence is written back to
//! notation only for a report or a derived log (`notate`). Between the two, everything is
//! compared as small integers.

use super::event::Event;
use super::name::{Name, NameKey};
pub use super::state::{Acting, Fact};
use super::state::{Action, HandCard, Seat, State};
use super::KeridwynFight;
use crate::StepError;

/// Why a consequence is due: which agenda it comes from, so that applying it moves that
/// agenda's cursor (whatever values the log recorded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The token's re-check.
    Token,
    /// Immunity removing an ailment.
    Cure,
    /// The monster's start-of-fight effect `effect` on a character.
    Start {
        effect: u8,
    },
    /// The acting fighter's own ailment from its card (`self ailment ...`).
    SelfAilment {
        effect: u8,
    },
    /// The next token off the track.
    Act,
    /// The outcome on the current action's target `at`.
    Outcome {
        at: u8,
    },
    /// The current card's effect `effect` on target `at`.
    Effect {
        at: u8,
        effect: u8,
    },
    /// A fighter at 0 Grit.
    Defeat,
    /// An ailment's end-of-round tick.
    Tick,
    EndRound,
    Fame,
    Trophy,
}

/// A consequence the rules owe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    pub fact: Fact,
    pub cause: Cause,
}

/// `a == b` for the short names of a fight (`A`, `wyvern`, `fire-breath`): lengths, then the
/// bytes in line, as two words that between them cover the name (they overlap when it is
/// shorter than both): every `act` compares a card's name, and the call to `memcmp` that
/// `==` makes, or a byte at a time, cost more than the comparison.
pub(crate) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    n == b.len()
        && match n {
            0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
            4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
            8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
            _ => a == b,
        }
}

/// The 4 bytes of `s` from `at` (the caller has them).
#[inline]
fn word4(s: &[u8], at: usize) -> u32 {
    s.get(at..at + 4).and_then(|w| w.try_into().ok()).map_or(0, u32::from_le_bytes)
}

/// The 8 bytes of `s` from `at` (the caller has them).
#[inline]
fn word8(s: &[u8], at: usize) -> u64 {
    s.get(at..at + 8).and_then(|w| w.try_into().ok()).map_or(0, u64::from_le_bytes)
}

/// Why a recorded consequence could not be resolved: it names someone not in the fight, or
/// it is no consequence at all.
#[cold]
pub(crate) fn unresolved(ev: &Event) -> StepError {
    let name = match ev {
        Event::TokenGained { who }
        | Event::Afflicted { who, .. }
        | Event::Cured { who, .. }
        | Event::Acted { who, .. }
        | Event::DamageDealt { who, .. }
        | Event::Ticked { who, .. }
        | Event::Defeated { who }
        | Event::FameGained { who, .. }
        | Event::TrophyTaken { who, .. } => who,
        Event::Outcome { target, .. } => target,
        _ => return StepError::new(format!("`{ev}` is not a consequence")),
    };
    StepError::new(format!("`{ev}` names `{name}`, who is not in the fight"))
}

impl KeridwynFight {
    /// A participant as an event names them: seat label, else character or monster id.
    /// The labels are compared by their keys (`NameKey`), in line; a label without one, a
    /// long name and a name that is no label go the way of the strings (`seat_by_name`).
    #[inline]
    pub(crate) fn seat(&self, s: &State, name: &str) -> Option<Seat> {
        let key = NameKey::of(name).raw();
        if key != NameKey::LONG.raw() {
            for (i, f) in s.fighters.iter().enumerate() {
                let k = f.key.raw();
                if k == key {
                    return Some(Seat::of(i));
                }
                if k == 0 {
                    break;
                }
            }
        }
        self.seat_by_name(s, name)
    }

    /// `seat`, the names compared as strings.
    #[inline(never)]
    fn seat_by_name(&self, s: &State, name: &str) -> Option<Seat> {
        s.fighters
            .iter()
            .position(|f| same(&f.label, name))
            .or_else(|| s.fighters.iter().position(|f| same(self.card_name(f), name)))
            .map(Seat::of)
    }

    /// What `act WHO NAME` names. A catalog card may share a hand card's name (`lure`):
    /// the token on the track decides, the one due first when both are there.
    /// `head`, the due owed now when known: an `act` due is the next token's, not looked
    /// for again.
    fn acting(&self, s: &State, who: Seat, name: &str, head: Option<&Due>) -> Acting {
        let next = match head {
            Some(&Due { cause: Cause::Act, fact: Fact::Acted { who, action: Acting::Token(a) } }) => {
                Some((who, a))
            }
            _ => self.next_token(s).map(|(_, t)| (t.who, t.action)),
        };
        // The common case: the token due is the one named.
        if let Some((_, a)) = next.filter(|&(w, _)| w == who) {
            if same(self.action_name(a), name) {
                return Acting::Token(a);
            }
        }
        let card = self.catalog.cards.id(name).map(Action::Card);
        let hand = HandCard::parse(name);
        let on_track = |a: Action| s.track.iter().any(|t| t.who == who && t.action == a);
        match (card, hand) {
            (Some(c), Some(HandCard::Lure)) => {
                let due = self.next_token(s).map(|(_, t)| t).filter(|t| t.who == who).map(|t| t.action);
                if due == Some(Action::Lure) || (!on_track(c) && on_track(Action::Lure)) {
                    Acting::Token(Action::Lure)
                } else {
                    Acting::Token(c)
                }
            }
            (Some(c), _) => Acting::Token(c),
            (None, Some(HandCard::Lure)) => Acting::Token(Action::Lure),
            (None, Some(h @ (HandCard::Balance | HandCard::Focus))) => Acting::NoPriority(h),
            _ => Acting::Unknown,
        }
    }

    /// Resolve a recorded consequence's names.
    pub(crate) fn resolve_fact(&self, s: &State, ev: &Event) -> Result<Fact, StepError> {
        self.resolve_owed_fact(s, ev, None)
    }

    /// `resolve_fact`, told the due owed now when it is known (`next_due` on this state).
    pub(crate) fn resolve_owed_fact(
        &self,
        s: &State,
        ev: &Event,
        head: Option<&Due>,
    ) -> Result<Fact, StepError> {
        self.resolved(s, ev, head).ok_or_else(|| unresolved(ev))
    }

    /// `resolve_owed_fact`, `None` where it fails (the step builds the error only then: the
    /// `Result`, larger than the fact, cost every consequence its copies).
    pub(crate) fn resolved(&self, s: &State, ev: &Event, head: Option<&Due>) -> Option<Fact> {
        // Names are looked up as options and the error is built only when one fails: every
        // recorded consequence comes through here.
        let seat = |name: &str| self.seat(s, name);
        match ev {
            Event::TokenGained { who } => seat(who).map(|who| Fact::TokenGained { who }),
            Event::Afflicted { who, ailment, add, total } => {
                seat(who).map(|who| Fact::Afflicted { who, ailment: *ailment, add: *add, total: *total })
            }
            Event::Cured { who, ailment, from } => {
                seat(who).map(|who| Fact::Cured { who, ailment: *ailment, from: *from })
            }
            Event::Acted { who, card } => {
                seat(who).map(|who| Fact::Acted { who, action: self.acting(s, who, card, head) })
            }
            Event::Outcome { target, hit } => seat(target).map(|target| Fact::Outcome { target, hit: *hit }),
            Event::DamageDealt { who, damage, block, injury } => seat(who).map(|who| Fact::DamageDealt {
                who,
                damage: *damage,
                block: *block,
                injury: *injury,
            }),
            Event::Ticked { who, ailment, from, to, injury } => seat(who).map(|who| Fact::Ticked {
                who,
                ailment: *ailment,
                from: *from,
                to: *to,
                injury: *injury,
            }),
            Event::RoundEnded { round } => Some(Fact::RoundEnded { round: *round }),
            Event::Defeated { who } => seat(who).map(|who| Fact::Defeated { who }),
            Event::FameGained { who, delta, total } => {
                seat(who).map(|who| Fact::FameGained { who, delta: *delta, total: *total })
            }
            Event::TrophyTaken { who, monster } => {
                seat(who).map(|who| Fact::TrophyTaken { who, monster: self.catalog.monsters.id(monster) })
            }
            _ => None,
        }
    }

    /// A seat's label (`?` for a seat the table does not have).
    pub(crate) fn label<'a>(&self, s: &'a State, i: Seat) -> &'a str {
        s.fighters.get(i.i()).map_or("?", |f| f.label.as_str())
    }

    /// The name of an action, as `act` and the track write it.
    pub(crate) fn action_name(&self, a: Action) -> &str {
        match a {
            Action::Lure => "lure",
            Action::Card(c) => self.catalog.cards.name(c),
        }
    }

    /// A consequence in notation.
    pub(crate) fn notate(&self, s: &State, fact: &Fact) -> Event {
        let l = |i: Seat| Name::new(self.label(s, i));
        match *fact {
            Fact::TokenGained { who } => Event::TokenGained { who: l(who) },
            Fact::Afflicted { who, ailment, add, total } => {
                Event::Afflicted { who: l(who), ailment, add, total }
            }
            Fact::Cured { who, ailment, from } => Event::Cured { who: l(who), ailment, from },
            Fact::Acted { who, action } => {
                let card = match action {
                    Acting::Token(a) => Name::new(self.action_name(a)),
                    Acting::NoPriority(h) => Name::new(h.name()),
                    Acting::Unknown => Name::new("?"),
                };
                Event::Acted { who: l(who), card }
            }
            Fact::Outcome { target, hit } => Event::Outcome { target: l(target), hit },
            Fact::DamageDealt { who, damage, block, injury } => {
                Event::DamageDealt { who: l(who), damage, block, injury }
            }
            Fact::Ticked { who, ailment, from, to, injury } => {
                Event::Ticked { who: l(who), ailment, from, to, injury }
            }
            Fact::RoundEnded { round } => Event::RoundEnded { round },
            Fact::Defeated { who } => Event::Defeated { who: l(who) },
            Fact::FameGained { who, delta, total } => Event::FameGained { who: l(who), delta, total },
            Fact::TrophyTaken { who, monster } => Event::TrophyTaken {
                who: l(who),
                monster: Name::new(monster.map_or("?", |m| self.catalog.monsters.name(m))),
            },
        }
    }
}
