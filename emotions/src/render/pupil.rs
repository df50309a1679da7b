//! Cutting the pupils into the eye outlines where the gaze points.

use crate::face::Gaze;

/// The two middle columns: a pupil is two LEDs wide.
const PUPIL_COLUMNS: u8 = 0b0001_1000;

/// Darkens the pupils inside the part of the middle columns that is open in both eyes, so the
/// two pupils always sit at the same height, even in a lopsided squint: at the top of that part
/// for the visitor, its bottom for the board, its middle for straight ahead. A pupil is two rows
/// tall, one in a slit of three rows, and left out of a narrower slit where it would erase the
/// eye.
pub(crate) fn cut_pupils(mut left: [u8; 8], mut right: [u8; 8], gaze: Gaze) -> ([u8; 8], [u8; 8]) {
    let open = |row: &usize| left[*row] & right[*row] & PUPIL_COLUMNS == PUPIL_COLUMNS;
    let (Some(top), Some(bottom)) = ((0..8).find(open), (0..8).rfind(open)) else {
        return (left, right);
    };
    let span = bottom - top + 1;
    let height = match span {
        0..=2 => return (left, right),
        3 => 1,
        _ => 2,
    };
    let start = match gaze {
        Gaze::Visitor => top,
        Gaze::Centre => top + (span - height) / 2,
        Gaze::Board => bottom + 1 - height,
    };
    for row in start..start + height {
        left[row] &= !PUPIL_COLUMNS;
        right[row] &= !PUPIL_COLUMNS;
    }
    (left, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUND: [u8; 8] = [0x00, 0x3C, 0x7E, 0x7E, 0x7E, 0x7E, 0x3C, 0x00];

    #[test]
    fn the_pupils_move_with_the_gaze() {
        let rows_with_pupil = |gaze| {
            let (left, right) = cut_pupils(ROUND, ROUND, gaze);
            assert_eq!(left, right);
            (0..8)
                .filter(|&r| left[r] != ROUND[r])
                .collect::<Vec<usize>>()
        };
        assert_eq!(rows_with_pupil(Gaze::Visitor), [1, 2]);
        assert_eq!(rows_with_pupil(Gaze::Centre), [3, 4]);
        assert_eq!(rows_with_pupil(Gaze::Board), [5, 6]);
    }

    #[test]
    fn slits_get_a_thin_pupil_or_none_and_both_eyes_agree() {
        let slit3 = [0, 0, 0x7E, 0x7E, 0x7E, 0, 0, 0];
        let (left, right) = cut_pupils(slit3, ROUND, Gaze::Centre);
        assert_eq!((left[3], right[3]), (0x66, 0x66));
        assert_eq!(right[2], ROUND[2]);
        let slit2 = [0, 0, 0, 0x7E, 0x7E, 0, 0, 0];
        assert_eq!(cut_pupils(slit2, ROUND, Gaze::Centre), (slit2, ROUND));
        assert_eq!(cut_pupils([0; 8], [0; 8], Gaze::Board), ([0; 8], [0; 8]));
    }
}
