//! Given / when / then for rules, over any [`Game`]: one helper, many one-line
//! specifications.
//!
//! ```text
//! given(&game, DUEL).when("hit A").then_breaks(&[rules::WIT_SIX]);
//! given(&game, SAMPLE).when("end round 1").then_clean().then_fact("B.burn", "5");
//! ```
//!
//! `given` steps every line of notation from the initial state and insists they are legal
//! (a broken precondition fails the test at its line, not later); `when` steps one more
//! line and keeps what it found; the `then_*` checks say what that line must have found.
//! Every step goes through `Game::parse_event` and `Game::step`, as a replay does. For
//! tests only: a failed check panics with the line, what was expected and what was found.

use crate::{Findings, Game, StepError};

/// The table after some legal lines.
pub struct Given<'g, G: Game> {
    game: &'g G,
    state: G::State,
}

/// The table after one more line, with what that line found.
pub struct Then<'g, G: Game> {
    game: &'g G,
    line: String,
    state: G::State,
    outcome: Result<Findings, StepError>,
}

/// Step `lines` from the initial state; each must parse and be legal.
#[track_caller]
pub fn given<'g, G: Game>(game: &'g G, lines: &[&str]) -> Given<'g, G> {
    let mut state = game.initial_state();
    for line in lines {
        let event = game.parse_event(line).unwrap_or_else(|e| panic!("given `{line}`: {e}"));
        let mut f = Findings::default();
        if let Err(e) = game.step(&mut state, &event, &mut f) {
            panic!("given `{line}` cannot be applied: {e}");
        }
        if !f.is_clean() {
            panic!("given `{line}` is not legal: {:?}", f.violations);
        }
    }
    Given { game, state }
}

impl<'g, G: Game> Given<'g, G> {
    /// Step one more line (it must parse; it may break rules or be unapplicable).
    #[track_caller]
    pub fn when(self, line: &str) -> Then<'g, G> {
        let Given { game, mut state } = self;
        let event = game.parse_event(line).unwrap_or_else(|e| panic!("when `{line}`: {e}"));
        let mut f = Findings::default();
        let outcome = game.step(&mut state, &event, &mut f).map(|()| f);
        Then { game, line: line.to_string(), state, outcome }
    }

    /// More legal lines.
    #[track_caller]
    pub fn and(self, lines: &[&str]) -> Given<'g, G> {
        let mut then = Given { game: self.game, state: self.state };
        for line in lines {
            let t = then.when(line).then_clean();
            then = Given { game: t.game, state: t.state };
        }
        then
    }

    /// The state reached.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// A fact of the state reached (before any `when`).
    #[track_caller]
    pub fn fact(&self, key: &str) -> String {
        fact_of(self.game, &self.state, key)
    }
}

#[track_caller]
fn fact_of<G: Game>(game: &G, state: &G::State, key: &str) -> String {
    game.facts(state)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no fact `{key}`"))
}

impl<'g, G: Game> Then<'g, G> {
    #[track_caller]
    fn findings(&self) -> &Findings {
        match &self.outcome {
            Ok(f) => f,
            Err(e) => panic!("`{}` cannot be applied: {e}", self.line),
        }
    }

    /// The line broke exactly these rules (in order, once each listed).
    #[track_caller]
    pub fn then_breaks(self, rules: &[&str]) -> Self {
        let got: Vec<&str> = self.findings().violations.iter().map(|v| v.rule).collect();
        assert_eq!(got, rules, "`{}`: {:?}", self.line, self.findings().violations);
        self
    }

    /// The line broke no rule.
    #[track_caller]
    pub fn then_clean(self) -> Self {
        self.then_breaks(&[])
    }

    /// The line's findings that may follow from an unverified effect, by rule.
    #[track_caller]
    pub fn then_uncertain(self, rules: &[&str]) -> Self {
        let got: Vec<&str> = self.findings().uncertain.iter().map(|v| v.rule).collect();
        assert_eq!(got, rules, "`{}`: uncertain {:?}", self.line, self.findings().uncertain);
        self
    }

    /// The line reported this many unverified effects.
    #[track_caller]
    pub fn then_unverified(self, count: usize) -> Self {
        assert_eq!(
            self.findings().unverified.len(),
            count,
            "`{}`: {:?}",
            self.line,
            self.findings().unverified
        );
        self
    }

    /// The line cannot be applied, under this rule (`None`: no rule named).
    #[track_caller]
    pub fn then_error(self, rule: Option<&str>) -> Self {
        match &self.outcome {
            Err(e) => assert_eq!(e.rule, rule, "`{}`: {e}", self.line),
            Ok(f) => panic!("`{}` was applied ({:?}); expected an error", self.line, f.violations),
        }
        self
    }

    /// After the line, the fact `key` reads `value`.
    #[track_caller]
    pub fn then_fact(self, key: &str, value: &str) -> Self {
        assert_eq!(fact_of(self.game, &self.state, key), value, "after `{}`: {key}", self.line);
        self
    }

    /// What the line found, for checks the helpers above do not make.
    #[track_caller]
    pub fn found(&self) -> &Findings {
        self.findings()
    }

    /// The state after the line.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// Go on from here: the state after this line becomes the given.
    pub fn and_then(self) -> Given<'g, G> {
        Given { game: self.game, state: self.state }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keridwyn::{KeridwynFight, ILLUSTRATIVE};
    use crate::Setup;

    fn game() -> KeridwynFight {
        KeridwynFight::new(&Setup::default(), ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"))
    }

    const OPENING: &[&str] = &[
        "join A steve",
        "join B yahmra worn wood-armor merc chargo",
        "monster wyvern cage 4",
        "begin",
        "priority wyvern",
        "afflict B burn +2 -> 2",
        "afflict A burn +2 -> 2",
    ];

    #[test]
    fn given_when_then_reads_as_a_specification() {
        let g = game();
        given(&g, OPENING).when("reveal A lure maneuver:heavy-shield immune:burn").then_clean();
        given(&g, OPENING)
            .when("reveal A lure maneuver:heavy-shield immune:burn")
            .then_fact("A.burn", "2")
            .and_then()
            .when("cure A burn 2 -> 0")
            .then_clean()
            .then_fact("A.burn", "0");
        // The Burn left out: one finding, under the rule of the start effect.
        given(&g, &OPENING[..6]).when("reveal A lure focus").then_breaks(&["kf.start.monster-effect"]);
        given(&g, OPENING).when("roll A might 1 1").then_error(Some("kf.round.sequence"));
        assert_eq!(given(&g, OPENING).fact("B.burn"), "2");
        assert_eq!(given(&g, &OPENING[..4]).and(&OPENING[4..5]).fact("priority"), "wyvern");
    }
}
