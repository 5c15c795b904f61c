//! The one table: rows of figures for arbiter and its baselines, per game, with ratios and
//! the targets; and the verdict of each target over every game (met only when it holds for
//! every one of them).

use std::fmt::Write as _;

/// What a figure measures, which decides how it prints and which direction is better.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unit {
    /// Events per second (higher is better).
    Rate,
    /// Microseconds per operation (lower is better).
    Micros,
    /// Milliseconds for one operation (lower is better).
    Millis,
    /// Mebibytes (lower is better).
    MiB,
    /// Bytes per event (lower is better).
    BytesPerEvent,
}

impl Unit {
    fn higher_is_better(self) -> bool {
        self == Unit::Rate
    }

    pub fn show(self, v: f64) -> String {
        if !v.is_finite() {
            return "n/a".to_string();
        }
        match self {
            Unit::Rate if v >= 1e6 => format!("{:.2} M/s", v / 1e6),
            Unit::Rate if v >= 1e3 => format!("{:.1} k/s", v / 1e3),
            Unit::Rate => format!("{v:.0} /s"),
            Unit::Micros => format!("{v:.0} µs"),
            Unit::Millis if v < 1.0 => format!("{v:.3} ms"),
            Unit::Millis => format!("{v:.1} ms"),
            Unit::MiB => format!("{v:.1} MiB"),
            Unit::BytesPerEvent => format!("{v:.1} B"),
        }
    }
}

/// A target from the issue and whether this run met it. `text` is the target itself, the
/// same for every game (`≤ 1.5× the scan's time`); `figure` is what this row measured
/// against it (`1.34×, 1.31-1.38× over 5 rounds`).
#[derive(Debug, Clone)]
pub struct Target {
    pub text: String,
    pub figure: String,
    pub met: bool,
}

impl Target {
    fn shown(&self) -> String {
        if self.figure.is_empty() {
            self.text.clone()
        } else {
            format!("{} ({})", self.text, self.figure)
        }
    }
}

/// One line of the table. `arbiter` is `None` when arbiter could not be measured (an API
/// it needs is missing, a command failed); the reason is then in `note`.
#[derive(Debug, Clone)]
pub struct Row {
    pub section: &'static str,
    /// The game whose corpus the row measured (set by the driver for each game's rows).
    pub game: String,
    pub measure: String,
    pub unit: Unit,
    pub arbiter: Option<f64>,
    /// The lowest and highest of arbiter's figure over several runs (`--runs N`), when the
    /// figure is their median.
    pub spread: Option<(f64, f64)>,
    pub sqlite: Option<f64>,
    pub jsonl: Option<f64>,
    pub targets: Vec<Target>,
    pub note: String,
}

