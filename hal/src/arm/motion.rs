//! How long a Cartesian arm takes to move: the Dobot's [`TravelTime`], behind the capture
//! order and the plan's duration when the calibrated arm is a Magician.
//!
//! Each straight segment is a trapezoidal velocity profile (accelerate, cruise, brake) from
//! rest to rest, which is how the Dobot's point-to-point moves and the reference controller's
//! steppers run; the suction pump needs a moment to grip or let go. The numbers only need to
//! rank orders correctly and give the host a fair expectation, not to match a stopwatch.

use serde::{Deserialize, Serialize};

use super::point::Point;
use super::travel::TravelTime;

/// Speed limits of the tool and the suction's settle time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MotionModel {
    /// Top speed of the tool, mm/s.
    pub speed_mm_s: f64,
    /// Acceleration and braking, mm/s².
    pub acceleration_mm_s2: f64,
    /// Time for the suction to grip or release a piece, s.
    pub suction_s: f64,
}

impl Default for MotionModel {
    /// The Dobot's default point-to-point settings, roughly: 200 mm/s and 400 mm/s².
    fn default() -> MotionModel {
        MotionModel {
            speed_mm_s: 200.0,
            acceleration_mm_s2: 400.0,
            suction_s: 0.3,
        }
    }
}

impl MotionModel {
    /// Seconds to travel `distance` mm in a straight line, starting and ending at rest.
    pub fn distance_s(&self, distance: f64) -> f64 {
        trapezoid_s(distance, self.speed_mm_s, self.acceleration_mm_s2)
    }
}

/// Seconds to cover `distance` (mm, or degrees for a joint) from rest to rest with top speed
/// `speed` and acceleration `acceleration`: a trapezoid, or a triangle when the distance is
/// too short to reach top speed. Nothing to cover, or no speed, takes no time.
pub(crate) fn trapezoid_s(distance: f64, speed: f64, acceleration: f64) -> f64 {
    let distance = distance.abs();
    if distance <= 0.0 || speed <= 0.0 || acceleration <= 0.0 {
        return 0.0;
    }
    if distance >= speed * speed / acceleration {
        distance / speed + speed / acceleration
    } else {
        2.0 * (distance / acceleration).sqrt()
    }
}

impl TravelTime for MotionModel {
    fn segment_s(&self, from: Point, to: Point) -> f64 {
        self.distance_s(from.distance(to))
    }

    fn suction_s(&self) -> f64 {
        self.suction_s
    }
}
