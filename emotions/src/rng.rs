//! A small seeded random number generator carried in the model's state.

/// `SplitMix64`: tiny, fast, and good enough to decide whether to speak or when to blink.
///
/// The model owns its generators instead of using a global one, so the same seed and the same
/// inputs give the same face and the same lines, in tests and in a `--seed` simulation.
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

    /// A number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp, reason = "the values are exact by construction")]
    fn same_seed_same_numbers_and_roughly_uniform() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let draws: Vec<f32> = (0..10_000).map(|_| a.unit()).collect();
        assert!(
            draws
                .iter()
                .all(|&x| x == b.unit() && (0.0..1.0).contains(&x))
        );
        let below_quarter = draws.iter().filter(|&&x| x < 0.25).count();
        assert!((2_300..2_700).contains(&below_quarter), "{below_quarter}");
        assert_ne!(Rng::new(1).unit(), Rng::new(2).unit());
    }
}
