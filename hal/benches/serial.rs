//! Serial latency over a real pseudo-terminal pair, through the same drivers and simulators the
//! tests use: one Dobot command round trip (`GetQueueIndex`, 6 bytes out and 14 back, and
//! `GetPose`, 6 out and 38 back), and a board scan from `ScanRequest` to the `Scan` event
//! (handshake done, acknowledgements included). Prints mean, p50, p99 and max. Run with
//! `cargo bench -p hal --bench serial`.
//!
//! A pty has no baud rate: the figures are the host's software and the kernel's tty layer. On
//! the robot, 115200 baud adds about 87 µs a byte (1.7 ms for a `GetQueueIndex` exchange).

use std::time::{Duration, Instant};

#[path = "../tests/it/dobot_rig/mod.rs"]
mod dobot_rig;

use hal::controller::device::{ControllerDevice, DeviceConfig};
use hal::controller::link::{LinkConfig, connect};
use hal::controller::peer::PeerConfig;
use hal::device::BoardSensor;
use hal::dobot::{Command, DobotArm, DobotConfig};
use hal::sim::board::sim_board;
use hal::sim::dobot::{VirtualDobot, VirtualDobotConfig};
use hal::{BoardSize, Occupancy};
use tokio_serial::SerialStream;

const WARM_UP: usize = 200;

/// Measured iterations: a few thousand under `cargo bench`, a few as a smoke test when
/// `cargo test --benches` runs this without `--bench`.
fn iterations() -> usize {
    if std::env::args().any(|argument| argument == "--bench") {
        3000
    } else {
        20
    }
}

/// Runs `once` `WARM_UP` times unmeasured, then [`iterations`] times, and prints the figures.
async fn measure(name: &str, mut once: impl AsyncFnMut()) {
    for _ in 0..WARM_UP {
        once().await;
    }
    let iterations = iterations();
    let mut samples = Vec::with_capacity(iterations);
    let total = Instant::now();
    for _ in 0..iterations {
        let start = Instant::now();
        once().await;
        samples.push(start.elapsed());
    }
    let total = total.elapsed();
    samples.sort_unstable();
    let at = |fraction: f64| samples[((samples.len() - 1) as f64 * fraction) as usize];
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    println!(
        "{name:<44} n={iterations} mean {:>7.1} µs  p50 {:>7.1} µs  p99 {:>7.1} µs  max {:>8.1} µs  ({:.0}/s)",
        micros(mean),
        micros(at(0.5)),
        micros(at(0.99)),
        micros(at(1.0)),
        iterations as f64 / total.as_secs_f64(),
    );
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

async fn dobot_round_trips() {
    let board = dobot_rig::board(&[]);
    let layout = dobot_rig::layout();
    let dobot = VirtualDobot::new(board, layout, VirtualDobotConfig::default());
    let (host, device) = SerialStream::pair().expect("a pty pair opens");
    tokio::spawn(dobot.serve(device).run());
    let mut arm = DobotArm::connect(host, DobotConfig::default())
        .await
        .expect("the virtual Dobot answers");
    for command in [Command::GetQueueIndex, Command::GetPose] {
        let name = format!("dobot {command:?} round trip (pty)");
        measure(&name, async || {
            arm.request(command).await.expect("a clean line answers");
        })
        .await;
    }
    assert_eq!(arm.stats().failed_attempts, 0, "no retries on a clean pty");
}

async fn scan_to_event() {
    let (host, controller) = SerialStream::pair().expect("a pty pair opens");
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, (0..12).chain(20..32))
        .expect("squares on the board");
    let (_board, peer) = sim_board(controller, occupancy, PeerConfig::default());
    tokio::spawn(peer.run());
    let connection = connect(host, LinkConfig::default())
        .await
        .expect("the handshake succeeds");
    let (mut device, link) = ControllerDevice::new(connection, DeviceConfig::default());
    tokio::spawn(link.run());
    measure("controller ScanRequest -> Scan event (pty)", async || {
        assert_eq!(device.scan().await, Ok(occupancy));
    })
    .await;
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime starts");
    runtime.block_on(async {
        dobot_round_trips().await;
        scan_to_event().await;
    });
}
