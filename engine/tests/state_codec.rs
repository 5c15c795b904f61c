//! Every state a fixture's replay reaches, in every game, reads back from its encoding as
//! the same state: a snapshot (the state after N records, stored with the journal's codec,
//! bincode's standard configuration) is only worth keeping if decoding it gives the state it
//! was made from. bincode is not self-describing, so a field the encoding may leave out
//! (`skip_serializing_if`) misreads the bytes after it; this test walks every fixture, record
//! by record, so no such field hides in a state only some rule reaches. And what a state
//! keeps beside its encoding (answers the rules worked out and keep for the next record)
//! must not change the next record's outcome: a replay resumed from a snapshot is the same
//! replay. Each fixture's records read back too, from their encoding and from the line
//! they print.

mod common;

use arbiter_engine::{dispatch, game_ids, Findings, Game, GameVisitor};
use common::{fixtures_of, Fixture};

fn encode<S: serde::Serialize>(s: &S) -> Vec<u8> {
    bincode::serde::encode_to_vec(s, bincode::config::standard()).unwrap_or_default()
}

#[derive(Clone, Copy)]
struct RoundTrips;

impl GameVisitor for RoundTrips {
    type Output = (usize, Vec<String>);
    fn visit<G: Game>(self) -> (usize, Vec<String>) {
        let id = G::info().id;
        let (mut states, mut failures) = (0, Vec::new());
        for path in fixtures_of(id) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let Some(fixture) = Fixture::parse(&text) else { continue };
            let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let Some(game) = fixture.game::<G>(&path) else { continue };
            let events: Vec<G::Event> =
                fixture.lines.iter().map_while(|l| game.parse_event(l).ok()).collect();
            // Every record reads back from its stored encoding and from the line it prints.
            for e in &events {
                let bytes = encode(e);
                let back: Result<(G::Event, usize), _> =
                    bincode::serde::decode_from_slice(&bytes, bincode::config::standard());
                if back.ok().map(|(b, _)| b).as_ref() != Some(e) {
                    failures.push(format!("{id} {name}: `{e}` does not read back from its encoding"));
                }
                if game.parse_event(&e.to_string()).as_ref().ok() != Some(e) {
                    failures.push(format!("{id} {name}: `{e}` does not read back from the line it prints"));
                }
            }
            let mut state = game.initial_state();
            for (i, e) in events.iter().enumerate() {
                if game.step(&mut state, e, &mut Findings::default()).is_err() {
                    break;
                }
                states += 1;
                let bytes = encode(&state);
                let back: Result<(G::State, usize), _> =
                    bincode::serde::decode_from_slice(&bytes, bincode::config::standard());
                let Ok((read, _)) = back else {
                    failures.push(format!("{id} {name}: the state after record {i} (`{e}`) does not decode"));
                    break;
                };
                if encode(&read) != bytes {
                    failures
                        .push(format!("{id} {name}: the state after record {i} (`{e}`) reads back changed"));
                    break;
                }
                // What a state keeps beside its encoding (work the rules saved, not part of
                // the snapshot) must not change what the next record does: stepped from the
                // state read back, it gives the same state and the same findings.
                if let Some(next) = events.get(i + 1) {
                    let (mut a, mut b) = (state.clone(), read);
                    let (mut fa, mut fb) = (Findings::default(), Findings::default());
                    let ra = game.step(&mut a, next, &mut fa).map_err(|e| e.to_string());
                    let rb = game.step(&mut b, next, &mut fb).map_err(|e| e.to_string());
                    if ra != rb || encode(&a) != encode(&b) || format!("{fa:?}") != format!("{fb:?}") {
                        failures.push(format!(
                            "{id} {name}: record {} (`{next}`) steps differently from the state read back",
                            i + 1
                        ));
                        break;
                    }
                }
            }
        }
        (states, failures)
    }
}

#[test]
fn every_state_a_fixture_reaches_reads_back_from_its_encoding() {
    let mut failures = Vec::new();
    for id in game_ids() {
        let (states, mut failed) = dispatch(id, RoundTrips).expect("a registered game");
        assert!(states > 100, "{id}: only {states} states checked");
        failures.append(&mut failed);
    }
    assert!(failures.is_empty(), "states that do not read back:\n{}", failures.join("\n"));
}
