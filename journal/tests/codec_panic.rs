//! A panic while decoding is caught and prints nothing; panics elsewhere still reach the
//! hook that was installed before. Its own test binary, because it installs a panic hook.

use arbiter_journal::codec::{self, CodecErrorKind};
use serde::{Deserialize, Deserializer};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Decodes from one byte and panics on 0xbb, as a buggy `Deserialize` (or bincode) might.
#[derive(Debug)]
struct Bomb;

impl<'de> Deserialize<'de> for Bomb {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if u8::deserialize(d)? == 0xbb {
            panic!("a Deserialize impl blew up");
        }
        Ok(Bomb)
    }
}

#[test]
fn decode_panics_are_caught_and_silent() {
    let printed = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&printed);
    // Stands in for the default hook, which would print the message and a backtrace.
    std::panic::set_hook(Box::new(move |_| {
        counter.fetch_add(1, Ordering::SeqCst);
    }));

    assert!(codec::decode::<Bomb>(&[0x01]).is_ok());
    for _ in 0..3 {
        let err = codec::decode::<Bomb>(&[0xbb]).err().map(|e| e.kind);
        assert_eq!(err, Some(CodecErrorKind::Panicked));
    }
    assert_eq!(printed.load(Ordering::SeqCst), 0, "a decode panic reached the hook");

    // Outside decoding the previous hook still runs: real bugs stay visible.
    let outside = std::panic::catch_unwind(|| panic!("not while decoding"));
    assert!(outside.is_err());
    assert_eq!(printed.load(Ordering::SeqCst), 1);
}
