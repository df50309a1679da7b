//! A simulated device's cable that ends in a pseudo-terminal, so the robot opens it by path
//! through the same serial port code as on the robot (`tokio-serial`, exclusive, termios), and
//! every byte crosses a real tty.
//!
//! A device is served on an in-memory stream; a relay carries its bytes to and from the
//! pseudo-terminal's master end, damaging them on the way when asked. A cable that hangs up
//! closes the pseudo-terminal (the robot's reads fail, as when a USB cable is pulled), removes
//! the link, and after a moment plugs a new pseudo-terminal in under the same link, as udev
//! does when the device comes back with a new tty name.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use hal::sim::faulty_io::{ByteFaults, FaultyIo};
use tokio::io::{AsyncRead, AsyncWrite, DuplexStream};
use tokio_serial::{SerialPort as _, SerialStream};

use player::rng::SplitMix;

/// How long a pulled cable stays out before it is plugged back in.
const REPLUG_AFTER: Duration = Duration::from_millis(300);

/// How often the simulator clears a tty's exclusive flag (see [`HeldDeviceEnd`]).
const RELEASE_EVERY: Duration = Duration::from_millis(200);

/// A pseudo-terminal pair whose device end `link` points at.
pub struct Pty {
    /// The end the simulated device talks through.
    pub served: SerialStream,
    /// The device end, held open so the served end keeps working while clients come and go;
    /// dropping it closes the tty.
    pub device: HeldDeviceEnd,
    /// The device end's name, such as /dev/pts/3.
    pub name: String,
}

/// The simulator's own hold on a pseudo-terminal's device end.
///
/// The robot opens its port exclusively (TIOCEXCL). On a USB bridge the flag goes with the
/// robot's last close, so a robot killed by the watchdog opens the port again when systemd
/// restarts it. Here the simulator's hold keeps the tty open, so the flag would outlive the
/// robot and refuse every later open but root's; the hold therefore clears it (TIOCNXCL, and
/// nothing else: the robot's own lock on the port is left alone) every [`RELEASE_EVERY`]. A
/// second client of a simulated device is then not refused, which only the simulator allows.
pub struct HeldDeviceEnd(tokio::task::JoinHandle<()>);

