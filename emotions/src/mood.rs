//! The continuous state under the face: pleasure, confidence and arousal.

use serde::Serialize;

use crate::attitude::Attitude;
use crate::millis::Millis;
use crate::settings::{ByAttitude, Impulses, MoodSettings};

/// The robot's continuous emotional state (the Cozmo way: a few dimensions whose negatives are
/// the opposite feeling), shown on the operator page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Mood {
    /// Joy (positive) or distress (negative), in `[-1, 1]`: moved by changes of v and by
    /// events. Rests at `pleasure_from_confidence x confidence`.
    pub pleasure: f32,
    /// Hope (positive) or fear (negative), in `[-1, 1]`: pulled toward `2v - 1`.
    pub confidence: f32,
    /// Excitement, in `[0, 1]`: raised by surprise and events, makes the robot blink more.
    pub arousal: f32,
}

/// A kind of event with its own impulse and its own repetition penalty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stimulus {
    GameStart,
    Capture,
    LostPiece,
    Mistake,
    Win,
    Loss,
    Draw,
}

impl Stimulus {
    const COUNT: usize = 7;

    fn impulse(self, impulses: &Impulses) -> ByAttitude {
        match self {
            Stimulus::GameStart => impulses.game_start,
            Stimulus::Capture => impulses.capture,
            Stimulus::LostPiece => impulses.lost_piece,
            Stimulus::Mistake => impulses.mistake,
            Stimulus::Win => impulses.win,
            Stimulus::Loss => impulses.loss,
            Stimulus::Draw => impulses.draw,
        }
    }
}

/// The mood with the memory it needs to decay and to damp repeated events.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Feelings {
    mood: Mood,
    updated_at: Millis,
    last_felt: [Option<Millis>; Stimulus::COUNT],
}

impl Feelings {
    pub(crate) fn new() -> Feelings {
        Feelings {
            mood: Mood::default(),
            updated_at: Millis::ZERO,
            last_felt: [None; Stimulus::COUNT],
        }
    }

    pub(crate) fn mood(&self) -> Mood {
        self.mood
    }

    /// Lets time pass: each dimension falls exponentially toward its resting value.
    pub(crate) fn advance(&mut self, now: Millis, settings: &MoodSettings) {
        let elapsed = now.since(self.updated_at);
        self.updated_at = self.updated_at.max(now);
        let m = &mut self.mood;
        m.confidence = decay(m.confidence, 0.0, elapsed, settings.confidence_half_life_ms);
        m.pleasure = decay(
            m.pleasure,
            settings.pleasure_from_confidence * m.confidence,
            elapsed,
            settings.pleasure_half_life_ms,
        );
        m.arousal = decay(m.arousal, 0.0, elapsed, settings.arousal_half_life_ms);
    }

    /// Applies `count` times the impulse of `stimulus`, damped if the same kind of event came
    /// recently, so that a burst of events does not pin the face at an extreme.
    pub(crate) fn feel(
        &mut self,
        stimulus: Stimulus,
        count: f32,
        attitude: Attitude,
        impulses: &Impulses,
        settings: &MoodSettings,
        now: Millis,
    ) {
        let slot = &mut self.last_felt[stimulus as usize];
        let factor = repetition_factor(*slot, now, settings);
        *slot = Some(now);
        let impulse = stimulus.impulse(impulses).get(attitude);
        self.nudge(
            impulse.pleasure * count * factor,
            impulse.arousal * count * factor,
        );
    }

    /// Takes in a new evaluation of the game.
    pub(crate) fn appraise(
        &mut self,
        pleasure_change: f32,
        level: f32,
        surprise: f32,
        settings: &MoodSettings,
    ) {
        let m = &mut self.mood;
        m.confidence += settings.confidence_pull * (level - m.confidence);
        m.confidence = m.confidence.clamp(-1.0, 1.0);
        self.nudge(pleasure_change, settings.arousal_per_surprise * surprise);
    }

