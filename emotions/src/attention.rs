//! Where the robot looks, from what it is doing.

use crate::face::{Gaze, NeckPose};

/// What the game is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Activity {
    /// No game: between visitors.
    NoGame,
    /// The visitor's turn.
    VisitorTurn,
    /// The robot's search runs.
    Thinking,
}

/// The reference robot tilts its head toward the board while the arm moves and raises it while
/// it waits or speaks; the arm wins because a head turned away from a moving arm looks careless.
pub(crate) fn attention(activity: Activity, arm_moving: bool, speaking: bool) -> (Gaze, NeckPose) {
    if arm_moving {
        (Gaze::Board, NeckPose::Down)
    } else if speaking {
        (Gaze::Visitor, NeckPose::Up)
    } else {
        match activity {
            Activity::Thinking => (Gaze::Board, NeckPose::Down),
            Activity::VisitorTurn => (Gaze::Visitor, NeckPose::Up),
            Activity::NoGame => (Gaze::Centre, NeckPose::Up),
        }
    }
}