impl Row {
    pub fn new(section: &'static str, measure: impl Into<String>, unit: Unit) -> Row {
        Row {
            section,
            game: String::new(),
            measure: measure.into(),
            unit,
            arbiter: None,
            spread: None,
            sqlite: None,
            jsonl: None,
            targets: Vec::new(),
            note: String::new(),
        }
    }
    pub fn arbiter(mut self, v: f64) -> Row {
        self.arbiter = Some(v);
        self
    }
    pub fn sqlite(mut self, v: f64) -> Row {
        self.sqlite = Some(v);
        self
    }
    pub fn jsonl(mut self, v: f64) -> Row {
        self.jsonl = Some(v);
        self
    }
    /// A target with no figure beside the row's own value (`≥ 1 M/s`).
    pub fn target(self, text: impl Into<String>, met: bool) -> Row {
        self.target_with(text, "", met)
    }
    /// A target judged on a figure of its own (a ratio, a range).
    pub fn target_with(mut self, text: impl Into<String>, figure: impl Into<String>, met: bool) -> Row {
        self.targets.push(Target { text: text.into(), figure: figure.into(), met });
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Row {
        self.note = note.into();
        self
    }

    /// How many times better arbiter does than `other` (above 1: arbiter wins).
    pub fn advantage(&self, other: Option<f64>) -> Option<f64> {
        let (a, o) = (self.arbiter?, other?);
        let r = if self.unit.higher_is_better() { a / o } else { o / a };
        r.is_finite().then_some(r)
    }

    /// What the row measures whatever the game and the corpus size: its numbers replaced by
    /// `N`, so that the same measure of two games (and its targets) can be grouped.
    pub fn key(&self) -> String {
        let mut out = String::new();
        let mut in_number = false;
        for c in self.measure.chars() {
            if c.is_ascii_digit() {
                if !in_number {
                    out.push('N');
                }
                in_number = true;
            } else {
                in_number = false;
                out.push(c);
            }
        }
        format!("{} {out}", self.section)
    }

    fn cells(&self) -> [String; 9] {
        let show = |v: Option<f64>| v.map(|v| self.unit.show(v)).unwrap_or_else(|| "—".into());
        let ratio = |r: Option<f64>| r.map(|r| format!("{r:.2}×")).unwrap_or_else(|| "—".into());
        let targets = if self.targets.is_empty() {
            if self.arbiter.is_none() && !self.note.is_empty() {
                format!("NOT MEASURED: {}", self.note)
            } else {
                "—".to_string()
            }
        } else {
            self.targets
                .iter()
                .map(|t| format!("{} {}", if t.met { "MET" } else { "MISSED" }, t.shown()))
                .collect::<Vec<_>>()
                .join("; ")
        };
        [
            self.section.to_string(),
            self.game.clone(),
            self.measure.clone(),
            match (self.arbiter, self.spread) {
                (Some(v), Some((lo, hi))) => {
                    format!("{} ({}-{})", self.unit.show(v), self.unit.show(lo), self.unit.show(hi))
                }
                _ => show(self.arbiter),
            },
            show(self.sqlite),
            show(self.jsonl),
            ratio(self.advantage(self.sqlite)),
            ratio(self.advantage(self.jsonl)),
            targets,
        ]
    }
}

const HEADER: [&str; 9] =
    ["#", "game", "measure", "arbiter", "sqlite", "jsonl", "arbiter vs sqlite", "arbiter vs jsonl", "target"];

/// The rows in table order: by section, each measure with its games side by side (in the
/// order the games were measured), so one measure of every game reads as one block.
pub fn ordered(rows: &[Row]) -> Vec<&Row> {
    let mut first_seen: Vec<String> = Vec::new();
    for r in rows {
        let k = r.key();
        if !first_seen.contains(&k) {
            first_seen.push(k);
        }
    }
    let mut out: Vec<&Row> = rows.iter().collect();
    out.sort_by_key(|r| {
        let section: u32 = r.section.parse().unwrap_or(u32::MAX);
        let measure = first_seen.iter().position(|k| *k == r.key()).unwrap_or(usize::MAX);
        (section, measure)
    });
    out
}

/// The table for a terminal: aligned columns.
pub fn render_text(rows: &[Row]) -> String {
    let cells: Vec<[String; 9]> = ordered(rows).into_iter().map(Row::cells).collect();
    let mut widths = HEADER.map(|h| h.chars().count());
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        for (i, (c, w)) in row.iter().zip(widths).enumerate() {
            let pad = w - c.chars().count();
            // Figures right-aligned so digits line up; words left-aligned.
            if (3..=7).contains(&i) {
                let _ = write!(out, "{}{}  ", " ".repeat(pad), c);
            } else {
                let _ = write!(out, "{}{}  ", c, " ".repeat(pad));
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    };
    line(&mut out, &HEADER.map(String::from));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(&mut out, &rule);
    for row in &cells {
        line(&mut out, row);
    }
    out.push_str("ratios: how many times better arbiter does (above 1.00× arbiter is faster or smaller)\n");
    out
}

/// The same table as Markdown.
pub fn render_markdown(rows: &[Row]) -> String {
    let mut out = format!("| {} |\n", HEADER.join(" | "));
    out.push_str(&format!("|{}\n", " --- |".repeat(HEADER.len())));
    for row in ordered(rows) {
        let cells = row.cells().map(|c| c.replace('|', "\\|"));
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// Every target once, with its verdict over every game: **MET** only when every game
/// measured met it and no game went unmeasured; then each game's figure. Games that could
/// not be measured at all (`unmeasured`: game and reason) are listed first.
pub fn render_targets(rows: &[Row], games: &[String], unmeasured: &[(String, String)]) -> String {
    let mut out = String::new();
    for (game, why) in unmeasured {
        let _ = writeln!(out, "- **NOT MEASURED** {game}: {why}");
    }
    // (row key, target text) in first-appearance order, with every game's row and target.
    let mut groups: Vec<((String, String), Vec<(&Row, &Target)>)> = Vec::new();
    for row in ordered(rows) {
        for t in &row.targets {
            let key = (row.key(), t.text.clone());
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push((row, t)),
                None => groups.push((key, vec![(row, t)])),
            }
        }
    }
    for ((_, text), members) in &groups {
        let (row, _) = members[0];
        let missing: Vec<&String> =
            games.iter().filter(|g| !members.iter().any(|(r, _)| &r.game == *g)).collect();
        let all_met = missing.is_empty() && unmeasured.is_empty() && members.iter().all(|(_, t)| t.met);
        let per_game = members
            .iter()
            .map(|(r, t)| {
                let figure = r.arbiter.map(|v| r.unit.show(v)).unwrap_or_else(|| "not measured".into());
                let extra = if t.figure.is_empty() { String::new() } else { format!(", {}", t.figure) };
                format!("{} {} ({figure}{extra})", r.game, if t.met { "met" } else { "missed" })
            })
            .chain(missing.iter().map(|g| format!("{g} not measured")))
            .collect::<Vec<_>>()
            .join("; ");
        let _ = writeln!(
            out,
            "- **{}** {text} — {} {}: {per_game}",
            if all_met { "MET" } else { "MISSED" },
            row.section,
            row.measure
        );
    }
    for row in rows {
        if row.arbiter.is_none() && !row.note.is_empty() && row.targets.is_empty() {
            let _ = writeln!(
                out,
                "- **NOT MEASURED** {} {} ({}): {}",
                row.section, row.measure, row.game, row.note
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advantage_points_the_right_way_for_each_unit() {
        let rate = Row::new("1", "x", Unit::Rate).arbiter(200.0).sqlite(100.0);
        assert_eq!(rate.advantage(rate.sqlite), Some(2.0));
        let latency = Row::new("1", "x", Unit::Micros).arbiter(200.0).sqlite(100.0);
        assert_eq!(latency.advantage(latency.sqlite), Some(0.5));
        assert_eq!(latency.advantage(None), None);
    }

    fn of(game: &str, row: Row) -> Row {
        Row { game: game.into(), ..row }
    }

    #[test]
    fn text_table_has_one_line_per_row_and_aligned_columns() {
        let rows = vec![
            of("g", Row::new("1", "append", Unit::Rate).arbiter(2.5e6).jsonl(1e3).target("≥ 1 M/s", true)),
            of("g", Row::new("2", "memory", Unit::MiB).arbiter(12.0).note("x")),
        ];
        let text = render_text(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[2].contains("2.50 M/s") && lines[2].contains("2500.00×"), "{text}");
        assert!(lines[2].contains("MET ≥ 1 M/s"), "{text}");
        assert!(render_targets(&rows, &["g".into()], &[]).contains("**MET** ≥ 1 M/s"));
    }

    #[test]
    fn a_target_is_met_only_when_every_game_meets_it() {
        let row = |game: &str, events: u32, v: f64| {
            of(game, Row::new("3", format!("scan ({events} events)"), Unit::Rate).arbiter(v)).target_with(
                "≤ 1.5× the scan's time",
                format!("{:.2}×", v),
                v <= 1.5,
            )
        };
        let games = vec!["a".to_string(), "b".to_string()];
        let both = render_targets(&[row("a", 100, 1.2), row("b", 200, 1.4)], &games, &[]);
        assert!(both.starts_with("- **MET** ≤ 1.5× the scan's time"), "{both}");
        assert_eq!(both.lines().count(), 1, "one verdict for the two games: {both}");
        let one_missed = render_targets(&[row("a", 100, 1.2), row("b", 200, 1.7)], &games, &[]);
        assert!(one_missed.starts_with("- **MISSED**") && one_missed.contains("b missed"), "{one_missed}");
        let one_absent = render_targets(&[row("a", 100, 1.2)], &games, &[]);
        assert!(
            one_absent.starts_with("- **MISSED**") && one_absent.contains("b not measured"),
            "{one_absent}"
        );
        let unmeasured =
            render_targets(&[row("a", 100, 1.2)], &games[..1], &[("c".into(), "no simulator".into())]);
        assert!(unmeasured.contains("**NOT MEASURED** c: no simulator") && unmeasured.contains("**MISSED**"));
        // The table puts one measure of both games side by side.
        let table = render_markdown(&[
            row("a", 100, 1.2),
            of("a", Row::new("4", "x", Unit::Rate)),
            row("b", 200, 1.4),
        ]);
        let order: Vec<&str> = table.lines().skip(2).map(|l| l.split(" | ").nth(1).unwrap_or("")).collect();
        assert_eq!(order, ["a", "b", "a"], "{table}");
    }
}
