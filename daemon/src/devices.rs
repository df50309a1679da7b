//! The robot's real devices, opened the same way by every command that talks to them (`run`,
//! `doctor`, `calibrate`, and `sim --link pty`, which plugs the simulated ones in behind
//! pseudo-terminals): serial ports by path, exclusively; the board controller with its
//! handshake and link task; the Dobot with a driver session; the board controller's own arm
//! over the board's session; the arm's calibration from the state directory.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context as _;
use hal::arm::{ArmModel, Calibration};
use hal::controller::device::{
    ArmLink, ControllerArm, ControllerArmConfig, ControllerDevice, DeviceConfig,
};
use hal::controller::link::{Connection, LinkConfig, LinkDriver, connect};
use hal::dobot::{DobotArm, DobotConfig};
use hal::{Error as _, ErrorKind};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_serial::{SerialPortBuilderExt as _, SerialStream};

use crate::robot::ReopenArm;

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

/// Where the board's connection leaves the arm's half of each new session, for the arm to take
/// (`devices.arm = "controller"`): the board and the arm share one link, and the board's
/// reconnection, which the robot loop runs, restores both.
#[derive(Debug, Clone, Default)]
pub struct ArmSlot(Arc<Mutex<Option<ArmLink>>>);

impl ArmSlot {
    /// Leaves the arm's half of a new session, replacing one from an older session.
    pub fn put(&self, link: ArmLink) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(link);
    }

    /// Takes the arm's half of the latest session, if one came since the last call.
    pub fn take(&self) -> Option<ArmLink> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// Opens the arm on the latest session: faults cleared and homed before it is handed
    /// over, since nothing says where the joints stopped. Fails while the board's link is not
    /// back yet; a session whose homing failed on a live link is kept for the next attempt.
    pub fn reopen(&self, config: &ControllerArmConfig) -> ReopenArm<ControllerArm> {
        let (slot, config) = (self.clone(), *config);
        Box::new(move || {
            let slot = slot.clone();
            Box::pin(async move {
                let link = slot
                    .take()
                    .context("the board controller's link is not back yet")?;
                let mut arm = ControllerArm::new(link, config)?;
                match arm.make_ready().await {
                    Ok(()) => Ok(arm),
                    Err(err) => {
                        if err.kind() != ErrorKind::Disconnected {
                            slot.put_back(arm.into_link());
                        }
                        Err(err).context("homing the board controller's arm")
                    }
                }
            })
        })
    }

    /// Leaves `link` for the next attempt, unless a newer session came meanwhile.
    fn put_back(&self, link: ArmLink) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(link);
    }
}

/// Splits a controller session between the board and the arm: the board's drivers are
/// returned, the arm's half is left in `slot`. Spawn the driver.
pub fn split_session<T>(
    connection: Connection<T>,
    slot: &ArmSlot,
) -> (ControllerDevice, LinkDriver<T>)
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    let (device, arm, driver) = ControllerDevice::split(connection, DeviceConfig::default());
    slot.put(arm);
    (device, driver)
}

/// Opens the board controller's port for a controller that drives the arm too: the board's
/// drivers, and the arm's half of the session left in `slot`.
pub async fn connect_controller(
    path: PathBuf,
    baud: u32,
    slot: ArmSlot,
) -> anyhow::Result<ControllerDevice> {
    let port = open_port(&path, baud)?;
    let connection = connect(port, LinkConfig::default())
        .await
        .with_context(|| format!("no board controller answering on {}", path.display()))?;
    tracing::info!(
        "board controller (with the arm) on {}: firmware {:?}",
        path.display(),
        connection.welcome.firmware
    );
    let (device, link) = split_session(connection, &slot);
    tokio::spawn(async move {
        if let Err(err) = link.run().await {
            tracing::warn!("the board controller's link ended: {err}");
        }
    });
    Ok(device)
}

/// How the host drives the controller's arm for `calibration`: its kinematics, its travel
/// height and its park pose. A calibration taught for a Dobot is refused.
pub fn controller_arm_config(calibration: &Calibration) -> anyhow::Result<ControllerArmConfig> {
    let ArmModel::Reference(kinematics) = calibration.arm() else {
        anyhow::bail!(
            "devices.arm = \"controller\" drives the reference arm, but the calibration is for \
             another arm: set arm = {{ model = \"reference\" }} in it and teach it again with \
             `checkerbot calibrate`"
        );
    };
    Ok(ControllerArmConfig {
        kinematics: *kinematics,
        travel_z: calibration.safe_z(),
        park: calibration.park().to_pose(0.0),
        ..ControllerArmConfig::default()
    })
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
