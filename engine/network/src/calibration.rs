//! Calibration of a network's value: from what the search believes to what happens.
//!
//! A network's v is its expected score under the conditions it learned from (alpha-beta games
//! between equals, or its own games). The robot plays under others: few playouts and a
//! temperature at the easy levels, so it then plays moves other than the one v describes; many
//! playouts against weaker opponents at the hard ones, so it wins from positions it calls even.
//! Platt scaling, `v' = sigmoid(slope * logit(v) + offset)`, fitted to logged games
//! (`training/calibration.py --fit`), fixes both with two numbers: `slope` stretches (above 1)
//! or flattens (below 1) v around the point `offset` moves it to.
//!
//! A map fits one network at one difficulty level and nothing else (level 3's map for Russian
//! gen3 made gen2's v worse, and Brazilian's), so a model carries its own maps, one per level
//! that plays it, in its ONNX metadata under [`META_CALIBRATION`]: `3=1.14,0.528;4=0.909,0.959`
//! (level `=` slope `,` offset, separated by `;`). A level the model has no map for reports the
//! raw v. The levels themselves are the caller's; here they are only numbers.

use std::fmt;
use std::str::FromStr;

/// ONNX metadata key holding a model's [`LevelCalibrations`] as text (optional).
pub const META_CALIBRATION: &str = "checkerbot.calibration";

/// Platt scaling of a win probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueCalibration {
    /// Multiplies `logit(v)`; positive, so the map keeps the order of positions.
    pub slope: f32,
    /// Added to `slope * logit(v)`: how much better (above 0) or worse the player did than its
    /// raw v said.
    pub offset: f32,
}

impl ValueCalibration {
    /// The map that changes nothing.
    pub const IDENTITY: ValueCalibration = ValueCalibration {
        slope: 1.0,
        offset: 0.0,
    };

    /// The calibrated v for a raw `v`. Monotone increasing; maps (0, 1) into (0, 1) and keeps 0
    /// and 1, which are proven results; a value outside `[0, 1]` is clamped first, NaN stays
    /// NaN (the emotions read it as an even game).
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

    /// Whether the map is usable: a finite positive slope and a finite offset.
    pub fn is_valid(self) -> bool {
        self.slope.is_finite() && self.slope > 0.0 && self.offset.is_finite()
    }
}

/// The maps a model carries, at most one per level, in the order of the levels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LevelCalibrations {
    maps: Vec<(u8, ValueCalibration)>,
}

impl LevelCalibrations {
    /// No maps: every level reports the raw v.
    pub const fn new() -> LevelCalibrations {
        LevelCalibrations { maps: Vec::new() }
    }

    /// The map for `level`, if the model has one.
    pub fn for_level(&self, level: u8) -> Option<ValueCalibration> {
        self.maps
            .iter()
            .find(|(number, _)| *number == level)
            .map(|&(_, map)| map)
    }

    /// The levels and their maps, in the order of the levels.
    pub fn iter(&self) -> impl Iterator<Item = (u8, ValueCalibration)> + '_ {
        self.maps.iter().copied()
    }

    /// Whether there is no map at all.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// Sets the map for `level`, replacing an earlier one; refuses an unusable map.
    pub fn insert(
        &mut self,
        level: u8,
        map: ValueCalibration,
    ) -> Result<(), CalibrationParseError> {
        if !map.is_valid() {
            return Err(CalibrationParseError::BadMap {
                level,
                slope: map.slope,
                offset: map.offset,
            });
        }
        match self
            .maps
            .binary_search_by_key(&level, |&(number, _)| number)
        {
            Ok(i) => self.maps[i].1 = map,
            Err(i) => self.maps.insert(i, (level, map)),
        }
        Ok(())
    }
}

/// Why a [`META_CALIBRATION`] text is refused; the message names the part at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CalibrationParseError {
    /// Nothing but separators.
    #[error("no map in it")]
    Empty,
    /// A part is not `level=slope,offset` with numbers.
    #[error("`{0}` is not level=slope,offset")]
    Syntax(String),
    /// A level has two maps.
    #[error("level {0} has two maps")]
    Duplicate(u8),
    /// A slope that is not a positive number, or an offset that is not a number.
    #[error("level {level}'s map ({slope}, {offset}) needs a positive slope and a finite offset")]
    BadMap {
        /// The level.
        level: u8,
        /// The slope given.
        slope: f32,
        /// The offset given.
        offset: f32,
    },
}

impl FromStr for LevelCalibrations {
    type Err = CalibrationParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut calibrations = LevelCalibrations::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let syntax = || CalibrationParseError::Syntax(part.to_owned());
            let (level, map) = part.split_once('=').ok_or_else(syntax)?;
            let (slope, offset) = map.split_once(',').ok_or_else(syntax)?;
            let level: u8 = level.trim().parse().map_err(|_| syntax())?;
            let map = ValueCalibration {
                slope: slope.trim().parse().map_err(|_| syntax())?,
                offset: offset.trim().parse().map_err(|_| syntax())?,
            };
            if calibrations.for_level(level).is_some() {
                return Err(CalibrationParseError::Duplicate(level));
            }
            calibrations.insert(level, map)?;
        }
        if calibrations.is_empty() {
            return Err(CalibrationParseError::Empty);
        }
        Ok(calibrations)
    }
}

