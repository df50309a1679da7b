//! What the model asks the face to do.

use serde::Serialize;

use crate::emotion::Expression;

/// Where the pupils look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Gaze {
    /// Down at the board: thinking, or watching the arm.
    Board,
    /// Up at the visitor: their turn, or the robot is talking to them.
    Visitor,
    /// Straight ahead: nobody is playing.
    Centre,
}

/// Where the neck holds the head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NeckPose {
    /// Raised: waiting or speaking.
    Up,
    /// Tilted toward the board: the arm moves or the robot thinks.
    Down,
}

/// Everything the face shows at one moment; [`Frame::render`](crate::Frame::render) turns it
/// into LED rows and servo angles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FaceState {
    /// The emotion and its intensity.
    pub expression: Expression,
    /// Where the pupils look.
    pub gaze: Gaze,
    /// Where the head is.
    pub neck: NeckPose,
    /// A blink is in progress.
    pub eyes_closed: bool,
}
