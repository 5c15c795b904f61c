//! A campaign: many games of one game played back to back in one session, for the figures
//! the issue asks at 10^6 events of a single session (state at event N, diff, peak memory).
//!
//! A simulated game ends after some hundreds of events, so no legal session of one game is
//! 10^6 events long. `Campaign<G>` wraps a game and adds one event, `next game`, that puts
//! the table back to its initial state; every other event is the wrapped game's, stepped by
//! the wrapped game's own rules. This is a convention of the benchmark, not of the engine:
//! it lets the journal, the snapshots and verify's diff run on one 10^6-record session made
//! only of legal games, through the same generic code paths a real session takes (verify
//! reaches it through its `Games` trait, exactly as it reaches the engine's games).

use arbiter_engine::{
    Findings, Game, GameInfo, GameVisitor, ParamSpec, ParseError, RuleInfo, Setup, SetupError, StepError,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// The notation of the boundary event. Not a word any game uses (`undo` is the log format's).
pub const NEXT_GAME: &str = "next-game";

#[derive(Debug, Clone)]
pub struct Campaign<G: Game> {
    pub inner: G,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CampaignEvent<E> {
    /// An event of the current game.
    Play(E),
    /// The current game is over; the table is set up again.
    NextGame,
}

impl<E: fmt::Display> fmt::Display for CampaignEvent<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CampaignEvent::Play(e) => e.fmt(f),
            CampaignEvent::NextGame => f.write_str(NEXT_GAME),
        }
    }
}

/// `GameInfo::id` is `&'static str`, and a generic type has no statics of its own: the ids
/// of the campaigns made so far, leaked once each.
fn campaign_id(inner: &'static str) -> &'static str {
    static IDS: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    let ids = IDS.get_or_init(Default::default);
    let mut ids = ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    ids.entry(inner).or_insert_with(|| Box::leak(format!("{inner}-campaign").into_boxed_str()))
}

impl<G: Game> Game for Campaign<G> {
    type State = G::State;
    type Event = CampaignEvent<G::Event>;

    fn info() -> GameInfo {
        let inner = G::info();
        GameInfo { id: campaign_id(inner.id), ..inner }
    }
    fn rules() -> &'static [RuleInfo] {
        G::rules()
    }
    fn params() -> &'static [ParamSpec] {
        G::params()
    }
    fn default_catalog() -> &'static str {
        G::default_catalog()
    }
    fn builtin_catalog(name: &str) -> Option<&'static str> {
        G::builtin_catalog(name)
    }
    fn new(setup: &Setup, catalog_text: &str) -> Result<Self, SetupError> {
        Ok(Campaign { inner: G::new(setup, catalog_text)? })
    }
    fn setup(&self) -> &Setup {
        self.inner.setup()
    }
    fn initial_state(&self) -> G::State {
        self.inner.initial_state()
    }
    fn parse_event(&self, line: &str) -> Result<Self::Event, ParseError> {
        if line.trim() == NEXT_GAME {
            Ok(CampaignEvent::NextGame)
        } else {
            self.inner.parse_event(line).map(CampaignEvent::Play)
        }
    }
    fn step(
        &self,
        state: &mut G::State,
        event: &Self::Event,
        findings: &mut Findings,
    ) -> Result<(), StepError> {
        match event {
            CampaignEvent::Play(e) => self.inner.step(state, e, findings),
            CampaignEvent::NextGame => {
                *state = self.inner.initial_state();
                Ok(())
            }
        }
    }
    fn next_consequence(&self, state: &G::State) -> Option<Self::Event> {
        self.inner.next_consequence(state).map(CampaignEvent::Play)
    }
    fn is_consequence(event: &Self::Event) -> bool {
        matches!(event, CampaignEvent::Play(e) if G::is_consequence(e))
    }
    fn board(&self, state: &G::State) -> String {
        self.inner.board(state)
    }
    fn facts(&self, state: &G::State) -> Vec<(String, String)> {
        self.inner.facts(state)
    }
    /// Games of seeds `seed`, `seed + 1`, ... back to back until `events` events.
    fn simulate(&self, seed: u64, events: usize) -> Option<Vec<Self::Event>> {
        let mut out = Vec::with_capacity(events);
        let mut s = seed;
        while out.len() < events {
            if !out.is_empty() {
                out.push(CampaignEvent::NextGame);
            }
            let game = self.inner.simulate(s, events - out.len())?;
            if game.is_empty() {
                return None;
            }
            out.extend(game.into_iter().map(CampaignEvent::Play));
            s += 1;
        }
        out.truncate(events);
        Some(out)
    }
}

/// verify's view of the campaign: a registry holding exactly one game.
pub struct CampaignGames<G: Game>(std::marker::PhantomData<fn() -> G>);

impl<G: Game> Default for CampaignGames<G> {
    fn default() -> Self {
        CampaignGames(std::marker::PhantomData)
    }
}

impl<G: Game> arbiter_verify::Games for CampaignGames<G> {
    fn dispatch<V: GameVisitor>(&self, id: &str, visitor: V) -> Option<V::Output> {
        (id == Campaign::<G>::info().id).then(|| visitor.visit::<Campaign<G>>())
    }
    fn ids(&self) -> Vec<&'static str> {
        vec![Campaign::<G>::info().id]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::corpus::default_game;
    use arbiter_engine::proving_grounds::ProvingGrounds;

    #[test]
    fn a_campaign_is_legal_games_back_to_back_and_its_notation_round_trips() {
        let game = Campaign { inner: default_game::<ProvingGrounds>().expect("the built-in game") };
        let events = game.simulate(7, 5_000).expect("a simulator");
        assert_eq!(events.len(), 5_000);
        let boundaries = events.iter().filter(|e| **e == CampaignEvent::NextGame).count();
        assert!(boundaries >= 2, "5,000 events hold several games, found {boundaries} boundaries");
        let mut state = game.initial_state();
        let mut findings = Findings::default();
        for (i, e) in events.iter().enumerate() {
            let line = e.to_string();
            assert_eq!(game.parse_event(&line).as_ref(), Ok(e), "record {i}: `{line}`");
            game.step(&mut state, e, &mut findings).expect("a simulated event applies");
            assert!(findings.is_clean(), "record {i} `{line}`: {:?}", findings.violations);
        }
        // Without the boundary, the second game's first event lands on a finished game.
        let first_boundary = events.iter().position(|e| *e == CampaignEvent::NextGame).unwrap_or(0);
        let mut state = game.initial_state();
        let mut broken = Findings::default();
        let mut failed = false;
        for e in events[..first_boundary].iter().chain(&events[first_boundary + 1..first_boundary + 2]) {
            failed |= game.step(&mut state, e, &mut broken).is_err();
        }
        assert!(failed || !broken.is_clean(), "an event after the end of a game must be refused");
    }

    #[test]
    fn the_campaign_has_its_own_id_and_verify_reaches_it() {
        let id = Campaign::<ProvingGrounds>::info().id;
        assert_eq!(id, "proving-grounds-campaign");
        assert_eq!(Campaign::<ProvingGrounds>::info().id.as_ptr(), id.as_ptr(), "leaked once");
        let games = CampaignGames::<ProvingGrounds>::default();
        assert_eq!(arbiter_verify::Games::ids(&games), vec![id]);
    }
}
