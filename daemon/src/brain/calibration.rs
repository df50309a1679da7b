//! Calibration of v: turns a player's raw win probability into one that matches how its games
//! end, so the emotions read the same v the same way at every level.
//!
//! A raw v is what the search believes: the network's value at levels 1-4 (trained on
//! alpha-beta games between equals), alpha-beta's score through a fixed logistic curve at
//! level 5. Neither is what happens: levels 1 and 2 then play moves other than the one v
//! describes (temperature), and level 5 wins from positions its curve calls even. Platt
//! scaling, `v' = sigmoid(slope * logit(v) + offset)`, fitted to logged games
//! (`training/calibration.py --fit`), fixes both with two numbers per level: `slope` stretches
//! (above 1) or flattens (below 1) v around the point `offset` moves it to. A v of exactly 0 or
//! 1 is a proven loss or win and stays.

/// Platt scaling of v, fitted per level (the constants are in [`super::levels`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// Multiplies `logit(v)`; positive, so the map keeps the order of positions.
    pub slope: f32,
    /// Added to `slope * logit(v)`: how much better (above 0) or worse the level did than its
    /// raw v said.
    pub offset: f32,
}

impl Calibration {
    /// The calibrated v for a raw `v`. Monotone increasing; maps (0, 1) into (0, 1) and keeps
    /// 0 and 1; a value outside `[0, 1]` is clamped first, NaN stays NaN (the emotions read it
    /// as an even game).
    pub fn apply(self, v: f32) -> f32 {
        if v.is_nan() {
            return v;
        }
        if v <= 0.0 || v >= 1.0 {
            return v.clamp(0.0, 1.0);
        }
        let v = f64::from(v);
        let logit = (v / (1.0 - v)).ln();
        let x = f64::from(self.slope) * logit + f64::from(self.offset);
        let calibrated = 1.0 / (1.0 + (-x).exp());
        // A v a hair inside (0, 1) must not round onto a proven result.
        (calibrated as f32).clamp(f32::MIN_POSITIVE, 1.0 - f32::EPSILON / 2.0)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp, reason = "proven results and clamps are exact")]
mod tests {
    use super::Calibration;
    use crate::brain::levels::LEVELS;

    /// Every map, the levels' own and their stand-ins', named for the messages.
    fn maps() -> Vec<(String, Calibration)> {
        LEVELS
            .iter()
            .flat_map(|level| {
                let own = level
                    .calibration
                    .map(|map| (format!("{}", level.number), map));
                let stand_in = level
                    .fallback_calibration
                    .map(|map| (format!("{}'s stand-in", level.number), map));
                [own, stand_in]
            })
            .flatten()
            .collect()
    }

    #[test]
    fn every_level_has_a_map_and_so_has_every_stand_in() {
        let numbers = |map: fn(&crate::brain::levels::Level) -> Option<Calibration>| {
            LEVELS
                .iter()
                .filter(|level| map(level).is_some())
                .map(|level| level.number)
                .collect::<Vec<u8>>()
        };
        assert_eq!(numbers(|level| level.calibration), [1, 2, 3, 4, 5]);
        // Level 5 has no stand-in: its own player is alpha-beta.
        assert_eq!(numbers(|level| level.fallback_calibration), [1, 2, 3, 4]);
    }

    #[test]
    fn the_maps_keep_the_order_and_stay_inside_0_and_1() {
        let mut raw: Vec<f32> = (1..50_000u16).map(|i| f32::from(i) / 50_000.0).collect();
        raw.extend([1e-30, 1e-12, 1e-7, 1.0 - 1e-7, 1.0 - f32::EPSILON / 2.0]);
        raw.sort_by(f32::total_cmp);
        for (level, map) in maps() {
            let calibrated: Vec<f32> = raw.iter().map(|&v| map.apply(v)).collect();
            for (v, c) in raw.iter().zip(&calibrated) {
                assert!(*c > 0.0 && *c < 1.0, "level {level}: {v} -> {c}");
            }
            for (pair, v) in calibrated.windows(2).zip(&raw) {
                assert!(pair[0] <= pair[1], "level {level}: not monotone at {v}");
            }
            // Not flat: the map still tells a worse position from a better one.
            assert!(map.apply(0.3) < map.apply(0.5) && map.apply(0.5) < map.apply(0.7));
        }
    }

    #[test]
    fn proven_results_stay_and_bad_values_are_tamed() {
        for (_, map) in maps() {
            assert_eq!(map.apply(0.0), 0.0);
            assert_eq!(map.apply(1.0), 1.0);
            assert_eq!(map.apply(-0.2), 0.0);
            assert_eq!(map.apply(1.3), 1.0);
            assert!(map.apply(f32::NAN).is_nan());
        }
    }

    #[test]
    fn the_identity_map_changes_nothing_and_the_fitted_ones_move_v_as_measured() {
        let identity = Calibration {
            slope: 1.0,
            offset: 0.0,
        };
        for v in [0.01, 0.2, 0.5, 0.77, 0.99] {
            assert!((identity.apply(v) - v).abs() < 1e-6);
        }
        let level = |n: usize| LEVELS[n - 1].calibration.unwrap();
        // Levels 1 and 2 did worse than an even raw v said; 3, 4 and 5 did better.
        assert!(level(1).apply(0.5) < 0.35 && level(2).apply(0.5) < 0.35);
        assert!(level(3).apply(0.5) > 0.6);
        assert!(level(4).apply(0.5) > 0.65 && level(5).apply(0.5) > 0.9);
        // So did the stand-ins: 1 and 2 worse (random moves), 3 and 4 better.
        let stand_in = |n: usize| LEVELS[n - 1].fallback_calibration.unwrap();
        assert!(stand_in(1).apply(0.5) < 0.35 && stand_in(2).apply(0.5) < 0.35);
        assert!(stand_in(3).apply(0.5) > 0.55 && stand_in(4).apply(0.5) > 0.7);
    }
}
