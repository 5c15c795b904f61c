//! Unit tests of the game: the worked examples' numbers through given / when / then.
