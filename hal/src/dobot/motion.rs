//! How long the Magician takes for a move, shared by the driver (to size its timeouts) and the
//! virtual Dobot (to take that long), so both agree on what "plausible" means.

use std::time::Duration;

use crate::device::Pose;

/// Speed limits of Cartesian PTP moves after the common ratios are applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Speed {
    /// mm/s.
    pub velocity: f32,
    /// mm/s².
    pub acceleration: f32,
}

impl Speed {
    /// The limits the firmware applies: coordinate parameters (id 81) scaled by the common
    /// ratios in percent (id 83). Never zero, so a bad setting gives a slow move, not a stuck
    /// one.
    pub fn new(
        velocity: f32,
        acceleration: f32,
        velocity_ratio: f32,
        acceleration_ratio: f32,
    ) -> Speed {
        Speed {
            velocity: (velocity * velocity_ratio / 100.0).max(1.0),
            acceleration: (acceleration * acceleration_ratio / 100.0).max(1.0),
        }
    }

    /// Time for one straight segment from rest to rest: a trapezoidal speed profile, or a
    /// triangular one when the segment is too short to reach full speed.
    pub fn segment_time(self, distance: f32) -> f32 {
        let (v, a) = (self.velocity, self.acceleration);
        let distance = distance.abs();
        if distance * a >= v * v {
            distance / v + v / a
        } else {
            2.0 * (distance / a).sqrt()
        }
    }
}

/// The shape of JUMP moves (id 82).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Jump {
    /// Lift above the higher of start and target, mm.
    pub height: f32,
    /// The highest the lift may go, mm.
    pub z_limit: f32,
}

impl Jump {
    /// The corner points of a jump from `from` to `to`: straight up, across, straight down.
    pub fn waypoints(self, from: Pose, to: Pose) -> [Pose; 4] {
        let floor = from.z.max(to.z);
        let top = (floor + self.height).min(self.z_limit).max(floor);
        [from, Pose { z: top, ..from }, Pose { z: top, ..to }, to]
    }
}

/// Straight-line distance between two tool positions, mm (rotation ignored).
pub(crate) fn distance(a: Pose, b: Pose) -> f32 {
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + (a.z - b.z).powi(2)).sqrt()
}

/// Time for a move through `points`, stopping at each corner, as the firmware does between the
/// segments of a jump.
pub(crate) fn path_time(speed: Speed, points: &[Pose]) -> Duration {
    let seconds: f32 = points
        .windows(2)
        .map(|pair| speed.segment_time(distance(pair[0], pair[1])))
        .sum();
    Duration::from_secs_f32(seconds.max(0.0))
}

#[cfg(test)]
#[allow(clippy::float_cmp, reason = "the values compared are exact in binary")]
mod tests {
    use super::*;

    #[test]
    fn long_moves_cruise_and_short_ones_do_not() {
        let speed = Speed::new(100.0, 100.0, 100.0, 100.0);
        // 200 mm: 1 s accelerating and braking (100 mm), 1 s cruising.
        assert!((speed.segment_time(200.0) - 3.0).abs() < 1e-4);
        // 25 mm never reaches 100 mm/s: 2 * sqrt(25 / 100) = 1 s.
        assert!((speed.segment_time(25.0) - 1.0).abs() < 1e-4);
        assert_eq!(speed.segment_time(0.0), 0.0);
    }

    #[test]
    fn a_jump_lifts_above_the_higher_end_within_the_limit() {
        let low = Pose {
            x: 200.0,
            y: 0.0,
            z: -40.0,
            r: 0.0,
        };
        let high = Pose { z: 10.0, ..low };
        let jump = Jump {
            height: 30.0,
            z_limit: 100.0,
        };
        assert_eq!(jump.waypoints(low, high)[1].z, 40.0);
        let capped = Jump {
            height: 30.0,
            z_limit: 20.0,
        };
        assert_eq!(capped.waypoints(low, high)[1].z, 20.0);
    }
}
