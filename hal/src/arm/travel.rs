//! How long the arm takes between two points: what the planners minimise when they order a
//! move's errands and a reset's carries, and what a plan's estimated duration sums.
//!
//! Arms differ in what bounds their speed. The Dobot's firmware moves the tool along straight
//! lines at a Cartesian speed ([`MotionModel`](super::MotionModel)); the reference robot's
//! controller turns each joint at its own speed, one short hop after another
//! ([`JointSpaceModel`](super::JointSpaceModel)). The planners see only this trait, so the
//! daemon hands them the one that matches the arm it drives.

use super::point::Point;

/// An estimate of the arm's time, good enough to rank orders and to tell the host what to
/// expect.
pub trait TravelTime {
    /// Seconds for the tool to go along the straight segment from `from` to `to`, as the arm's
    /// driver sends it, starting and ending at rest.
    fn segment_s(&self, from: Point, to: Point) -> f64;

    /// Seconds the tool stays put while the suction grips or lets go of a piece.
    fn suction_s(&self) -> f64;

    /// Seconds from `from` to `to` the way every plan goes: straight up to the travel height
    /// `safe_z`, across at it, straight down.
    fn lift_travel_lower_s(&self, from: Point, to: Point, safe_z: f64) -> f64 {
        let (up, across) = (from.at_height(safe_z), to.at_height(safe_z));
        self.segment_s(from, up) + self.segment_s(up, across) + self.segment_s(across, to)
    }
}
