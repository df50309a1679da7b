//! How strongly a rule fires, from how far its signal passed the threshold.

/// Intensity of a rule whose signal `x` passed `threshold`: 0.5 at the threshold, rising
/// linearly to 1 at `full`. A visible emotion therefore never starts as a faint flicker, and
/// the "full" point is where the docs say an emotion is at its strongest.
pub(crate) fn strength(x: f32, threshold: f32, full: f32) -> f32 {
    let ramp = if full > threshold {
        ((x - threshold) / (full - threshold)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    0.5 + 0.5 * ramp
}

/// Strength of a capture of `count` pieces: one piece is half, `full` pieces are whole.
pub(crate) fn pieces(count: u8, full: f32) -> f32 {
    strength(f32::from(count), 1.0, full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp, reason = "the values are exact by construction")]
    fn half_at_the_threshold_full_at_the_full_point() {
        assert_eq!(strength(0.25, 0.25, 0.5), 0.5);
        assert!((strength(0.375, 0.25, 0.5) - 0.75).abs() < 1e-6);
        assert_eq!(strength(0.5, 0.25, 0.5), 1.0);
        assert_eq!(strength(0.9, 0.25, 0.5), 1.0);
        assert_eq!(strength(0.3, 0.3, 0.3), 1.0);
    }
}
