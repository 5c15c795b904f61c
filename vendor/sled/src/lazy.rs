//! This module exists because `lazy_static` causes TSAN to
//! be very unhappy. We rely heavily on TSAN for finding
//! races, so we don't use `lazy_static`.
//!
//! Patched for arbiter: the value is kept in a `std::sync::OnceLock`,
//! so a thread that finds the value being initialized blocks until it
//! is ready instead of spinning on an atomic flag. The thread pool's
//! initializer spawns seven threads that all dereference the pool
//! while it is being built; spinning, they took both cores of a small
//! machine from the thread building it (milliseconds at every open).

use std::sync::OnceLock;

/// A lazily initialized value
pub struct Lazy<T, F> {
    value: OnceLock<T>,
    init: F,
}

impl<T, F> Lazy<T, F> {
    /// Create a new Lazy
    pub const fn new(init: F) -> Self
    where
        F: Sized,
    {
        Self { value: OnceLock::new(), init }
    }
}

impl<T, F> std::ops::Deref for Lazy<T, F>
where
    F: Fn() -> T,
{
    type Target = T;

    fn deref(&self) -> &T {
        self.value.get_or_init(|| (self.init)())
    }
}
