//! Colour for people: verdicts, rule ids, expected against recorded, and the board.
//!
//! Reports are plain text built by `arbiter-verify` (the same text a pipe gets); colour is
//! added here, at the edge, to text whose control characters `output` has already escaped,
//! so input can never smuggle an escape sequence in and colour never reaches a pipe unless
//! asked for (`--color always`). The painter reads the report's own line shapes ("record #N
//! ...: violation of RULE", "    expected: ", "clean: ", a board between `before:`, `after:`
//! or `board:` and its `digest` line), so a line it does not know is left as it is.

use anstyle::{AnsiColor, Style};
use std::fmt::Write;

const BAD: Style = AnsiColor::Red.on_default().bold();
const GOOD: Style = AnsiColor::Green.on_default().bold();
const DOUBT: Style = AnsiColor::Yellow.on_default().bold();
const RULE: Style = AnsiColor::Magenta.on_default();
const EXPECTED: Style = AnsiColor::Green.on_default();
const RECORDED: Style = AnsiColor::Red.on_default();
const LABEL: Style = Style::new().bold();
const MARK: Style = AnsiColor::Cyan.on_default().bold();
const QUIET: Style = Style::new().dimmed();

/// Paints report text line by line. It keeps one piece of state across calls (whether the
/// lines are a board's), so a report printed in pieces is painted as if whole.
#[derive(Debug, Default)]
pub struct Painter {
    in_board: bool,
}

/// `text` in `style`.
fn paint(style: Style, text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!("{style}{text}{style:#}")
}

impl Painter {
    /// `text` (whole lines) with colour added.
    pub fn text(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + text.len() / 4);
        for line in text.split_inclusive('\n') {
            let (body, end) = match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            };
            out.push_str(&self.line(body));
            out.push_str(end);
        }
        out
    }

    fn line(&mut self, line: &str) -> String {
        if self.in_board {
            if let Some(digest) = line.strip_prefix("  digest ") {
                self.in_board = false;
                return format!("  {}", paint(QUIET, &format!("digest {digest}")));
            }
            if line.starts_with("  ") {
                return board_line(line);
            }
            self.in_board = false;
        }
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if matches!(trimmed, "before:" | "after:" | "board:")
            || line.ends_with(" record(s)") && line.contains(" after ")
        {
            self.in_board = true;
            return format!("{indent}{}", paint(LABEL, trimmed));
        }
        if let Some(rest) = trimmed.strip_prefix("expected: ") {
            return format!("{indent}{}{}", paint(LABEL, "expected: "), paint(EXPECTED, rest));
        }
        if let Some(rest) = trimmed.strip_prefix("recorded: ") {
            return format!("{indent}{}{}", paint(LABEL, "recorded: "), paint(RECORDED, rest));
        }
        for label in ["rule:     ", "what:     "] {
            if let Some(rest) = trimmed.strip_prefix(label) {
                return format!("{indent}{}{rest}", paint(QUIET, label));
            }
        }
        if let Some(done) = verdict_line(indent, trimmed) {
            return done;
        }
        if let Some(rest) = trimmed.strip_prefix("ok   ") {
            return format!("{indent}{}   {rest}", paint(GOOD, "ok"));
        }
        if let Some(rest) = trimmed.strip_prefix("FAIL ") {
            return format!("{indent}{} {rest}", paint(BAD, "FAIL"));
        }
        if let Some(rest) = trimmed.strip_prefix("CHANGED ") {
            return format!("{indent}{} {rest}", paint(DOUBT, "CHANGED"));
        }
        if let Some(rest) = trimmed.strip_prefix("first split: ") {
            return format!("{indent}{}{rest}", paint(BAD, "first split: "));
        }
        if let Some(rest) = trimmed.strip_prefix("last agreement: ") {
            return format!("{indent}{}{rest}", paint(GOOD, "last agreement: "));
        }
        if let Some(rest) = trimmed.strip_prefix("next, the rules require: ") {
            return format!("{indent}{}{}", paint(QUIET, "next, the rules require: "), paint(EXPECTED, rest));
        }
        if let Some(rest) = trimmed.strip_prefix("recorded #") {
            return format!("{indent}{}{rest}", paint(GOOD, "recorded #"));
        }
        if let Some(rest) = trimmed.strip_prefix("the rules say: ") {
            return format!("{indent}{}{rest}", paint(LABEL, "the rules say: "));
        }
        closing_line(line).unwrap_or_else(|| line.to_string())
    }
}

