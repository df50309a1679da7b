//! What a new win probability means: how much it changed, how unexpected it was, and whose
//! doing that was.

use crate::input::Evaluation;
use crate::settings::ExpressionSettings;

/// Who a change of v is owed to, for the lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Swing {
    /// v rose by at least `swing`: the visitor gave something away.
    VisitorBlunder,
    /// v fell by at least `swing` after a reply the robot did not expect: the visitor found
    /// something the robot underrated.
    VisitorStrongMove,
    /// v fell by at least `swing` after the reply the robot expected: the robot's own
    /// previous move was the mistake.
    RobotBlunder,
    /// v rose by at least `happy_delta`.
    Better,
    /// v fell by at least `sad_delta`.
    Worse,
    /// Nothing worth a word.
    Steady,
}

/// The signals of emotion-model.md, computed from one evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Signals {
    /// The robot's win probability, clamped into `[0, 1]`.
    pub v: f32,
    /// `v - v_prev`: joy or distress. Zero on the first evaluation of a game.
    pub delta: f32,
    /// `|v - v_pred|`: what the robot's search did not foresee. Zero without a prediction.
    pub surprise: f32,
    /// `2v - 1`: hope or fear.
    pub level: f32,
    pub swing: Swing,
}

impl Signals {
    pub(crate) fn read(
        previous_v: Option<f32>,
        evaluation: &Evaluation,
        settings: &ExpressionSettings,
    ) -> Signals {
        let v = probability(evaluation.v);
        let delta = previous_v.map_or(0.0, |previous| v - probability(previous));
        let surprise = evaluation
            .v_pred
            .map_or(0.0, |predicted| (v - probability(predicted)).abs());
        let swing = if delta >= settings.swing {
            Swing::VisitorBlunder
        } else if delta <= -settings.swing {
            if evaluation.expected_reply {
                Swing::RobotBlunder
            } else {
                Swing::VisitorStrongMove
            }
        } else if delta >= settings.happy_delta {
            Swing::Better
        } else if delta <= -settings.sad_delta {
            Swing::Worse
        } else {
            Swing::Steady
        };
        Signals {
            v,
            delta,
            surprise,
            level: 2.0 * v - 1.0,
            swing,
        }
    }
}

/// A network can hand back a value a hair outside `[0, 1]`, or NaN on a broken model; neither
/// may make the face go wild, so NaN reads as an even game.
fn probability(v: f32) -> f32 {
    if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swing(previous: f32, v: f32, expected_reply: bool) -> Swing {
        let evaluation = Evaluation {
            v,
            v_pred: None,
            expected_reply,
            captures: 0,
        };
        Signals::read(Some(previous), &evaluation, &ExpressionSettings::default()).swing
    }

    #[test]
    fn swings_are_classified_by_size_and_by_whose_move_it_was() {
        assert_eq!(swing(0.5, 0.7, false), Swing::VisitorBlunder);
        assert_eq!(swing(0.5, 0.3, false), Swing::VisitorStrongMove);
        assert_eq!(swing(0.5, 0.3, true), Swing::RobotBlunder);
        assert_eq!(swing(0.5, 0.6, true), Swing::Better);
        assert_eq!(swing(0.5, 0.4, false), Swing::Worse);
        assert_eq!(swing(0.5, 0.55, false), Swing::Steady);
    }

    #[test]
    fn broken_values_read_as_an_even_game() {
        let evaluation = Evaluation {
            v: f32::NAN,
            v_pred: Some(1.7),
            expected_reply: false,
            captures: 0,
        };
        let s = Signals::read(Some(0.5), &evaluation, &ExpressionSettings::default());
        assert_eq!((s.v, s.delta, s.surprise), (0.5, 0.0, 0.5));
    }
}
