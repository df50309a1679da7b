//! A tool position in millimetres, in the arm's base frame.
//!
//! Planning and kinematics compute in `f64` so that round trips through inverse and forward
//! kinematics stay far below the arm's 0.2 mm repeatability; the device boundary ([`Pose`]) is
//! `f32` because that is what the Dobot's firmware takes.

use serde::{Deserialize, Serialize};

use crate::device::Pose;

/// A point in the Dobot's base frame: x forward, y left, z up from the mounting plane, in mm.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Forward from the base axis, mm.
    pub x: f64,
    /// Left of the base axis, mm.
    pub y: f64,
    /// Up from the mounting plane, mm.
    pub z: f64,
}

impl Point {
    /// A point from its coordinates.
    pub const fn new(x: f64, y: f64, z: f64) -> Point {
        Point { x, y, z }
    }

    /// The same spot at another height: where the tool waits above it before a vertical approach.
    #[must_use]
    pub const fn at_height(self, z: f64) -> Point {
        Point { z, ..self }
    }

    /// Straight-line distance, mm.
    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x)
            .hypot(self.y - other.y)
            .hypot(self.z - other.z)
    }

    /// Distance seen from above, mm: the part of a jump travelled at the safe height.
    pub fn horizontal_distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// Distance from the base's vertical axis, mm.
    pub fn radius(self) -> f64 {
        self.x.hypot(self.y)
    }

    /// The Dobot pose for this point with the tool rotation `r` (degrees).
    pub fn to_pose(self, r: f64) -> Pose {
        Pose {
            x: self.x as f32,
            y: self.y as f32,
            z: self.z as f32,
            r: r as f32,
        }
    }

    /// The position part of a pose reported by the arm.
    pub fn from_pose(pose: Pose) -> Point {
        Point::new(f64::from(pose.x), f64::from(pose.y), f64::from(pose.z))
    }

    pub(crate) fn lerp(self, other: Point, t: f64) -> Point {
        Point::new(
            self.x + (other.x - self.x) * t,
            self.y + (other.y - self.y) * t,
            self.z + (other.z - self.z) * t,
        )
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "(x {:.1}, y {:.1}, z {:.1})", self.x, self.y, self.z)
    }
}
