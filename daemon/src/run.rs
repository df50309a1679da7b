//! `checkerbot run`: the robot on its real devices, as systemd starts it.
//!
//! The board controller and the Dobot are opened by path (udev symlinks survive re-plugging),
//! exclusively, at the configured baud rate; with `devices.arm = "controller"` the board
//! controller drives the arm too, over the board's own link, and the arm is homed first. A board link that is lost is reopened with
//! backoff while the game waits; a lost Dobot is reopened before its next move (the visitor is
//! asked to make a move the arm could not); SIGHUP or a change of the settings file reloads the settings
//! (see [`crate::reload`]); SIGTERM or Ctrl-C lets the arm finish its move, parks it and exits,
//! with the game in the journal for the next start.
//!
//! [`serve`] is the robot on the devices the settings name until a shutdown future resolves;
//! it owns no signals, so a test runs it in-process and stops it when it likes (as
//! mini-redis's `server::run` does). [`run`] is the command: it passes SIGTERM and Ctrl-C.

use std::future::Future;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use anyhow::Context as _;
use checkerbot_config::{ArmKind, Settings};
use emotions::{Millis, Mind};
use futures::future::{self, Either};
use hal::controller::device::ControllerDevice;
use hal::dobot::DobotArm;
use sounds::{Library, Speaker, Voice};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::broadcast;
use tokio_serial::SerialStream;

use crate::devices::{
    ArmSlot, connect_board, connect_controller, connect_dobot, controller_arm_config,
    load_calibration,
};
use crate::notify::Notifier;
use crate::operator::{PageConfig, serve_page};
use crate::robot::{
    ARM_RECONNECT_PATIENCE, EventContext, LoopConfig, Observer, PieceMover, PlannedArm, Reconnect,
    ReopenArm, Robot, ThinkOn, robot_color, start_or_resume,
};
use crate::settings_source::config_path;
use crate::state::{StateDir, Stats};
use host::LogEvent;
use player::Brain;

/// Arguments of `checkerbot run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Settings file (default: /etc/checkerbot/checkerbot.toml when it exists).
    #[arg(long)]
    config: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let path = config_path(args.config.as_deref());
    let settings = checkerbot_config::load(path.as_deref()).context("reading the settings")?;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(async {
            let stats = serve(settings, path, terminated()).await?;
            tracing::info!("stopped after {} games in all", stats.games);
            Ok(())
        })
}

/// Resolves at SIGTERM (systemd's stop) or Ctrl-C, saying which; if the handler cannot be
/// installed, never: the robot then stops only by being killed, as before systemd asks.
async fn terminated() {
    match signal(SignalKind::terminate()) {
        Ok(mut terminate) => tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM: finishing the arm's move and parking"),
            _ = tokio::signal::ctrl_c() => tracing::info!("interrupted: finishing the arm's move and parking"),
        },
        Err(err) => {
            tracing::warn!("cannot listen for SIGTERM ({err}); Ctrl-C still stops the robot");
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("interrupted: finishing the arm's move and parking");
        }
    }
}

/// The game's state as systemd's STATUS line.
struct SystemdStatus(Rc<Notifier>);

impl Observer for SystemdStatus {
    fn event(&mut self, _: Millis, event: &LogEvent, view: EventContext<'_>) -> anyhow::Result<()> {
        match event {
            LogEvent::GameStarted { game, robot, .. } => {
                self.0
                    .status(&format!("game {game} in progress, the robot plays {robot}"));
            }
            LogEvent::GameOver { result, .. } => {
                self.0.status(&format!(
                    "waiting for the board to be set up (last game {result}, {} moves)",
                    view.host.game().moves().len()
                ));
            }
            LogEvent::Fault { device, message } => {
                self.0
                    .status(&format!("fault ({}): {message}", device.as_str()));
            }
            _ => {}
        }
        Ok(())
    }
}

/// Every event as one log line, so the system journal holds what the event log would.
struct JournalLog;

impl Observer for JournalLog {
    fn event(&mut self, now: Millis, event: &LogEvent, _: EventContext<'_>) -> anyhow::Result<()> {
        let json = serde_json::to_string(event)?;
        if matches!(event, LogEvent::Fault { .. }) {
            tracing::warn!(t = now.0, "{json}");
        } else {
            tracing::info!(t = now.0, "{json}");
        }
        Ok(())
    }
}

