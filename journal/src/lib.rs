//! The sled-backed event store (being built).
