//! `checkerbot calibrate`: teach the arm where the board, the trophy bin, the spare kings and
//! its resting pose are, or check a calibration file.
//!
//! The interactive wizard is a pure state machine ([`wizard`]) driven by [`session`] against
//! the arm (the Dobot on `devices.arm_port`, or the reference arm through the board
//! controller on `devices.board_port` with `devices.arm = "controller"`; with `--sim` the
//! virtual Dobot or the simulated controller's arm beside the simulated board) and by
//! [`terminal`] for the keys and the screen; [`joint_jog`] turns the reference arm's joints
//! one at a time when the operator switches to joint jogging (`j`). `--check` verifies a file
//! without the arm ([`check`]). Saving replaces the file atomically and keeps the previous one
//! as `calibration.toml.bak`.

pub mod check;
pub mod joint_jog;
pub mod session;
pub mod terminal;
pub mod wizard;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use checkerbot_config::ArmKind;
use hal::arm::kinematics::ReferenceArm;
use hal::arm::{ArmModel, CalibrationFile};
use hal::controller::device::{ControllerArm, ControllerArmConfig};
use hal::device::Arm;
use rules::Variant;

use crate::devices::{ArmSlot, CALIBRATION_FILE, connect_controller, connect_dobot};
use crate::robot::occupancy_map;
use crate::settings_source::config_path;
use session::Console as _;
use wizard::Wizard;

/// Arguments of `checkerbot calibrate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Settings file (default: /etc/checkerbot/checkerbot.toml when it exists): the variant
    /// (board size), the state directory and the arm's port.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Check the calibration file instead of teaching one; exits with status 1 when it is
    /// refused.
    #[arg(long)]
    check: bool,
    /// The calibration file to check, or that the wizard starts from and saves (default:
    /// calibration.toml in the settings' state directory).
    file: Option<PathBuf>,
    /// Drive the simulated arm beside the simulated board instead of the real one, to try the
    /// wizard at a desk (also when the settings say devices.arm = "sim").
    #[arg(long)]
    sim: bool,
    /// Which arm to teach: `dobot` (a Dobot Magician on the arm's port) or `controller` (the
    /// reference robot's arm, driven by the board controller on the board's port); default:
    /// the one the settings name (the virtual Dobot for "sim").
    #[arg(long, value_enum)]
    arm: Option<WizardArm>,
}

/// The arm the wizard teaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WizardArm {
    /// A Dobot Magician.
    Dobot,
    /// The reference robot's arm on the board controller.
    Controller,
}

impl WizardArm {
    /// The arm's model for a calibration: the starting file's when it is for this kind of arm
    /// (its dimensions may have been corrected), else the model's defaults.
    fn model(self, existing: Option<&CalibrationFile>) -> ArmModel {
        match (self, existing.map(|file| file.arm)) {
            (WizardArm::Dobot, Some(arm @ ArmModel::Magician(_)))
            | (WizardArm::Controller, Some(arm @ ArmModel::Reference(_))) => arm,
            (WizardArm::Dobot, _) => ArmModel::default(),
            (WizardArm::Controller, _) => ArmModel::Reference(ReferenceArm::default()),
        }
    }
}

/// How the wizard drives the controller's arm taught with `model`: the host's kinematics are
/// the model's; the rest are the driver's defaults (the wizard moves in straight lines only).
pub fn wizard_controller_config(model: &ArmModel) -> ControllerArmConfig {
    match model {
        ArmModel::Reference(kinematics) => ControllerArmConfig {
            kinematics: *kinematics,
            ..ControllerArmConfig::default()
        },
        ArmModel::Magician(_) => ControllerArmConfig::default(),
    }
}

