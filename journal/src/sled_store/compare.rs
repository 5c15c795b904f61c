//! Comparing what sled gives back with the record of heads (`heads`): a session sled
//! holds shorter than acknowledged, or no longer at all, is a loss, named and refused until
//! the user accepts it.

use super::state::SledStore;
use super::tail::corrupt;
use crate::chain::{self, Hash};
use crate::error::{ErrorKind, JournalError};
use crate::store::{Head, HeadClaim, Loss};
use crate::walk;

impl SledStore {
    /// A session's head from its last block, without comparing it with the record.
    pub(super) fn stored_claim(&self, name: &str, id: u64) -> Result<HeadClaim, JournalError> {
        match self.tail(name, id) {
            Ok((_, _, tail)) => Ok(HeadClaim::Known(tail.head())),
            Err(e) if e.kind() == ErrorKind::Corrupt => {
                let from = self.tail_first(name, id).unwrap_or(0);
                Ok(HeadClaim::Unreadable { from, what: e.message().to_string() })
            }
            Err(e) => Err(e),
        }
    }

    /// Compare a session's stored head with the record of heads, once per process; a
    /// session found shorter (or different) becomes a loss.
    pub(super) fn compared(&self, name: &str, id: u64, head: Head) -> Result<HeadClaim, JournalError> {
        let recorded = {
            let mut record = self.lock_record();
            if let Some(loss) = record.losses.get(name) {
                return Ok(HeadClaim::Lost(loss.clone()));
            }
            if record.checked.contains(name) {
                return Ok(HeadClaim::Known(head));
            }
            record.file.recorded.get(name)
        };
        let holds = match recorded {
            None => true,
            Some(rec) if rec.len == head.len => rec.last == head.last,
            Some(rec) if rec.len < head.len => match self.hash_after(name, id, rec.len) {
                Ok(hash) => hash == rec.last,
                // Damage on the way: what reads it (or `check`) will name it.
                Err(e) if e.kind() == ErrorKind::Corrupt => return Ok(HeadClaim::Known(head)),
                Err(e) => return Err(e),
            },
            Some(_) => false,
        };
        let mut record = self.lock_record();
        if holds {
            record.checked.insert(name.to_string());
            return Ok(HeadClaim::Known(head));
        }
        let expected = recorded.map_or(0, |r| r.len);
        let loss = self.loss(name, expected, Some(head));
        record.losses.insert(name.to_string(), loss.clone());
        Ok(HeadClaim::Lost(loss))
    }

    /// The loss of session `name`, acknowledged at `expected` records, whose data file holds
    /// `holds` (`None`: the session is gone).
    pub(super) fn loss(&self, name: &str, expected: u64, holds: Option<Head>) -> Loss {
        let db = self.shown();
        let decide = format!(
            "keep a copy of the directory (a backup may still hold the rest), then accept the loss with \
             `arbiter check {name} --accept-loss --db {db}` to go on from what is left"
        );
        let message = match holds {
            None => format!(
                "database `{db}` is damaged: session `{name}` should hold {expected} records, but its data \
                 file no longer has the session; {decide}"
            ),
            Some(head) if head.len < expected => format!(
                "database `{db}` is damaged: session `{name}` should hold {expected} records, but its data \
                 file holds {}; records {}..{expected} are lost; {decide}",
                head.len, head.len
            ),
            Some(head) => format!(
                "database `{db}` is damaged: session `{name}` holds {} records, but not the {expected} that were \
                 acknowledged (its chain differs there); {decide}",
                head.len
            ),
        };
        Loss {
            session: name.to_string(),
            expected,
            holds: holds.map_or(0, |h| h.len.min(expected)),
            vanished: holds.is_none(),
            message,
        }
    }

    /// The chain hash after the first `n` records (verified on the way).
    pub(super) fn hash_after(&self, name: &str, id: u64, n: u64) -> Result<Hash, JournalError> {
        match n.checked_sub(1) {
            None => {
                let entry = self.entry(name)?.ok_or_else(|| corrupt(name, "it vanished"))?;
                chain::genesis(name, &entry.meta)
            }
            Some(target) => walk::hash_after(name, &mut self.scan_from(name, id, target)?, n),
        }
    }

    /// Compare every session with the record of heads: after a data file was found to have
    /// lost writes the record covers.
    pub(super) fn compare_all(&self) -> Result<(), JournalError> {
        let recorded = self.lock_record().file.recorded.heads().clone();
        for (name, rec) in recorded {
            match self.entry(&name)? {
                None => {
                    let loss = self.loss(&name, rec.len, None);
                    self.lock_record().losses.insert(name, loss);
                }
                Some(found) => {
                    if let HeadClaim::Known(head) = self.stored_claim(&name, found.id)? {
                        self.compared(&name, found.id, head)?;
                    }
                }
            }
        }
        Ok(())
    }
}
