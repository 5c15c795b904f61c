//! JUnit XML for CI: one `<testsuite>` per game (or directory, for files whose game is
//! unknown), one `<testcase>` per fixture, the failure text in `<failure>`.
//!
//! The shape is the common subset GitHub Actions (test reporters), GitLab (`artifacts:
//! reports: junit`) and Jenkins (junit plugin) accept: `testsuites` > `testsuite` (name,
//! tests, failures, errors, skipped, time) > `testcase` (name, classname, time) with an
//! optional `failure` (an expectation not met) or `error` (a fixture that cannot be used at
//! all: unreadable, malformed, an unknown game), each with message, type and a text body.
//! Test names are paths relative to the suite's directory, so they do not depend on how the
//! directory was typed; times are never negative.

use crate::fixture::FixtureResult;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Escape text for an XML attribute or element, dropping characters XML 1.0 forbids.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The suite a fixture belongs to.
fn suite_of(r: &FixtureResult) -> String {
    match &r.game {
        Some(g) => g.clone(),
        None => Path::new(&r.name)
            .parent()
            .map(|p| p.display().to_string())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "fixtures".to_string()),
    }
}

/// A duration as JUnit may show it: finite and not negative (a clock step must not make a
/// consumer reject the file).
fn seconds(s: f64) -> f64 {
    if s.is_finite() && s > 0.0 {
        s
    } else {
        0.0
    }
}

/// Render results as a JUnit XML document.
pub fn junit_xml(results: &[FixtureResult]) -> String {
    let mut suites: BTreeMap<String, Vec<&FixtureResult>> = BTreeMap::new();
    for r in results {
        suites.entry(suite_of(r)).or_default().push(r);
    }
    let failed = results.iter().filter(|r| !r.passed && !r.unusable).count();
    let errors = results.iter().filter(|r| r.unusable).count();
    let total_time: f64 = results.iter().map(|r| seconds(r.seconds)).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"arbiter fixtures\" tests=\"{}\" failures=\"{failed}\" errors=\"{errors}\" time=\"{total_time:.3}\">",
        results.len()
    );
    for (name, cases) in &suites {
        let f = cases.iter().filter(|r| !r.passed && !r.unusable).count();
        let e = cases.iter().filter(|r| r.unusable).count();
        let t: f64 = cases.iter().map(|r| seconds(r.seconds)).sum();
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"{e}\" skipped=\"0\" time=\"{t:.3}\">",
            xml_escape(name),
            cases.len()
        );
        for r in cases {
            let _ = write!(
                x,
                "    <testcase name=\"{}\" classname=\"fixtures.{}\" time=\"{:.3}\"",
                xml_escape(&r.name),
                xml_escape(name),
                seconds(r.seconds)
            );
            if r.passed {
                x.push_str("/>\n");
                continue;
            }
            let (element, kind) = if r.unusable { ("error", "unusable") } else { ("failure", "fixture") };
            let message = r.failures.first().cloned().unwrap_or_default();
            let _ = writeln!(
                x,
                ">\n      <{element} message=\"{}\" type=\"{kind}\">{}</{element}>\n    </testcase>",
                xml_escape(&message),
                xml_escape(&r.to_string())
            );
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}
