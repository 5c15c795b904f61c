//! The facts an encounter is recorded as, and their notation (`Display`; notation.rs reads it
//! back). Miniatures and cards are named as written (their catalog id; a Summon's copy as
//! `daemonspawn-2`); fields as players read the board (`c4`); facings `n e s w`. Every
//! name is kept inline, so decoding a stored log allocates nothing but for the rare lineup
//! (a troupe, an Assent's Skill cards, a draw), boxed so that it does not make every event
//! its size.

use super::effect::Status;
use super::state::momentum::Dice;
use super::state::{Faces, Obstacle, Removal, Side};
use crate::kit::grid::{Facing, Pos, Rel, Turn};
use crate::kit::name::Name;
use crate::kit::named::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// One move of a `move` event: a step, a turn, a hop over Partial Cover, or a leap.
    pub enum Step ("a step (f, l, r, fl, fr, b, bl, br, tl, tr, tb, hop, hop-l, hop-r, hop-fl, hop-fr, leap)") {
        F = "f", L = "l", R = "r", Fl = "fl", Fr = "fr", B = "b", Bl = "bl", Br = "br",
        Tl = "tl", Tr = "tr", Tb = "tb",
        Hop = "hop", HopL = "hop-l", HopR = "hop-r", HopFl = "hop-fl", HopFr = "hop-fr",
        Leap = "leap"
    }
}

/// What one step is, in the kit's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    Step(Rel),
    Turn(Turn),
    Hop(Rel),
    /// Over the miniature in front to the field beyond (a movement skill).
    Leap,
}

impl Step {
    pub fn kind(self) -> StepKind {
        match self {
            Step::F => StepKind::Step(Rel::F),
            Step::L => StepKind::Step(Rel::L),
            Step::R => StepKind::Step(Rel::R),
            Step::Fl => StepKind::Step(Rel::Fl),
            Step::Fr => StepKind::Step(Rel::Fr),
            Step::B => StepKind::Step(Rel::B),
            Step::Bl => StepKind::Step(Rel::Bl),
            Step::Br => StepKind::Step(Rel::Br),
            Step::Tl => StepKind::Turn(Turn::Left),
            Step::Tr => StepKind::Turn(Turn::Right),
            Step::Tb => StepKind::Turn(Turn::About),
            Step::Hop => StepKind::Hop(Rel::F),
            Step::HopL => StepKind::Hop(Rel::L),
            Step::HopR => StepKind::Hop(Rel::R),
            Step::HopFl => StepKind::Hop(Rel::Fl),
            Step::HopFr => StepKind::Hop(Rel::Fr),
            Step::Leap => StepKind::Leap,
        }
    }
    /// The step for a kit move (no hop backwards exists in the notation).
    pub fn of(kind: StepKind) -> Option<Step> {
        Step::ALL.iter().copied().find(|s| s.kind() == kind)
    }
}

/// The steps of one `move` event, at most [`Path::MAX`].
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Path {
    len: u8,
    steps: [Option<Step>; Path::MAX],
}

impl Path {
    pub const MAX: usize = 16;
    /// A path of these steps (`None` when there are too many).
    pub fn new(steps: &[Step]) -> Option<Path> {
        if steps.len() > Path::MAX {
            return None;
        }
        let mut p = Path::default();
        for s in steps {
            p.steps[usize::from(p.len)] = Some(*s);
            p.len += 1;
        }
        Some(p)
    }
    /// Add a step at the end, as the parser reads it (`false` when the path is full).
    pub fn push(&mut self, step: Step) -> bool {
        let Some(slot) = self.steps.get_mut(usize::from(self.len)) else { return false };
        *slot = Some(step);
        self.len += 1;
        true
    }
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        self.steps[..usize::from(self.len)].iter().flatten().copied()
    }
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}

impl Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for step in self.steps() {
            seq.serialize_element(&step)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Path, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Path;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "at most {} steps", Path::MAX)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Path, A::Error> {
                let mut p = Path::default();
                while let Some(s) = seq.next_element::<Step>()? {
                    if p.len() == Path::MAX {
                        return Err(serde::de::Error::invalid_length(Path::MAX + 1, &self));
                    }
                    p.steps[p.len()] = Some(s);
                    p.len += 1;
                }
                Ok(p)
            }
        }
        d.deserialize_seq(Visit)
    }
}

