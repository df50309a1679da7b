//! The model's dice: a seeded `SplitMix64` carried in its state.
//!
//! The model owns its generators instead of using a global one, so the same seed and the same
//! inputs give the same face and the same lines, in tests and in a `--seed` simulation.

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A generator owned by one part of the model.
pub(crate) type Rng = SplitMix64;

/// A generator starting from `seed` (the state is the seed itself, so traces stay stable).
pub(crate) fn seeded(seed: u64) -> Rng {
    SplitMix64::from_seed(seed.to_le_bytes())
}

/// A number in `[0, 1)` with 24 random bits.
pub(crate) fn unit(rng: &mut Rng) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}