/// "record #N ...: violation of RULE" and its kin: the verdict word coloured, the rule id
/// marked.
fn verdict_line(indent: &str, line: &str) -> Option<String> {
    if line.starts_with("record ") {
        if let Some((head, rule)) = line.split_once(": violation of ") {
            return Some(format!("{indent}{head}: {} of {}", paint(BAD, "violation"), paint(RULE, rule)));
        }
        if let Some((head, rest)) = line.split_once(": uncertain after ") {
            let tail = match rest.rsplit_once("(not counted): ") {
                Some((what, rule)) => format!("{what}(not counted): {}", paint(RULE, rule)),
                None => rest.to_string(),
            };
            return Some(format!("{indent}{head}: {} after {tail}", paint(DOUBT, "uncertain")));
        }
        if let Some((head, rest)) = line.split_once(": unverified: ") {
            return Some(format!("{indent}{head}: {}: {rest}", paint(DOUBT, "unverified")));
        }
        if let Some((head, rest)) = line.split_once(" cannot be applied: ") {
            return Some(format!("{indent}{head} {}: {rest}", paint(BAD, "cannot be applied")));
        }
    }
    if let Some(rest) = line.strip_prefix("incomplete: ") {
        return Some(format!("{indent}{}{rest}", paint(DOUBT, "incomplete: ")));
    }
    if line == "verdict: legal" {
        return Some(format!("{indent}verdict: {}", paint(GOOD, "legal")));
    }
    None
}

/// The closing lines of `verify`, `fixtures` and `diff`.
fn closing_line(line: &str) -> Option<String> {
    if let Some(rest) = line.strip_prefix("clean: ") {
        return Some(format!("{}{rest}", paint(GOOD, "clean: ")));
    }
    if let Some((n, rest)) = line.split_once(" violation(s) in ") {
        if n.chars().all(|c| c.is_ascii_digit()) {
            return Some(format!("{} violation(s) in {rest}", paint(BAD, n)));
        }
    }
    if let Some((passed, failed)) = line.split_once(" passed, ") {
        if let Some(n) = failed.strip_suffix(" failed") {
            let style = if n == "0" { GOOD } else { BAD };
            return Some(paint(style, &format!("{passed} passed, {n} failed")));
        }
    }
    None
}

/// A line of a board: marked positions (`[2]`, `[*2]`) stand out.
fn board_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else { break };
        out.push_str(&rest[..open]);
        let _ = write!(out, "{}", paint(MARK, &rest[open..=open + close]));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text with its escape sequences removed: painting never changes the words.
    fn plain(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn painting_changes_colours_only() {
        let report = "friday: proving-grounds (rules version 2)\nrecord #10 `up 4`: violation of pg.resolve.color-requirement\n    rule:     A space [A]\n    what:     enemy\n    expected: hold 4\n    recorded: up 4\nrecord #9 (line 22) `inspire`: unverified: true-aim\nrecord #10 (line 23) `defeat 1`: uncertain after unverified effect at #9 (not counted): pg.check.defeat-at-top\nrecord #3 `roll 300` cannot be applied: toy.roll.range: no die (replay stopped here)\nincomplete: the log ends after 13 records\n1 violation(s) in 16 records\nclean: no violation in 16 records\nbefore:\n  #1 pit-brawler  B  2 [2]\n  digest c9573ba3dab6\nrecorded: up 4\nverdict: legal\nok   a.arb\nFAIL b.arb\n3 passed, 1 failed\n";
        let painted = Painter::default().text(report);
        assert_eq!(plain(&painted), report);
        assert!(painted.contains(&paint(RULE, "pg.resolve.color-requirement")), "{painted}");
        assert!(painted.contains(&paint(BAD, "violation")), "{painted}");
        assert!(painted.contains(&paint(EXPECTED, "hold 4")), "{painted}");
        assert!(painted.contains(&paint(RECORDED, "up 4")), "{painted}");
        assert!(painted.contains(&paint(MARK, "[2]")), "{painted}");
        assert!(painted.contains(&paint(RULE, "pg.check.defeat-at-top")), "{painted}");
        assert!(painted.contains(&paint(BAD, "3 passed, 1 failed")), "{painted}");
        // A line outside a board keeps its brackets plain.
        assert!(painted.contains("    rule:     ") || painted.contains("A space [A]"), "{painted}");
        assert!(!painted.contains(&paint(MARK, "[A]")), "{painted}");
    }

    #[test]
    fn a_board_printed_in_pieces_is_painted_as_if_whole() {
        let mut p = Painter::default();
        let first = p.text("after:\n");
        let second = p.text("  health [1] 2\n  digest 0d34\nnext line [x]\n");
        assert!(first.contains(&paint(LABEL, "after:")));
        assert!(second.contains(&paint(MARK, "[1]")), "{second}");
        assert!(second.contains("next line [x]"), "the board ended at its digest: {second}");
    }
}
