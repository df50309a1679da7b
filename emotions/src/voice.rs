//! Whether to speak: chance, per-category cooldowns and a global gap.

use serde::Serialize;

use crate::attitude::Attitude;
use crate::category::Category;
use crate::input::Mistake;
use crate::millis::Millis;
use crate::rng::{self, Rng};
use crate::settings::VoiceSettings;

/// A request to say a line. The `sounds` crate picks the phrasing (attitude, language, not one
/// of the last few lines) and plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineRequest {
    /// What kind of line.
    pub category: Category,
    /// Friendly or rival phrasing.
    pub attitude: Attitude,
    /// What was wrong, for `illegal_move`, `must_capture` and `fix_board` lines about the
    /// visitor's move.
    pub mistake: Option<Mistake>,
}

/// The memory the decision needs: when each category last spoke, and the dice.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Voice {
    rng: Rng,
    last_line: Option<Millis>,
    last_by_category: [Option<Millis>; Category::ALL.len()],
}

impl Voice {
    pub(crate) fn new(seed: u64) -> Voice {
        Voice {
            rng: rng::seeded(seed),
            last_line: None,
            last_by_category: [None; Category::ALL.len()],
        }
    }

    /// Decides whether a line of `category` starts now. Lines that always speak skip the
    /// chance, the cooldown and the gap, but still count as the last line. The dice are rolled
    /// only when the gap and the cooldown allow, so quiet periods do not use up randomness.
    pub(crate) fn speaks(
        &mut self,
        category: Category,
        intensity: f32,
        now: Millis,
        settings: &VoiceSettings,
    ) -> bool {
        if !category.always_speaks() {
            let too_soon = |last: Option<Millis>, wait: Millis| {
                last.is_some_and(|last| now.since(last) < wait)
            };
            if too_soon(self.last_line, settings.min_gap_ms)
                || too_soon(
                    self.last_by_category[category.index()],
                    settings.cooldown_ms.get(category),
                )
            {
                return false;
            }
            let chance = (settings.speak_base * intensity).clamp(0.0, 1.0);
            if rng::unit(&mut self.rng) >= chance {
                return false;
            }
        }
        self.last_line = Some(now);
        self.last_by_category[category.index()] = Some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certain() -> VoiceSettings {
        VoiceSettings {
            speak_base: 1.0,
            ..VoiceSettings::default()
        }
    }

    #[test]
    fn gap_and_cooldown_hold_back_optional_lines_only() {
        let s = certain();
        let mut v = Voice::new(1);
        assert!(v.speaks(Category::Capture, 1.0, Millis(0), &s));
        // Within the 4 s gap.
        assert!(!v.speaks(Category::Thinking, 1.0, Millis(3_999), &s));
        // Required lines ignore the gap.
        assert!(v.speaks(Category::IllegalMove, 1.0, Millis(4_000), &s));
        assert!(v.speaks(Category::IllegalMove, 1.0, Millis(4_001), &s));
        // ...and restart it.
        assert!(!v.speaks(Category::Thinking, 1.0, Millis(6_000), &s));
        assert!(v.speaks(Category::Thinking, 1.0, Millis(8_001), &s));
        // Capture's own 15 s cooldown.
        assert!(!v.speaks(Category::Capture, 1.0, Millis(14_999), &s));
        assert!(v.speaks(Category::Capture, 1.0, Millis(15_000), &s));
    }

    #[test]
    fn chance_is_speak_base_times_intensity() {
        let s = VoiceSettings {
            speak_base: 0.8,
            min_gap_ms: Millis::ZERO,
            ..VoiceSettings::default()
        };
        let mut v = Voice::new(7);
        let mut said = 0;
        for i in 0..10_000_u64 {
            // Each try 20 s after the last, past every cooldown.
            if v.speaks(Category::Capture, 0.5, Millis(i * 20_000), &s) {
                said += 1;
            }
        }
        assert!((3_700..4_300).contains(&said), "{said}");
    }
}