/// A field as notation writes it (`c4`), serialized as its coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field(pub Pos);

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.algebraic())
    }
}

/// One fact at the table. The first groups are decisions and random outcomes; the last are
/// consequences the engine derives and checks (`is_consequence`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    // ---- setting up
    /// `scout CARD`: the Scout card chosen for a Hunt encounter.
    Scout {
        card: Name,
    },
    /// `draw T CREATURE`: random, a Creature from the Threat T stack.
    Draw {
        threat: u8,
        creature: Name,
    },
    /// `setup-roll D`: random, the 1D6 picking the setup.
    SetupRoll {
        face: u8,
    },
    /// `setup-choice N`: after a 6, the setup the players choose.
    SetupChoice {
        setup: u8,
    },
    /// `equip UNIT CARD`: an Equipment card a Seeker brings.
    Equip {
        unit: Name,
        card: Name,
    },
    /// `place UNIT FIELD FACING [t1|t2|t3] [red|blue]`.
    Place {
        unit: Name,
        at: Field,
        facing: Facing,
        threat: Option<u8>,
        side: Option<Side>,
    },
    /// `obstacle FIELD KIND`: an obstacle placed (the Arena, or a combat's layout).
    Obstacle {
        at: Field,
        kind: Obstacle,
    },
    /// `obstacle-roll FIELD D`: random, the 1D6 for an X of the Hunt setup.
    ObstacleRoll {
        at: Field,
        face: u8,
    },
    /// `draft-roll SIDE FACE...`: random, a side's five Attack Dice deciding Player 1.
    DraftRoll {
        side: Side,
        faces: Faces,
    },
    /// `draft SIDE CARD`: a pick of the Arena draft (a Creature, an Assent, an Equipment card).
    Draft {
        side: Side,
        card: Name,
    },
    /// `begin`: the setup is complete.
    Begin,
    // ---- playing
    /// `activate UNIT [free]`.
    Activate {
        unit: Name,
        free: bool,
    },
    /// `instinct CARD`: random in an encounter (a draw), a decision in a combat.
    Instinct {
        card: Name,
    },
    /// `target UNIT`: the Instinct card's target.
    Target {
        unit: Name,
    },
    /// `move UNIT STEP... [-> FIELD]`: the steps, and where they lead when written.
    Move {
        unit: Name,
        path: Path,
        to: Option<Field>,
    },
    /// `exit UNIT FIELD`: out of a Pit to an adjacent field.
    Exit {
        unit: Name,
        to: Field,
    },
    /// `attack UNIT [TARGET] [with SKILL]` (an area attack names no target).
    Attack {
        unit: Name,
        target: Option<Name>,
        with: Option<Name>,
    },
    /// `roll UNIT FACE...`: random, the Attack Dice (`x` Special, `s` Success, `b` Blank).
    Roll {
        unit: Name,
        faces: Faces,
    },
    /// `skill UNIT SKILL [TARGET]`: an Active or free-action skill that is no attack.
    Skill {
        unit: Name,
        skill: Name,
        target: Option<Name>,
    },
    /// `capture UNIT CREATURE`: a capture action.
    Capture {
        unit: Name,
        creature: Name,
    },
    /// `summon UNIT FIELD FACING`: a Summon enters.
    Summon {
        unit: Name,
        at: Field,
        facing: Facing,
    },
    /// `pass UNIT`: the activation ends without (another) action.
    Pass {
        unit: Name,
    },
    /// `silvestrem CARD`: random, the Silvestrem card drawn for the round.
    Silvestrem {
        card: Name,
    },
    /// `momentum SIDE DIE...`: random, a side's Momentum roll (`dmg def spd heal blank`).
    Momentum {
        side: Side,
        dice: Dice,
    },
    /// `momentum-reroll SIDE DIE... -> DIE...`: some of them rerolled, and the new results.
    MomentumReroll {
        side: Side,
        from: Dice,
        to: Dice,
    },
    /// `momentum-assign UNIT DIE...`: dice of its side's roll given to a Gladiator.
    MomentumAssign {
        unit: Name,
        dice: Dice,
    },
    /// `momentum-discard SIDE DIE...`: dice no Gladiator may take.
    MomentumDiscard {
        side: Side,
        dice: Dice,
    },
    // ---- consequences
    /// `round N`
    Round {
        n: u16,
    },
    /// `bleed UNIT N`: Bleed's assigned damage as an activation begins.
    Bleed {
        unit: Name,
        amount: u8,
    },
    /// `stunned UNIT`: the activation is skipped.
    Stunned {
        unit: Name,
    },
    /// `damage UNIT N`: an attack's damage after defense (or assigned).
    Damage {
        unit: Name,
        amount: i32,
    },
    /// `afflict UNIT STATUS`
    Afflict {
        unit: Name,
        status: Status,
    },
    /// `expire UNIT STATUS`
    Expire {
        unit: Name,
        status: Status,
    },
    /// `knock UNIT FIELD` / `knock UNIT stays`
    Knock {
        unit: Name,
        to: Option<Field>,
    },
    /// `hazard UNIT N`: pushed into Thornbrush / Spinning Blades.
    Hazard {
        unit: Name,
        amount: i32,
    },
    /// `slain UNIT` / `injured UNIT` / `destroyed UNIT`
    Removed {
        unit: Name,
        how: Removal,
    },
    /// `resources UNIT N`: a slain Creature's Resource cards.
    Resources {
        unit: Name,
        n: u8,
    },
    /// `heal UNIT N`
    Heal {
        unit: Name,
        amount: i32,
    },
    /// `cure UNIT`: healing removed Bleed instead.
    Cure {
        unit: Name,
    },
    /// `escaped UNIT`
    Escaped {
        unit: Name,
    },
    /// `capture-damage UNIT N`
    CaptureDamage {
        unit: Name,
        amount: i32,
    },
    /// `capture-token UNIT CREATURE`
    CaptureToken {
        unit: Name,
        creature: Name,
    },
    /// `capture-flip UNIT CREATURE`
    CaptureFlip {
        unit: Name,
        creature: Name,
    },
    /// `capture-cancel UNIT CREATURE`
    CaptureCancel {
        unit: Name,
        creature: Name,
    },
    /// `captured CREATURE`
    Captured {
        creature: Name,
    },
    /// `end UNIT`: the activation ends.
    End {
        unit: Name,
    },
    /// `reshuffle`: a new Instinct deck.
    Reshuffle,
    /// `encounter won` / `encounter lost`
    Ended {
        won: bool,
    },
    /// `victory SIDE`: the Arena match is won.
    Victory {
        side: Side,
    },
    // ---- the Hunt campaign between encounters (campaign/event.rs)
    Camp(super::campaign::CampEvent),
    // ---- the Arena match (scope=match), appended so earlier variants keep their place
    /// `demand SIDE success|failure`: (consequence) the round's Demand judged for a side.
    Demand {
        side: Side,
        met: bool,
    },
    /// `troupe SIDE ASSENT CREATURE...`: a troupe laid out in activation order.
    Troupe {
        side: Side,
        cards: Lineup,
    },
    /// `skills ASSENT SKILL...`: the Skill cards an Assent takes.
    Skills {
        unit: Name,
        skills: Lineup,
    },
    /// `victory draw`: the Arena match ends with no winner (both sides fell in one attack,
    /// interpretation `double-fall=draw`).
    Drawn,
}

