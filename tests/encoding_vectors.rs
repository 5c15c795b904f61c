//! Fixed test vectors for the on-disk encoding of real game events. The journal's own
//! vectors lock the record envelope on a sample type; these lock what sessions actually
//! hold, so a change to an event type that would make stored sessions unreadable fails here
//! first (bump the format, and keep a reader for the old one, instead of editing a vector).

use arbiter_engine::proving_grounds::ProvingGrounds;
use arbiter_engine::{Game, Setup};
use arbiter_journal::{codec, Record};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[track_caller]
fn locks(line: &str, expected_hex: &str) {
    let catalog =
        ProvingGrounds::builtin_catalog(ProvingGrounds::default_catalog()).expect("built-in catalog");
    let game = ProvingGrounds::new(&Setup::default(), catalog).expect("default setup");
    let event = game.parse_event(line).expect("notation");
    let bytes = codec::encode(&Record::Event(event.clone())).expect("encode");
    assert_eq!(hex(&bytes), expected_hex, "the encoding of `{line}` changed");
    let back: Record<<ProvingGrounds as Game>::Event> = codec::decode(&bytes).expect("decode");
    assert_eq!(back, Record::Event(event));
}

#[test]
fn proving_grounds_events_keep_their_encoding() {
    locks("draw 1 pit-brawler", "0000010b7069742d627261776c657200");
    locks("roll 1 1 3 3 4 5g 6b 6y t=0", "000108010001000300030004000501060306020100");
    locks("reroll 1 -> 4 6 t=12", "0002020204000600010c");
    locks("up 6 2", "0004060200");
    locks("wound 2 exhaust w", "0008020000");
    locks("replace w -> y", "000901000200");
    locks("recover", "000a00");
}
