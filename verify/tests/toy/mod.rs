//! A toy counter game that keeps verify's tests independent of the real games.
//!
//! `roll N` is a random outcome, `add N` the consequence the rules require after it (the
//! roll's value, doubled under the `double=yes` interpretation, and a 6 adds nothing under
//! the old `rules=1`), `note TEXT` an effect the engine cannot check. A wrong `add` after a
//! note since the roll may follow from the note (it could have turned the die): it is
//! uncertain, not a violation. A roll above 100 names a die that does not exist: it cannot
//! be applied.
#![allow(dead_code)]

use arbiter_engine::{
    Findings, Game, GameInfo, GameVisitor, ParamKind, ParamSpec, ParseError, RuleInfo, Setup, SetupError,
    StepError, Violation,
};
use arbiter_verify::{Context, Games};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Toy {
    setup: Setup,
    start: i64,
    double: bool,
    old_sixes: bool,
    cap: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub count: i64,
    pub pending: Option<i64>,
    /// Unverified effects so far (notes).
    pub notes: u32,
    /// The ordinal of the latest note since the roll, which taints its `add`.
    pub taint: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    Roll(i64),
    Add(i64),
    Note(String),
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Roll(n) => write!(f, "roll {n}"),
            Event::Add(n) => write!(f, "add {n}"),
            Event::Note(t) => write!(f, "note {t}"),
        }
    }
}

pub const RULES: &[RuleInfo] = &[
    RuleInfo { id: "toy.roll.range", text: "A die shows 1 to 6.", section: "Dice" },
    RuleInfo { id: "toy.roll.pending", text: "Add before rolling again.", section: "Turn" },
    RuleInfo { id: "toy.add.matches-roll", text: "Add what the die shows.", section: "Adding" },
    RuleInfo { id: "toy.add.without-roll", text: "Only add after a roll.", section: "Adding" },
];

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "start",
        kind: ParamKind::Setup,
        allowed: &["<number>"],
        default: "0",
        doc: "Start value.",
        section: "Setup",
    },
    ParamSpec {
        name: "double",
        kind: ParamKind::Interpretation,
        allowed: &["no", "yes"],
        default: "no",
        doc: "\"Add the roll, twice if lucky\": whether every roll is lucky.",
        section: "Adding",
    },
    ParamSpec {
        name: "cap",
        kind: ParamKind::Interpretation,
        allowed: &["none", "10"],
        default: "none",
        doc: "\"The counter goes up to ten\": whether it stops there.",
        section: "Adding",
    },
    ParamSpec {
        name: "rules",
        kind: ParamKind::Interpretation,
        allowed: &["1", "2"],
        default: "2",
        doc: "Rules version 1 added nothing for a 6.",
        section: "Adding",
    },
];

impl Toy {
    fn expected_add(&self, roll: i64) -> i64 {
        if self.old_sixes && roll == 6 {
            0
        } else if self.double {
            roll * 2
        } else {
            roll
        }
    }
}

