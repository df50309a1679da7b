//! What the face shows.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The seven basic emotions (Ekman and Friesen) the reference robot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Emotion {
    /// Nothing in particular: the resting face.
    Neutral,
    /// Pleased: own captures, good turns, a win, the visitor's brilliant move (friendly).
    Happy,
    /// Downcast: things go badly and the robot is friendly.
    Sad,
    /// Cross: things go badly and the robot is a rival, or a rule break is repeated.
    Angry,
    /// Startled: only on an exceptional change of the win probability, or a friendly robot
    /// seeing a rule break.
    Surprised,
    /// Scared: only when the friendly robot's own blunder leaves it losing.
    Afraid,
    /// Offended: the rival seeing a rule break.
    Disgusted,
}

impl Emotion {
    /// Every emotion, in the order the docs list them.
    pub const ALL: [Emotion; 7] = [
        Emotion::Neutral,
        Emotion::Happy,
        Emotion::Sad,
        Emotion::Angry,
        Emotion::Surprised,
        Emotion::Afraid,
        Emotion::Disgusted,
    ];

    /// The name used in the event log.
    pub fn as_str(self) -> &'static str {
        match self {
            Emotion::Neutral => "neutral",
            Emotion::Happy => "happy",
            Emotion::Sad => "sad",
            Emotion::Angry => "angry",
            Emotion::Surprised => "surprised",
            Emotion::Afraid => "afraid",
            Emotion::Disgusted => "disgusted",
        }
    }
}

impl fmt::Display for Emotion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An emotion and how strongly it shows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Expression {
    /// Which emotion.
    pub emotion: Emotion,
    /// How strongly, in `[0, 1]`. A rule that fires starts at 0.5 and reaches 1 at the rule's
    /// "full" point, so a visible emotion is never a faint flicker; neutral is 0.
    pub intensity: f32,
}

impl Expression {
    /// The resting face.
    pub const NEUTRAL: Expression = Expression {
        emotion: Emotion::Neutral,
        intensity: 0.0,
    };

    /// An expression with the intensity clamped into `[0, 1]`.
    pub fn new(emotion: Emotion, intensity: f32) -> Expression {
        let intensity = if intensity.is_nan() {
            0.0
        } else {
            intensity.clamp(0.0, 1.0)
        };
        Expression { emotion, intensity }
    }
}

impl fmt::Display for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:.2}", self.emotion, self.intensity)
    }
}