impl Event {
    pub fn is_consequence(&self) -> bool {
        matches!(
            self,
            Event::Round { .. }
                | Event::Bleed { .. }
                | Event::Stunned { .. }
                | Event::Damage { .. }
                | Event::Afflict { .. }
                | Event::Expire { .. }
                | Event::Knock { .. }
                | Event::Hazard { .. }
                | Event::Removed { .. }
                | Event::Resources { .. }
                | Event::Heal { .. }
                | Event::Cure { .. }
                | Event::Escaped { .. }
                | Event::CaptureDamage { .. }
                | Event::CaptureToken { .. }
                | Event::CaptureFlip { .. }
                | Event::CaptureCancel { .. }
                | Event::Captured { .. }
                | Event::End { .. }
                | Event::Reshuffle
                | Event::Ended { .. }
                | Event::Victory { .. }
                | Event::Drawn
                | Event::Demand { .. }
        ) || matches!(self, Event::Camp(c) if c.is_consequence())
    }
}

impl fmt::Display for Faces {
    /// Specials, Successes, Blanks: `x s b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let faces = std::iter::repeat_n("x", usize::from(self.specials))
            .chain(std::iter::repeat_n("s", usize::from(self.successes)))
            .chain(std::iter::repeat_n("b", usize::from(self.blanks)));
        for (i, face) in faces.enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(face)?;
        }
        Ok(())
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Scout { card } => write!(f, "scout {card}"),
            Event::Draw { threat, creature } => write!(f, "draw {threat} {creature}"),
            Event::SetupRoll { face } => write!(f, "setup-roll {face}"),
            Event::SetupChoice { setup } => write!(f, "setup-choice {setup}"),
            Event::Equip { unit, card } => write!(f, "equip {unit} {card}"),
            Event::Place { unit, at, facing, threat, side } => {
                write!(f, "place {unit} {at} {facing}")?;
                if let Some(t) = threat {
                    write!(f, " t{t}")?;
                }
                if let Some(s) = side {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Event::Obstacle { at, kind } => write!(f, "obstacle {at} {kind}"),
            Event::ObstacleRoll { at, face } => write!(f, "obstacle-roll {at} {face}"),
            Event::DraftRoll { side, faces } => write!(f, "draft-roll {side} {faces}"),
            Event::Draft { side, card } => write!(f, "draft {side} {card}"),
            Event::Begin => f.write_str("begin"),
            Event::Activate { unit, free } => {
                write!(f, "activate {unit}{}", if *free { " free" } else { "" })
            }
            Event::Instinct { card } => write!(f, "instinct {card}"),
            Event::Target { unit } => write!(f, "target {unit}"),
            Event::Move { unit, path, to } => {
                write!(f, "move {unit}")?;
                for s in path.steps() {
                    write!(f, " {s}")?;
                }
                if let Some(to) = to {
                    write!(f, " -> {to}")?;
                }
                Ok(())
            }
            Event::Exit { unit, to } => write!(f, "exit {unit} {to}"),
            Event::Attack { unit, target, with } => {
                write!(f, "attack {unit}")?;
                if let Some(t) = target {
                    write!(f, " {t}")?;
                }
                if let Some(w) = with {
                    write!(f, " with {w}")?;
                }
                Ok(())
            }
            Event::Roll { unit, faces } => write!(f, "roll {unit} {faces}"),
            Event::Skill { unit, skill, target } => {
                write!(f, "skill {unit} {skill}")?;
                if let Some(t) = target {
                    write!(f, " {t}")?;
                }
                Ok(())
            }
            Event::Capture { unit, creature } => write!(f, "capture {unit} {creature}"),
            Event::Summon { unit, at, facing } => write!(f, "summon {unit} {at} {facing}"),
            Event::Pass { unit } => write!(f, "pass {unit}"),
            Event::Silvestrem { card } => write!(f, "silvestrem {card}"),
            Event::Momentum { side, dice } => write!(f, "momentum {side} {dice}"),
            Event::MomentumReroll { side, from, to } => write!(f, "momentum-reroll {side} {from} -> {to}"),
            Event::MomentumAssign { unit, dice } => write!(f, "momentum-assign {unit} {dice}"),
            Event::MomentumDiscard { side, dice } => write!(f, "momentum-discard {side} {dice}"),
            Event::Round { n } => write!(f, "round {n}"),
            Event::Bleed { unit, amount } => write!(f, "bleed {unit} {amount}"),
            Event::Stunned { unit } => write!(f, "stunned {unit}"),
            Event::Damage { unit, amount } => write!(f, "damage {unit} {amount}"),
            Event::Afflict { unit, status } => write!(f, "afflict {unit} {status}"),
            Event::Expire { unit, status } => write!(f, "expire {unit} {status}"),
            Event::Knock { unit, to: Some(to) } => write!(f, "knock {unit} {to}"),
            Event::Knock { unit, to: None } => write!(f, "knock {unit} stays"),
            Event::Hazard { unit, amount } => write!(f, "hazard {unit} {amount}"),
            Event::Removed { unit, how } => write!(f, "{how} {unit}"),
            Event::Resources { unit, n } => write!(f, "resources {unit} {n}"),
            Event::Heal { unit, amount } => write!(f, "heal {unit} {amount}"),
            Event::Cure { unit } => write!(f, "cure {unit}"),
            Event::Escaped { unit } => write!(f, "escaped {unit}"),
            Event::CaptureDamage { unit, amount } => write!(f, "capture-damage {unit} {amount}"),
            Event::CaptureToken { unit, creature } => write!(f, "capture-token {unit} {creature}"),
            Event::CaptureFlip { unit, creature } => write!(f, "capture-flip {unit} {creature}"),
            Event::CaptureCancel { unit, creature } => write!(f, "capture-cancel {unit} {creature}"),
            Event::Captured { creature } => write!(f, "captured {creature}"),
            Event::End { unit } => write!(f, "end {unit}"),
            Event::Reshuffle => f.write_str("reshuffle"),
            Event::Ended { won } => write!(f, "encounter {}", if *won { "won" } else { "lost" }),
            Event::Victory { side } => write!(f, "victory {side}"),
            Event::Camp(c) => write!(f, "{c}"),
            Event::Demand { side, met } => {
                write!(f, "demand {side} {}", if *met { "success" } else { "failure" })
            }
            Event::Troupe { side, cards } => write!(f, "troupe {side} {cards}"),
            Event::Skills { unit, skills } => write!(f, "skills {unit} {skills}"),
            Event::Drawn => f.write_str("victory draw"),
        }
    }
}

