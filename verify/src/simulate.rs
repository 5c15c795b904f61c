//! `arbiter simulate`: a game's seeded random player, its log stored as a session or written
//! to a file. The same seed and setup give the same log on every machine.

use crate::error::VerifyError;
use crate::header::Header;
use crate::logfile::{header_to_json, header_to_notation};
use crate::open::{build_game, unknown_game};
use crate::session::{from_journal, journal};
use crate::transfer::now;
use crate::{Context, Games};
use arbiter_engine::{Game, GameVisitor};
use arbiter_journal::{Record, SessionMeta};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// Where the simulated log goes.
#[derive(Debug, Clone, Copy)]
pub enum SimulateInto<'a> {
    /// A new session (all or nothing, like `import`).
    Session(&'a str),
    /// A file: JSONL when the name ends in `.jsonl`, notation otherwise; written whole or
    /// not at all.
    File(&'a Path),
}

/// What was simulated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Simulated {
    pub game: String,
    pub seed: u64,
    /// Events in the log; fewer than asked when the game ended first.
    pub events: u64,
    pub into: String,
}

impl fmt::Display for Simulated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "simulated {} events of {} (seed {}) into {}",
            self.events, self.game, self.seed, self.into
        )
    }
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    header: Header,
    seed: u64,
    events: usize,
    into: SimulateInto<'c>,
}

impl<'c, 'a, R: Games> GameVisitor for Work<'c, 'a, R> {
    type Output = Result<Simulated, VerifyError>;
    fn visit<G: Game>(self) -> Self::Output {
        let id = G::info().id;
        let game: G = build_game(&id, &self.header, &[], None)?;
        let log = game.simulate(self.seed, self.events).ok_or_else(|| {
            VerifyError::argument(format!("{id} has no simulator yet: `arbiter simulate` cannot play it"))
        })?;
        let into = match self.into {
            SimulateInto::Session(name) => {
                let meta = SessionMeta {
                    game: id.to_string(),
                    setup: self.header.setup.clone(),
                    catalog: self.header.catalog.clone(),
                    rules_version: G::info().rules_version,
                    created: now(),
                    title: format!("simulated, seed {}", self.seed),
                    parent: None,
                };
                let records: Vec<Record<G::Event>> = log.iter().cloned().map(Record::Event).collect();
                journal(self.ctx, name)?.import(name, &meta, &records).map_err(from_journal)?;
                format!("session `{name}`")
            }
            SimulateInto::File(path) => {
                let text = if path.extension().is_some_and(|e| e == "jsonl") {
                    let mut out = format!("{}\n", header_to_json(&self.header));
                    for e in &log {
                        let v = serde_json::to_value(e).map_err(|err| {
                            VerifyError::argument(format!("{id}: an event has no JSON form ({err})"))
                        })?;
                        out.push_str(&format!("{}\n", serde_json::json!({ "event": v })));
                    }
                    out
                } else {
                    let mut out = header_to_notation(&self.header);
                    for e in &log {
                        out.push_str(&format!("{e}\n"));
                    }
                    out
                };
                write_whole(path, &text)?;
                format!("`{}`", path.display())
            }
        };
        Ok(Simulated { game: id.to_string(), seed: self.seed, events: log.len() as u64, into })
    }
}

/// Simulate `events` events of `game` under `setup` with `seed`.
pub fn simulate<R: Games>(
    ctx: &Context<'_, R>,
    game: &str,
    setup: &[(String, String)],
    seed: u64,
    events: usize,
    into: SimulateInto<'_>,
) -> Result<Simulated, VerifyError> {
    let header = Header {
        game: game.to_string(),
        setup: setup.iter().cloned().collect::<BTreeMap<_, _>>(),
        catalog: None,
        catalog_sha256: None,
        title: Some(format!("simulated, seed {seed}")),
        rules_version: None,
    };
    ctx.games
        .dispatch(game, Work { ctx, header, seed, events, into })
        .unwrap_or_else(|| Err(unknown_game(ctx, "simulate", game)))
}

/// Write whole or not at all over a regular file (a temporary file and a rename, removed on
/// failure), written through a device, FIFO or link, never into a database directory: as a
/// report file is (`report_file`).
fn write_whole(path: &Path, text: &str) -> Result<(), VerifyError> {
    crate::report_file::write_output_file(path, text, "log file")
}
