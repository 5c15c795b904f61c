//! The one table: rows of figures for arbiter and its baselines, ratios, and the targets.

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

/// A target from the issue and whether this run met it.
#[derive(Debug, Clone)]
pub struct Target {
    pub text: String,
    pub met: bool,
}

/// One line of the table. `arbiter` is `None` when arbiter could not be measured (an API
/// it needs is missing); the reason is then in `note`.
#[derive(Debug, Clone)]
pub struct Row {
    pub section: &'static str,
    pub measure: String,
    pub unit: Unit,
    pub arbiter: Option<f64>,
    pub sqlite: Option<f64>,
    pub jsonl: Option<f64>,
    pub targets: Vec<Target>,
    pub note: String,
}

impl Row {
    pub fn new(section: &'static str, measure: impl Into<String>, unit: Unit) -> Row {
        Row {
            section,
            measure: measure.into(),
            unit,
            arbiter: None,
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
    pub fn target(mut self, text: impl Into<String>, met: bool) -> Row {
        self.targets.push(Target { text: text.into(), met });
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

    fn cells(&self) -> [String; 8] {
        let show = |v: Option<f64>| v.map(|v| self.unit.show(v)).unwrap_or_else(|| "—".into());
        let ratio = |r: Option<f64>| r.map(|r| format!("{r:.2}×")).unwrap_or_else(|| "—".into());
        let targets = if self.targets.is_empty() {
            "—".to_string()
        } else {
            self.targets
                .iter()
                .map(|t| format!("{} {}", if t.met { "MET" } else { "MISSED" }, t.text))
                .collect::<Vec<_>>()
                .join("; ")
        };
        [
            self.section.to_string(),
            self.measure.clone(),
            show(self.arbiter),
            show(self.sqlite),
            show(self.jsonl),
            ratio(self.advantage(self.sqlite)),
            ratio(self.advantage(self.jsonl)),
            targets,
        ]
    }
}

const HEADER: [&str; 8] =
    ["#", "measure", "arbiter", "sqlite", "jsonl", "arbiter vs sqlite", "arbiter vs jsonl", "target"];

/// The table for a terminal: aligned columns.
pub fn render_text(rows: &[Row]) -> String {
    let cells: Vec<[String; 8]> = rows.iter().map(Row::cells).collect();
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
            if (2..=6).contains(&i) {
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
    for row in rows {
        out.push_str(&format!("| {} |\n", row.cells().join(" | ")));
    }
    out
}

/// Every target with its verdict and the figure, one line each (the close note's list).
pub fn render_targets(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows {
        for t in &row.targets {
            let figure = row.arbiter.map(|v| row.unit.show(v)).unwrap_or_else(|| "not measured".into());
            let _ = writeln!(
                out,
                "- **{}** {} — {} {}: {figure}",
                if t.met { "MET" } else { "MISSED" },
                t.text,
                row.section,
                row.measure
            );
        }
        if row.arbiter.is_none() && !row.note.is_empty() {
            let _ = writeln!(out, "- **NOT MEASURED** {} {}: {}", row.section, row.measure, row.note);
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

    #[test]
    fn text_table_has_one_line_per_row_and_aligned_columns() {
        let rows = vec![
            Row::new("1", "append", Unit::Rate).arbiter(2.5e6).jsonl(1e3).target("≥ 1 M/s", true),
            Row::new("2", "memory", Unit::MiB).arbiter(12.0).note("x"),
        ];
        let text = render_text(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[2].contains("2.50 M/s") && lines[2].contains("2500.00×"), "{text}");
        assert!(lines[2].contains("MET ≥ 1 M/s"), "{text}");
        assert!(render_targets(&rows).contains("**MET** ≥ 1 M/s"));
    }
}
