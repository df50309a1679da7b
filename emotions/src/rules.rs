//! The discrete expression rules of emotion-model.md, first match wins. The crate docs show
//! them as a table; this file is that table in code.

use crate::attitude::Attitude;
use crate::emotion::{Emotion, Expression};
use crate::input::RobotResult;
use crate::settings::ExpressionSettings;
use crate::signals::{Signals, Swing};
use crate::strength::{pieces, strength};

/// Which rule produced an expression. The order is the priority: within the hold time only a
/// higher rule (or a clearly stronger expression) may replace what the face shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rule {
    /// 1. A game starts or ends.
    GameEvent,
    /// 2. The visitor broke a rule.
    Mistake,
    /// 3. Surprise at an unforeseen value.
    Surprise,
    /// 4. A large drop that leaves the robot losing.
    Fear,
    /// 5. Things got better, or the mood is good.
    Joy,
    /// 6. Things got worse, or the mood is bad.
    Distress,
    /// 7. Nothing to show.
    Calm,
}

/// An expression a rule asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Candidate {
    pub expression: Expression,
    pub rule: Rule,
}

impl Candidate {
    fn new(emotion: Emotion, intensity: f32, rule: Rule) -> Candidate {
        Candidate {
            expression: Expression::new(emotion, intensity),
            rule,
        }
    }

    pub(crate) const CALM: Candidate = Candidate {
        expression: Expression::NEUTRAL,
        rule: Rule::Calm,
    };
}

/// What the friendly robot is sad about, the rival is angry about.
pub(crate) fn distress(attitude: Attitude) -> Emotion {
    match attitude {
        Attitude::Friendly => Emotion::Sad,
        Attitude::Rival => Emotion::Angry,
    }
}

/// Rule 1 at the start of a game: both attitudes look forward to it.
pub(crate) fn game_started(settings: &ExpressionSettings) -> Candidate {
    Candidate::new(
        Emotion::Happy,
        settings.game_start_intensity,
        Rule::GameEvent,
    )
}

/// Rule 1 at the end: win happy; loss sad (friendly) or angry (rival); draw neutral.
pub(crate) fn game_over(
    outcome: RobotResult,
    attitude: Attitude,
    settings: &ExpressionSettings,
) -> Candidate {
    let intensity = settings.game_end_intensity;
    match outcome {
        RobotResult::Win => Candidate::new(Emotion::Happy, intensity, Rule::GameEvent),
        RobotResult::Loss => Candidate::new(distress(attitude), intensity, Rule::GameEvent),
        RobotResult::Draw => Candidate {
            expression: Expression::NEUTRAL,
            rule: Rule::GameEvent,
        },
    }
}

/// Rule 2: a rule break surprises the friend; it disgusts the rival, and angers it when
/// repeated.
pub(crate) fn mistake(
    attitude: Attitude,
    repeated: bool,
    settings: &ExpressionSettings,
) -> Candidate {
    let intensity = if repeated {
        1.0
    } else {
        settings.mistake_intensity
    };
    let emotion = match (attitude, repeated) {
        (Attitude::Friendly, _) => Emotion::Surprised,
        (Attitude::Rival, false) => Emotion::Disgusted,
        (Attitude::Rival, true) => Emotion::Angry,
    };
    Candidate::new(emotion, intensity, Rule::Mistake)
}

/// The reaction to a robot move: surprise first if the value was unforeseen, then what the
/// change of v means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MoveReaction {
    pub surprise: Option<Candidate>,
    pub then: Option<Candidate>,
}

/// Rules 3 to 6 for an evaluation (the parts driven by v; the pleasure parts are in [`mood`]).
pub(crate) fn robot_move(
    signals: &Signals,
    captures: u8,
    attitude: Attitude,
    settings: &ExpressionSettings,
) -> MoveReaction {
    let s = settings;
    let surprise = (signals.surprise >= s.surprise).then(|| {
        Candidate::new(
            Emotion::Surprised,
            strength(signals.surprise, s.surprise, s.surprise_full),
            Rule::Surprise,
        )
    });

    let drop = -signals.delta;
    let praise = attitude == Attitude::Friendly && signals.swing == Swing::VisitorStrongMove;
    let joy = [
        praise.then(|| strength(drop, s.swing, s.delta_full)),
        (signals.delta >= s.happy_delta)
            .then(|| strength(signals.delta, s.happy_delta, s.delta_full)),
        (captures > 0).then(|| pieces(captures, s.capture_full)),
    ]
    .into_iter()
    .flatten()
    .reduce(f32::max);

    let then = if drop >= s.fear_drop && signals.v < s.fear_below && !praise {
        let emotion = match attitude {
            Attitude::Friendly => Emotion::Afraid,
            Attitude::Rival => Emotion::Angry,
        };
        Some(Candidate::new(
            emotion,
            strength(drop, s.fear_drop, s.delta_full),
            Rule::Fear,
        ))
    } else if let Some(intensity) = joy {
        Some(Candidate::new(Emotion::Happy, intensity, Rule::Joy))
    } else if drop >= s.sad_delta {
        Some(Candidate::new(
            distress(attitude),
            strength(drop, s.sad_delta, s.delta_full),
            Rule::Distress,
        ))
    } else {
        None
    };
    MoveReaction { surprise, then }
}

