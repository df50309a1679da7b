//! Eyebrow servo angles.

use crate::emotion::Emotion;

/// Each brow's rotation at full intensity, as a fraction of `brow_max_deg`, for the left and
/// right brow as the visitor sees them. Positive raises the inner end (worry, sadness, fear),
/// negative lowers it (anger). Both brows use the same sign, so the `hal` mirrors one servo to
/// match how it is mounted.
pub(crate) fn brow_pose(emotion: Emotion) -> (f32, f32) {
    match emotion {
        Emotion::Neutral => (0.0, 0.0),
        Emotion::Happy => (0.15, 0.15),
        Emotion::Sad => (0.7, 0.7),
        Emotion::Angry => (-1.0, -1.0),
        Emotion::Surprised => (0.5, 0.5),
        Emotion::Afraid => (1.0, 1.0),
        // Lopsided like the eyes: the brow over the narrowed left eye comes down.
        Emotion::Disgusted => (-0.6, 0.3),
    }
}
