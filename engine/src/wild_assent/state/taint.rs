//! A miniature's marks from unverified card text, by the scope of the text (what it may have
//! changed): the scopes, the scope a rule's findings rest on, and the marks themselves.
//! Reporting a text and marking the miniatures it concerns is `taint.rs`'s.

use super::super::rules;
use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};

named_enum! {
    /// What part of the game an unverified text may change. `health` is the narrowest:
    /// only a miniature's Health left (a text that heals, like Soul Feast), so only the
    /// findings that rest on it ([`health_rule`]); an `attack` text covers those too.
    pub enum TextScope ("a scope (any, activation, targeting, movement, attack, status, health)") {
        Any = "any", Activation = "activation", Targeting = "targeting", Movement = "movement",
        Attack = "attack", Status = "status", Health = "health"
    }
}

/// The scope a text opens with (`activation: ...`); `any` without one. Only the text's first
/// word is read: a scope's name has no `:` and no space, so the text cut at its first `:`
/// trims to a scope's name exactly when it is spaces, that name, spaces and then the `:`.
/// Every standing text is reported again each time a Creature is slain, and searching the
/// whole text for a `:` and trimming both halves cost more than the rest of its marking.
pub fn text_scope(text: &str) -> TextScope {
    let t = text.trim_start();
    let n = t.bytes().take_while(u8::is_ascii_lowercase).count();
    match TextScope::parse(&t[..n]) {
        Some(scope) if t[n..].trim_start().starts_with(':') => scope,
        _ => TextScope::Any,
    }
}

named_enum! {
    /// When a standing (Passive or Equipment) text can first act: the catalog's `trigger`
    /// line on its card (`trigger slain`); without one, from the start.
    pub enum Trigger ("a trigger (always, slain)") {
        /// Nothing waits for an event: it may act from the start.
        Always = "always",
        /// It acts "when a Creature is slain": the trigger the book names for the two Passive
        /// Skills whose working it describes, Rout ("activate out-of-turn when a Creature is
        /// slain", l.89) and Soul Feast ("heals him each time a Creature is slain", l.436).
        Slain = "slain"
    }
}

/// Whether a finding under `rule` rests on a miniature's Health left (what a `health` text
/// may change): whether damage slays or injures it, how much a heal gives back, whether it
/// is damaged (Onslaught assigns its damage to a damaged target), who has fallen.
pub fn health_rule(rule: &str) -> bool {
    matches!(
        rule,
        rules::SLAIN
            | rules::INJURED
            | rules::HEAL
            | rules::BLEED_HEAL
            | rules::MOMENTUM_HEAL
            | rules::ASSIGN
            | rules::DEFENSE
            | rules::ATTACK_TOTAL
            | rules::VICTORY_DEATHMATCH
            | rules::VICTORY_LAST
            | rules::GAME_OVER
            | rules::CAPTURE_ELIGIBLE
    )
}

/// Whether a text of `scope` may have changed a finding under `rule`.
pub fn covers(scope: TextScope, rule: &str) -> bool {
    scope == TextScope::Any || scope == scope_of(rule) || (scope == TextScope::Health && health_rule(rule))
}

