//! Planning a round: each player reveals two hand cards in reverse turn order, declaring
//! the card Primary, Secondary or Maneuver uses (and Maneuver's Immunity), and the tokens
//! go on the Priority track. Balance and Focus act as revealed.

use super::cards::CardKind;
use super::effect::Effect;
use super::event::{Event, Play};
use super::fact::same;
use super::rules::{self, DeclaredRepeat, FocusRefresh, ManeuverOptions, OwnTieOrder, TrackPriority};
use super::setup::out_of_sequence;
use super::state::{to_end, Action, Hand, HandCard, Ongoing, Phase, Seat, Source, State, Token};
use super::KeridwynFight;
use crate::{Findings, StepError, Violation};

impl KeridwynFight {
    /// Under `track-priority=current`, every token on the track moves to its action's
    /// Priority now (a Slow, Immunity or Priority effect gained or ended since it was placed);
    /// under the default `as-placed` the tokens stay on the numbers they were placed on (l.33).
    pub(crate) fn reprice_track(&self, s: &mut State) {
        if self.params.track_priority != TrackPriority::Current || s.track.is_empty() {
            return;
        }
        let prices: Vec<i32> = s
            .track
            .iter()
            .map(|t| self.token_priority(s, t.who, self.action_priority(t.action), t.second))
            .collect();
        for (t, p) in s.track.iter_mut().zip(prices) {
            t.priority = p;
        }
    }

    /// An action's printed Priority, before its owner's modifiers: the catalog's Lure, or the
    /// card's (none printed counts as 0).
    fn action_priority(&self, action: Action) -> i32 {
        match action {
            Action::Lure => self.catalog.lure_priority.unwrap_or(0),
            Action::Card(id) => self.catalog.cards.get(id).and_then(|k| k.priority).unwrap_or(0),
        }
    }

