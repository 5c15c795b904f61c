//! The codec: fixed test vectors that lock the on-disk encoding and the hash chain, and
//! hostile bytes that must come back as errors, never as a panic.

mod common;

use arbiter_journal::codec::{self, CodecErrorKind};
use arbiter_journal::{genesis, hex, link, Record, SessionMeta};
use common::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Sample {
    Rolled { dice: Vec<u8>, colors: Option<String> },
    Moved(u8, i16),
    Stopped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Big {
    name: String,
    values: Vec<u64>,
    map: BTreeMap<String, Vec<Sample>>,
    flag: bool,
    pair: (u32, char),
}

// Checked independently (Python's hashlib over the bytes spelled out in the test).
const GENESIS: &str = "aa07fef31b987fb5bfc9ed420f0d43ac2c444e246a3d1ee82b547a82474c58ab";
const LINK0: &str = "71357e45f655db7650e9a9196f4abeb871eebb8eab66d7ee12bfd95451279fd7";
const LINK1: &str = "14f25a2eae6fe7328925fffbb2328f59ac61f3254ddc6f5def8005f2c8547268";
const LINK2: &str = "b651283c5cc7c58799cc0be3ac42aaa01850ac3ffd5f38cd1679e3f3aa8a4a9b";
const LINK3: &str = "0b0453f244430e8e1333725bf850555e9694cf683d36f4af764dd78cf45e73ca";
/// The link of `Stopped` again as record 3 (instead of the retraction).
const LINK3_REPEAT: &str = "17489266aee23535ae606b5672b213622fc9d6c7484c63bd8e3ddc2130916875";

fn vector_records() -> Vec<Record<Sample>> {
    vec![
        Record::Event(Sample::Rolled { dice: vec![1, 1, 3], colors: Some("gby".to_string()) }),
        Record::Event(Sample::Moved(3, -2)),
        Record::Event(Sample::Stopped),
        Record::Retract(300),
    ]
}

fn vector_meta() -> SessionMeta {
    SessionMeta {
        game: "proving-grounds".to_string(),
        setup: BTreeMap::from([("health".to_string(), "8".to_string())]),
        catalog: Some("illustrative".to_string()),
        rules_version: 1,
        created: 1_700_000_000,
        title: "vectors".to_string(),
        parent: None,
    }
}

/// Changing any of these means every stored log reads differently or fails `check`: bump
/// the journal format and migrate instead of editing the literals.
#[test]
fn fixed_vectors_lock_the_encoding_and_the_chain() -> Result<(), codec::CodecError> {
    // Record::Event = 00, Sample::Rolled = 00, 3 dice, Some, "gby"; i16 -2 zigzags to 3;
    // 300 is the 3-byte varint fb 2c 01.
    let encodings = ["0000030101030103676279", "00010303", "0002", "01fb2c01"];
    let records: Vec<_> = vector_records().into_iter().zip(encodings).collect();
    let g = genesis("vectors", &vector_meta()).map_err(|e| panic!("{e}"))?;
    assert_eq!(hex(&g), GENESIS);
    let mut last = g;
    let mut links = Vec::new();
    for (seq, (record, expected)) in records.iter().enumerate() {
        let bytes = codec::encode(record)?;
        assert_eq!(hex(&bytes), *expected, "encoding of record {seq}");
        assert_eq!(&codec::decode::<Record<Sample>>(&bytes)?, record);
        last = link(&last, seq as u64, &bytes);
        links.push(hex(&last));
    }
    assert_eq!(links, [LINK0, LINK1, LINK2, LINK3]);
    Ok(())
}

/// The stored block and head pointer of a session holding the vector records, byte for byte.
#[test]
fn fixed_vectors_lock_the_stored_block() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("db");
    let mut records: Vec<Record<Sample>> = vector_records().into_iter().take(3).collect();
    records.push(Record::Event(Sample::Stopped));
    arbiter_journal::Journal::open(&path)?.import("vectors", &vector_meta(), &records)?;
    let db = common::open_raw(&path)?;
    let blocks: Vec<_> =
        db.open_tree(arbiter_journal::layout::EVENTS_TREE)?.iter().values().collect::<Result<_, _>>()?;
    let expected_block = [
        "04",               // block format
        "0000000000000000", // first sequence
        GENESIS,            // hash before it
        "00000004",         // records in the block
        LINK3_REPEAT,       // hash after the last one: the session's head
        "00",               // body kind: plain (four records are too few to compress)
        "00",
        "0b",
        "0000030101030103676279",
        &LINK0[..4], // new record, length, bytes, tag
        "00",
        "04",
        "00010303",
        &LINK1[..4],
        "00",
        "02",
        "0002",
        &LINK2[..4],
        "03",
        &LINK3_REPEAT[..4], // the same record as the block's third new one
    ]
    .concat();
    assert_eq!(blocks.iter().map(|b| hex(b)).collect::<Vec<_>>(), [expected_block]);
    let heads: Vec<_> =
        db.open_tree(arbiter_journal::layout::HEADS_TREE)?.iter().values().collect::<Result<_, _>>()?;
    // The head points to the last block, whose header holds the length and last hash.
    let expected_head = "0000000000000000";
    assert_eq!(heads.iter().map(|h| hex(h)).collect::<Vec<_>>(), [expected_head]);
    Ok(())
}

