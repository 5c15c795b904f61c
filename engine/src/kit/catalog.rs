//! One catalog reader for every game: lines without comments, with their numbers; a
//! [`Problems`] collector so a user's file gets every error at once, each as
//! `catalog line N: ...`; ids interned to typed indices ([`Id`], [`Table`]) with duplicate
//! and cross-reference checks; and [`Builtin`], the parse of a compiled-in catalog done once
//! per process.
//!
//! The recommended syntax for a new game is the block format: a header line
//! `KIND ID` at the left margin, then indented `property value...` lines that belong to it
//! (docs/notation/keridwyn-fight.md, "Catalog files"). [`lines`] gives both kinds of line.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

/// One meaningful catalog line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number in the catalog text.
    pub number: usize,
    /// Whether it starts with whitespace (a property of the block above it).
    pub indented: bool,
    /// The line without its comment, trimmed.
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// The first word (the block kind or the property name).
    pub fn head(&self) -> &'a str {
        self.text.split_whitespace().next().unwrap_or("")
    }
    /// Everything after the first word, trimmed.
    pub fn rest(&self) -> &'a str {
        self.text.split_once(char::is_whitespace).map(|(_, r)| r.trim()).unwrap_or("")
    }
}

/// The lines of a catalog that say something: `#` starts a comment anywhere, blank lines
/// are skipped.
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.split('#').next().unwrap_or("");
        let trimmed = line.trim();
        (!trimmed.is_empty()).then(|| Line {
            number: i + 1,
            indented: line.starts_with(' ') || line.starts_with('\t'),
            text: trimmed,
        })
    })
}

/// Every problem found in a catalog, so that a user fixes them all in one go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problems(Vec<String>);

impl Problems {
    pub fn new() -> Self {
        Problems(Vec::new())
    }
    /// A problem on a line: `catalog line N: what`.
    pub fn at(&mut self, line: usize, what: impl fmt::Display) {
        self.0.push(format!("catalog line {line}: {what}"));
    }
    /// A problem of the whole catalog (a cross-reference): `catalog: what`.
    pub fn whole(&mut self, what: impl fmt::Display) {
        self.0.push(format!("catalog: {what}"));
    }
    /// Keep the problem of a line's result, if any, and the value otherwise.
    pub fn check<T>(&mut self, line: usize, result: Result<T, String>) -> Option<T> {
        result.map_err(|e| self.at(line, e)).ok()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// `Ok(value)` when nothing was found wrong, else every problem.
    pub fn finish<T>(self, value: T) -> Result<T, Vec<String>> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self.0)
        }
    }
}

/// A typed index into a [`Table`]: an interned catalog id. Copy, two bytes, compared as a
/// number; the string is looked up only to print it.
pub struct Id<T>(u16, PhantomData<fn() -> T>);

impl<T> Id<T> {
    pub const fn new(index: u16) -> Self {
        Id(index, PhantomData)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

// Written by hand: derives would ask `T` for the same traits.
impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Id<T> {}
impl<T> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<T> Eq for Id<T> {}
impl<T> PartialOrd for Id<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Id<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<T> std::hash::Hash for Id<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}
impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
impl<T> serde::Serialize for Id<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}
impl<'de, T> serde::Deserialize<'de> for Id<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        u16::deserialize(d).map(Id::new)
    }
}

/// The most entries a table holds (ids are a `u16`).
pub const MAX_ENTRIES: usize = u16::MAX as usize;

/// Catalog entries of one kind, in catalog order, with their ids interned.
#[derive(Debug, Clone)]
pub struct Table<T> {
    entries: Vec<T>,
    names: Vec<String>,
    by_name: BTreeMap<String, u16>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table { entries: Vec::new(), names: Vec::new(), by_name: BTreeMap::new() }
    }
}

impl<T: PartialEq> PartialEq for Table<T> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries && self.names == other.names
    }
}
impl<T: Eq> Eq for Table<T> {}