/// The scope a rule's findings belong to.
pub fn scope_of(rule: &str) -> TextScope {
    match rule {
        rules::FIRST_SIDE
        | rules::ALTERNATE
        | rules::SEEKER_ONCE
        | rules::SAME_START
        | rules::FREE_ACTIVATION
        | rules::ROUND_END
        | rules::INSTINCT_DRAW
        | rules::SUMMON_ACTIVATION
        | rules::ORDER_ASSENTS
        | rules::ORDER_CREATURES
        | rules::ORDER_TEAMS
        | rules::ORDER_ONCE => TextScope::Activation,
        rules::TARGET_KIND
        | rules::TARGET_ACTIONABLE
        | rules::TARGET_CRITERIA
        | rules::TARGET_UNREACHABLE
        | rules::CACTION => TextScope::Targeting,
        rules::SPEED
        | rules::DIRECTIONS
        | rules::SWIFT
        | rules::ROTATE
        | rules::OCCUPIED
        | rules::FLYING_END
        | rules::ACTION_ENDS
        | rules::PARTIAL_NO_END
        | rules::PARTIAL_CROSS
        | rules::FULL_IMPASSABLE
        | rules::PIT_STOP
        | rules::PIT_EXIT
        | rules::IMMOBILIZE
        | rules::FATIGUE
        | rules::BOUNDS
        | rules::CMOVE_SHORTEST
        | rules::CMOVE_HALT
        | rules::CMOVE_ADVANCE
        | rules::CMOVE_CAREFUL
        | rules::CMOVE_FACE => TextScope::Movement,
        rules::EXPIRE
        | rules::IMMOBILIZE_STUN
        | rules::BLEED_TICK
        | rules::BLEED_PERSIST
        | rules::BLEED_HEAL
        | rules::STUN => TextScope::Status,
        r if r.starts_with("wa.los.")
            || r.starts_with("wa.range.")
            || r.starts_with("wa.attack.")
            || r.starts_with("wa.dice.")
            || r.starts_with("wa.damage.")
            || r.starts_with("wa.special.")
            || r.starts_with("wa.knockback.")
            || r.starts_with("wa.action.")
            || matches!(
                r,
                rules::PARTIAL_DEFENSE
                    | rules::FULL_BLOCKS_LOS
                    | rules::HAZARD_IS_FULL
                    | rules::HAZARD_PUSH
                    | rules::BLIND
                    | rules::HEAL
                    | rules::INJURED
            ) =>
        {
            TextScope::Attack
        }
        _ => TextScope::Any,
    }
}

/// A miniature's marks: per scope, the last unverified text that may have changed it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taints([Option<u32>; 7]);

impl Taints {
    pub fn mark(&mut self, scope: TextScope, ordinal: u32) {
        let slot = &mut self.0[scope.index()];
        *slot = Some(slot.map_or(ordinal, |o| o.max(ordinal)));
    }
    /// The text a finding under `rule` may follow from.
    pub fn for_rule(&self, rule: &str) -> Option<u32> {
        // The scopes `covers` names: a rule of no particular scope is touched only by a text
        // that may touch anything.
        TextScope::ALL.iter().filter(|&&sc| covers(sc, rule)).filter_map(|sc| self.0[sc.index()]).max()
    }
    pub fn is_clean(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scoped_text_taints_only_its_scope() {
        assert_eq!(text_scope("activation: out of turn"), TextScope::Activation);
        assert_eq!(text_scope(" movement  : moves"), TextScope::Movement);
        assert_eq!(text_scope("health:"), TextScope::Health);
        assert_eq!(text_scope("Environment: fog"), TextScope::Any);
        assert_eq!(text_scope("plain words"), TextScope::Any);
        assert_eq!(text_scope("attack twice: no"), TextScope::Any, "the scope is the whole head");
        assert_eq!(text_scope("status"), TextScope::Any);
        assert_eq!(text_scope(""), TextScope::Any);
        let mut t = Taints::default();
        t.mark(TextScope::Activation, 3);
        assert_eq!(t.for_rule(rules::ALTERNATE), Some(3));
        assert_eq!(t.for_rule(rules::ATTACK_TOTAL), None);
        assert_eq!(t.for_rule(rules::CAPTURE_START), None, "a rule of no scope: only an `any` text counts");
        t.mark(TextScope::Any, 5);
        assert_eq!(t.for_rule(rules::ATTACK_TOTAL), Some(5));
        assert_eq!(scope_of(rules::BACK), TextScope::Attack);
        assert_eq!(scope_of(rules::CMOVE_HALT), TextScope::Movement);
    }

    #[test]
    fn a_health_text_touches_only_what_rests_on_health() {
        let mut t = Taints::default();
        t.mark(TextScope::Health, 4);
        assert_eq!(t.for_rule(rules::SLAIN), Some(4));
        assert_eq!(t.for_rule(rules::HEAL), Some(4));
        assert_eq!(t.for_rule(rules::RANGE), None, "a heal moves no attack's range");
        assert_eq!(t.for_rule(rules::ARC), None);
        assert!(covers(TextScope::Attack, rules::SLAIN) && !covers(TextScope::Health, rules::BLOCKED));
        assert_eq!(Trigger::parse("slain"), Some(Trigger::Slain));
    }
}
