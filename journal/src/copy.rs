//! Copying a session from one store to another with its chain intact (`arbiter migrate`):
//! the records' stored bytes, not a re-encoding of them, so the far side's chain is the
//! same hash for hash, a receipt sealed on one side holds on the other, and a session's
//! records need not be of a type the copier knows.
//!
//! The source is read through the walk, so a damaged session is refused, never copied. The
//! copy is one `create` (all or nothing); a session the destination already holds is left
//! alone when it is the same history, continued when it is a prefix of it (a copy taken
//! earlier), and refused otherwise.

use crate::batch::Batch;
use crate::chain::{self, Hash};
use crate::error::{ErrorKind, JournalError};
use crate::store::{Ack, Found, Head, HeadClaim, Page, ScanError, Store};
use crate::walk::Walk;

/// What copying one session did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub session: String,
    /// Records the session holds on both sides now.
    pub records: u64,
    /// Records the destination held before (0 for a new session; `records` when it already
    /// held them all).
    pub already: u64,
    /// The chain hash after the last record, the same on both sides.
    pub hash: Hash,
}

/// Copy session `name` (as `found` in `from`) into `to`.
pub(crate) fn copy(
    from: &dyn Store,
    to: &dyn Store,
    name: &str,
    found: &Found,
) -> Result<Copied, JournalError> {
    let (records, head) = read_whole(from, name, found)?;
    let genesis = chain::genesis(name, &found.meta)?;
    let retractions = from.retractions(name, found.id)?;
    let batch = Batch::from_encoded(0, &records);
    if batch.retractions != retractions {
        return Err(JournalError::new(
            ErrorKind::Corrupt,
            format!("session `{name}`: its retraction index disagrees with its records; run `arbiter check {name}`"),
        )
        .in_session(name));
    }
    let copied = |already| Copied { session: name.to_string(), records: head.len, already, hash: head.last };
    let there = match to.find(name)? {
        None => {
            let made = to.create(name, &found.meta, &genesis, &batch)?;
            return same(name, made, head).map(|()| copied(0));
        }
        Some(there) => there,
    };
    let other = |why: &str| {
        JournalError::new(
            ErrorKind::SessionExists,
            format!("session `{name}` is already in the destination with {why}; nothing was copied over it"),
        )
        .in_session(name)
    };
    if there.meta != found.meta {
        return Err(other("other metadata"));
    }
    let held = match to.head(name, there.id)? {
        HeadClaim::Known(held) => held,
        _ => return Err(other("a head that cannot be read")),
    };
    if held.len > head.len || hash_after(&genesis, &records, held.len) != held.last {
        return Err(other("another history"));
    }
    if held.len < head.len {
        let n = usize::try_from(held.len).unwrap_or(usize::MAX);
        let rest = Batch::from_encoded(held.len, &records[n..]);
        let now = to.append(name, there.id, held.len, &rest, Ack::Durable)?;
        same(name, now, head)?;
    }
    Ok(copied(held.len))
}

/// Every record of a session, verified against the chain from its genesis to its head.
fn read_whole(store: &dyn Store, name: &str, found: &Found) -> Result<(Vec<Vec<u8>>, Head), JournalError> {
    let head = match store.head(name, found.id)? {
        HeadClaim::Known(head) => head,
        HeadClaim::Unreadable { from, what } => {
            return Err(JournalError::new(ErrorKind::Corrupt, what).in_session(name).at(from))
        }
        HeadClaim::Lost(loss) => {
            return Err(JournalError::new(ErrorKind::Lost, loss.message).in_session(name))
        }
    };
    let mut walk = Walk::from_genesis(name, chain::genesis(name, &found.meta)?, Some(head.len));
    let mut records = Vec::with_capacity(usize::try_from(head.len).unwrap_or(0));
    let mut scan = store.scan(name, found.id, 0)?;
    let mut page = Page::default();
    while walk.next < head.len {
        match scan.next_page(&mut page) {
            Ok(true) => {}
            Ok(false) => break,
            Err(ScanError::Storage(e)) => return Err(e),
            Err(ScanError::Damage { at, kind, what }) => {
                return Err(walk.damage(at, kind, what).into_error(name))
            }
        }
        walk.page(&page, |_, bytes| {
            records.push(bytes.to_vec());
            Ok(())
        })
        .map_err(|p| p.into_error(name))?;
    }
    walk.finish(&head).map_err(|p| p.into_error(name))?;
    Ok((records, head))
}

/// The chain hash after the first `n` records.
fn hash_after(genesis: &Hash, records: &[Vec<u8>], n: u64) -> Hash {
    let mut last = *genesis;
    for (seq, record) in (0..n).zip(records) {
        last = chain::link(&last, seq, record);
    }
    last
}

/// The destination's head after the copy must be the source's.
fn same(name: &str, there: Head, here: Head) -> Result<(), JournalError> {
    if there == here {
        return Ok(());
    }
    Err(JournalError::new(
        ErrorKind::Corrupt,
        format!("session `{name}` did not arrive whole: the destination's head is not the source's"),
    )
    .in_session(name))
}
