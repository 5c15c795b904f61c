//! The `arbiter` command line (being built).
fn main() {}