fn big() -> Big {
    Big {
        name: "arbiter".to_string(),
        values: vec![0, 1, 127, 128, 250, 251, 65535, 65536, u64::MAX],
        map: BTreeMap::from([
            ("a".to_string(), vec![Sample::Stopped, Sample::Moved(6, i16::MIN)]),
            ("b".to_string(), vec![Sample::Rolled { dice: vec![6; 20], colors: None }]),
        ]),
        flag: true,
        pair: (7, 'é'),
    }
}

#[test]
fn values_round_trip_and_trailing_bytes_are_refused() -> Result<(), codec::CodecError> {
    let bytes = codec::encode(&big())?;
    assert_eq!(codec::decode::<Big>(&bytes)?, big());
    let mut longer = bytes.clone();
    longer.push(0);
    let err = codec::decode::<Big>(&longer).err().map(|e| e.kind);
    assert_eq!(err, Some(CodecErrorKind::TrailingBytes));
    let mut appended = Vec::from([1u8, 2]);
    assert_eq!(codec::encode_into(&big(), &mut appended)?, bytes.len());
    assert_eq!(appended[2..], bytes[..]);
    Ok(())
}

#[test]
fn hostile_bytes_are_errors_not_panics() -> Result<(), codec::CodecError> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let valid = codec::encode(&big())?;
    // Every truncation of a valid encoding fails cleanly.
    for cut in 0..valid.len() {
        assert!(codec::decode::<Big>(&valid[..cut]).is_err(), "cut at {cut}");
    }
    let mut decoded = 0;
    for round in 0..4000 {
        let len = (rng.next() % 64) as usize;
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if round % 2 == 0 {
            // Mutate a valid encoding instead: deeper into the decoder than pure noise.
            bytes = valid.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() as usize) % bytes.len();
                bytes[at] = rng.next() as u8;
            }
        }
        // Forged huge lengths (0xfd/0xfc prefixes are 8- and 4-byte varints) must not allocate.
        if round % 7 == 0 && !bytes.is_empty() {
            bytes[0] = 0xfd;
            bytes.splice(1..1, [0xff; 8]);
        }
        decoded += usize::from(codec::decode::<Big>(&bytes).is_ok());
        let _ = codec::decode::<Record<Sample>>(&bytes);
        let _ = codec::decode::<SessionMeta>(&bytes);
        let _ = codec::decode::<Vec<String>>(&bytes);
    }
    assert!(decoded < 4000, "random bytes cannot all be valid");
    Ok(())
}

#[test]
fn a_forged_length_is_refused_by_the_limit() {
    // A Vec<u64> claiming 2^40 elements in 9 bytes.
    let mut bytes = vec![0xfd];
    bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
    let err = codec::decode::<Vec<u64>>(&bytes).err().map(|e| e.kind);
    assert_eq!(err, Some(CodecErrorKind::Decode));
}
