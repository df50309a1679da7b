//! The reference robot's arm: a 3-DoF Dobot v1 on the authors' own stepper controller.
//!
//! Source: `docs/reference-robot.md` (Kopets et al., Robotics 2020, 9(4), 107): three steppers
//! drive the base and the two links, the controller solves inverse kinematics itself, and a
//! dependent angle `theta3 = 270 deg - theta1` keeps the suction nozzle level. The paper's
//! figures for the joints are not in our copy, so this module states its reading: `theta1` is the
//! forearm's elevation from the horizontal (driven from the base through the parallelogram, so
//! absolute), `theta2` the upper arm's, and `theta3` the wrist's angle relative to the forearm;
//! then the nozzle points along `theta1 + theta3 = 270 deg`, straight down, whatever the pose,
//! which is exactly what the relation is for.
//!
//! Assumed dimensions (Dobot v1 sales figures, overridable in the calibration file): upper arm
//! 135 mm, forearm 160 mm, shoulder 100 mm above the plate, nozzle 50 mm ahead of and 70 mm
//! below the wrist axis. Assumed ranges: base +/-90 deg (the board is in front), upper arm
//! 5..90 deg, forearm -95..10 deg, 5..175 deg between the links (elbow up, off the singularity).

use serde::{Deserialize, Serialize};

use super::{ArmDimensions, JointRange, Kinematics, Unreachable, planar::LinkElevations};
use crate::arm::point::Point;

/// The nozzle's direction, relative to the horizontal, that the dependent angle keeps: down.
const NOZZLE_DOWN_DEG: f64 = 270.0;

/// The reference arm's geometry and joint limits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReferenceArm {
    /// Link lengths and nozzle offset.
    pub dimensions: ArmDimensions,
    /// Base yaw (`theta0`).
    pub theta0: JointRange,
    /// Forearm elevation (`theta1`).
    pub theta1: JointRange,
    /// Upper arm elevation (`theta2`).
    pub theta2: JointRange,
    /// Angle between the links at the elbow (`theta2 - theta1`).
    pub elbow: JointRange,
}

impl Default for ReferenceArm {
    fn default() -> ReferenceArm {
        ReferenceArm {
            dimensions: ArmDimensions {
                upper_arm_mm: 135.0,
                forearm_mm: 160.0,
                shoulder_height_mm: 100.0,
                tool_forward_mm: 50.0,
                tool_drop_mm: 70.0,
            },
            theta0: JointRange::new(-90.0, 90.0),
            theta1: JointRange::new(-95.0, 10.0),
            theta2: JointRange::new(5.0, 90.0),
            elbow: JointRange::new(5.0, 175.0),
        }
    }
}

/// Joint targets for the reference controller, degrees.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ReferenceJoints {
    /// Base yaw, 0 facing along x.
    pub theta0: f64,
    /// Forearm elevation from the horizontal.
    pub theta1: f64,
    /// Upper arm elevation from the horizontal.
    pub theta2: f64,
    /// Wrist relative to the forearm: always `270 - theta1`, so the nozzle points down.
    pub theta3: f64,
}

impl ReferenceJoints {
    /// Joint targets with the dependent wrist angle filled in.
    pub fn new(theta0: f64, theta1: f64, theta2: f64) -> ReferenceJoints {
        ReferenceJoints {
            theta0,
            theta1,
            theta2,
            theta3: NOZZLE_DOWN_DEG - theta1,
        }
    }

    /// The nozzle's direction from the horizontal: 270 deg (down) for every pose made by
    /// [`ReferenceJoints::new`] or inverse kinematics.
    pub fn nozzle_direction(&self) -> f64 {
        self.theta1 + self.theta3
    }
}

impl Kinematics for ReferenceArm {
    type Joints = ReferenceJoints;

    fn forward(&self, joints: &ReferenceJoints) -> Point {
        let links = LinkElevations {
            upper: joints.theta2.to_radians(),
            fore: joints.theta1.to_radians(),
        };
        let (reach, z) = self.dimensions.tip_in_plane(links);
        let yaw = joints.theta0.to_radians();
        Point::new(reach * yaw.cos(), reach * yaw.sin(), z)
    }

    fn inverse(&self, target: Point) -> Result<ReferenceJoints, Unreachable> {
        if target.radius() < f64::EPSILON {
            return Err(Unreachable::OnBaseAxis);
        }
        let links = self.dimensions.links_for(target.radius(), target.z)?;
        let joints = ReferenceJoints::new(
            target.y.atan2(target.x).to_degrees(),
            links.fore.to_degrees(),
            links.upper.to_degrees(),
        );
        self.theta0.check("theta0", joints.theta0)?;
        self.theta1.check("theta1", joints.theta1)?;
        self.theta2.check("theta2", joints.theta2)?;
        self.elbow
            .check("the elbow (theta2 - theta1)", joints.theta2 - joints.theta1)?;
        Ok(joints)
    }

    fn angles(joints: &ReferenceJoints) -> [f64; 4] {
        [joints.theta0, joints.theta1, joints.theta2, joints.theta3]
    }
}
