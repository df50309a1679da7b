//! When the eyes blink.

use crate::millis::Millis;
use crate::rng::{self, Rng};
use crate::settings::FaceSettings;

/// The next blink and the end of the current one. It has its own random stream, so how often
/// the host ticks (which decides how many blinks are drawn) never changes what the robot says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Blink {
    rng: Rng,
    next_at: Millis,
    open_at: Millis,
}

impl Blink {
    pub(crate) fn new(seed: u64, settings: &FaceSettings) -> Blink {
        let mut blink = Blink {
            rng: rng::seeded(seed),
            next_at: Millis::ZERO,
            open_at: Millis::ZERO,
        };
        blink.next_at = blink.gap(0.0, settings);
        blink
    }

    /// Whether the eyes are shut at `now`. A blink that fell between two sparse ticks starts
    /// late rather than being lost.
    pub(crate) fn eyes_closed(
        &mut self,
        now: Millis,
        arousal: f32,
        settings: &FaceSettings,
    ) -> bool {
        if now >= self.next_at {
            self.open_at = now.plus(settings.blink_ms);
            self.next_at = now.plus(self.gap(arousal, settings));
        }
        now < self.open_at
    }

    /// Half to one and a half times the mean gap, shortened by arousal, never shorter than a
    /// blink.
    fn gap(&mut self, arousal: f32, settings: &FaceSettings) -> Millis {
        let scale = (0.5 + rng::unit(&mut self.rng))
            * (1.0 - settings.blink_arousal_speedup * arousal.clamp(0.0, 1.0));
        let gap = (settings.blink_every_ms.0 as f32 * scale) as u64;
        Millis(gap.max(settings.blink_ms.0 + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blinks(arousal: f32) -> usize {
        let s = FaceSettings::default();
        let mut b = Blink::new(3, &s);
        let mut count = 0;
        let mut was_closed = false;
        for t in (0..600_000).step_by(50) {
            let closed = b.eyes_closed(Millis(t), arousal, &s);
            if closed && !was_closed {
                count += 1;
            }
            was_closed = closed;
        }
        count
    }

    #[test]
    fn about_every_four_seconds_and_faster_when_excited() {
        let calm = blinks(0.0);
        assert!((130..170).contains(&calm), "{calm} blinks in 10 min");
        let excited = blinks(1.0);
        assert!(excited > calm * 3 / 2, "{excited} vs {calm}");
    }
}
