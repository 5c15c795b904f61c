//! Building a game's flat `key = value` facts (what fixtures assert and diff compares) and
//! the small text forms boards share: a list or `-`, a value or `-`.

use std::fmt::{self, Display, Write as _};

/// `-` for nothing, the text otherwise.
pub fn or_dash(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

/// The items joined by `sep`, or `-` when there are none.
pub fn list_or_dash<I: IntoIterator<Item = T>, T: Display>(items: I, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        let _ = write!(out, "{item}");
    }
    or_dash(out)
}

/// An optional value, or `-`.
pub fn value_or_dash<T: Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

/// A fact list being built, in a fixed order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts(Vec<(String, String)>);

impl Facts {
    pub fn new() -> Self {
        Facts(Vec::new())
    }
    /// `key = value`.
    pub fn put(&mut self, key: impl Into<String>, value: impl Display) -> &mut Self {
        self.0.push((key.into(), value.to_string()));
        self
    }
    /// `prefix.key = value` (per-participant facts: `A.grit`).
    pub fn put_of(&mut self, prefix: &str, key: &str, value: impl Display) -> &mut Self {
        self.0.push((format!("{prefix}.{key}"), value.to_string()));
        self
    }
    /// `key = a b c` or `key = -`.
    pub fn put_list<I: IntoIterator<Item = T>, T: Display>(
        &mut self,
        key: impl Into<String>,
        items: I,
    ) -> &mut Self {
        self.0.push((key.into(), list_or_dash(items, " ")));
        self
    }
    pub fn into_vec(self) -> Vec<(String, String)> {
        self.0
    }
}

impl fmt::Display for Facts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.0 {
            writeln!(f, "{k} = {v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_keep_their_order_and_empty_lists_are_a_dash() {
        let mut f = Facts::new();
        f.put("round", 2).put_of("A", "grit", 5).put_list("hand", Vec::<&str>::new());
        f.put_list("track", ["11:A:shield", "6:B:blade"]);
        assert_eq!(f.to_string(), "round = 2\nA.grit = 5\nhand = -\ntrack = 11:A:shield 6:B:blade\n");
        assert_eq!(list_or_dash([1, 2], "; "), "1; 2");
        assert_eq!(value_or_dash(None::<u8>), "-");
        assert_eq!(f.into_vec().len(), 4);
    }
}
