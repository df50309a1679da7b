//! How long to wait between attempts to reopen a lost link: short at first, because a
//! controller that reset is back within a second, then longer, so a cable left unplugged all
//! afternoon costs a few attempts a minute, not a busy loop.

use std::time::Duration;

use tokio::time::Instant;

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

/// The pacing of a link that is reopened again and again: a link that died young counts as a
/// failed attempt, so a device that answers the handshake and then nothing is reopened at the
/// backoff's growing waits, not in a loop; one that lasted starts the waits afresh.
#[derive(Debug, Clone)]
pub struct Reopening {
    backoff: Backoff,
    up_since: Instant,
    lasted: Duration,
}

impl Reopening {
    /// A link up since now, whose loss after `lasted` is reopened at once.
    pub fn new(lasted: Duration) -> Reopening {
        Reopening {
            backoff: Backoff::new(),
            up_since: Instant::now(),
            lasted,
        }
    }

    /// The link was lost: how long to wait before the first attempt to reopen it (none when
    /// it lasted).
    pub fn lost(&mut self) -> Option<Duration> {
        if self.up_since.elapsed() >= self.lasted {
            self.backoff = Backoff::new();
            None
        } else {
            Some(self.backoff.next_wait())
        }
    }

    /// An attempt to reopen it failed: the wait before the next.
    pub fn failed(&mut self) -> Duration {
        self.backoff.next_wait()
    }

    /// The link is up again.
    pub fn reopened(&mut self) {
        self.up_since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn links_that_die_young_are_reopened_ever_more_slowly_and_one_that_lasts_at_once() {
        let lasted = Duration::from_secs(30);
        let mut reopening = Reopening::new(lasted);
        // Up long enough: reopened at once.
        tokio::time::sleep(lasted).await;
        assert_eq!(reopening.lost(), None);
        reopening.reopened();
        // Each new link dies within a second: the waits grow as after failed attempts.
        let mut waits = Vec::new();
        for _ in 0..8 {
            tokio::time::sleep(Duration::from_secs(1)).await;
            waits.push(reopening.lost().unwrap().as_millis() as u64);
            reopening.reopened();
        }
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
        // Failed attempts in between go on from there.
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(reopening.lost(), Some(Backoff::MAX));
        assert_eq!(reopening.failed(), Backoff::MAX);
        // A link that lasts starts afresh.
        reopening.reopened();
        tokio::time::sleep(lasted).await;
        assert_eq!(reopening.lost(), None);
        assert_eq!(reopening.failed(), Backoff::FIRST);
    }

    #[test]
    fn waits_double_up_to_the_maximum() {
        let mut backoff = Backoff::new();
        let waits: Vec<u64> = (0..9)
            .map(|_| backoff.next_wait().as_millis() as u64)
            .collect();
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
    }
}
