//! The chooser's dice: a seeded `SplitMix64` carried in its state, so the same seed and the same
//! requests give the same lines, in tests and in a `--seed` simulation.

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A generator owned by the chooser.
pub(crate) type Rng = SplitMix64;

/// A generator starting from `seed`.
pub(crate) fn seeded(seed: u64) -> Rng {
    SplitMix64::from_seed(seed.to_le_bytes())
}

/// A number in `0..n`; `n` must be positive. The modulo bias is below 2^-50 for the handful of
/// phrasings a category has.
pub(crate) fn below(rng: &mut Rng, n: usize) -> usize {
    assert!(n > 0, "cannot pick from nothing");
    (rng.next_u64() % n as u64) as usize
}