/// Up to eight card names in one event (a troupe, an Assent's Skill cards, a campaign's draw).
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Lineup {
    /// Boxed: eight inline names are 200 bytes, and a lineup is rare (a troupe, an Assent's
    /// Skill cards, a draw), so inline it would make every event that size. A `Box<T>`
    /// serializes as its `T`, so the stored encoding is the same.
    names: Box<[Option<Name>; 8]>,
}

impl Lineup {
    pub const MAX: usize = 8;
    /// A lineup of these names (`None` when there are too many).
    pub fn new(names: &[Name]) -> Option<Lineup> {
        if names.len() > Lineup::MAX {
            return None;
        }
        let mut l = Lineup::default();
        for (slot, n) in l.names.iter_mut().zip(names) {
            *slot = Some(*n);
        }
        Some(l)
    }
    pub fn iter(&self) -> impl Iterator<Item = Name> + '_ {
        self.names.iter().flatten().copied()
    }
    pub fn len(&self) -> usize {
        self.iter().count()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Debug for Lineup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for Lineup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every decoded event is copied a few times on its way to the rules, so its size is
    /// paid per event: a lineup kept inline made every event 224 bytes.
    #[test]
    fn an_event_holds_a_few_names_inline_not_eight() {
        // `attack` and `skill`, the largest variants, hold three names inline.
        assert!(std::mem::size_of::<Event>() <= 80, "{} bytes", std::mem::size_of::<Event>());
    }

    /// A boxed lineup is stored exactly as the inline one was: eight optional names.
    #[test]
    fn a_lineup_encodes_as_eight_optional_names() {
        let names = [Name::new("gurantev").unwrap(), Name::new("gryphon").unwrap()];
        let l = Lineup::new(&names).unwrap();
        let inline: [Option<Name>; 8] = [Some(names[0]), Some(names[1]), None, None, None, None, None, None];
        let config = bincode::config::standard();
        assert_eq!(
            bincode::serde::encode_to_vec(&l, config).unwrap(),
            bincode::serde::encode_to_vec(inline, config).unwrap()
        );
    }
}
