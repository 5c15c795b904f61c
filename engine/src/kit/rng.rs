//! The one seeded random generator of the project: splitmix64 (Steele, Lea, Flood 2014).
//! Tiny, fast, good enough for dice and shuffles, and the same sequence on every machine,
//! so a simulator's seed names its log forever. No dependency.

/// splitmix64's finaliser: a well-mixed 64-bit value of `z` (a stateless hash, for tests
/// that pick positions from a seed).
pub const fn mix(z: u64) -> u64 {
    let z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seeded generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let z = mix(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// A number in `0..n` (0 when `n` is 0, a value is drawn either way); the modulo bias
    /// is irrelevant for dice.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % (n.max(1) as u64)) as usize
    }

    /// One item, or `None` from an empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        let i = self.below(items.len());
        items.get(i)
    }

    /// A face of a die with `sides` sides: `1..=sides`.
    pub fn die(&mut self, sides: u8) -> u8 {
        1 + self.below(usize::from(sides)) as u8
    }

    /// Whether a 1-in-`n` chance comes up.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// Fisher-Yates, from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_splitmix64() {
        // Reference values of splitmix64 from seed 0 (also Proving Grounds' simulator's).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn dice_picks_and_shuffles_stay_in_range() {
        let mut r = SplitMix64::new(42);
        for _ in 0..1000 {
            assert!((1..=10).contains(&r.die(10)));
            assert!(r.below(3) < 3);
        }
        assert_eq!(r.below(0), 0);
        assert_eq!(r.pick::<u8>(&[]), None);
        let mut v: Vec<u8> = (0..20).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<u8>>());
        assert_ne!(v, sorted);
        assert_eq!(SplitMix64::new(7).next_u64(), SplitMix64::new(7).next_u64());
    }
}
