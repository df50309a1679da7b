//! Forward and inverse kinematics of the arms checkerbot drives.
//!
//! Both arms are the same mechanism seen through different joint conventions: a base that
//! turns about a vertical axis, and two links in the vertical plane through that axis with a
//! tool that stays vertical. `planar.rs` solves that plane once; [`dobot`] and
//! [`mod@reference`] map it onto each controller's joint angles and limits. Every dimension is
//! a configuration value ([`ArmDimensions`]) because public models of these arms disagree by a
//! few millimetres, and a calibration file may correct them.

pub mod dobot;
mod planar;
pub mod reference;

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::point::Point;

pub use dobot::{Magician, MagicianJoints};
pub use reference::{ReferenceArm, ReferenceJoints};

/// The arm's link lengths and where the tool tip sits relative to them, in mm.
///
/// The tool tip is where a calibrated point is taught: the bottom of the suction cup.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmDimensions {
    /// Shoulder axis to elbow axis.
    pub upper_arm_mm: f64,
    /// Elbow axis to wrist axis.
    pub forearm_mm: f64,
    /// Height of the shoulder axis above the frame's z = 0.
    pub shoulder_height_mm: f64,
    /// Horizontal distance from the wrist axis to the suction cup's centre, away from the base.
    pub tool_forward_mm: f64,
    /// How far the suction cup's tip hangs below the wrist axis.
    pub tool_drop_mm: f64,
}

/// The range a joint may move through, degrees, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct JointRange {
    /// Lowest angle.
    pub min: f64,
    /// Highest angle.
    pub max: f64,
}

impl JointRange {
    /// The range from `min` to `max` degrees.
    pub const fn new(min: f64, max: f64) -> JointRange {
        JointRange { min, max }
    }

    /// Whether `angle` lies in the range, allowing for rounding in the solver.
    pub fn contains(self, angle: f64) -> bool {
        const ROUNDING: f64 = 1e-9;
        angle >= self.min - ROUNDING && angle <= self.max + ROUNDING
    }

    pub(crate) fn check(self, joint: &'static str, angle: f64) -> Result<(), Unreachable> {
        if self.contains(angle) {
            Ok(())
        } else {
            Err(Unreachable::JointLimit {
                joint,
                angle,
                range: self,
            })
        }
    }
}

impl fmt::Display for JointRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{} deg", self.min, self.max)
    }
}

/// Why the tool cannot reach a point.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum Unreachable {
    /// The wrist would have to be further from the shoulder than the stretched arm.
    #[error("{distance:.1} mm from the shoulder, beyond the arm's reach of {reach:.1} mm")]
    TooFar {
        /// Shoulder-to-wrist distance the point needs, mm.
        distance: f64,
        /// Longest shoulder-to-wrist distance, mm.
        reach: f64,
    },
    /// The wrist would have to be closer to the shoulder than the folded arm allows.
    #[error("{distance:.1} mm from the shoulder, closer than the folded arm's {reach:.1} mm")]
    TooClose {
        /// Shoulder-to-wrist distance the point needs, mm.
        distance: f64,
        /// Shortest shoulder-to-wrist distance, mm.
        reach: f64,
    },
    /// The point lies in reach, but a joint would leave its range.
    #[error("needs {joint} at {angle:.1} deg, outside its range {range}")]
    JointLimit {
        /// The joint's name in its controller's convention.
        joint: &'static str,
        /// The angle the point needs, degrees.
        angle: f64,
        /// The joint's range.
        range: JointRange,
    },
    /// The point lies on the base axis, where the base angle is undefined.
    #[error("on the base's axis, where the arm cannot point")]
    OnBaseAxis,
}

/// Forward and inverse kinematics of one arm.
pub trait Kinematics {
    /// The arm's joint angles in its controller's convention, degrees.
    type Joints: Copy + fmt::Debug + PartialEq;

    /// Where the tool tip is for these joint angles.
    fn forward(&self, joints: &Self::Joints) -> Point;

    /// The joint angles that put the tool tip on `target`, within the joint limits.
    fn inverse(&self, target: Point) -> Result<Self::Joints, Unreachable>;

    /// Whether the tool tip can reach `target`.
    fn reachable(&self, target: Point) -> bool {
        self.inverse(target).is_ok()
    }

    /// The joint angles as a plain array (base first), for comparisons and estimates that do not
    /// care which arm they handle.
    fn angles(joints: &Self::Joints) -> [f64; 4];
}

/// Which arm a calibration is for, with its dimensions and limits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum ArmModel {
    /// A Dobot Magician with the suction cup.
    Magician(Magician),
    /// The reference robot's 3-DoF Dobot v1 on its own stepper controller.
    Reference(ReferenceArm),
}

impl Default for ArmModel {
    fn default() -> ArmModel {
        ArmModel::Magician(Magician::default())
    }
}

impl ArmModel {
    /// Why `target` is out of reach, or `None` when the arm can get there.
    pub fn unreachable(&self, target: Point) -> Option<Unreachable> {
        match self {
            ArmModel::Magician(arm) => arm.inverse(target).err(),
            ArmModel::Reference(arm) => arm.inverse(target).err(),
        }
    }
}
