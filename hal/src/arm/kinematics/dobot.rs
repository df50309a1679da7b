//! The Dobot Magician in its firmware's joint convention.
//!
//! Sources (see `docs/dobot-magician.md` in the shared docs): upper (rear) arm 135 mm, forearm
//! 147 mm, shoulder axis about 139 mm above the base plate, suction cup about 60 mm in front of
//! the wrist axis; a parallelogram keeps the tool level, so the position is set by J1 (base
//! yaw), J2 (rear arm, measured from the vertical, positive leaning forward) and J3 (forearm,
//! measured from the horizontal, positive pointing down), and J4 only turns the tool. Ranges
//! quoted by public models: J1 about +/-135 deg, J2 0..85 deg, J3 -10..95 deg; the user guide
//! gives J4 +/-90 deg.
//!
//! Assumptions of ours, all overridable in the calibration file: the suction cup's tip hangs
//! 60 mm below the wrist axis (nozzle, bracket and cup; no public figure), which puts a board
//! lying on the mounting plane (z = 0 to 20 mm) in reach from about 170 to 320 mm from the
//! base axis, as the doc's "reachable annulus" says; and the angle between the two links stays
//! within 5..175 deg, which keeps to the elbow-up posture the firmware uses and away from the
//! stretched-arm singularity, where an angle error of 0.01 deg would move the tool by millimetres.
//!
//! The firmware's `r` is the tool's rotation in the base frame, `J1 + J4`: a pose for round
//! pieces sets `r = J1` so the tool never turns.

use serde::{Deserialize, Serialize};

use super::{ArmDimensions, JointRange, Kinematics, Unreachable, planar::LinkElevations};
use crate::arm::point::Point;

/// The Magician's geometry and joint limits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Magician {
    /// Link lengths and tool offset.
    pub dimensions: ArmDimensions,
    /// Base yaw.
    pub j1: JointRange,
    /// Rear arm from the vertical.
    pub j2: JointRange,
    /// Forearm from the horizontal, positive down.
    pub j3: JointRange,
    /// Tool rotation relative to the forearm.
    pub j4: JointRange,
    /// Angle between rear arm and forearm at the elbow (`90 - J2 + J3`).
    pub elbow: JointRange,
}

impl Default for Magician {
    fn default() -> Magician {
        Magician {
            dimensions: ArmDimensions {
                upper_arm_mm: 135.0,
                forearm_mm: 147.0,
                shoulder_height_mm: 139.0,
                tool_forward_mm: 60.0,
                tool_drop_mm: 60.0,
            },
            j1: JointRange::new(-135.0, 135.0),
            j2: JointRange::new(0.0, 85.0),
            j3: JointRange::new(-10.0, 95.0),
            j4: JointRange::new(-90.0, 90.0),
            elbow: JointRange::new(5.0, 175.0),
        }
    }
}

/// The Magician's joint angles as its firmware reports them (`GetPose`), degrees.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MagicianJoints {
    /// Base yaw, 0 facing along x.
    pub j1: f64,
    /// Rear arm from the vertical, positive leaning forward.
    pub j2: f64,
    /// Forearm from the horizontal, positive pointing down.
    pub j3: f64,
    /// Tool rotation relative to the arm.
    pub j4: f64,
}

impl Magician {
    /// The firmware pose for a tool position that leaves the tool unturned (`J4 = 0`).
    pub fn pose_for(&self, point: Point) -> crate::device::Pose {
        point.to_pose(point.y.atan2(point.x).to_degrees())
    }

    fn links(joints: &MagicianJoints) -> LinkElevations {
        LinkElevations {
            upper: (90.0 - joints.j2).to_radians(),
            fore: (-joints.j3).to_radians(),
        }
    }
}

impl Kinematics for Magician {
    type Joints = MagicianJoints;

    fn forward(&self, joints: &MagicianJoints) -> Point {
        let (reach, z) = self.dimensions.tip_in_plane(Magician::links(joints));
        let yaw = joints.j1.to_radians();
        Point::new(reach * yaw.cos(), reach * yaw.sin(), z)
    }

    fn inverse(&self, target: Point) -> Result<MagicianJoints, Unreachable> {
        if target.radius() < f64::EPSILON {
            return Err(Unreachable::OnBaseAxis);
        }
        let j1 = target.y.atan2(target.x).to_degrees();
        let links = self.dimensions.links_for(target.radius(), target.z)?;
        let joints = MagicianJoints {
            j1,
            j2: 90.0 - links.upper.to_degrees(),
            j3: -links.fore.to_degrees(),
            j4: 0.0,
        };
        self.j1.check("J1", joints.j1)?;
        self.j2.check("J2", joints.j2)?;
        self.j3.check("J3", joints.j3)?;
        self.j4.check("J4", joints.j4)?;
        self.elbow
            .check("the elbow (90 - J2 + J3)", 90.0 - joints.j2 + joints.j3)?;
        Ok(joints)
    }

    fn angles(joints: &MagicianJoints) -> [f64; 4] {
        [joints.j1, joints.j2, joints.j3, joints.j4]
    }
}
