//! How long a controller that turns each joint on its own takes to move: the reference robot's
//! steppers, each with its top speed and acceleration.
//!
//! [`JointSpeeds`] is the one place the time of a joint move is worked out: the host's driver
//! asks it for each `JointTargets`' duration, the simulated controller for how long its joints
//! need, and [`JointSpaceModel`] for the planners' estimates, so the three cannot drift apart.
//! A joint runs a trapezoidal profile from rest to rest (accelerate, cruise, brake), as a
//! stepper driver ramps; every joint arrives together, so a move takes the slowest joint's
//! time. The driver cuts the tool's straight segments into hops ([`hops`]), each a move of its
//! own from rest, and the model sums those hops exactly as they are sent.

use std::time::Duration;

use super::kinematics::Kinematics;
use super::motion::trapezoid_s;
use super::plan::hops;
use super::point::Point;
use super::travel::TravelTime;

/// Joints the controller drives: base, forearm, upper arm. The reference arm's wrist follows
/// the forearm through the parallelogram and costs no time of its own.
const DRIVEN_JOINTS: usize = 3;

/// Seconds a segment through an unreachable point is taken to cost: far more than any real
/// move, so an order avoids it, yet finite, so an order is still complete (the plan's joint
/// targets then name the point).
const UNREACHABLE_S: f64 = 3600.0;

/// Top speeds and acceleration of a controller's joints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointSpeeds {
    /// Top speed of each joint (base, forearm, upper arm, wrist), degrees/s.
    pub speed_deg_s: [f64; 4],
    /// Acceleration and braking of every joint, degrees/s².
    pub acceleration_deg_s2: f64,
}

impl JointSpeeds {
    /// Seconds to move from the angles `from` to `to` (base first, as
    /// [`Kinematics::angles`] gives them): the slowest driven joint's time.
    pub fn move_s(&self, from: [f64; 4], to: [f64; 4]) -> f64 {
        (0..DRIVEN_JOINTS)
            .map(|j| {
                trapezoid_s(
                    to[j] - from[j],
                    self.speed_deg_s[j],
                    self.acceleration_deg_s2,
                )
            })
            .fold(0.0, f64::max)
    }

    /// [`JointSpeeds::move_s`] as a duration.
    pub fn move_time(&self, from: [f64; 4], to: [f64; 4]) -> Duration {
        Duration::from_secs_f64(self.move_s(from, to))
    }
}

/// The planners' time estimate for an arm driven by joint targets: each segment cut into the
/// driver's hops, each hop's joint angles from inverse kinematics, each hop the slowest joint's
/// trapezoid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointSpaceModel<K> {
    /// The arm's kinematics and joint limits.
    pub arm: K,
    /// Its joints' speeds.
    pub speeds: JointSpeeds,
    /// How long the tool dwells after the pump is switched, s.
    pub suction_s: f64,
}

impl<K: Kinematics> TravelTime for JointSpaceModel<K> {
    fn segment_s(&self, from: Point, to: Point) -> f64 {
        if from.distance(to) <= 0.0 {
            return 0.0;
        }
        let Ok(start) = self.arm.inverse(from) else {
            return UNREACHABLE_S;
        };
        let mut at = K::angles(&start);
        let mut total = 0.0;
        for point in hops(from, to) {
            let Ok(joints) = self.arm.inverse(point) else {
                return UNREACHABLE_S;
            };
            let next = K::angles(&joints);
            total += self.speeds.move_s(at, next);
            at = next;
        }
        total
    }

    fn suction_s(&self) -> f64 {
        self.suction_s
    }
}
