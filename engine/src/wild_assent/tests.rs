//! Unit tests of the rules, given / when / then.