    /// Forgets the previous game's confidence: a new game starts even.
    pub(crate) fn reset_confidence(&mut self) {
        self.mood.confidence = 0.0;
    }

    fn nudge(&mut self, pleasure: f32, arousal: f32) {
        let m = &mut self.mood;
        m.pleasure = (m.pleasure + pleasure).clamp(-1.0, 1.0);
        m.arousal = (m.arousal + arousal).clamp(0.0, 1.0);
    }
}

fn decay(value: f32, rest: f32, elapsed: Millis, half_life: Millis) -> f32 {
    if half_life == Millis::ZERO {
        return rest;
    }
    rest + (value - rest) * 0.5_f32.powf(elapsed.as_secs_f32() / half_life.as_secs_f32())
}

/// x`repeat_factor` within `repeat_within_ms` of the previous event of the same kind, back to
/// x1 linearly by `repeat_recovered_ms`.
fn repetition_factor(previous: Option<Millis>, now: Millis, settings: &MoodSettings) -> f32 {
    let Some(previous) = previous else {
        return 1.0;
    };
    let since = now.since(previous);
    let (within, recovered) = (settings.repeat_within_ms, settings.repeat_recovered_ms);
    if since <= within {
        settings.repeat_factor
    } else if since >= recovered {
        1.0
    } else {
        let progress = (since.0 - within.0) as f32 / (recovered.0 - within.0) as f32;
        settings.repeat_factor + (1.0 - settings.repeat_factor) * progress
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn each_dimension_halves_in_its_half_life() {
        let s = Settings::default();
        let mut f = Feelings::new();
        f.mood = Mood {
            pleasure: 0.8,
            confidence: 0.0,
            arousal: 0.8,
        };
        f.advance(Millis(8_000), &s.mood);
        assert!(close(f.mood.arousal, 0.4), "{:?}", f.mood);
        f.advance(Millis(20_000), &s.mood);
        assert!(close(f.mood.pleasure, 0.4), "{:?}", f.mood);

        let mut f = Feelings::new();
        f.mood.confidence = 0.6;
        f.advance(Millis(60_000), &s.mood);
        assert!(close(f.mood.confidence, 0.3), "{:?}", f.mood);
    }

    #[test]
    fn pleasure_rests_where_confidence_puts_it() {
        let s = Settings::default();
        let mut f = Feelings::new();
        f.appraise(0.0, 1.0, 0.0, &s.mood);
        f.appraise(0.0, 1.0, 0.0, &s.mood);
        assert!(close(f.mood.confidence, 0.75));
        f.advance(Millis(100_000), &s.mood);
        let c = f.mood.confidence;
        assert!((f.mood.pleasure - 0.35 * c).abs() < 0.05, "{:?}", f.mood);
    }

    #[test]
    fn a_repeated_event_counts_half_then_recovers() {
        let s = Settings::default();
        let pleasure_after = |gap: u64| {
            let mut f = Feelings::new();
            let feel = |f: &mut Feelings, t| {
                f.feel(
                    Stimulus::Capture,
                    1.0,
                    Attitude::Friendly,
                    &s.impulses,
                    &s.mood,
                    Millis(t),
                );
            };
            feel(&mut f, 0);
            let first = f.mood.pleasure;
            f.mood.pleasure = 0.0;
            feel(&mut f, gap);
            f.mood.pleasure / first
        };
        assert!(close(pleasure_after(3_000), 0.5));
        assert!(close(pleasure_after(12_500), 0.75));
        assert!(close(pleasure_after(25_000), 1.0));
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "the values are exact by construction")]
    fn the_clock_going_backwards_changes_nothing() {
        let s = Settings::default();
        let mut f = Feelings::new();
        f.advance(Millis(10_000), &s.mood);
        f.mood.arousal = 0.5;
        f.advance(Millis(5_000), &s.mood);
        assert_eq!(f.mood.arousal, 0.5);
    }
}
