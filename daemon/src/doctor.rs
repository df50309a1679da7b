//! `checkerbot doctor`: checks everything `checkerbot run` needs and says, one line per
//! check, what is wrong in plain words and what to do about it.
//!
//! Every device check has a short time limit, so a dead link is reported rather than waited
//! for. The checks use the same code as `run` (settings loading, the calibration's validation,
//! the port opening, the controller handshake, the player's model loading, the voice packs and
//! the speaker), so a passing doctor means `run` gets past its start.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use checkerbot_config::{ArmKind, OperatorSettings, Settings};
use futures::{SinkExt as _, StreamExt as _};
use hal::controller::link::{LinkConfig, connect};
use hal::dobot::{Command, DobotCodec, Reply};
use sounds::{Library, Output, Speaker};
use tokio_util::codec::Framed;

use crate::calibrate::check::check_calibration;
use crate::devices::{
    ArmSlot, CALIBRATION_FILE, controller_arm_config, load_calibration, open_port, split_session,
};
use crate::robot::occupancy_map;
use crate::settings_source::config_path;
use hal::controller::device::ControllerArm;
use hal::device::Arm as _;
use player::Brain;

/// How long a device may take to answer before the doctor calls it silent.
const DEVICE_TIMEOUT: Duration = Duration::from_secs(3);
/// The shortest operator token the doctor does not warn about on a page other machines reach:
/// the settings accept 8 characters, which a guesser on the network has more time for than
/// one on this machine.
const NETWORK_TOKEN_LEN: usize = 16;

/// Arguments of `checkerbot doctor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Settings file (default: /etc/checkerbot/checkerbot.toml when it exists).
    #[arg(long)]
    config: Option<PathBuf>,
}

/// The printed report: a line per check as it finishes.
#[derive(Debug, Default)]
struct Report {
    checks: usize,
    problems: usize,
}

impl Report {
    fn line(&mut self, what: &str, outcome: Result<String, String>) {
        self.checks += 1;
        match outcome {
            Ok(text) => println!("ok       {what}: {text}"),
            Err(text) => {
                self.problems += 1;
                println!("PROBLEM  {what}: {text}");
            }
        }
    }

    /// A check that passes with a warning: said, but `run` would start.
    fn warning(&mut self, what: &str, text: &str) {
        self.checks += 1;
        println!("WARNING  {what}: {text}");
    }

    fn finish(&self) -> ExitCode {
        if self.problems == 0 {
            println!("all {} checks passed", self.checks);
            ExitCode::SUCCESS
        } else {
            println!(
                "{} of {} checks found a problem",
                self.problems, self.checks
            );
            ExitCode::FAILURE
        }
    }
}

/// Runs the command: exit status 0 when every check passed, 1 otherwise.
pub fn run(args: &Args) -> ExitCode {
    let mut report = Report::default();
    let path = config_path(args.config.as_deref());
    let settings = match checkerbot_config::load(path.as_deref()) {
        Ok(settings) => settings,
        Err(err) => {
            report.line(
                "settings",
                Err(format!(
                    "{err}; correct the file (config/checkerbot.toml lists every key); the \
                     other checks need the settings"
                )),
            );
            return report.finish();
        }
    };
    report.line(
        "settings",
        Ok(format!(
            "{} ({}, level {}, robot plays {})",
            path.as_deref().map_or_else(
                || "built-in defaults".to_owned(),
                |p| p.display().to_string()
            ),
            settings.game.variant.name(),
            settings.play.level,
            format!("{:?}", settings.game.robot).to_lowercase()
        )),
    );
    report.line("state directory", state_dir(&settings.paths.state_dir));
    match operator_page(&settings.operator) {
        Ok(text) => report.line("operator page", Ok(text)),
        Err(warning) => report.warning("operator page", &warning),
    }
    let side = occupancy_map::board_size(settings.game.variant.geometry()).side();
    report.line(
        "calibration",
        check_calibration(&settings.paths.state_dir.join(CALIBRATION_FILE), side)
            .map(|lines| lines.join("; ")),
    );
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(devices(&settings, &mut report)),
        Err(err) => report.line(
            "serial ports",
            Err(format!("cannot start the runtime: {err}")),
        ),
    }
    report.line("player", player(&settings));
    if let Some(spec) = settings.play.engine() {
        report.line("external engine", external_engine(&settings, &spec));
    }
    report.line("voice packs", voice_packs(&settings));
    report.line("audio", audio(&settings));
    report.finish()
}

/// Where the operator page is served and who may steer the robot from it; `Err`: a warning
/// (the token is never printed).
fn operator_page(operator: &OperatorSettings) -> Result<String, String> {
    if !operator.enabled {
        return Ok("off (operator.enabled = false)".to_owned());
    }
    let bind = operator.bind;
    let length = operator
        .token
        .as_ref()
        .map_or(0, |token| token.chars().count());
    if bind.ip().is_loopback() {
        let who = if operator.token.is_some() {
            "controls need the token"
        } else {
            "controls open to this machine's users, closed to web sites"
        };
        return Ok(format!("on http://{bind}/, this machine only; {who}"));
    }
    if length < NETWORK_TOKEN_LEN {
        return Err(format!(
            "on http://{bind}/, reachable from the network, with a token of {length} \
             characters: anyone on the network who guesses it steers the robot; set \
             operator.token to a random one of at least {NETWORK_TOKEN_LEN} characters \
             (`openssl rand -hex 16`)"
        ));
    }
    Ok(format!(
        "on http://{bind}/, reachable from the network; controls need the token"
    ))
}

