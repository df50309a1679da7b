//! The two links in the arm's vertical plane, solved once for both arms.
//!
//! Angles here are absolute elevations from the horizontal (radians, counter-clockwise seen
//! with the arm reaching to the right), which is what both arms' parallelograms make their
//! motors drive; each arm converts to its own convention.

use super::{ArmDimensions, Unreachable};

/// Elevations of the two links from the horizontal, radians.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LinkElevations {
    /// Upper arm, shoulder to elbow.
    pub upper: f64,
    /// Forearm, elbow to wrist.
    pub fore: f64,
}

impl ArmDimensions {
    /// Tool tip as (distance from the base axis, height) for these link elevations.
    pub(crate) fn tip_in_plane(&self, links: LinkElevations) -> (f64, f64) {
        let reach = self.upper_arm_mm * links.upper.cos()
            + self.forearm_mm * links.fore.cos()
            + self.tool_forward_mm;
        let height = self.shoulder_height_mm
            + self.upper_arm_mm * links.upper.sin()
            + self.forearm_mm * links.fore.sin()
            - self.tool_drop_mm;
        (reach, height)
    }

    /// The elbow-up solution that puts the tool tip at (`reach`, `height`) in the arm's plane.
    ///
    /// Both arms only ever work elbow-up (the elbow above the line from shoulder to wrist): the
    /// other solution would fold the forearm under the upper arm into the base.
    pub(crate) fn links_for(&self, reach: f64, height: f64) -> Result<LinkElevations, Unreachable> {
        let wrist_reach = reach - self.tool_forward_mm;
        let wrist_height = height + self.tool_drop_mm - self.shoulder_height_mm;
        let distance = wrist_reach.hypot(wrist_height);
        let (upper, fore) = (self.upper_arm_mm, self.forearm_mm);
        if distance > upper + fore {
            return Err(Unreachable::TooFar {
                distance,
                reach: upper + fore,
            });
        }
        if distance < (upper - fore).abs() || distance == 0.0 {
            return Err(Unreachable::TooClose {
                distance,
                reach: (upper - fore).abs(),
            });
        }
        let towards_wrist = wrist_height.atan2(wrist_reach);
        let cos_at_shoulder = ((upper * upper + distance * distance - fore * fore)
            / (2.0 * upper * distance))
            .clamp(-1.0, 1.0);
        let upper_elevation = towards_wrist + cos_at_shoulder.acos();
        let elbow_reach = upper * upper_elevation.cos();
        let elbow_height = upper * upper_elevation.sin();
        let fore_elevation = (wrist_height - elbow_height).atan2(wrist_reach - elbow_reach);
        Ok(LinkElevations {
            upper: upper_elevation,
            fore: fore_elevation,
        })
    }
}
