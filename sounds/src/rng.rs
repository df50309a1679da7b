//! A small seeded random number generator carried in the chooser's state.

/// `SplitMix64`: tiny and good enough to pick among a handful of phrasings.
///
/// The chooser owns its generator instead of using a global one, so the same seed and the same
/// requests give the same lines, in tests and in a `--seed` simulation (the same reasoning as
/// the emotion model's generator, which is private to that crate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`; `n` must be positive. The modulo bias is below 2^-50 for the
    /// handful of phrasings a category has.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "cannot pick from nothing");
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_every_value_drawn() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut seen = [0_u32; 5];
        for _ in 0..5_000 {
            let x = a.below(5);
            assert_eq!(x, b.below(5));
            seen[x] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1_150).contains(&n)), "{seen:?}");
        let firsts: Vec<usize> = (0..8).map(|seed| Rng::new(seed).below(1_000)).collect();
        assert!(firsts.windows(2).any(|w| w[0] != w[1]), "{firsts:?}");
    }
}
