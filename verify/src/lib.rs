//! Replay, verification reports, diff and the fixture runner (being built).