/// The state directory exists and the daemon can write its journal there.
fn state_dir(dir: &Path) -> Result<String, String> {
    if !dir.is_dir() {
        return Err(format!(
            "{} does not exist: create it (the service's StateDirectory= does) or set \
             paths.state_dir",
            dir.display()
        ));
    }
    let probe = dir.join(".checkerbot-doctor");
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|err| {
            format!(
                "cannot write in {} ({err}): give the daemon's user write access",
                dir.display()
            )
        })?;
    Ok(format!("{} is writable", dir.display()))
}

async fn devices(settings: &Settings, report: &mut Report) {
    let devices = &settings.devices;
    if devices.arm == ArmKind::Controller {
        // One port carries both: the board's line and the arm's come from one session.
        let (board, arm) =
            controller(&devices.board_port, devices.baud, &settings.paths.state_dir).await;
        report.line("board controller", board);
        report.line("arm", arm);
        return;
    }
    report.line(
        "board controller",
        board(&devices.board_port, devices.baud).await,
    );
    let arm = match devices.arm {
        ArmKind::Dobot => dobot(&devices.arm_port, devices.baud).await,
        other => Err(format!(
            "devices.arm = {other:?}: `checkerbot run` drives a Dobot or the board \
             controller's arm; set devices.arm = \"dobot\" or \"controller\""
        )),
    };
    report.line("arm", arm);
}

/// The board controller that drives the arm: the handshake (the board's line), then the arm
/// announced in its capabilities, homed, and moved once, to the calibration's park pose.
async fn controller(
    path: &Path,
    baud: u32,
    state_dir: &Path,
) -> (Result<String, String>, Result<String, String>) {
    let no_arm = || Err("not checked: the board controller did not answer".to_owned());
    let port = match open(path, baud, "board controller") {
        Ok(port) => port,
        Err(err) => return (Err(err), no_arm()),
    };
    let silent = format!(
        "{} opens but no board controller answers the handshake: check the cable, the \
         controller's power and devices.baud ({baud})",
        path.display()
    );
    let connection =
        match tokio::time::timeout(DEVICE_TIMEOUT, connect(port, LinkConfig::default())).await {
            Ok(Ok(connection)) => connection,
            Ok(Err(err)) => return (Err(format!("{silent}: {err}")), no_arm()),
            Err(_) => return (Err(silent), no_arm()),
        };
    let firmware = connection.welcome.firmware;
    let board = Ok(format!(
        "{} answers: board controller firmware {}.{}.{}",
        path.display(),
        firmware.major,
        firmware.minor,
        firmware.patch
    ));
    let slot = ArmSlot::default();
    let (_device, driver) = split_session(connection, &slot);
    tokio::spawn(driver.run());
    let arm = async {
        let calibration = load_calibration(state_dir).map_err(|err| format!("{err:#}"))?;
        let config = controller_arm_config(&calibration).map_err(|err| format!("{err:#}"))?;
        let link = slot.take().ok_or("the board controller's session ended")?;
        let mut arm = ControllerArm::new(link, config).map_err(|err| {
            format!(
                "{err}: its firmware announces no arm; flash one that drives the joints and \
                 the pump (docs/protocol.md), or set devices.arm = \"dobot\""
            )
        })?;
        let started = tokio::time::Instant::now();
        arm.make_ready()
            .await
            .map_err(|err| format!("homing failed: {err}; check the limit switches"))?;
        let homed = started.elapsed();
        let moved = async {
            arm.park().await?;
            arm.wait_until_idle().await
        };
        moved
            .await
            .map_err(|err| format!("homed, but the test move to the park pose failed: {err}"))?;
        let park = calibration.park();
        Ok(format!(
            "the board controller drives it: homed in {:.1} s, then moved to the park pose \
             {park} in {:.1} s",
            homed.as_secs_f64(),
            started.elapsed().saturating_sub(homed).as_secs_f64()
        ))
    };
    (board, arm.await)
}

/// Opens `path` exclusively, as `run` does, and explains a refusal.
fn open(path: &Path, baud: u32, device: &str) -> Result<tokio_serial::SerialStream, String> {
    if !path.exists() {
        return Err(format!(
            "{} does not exist: is the {device} plugged in and switched on? (the udev rules \
             in systemd/60-checkerbot.rules create the name; `ls -l /dev/checkerbot-*` \
             lists what is there)",
            path.display()
        ));
    }
    open_port(path, baud).map_err(|err| {
        match err.downcast_ref::<tokio_serial::Error>().map(|e| &e.kind) {
            Some(tokio_serial::ErrorKind::NoDevice) => format!(
                "{} is held by another process: stop it first (`systemctl stop checkerbot`; \
                 `fuser {}` names it)",
                path.display(),
                path.display()
            ),
            Some(tokio_serial::ErrorKind::Io(std::io::ErrorKind::PermissionDenied)) => format!(
                "no permission to open {}: add the user to the dialout group",
                path.display()
            ),
            _ => format!("{err:#}"),
        }
    })
}

