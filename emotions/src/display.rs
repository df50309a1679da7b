//! What the face shows, held long enough not to flicker.

use crate::millis::Millis;
use crate::rules::Candidate;
use crate::settings::ExpressionSettings;

/// The expression on the face and since when.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Display {
    shown: Candidate,
    since: Millis,
}

impl Display {
    pub(crate) fn new() -> Display {
        Display {
            shown: Candidate::CALM,
            since: Millis::ZERO,
        }
    }

    pub(crate) fn shown(&self) -> Candidate {
        self.shown
    }

    /// Shows `wanted` once the shown emotion has been up for `hold_ms`. Within the hold only a
    /// `fresh` reaction (one the current input just caused) may replace it, and only if it comes
    /// from a higher rule or is clearly stronger (by `switch_margin`): a mood drifting across a
    /// threshold or a reaction running out always waits, so the face cannot bounce between two
    /// emotions. The same emotion only updates its intensity and keeps its start time, so a
    /// fading joy is not "new".
    pub(crate) fn offer(
        &mut self,
        wanted: Candidate,
        fresh: bool,
        now: Millis,
        settings: &ExpressionSettings,
    ) {
        if wanted.expression.emotion == self.shown.expression.emotion {
            self.shown = wanted;
            return;
        }
        let held = now.since(self.since) < settings.hold_ms;
        let higher_rule = wanted.rule < self.shown.rule;
        let clearly_stronger =
            wanted.expression.intensity >= self.shown.expression.intensity + settings.switch_margin;
        if !held || (fresh && (higher_rule || clearly_stronger)) {
            self.shown = wanted;
            self.since = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emotion::{Emotion, Expression};
    use crate::rules::Rule;

    fn candidate(emotion: Emotion, intensity: f32, rule: Rule) -> Candidate {
        Candidate {
            expression: Expression::new(emotion, intensity),
            rule,
        }
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "the values are exact by construction")]
    fn within_the_hold_only_a_new_higher_or_clearly_stronger_reaction_switches() {
        let s = ExpressionSettings::default();
        let mut d = Display::new();
        let offer = |d: &mut Display, emotion, intensity, rule, fresh, t| {
            d.offer(candidate(emotion, intensity, rule), fresh, Millis(t), &s);
            d.shown().expression
        };
        assert_eq!(
            offer(&mut d, Emotion::Sad, 0.6, Rule::Distress, true, 0).emotion,
            Emotion::Sad
        );
        // Same rank and not much stronger: held.
        let shown = offer(&mut d, Emotion::Angry, 0.7, Rule::Distress, true, 500);
        assert_eq!(shown.emotion, Emotion::Sad);
        // A mood of a higher rule, or back to neutral: held too.
        assert_eq!(
            offer(&mut d, Emotion::Happy, 0.9, Rule::Joy, false, 600).emotion,
            Emotion::Sad
        );
        d.offer(Candidate::CALM, false, Millis(1_000), &s);
        assert_eq!(d.shown().expression.emotion, Emotion::Sad);
        // A clearly stronger reaction switches.
        let shown = offer(&mut d, Emotion::Angry, 0.9, Rule::Distress, true, 1_100);
        assert_eq!(shown.emotion, Emotion::Angry);
        // A reaction of a higher rule switches at once.
        let shown = offer(&mut d, Emotion::Surprised, 0.5, Rule::Surprise, true, 1_200);
        assert_eq!(shown.emotion, Emotion::Surprised);
        // Its intensity follows without restarting the hold...
        let shown = offer(
            &mut d,
            Emotion::Surprised,
            0.6,
            Rule::Surprise,
            false,
            2_000,
        );
        assert_eq!(shown.intensity, 0.6);
        d.offer(Candidate::CALM, false, Millis(2_600), &s);
        assert_eq!(d.shown().expression.emotion, Emotion::Surprised);
        // ...which ends 1.5 s after it began.
        d.offer(Candidate::CALM, false, Millis(2_700), &s);
        assert_eq!(d.shown().expression.emotion, Emotion::Neutral);
    }
}
