//! The simulation's and match runner's dice: a seeded `SplitMix64`, so a run replays exactly.

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

/// A small reproducible generator.
#[derive(Debug, Clone)]
pub struct SplitMix(SplitMix64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(SplitMix64::from_seed(seed.to_le_bytes()))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A waiting time with mean `mean` (exponentially distributed: the event is as likely at
    /// any moment, whatever has passed).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -(1.0 - self.unit()).ln() * mean
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}