    /// `reveal A lure maneuver:heavy-shield immune:burn`
    pub(crate) fn reveal(
        &self,
        s: &mut State,
        ev: &Event,
        who: &str,
        plays: &[Play],
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if !matches!(s.phase, Phase::Reveal) {
            return Err(out_of_sequence(ev, s));
        }
        let i = self.seat(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
        let fi = s.fighter(i);
        if fi.is_monster() || fi.defeated || fi.revealed {
            return Err(StepError::rule(rules::SEQUENCE, format!("{who} has no cards to reveal now")));
        }
        // Who reveals next, and how many are yet to (`i` among them, as checked above): this
        // reveal ends the reveals when `i` is the last (one pass over the table for both).
        let (next, waiting) = self.revealers(s);
        if let Some(next) = next.filter(|&n| n != i) {
            let label = self.label(s, next);
            f.violate(
                Violation::new(
                    rules::REVEAL_ORDER,
                    format!("{label} reveals before {who} (reverse turn order)"),
                )
                .expected_recorded(format!("reveal {label} ..."), ev.to_string()),
            );
        }
        let hand_card = |p: &Play| match p {
            Play::Lure => Some(HandCard::Lure),
            Play::Balance => Some(HandCard::Balance),
            Play::Focus => Some(HandCard::Focus),
            Play::Primary { .. } => Some(HandCard::Primary),
            Play::Secondary { .. } => Some(HandCard::Secondary),
            Play::Maneuver { .. } => Some(HandCard::Maneuver),
            Play::Immune(_) => None,
        };
        // What the line plays, in one pass over it (a reveal is a hot record).
        let (mut played, mut focus, mut maneuver, mut maneuver_gear, mut immunities) =
            (0, false, false, false, 0);
        for p in plays {
            match p {
                Play::Immune(_) => immunities += 1,
                Play::Focus => focus = true,
                Play::Maneuver { card } => {
                    maneuver = true;
                    maneuver_gear |= card.is_some();
                }
                _ => {}
            }
            played += usize::from(!matches!(p, Play::Immune(_)));
        }
        if played != 2 {
            f.violate(Violation::new(
                rules::TWO_CARDS,
                format!("{who} played {played} card{}, not 2", if played == 1 { "" } else { "s" }),
            ));
        }
        // Focus returning earlier discards as it is revealed (`on-reveal` reading).
        if self.params.focus == FocusRefresh::OnReveal && focus {
            let fi = s.fighter_mut(i);
            let back = std::mem::take(&mut fi.discarded);
            fi.hand.extend(back);
        }
        // Inline (a reveal places two cards): every reveal allocated this list.
        let mut placed = Hand::new();
        for h in plays.iter().filter_map(hand_card) {
            // "placing two cards from their hand" (l.31): one hand card cannot be both, so a
            // repeat is a wrong pair of cards, not a card used again before Focus.
            if placed.contains(&h) {
                f.violate(Violation::new(
                    rules::TWO_CARDS,
                    format!("{who} played {} twice: the two cards are two different hand cards", h.name()),
                ));
                continue;
            }
            placed.push(h);
            let fi = s.fighter_mut(i);
            match fi.hand.iter().position(|x| *x == h) {
                Some(p) => {
                    to_end(&mut fi.hand, p);
                    fi.hand.pop();
                    fi.discarded.push(h);
                }
                None => f.violate(Violation::new(
                    rules::ONCE,
                    format!("{who}'s {} was already used and Focus has not been played since", h.name()),
                )),
            }
        }
        if immunities > 0 && !maneuver {
            f.violate(Violation::new(rules::CHOICE, "only Maneuver grants Immunity to an Ailment"));
        } else if immunities > 1 {
            f.violate(Violation::new(rules::CHOICE, "Maneuver grants Immunity to one Ailment"));
        } else if immunities == 1 && maneuver_gear && self.params.maneuver == ManeuverOptions::GearOrImmunity
        {
            f.violate(Violation::new(
                rules::CHOICE,
                "Maneuver grants gear or Immunity, not both (maneuver-options)",
            ));
        }
        // `declared-card-repeat=refused`: the cards one reveal declares are different cards
        // (the default reads no such limit in l.29-31). Reported once, played as recorded.
        if self.params.declared_repeat == DeclaredRepeat::Refused {
            let declared: Vec<&str> = plays
                .iter()
                .filter_map(|p| match p {
                    Play::Primary { card, .. }
                    | Play::Secondary { card, .. }
                    | Play::Maneuver { card: Some(card) } => Some(card.as_str()),
                    _ => None,
                })
                .collect();
            let repeat = declared.iter().enumerate().find(|(k, c)| declared[..*k].iter().any(|d| same(d, c)));
            if let Some((_, card)) = repeat {
                f.violate(Violation::new(
                    rules::CHOICE,
                    format!("{who} declares `{card}` twice in one round (declared-card-repeat=refused)"),
                ));
            }
        }
        // Maneuver's Immunity takes hold as it is revealed, "immediately removing" the Ailment
        // (the sample, l.49) before the tokens go down: applied first, whatever the order.
        // The tokens go down in the order the line names the plays, which the chain derives
        // first among one participant's two tokens on one number (`own-tie-order=any`: the
        // other is owed as much, due.rs's `reorder`). Under `revealed` they go down in the
        // order l.24 lists the hand (Primary, Secondary, Lure, Balance, Maneuver, Focus),
        // whatever order the line names them, and resolve in that order.
        let rank = |p: &&Play| match (self.params.own_tie_order, p) {
            (OwnTieOrder::Any, _) => 0,
            (_, Play::Primary { .. }) => 0,
            (_, Play::Secondary { .. }) => 1,
            (_, Play::Lure) => 2,
            (_, Play::Balance) => 3,
            (_, Play::Maneuver { .. }) => 4,
            (_, Play::Focus | Play::Immune(_)) => 5,
        };
        // Under `any` the line's order, walked in place (a reveal is a hot record); under
        // `revealed` the plays are gathered and sorted first.
        let any = self.params.own_tie_order == OwnTieOrder::Any;
        let mut sorted: smallvec::SmallVec<[&Play; 8]> = smallvec::SmallVec::new();
        if !any {
            sorted.extend(plays.iter().filter(|p| !matches!(p, Play::Immune(_))));
            sorted.sort_by_key(rank);
        }
        // The immunities first (a line without any is not walked for them).
        let with_immune = if immunities > 0 { plays } else { &[] };
        let immune = with_immune.iter().filter(|p| matches!(p, Play::Immune(_)));
        let in_line = plays.iter().filter(|p| any && !matches!(p, Play::Immune(_)));
        for p in immune.chain(in_line).chain(sorted.iter().copied()) {
            match p {
                Play::Lure => {
                    let priority = self.token_priority(s, i, self.action_priority(Action::Lure), false);
                    s.track.push(Token { who: i, action: Action::Lure, priority, on: None, second: false });
                }
                // "unless a character already determined who is attacked by using Balance"
                // (l.45): a second Balance the same round does not take it over.
                Play::Balance => {
                    if s.balance.is_none() {
                        s.balance = Some(i);
                    }
                }
                Play::Focus => s.fighter_mut(i).focus_played = true,
                Play::Immune(a) => {
                    s.cure_check = true;
                    let since = s.round;
                    let source = Source::Maneuver { by: i };
                    let fi = s.fighter_mut(i);
                    fi.effects.retain(|o| o.source != source);
                    fi.effects.push(Ongoing {
                        source,
                        effects: smallvec::smallvec![Effect::Immunity(*a)],
                        rounds: Some(1),
                        since,
                    });
                }
                Play::Primary { card, on } | Play::Secondary { card, on } => {
                    self.choose(s, i, card, on.as_deref(), false, f);
                }
                Play::Maneuver { card: Some(card) } => self.choose(s, i, card, None, true, f),
                Play::Maneuver { card: None } => {}
            }
        }
        s.fighter_mut(i).revealed = true;
        if waiting <= 1 {
            let monster = s.monster().filter(|&m| !s.fighter(m).defeated);
            let next = match monster {
                Some(_) if !s.monster_rolled => Phase::MonsterRoll { second: false },
                // Its die, rolled during the reveals, gave no action, and the second was not
                // rolled there too: with more than 2 characters it comes now
                // (`no-first-action=second-roll`), as it would right after that roll.
                Some(_) if self.second_after_no_action(s) => Phase::MonsterRoll { second: true },
                _ => Phase::Actions,
            };
            s.set_phase(next);
        }
        Ok(())
    }

    /// Primary, Secondary or Maneuver declaring a card: check it and put its token down.
    fn choose(&self, s: &mut State, i: Seat, card: &str, on: Option<&str>, maneuver: bool, f: &mut Findings) {
        // Among the fighter's own cards by name (ids are unique), not the catalog's index:
        // a hand holds a few cards, the catalog many.
        let owned =
            self.cards_of(s.fighter(i)).iter().copied().find(|&c| same(self.catalog.cards.name(c), card));
        let Some((id, k)) = owned.and_then(|c| self.catalog.cards.get(c).map(|k| (c, k))) else {
            f.violate(Violation::new(rules::CHOICE, format!("{} has no card `{card}`", self.label(s, i))));
            return;
        };
        if k.worn {
            f.violate(Violation::new(
                rules::WORN_PROTECTS,
                format!("`{card}` is worn: it protects without being played"),
            ));
            return;
        }
        if maneuver && (k.kind != CardKind::Gear || k.attack.is_some()) {
            f.violate(Violation::new(
                rules::CHOICE,
                format!("Maneuver uses gear that does not attack, not `{card}`"),
            ));
        }
        let target = match on {
            None => None,
            Some(o) => {
                let t = self.seat(s, o).filter(|&t| !s.fighter(t).is_monster() && !s.fighter(t).defeated);
                if !k.is_support_spell() || t.is_none() {
                    f.violate(Violation::new(
                        rules::GRANT,
                        format!("only a Spell that does not attack may be granted to another character (`{card}@{o}`)"),
                    ));
                } else if s.monster().is_none() && t != Some(i) {
                    // The grant clause (l.43) is in "MULTIPLE CHARACTERS FACING A MONSTER":
                    // between two characters there is no ally, only the foe.
                    f.violate(Violation::new(
                        rules::GRANT,
                        format!(
                            "in a fight between characters a spell is not granted to the foe (`{card}@{o}`)"
                        ),
                    ));
                }
                t
            }
        };
        let priority = self.token_priority(s, i, self.action_priority(Action::Card(id)), false);
        s.track.push(Token { who: i, action: Action::Card(id), priority, on: target, second: false });
    }
}
