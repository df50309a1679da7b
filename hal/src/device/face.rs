//! The robot's face: two 8x8 LED eyes, two eyebrow servos and a neck.
//!
//! Pictures (eyes, brows) are described as the visitor facing the robot sees them, because that
//! is how expressions are drawn. The neck turns in the arm's base frame (z up, y to the robot's
//! left), because it points the head at things the arm also reaches.

use std::future::Future;
use std::time::Duration;

use crate::ErrorType;

/// One 8x8 LED matrix image.
///
/// Row 0 is the top row; in each row byte, bit 7 is the leftmost LED as the visitor sees it. A
/// firmware whose matrix is mounted turned or mirrored fixes that on its side, so expressions are
/// drawn once for every head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EyeFrame {
    rows: [u8; 8],
}

impl EyeFrame {
    /// All LEDs off.
    pub const BLANK: EyeFrame = EyeFrame { rows: [0; 8] };

    /// An image from its row bytes, top row first.
    pub const fn from_rows(rows: [u8; 8]) -> EyeFrame {
        EyeFrame { rows }
    }

    /// The row bytes, top row first.
    pub const fn rows(&self) -> [u8; 8] {
        self.rows
    }

    /// Whether the LED at `row` (0 = top) and `column` (0 = left) is lit; LEDs outside the
    /// matrix are dark.
    pub const fn is_lit(&self, row: usize, column: usize) -> bool {
        row < 8 && column < 8 && self.rows[row] & (0x80 >> column) != 0
    }

    /// Switches the LED at `row` and `column` on or off; positions outside the matrix are
    /// ignored, so drawing code can clip shapes at the edge without checks.
    pub fn set(&mut self, row: usize, column: usize, lit: bool) {
        if row < 8 && column < 8 {
            if lit {
                self.rows[row] |= 0x80 >> column;
            } else {
                self.rows[row] &= !(0x80 >> column);
            }
        }
    }
}

/// What both eyes show at once; they always change together so the face never shows half an
/// expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Eyes {
    /// The eye on the visitor's left (the robot's right eye).
    pub left: EyeFrame,
    /// The eye on the visitor's right (the robot's left eye).
    pub right: EyeFrame,
}

/// A servo angle in tenths of a degree from the servo's neutral position.
///
/// Tenths are fine enough for hobby servos and fit an `i16`, which is what the controller
/// protocol carries, so an angle survives the wire unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ServoAngle(i16);

impl ServoAngle {
    /// The neutral position.
    pub const ZERO: ServoAngle = ServoAngle(0);

    /// An angle from tenths of a degree.
    pub const fn from_tenths(tenths: i16) -> ServoAngle {
        ServoAngle(tenths)
    }

    /// An angle from degrees, rounded to a tenth and saturated at about +/-3276 degrees (no
    /// servo turns that far, so saturation never changes a real pose).
    pub fn from_degrees(degrees: f32) -> ServoAngle {
        // `as` from f32 saturates and maps NaN to 0, which is what a servo command wants.
        ServoAngle((degrees * 10.0).round() as i16)
    }

    /// The angle in tenths of a degree.
    pub const fn tenths(self) -> i16 {
        self.0
    }

    /// The angle in degrees.
    pub fn degrees(self) -> f32 {
        f32::from(self.0) / 10.0
    }
}

/// The two eyebrow angles. Zero is level; a positive angle raises the brow's inner end (toward
/// the nose), as in surprise or sadness, and a negative one lowers it, as in anger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BrowAngles {
    /// The brow on the visitor's left.
    pub left: ServoAngle,
    /// The brow on the visitor's right.
    pub right: ServoAngle,
}

/// Where the head points. Zero looks straight ahead, level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NeckPose {
    /// Turn about the vertical axis; positive turns toward the robot's left (counter-clockwise
    /// seen from above, as the arm's base joint).
    pub pan: ServoAngle,
    /// Nod; positive raises the face, negative lowers it toward the board.
    pub tilt: ServoAngle,
}

/// A face made of two LED eyes, two eyebrow servos and a neck with pan and tilt.
///
/// Servo moves take a transition time so the controller can ease between poses; a jump in one
/// step looks mechanical, and the right speed depends on the expression, which the daemon knows.
pub trait Face: ErrorType {
    /// Shows new images on both eyes at once.
    fn show_eyes(&mut self, eyes: Eyes) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Moves the eyebrows to `brows`, arriving after `transition` (zero: as fast as the servos
    /// go). Returns when the controller has accepted the pose, not when the servos arrive.
    fn set_brows(
        &mut self,
        brows: BrowAngles,
        transition: Duration,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Turns the head to `neck`, arriving after `transition`; returns as
    /// [`Face::set_brows`] does.
    fn set_neck(
        &mut self,
        neck: NeckPose,
        transition: Duration,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

impl<T: Face + ?Sized> Face for &mut T {
    fn show_eyes(&mut self, eyes: Eyes) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::show_eyes(self, eyes)
    }

    fn set_brows(
        &mut self,
        brows: BrowAngles,
        transition: Duration,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::set_brows(self, brows, transition)
    }

    fn set_neck(
        &mut self,
        neck: NeckPose,
        transition: Duration,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::set_neck(self, neck, transition)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_bytes_put_the_visitors_left_in_bit_seven() {
        let mut frame = EyeFrame::BLANK;
        frame.set(0, 0, true);
        frame.set(7, 7, true);
        frame.set(8, 0, true);
        frame.set(0, 8, true);
        assert_eq!(frame.rows(), [0x80, 0, 0, 0, 0, 0, 0, 0x01]);
        assert!(frame.is_lit(7, 7));
        assert!(!frame.is_lit(7, 6));
        assert!(!frame.is_lit(9, 9));
        frame.set(0, 0, false);
        assert_eq!(frame, EyeFrame::from_rows([0, 0, 0, 0, 0, 0, 0, 0x01]));
    }

    #[test]
    fn servo_angles_round_to_tenths_and_saturate() {
        assert_eq!(ServoAngle::from_degrees(12.34).tenths(), 123);
        assert_eq!(ServoAngle::from_degrees(-0.06).tenths(), -1);
        assert_eq!(ServoAngle::from_degrees(1e9).tenths(), i16::MAX);
        assert_eq!(ServoAngle::from_degrees(f32::NAN), ServoAngle::ZERO);
        assert!((ServoAngle::from_tenths(-455).degrees() + 45.5).abs() < 1e-6);
    }
}
