//! Time as the host measures it.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A point in time (milliseconds since the host started) or a span of time.
///
/// The model never reads a clock: the host passes the time with every input, so a test can
/// replay a game with a fake clock and get the same faces and lines every time. In settings it
/// is a plain integer (`hold_ms = 1500`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(pub u64);

impl Millis {
    /// The start of time, and the empty span.
    pub const ZERO: Millis = Millis(0);

    /// Time from `earlier` to `self`. A clock that went backwards reads as no time at all, so a
    /// host glitch freezes the face for a moment instead of making every timer fire.
    #[must_use]
    pub fn since(self, earlier: Millis) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
    }

    /// The point `span` after `self`.
    #[must_use]
    pub fn plus(self, span: Millis) -> Millis {
        Millis(self.0.saturating_add(span.0))
    }

    /// The span in seconds, for decay curves.
    pub fn as_secs_f32(self) -> f32 {
        self.0 as f32 / 1000.0
    }
}

impl From<Duration> for Millis {
    fn from(span: Duration) -> Self {
        Millis(u64::try_from(span.as_millis()).unwrap_or(u64::MAX))
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_going_backwards_reads_as_no_time() {
        assert_eq!(Millis(5).since(Millis(9)), Millis::ZERO);
        assert_eq!(Millis(9).since(Millis(5)), Millis(4));
        assert_eq!(Millis(u64::MAX).plus(Millis(1)), Millis(u64::MAX));
        assert_eq!(Millis::from(Duration::from_secs(2)), Millis(2000));
    }
}
