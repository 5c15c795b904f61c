//! Receipts: a referee's signed statement of a session's head, so that a rewrite of its
//! history after the seal is caught.
//!
//! The hash chain alone is unkeyed SHA-256: it proves that stored records were not changed
//! *by accident* (bit rot, a torn write, a bad copy, a bug), since any change breaks it, but
//! anyone who can write the database can also recompute it over rewritten records. A
//! receipt closes that gap from the moment it is made: it holds the session's name, its
//! length and its chain hash after that many records, with the time, signed with an
//! ed25519 key that stays outside the database. Checking a session against it recomputes
//! the chain from the genesis over the stored records and compares the hash after the
//! sealed length: any rewrite of those records, of their order or of the session's
//! metadata gives another hash, and forging a new receipt needs the key. Records appended
//! after the seal are not covered (seal again to cover them).
//!
//! A receipt is a short text file:
//!
//! ```text
//! arbiter receipt 1
//! session: gamma
//! records: 700
//! head: <64 hex digits: the chain hash after the first 700 records>
//! sealed: <unix seconds>
//! signer: <64 hex digits: the ed25519 public key>
//! signature: <128 hex digits: ed25519 over the lines above, newlines included>
//! ```
//!
//! A key file holds the secret half: `arbiter seal key 1`, `secret: <64 hex>`, `public:
//! <64 hex>`, one per line. Whoever holds it can seal; whoever checks should know the
//! signer's public key from the referee (a receipt made with another key verifies only
//! against that key).

use crate::chain::{hex, Hash};
use crate::error::{ErrorKind, JournalError};
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};

const RECEIPT_HEADER: &str = "arbiter receipt 1";
const KEY_HEADER: &str = "arbiter seal key 1";

/// A referee's signing key.
pub struct SealKey(SigningKey);

impl SealKey {
    /// A new key from the operating system's random source.
    pub fn generate() -> Result<SealKey, JournalError> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| {
            JournalError::new(ErrorKind::Storage, format!("cannot make a key: no random source ({e})"))
        })?;
        Ok(SealKey(SigningKey::from_bytes(&secret)))
    }

    /// A key read back from the text `to_text` wrote.
    pub fn parse(text: &str) -> Result<SealKey, JournalError> {
        let fields = fields(text, KEY_HEADER, "key file")?;
        let secret: [u8; 32] = unhex(field(&fields, "secret", "key file")?, "key file's secret")?;
        let key = SealKey(SigningKey::from_bytes(&secret));
        if let Some(public) = fields.iter().find(|(name, _)| *name == "public") {
            if public.1 != key.public() {
                return Err(invalid("the key file's public key is not the one its secret makes"));
            }
        }
        Ok(key)
    }

    /// The key file's text.
    pub fn to_text(&self) -> String {
        format!("{KEY_HEADER}\nsecret: {}\npublic: {}\n", hex(&self.0.to_bytes()), self.public())
    }

    /// The public half, in hex: what the referee publishes and a checker compares.
    pub fn public(&self) -> String {
        hex(self.0.verifying_key().as_bytes())
    }
}

/// A signed statement that a session held `records` records ending at chain hash `head`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub session: String,
    pub records: u64,
    pub head: Hash,
    /// When it was sealed, unix seconds.
    pub sealed: u64,
    /// The signer's public key.
    pub signer: [u8; 32],
    signature: [u8; 64],
}

impl Receipt {
    /// Sign a statement of `session`'s head.
    pub fn sign(key: &SealKey, session: &str, records: u64, head: Hash, sealed: u64) -> Receipt {
        let signer = *key.0.verifying_key().as_bytes();
        let mut receipt =
            Receipt { session: session.to_string(), records, head, sealed, signer, signature: [0; 64] };
        receipt.signature = key.0.sign(receipt.statement().as_bytes()).to_bytes();
        receipt
    }

    /// The lines the signature covers.
    fn statement(&self) -> String {
        format!(
            "{RECEIPT_HEADER}\nsession: {}\nrecords: {}\nhead: {}\nsealed: {}\nsigner: {}\n",
            self.session,
            self.records,
            hex(&self.head),
            self.sealed,
            hex(&self.signer)
        )
    }

