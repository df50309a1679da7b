//! Turning a [`FaceState`] into what the hardware shows: two 8x8 LED matrices, two brow servos and
//! the neck.

mod brows;
mod pupil;
mod shapes;

use std::fmt::Write as _;

use serde::Serialize;

use crate::face::{FaceState, NeckPose};
use crate::settings::FaceSettings;
use brows::brow_pose;
use pupil::cut_pupils;
use shapes::{BLINK, eye_shape};

/// One frame of the face, ready for the MAX7219 matrices and the servos.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Frame {
    /// The left matrix as the visitor sees it: row 0 at the top, the most significant bit of a
    /// row its left column.
    pub left_eye: [u8; 8],
    /// The right matrix, likewise.
    pub right_eye: [u8; 8],
    /// Left brow rotation in degrees; positive raises its inner end.
    pub left_brow_deg: f32,
    /// Right brow rotation in degrees; positive raises its inner end.
    pub right_brow_deg: f32,
    /// Neck tilt in degrees; positive up, negative toward the board.
    pub neck_deg: f32,
}

impl Frame {
    /// Renders `face`: the outline of its emotion (strong from `strong_from`), pupils cut where
    /// it looks, or closed eyes in a blink; brows scaled by intensity; the neck up or down.
    pub fn render(face: &FaceState, settings: &FaceSettings) -> Frame {
        let expression = face.expression;
        let strong = expression.intensity >= settings.strong_from;
        let shape = if face.eyes_closed {
            BLINK
        } else {
            eye_shape(expression.emotion, strong)
        };
        let (left_eye, right_eye) = if shape.pupils {
            cut_pupils(shape.left, shape.right, face.gaze)
        } else {
            (shape.left, shape.right)
        };
        let (left_brow, right_brow) = brow_pose(expression.emotion);
        let brow_scale = settings.brow_max_deg * expression.intensity;
        Frame {
            left_eye,
            right_eye,
            left_brow_deg: left_brow * brow_scale,
            right_brow_deg: right_brow * brow_scale,
            neck_deg: match face.neck {
                NeckPose::Up => settings.neck_up_deg,
                NeckPose::Down => settings.neck_down_deg,
            },
        }
    }

    /// The face as text for the terminal simulation: a brow line, then the two matrices side
    /// by side, `#` for a lit LED. A brow is `/` or `\` when its inner end is raised or lowered
    /// by more than 5 degrees, `-` otherwise.
    pub fn preview(&self) -> String {
        let brow = |deg: f32, inner_up: char, inner_down: char| {
            let glyph = if deg > 5.0 {
                inner_up
            } else if deg < -5.0 {
                inner_down
            } else {
                '-'
            };
            format!("  {}  ", glyph.to_string().repeat(4))
        };
        let mut text = format!(
            "{}  {}\n",
            brow(self.left_brow_deg, '/', '\\'),
            brow(self.right_brow_deg, '\\', '/')
        );
        let row_text = |bits: u8| -> String {
            (0..8)
                .map(|col| if bits & (0x80 >> col) != 0 { '#' } else { '.' })
                .collect()
        };
        for (left, right) in self.left_eye.iter().zip(&self.right_eye) {
            let _ = writeln!(text, "{}  {}", row_text(*left), row_text(*right));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emotion::{Emotion, Expression};
    use crate::face::Gaze;

    fn face(emotion: Emotion, intensity: f32) -> FaceState {
        FaceState {
            expression: Expression::new(emotion, intensity),
            gaze: Gaze::Board,
            neck: NeckPose::Down,
            eyes_closed: false,
        }
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "the values are exact by construction")]
    fn angry_brows_come_down_and_scale_with_intensity() {
        let s = FaceSettings::default();
        let mild = Frame::render(&face(Emotion::Angry, 0.5), &s);
        let strong = Frame::render(&face(Emotion::Angry, 1.0), &s);
        assert_eq!((mild.left_brow_deg, strong.left_brow_deg), (-15.0, -30.0));
        assert_ne!(mild.left_eye, strong.left_eye);
        assert_eq!(strong.neck_deg, -25.0);
        assert!(strong.preview().starts_with("  \\\\\\\\      ////  \n"));
    }

    #[test]
    fn a_blink_closes_both_eyes_whatever_the_emotion() {
        let s = FaceSettings::default();
        let mut closed = face(Emotion::Surprised, 1.0);
        closed.eyes_closed = true;
        let frame = Frame::render(&closed, &s);
        assert_eq!(frame.left_eye, frame.right_eye);
        assert_eq!(
            frame.left_eye.iter().map(|r| r.count_ones()).sum::<u32>(),
            6
        );
    }
}
