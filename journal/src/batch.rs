//! Records encoded once, before any storage is touched: what every backend is given to
//! write. A transaction may run its closure again, and a refused record (too large, a
//! retraction of the future) must be refused before anything is written.

use crate::codec;
use crate::error::{ErrorKind, JournalError};
use crate::limits::MAX_RECORD_BYTES;
use crate::record::Record;
use serde::Serialize;

/// Encoded records, numbered from `first`.
pub(crate) struct Batch {
    bytes: Vec<u8>,
    /// End offset in `bytes` of each record.
    ends: Vec<usize>,
    /// `(sequence of the Retract record, sequence it retracts)`.
    pub retractions: Vec<(u64, u64)>,
}

impl Batch {
    /// Encode `records` for session `name`, the first at sequence `first`. Refuses a
    /// retraction that does not name an earlier record and a record larger than
    /// `MAX_RECORD_BYTES`.
    pub fn encode<E: Serialize>(
        name: &str,
        first: u64,
        records: &[Record<E>],
    ) -> Result<Batch, JournalError> {
        let mut out =
            Batch { bytes: Vec::new(), ends: Vec::with_capacity(records.len()), retractions: Vec::new() };
        for (seq, record) in (first..).zip(records) {
            if let Record::Retract(target) = record {
                if *target >= seq {
                    return Err(JournalError::new(
                        ErrorKind::InvalidRecord,
                        format!(
                            "record {seq} of session `{name}` retracts record {target}, which is not before it"
                        ),
                    )
                    .in_session(name)
                    .at(seq));
                }
                out.retractions.push((seq, *target));
            }
            codec::encode_into(record, &mut out.bytes).map_err(|e| {
                JournalError::new(
                    ErrorKind::Encode,
                    format!("record {seq} of session `{name}` cannot be encoded: {e}"),
                )
                .in_session(name)
                .at(seq)
            })?;
            let size = out.bytes.len() - out.ends.last().copied().unwrap_or(0);
            if size > MAX_RECORD_BYTES {
                return Err(JournalError::new(
                    ErrorKind::InvalidRecord,
                    format!(
                        "record {seq} of session `{name}` encodes to {size} bytes, more than the {MAX_RECORD_BYTES} a record may have"
                    ),
                )
                .in_session(name)
                .at(seq));
            }
            out.ends.push(out.bytes.len());
        }
        Ok(out)
    }

    /// Records already encoded (a redo from a write-ahead log), the first at `first`.
    /// `Retract` records are recognised so that a retraction index is kept.
    pub fn from_encoded(first: u64, records: &[Vec<u8>]) -> Batch {
        let mut out = Batch { bytes: Vec::new(), ends: Vec::new(), retractions: Vec::new() };
        for (seq, record) in (first..).zip(records) {
            // An event never decodes as a `Retract`: the two variants' tags differ.
            if let Ok(Record::Retract(target)) = codec::decode::<Record<()>>(record) {
                out.retractions.push((seq, target));
            }
            out.bytes.extend_from_slice(record);
            out.ends.push(out.bytes.len());
        }
        out
    }

    /// Each record's encoded bytes, in order.
    pub fn records(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.bytes[start..end])
    }

    /// How many records.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}
