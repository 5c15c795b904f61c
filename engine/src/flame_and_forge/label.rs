//! A catalog id as an event names it: a short inline string, so an event is plain `Copy`
//! data that prints itself and survives any catalog. Below both the events and the catalog,
//! which resolves a label to its id.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest catalog id an event can name.
pub const LABEL_MAX: usize = 16;

/// A catalog id as written (at most 16 bytes of `[A-Za-z0-9_-]`), stored inline.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label {
    len: u8,
    bytes: [u8; LABEL_MAX],
}

impl Label {
    /// Stands in for a name a corrupt state has no entry for.
    pub const UNKNOWN: Label = Label { len: 7, bytes: *b"unknown\0\0\0\0\0\0\0\0\0" };

    /// `None` when the word is too long or not an id.
    pub fn new(word: &str) -> Option<Label> {
        if word.len() > LABEL_MAX || !crate::kit::words::is_id(word) {
            return None;
        }
        let mut bytes = [0; LABEL_MAX];
        bytes[..word.len()].copy_from_slice(word.as_bytes());
        Some(Label { len: word.len() as u8, bytes })
    }
    /// The bytes as one integer: equal labels, equal keys (ids hold no NUL byte).
    pub fn key(&self) -> u128 {
        u128::from_le_bytes(self.bytes)
    }
    pub fn as_str(&self) -> &str {
        // Built from a `&str` of ASCII id characters only.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("?")
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}
impl Serialize for Label {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Label::new(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("`{s}` is not a catalog id of 16 characters at most"))
        })
    }
}
