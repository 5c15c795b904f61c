//! A name as an event records it: a seat label (`A`) or a card id (`wyvern`,
//! `heavy-shield`). Kept inline (`compact_str`: up to 24 bytes without a heap allocation),
//! so reading, decoding and dropping an event allocates nothing for its names.
//!
//! Stored exactly as a `String`: serialized and deserialized as a string, so JSONL files,
//! journals and snapshots hold the same bytes as before. Deserialized through
//! `deserialize_str`, not `deserialize_string`: the journal's codec (bincode over a slice)
//! then lends the string's bytes in place, where a `String` field makes it allocate a
//! zeroed buffer first.

use compact_str::CompactString;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::ops::Deref;

/// A short name packed into an integer, with its length, kept beside a seat's label so that
/// finding the seat an event names compares integers: every recorded consequence, roll and
/// reveal names a seat, and decoding each fighter's label to compare it was most of the
/// search. Two names of 1 to 7 bytes are equal exactly when their keys are; the names of 8
/// bytes or more (and the empty one) share one key, `LONG`, and are compared as strings.
/// `0` is no key at all (a label whose key was not worked out, as in a deserialized state).
///
/// A cache of its name: two keys compare equal whatever they hold (a state decoded from a
/// journal has none, and is still equal to the state it was encoded from), and a state
/// serializes without them.
#[derive(Debug, Clone, Copy, Default)]
pub struct NameKey(u64);

impl NameKey {
    /// The key of every name of 8 bytes or more, and of the empty one.
    pub const LONG: NameKey = NameKey(u64::MAX);

    /// The key of a name.
    #[inline]
    pub fn of(name: &str) -> NameKey {
        let b = name.as_bytes();
        if b.is_empty() || b.len() > 7 {
            return NameKey::LONG;
        }
        // The length first, then the bytes: injective for up to 7 bytes (never 0 or `LONG`).
        NameKey(b.iter().fold(b.len() as u64, |k, &x| k << 8 | u64::from(x)))
    }

    /// The key itself (`0`: none worked out).
    #[inline]
    pub fn raw(self) -> u64 {
        self.0
    }
}

/// Always equal: a key caches its name, which the state compares itself.
impl PartialEq for NameKey {
    fn eq(&self, _: &NameKey) -> bool {
        true
    }
}

impl Eq for NameKey {}

/// A participant's or card's name, inline when short.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Name(CompactString);

impl Name {
    pub fn new(s: &str) -> Name {
        Name(CompactString::new(s))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name::new(&s)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == *other
    }
}

/// As a `String` prints (`"A"`), so debug output is unchanged.
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

struct NameVisitor;

impl Visitor<'_> for NameVisitor {
    type Value = Name;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
        Ok(Name::new(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codec's configuration (bincode 2 standard, as the journal's codec uses it).
    fn config() -> bincode::config::Configuration {
        bincode::config::standard()
    }

    #[test]
    fn encodes_and_decodes_as_a_string_does() {
        let long = "a-card-id-longer-than-twenty-four-bytes-that-lives-on-the-heap";
        for s in ["", "A", "wyvern", "heavy-shield", "unicorn-blade", long, "épée"] {
            let as_string = bincode::serde::encode_to_vec(s.to_string(), config()).unwrap_or_default();
            let as_name = bincode::serde::encode_to_vec(Name::new(s), config()).unwrap_or_default();
            assert_eq!(as_name, as_string, "{s}");
            let back: (Name, usize) = bincode::serde::decode_from_slice(&as_string, config())
                .unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!((back.0.as_str(), back.1), (s, as_string.len()));
            // From a reader bincode hands over an owned `String`: the same name.
            let read: Name = bincode::serde::decode_from_std_read(&mut &as_string[..], config())
                .unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(read.as_str(), s);
            let json = serde_json::to_string(&Name::new(s)).unwrap_or_default();
            assert_eq!(json, serde_json::to_string(s).unwrap_or_default());
            let back: Name = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(back.as_str(), s);
            assert_eq!(format!("{:?}", Name::new(s)), format!("{:?}", s.to_string()));
        }
    }

    #[test]
    fn keys_tell_short_names_apart() {
        let names = ["A", "B", "AB", "BA", "wyvern", "boar", "abcdefg", "abcdefh", "a\0", "a"];
        for x in names {
            for y in names {
                assert_eq!(NameKey::of(x).raw() == NameKey::of(y).raw(), x == y, "{x} / {y}");
            }
            assert!(![0, NameKey::LONG.raw()].contains(&NameKey::of(x).raw()), "{x}");
        }
        assert_eq!(NameKey::of("a-name-of-many-bytes").raw(), NameKey::LONG.raw());
        assert_eq!(NameKey::of("").raw(), NameKey::LONG.raw());
    }

    #[test]
    fn refuses_what_a_string_refuses() {
        // Invalid UTF-8, and a length past the bytes there are.
        for bytes in [&[2u8, 0xff, 0xfe][..], &[5, b'a', b'b']] {
            assert!(bincode::serde::decode_from_slice::<String, _>(bytes, config()).is_err());
            assert!(bincode::serde::decode_from_slice::<Name, _>(bytes, config()).is_err());
        }
    }
}
