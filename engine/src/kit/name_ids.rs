//! Catalog ids by their [`Name`], for the look-ups a record makes by the name it carries: a
//! `Name` is hashed in a few word operations, where a catalog's own map (`Table::id`, keyed by
//! `String`) checks the name's UTF-8 and compares strings along a tree path. Built once with a
//! game, since a catalog never changes after setup.

use super::catalog::{Id, Table};
use super::name::Name;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A table's ids by name. The same answers as `Table::id`: a `Name` holds its id
/// zero-padded, so two are equal exactly when their strings are, and a catalog name that is
/// no `Name` (too long, or no id) equals no recorded one.
pub(crate) struct NameIds<T>(HashMap<Name, Id<T>, BuildHasherDefault<NameHasher>>);

impl<T> NameIds<T> {
    /// The ids of every name of `table` that is a `Name`.
    pub(crate) fn of(table: &Table<T>) -> NameIds<T> {
        NameIds(table.iter().filter_map(|(id, name, _)| Some((Name::new(name)?, id))).collect())
    }
    /// As `table.id(name.as_str())`.
    #[inline]
    pub(crate) fn get(&self, name: &Name) -> Option<Id<T>> {
        self.0.get(name).copied()
    }
}

impl<T> std::fmt::Debug for NameIds<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NameIds({} names)", self.0.len())
    }
}

/// A multiplicative hash (as rustc's own FxHash) over a name's bytes, a word at a time:
/// only for looking names up, so a hash's quality matters for speed alone.
#[derive(Default)]
pub(crate) struct NameHasher(u64);

impl NameHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for NameHasher {
    #[inline]
    fn write(&mut self, mut bytes: &[u8]) {
        while let Some((word, rest)) = bytes.split_first_chunk::<8>() {
            self.add(u64::from_le_bytes(*word));
            bytes = rest;
        }
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
