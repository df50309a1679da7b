//! A byte stream that loses and damages what it reads, and can hang up like a pulled cable,
//! for fault-injection tests.
//!
//! Faults are applied on the read side only: wrapping each end of a pipe damages both
//! directions, and each end's generator is its own, so a run replays exactly from its seeds
//! however the tasks interleave.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, ready};

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// How often bytes go wrong, each byte independently.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ByteFaults {
    /// Seeds the generator, so the same seed damages the same bytes.
    pub seed: u64,
    /// Probability that a byte is lost.
    pub drop: f64,
    /// Probability that a byte that was not lost has some bits flipped.
    pub corrupt: f64,
}

/// How many bytes a [`FaultyIo`] has damaged so far; shared, so a test can read it while the
/// stream belongs to a driver.
#[derive(Debug, Clone, Default)]
pub struct FaultCount {
    dropped: Arc<AtomicU64>,
    corrupted: Arc<AtomicU64>,
}

impl FaultCount {
    /// Bytes lost.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Bytes changed.
    pub fn corrupted(&self) -> u64 {
        self.corrupted.load(Ordering::Relaxed)
    }
}

/// Wraps a byte stream and damages the bytes read from it; writes pass unchanged.
#[derive(Debug)]
pub struct FaultyIo<T> {
    inner: T,
    faults: ByteFaults,
    rng: SplitMix64,
    count: FaultCount,
    /// Bytes still to read before the line goes dead; `None`: never.
    left_before_hang_up: Option<u64>,
}

impl<T> FaultyIo<T> {
    /// Wraps `inner`.
    pub fn new(inner: T, faults: ByteFaults) -> FaultyIo<T> {
        FaultyIo {
            inner,
            faults,
            rng: SplitMix64::from_seed(faults.seed.to_le_bytes()),
            count: FaultCount::default(),
            left_before_hang_up: None,
        }
    }

    /// Makes the stream go dead after `bytes` bytes were read, as a serial port does when its
    /// USB cable is pulled: reads then see the end of the stream and writes fail with
    /// [`io::ErrorKind::BrokenPipe`].
    #[must_use]
    pub fn hang_up_after(mut self, bytes: u64) -> FaultyIo<T> {
        self.left_before_hang_up = Some(bytes);
        self
    }

    fn hung_up(&self) -> bool {
        self.left_before_hang_up == Some(0)
    }

    /// The counters of damaged bytes.
    pub fn count(&self) -> FaultCount {
        self.count.clone()
    }

    fn chance(&mut self, probability: f64) -> bool {
        let unit = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        unit < probability
    }

    /// A non-zero mask, so a corrupted byte always differs from the original.
    fn flip_mask(&mut self) -> u8 {
        (self.rng.next_u64() % 255) as u8 + 1
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for FaultyIo<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.hung_up() {
                return Poll::Ready(Ok(()));
            }
            let start = buf.filled().len();
            ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
            let mut end = buf.filled().len();
            if let Some(left) = &mut this.left_before_hang_up {
                let read = (end - start) as u64;
                if read > *left {
                    end = start + *left as usize;
                    buf.set_filled(end);
                }
                *left -= (end - start) as u64;
            }
            if end == start {
                // End of stream: nothing to damage.
                return Poll::Ready(Ok(()));
            }
            let mut kept = start;
            for index in start..end {
                let byte = buf.filled()[index];
                if this.chance(this.faults.drop) {
                    this.count.dropped.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                let byte = if this.chance(this.faults.corrupt) {
                    this.count.corrupted.fetch_add(1, Ordering::Relaxed);
                    byte ^ this.flip_mask()
                } else {
                    byte
                };
                buf.filled_mut()[kept] = byte;
                kept += 1;
            }
            buf.set_filled(kept);
            // Returning no bytes would read as end of stream: read again instead.
            if kept > start {
                return Poll::Ready(Ok(()));
            }
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for FaultyIo<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.hung_up() {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt, duplex};

    use super::*;

    /// Sends `input` through a pipe and reads it back through a [`FaultyIo`].
    async fn damage(input: &[u8], faults: ByteFaults) -> (Vec<u8>, FaultCount) {
        let (mut writer, reader) = duplex(4096);
        writer.write_all(input).await.unwrap();
        drop(writer);
        let mut reader = FaultyIo::new(reader, faults);
        let count = reader.count();
        let mut output = Vec::new();
        reader.read_to_end(&mut output).await.unwrap();
        (output, count)
    }

    #[tokio::test]
    async fn the_same_seed_damages_the_same_bytes() {
        let input: Vec<u8> = (0..=255).cycle().take(2000).collect();
        let faults = ByteFaults {
            seed: 42,
            drop: 0.05,
            corrupt: 0.05,
        };
        let (first, count) = damage(&input, faults).await;
        let (second, _) = damage(&input, faults).await;
        assert_eq!(first, second);
        assert_eq!(first.len() as u64, 2000 - count.dropped());
        assert!(count.dropped() > 0 && count.corrupted() > 0);
        let (other, _) = damage(&input, ByteFaults { seed: 43, ..faults }).await;
        assert_ne!(first, other);
    }

    #[tokio::test]
    async fn a_hung_up_line_ends_reads_and_fails_writes() {
        let (mut far, near) = duplex(4096);
        far.write_all(&[7; 50]).await.unwrap();
        let clean = ByteFaults {
            seed: 1,
            drop: 0.0,
            corrupt: 0.0,
        };
        let mut near = FaultyIo::new(near, clean).hang_up_after(20);
        near.write_all(b"still up").await.unwrap();
        let mut read = Vec::new();
        near.read_to_end(&mut read).await.unwrap();
        assert_eq!(read, [7; 20], "the line dies after exactly 20 bytes");
        let err = near.write_all(b"anyone?").await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }

    #[tokio::test]
    async fn certain_faults_hit_every_byte() {
        let input = [0u8; 100];
        let corrupt_all = ByteFaults {
            seed: 1,
            drop: 0.0,
            corrupt: 1.0,
        };
        let (corrupted, count) = damage(&input, corrupt_all).await;
        assert_eq!(corrupted.len(), 100);
        assert!(corrupted.iter().all(|&byte| byte != 0));
        assert_eq!(count.corrupted(), 100);
        let drop_all = ByteFaults {
            drop: 1.0,
            ..corrupt_all
        };
        // Every byte lost reads as a clean end of stream, not as an error.
        let (dropped, count) = damage(&input, drop_all).await;
        assert!(dropped.is_empty());
        assert_eq!(count.dropped(), 100);
        let clean = ByteFaults {
            corrupt: 0.0,
            ..corrupt_all
        };
        assert_eq!(damage(&input, clean).await.0, input);
    }
}