/// The robot on the devices `settings` name (the state directory, the calibration in it, the
/// board controller and the Dobot) until `shutdown` resolves; then the arm finishes its move
/// and parks, and the counters are returned. `config_file` is the settings file that SIGHUP
/// and the operator page reread and write (`None`: the defaults and the environment only).
pub async fn serve(
    settings: Settings,
    config_file: Option<PathBuf>,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<Stats> {
    let state = StateDir::open(&settings.paths.state_dir)?;
    let devices = settings.devices.clone();
    let calibration = load_calibration(&settings.paths.state_dir)?;
    let (port, baud) = (devices.board_port.clone(), devices.baud);
    match devices.arm {
        ArmKind::Dobot => {
            let dobot = connect_dobot(devices.arm_port.clone(), baud).await?;
            let arm_port = devices.arm_port.clone();
            let reopen: ReopenArm<DobotArm<SerialStream>> =
                Box::new(move || Box::pin(connect_dobot(arm_port.clone(), baud)));
            let arm =
                PlannedArm::new(dobot, calibration).reconnect_with(reopen, ARM_RECONNECT_PATIENCE);
            let board = connect_board(port.clone(), baud).await?;
            let reconnect: Reconnect<ControllerDevice> =
                Box::new(move || Box::pin(connect_board(port.clone(), baud)));
            serve_with(
                settings,
                config_file,
                shutdown,
                state,
                board,
                reconnect,
                arm,
            )
            .await
        }
        ArmKind::Controller => {
            // One port: the board's session carries the arm, and reconnecting the board (the
            // loop does) leaves the arm a new session to take.
            let config = controller_arm_config(&calibration)?;
            let slot = ArmSlot::default();
            let board = connect_controller(port.clone(), baud, slot.clone()).await?;
            let mut reopen = slot.reopen(&config);
            let first = reopen().await.with_context(|| {
                format!("the arm on the board controller at {}", port.display())
            })?;
            let arm = PlannedArm::new(first, calibration)
                .reconnect_with(reopen, ARM_RECONNECT_PATIENCE)
                .planning_with(config.travel_time());
            let reconnect: Reconnect<ControllerDevice> =
                Box::new(move || Box::pin(connect_controller(port.clone(), baud, slot.clone())));
            serve_with(
                settings,
                config_file,
                shutdown,
                state,
                board,
                reconnect,
                arm,
            )
            .await
        }
        ArmKind::Sim => anyhow::bail!(
            "devices.arm = \"sim\": `checkerbot run` drives real devices; the simulator is \
             `checkerbot sim` (or `checkerbot sim-devices` behind pseudo-terminals)"
        ),
    }
}

/// [`serve`] once the devices are open.
async fn serve_with<M: PieceMover>(
    settings: Settings,
    config_file: Option<PathBuf>,
    shutdown: impl Future<Output = ()>,
    state: StateDir,
    board: ControllerDevice,
    reconnect: Reconnect<ControllerDevice>,
    arm: M,
) -> anyhow::Result<Stats> {
    let robot_color = robot_color(settings.game.robot);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let startup = start_or_resume(
        Some(&state),
        settings.game.variant,
        robot_color,
        || Mind::new(settings.emotions.clone(), seed),
        settings.coach,
        Millis(0),
    )?;
    let library = Library::load(
        &settings.sounds.packs_dir,
        settings.sounds.overrides_dir.as_deref(),
    )
    .context("loading the voice packs")?;
    let voice = Voice::new(
        library,
        Speaker::open(settings.sounds.volume),
        &settings.sounds,
        seed,
    );
    let config = LoopConfig::from_settings(&settings, None, usize::MAX, ThinkOn::Worker);
    let mut brain = Brain::new(&settings, seed);
    external_engines::configure(&mut brain, &settings);
    tracing::info!("the robot plays with {}", brain.describe());
    let mut robot = Robot::new(config, startup, board, reconnect, arm, brain, voice);
    robot.keep_state_in(state)?;
    robot.observe(Box::new(JournalLog));
    robot.reload_from(
        crate::reload::watch_settings(config_file.clone(), crate::reload::POLL, true)
            .context("listening for SIGHUP")?,
    );
    if settings.operator.enabled {
        let page = PageConfig {
            bind: settings.operator.bind,
            token: settings.operator.token.clone(),
            hostnames: settings.operator.hostnames.clone(),
            settings_file: config_file,
        };
        let address = serve_page(&mut robot, &settings, page).await?;
        tracing::info!("operator page on http://{address}/");
    }

    let notifier = Rc::new(Notifier::from_env());
    if notifier
        .watchdog_interval()
        .is_some_and(|every| every < Duration::from_millis(500))
    {
        tracing::warn!("the watchdog timeout is shorter than the game loop's tick can serve");
    }
    let pinger = Rc::clone(&notifier);
    robot.on_tick(Box::new(move || pinger.ping()));
    robot.observe(Box::new(SystemdStatus(Rc::clone(&notifier))));
    notifier.ready("waiting for the board to be set up");

    // The loop takes its shutdown as a channel; the caller's future feeds it.
    let (stop, stop_rx) = broadcast::channel(1);
    let running = Box::pin(robot.run(stop_rx));
    let stats = match future::select(running, std::pin::pin!(shutdown)).await {
        Either::Left((stats, _)) => stats?,
        Either::Right(((), running)) => {
            let _ = stop.send(());
            running.await?
        }
    };
    notifier.stopping();
    Ok(stats)
}
