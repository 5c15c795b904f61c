//! Snapshots in sled: a cache of replayed states, so that "state at record N" does not
//! replay from 0.
//!
//! A snapshot is opaque bytes (the caller encodes the state, normally with `codec`) stored
//! under the session and a sequence number, tagged with the rules version that produced it.
//! It is never part of the hash chain and never needs to survive a crash: losing one only
//! costs a longer replay. A lookup ignores snapshots of another rules version, so a rules
//! change makes old ones invisible; `discard_snapshots` reclaims their space.

use super::layout::{key_seq, seq_key};
use super::state::SledStore;
use super::tail::storage;
use crate::error::JournalError;

impl SledStore {
    /// Store the state after `seq` records (replacing one there). Not flushed.
    pub(super) fn store_snapshot(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
        bytes: &[u8],
    ) -> Result<(), JournalError> {
        let mut value = Vec::with_capacity(4 + bytes.len());
        value.extend_from_slice(&rules_version.to_be_bytes());
        value.extend_from_slice(bytes);
        self.snapshots
            .insert(seq_key(id, seq), value)
            .map(|_| ())
            .map_err(|e| storage(&format!("storing a snapshot of `{name}`"), e))
    }

    /// The snapshot with the greatest sequence at or before `seq` made under `rules_version`.
    pub(super) fn find_snapshot(
        &self,
        name: &str,
        id: u64,
        seq: u64,
        rules_version: u32,
    ) -> Result<Option<(u64, Vec<u8>)>, JournalError> {
        for item in self.snapshots.range(seq_key(id, 0)..=seq_key(id, seq)).rev() {
            let (key, value) = item.map_err(|e| storage(&format!("reading snapshots of `{name}`"), e))?;
            let version = value.get(..4).and_then(|v| <[u8; 4]>::try_from(v).ok()).map(u32::from_be_bytes);
            if let (Some(at), Some(version)) = (key_seq(&key), version) {
                if version == rules_version {
                    return Ok(Some((at, value[4..].to_vec())));
                }
            }
        }
        Ok(None)
    }

    /// Delete a session's snapshots made under any rules version but `keep_rules_version`.
    pub(super) fn remove_snapshots(
        &self,
        name: &str,
        id: u64,
        keep_rules_version: u32,
    ) -> Result<usize, JournalError> {
        let what = format!("discarding snapshots of `{name}`");
        let mut stale = Vec::new();
        for item in self.snapshots.range(seq_key(id, 0)..=seq_key(id, u64::MAX)) {
            let (key, value) = item.map_err(|e| storage(&what, e))?;
            if value.get(..4) != Some(&keep_rules_version.to_be_bytes()[..]) {
                stale.push(key);
            }
        }
        for key in &stale {
            self.snapshots.remove(key).map_err(|e| storage(&what, e))?;
        }
        Ok(stale.len())
    }
}
