//! Jogging the reference arm one joint at a time, for the calibration wizard.
//!
//! Near the edge of the arm's reach a Cartesian jog may need every joint to swing, or be
//! refused outright, while turning one joint a little still gets the tool where the operator
//! wants it; and an operator who built the arm thinks in its joints. A joint jog turns one
//! driven joint by a step from where the tool is, refuses a step that would take a joint (or
//! the angle between the links, which the parallelogram bounds) beyond its range, and yields
//! the tool point the new angles make, which the wizard records like any other.

use hal::arm::Point;
use hal::arm::kinematics::{Kinematics as _, ReferenceArm, ReferenceJoints};

/// The steps the operator switches between with Space, degrees (as the millimetre steps of
/// a Cartesian jog: a coarse one to get near, a fine one to land within a millimetre; at the
/// board's far edge 0.1 deg of the base is half a millimetre).
pub const JOINT_STEPS_DEG: [f64; 2] = [1.0, 0.1];

/// A joint jog the arm can make: the angles it turns to and where the tool then is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointJog {
    /// The joints after the step.
    pub joints: ReferenceJoints,
    /// The tool tip there, as the arm is sent it.
    pub tool: Point,
}

/// A joint the controller drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joint {
    /// `theta0`, the base's yaw.
    Base,
    /// `theta1`, the forearm's elevation.
    Forearm,
    /// `theta2`, the upper arm's elevation.
    UpperArm,
}

impl Joint {
    /// The joint's name as the screen and the calibration file say it.
    fn name(self) -> &'static str {
        match self {
            Joint::Base => "theta0 (the base)",
            Joint::Forearm => "theta1 (the forearm)",
            Joint::UpperArm => "theta2 (the upper arm)",
        }
    }
}

/// The reference arm's joint angles with the tool at `tool`, or why it cannot be there.
pub fn joints_at(arm: &ReferenceArm, tool: Point) -> Result<ReferenceJoints, String> {
    arm.inverse(tool)
        .map_err(|why| format!("the tool at {tool} is out of the arm's reach ({why})"))
}

/// Turns `joint` by `degrees` (negative: the other way) from the tool at `tool`, or says why
/// not in the operator's words: a joint or the angle between the links beyond its range.
pub fn jog(
    arm: &ReferenceArm,
    tool: Point,
    joint: Joint,
    degrees: f64,
) -> Result<JointJog, String> {
    let now = joints_at(arm, tool)?;
    let (theta0, theta1, theta2) = match joint {
        Joint::Base => (now.theta0 + degrees, now.theta1, now.theta2),
        Joint::Forearm => (now.theta0, now.theta1 + degrees, now.theta2),
        Joint::UpperArm => (now.theta0, now.theta1, now.theta2 + degrees),
    };
    let joints = ReferenceJoints::new(theta0, theta1, theta2);
    let name = joint.name();
    let (range, angle) = match joint {
        Joint::Base => (arm.theta0, theta0),
        Joint::Forearm => (arm.theta1, theta1),
        Joint::UpperArm => (arm.theta2, theta2),
    };
    if !range.contains(angle) {
        return Err(format!(
            "not moving: {name} would turn to {angle:.1} deg, beyond its range {range}"
        ));
    }
    let elbow = joints.theta2 - joints.theta1;
    if !arm.elbow.contains(elbow) {
        return Err(format!(
            "not moving: turning {name} to {angle:.1} deg would open the links to \
             {elbow:.1} deg, beyond the parallelogram's range {}",
            arm.elbow
        ));
    }
    // The tool point goes to the arm in single precision; at the very end of a range that
    // rounding may put it a hair outside, which the driver would refuse mid-move.
    let tool = Point::from_pose(arm.forward(&joints).to_pose(0.0));
    if let Err(why) = arm.inverse(tool) {
        return Err(format!(
            "not moving: turning {name} to {angle:.1} deg leaves the tool at {tool}, at the \
             edge of the arm's reach ({why}); turn another joint first"
        ));
    }
    Ok(JointJog { joints, tool })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_beyond_a_joints_range_is_refused_naming_the_joint_and_its_range() {
        let arm = ReferenceArm::default();
        // Home: the upper arm upright at the top of its range, the forearm level.
        let home = arm.forward(&ReferenceJoints::new(0.0, 0.0, 90.0));
        let refused = jog(&arm, home, Joint::UpperArm, 1.0).unwrap_err();
        assert_eq!(
            refused,
            "not moving: theta2 (the upper arm) would turn to 91.0 deg, beyond its range \
             5..90 deg"
        );
        let down = jog(&arm, home, Joint::UpperArm, -1.0).unwrap();
        assert!((down.joints.theta2 - 89.0).abs() < 1e-9, "{down:?}");
        assert!(arm.forward(&down.joints).distance(down.tool) < 1e-3);
        // The links close until the parallelogram stops them: theta1 up to 10 deg is in its
        // own range, but 80.5 deg between the links is not when they may only open 80.
        let narrow = ReferenceArm {
            elbow: hal::arm::kinematics::JointRange::new(5.0, 80.0),
            ..arm
        };
        let near = narrow.forward(&ReferenceJoints::new(0.0, 0.0, 79.5));
        let refused = jog(&narrow, near, Joint::Forearm, -1.0).unwrap_err();
        assert!(
            refused.contains("theta1 (the forearm)") && refused.contains("parallelogram"),
            "{refused}"
        );
    }
}