impl<T> Table<T> {
    /// Add an entry under `name`; `Err` says why not (the id is taken, or the table full).
    pub fn insert(&mut self, name: &str, entry: T) -> Result<Id<T>, String> {
        if self.by_name.contains_key(name) {
            return Err(format!("`{name}` is defined twice"));
        }
        let index = u16::try_from(self.entries.len())
            .ok()
            .filter(|&i| usize::from(i) < MAX_ENTRIES)
            .ok_or_else(|| format!("more than {MAX_ENTRIES} entries"))?;
        self.by_name.insert(name.to_string(), index);
        self.names.push(name.to_string());
        self.entries.push(entry);
        Ok(Id::new(index))
    }
    /// The id of a name.
    pub fn id(&self, name: &str) -> Option<Id<T>> {
        self.by_name.get(name).map(|&i| Id::new(i))
    }
    /// The entry of an id from this table.
    pub fn get(&self, id: Id<T>) -> Option<&T> {
        self.entries.get(id.index())
    }
    /// The entry with a name.
    pub fn by_name(&self, name: &str) -> Option<&T> {
        self.id(name).and_then(|id| self.get(id))
    }
    /// The name an id was interned from (`?` for an id from elsewhere).
    pub fn name(&self, id: Id<T>) -> &str {
        self.names.get(id.index()).map(String::as_str).unwrap_or("?")
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Every entry with its id and name, in catalog order.
    pub fn iter(&self) -> impl Iterator<Item = (Id<T>, &str, &T)> {
        self.entries.iter().zip(&self.names).enumerate().map(|(i, (e, n))| (Id::new(i as u16), n.as_str(), e))
    }
    /// Every name, in catalog order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }
}

impl<T> std::ops::Index<Id<T>> for Table<T> {
    type Output = T;
    /// Ids come from this table's `insert` or `id`; a foreign id is a bug in the game.
    fn index(&self, id: Id<T>) -> &T {
        &self.entries[id.index()]
    }
}

/// An entry changed where it lies: its name and id stay (a game settling what one entry
/// takes from another once every block is read, say).
impl<T> std::ops::IndexMut<Id<T>> for Table<T> {
    fn index_mut(&mut self, id: Id<T>) -> &mut T {
        &mut self.entries[id.index()]
    }
}

/// Resolve a name a catalog entry refers to, reporting an unknown one: the cross-reference
/// check (`character steve names unknown card sword`).
pub fn refer<T>(
    table: &Table<T>,
    name: &str,
    from: &str,
    what: &str,
    problems: &mut Problems,
) -> Option<Id<T>> {
    let id = table.id(name);
    if id.is_none() {
        problems.whole(format!("{from} names unknown {what} `{name}`"));
    }
    id
}

/// The parse of a compiled-in catalog, done once per process and shared (`Arc`).
///
/// Verifying a league builds one game per session; parsing the built-in text for each cost
/// more than stepping a short session. The text is compiled in and parsing is pure, so the
/// result is the same every time. Declare one per game as a `static`.
pub struct Builtin<T> {
    cell: OnceLock<Result<Arc<T>, Vec<String>>>,
}

impl<T> Builtin<T> {
    pub const fn new() -> Self {
        Builtin { cell: OnceLock::new() }
    }

    /// The parse of `text`: shared when `text` is the built-in catalog (recognised by its
    /// content, since callers pass owned copies), parsed afresh otherwise.
    pub fn parse(
        &self,
        builtin: &str,
        text: &str,
        parse: impl Fn(&str) -> Result<T, Vec<String>>,
    ) -> Result<Arc<T>, Vec<String>> {
        if is_builtin(text, builtin) {
            self.cell.get_or_init(|| parse(builtin).map(Arc::new)).clone()
        } else {
            parse(text).map(Arc::new)
        }
    }
}

/// Whether `text` is the built-in catalog `builtin`: the same bytes, which a caller that
/// borrowed the built-in text (the usual case) shows without comparing them.
pub fn is_builtin(text: &str, builtin: &str) -> bool {
    std::ptr::eq(text, builtin) || text == builtin
}

impl<T> Default for Builtin<T> {
    fn default() -> Self {
        Builtin::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_drop_comments_and_keep_numbers_and_indentation() {
        let text = "# header\nmonster imp  # a comment\n\n  rank 6\n\tgrit 1\n";
        let got: Vec<Line> = lines(text).collect();
        assert_eq!(got.len(), 3);
        assert_eq!(
            (got[0].number, got[0].indented, got[0].head(), got[0].rest()),
            (2, false, "monster", "imp")
        );
        assert_eq!((got[1].number, got[1].indented, got[1].text), (4, true, "rank 6"));
        assert!(got[2].indented);
    }

    #[test]
    fn tables_intern_ids_and_refuse_duplicates() {
        let mut t: Table<u32> = Table::default();
        let a = t.insert("a", 10).unwrap();
        let b = t.insert("b", 20).unwrap();
        assert_ne!(a, b);
        assert_eq!(t.insert("a", 30).unwrap_err(), "`a` is defined twice");
        assert_eq!((t[b], t.name(b), t.id("a")), (20, "b", Some(a)));
        assert_eq!(t.by_name("c"), None);
        let mut p = Problems::new();
        assert_eq!(refer(&t, "c", "character x", "card", &mut p), None);
        p.at(3, "a number");
        assert_eq!(
            p.clone().finish(()).unwrap_err(),
            vec![
                "catalog: character x names unknown card `c`".to_string(),
                "catalog line 3: a number".into()
            ]
        );
        assert_eq!(Problems::new().finish(5), Ok(5));
        assert_eq!(t.iter().map(|(_, n, v)| format!("{n}{v}")).collect::<Vec<_>>(), ["a10", "b20"]);
    }

    #[test]
    fn a_builtin_catalog_is_parsed_once() {
        static CACHE: Builtin<Vec<String>> = Builtin::new();
        let parse = |t: &str| Ok(t.lines().map(String::from).collect::<Vec<_>>());
        let a = CACHE.parse("x\ny", "x\ny", parse).unwrap();
        let b = CACHE.parse("x\ny", &"x\ny".to_string(), parse).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let c = CACHE.parse("x\ny", "z", parse).unwrap();
        assert_eq!(*c, vec!["z".to_string()]);
    }
}