/// Runs the wizard, or the check with `--check`.
///
/// `simulated_dobot` and `simulated_controller` make the arm for `--sim` (or
/// `devices.arm = "sim"`): the caller passes the simulators' connectors, so this module knows
/// the simulated arms only as [`Arm`]s. The controller's is given the driver's settings and
/// must come homed.
pub fn run<A, F, C, G>(
    args: &Args,
    simulated_dobot: impl FnOnce(Variant) -> F,
    simulated_controller: impl FnOnce(Variant, &ControllerArmConfig) -> G,
) -> anyhow::Result<()>
where
    A: Arm,
    F: Future<Output = anyhow::Result<A>>,
    C: Arm,
    G: Future<Output = anyhow::Result<C>>,
{
    let settings = checkerbot_config::load(config_path(args.config.as_deref()).as_deref())
        .context("reading the settings")?;
    let side = occupancy_map::board_size(settings.game.variant.geometry()).side();
    let file = args
        .file
        .clone()
        .unwrap_or_else(|| settings.paths.state_dir.join(CALIBRATION_FILE));
    if args.check {
        return match check::check_calibration(&file, side) {
            Ok(lines) => {
                println!("{}: ok", file.display());
                for line in lines {
                    println!("  {line}");
                }
                Ok(())
            }
            Err(problem) => {
                println!("{problem}");
                anyhow::bail!("the calibration {} is refused", file.display())
            }
        };
    }
    let simulated = args.sim || settings.devices.arm == ArmKind::Sim;
    let arm = args.arm.unwrap_or(match settings.devices.arm {
        ArmKind::Controller => WizardArm::Controller,
        ArmKind::Dobot | ArmKind::Sim => WizardArm::Dobot,
    });
    let existing = read_existing(&file);
    let model = arm.model(existing.as_ref());
    let controller_config = wizard_controller_config(&model);
    let mut wizard = Wizard::new(side, existing).for_arm(model);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let mut console = terminal::TerminalConsole::new(file.clone())?;
        let mut keys = terminal::keys();
        let devices = &settings.devices;
        match (arm, simulated) {
            (WizardArm::Dobot, true) => {
                let mut arm = simulated_dobot(settings.game.variant).await?;
                session::drive(&mut arm, &mut wizard, &mut keys, &mut console).await
            }
            (WizardArm::Controller, true) => {
                console.draw("homing the simulated reference arm ...");
                let variant = settings.game.variant;
                let mut arm = simulated_controller(variant, &controller_config).await?;
                session::drive(&mut arm, &mut wizard, &mut keys, &mut console).await
            }
            (WizardArm::Dobot, false) => {
                let mut arm = connect_dobot(devices.arm_port.clone(), devices.baud).await?;
                session::drive(&mut arm, &mut wizard, &mut keys, &mut console).await
            }
            (WizardArm::Controller, false) => {
                console.draw(&format!(
                    "homing the reference arm through the board controller on {} ...",
                    devices.board_port.display()
                ));
                let mut arm = connect_controller_arm(
                    devices.board_port.clone(),
                    devices.baud,
                    &controller_config,
                )
                .await?;
                session::drive(&mut arm, &mut wizard, &mut keys, &mut console).await
            }
        }
    })
}

/// Opens the board controller that drives the reference arm, and homes the arm: nothing in
/// the protocol says where its joints are until then. The board's own half of the session is
/// not used; the link stays up while the arm holds its half.
async fn connect_controller_arm(
    port: PathBuf,
    baud: u32,
    config: &ControllerArmConfig,
) -> anyhow::Result<ControllerArm> {
    let slot = ArmSlot::default();
    let board = connect_controller(port.clone(), baud, slot.clone()).await?;
    drop(board);
    let link = slot
        .take()
        .context("the board controller's session has no arm's half")?;
    ControllerArm::start(link, *config).await.with_context(|| {
        format!(
            "homing the reference arm through the board controller on {}",
            port.display()
        )
    })
}

/// The file the wizard starts from: taught points survive until they are taught again. A file
/// that cannot be read as a calibration is ignored here (the wizard starts afresh) and only
/// replaced on saving, after a backup.
fn read_existing(path: &Path) -> Option<CalibrationFile> {
    let text = std::fs::read_to_string(path).ok()?;
    match toml::from_str(&text) {
        Ok(file) => Some(file),
        Err(err) => {
            tracing::warn!("starting afresh: {} cannot be read: {err}", path.display());
            None
        }
    }
}

/// Replaces `path` with `text` atomically, copying the previous file to `<name>.bak` first.
pub fn save_calibration(path: &Path, text: &str) -> anyhow::Result<Option<PathBuf>> {
    let backup = if path.exists() {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".bak");
        let backup = path.with_file_name(name);
        std::fs::copy(path, &backup)
            .with_context(|| format!("keeping the previous calibration as {}", backup.display()))?;
        Some(backup)
    } else {
        None
    };
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let text = format!(
        "# The arm's calibration, written by `checkerbot calibrate` ({}); every key is \
         described in hal/data/calibration.example.toml.\n\n{text}",
        crate::state::utc_date(std::time::SystemTime::now())
    );
    crate::state::write_atomically(path, text.as_bytes())?;
    Ok(backup)
}
