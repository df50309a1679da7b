//! Samples from a symmetric Dirichlet distribution, the noise `AlphaZero` mixes into the
//! priors at the root of a self-play search so that moves the network undervalues still get
//! tried and can be learned.
//!
//! Written here rather than taken from `rand_distr` because the engine draws all randomness
//! from one seeded `SplitMix64` stream and needs only this one distribution: a Dirichlet
//! sample is independent Gamma(alpha) draws divided by their sum, and Gamma is Marsaglia and
//! Tsang's method ("A simple method for generating gamma variables", 2000).

use rand_core::Rng;

/// `n` weights that sum to 1, drawn from Dirichlet(alpha, ..., alpha). Smaller `alpha` puts
/// more of the weight on fewer entries. Uniform weights if `alpha` is not a positive number.
pub fn sample(alpha: f64, n: usize, rng: &mut impl Rng) -> Vec<f32> {
    if n == 0 {
        return Vec::new();
    }
    let draws: Vec<f64> = if alpha > 0.0 && alpha.is_finite() {
        (0..n).map(|_| gamma(alpha, rng)).collect()
    } else {
        vec![1.0; n]
    };
    let total: f64 = draws.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        // Every draw underflowed (possible only for a tiny alpha): no preference at all.
        return vec![1.0 / n as f32; n];
    }
    draws.iter().map(|g| (g / total) as f32).collect()
}

/// One Gamma(alpha, 1) draw.
fn gamma(alpha: f64, rng: &mut impl Rng) -> f64 {
    if alpha < 1.0 {
        // Gamma(a) = Gamma(a + 1) * U^(1/a), since the method below needs a >= 1.
        return gamma(alpha + 1.0, rng) * open_unit(rng).powf(1.0 / alpha);
    }
    // The paper's d and c.
    let shape = alpha - 1.0 / 3.0;
    let spread = 1.0 / (9.0 * shape).sqrt();
    loop {
        let x = normal(rng);
        let root = 1.0 + spread * x;
        if root <= 0.0 {
            continue;
        }
        let cube = root * root * root;
        let u = open_unit(rng);
        if u < 1.0 - 0.0331 * x.powi(4) || u.ln() < 0.5 * x * x + shape * (1.0 - cube + cube.ln()) {
            return shape * cube;
        }
    }
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut impl Rng) -> f64 {
    let radius = (-2.0 * open_unit(rng).ln()).sqrt();
    radius * (std::f64::consts::TAU * open_unit(rng)).cos()
}

/// Uniform in `(0, 1]`, so that its logarithm is finite.
fn open_unit(rng: &mut impl Rng) -> f64 {
    ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;
    use rand_xoshiro::SplitMix64;

    /// Mean and variance of many Gamma draws, against alpha and alpha (its mean and variance).
    fn check_gamma(alpha: f64) {
        let mut rng = SplitMix64::seed_from_u64(7);
        let n = 200_000;
        let draws: Vec<f64> = (0..n).map(|_| gamma(alpha, &mut rng)).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let variance = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(draws.iter().all(|x| *x >= 0.0 && x.is_finite()));
        assert!(
            (mean - alpha).abs() < 0.02 * alpha.max(1.0),
            "alpha {alpha}: mean {mean}"
        );
        assert!(
            (variance - alpha).abs() < 0.05 * alpha.max(1.0),
            "alpha {alpha}: variance {variance}"
        );
    }

    #[test]
    fn gamma_draws_have_the_distributions_mean_and_variance() {
        for alpha in [0.3, 1.0, 2.5] {
            check_gamma(alpha);
        }
    }

    #[test]
    fn a_sample_is_a_probability_vector_and_small_alpha_concentrates_it() {
        let mut rng = SplitMix64::seed_from_u64(3);
        let largest_share = |alpha: f64, rng: &mut SplitMix64| {
            let mut sum = 0.0;
            for _ in 0..2_000 {
                let w = sample(alpha, 8, rng);
                assert_eq!(w.len(), 8);
                assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-4);
                assert!(w.iter().all(|x| *x >= 0.0));
                sum += w.iter().copied().fold(0.0, f32::max);
            }
            sum / 2_000.0
        };
        let peaked = largest_share(0.1, &mut rng);
        let flat = largest_share(10.0, &mut rng);
        // Dirichlet(0.1) over 8 moves puts most weight on one; Dirichlet(10) spreads it evenly.
        assert!(peaked > 0.6, "alpha 0.1: largest share {peaked}");
        assert!(flat < 0.25, "alpha 10: largest share {flat}");
    }

    #[test]
    fn degenerate_alphas_give_uniform_weights() {
        let mut rng = SplitMix64::seed_from_u64(1);
        assert_eq!(sample(0.0, 4, &mut rng), vec![0.25; 4]);
        assert_eq!(sample(f64::NAN, 2, &mut rng), vec![0.5; 2]);
        assert!(sample(0.5, 0, &mut rng).is_empty());
    }
}
