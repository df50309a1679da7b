//! The robot's real devices, opened the same way by every command that talks to them (`run`,
//! `doctor`, `calibrate`, and `sim --link pty`, which plugs the simulated ones in behind
//! pseudo-terminals): serial ports by path, exclusively; the board controller with its
//! handshake and link task; the Dobot with a driver session; the arm's calibration from the
//! state directory.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use hal::arm::Calibration;
use hal::controller::device::{ControllerDevice, DeviceConfig};
use hal::controller::link::{LinkConfig, connect};
use hal::dobot::{DobotArm, DobotConfig};
use tokio_serial::{SerialPortBuilderExt as _, SerialStream};

/// The file name of the arm's calibration in the state directory.
pub const CALIBRATION_FILE: &str = "calibration.toml";

/// Opens a serial port exclusively, so a second daemon or a terminal program cannot interleave
/// bytes with ours.
pub fn open_port(path: &Path, baud: u32) -> anyhow::Result<SerialStream> {
    tokio_serial::new(path.to_string_lossy(), baud)
        .open_native_async()
        .with_context(|| format!("opening the serial port {}", path.display()))
}

/// Opens the board controller's port and completes the handshake.
pub async fn connect_board(path: PathBuf, baud: u32) -> anyhow::Result<ControllerDevice> {
    let port = open_port(&path, baud)?;
    let connection = connect(port, LinkConfig::default())
        .await
        .with_context(|| format!("no board controller answering on {}", path.display()))?;
    tracing::info!(
        "board controller on {}: firmware {:?}",
        path.display(),
        connection.welcome.firmware
    );
    let (device, link) = ControllerDevice::new(connection, DeviceConfig::default());
    tokio::spawn(async move {
        if let Err(err) = link.run().await {
            tracing::warn!("the board controller's link ended: {err}");
        }
    });
    Ok(device)
}

/// Opens the Dobot's port and starts a driver session (which re-reads the arm's queue, so this
/// is also how a Dobot that was unplugged is taken up again).
pub async fn connect_dobot(path: PathBuf, baud: u32) -> anyhow::Result<DobotArm<SerialStream>> {
    connect_dobot_with(path, baud, DobotConfig::default()).await
}

/// [`connect_dobot`] with the driver's settings given (the simulated arm's park pose and
/// speed).
pub async fn connect_dobot_with(
    path: PathBuf,
    baud: u32,
    config: DobotConfig,
) -> anyhow::Result<DobotArm<SerialStream>> {
    DobotArm::connect(open_port(&path, baud)?, config)
        .await
        .with_context(|| format!("no Dobot answering on {}", path.display()))
}

/// Reads and checks the arm's calibration.
pub fn load_calibration(state_dir: &Path) -> anyhow::Result<Calibration> {
    let path = state_dir.join(CALIBRATION_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "reading the arm's calibration {} (teach one with `checkerbot calibrate`; an \
             example is /usr/share/doc/checkerbot/calibration.example.toml when installed, \
             hal/data/calibration.example.toml in the source tree)",
            path.display()
        )
    })?;
    Calibration::from_toml(&text).with_context(|| format!("checking {}", path.display()))
}