/// The board controller answers the handshake.
async fn board(path: &Path, baud: u32) -> Result<String, String> {
    let port = open(path, baud, "board controller")?;
    let silent = || {
        format!(
            "{} opens but no board controller answers the handshake: check the cable, the \
             controller's power, devices.baud ({baud}) and that devices.board_port is not the \
             arm's port",
            path.display()
        )
    };
    match tokio::time::timeout(DEVICE_TIMEOUT, connect(port, LinkConfig::default())).await {
        Ok(Ok(connection)) => {
            let firmware = connection.welcome.firmware;
            Ok(format!(
                "{} answers: board controller firmware {}.{}.{}",
                path.display(),
                firmware.major,
                firmware.minor,
                firmware.patch
            ))
        }
        Ok(Err(err)) => Err(format!("{}: {err}", silent())),
        Err(_) => Err(silent()),
    }
}

/// The Dobot answers `GetDeviceVersion`; nothing is queued or moved.
async fn dobot(path: &Path, baud: u32) -> Result<String, String> {
    let port = open(path, baud, "Dobot")?;
    let silent = format!(
        "{} opens but no Dobot answers: check that it is switched on (the LED turns green after \
         start-up), the USB cable, and that devices.arm_port is not the board's port",
        path.display()
    );
    let mut framed = Framed::new(port, DobotCodec::new());
    let command = Command::GetDeviceVersion;
    let ask = async {
        framed.send(command.to_frame()).await.ok()?;
        // Damaged frames and replies to something else are skipped; a transport error ends it.
        while let Ok(decoded) = framed.next().await? {
            if let Ok(frame) = decoded
                && let Ok(Reply::DeviceVersion {
                    major,
                    minor,
                    revision,
                }) = command.parse_reply(&frame)
            {
                return Some((major, minor, revision));
            }
        }
        None
    };
    match tokio::time::timeout(DEVICE_TIMEOUT, ask).await {
        Ok(Some((major, minor, revision))) => Ok(format!(
            "{} answers: Dobot firmware {major}.{minor}.{revision}",
            path.display()
        )),
        _ => Err(silent),
    }
}

/// The level's network loads through ONNX Runtime (or the level plays alpha-beta by design).
fn player(settings: &Settings) -> Result<String, String> {
    let brain = Brain::new(settings, 0);
    let plays = brain.describe();
    if brain.wants_network() && !brain.uses_network() {
        Err(format!(
            "level {} should play with a network but would play {plays}; check paths.models_dir \
             and paths.onnxruntime (scripts/install-deps puts ONNX Runtime in \
             target/onnxruntime in a source tree)",
            settings.play.level
        ))
    } else {
        Ok(plays)
    }
}

/// `play.engine` answers for the settings' variant: a Hub engine starts and greets (`hub`
/// answered by `wait`, `init` by `ready`), a DXP engine's address resolves, connects and
/// accepts a game; which levels it plays at.
fn external_engine(
    settings: &Settings,
    spec: &checkerbot_config::EngineSpec,
) -> Result<String, String> {
    let levels = match settings.play.engine_levels {
        checkerbot_config::EngineLevels::Strongest => "at level 5",
        checkerbot_config::EngineLevels::All => "at every level",
    };
    let playing = if settings.play.engine_at(settings.play.level).is_some() {
        "plays now"
    } else {
        "does not play at the level set"
    };
    match external_engines::check(spec, settings.game.variant) {
        Ok(answered) => Ok(format!(
            "{spec} {answered} for {} ({levels}; {playing})",
            settings.game.variant
        )),
        Err(fault) => Err(format!(
            "{fault}; check play.engine (the robot would play its own moves instead)"
        )),
    }
}

fn voice_packs(settings: &Settings) -> Result<String, String> {
    let sounds = &settings.sounds;
    let library = Library::load(&sounds.packs_dir, sounds.overrides_dir.as_deref())
        .map_err(|err| format!("{err}; check sounds.packs_dir and sounds.overrides_dir"))?;
    Ok(format!(
        "{} lines in {} from {}",
        library.lines(sounds.language).len(),
        sounds.language,
        sounds.packs_dir.display()
    ))
}

fn audio(settings: &Settings) -> Result<String, String> {
    let speaker = Speaker::open(settings.sounds.volume);
    match speaker.output() {
        Output::Silent => Err(
            "no audio output opens: the robot's lines would be silent; plug in the speaker \
             (`aplay -l` lists the sound cards) and start again"
                .to_owned(),
        ),
        _ => Ok(format!(
            "the default audio output opens (volume {})",
            settings.sounds.volume
        )),
    }
}
