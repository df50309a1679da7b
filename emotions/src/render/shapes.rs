//! The eye outlines for each emotion, drawn as text so that the code is the picture.
//!
//! Each shape is drawn for the left matrix (as the visitor sees the face); its inner side,
//! toward the nose, is the right. The right matrix is the mirror image unless a shape draws it
//! (disgust is lopsided). `#` is a lit LED; the most significant bit of a row is its left
//! column.

use crate::emotion::Emotion;

/// A pair of eye outlines, before the pupils are cut out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EyeShape {
    pub left: [u8; 8],
    pub right: [u8; 8],
    /// Whether pupils show: smiling eyes are arcs without them.
    pub pupils: bool,
}

/// The outline for `emotion` at mild or strong intensity.
pub(crate) fn eye_shape(emotion: Emotion, strong: bool) -> EyeShape {
    match (emotion, strong) {
        (Emotion::Neutral, _) => NEUTRAL,
        (Emotion::Happy, false) => HAPPY,
        (Emotion::Happy, true) => HAPPY_STRONG,
        (Emotion::Sad, false) => SAD,
        (Emotion::Sad, true) => SAD_STRONG,
        (Emotion::Angry, false) => ANGRY,
        (Emotion::Angry, true) => ANGRY_STRONG,
        (Emotion::Surprised, false) => SURPRISED,
        (Emotion::Surprised, true) => SURPRISED_STRONG,
        (Emotion::Afraid, false) => AFRAID,
        (Emotion::Afraid, true) => AFRAID_STRONG,
        (Emotion::Disgusted, false) => DISGUSTED,
        (Emotion::Disgusted, true) => DISGUSTED_STRONG,
    }
}

/// Both eyes shut, whatever the emotion.
pub(crate) const BLINK: EyeShape = mirrored(
    [
        "........", //
        "........", //
        "........", //
        "........", //
        ".######.", //
        "........", //
        "........", //
        "........", //
    ],
    false,
);

const NEUTRAL: EyeShape = mirrored(
    [
        "........", //
        "..####..", //
        ".######.", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
    ],
    true,
);

/// The lower lid rises in an arc.
const HAPPY: EyeShape = mirrored(
    [
        "........", //
        "..####..", //
        ".######.", //
        ".######.", //
        ".##..##.", //
        ".#....#.", //
        "........", //
        "........", //
    ],
    false,
);

/// Only the arc is left: "^ ^".
const HAPPY_STRONG: EyeShape = mirrored(
    [
        "........", //
        "...##...", //
        "..####..", //
        ".##..##.", //
        "##....##", //
        "#......#", //
        "........", //
        "........", //
    ],
    false,
);

/// The upper lid droops toward the outer corner.
const SAD: EyeShape = mirrored(
    [
        "........", //
        ".....##.", //
        "...####.", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
    ],
    true,
);

const SAD_STRONG: EyeShape = mirrored(
    [
        "........", //
        "......#.", //
        "....###.", //
        "..#####.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
    ],
    true,
);

/// The upper lid slants down toward the nose.
const ANGRY: EyeShape = mirrored(
    [
        "........", //
        ".##.....", //
        ".####...", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
    ],
    true,
);

const ANGRY_STRONG: EyeShape = mirrored(
    [
        "........", //
        ".#......", //
        ".###....", //
        ".#####..", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
    ],
    true,
);

/// Taller than at rest.
const SURPRISED: EyeShape = mirrored(
    [
        "..####..", //
        ".######.", //
        ".######.", //
        ".######.", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
    ],
    true,
);

/// The whole matrix.
const SURPRISED_STRONG: EyeShape = mirrored(
    [
        "..####..", //
        ".######.", //
        "########", //
        "########", //
        "########", //
        "########", //
        ".######.", //
        "..####..", //
    ],
    true,
);

/// Wide open, with the worried slant of sadness.
const AFRAID: EyeShape = mirrored(
    [
        ".....##.", //
        "...####.", //
        ".######.", //
        "########", //
        "########", //
        "########", //
        ".######.", //
        "..####..", //
    ],
    true,
);

const AFRAID_STRONG: EyeShape = mirrored(
    [
        "......#.", //
        "....###.", //
        "..#####.", //
        "########", //
        "########", //
        "########", //
        ".######.", //
        "..####..", //
    ],
    true,
);

/// A lopsided squint: the left eye narrows under a flat lid.
const DISGUSTED: EyeShape = EyeShape {
    left: bits([
        "........", //
        "........", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
        "........", //
    ]),
    right: bits([
        "........", //
        "..####..", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
        "........", //
    ]),
    pupils: true,
};

const DISGUSTED_STRONG: EyeShape = EyeShape {
    left: bits([
        "........", //
        "........", //
        "........", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
        "........", //
    ]),
    right: bits([
        "........", //
        "........", //
        ".######.", //
        ".######.", //
        ".######.", //
        "..####..", //
        "........", //
        "........", //
    ]),
    pupils: true,
};

const fn mirrored(left: [&str; 8], pupils: bool) -> EyeShape {
    let left = bits(left);
    let mut right = [0; 8];
    let mut row = 0;
    while row < 8 {
        right[row] = left[row].reverse_bits();
        row += 1;
    }
    EyeShape {
        left,
        right,
        pupils,
    }
}

/// Reads the text art at compile time; a malformed drawing does not build.
const fn bits(art: [&str; 8]) -> [u8; 8] {
    let mut rows = [0; 8];
    let mut row = 0;
    while row < 8 {
        let text = art[row].as_bytes();
        assert!(text.len() == 8, "an eye row has 8 columns");
        let mut col = 0;
        while col < 8 {
            match text[col] {
                b'#' => rows[row] |= 0x80 >> col,
                b'.' => {}
                _ => panic!("eye art uses only '#' and '.'"),
            }
            col += 1;
        }
        row += 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_reads_msb_first_and_mirrors() {
        assert_eq!(NEUTRAL.left[1], 0b0011_1100);
        assert_eq!(ANGRY.left[1], 0b0110_0000);
        assert_eq!(ANGRY.right[1], 0b0000_0110);
    }

    #[test]
    fn every_emotion_and_intensity_has_its_own_outline() {
        let mut seen = vec![(NEUTRAL.left, NEUTRAL.right)];
        for emotion in Emotion::ALL.into_iter().skip(1) {
            for strong in [false, true] {
                let shape = eye_shape(emotion, strong);
                let pair = (shape.left, shape.right);
                assert!(!seen.contains(&pair), "{emotion} strong={strong}");
                seen.push(pair);
            }
        }
    }
}
