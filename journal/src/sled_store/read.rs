//! Reading sled's trees back: a session's last block (its head), its pages of records in
//! order, and its retraction index.

use super::block;
use super::layout::{key_seq, seq_key};
use super::state::SledStore;
use super::tail::{corrupt, head_of, missing_tail, storage, tail_first_of, Tail};
use crate::error::JournalError;
use crate::problem::ProblemKind;
use crate::store::{Page, Scan, ScanError};
use sled::IVec;

impl SledStore {
    /// Where a session's last block starts, as `heads` says.
    pub(super) fn tail_first(&self, name: &str, id: u64) -> Result<u64, JournalError> {
        let value =
            self.heads.get(id.to_be_bytes()).map_err(|e| storage(&format!("reading session `{name}`"), e))?;
        tail_first_of(name, value.as_deref())
    }

    /// A session's last block: its key, its stored value and the head its header gives.
    pub(super) fn tail(&self, name: &str, id: u64) -> Result<([u8; 16], IVec, Tail), JournalError> {
        let tail_first = self.tail_first(name, id)?;
        let key = seq_key(id, tail_first);
        let stored = self.events.get(key).map_err(|e| storage(&format!("reading session `{name}`"), e))?;
        let tail = head_of(name, tail_first, stored.as_deref())?;
        match stored {
            Some(stored) => Ok((key, stored, tail)),
            None => Err(missing_tail(name, tail_first)),
        }
    }

    /// A session's pages from the block holding record `from` (every block when `from` is
    /// 0, including any past its head).
    pub(super) fn scan_from(&self, name: &str, id: u64, from: u64) -> Result<SledScan, JournalError> {
        let first = if from == 0 { 0 } else { self.block_containing(name, id, from)? };
        Ok(SledScan {
            session: name.to_string(),
            blocks: self.events.range(seq_key(id, first)..=seq_key(id, u64::MAX)),
        })
    }

    /// Every retraction of a session in log order.
    pub(super) fn retractions_of(&self, name: &str, id: u64) -> Result<Vec<(u64, u64)>, JournalError> {
        let mut out = Vec::new();
        for item in self.retractions.range(seq_key(id, 0)..=seq_key(id, u64::MAX)) {
            let (key, value) = item.map_err(|e| storage(&format!("reading retractions of `{name}`"), e))?;
            let at = key_seq(&key);
            let target = <[u8; 8]>::try_from(value.as_ref()).ok().map(u64::from_be_bytes);
            match (at, target) {
                (Some(at), Some(target)) => out.push((at, target)),
                _ => return Err(corrupt(name, "an entry of its retraction index is malformed")),
            }
        }
        Ok(out)
    }

    /// First sequence number of the block that holds record `seq`.
    fn block_containing(&self, name: &str, id: u64, seq: u64) -> Result<u64, JournalError> {
        let found = self
            .events
            .range(seq_key(id, 0)..=seq_key(id, seq))
            .next_back()
            .transpose()
            .map_err(|e| storage(&format!("reading session `{name}`"), e))?;
        match found.and_then(|(k, _)| key_seq(&k)) {
            Some(first) => Ok(first),
            None => Err(corrupt(name, &format!("no block holds record {seq}")).at(seq)),
        }
    }
}

/// A session's blocks in key order, each read into a page.
pub(crate) struct SledScan {
    session: String,
    blocks: sled::Iter,
}

impl Scan for SledScan {
    fn next_page(&mut self, page: &mut Page) -> Result<bool, ScanError> {
        let Some(item) = self.blocks.next() else { return Ok(false) };
        let (key, value) = item.map_err(|e| {
            ScanError::Storage(
                storage(&format!("reading session `{}`", self.session), e).in_session(&self.session),
            )
        })?;
        let Some(at) = key_seq(&key) else {
            return Err(ScanError::Damage {
                at: None,
                kind: ProblemKind::Framing,
                what: "a block key is malformed".into(),
            });
        };
        let damage = |kind, what: String| ScanError::Damage { at: Some(at), kind, what };
        block::read_into(&value, page).map_err(|e| damage(ProblemKind::Framing, e))?;
        if page.first != at {
            return Err(damage(
                ProblemKind::Misplaced,
                format!("its block holds records from {} (blocks moved or swapped)", page.first),
            ));
        }
        Ok(true)
    }
}