impl HeldDeviceEnd {
    /// Holds the device end at `name` open (opened again, before any client can set its flag)
    /// in place of `device`.
    fn hold(name: &str, device: SerialStream) -> anyhow::Result<HeldDeviceEnd> {
        use rustix::fs::{Mode, OFlags};
        let held = rustix::fs::open(
            name,
            OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .with_context(|| format!("holding {name} open"))?;
        drop(device);
        Ok(HeldDeviceEnd(tokio::spawn(async move {
            let mut release = tokio::time::interval(RELEASE_EVERY);
            loop {
                release.tick().await;
                if let Err(err) = rustix::termios::ioctl_tiocnxcl(&held) {
                    tracing::warn!("cannot release the simulated tty for the next client: {err}");
                    return;
                }
            }
        })))
    }
}

impl Drop for HeldDeviceEnd {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Pty {
    /// Opens a pseudo-terminal pair and points `link` at its device end, replacing whatever
    /// was there in one step (a client never finds the link missing or half made). Call it
    /// inside a tokio runtime: the hold on the device end is a task.
    pub fn open(link: &Path) -> anyhow::Result<Pty> {
        let (served, device) = SerialStream::pair().context("opening a pseudo-terminal pair")?;
        let name = device
            .name()
            .context("the pseudo-terminal has no device name")?;
        // Held before the link exists, so no client has set the tty's flag yet.
        let device = HeldDeviceEnd::hold(&name, device)?;
        let mut fresh = link.as_os_str().to_owned();
        fresh.push(".new");
        let fresh = PathBuf::from(fresh);
        if fresh.symlink_metadata().is_ok() {
            std::fs::remove_file(&fresh)
                .with_context(|| format!("removing {}", fresh.display()))?;
        }
        std::os::unix::fs::symlink(&name, &fresh)
            .with_context(|| format!("linking {} to {name}", fresh.display()))?;
        std::fs::rename(&fresh, link)
            .with_context(|| format!("moving the link {} into place", link.display()))?;
        Ok(Pty {
            served,
            device,
            name,
        })
    }
}

/// What goes wrong on a cable.
#[derive(Debug, Clone, Copy)]
pub struct CableFaults {
    /// Probability that a byte is dropped, and that one is corrupted, in each direction.
    pub byte: f64,
    /// Bytes the device sends between two hang-ups, on average; `None`: never.
    pub bytes_between_hang_ups: Option<f64>,
}

impl CableFaults {
    /// A sound cable.
    pub const NONE: CableFaults = CableFaults {
        byte: 0.0,
        bytes_between_hang_ups: None,
    };
}

/// Plugs a device into a pseudo-terminal reachable at `link`: `serve` starts the device on
/// the in-memory stream it is given, once per plug-in. Returns once the link is in place; the
/// cable lives on in a task (hanging up and coming back when `faults` say so) until the
/// runtime ends.
pub fn plug_in(
    link: PathBuf,
    mut serve: impl FnMut(DuplexStream) + Send + 'static,
    faults: CableFaults,
    seed: u64,
) -> anyhow::Result<()> {
    let mut rng = SplitMix::new(seed);
    let mut pty = Pty::open(&link)?;
    tokio::spawn(async move {
        loop {
            let (near, far) = tokio::io::duplex(4096);
            serve(far);
            let damage = |seed| ByteFaults {
                seed,
                drop: faults.byte,
                corrupt: faults.byte,
            };
            let from_robot = FaultyIo::new(pty.served, damage(rng.next_u64()));
            let mut from_device = FaultyIo::new(near, damage(rng.next_u64()));
            if let Some(mean) = faults.bytes_between_hang_ups {
                // Exponentially distributed, so a hang-up is as likely at any byte.
                from_device = from_device.hang_up_after(rng.exponential(mean) as u64);
            }
            relay(from_robot, from_device).await;
            // The cable is pulled: the tty goes away with its link.
            tracing::info!("the cable of {} is pulled", link.display());
            drop(pty.device);
            let _ = std::fs::remove_file(&link);
            tokio::time::sleep(REPLUG_AFTER).await;
            pty = match Pty::open(&link) {
                Ok(pty) => pty,
                Err(err) => {
                    tracing::error!("plugging the simulated device back in: {err:#}");
                    return;
                }
            };
        }
    });
    Ok(())
}

/// Carries bytes both ways until either side ends or fails.
async fn relay(robot: impl AsyncRead + AsyncWrite, device: impl AsyncRead + AsyncWrite) {
    let (mut robot_read, mut robot_write) = tokio::io::split(robot);
    let (mut device_read, mut device_write) = tokio::io::split(device);
    tokio::select! {
        _ = tokio::io::copy(&mut robot_read, &mut device_write) => {}
        _ = tokio::io::copy(&mut device_read, &mut robot_write) => {}
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::*;
    use crate::devices::open_port;

    /// A device that answers every byte with the same byte.
    fn echo(io: DuplexStream) {
        tokio::spawn(async move {
            let (mut read, mut write) = tokio::io::split(io);
            let _ = tokio::io::copy(&mut read, &mut write).await;
        });
    }

    /// Sends bytes one at a time until the port stops echoing them; returns how many came
    /// back.
    async fn echo_until_pulled(port: &mut SerialStream) -> usize {
        for (echoed, byte) in (0..=u8::MAX).cycle().take(100_000).enumerate() {
            let mut back = [0];
            let round_trip = async {
                port.write_all(&[byte]).await?;
                port.read_exact(&mut back).await
            };
            let answer = tokio::time::timeout(Duration::from_secs(2), round_trip)
                .await
                .expect("the port either echoes or fails");
            if answer.is_err() {
                return echoed;
            }
            assert_eq!(back[0], byte);
        }
        panic!("the cable was never pulled");
    }

    #[tokio::test]
    async fn a_pulled_cable_comes_back_under_the_same_link() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("arm");
        let faults = CableFaults {
            byte: 0.0,
            bytes_between_hang_ups: Some(50.0),
        };
        plug_in(link.clone(), echo, faults, 7).unwrap();
        let mut port = open_port(&link, 115_200).unwrap();
        echo_until_pulled(&mut port).await;
        drop(port);

        // Plugged back in under the same link within a moment (the tty's number may be
        // reused, as the kernel's are): opening the link again gives a working port.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(mut port) = open_port(&link, 115_200)
                && echo_until_pulled(&mut port).await > 0
            {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "never plugged back");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    #[tokio::test]
    async fn a_sound_cable_survives_clients_coming_and_going() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("board");
        plug_in(link.clone(), echo, CableFaults::NONE, 1).unwrap();
        for _ in 0..3 {
            let mut port = open_port(&link, 115_200).unwrap();
            port.write_all(b"hello").await.unwrap();
            let mut back = [0; 5];
            port.read_exact(&mut back).await.unwrap();
            assert_eq!(&back, b"hello");
        }
    }
}