impl fmt::Display for LevelCalibrations {
    /// The metadata text, which [`LevelCalibrations::from_str`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (level, map)) in self.maps.iter().enumerate() {
            let separator = if i == 0 { "" } else { ";" };
            write!(f, "{separator}{level}={},{}", map.slope, map.offset)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(
    clippy::float_cmp,
    reason = "proven results, clamps and parsed numbers are exact"
)]
mod tests {
    use super::{CalibrationParseError, LevelCalibrations, ValueCalibration};

    /// Maps as steep, flat and shifted as fitted ones, and the identity.
    const MAPS: [ValueCalibration; 4] = [
        ValueCalibration::IDENTITY,
        ValueCalibration {
            slope: 2.99,
            offset: -1.03,
        },
        ValueCalibration {
            slope: 0.909,
            offset: 0.959,
        },
        ValueCalibration {
            slope: 2.425,
            offset: 2.852,
        },
    ];

    #[test]
    fn a_map_keeps_the_order_and_stays_inside_0_and_1() {
        let mut raw: Vec<f32> = (1..50_000u16).map(|i| f32::from(i) / 50_000.0).collect();
        raw.extend([1e-30, 1e-12, 1e-7, 1.0 - 1e-7, 1.0 - f32::EPSILON / 2.0]);
        raw.sort_by(f32::total_cmp);
        for map in MAPS {
            let calibrated: Vec<f32> = raw.iter().map(|&v| map.apply(v)).collect();
            for (v, c) in raw.iter().zip(&calibrated) {
                assert!(*c > 0.0 && *c < 1.0, "{map:?}: {v} -> {c}");
            }
            for (pair, v) in calibrated.windows(2).zip(&raw) {
                assert!(pair[0] <= pair[1], "{map:?}: not monotone at {v}");
            }
            // Not flat: the map still tells a worse position from a better one.
            assert!(map.apply(0.3) < map.apply(0.5) && map.apply(0.5) < map.apply(0.7));
        }
    }

    #[test]
    fn proven_results_stay_and_bad_values_are_tamed() {
        for map in MAPS {
            assert_eq!(map.apply(0.0), 0.0);
            assert_eq!(map.apply(1.0), 1.0);
            assert_eq!(map.apply(-0.2), 0.0);
            assert_eq!(map.apply(1.3), 1.0);
            assert!(map.apply(f32::NAN).is_nan());
        }
    }

    #[test]
    fn the_identity_changes_nothing_and_the_offset_moves_an_even_v() {
        for v in [0.01, 0.2, 0.5, 0.77, 0.99] {
            assert!((ValueCalibration::IDENTITY.apply(v) - v).abs() < 1e-6);
        }
        assert!(MAPS[1].apply(0.5) < 0.3 && MAPS[3].apply(0.5) > 0.9);
    }

    fn check(text: &str, expect: Result<&[(u8, f32, f32)], &str>) {
        let parsed = text.parse::<LevelCalibrations>();
        match (parsed, expect) {
            (Ok(calibrations), Ok(maps)) => {
                let found: Vec<(u8, f32, f32)> = calibrations
                    .iter()
                    .map(|(level, map)| (level, map.slope, map.offset))
                    .collect();
                assert_eq!(found, maps, "{text:?}");
                // What it writes reads back the same.
                assert_eq!(calibrations.to_string().parse(), Ok(calibrations));
            }
            (Err(error), Err(message)) => assert_eq!(error.to_string(), message, "{text:?}"),
            (parsed, expect) => panic!("{text:?}: {parsed:?}, expected {expect:?}"),
        }
    }

    #[test]
    fn the_metadata_text_is_read_and_bad_text_is_named() {
        check("3=1.14,0.528", Ok(&[(3, 1.14, 0.528)]));
        check(
            " 4 = 0.909 , 0.959 ; 3=1.14,0.528;",
            Ok(&[(3, 1.14, 0.528), (4, 0.909, 0.959)]),
        );
        check(
            "1=2.53,-1.032;2=2.99,-0.916",
            Ok(&[(1, 2.53, -1.032), (2, 2.99, -0.916)]),
        );
        check("", Err("no map in it"));
        check(" ; ", Err("no map in it"));
        check("3=1.14", Err("`3=1.14` is not level=slope,offset"));
        check("three=1,0", Err("`three=1,0` is not level=slope,offset"));
        check("300=1,0", Err("`300=1,0` is not level=slope,offset"));
        check("3=1,0;3=2,0", Err("level 3 has two maps"));
        check(
            "3=-1,0",
            Err("level 3's map (-1, 0) needs a positive slope and a finite offset"),
        );
        check(
            "3=1,NaN",
            Err("level 3's map (1, NaN) needs a positive slope and a finite offset"),
        );
    }

    #[test]
    fn insert_replaces_and_refuses_unusable_maps() {
        let mut calibrations = LevelCalibrations::new();
        calibrations.insert(4, MAPS[2]).unwrap();
        calibrations.insert(1, MAPS[1]).unwrap();
        calibrations.insert(4, MAPS[3]).unwrap();
        assert_eq!(calibrations.for_level(4), Some(MAPS[3]));
        assert_eq!(calibrations.for_level(2), None);
        assert_eq!(
            calibrations.iter().map(|(l, _)| l).collect::<Vec<_>>(),
            [1, 4]
        );
        let flat = ValueCalibration {
            slope: 0.0,
            offset: 0.0,
        };
        assert!(matches!(
            calibrations.insert(2, flat),
            Err(CalibrationParseError::BadMap { level: 2, .. })
        ));
    }
}