impl Game for Toy {
    type State = State;
    type Event = Event;
    fn info() -> GameInfo {
        GameInfo { id: "toy", name: "Toy counter", rulebook: "toy.txt", rules_version: 2 }
    }
    fn rules() -> &'static [RuleInfo] {
        RULES
    }
    fn params() -> &'static [ParamSpec] {
        PARAMS
    }
    fn default_catalog() -> &'static str {
        "none"
    }
    fn builtin_catalog(name: &str) -> Option<&'static str> {
        (name == "none").then_some("")
    }
    fn new(setup: &Setup, _catalog: &str) -> Result<Self, SetupError> {
        let values = setup.resolve(PARAMS)?;
        let start = values["start"].parse().map_err(|_| SetupError::new("`start` must be a number"))?;
        let mut full = setup.clone();
        for (k, v) in &values {
            full.params.insert(k.to_string(), v.clone());
        }
        Ok(Toy {
            setup: full,
            start,
            double: values["double"] == "yes",
            old_sixes: values["rules"] == "1",
            cap: (values["cap"] == "10").then_some(10),
        })
    }
    fn setup(&self) -> &Setup {
        &self.setup
    }
    fn initial_state(&self) -> State {
        State { count: self.start, pending: None, notes: 0, taint: None }
    }
    fn parse_event(&self, line: &str) -> Result<Event, ParseError> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let number =
            || rest.trim().parse::<i64>().map_err(|_| ParseError::new(word.len() + 2, "a number", rest));
        match word {
            "roll" => Ok(Event::Roll(number()?)),
            "add" => Ok(Event::Add(number()?)),
            "note" => Ok(Event::Note(rest.to_string())),
            _ => Err(ParseError::new(1, "`roll`, `add` or `note`", word)),
        }
    }
    fn step(&self, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        match e {
            Event::Roll(n) if *n > 100 => {
                return Err(StepError::rule("toy.roll.range", format!("no die shows {n}")))
            }
            Event::Roll(n) => {
                if !(1..=6).contains(n) {
                    f.violate(Violation::new("toy.roll.range", format!("a die cannot show {n}")));
                }
                if s.pending.is_some() {
                    f.violate(Violation::new("toy.roll.pending", "rolled again before adding"));
                }
                s.pending = Some(*n);
                s.taint = None;
            }
            Event::Add(n) => {
                match s.pending {
                    Some(r) if self.expected_add(r) != *n => {
                        let v = Violation::new("toy.add.matches-roll", format!("the roll was {r}"))
                            .expected_recorded(format!("add {}", self.expected_add(r)), e.to_string());
                        f.violate(match s.taint {
                            Some(ordinal) => v.uncertain_after(ordinal),
                            None => v,
                        })
                    }
                    Some(_) => {}
                    None => f.violate(Violation::new("toy.add.without-roll", "nothing was rolled")),
                }
                s.count += n;
                if let Some(cap) = self.cap {
                    s.count = s.count.min(cap);
                }
                s.pending = None;
            }
            Event::Note(t) => {
                f.unverified.push(format!("note `{t}`"));
                s.taint = Some(s.notes);
                s.notes += 1;
            }
        }
        Ok(())
    }
    fn next_consequence(&self, s: &State) -> Option<Event> {
        s.pending.map(|r| Event::Add(self.expected_add(r)))
    }
    fn is_consequence(e: &Event) -> bool {
        matches!(e, Event::Add(_))
    }
    fn board(&self, s: &State) -> String {
        format!(
            "counter at {}\npending roll: {}\n",
            s.count,
            s.pending.map_or("none".to_string(), |p| p.to_string())
        )
    }
    fn facts(&self, s: &State) -> Vec<(String, String)> {
        vec![
            ("count".to_string(), s.count.to_string()),
            ("pending".to_string(), s.pending.map_or("-".to_string(), |p| p.to_string())),
        ]
    }
}

/// The toy as the only game verify can reach.
pub struct ToyGames;

impl Games for ToyGames {
    fn dispatch<V: GameVisitor>(&self, id: &str, visitor: V) -> Option<V::Output> {
        (id == "toy").then(|| visitor.visit::<Toy>())
    }
    fn ids(&self) -> Vec<&'static str> {
        vec!["toy"]
    }
}

pub fn ctx() -> Context<'static, ToyGames> {
    Context::with_games(ToyGames, None)
}

/// A test's scratch directory, removed with everything in it when the test drops it (a
/// failed test included): it reads as the path it holds.
pub struct Dir(tempfile::TempDir);

impl std::ops::Deref for Dir {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Dir {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A fresh directory for one test's files, named after the test.
pub fn dir(test: &str) -> Dir {
    Dir(tempfile::Builder::new().prefix(&format!("arbiter-verify-{test}-")).tempdir().unwrap())
}

/// Write a toy log (the `@game toy` line is added) and return its path.
pub fn log(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("@game toy\n{body}")).unwrap();
    p
}