    /// The receipt's text.
    pub fn to_text(&self) -> String {
        format!("{}signature: {}\n", self.statement(), hex(&self.signature))
    }

    /// A receipt read back from its text. The signature is not checked here (`verify`).
    pub fn parse(text: &str) -> Result<Receipt, JournalError> {
        let fields = fields(text, RECEIPT_HEADER, "receipt")?;
        let number = |name: &str| -> Result<u64, JournalError> {
            field(&fields, name, "receipt")?
                .parse()
                .map_err(|_| invalid(&format!("the receipt's `{name}` is not a number")))
        };
        Ok(Receipt {
            session: field(&fields, "session", "receipt")?.to_string(),
            records: number("records")?,
            head: unhex(field(&fields, "head", "receipt")?, "receipt's head")?,
            sealed: number("sealed")?,
            signer: unhex(field(&fields, "signer", "receipt")?, "receipt's signer")?,
            signature: unhex(field(&fields, "signature", "receipt")?, "receipt's signature")?,
        })
    }

    /// The signer's public key, in hex.
    pub fn signer_hex(&self) -> String {
        hex(&self.signer)
    }

    /// Check the signature: the receipt is what its signer signed, unchanged.
    pub fn verify(&self) -> Result<(), JournalError> {
        let key = VerifyingKey::from_bytes(&self.signer)
            .map_err(|_| invalid("the receipt's signer is not an ed25519 public key"))?;
        key.verify(self.statement().as_bytes(), &Signature::from_bytes(&self.signature)).map_err(|_| {
            invalid("the receipt's signature does not verify: the receipt was changed, or not signed by its signer")
        })
    }
}

/// The `name: value` lines of a receipt or key file, after its header line.
fn fields<'a>(text: &'a str, header: &str, what: &str) -> Result<Vec<(&'a str, &'a str)>, JournalError> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some(header) {
        return Err(invalid(&format!("this is not an arbiter {what} (it does not start with `{header}`)")));
    }
    Ok(lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim(), v.trim())).collect())
}

fn field<'a>(fields: &[(&str, &'a str)], name: &str, what: &str) -> Result<&'a str, JournalError> {
    fields
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| invalid(&format!("the {what} has no `{name}` line")))
}

fn unhex<const N: usize>(text: &str, what: &str) -> Result<[u8; N], JournalError> {
    let bad = || invalid(&format!("the {what} is not {} hex digits", N * 2));
    if text.len() != N * 2 || !text.is_ascii() {
        return Err(bad());
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(out)
}

fn invalid(what: &str) -> JournalError {
    JournalError::new(ErrorKind::InvalidReceipt, what.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_round_trips_and_any_change_breaks_its_signature() -> Result<(), JournalError> {
        let key = SealKey::generate()?;
        let again = SealKey::parse(&key.to_text())?;
        assert_eq!(again.public(), key.public());
        let receipt = Receipt::sign(&key, "gamma", 700, [7; 32], 1_700_000_000);
        let text = receipt.to_text();
        let read = Receipt::parse(&text)?;
        assert_eq!(read, receipt);
        read.verify()?;
        for (from, to) in [("700", "701"), ("gamma", "gamme"), ("1700000000", "1700000001")] {
            let forged = Receipt::parse(&text.replacen(from, to, 1))?;
            assert_eq!(forged.verify().err().map(|e| e.kind()), Some(ErrorKind::InvalidReceipt), "{from}");
        }
        // Re-signed with another key: it verifies, but names that other signer.
        let other = SealKey::generate()?;
        let resigned = Receipt::sign(&other, "gamma", 701, [7; 32], 1_700_000_000);
        resigned.verify()?;
        assert_ne!(resigned.signer_hex(), key.public());
        assert!(Receipt::parse("hello").is_err());
        assert!(SealKey::parse(&key.to_text().replace("public: ", "public: 00")).is_err());
        Ok(())
    }
}
