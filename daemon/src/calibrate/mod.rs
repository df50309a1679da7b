//! `checkerbot calibrate`: teach the arm where the board, the trophy bin, the spare kings and
//! its resting pose are, or check a calibration file.
//!
//! The interactive wizard is a pure state machine ([`wizard`]) driven by [`session`] against
//! the arm (the Dobot on `devices.arm_port`, or with `--sim` the virtual Dobot beside the
//! simulated board) and by [`terminal`] for the keys and the screen. `--check` verifies a file
//! without the arm ([`check`]). Saving replaces the file atomically and keeps the previous one
//! as `calibration.toml.bak`.

pub mod check;
pub mod session;
pub mod terminal;
pub mod wizard;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use checkerbot_config::ArmKind;
use hal::arm::CalibrationFile;
use hal::device::Arm;
use rules::Variant;

use crate::devices::{CALIBRATION_FILE, connect_dobot};
use crate::robot::occupancy_map;
use crate::settings_source::config_path;
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
    /// Drive the virtual Dobot beside the simulated board instead of the real arm, to try the
    /// wizard at a desk (also when the settings say devices.arm = "sim").
    #[arg(long)]
    sim: bool,
}

/// Runs the wizard, or the check with `--check`.
///
/// `simulated_arm` makes the arm for `--sim` (or `devices.arm = "sim"`): the caller passes the
/// virtual Dobot's connector, so this module knows the simulated arm only as an [`Arm`].
pub fn run<A, F>(args: &Args, simulated_arm: impl FnOnce(Variant) -> F) -> anyhow::Result<()>
where
    A: Arm,
    F: Future<Output = anyhow::Result<A>>,
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
    let simulated = match settings.devices.arm {
        _ if args.sim => true,
        ArmKind::Sim => true,
        ArmKind::Dobot => false,
        ArmKind::Controller => anyhow::bail!(
            "devices.arm = \"controller\": the reference arm's controller has no driver yet; \
             the wizard drives a Dobot (devices.arm = \"dobot\") or, with --sim, the virtual one"
        ),
    };
    let existing = read_existing(&file);
    let mut wizard = Wizard::new(side, existing);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let mut console = terminal::TerminalConsole::new(file.clone())?;
        let mut keys = terminal::keys();
        if simulated {
            let mut arm = simulated_arm(settings.game.variant).await?;
            session::drive(&mut arm, &mut wizard, &mut keys, &mut console).await
        } else {
            let devices = &settings.devices;
            let mut arm = connect_dobot(devices.arm_port.clone(), devices.baud).await?;
            session::drive(&mut arm, &mut wizard, &mut keys, &mut console).await
        }
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