/// Rules 5 to 7 on pleasure alone: the face when no reaction is showing. A mood stays until
/// pleasure is `mood_hysteresis` past its threshold, so pleasure hovering at a threshold does
/// not make the face flicker.
pub(crate) fn mood(
    pleasure: f32,
    attitude: Attitude,
    shown: Emotion,
    settings: &ExpressionSettings,
) -> Candidate {
    let s = settings;
    let sad_face = distress(attitude);
    let slack = |emotion: Emotion| {
        if shown == emotion {
            s.mood_hysteresis
        } else {
            0.0
        }
    };
    if pleasure >= s.happy_pleasure - slack(Emotion::Happy) {
        Candidate::new(
            Emotion::Happy,
            strength(pleasure, s.happy_pleasure, s.pleasure_full),
            Rule::Joy,
        )
    } else if -pleasure >= s.sad_pleasure - slack(sad_face) {
        Candidate::new(
            sad_face,
            strength(-pleasure, s.sad_pleasure, s.pleasure_full),
            Rule::Distress,
        )
    } else {
        Candidate::CALM
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Evaluation;

    fn react(previous: f32, v: f32, v_pred: f32, expected: bool, attitude: Attitude) -> String {
        let s = ExpressionSettings::default();
        let evaluation = Evaluation {
            v,
            v_pred: Some(v_pred),
            expected_reply: expected,
            captures: 0,
        };
        let signals = Signals::read(Some(previous), &evaluation, &s);
        let r = robot_move(&signals, 0, attitude, &s);
        let name = |c: Option<Candidate>| c.map_or("-".to_string(), |c| c.expression.to_string());
        format!("{} / {}", name(r.surprise), name(r.then))
    }

    #[test]
    fn move_rules_first_match() {
        use Attitude::{Friendly, Rival};
        // Predicted drop into a lost position: fear (friendly) or anger (rival), no surprise.
        assert_eq!(react(0.5, 0.3, 0.3, true, Friendly), "- / afraid 0.60");
        assert_eq!(react(0.5, 0.3, 0.3, true, Rival), "- / angry 0.60");
        // The friend praises a strong visitor move instead of fearing it.
        assert_eq!(react(0.5, 0.3, 0.3, false, Friendly), "- / happy 0.60");
        // Unforeseen: surprise first, full at 0.5.
        assert_eq!(
            react(0.5, 0.1, 0.6, false, Rival),
            "surprised 1.00 / angry 1.00"
        );
        // Small moves: happy or sad/angry; tiny ones nothing.
        assert_eq!(react(0.5, 0.6, 0.6, true, Friendly), "- / happy 0.53");
        assert_eq!(react(0.5, 0.4, 0.4, true, Friendly), "- / sad 0.53");
        assert_eq!(react(0.5, 0.53, 0.5, true, Rival), "- / -");
    }

    #[test]
    fn the_mood_keeps_its_face_inside_the_hysteresis_band() {
        let s = ExpressionSettings::default();
        let at = |p, shown| mood(p, Attitude::Friendly, shown, &s).expression.emotion;
        assert_eq!(at(0.25, Emotion::Neutral), Emotion::Neutral);
        assert_eq!(at(0.25, Emotion::Happy), Emotion::Happy);
        assert_eq!(at(0.15, Emotion::Happy), Emotion::Neutral);
        assert_eq!(at(-0.25, Emotion::Sad), Emotion::Sad);
        assert_eq!(
            mood(-0.3, Attitude::Rival, Emotion::Neutral, &s)
                .expression
                .emotion,
            Emotion::Angry
        );
    }
}
