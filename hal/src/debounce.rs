//! Deciding when the board has settled: a scan counts only when several reads in a row agree.
//!
//! A piece sliding across a sensor, a hand hovering over the board or a weak magnet makes single
//! reads unreliable, and recognising a move from a half-finished scan would accuse the visitor of
//! a mistake they did not make. [`Settler`] is the rule as a pure state machine (fed reads and
//! the time, so tests need no clock); [`stable_scan`] runs it against a [`BoardSensor`].
//!
//! A square that keeps changing for longer than the configured time is not a hand: it is a
//! sensor or a magnet to look at, so it is reported by name instead of waited on forever.

use std::time::Duration;

use thiserror::Error;

use crate::device::BoardSensor;
use crate::occupancy::Occupancy;

/// How reads are debounced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DebounceConfig {
    /// Reads in a row that must agree (1 accepts the first read).
    pub agreeing_reads: u32,
    /// Time between reads.
    pub interval: Duration,
    /// How long the board may keep changing before the changing squares are reported as faulty.
    pub flicker_fault_after: Duration,
}

impl Default for DebounceConfig {
    fn default() -> DebounceConfig {
        DebounceConfig {
            agreeing_reads: 3,
            interval: Duration::from_millis(40),
            flicker_fault_after: Duration::from_secs(3),
        }
    }
}

/// What the reads so far say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settle {
    /// Enough reads agree: this is the board.
    Stable(Occupancy),
    /// Not settled yet: read again after the interval.
    Unsettled,
    /// These squares (dense indices, ascending) kept changing for longer than allowed.
    Flickering(Vec<usize>),
}

/// The debouncing rule, fed one read at a time.
#[derive(Debug, Clone)]
pub struct Settler {
    config: DebounceConfig,
    last: Option<Occupancy>,
    agreeing: u32,
    /// Squares that changed since the first read.
    changed: u128,
}

impl Settler {
    /// A settler that has seen no read yet.
    pub fn new(config: DebounceConfig) -> Settler {
        Settler {
            config,
            last: None,
            agreeing: 0,
            changed: 0,
        }
    }

    /// Takes one read, made `elapsed` after the first one.
    pub fn feed(&mut self, read: Occupancy, elapsed: Duration) -> Settle {
        match self.last {
            Some(last) if last == read => self.agreeing += 1,
            Some(last) => {
                self.changed |= last.bits() ^ read.bits();
                self.agreeing = 1;
            }
            None => self.agreeing = 1,
        }
        self.last = Some(read);
        if self.agreeing >= self.config.agreeing_reads.max(1) {
            Settle::Stable(read)
        } else if elapsed >= self.config.flicker_fault_after {
            Settle::Flickering((0..128).filter(|i| self.changed >> i & 1 == 1).collect())
        } else {
            Settle::Unsettled
        }
    }
}

/// Why no stable scan came.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DebounceError<E> {
    /// The sensor failed to read.
    #[error("the board sensor failed: {0}")]
    Sensor(#[source] E),
    /// These squares (dense indices) kept changing: a faulty sensor or a stray magnet.
    #[error("squares {0:?} keep changing")]
    Flickering(Vec<usize>),
}

/// Reads `sensor` until the configured number of reads in a row agree, and returns that scan.
pub async fn stable_scan<S: BoardSensor + ?Sized>(
    sensor: &mut S,
    config: DebounceConfig,
) -> Result<Occupancy, DebounceError<S::Error>> {
    let start = tokio::time::Instant::now();
    let mut settler = Settler::new(config);
    loop {
        let read = sensor.scan().await.map_err(DebounceError::Sensor)?;
        match settler.feed(read, start.elapsed()) {
            Settle::Stable(scan) => return Ok(scan),
            Settle::Flickering(squares) => return Err(DebounceError::Flickering(squares)),
            Settle::Unsettled => tokio::time::sleep(config.interval).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::occupancy::BoardSize;

    fn board(squares: &[usize]) -> Occupancy {
        Occupancy::from_squares(BoardSize::Squares32, squares.iter().copied()).unwrap()
    }

    fn config(reads: u32) -> DebounceConfig {
        DebounceConfig {
            agreeing_reads: reads,
            interval: Duration::from_millis(40),
            flicker_fault_after: Duration::from_secs(1),
        }
    }

    /// Feeds reads 40 ms apart and returns the verdict after each.
    fn check(reads: u32, scans: &[&[usize]]) -> Vec<Settle> {
        let mut settler = Settler::new(config(reads));
        scans
            .iter()
            .enumerate()
            .map(|(i, squares)| settler.feed(board(squares), Duration::from_millis(40 * i as u64)))
            .collect()
    }

    #[test]
    fn a_scan_counts_after_the_configured_number_of_agreeing_reads() {
        let verdicts = check(3, &[&[1, 2], &[1, 2], &[1, 2]]);
        assert_eq!(
            verdicts,
            [
                Settle::Unsettled,
                Settle::Unsettled,
                Settle::Stable(board(&[1, 2]))
            ]
        );
        assert_eq!(check(1, &[&[5]]), [Settle::Stable(board(&[5]))]);
        // Zero is treated as one: a read always agrees with itself.
        assert_eq!(check(0, &[&[5]]), [Settle::Stable(board(&[5]))]);
    }

    #[test]
    fn a_change_restarts_the_count() {
        let verdicts = check(3, &[&[1], &[1], &[2], &[2], &[2]]);
        assert_eq!(verdicts[2], Settle::Unsettled);
        assert_eq!(verdicts[3], Settle::Unsettled);
        assert_eq!(verdicts[4], Settle::Stable(board(&[2])));
    }

    #[test]
    fn a_square_that_keeps_changing_is_named_after_the_fault_time() {
        let scans: Vec<&[usize]> = (0..30)
            .map(|i| if i % 2 == 0 { &[3, 9][..] } else { &[3][..] })
            .collect();
        let verdicts = check(3, &scans);
        let first_fault = verdicts
            .iter()
            .position(|v| matches!(v, Settle::Flickering(_)))
            .expect("a fault is reported");
        // 1000 ms at 40 ms per read: the 26th read.
        assert_eq!(first_fault, 25);
        assert_eq!(verdicts[first_fault], Settle::Flickering(vec![9]));
    }

    struct Scripted {
        reads: Vec<Occupancy>,
        next: usize,
    }

    impl crate::ErrorType for Scripted {
        type Error = crate::ErrorKind;
    }

    impl BoardSensor for Scripted {
        async fn scan(&mut self) -> Result<Occupancy, crate::ErrorKind> {
            let read = self.reads.get(self.next).copied();
            self.next += 1;
            read.ok_or(crate::ErrorKind::Timeout)
        }

        async fn next_press(&mut self) -> Result<crate::device::ButtonPress, crate::ErrorKind> {
            Err(crate::ErrorKind::Other)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn stable_scan_reads_until_the_board_settles_and_passes_sensor_errors_on() {
        let mut sensor = Scripted {
            reads: vec![board(&[1]), board(&[1, 4]), board(&[1, 4]), board(&[1, 4])],
            next: 0,
        };
        let scan = stable_scan(&mut sensor, config(3)).await;
        assert_eq!(scan, Ok(board(&[1, 4])));
        assert_eq!(sensor.next, 4);
        let failed = stable_scan(&mut sensor, config(3)).await;
        assert_eq!(
            failed,
            Err(DebounceError::Sensor(crate::ErrorKind::Timeout))
        );
    }
}
