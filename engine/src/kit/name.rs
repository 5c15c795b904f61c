//! An id kept inline: up to [`Name::MAX`] bytes of the notation's id grammar
//! (`[A-Za-z0-9_-]`) in a fixed array, so an event that names miniatures and cards is
//! `Copy`, allocates nothing when it is parsed or decoded, and still prints itself.
//!
//! `Game::Event` must print its own notation without the catalog, so an event cannot hold
//! a catalog index alone; a `String` would cost an allocation per name on every decode of a
//! stored log. Serialized as a string, so the JSON and binary forms read like one.

use super::words::is_id_byte;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An inline id of at most [`Name::MAX`] bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name {
    len: u8,
    bytes: [u8; Name::MAX],
}

impl Name {
    /// The longest id a `Name` holds.
    pub const MAX: usize = 23;

    /// The name of `word`, when it is an id of at most [`Name::MAX`] bytes.
    pub fn new(word: &str) -> Option<Name> {
        let src = word.as_bytes();
        if src.is_empty() || src.len() > Name::MAX {
            return None;
        }
        // Checked and copied in one pass (every name of every parsed line and decoded event
        // comes here): no second walk for `is_id`, no `memcpy` call for a few bytes.
        let mut bytes = [0u8; Name::MAX];
        for (to, &b) in bytes.iter_mut().zip(src) {
            if !is_id_byte(b) {
                return None;
            }
            *to = b;
        }
        Some(Name { len: src.len() as u8, bytes })
    }

    /// A name written in code (a literal that is an id): bytes beyond [`Name::MAX`] are
    /// dropped. For input, use [`Name::new`], which checks.
    pub const fn literal(word: &'static str) -> Name {
        let src = word.as_bytes();
        let mut bytes = [0u8; Name::MAX];
        let mut i = 0;
        while i < src.len() && i < Name::MAX {
            bytes[i] = src[i];
            i += 1;
        }
        Name { len: i as u8, bytes }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII id bytes are ever stored (`new` and the decoder check them).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("?")
    }

    /// What a parser says it expected where a name goes.
    pub fn expected(what: &str) -> String {
        format!("{what} (an id of at most {} letters, digits, `-` or `_`)", Name::MAX)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.as_str())
    }
}

impl Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an id of at most {} letters, digits, `-` or `_`", Name::MAX)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Name, E> {
                Name::new(v).ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_str(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_hold_ids_inline_and_round_trip() {
        let n = Name::new("wildswood-sentinel-5").unwrap();
        assert_eq!(n.as_str(), "wildswood-sentinel-5");
        assert_eq!(n.to_string(), "wildswood-sentinel-5");
        assert!(Name::new("a b").is_none() && Name::new("").is_none());
        assert!(Name::new(&"x".repeat(Name::MAX + 1)).is_none());
        assert!(Name::new(&"x".repeat(Name::MAX)).is_some());
        let config = bincode::config::standard();
        let bytes = bincode::serde::encode_to_vec(n, config).unwrap();
        let (back, _): (Name, usize) = bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert_eq!(back, n);
        let bad = bincode::serde::encode_to_vec("bad name", config).unwrap();
        assert!(bincode::serde::decode_from_slice::<Name, _>(&bad, config).is_err());
        assert!(Name::new("a") < Name::new("b"));
        assert_eq!(Name::literal("zaxos"), Name::new("zaxos").unwrap());
    }
}
