//! How long to wait between attempts to reopen a lost link: short at first, because a
//! controller that reset is back within a second, then longer, so a cable left unplugged all
//! afternoon costs a few attempts a minute, not a busy loop.

use std::time::Duration;

/// The waits between reconnection attempts: 100 ms, doubling up to 5 s.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
}

impl Backoff {
    /// The first wait.
    pub const FIRST: Duration = Duration::from_millis(100);
    /// The longest wait.
    pub const MAX: Duration = Duration::from_secs(5);

    /// A backoff about to give its first wait.
    pub fn new() -> Backoff {
        Backoff { next: Self::FIRST }
    }

    /// The wait before the next attempt.
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (self.next * 2).min(Self::MAX);
        wait
    }
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_maximum() {
        let mut backoff = Backoff::new();
        let waits: Vec<u64> = (0..9)
            .map(|_| backoff.next_wait().as_millis() as u64)
            .collect();
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
    }
}
