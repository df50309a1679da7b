//! From the emotion model's face to what the controller shows: eye bitmaps, brow and neck
//! servo poses.
//!
//! Only what changed is sent: eyes change at every blink and gaze shift, the servos only with
//! the expression, and a servo command that repeats the pose would restart its easing.

use std::time::Duration;

use emotions::{FaceSettings, Frame};
use hal::device::{BrowAngles, EyeFrame, Eyes, NeckPose, ServoAngle};

/// How long brows and neck take to reach a new pose: slow enough to look alive.
const SERVO_TRANSITION: Duration = Duration::from_millis(400);

/// The face the emotion model last asked for, and what the controller was last sent of it.
#[derive(Debug, Default)]
pub struct ShownFace {
    /// The emotion model's face, shown again after a reconnection.
    pub current: Option<emotions::FaceState>,
    /// What the controller shows; `None` after a reconnection (it shows nothing until told).
    pub sent: Option<FaceCommands>,
    /// Whether the last face command failed, so a dead face is reported once, not every blink.
    pub failing: bool,
}

/// What one face frame asks of the controller.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaceCommands {
    /// Both eye images.
    pub eyes: Eyes,
    /// Brow pose.
    pub brows: BrowAngles,
    /// Neck pose.
    pub neck: NeckPose,
    /// Time for the servos to get there.
    pub transition: Duration,
}

impl FaceCommands {
    /// Renders `face` with the operator's face settings.
    pub fn render(face: &emotions::FaceState, settings: &FaceSettings) -> FaceCommands {
        let frame = Frame::render(face, settings);
        FaceCommands {
            eyes: Eyes {
                left: EyeFrame::from_rows(frame.left_eye),
                right: EyeFrame::from_rows(frame.right_eye),
            },
            brows: BrowAngles {
                left: ServoAngle::from_degrees(frame.left_brow_deg),
                right: ServoAngle::from_degrees(frame.right_brow_deg),
            },
            neck: NeckPose {
                pan: ServoAngle::ZERO,
                tilt: ServoAngle::from_degrees(frame.neck_deg),
            },
            transition: SERVO_TRANSITION,
        }
    }
}

/// Which parts of `next` differ from what was last sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaceChanges {
    /// The eye images changed.
    pub eyes: bool,
    /// The brow pose changed.
    pub brows: bool,
    /// The neck pose changed.
    pub neck: bool,
}

impl FaceChanges {
    /// Compares with the last commands sent (everything is new when nothing was sent).
    pub fn between(last: Option<&FaceCommands>, next: &FaceCommands) -> FaceChanges {
        FaceChanges {
            eyes: last.is_none_or(|l| l.eyes != next.eyes),
            brows: last.is_none_or(|l| l.brows != next.brows),
            neck: last.is_none_or(|l| l.neck != next.neck),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emotions::{Emotion, Expression, Gaze};

    fn face(emotion: Emotion, eyes_closed: bool) -> emotions::FaceState {
        emotions::FaceState {
            expression: Expression {
                emotion,
                intensity: 0.8,
            },
            gaze: Gaze::Centre,
            neck: emotions::NeckPose::Up,
            eyes_closed,
        }
    }

    #[test]
    fn a_blink_changes_only_the_eyes() {
        let settings = FaceSettings::default();
        let open = FaceCommands::render(&face(Emotion::Happy, false), &settings);
        let closed = FaceCommands::render(&face(Emotion::Happy, true), &settings);
        let changes = FaceChanges::between(Some(&open), &closed);
        assert_eq!(
            changes,
            FaceChanges {
                eyes: true,
                brows: false,
                neck: false
            }
        );
        assert_eq!(
            FaceChanges::between(None, &open),
            FaceChanges {
                eyes: true,
                brows: true,
                neck: true
            }
        );
    }

    #[test]
    fn the_rendered_eyes_are_the_emotion_models_bitmaps() {
        let settings = FaceSettings::default();
        let happy = face(Emotion::Happy, false);
        let frame = Frame::render(&happy, &settings);
        let commands = FaceCommands::render(&happy, &settings);
        assert_eq!(commands.eyes.left.rows(), frame.left_eye);
        assert_eq!(commands.eyes.right.rows(), frame.right_eye);
        assert!((commands.neck.tilt.degrees() - settings.neck_up_deg).abs() < 0.1);
    }
}
