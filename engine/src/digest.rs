//! A stable digest of any serializable value, used to name game states.
//!
//! States hold no floats and no hash maps, so their encoding (bincode's standard
//! configuration) is canonical and the SHA-256 of it is the same on every run and machine.
//! This is an encoding for hashing only; nothing decodes it, and persistent encoding stays
//! behind `arbiter-journal`'s codec.

use serde::Serialize;
use sha2::{Digest as _, Sha256};
use std::fmt;

/// SHA-256 of a value's canonical encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The first 12 hex digits, enough to tell states apart on screen.
    pub fn short(&self) -> String {
        self.to_string()[..12].to_string()
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.short())
    }
}

/// Hash a value's canonical encoding.
pub fn digest<T: Serialize + ?Sized>(value: &T) -> Digest {
    // Encoded whole, then hashed once: written straight into the hasher, bincode makes one
    // `write` per field, and each costs the hasher more than the byte it adds.
    let mut hasher = HashWriter(Sha256::new());
    match bincode::serde::encode_to_vec(value, bincode::config::standard()) {
        Ok(bytes) => hasher.0.update(&bytes),
        // Kept as before: the digest of the partial encoding, still stable.
        Err(_) => {
            let _ = bincode::serde::encode_into_std_write(value, &mut hasher, bincode::config::standard());
        }
    }
    Digest(hasher.0.finalize().into())
}

struct HashWriter(Sha256);

impl std::io::Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_stable_and_distinguishes_values() {
        let a = digest(&(1u8, vec![2u16, 3]));
        assert_eq!(a, digest(&(1u8, vec![2u16, 3])));
        assert_ne!(a, digest(&(1u8, vec![3u16, 2])));
        // Locks the canonical encoding: changing it changes every published digest.
        assert_eq!(
            digest(&0u8).to_string(),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
        );
    }
}
