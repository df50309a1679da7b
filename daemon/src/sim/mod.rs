//! `checkerbot sim`: the whole robot against simulated hardware and a simulated visitor.
//!
//! The robot's loop runs exactly as on the robot. The board controller is `hal`'s simulator
//! (Hall sensors, button, eyes, brows, neck) and the robot talks to it through the real
//! controller protocol (framing, CRC, acknowledgements, heartbeats) over an in-memory byte
//! stream, or a pseudo-terminal with `--link pty`, damaged on purpose with `--faults`. The
//! simulated arm moves the magnets on that board (a failed pick leaves the piece where it
//! was); the simulated people set the board up, play the visitor's moves and press the button.
//!
//! `--fast` runs on tokio's paused clock: time jumps ahead whenever every task waits, so a game
//! takes as long as its computation, and the same seed replays the same run. Without it, or
//! over pseudo-terminals (whose bytes cross the kernel, outside the runtime's clock), the clock
//! is real.

#[cfg(test)]
mod calibration_wizard_tests;
pub mod controller_rig;
pub mod devices;
pub mod dobot_rig;
mod over_ptys;
mod people;
pub mod pty_cable;
mod screen;
mod visitor;
mod world;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use checkerbot_config::PlayLevel;
use emotions::{Millis, Mind};
use hal::controller::device::{ControllerDevice, DeviceConfig};
use hal::controller::link::{LinkConfig, connect};
use hal::controller::peer::PeerConfig;
use hal::sim::board::{SimBoardHandle, sim_board};
use hal::sim::faulty_io::{ByteFaults, FaultyIo};
use rules::Variant;
use sounds::{Language, Library, Speaker, Voice};
use tokio::sync::{broadcast, mpsc};

use crate::devices::ArmSlot;
use crate::operator::{PageConfig, serve_page};
use crate::robot::{
    EventLog, LoopConfig, PieceMover, Reconnect, Robot, Startup, ThinkOn, occupancy_map,
    robot_color, start_or_resume,
};
use crate::state::{StateDir, Stats};
use host::RobotColor;
use people::Pace;
use player::Brain;
use player::rng::SplitMix;
use screen::Screen;
use visitor::{Visitor, VisitorKind};
use world::PhysicalBoard;
/// Arguments of `checkerbot sim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Who plays against the robot: engine, random, stdin or script:PATH.
    #[arg(long, default_value = "engine")]
    visitor: VisitorKind,
    /// Games to play; 0 plays on until stopped (Ctrl-C), for watching on the operator page.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Seed for every random choice; the same seed replays the same run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No pauses: run as fast as possible.
    #[arg(long)]
    fast: bool,
    /// Probability per turn that the visitor first does something wrong.
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    mistakes: f64,
    /// Probability per turn that the visitor first asks for a hint (a long press of the
    /// button), and then for the second step of it.
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    hints: f64,
    /// Probability that the visitor accepts a take-back the robot offers after a blunder (puts
    /// the pieces back and tries another move); otherwise they press the button to go on.
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    takebacks: f64,
    /// Probability per arm move of a fault (a failed pick).
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    faults: f64,
    /// Write the JSON-lines event log to this file (`-` for stdout).
    #[arg(long)]
    events: Option<PathBuf>,
    /// Settings file (default: built-in defaults; `CHECKERBOT_*` variables apply either way).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The robot's colour: white, black, or alternate (the visitor moves first in game 1);
    /// overrides `game.robot`.
    #[arg(long, value_parser = parse_robot_color)]
    robot: Option<RobotColor>,
    /// Language of the robot's voice: en, ru or uk; overrides `sounds.language`.
    #[arg(long)]
    language: Option<Language>,
    /// Variant to play; overrides `game.variant`.
    #[arg(long)]
    variant: Option<Variant>,
    /// `play` (games) or `puzzle` (the robot sets up combinations for the visitor to solve);
    /// overrides `game.mode`.
    #[arg(long, value_parser = parse_mode)]
    mode: Option<checkerbot_config::GameMode>,
    /// Playing level, 1 (gentle) to 5 (strongest) or `adaptive`; overrides `play.level`.
    #[arg(long)]
    level: Option<PlayLevel>,
    /// Keep the game journal, the PDN archive and the counters in this folder, and resume an
    /// unfinished game found there (default: keep nothing).
    #[arg(long)]
    state: Option<PathBuf>,
    /// Longest game in plies before the simulation calls it a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Serve the operator page on this address (such as 127.0.0.1:8080; port 0 picks a free
    /// one); control actions need `operator.token` from the settings when one is set.
    #[arg(long, value_name = "ADDR")]
    operator: Option<std::net::SocketAddr>,
    /// How the robot reaches the simulated devices: `memory` (in-memory byte streams) or `pty`
    /// (pseudo-terminals it opens by path with the serial port code of `run`). Over ptys the
    /// clock is real even with --fast, so a seed replays the moves but not every timing.
    #[arg(long, value_enum, default_value = "memory")]
    link: Link,
    /// Slots in the rack beside the simulated board (default: a row per file's width, half as
    /// many rows as the board has, room for every piece); 0: no rack, captured pieces go to
    /// the trophy bin. With `game.reset_board` on, a small rack leaves the robot short of
    /// pieces to set the board up with.
    #[arg(long, value_name = "N")]
    rack_slots: Option<usize>,
    /// The newest controller-protocol version the simulated board speaks: 2 has a light under
    /// every square, 1 is a board from before lights (the robot plays on without them).
    #[arg(long, default_value_t = hal::controller::NEWEST_VERSION,
          value_parser = clap::value_parser!(u8).range(1..=2))]
    board_protocol: u8,
    /// Which arm moves the pieces: `dobot` (a virtual Dobot Magician on its own link) or
    /// `controller` (the reference robot's arm, driven by the board controller over the
    /// board's own link).
    #[arg(long, value_enum, default_value = "dobot")]
    arm: SimArm,
}

/// Which simulated arm moves the pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SimArm {
    /// A virtual Dobot Magician.
    Dobot,
    /// The board controller's own arm.
    Controller,
}

/// How the robot reaches the simulated devices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Link {
    /// In-memory byte streams: the clock can be paused, so `--fast` runs replay exactly.
    Memory,
    /// Pseudo-terminals, opened by path as real serial ports are.
    Pty,
}

fn parse_robot_color(text: &str) -> Result<RobotColor, String> {
    match text {
        "alternate" => Ok(RobotColor::Alternate),
        _ => rules::Color::from_char(text.chars().next().unwrap_or(' '))
            .filter(|c| c.name() == text)
            .map(RobotColor::Fixed)
            .ok_or_else(|| format!("{text:?}: expected white, black or alternate")),
    }
}

fn parse_mode(text: &str) -> Result<checkerbot_config::GameMode, String> {
    match text {
        "play" => Ok(checkerbot_config::GameMode::Play),
        "puzzle" => Ok(checkerbot_config::GameMode::Puzzle),
        _ => Err(format!("{text:?}: expected play or puzzle")),
    }
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?}: expected a probability from 0 to 1")),
    }
}

/// What the command line sets over the settings file and environment.
#[derive(Debug, Clone, Copy)]
struct Overrides {
    variant: Option<Variant>,
    level: Option<PlayLevel>,
    language: Option<Language>,
    mode: Option<checkerbot_config::GameMode>,
}

impl Overrides {
    fn of(args: &Args) -> Overrides {
        Overrides {
            variant: args.variant,
            level: args.level,
            language: args.language,
            mode: args.mode,
        }
    }

    fn apply(self, settings: &mut checkerbot_config::Settings) {
        if let Some(variant) = self.variant {
            settings.game.variant = variant;
        }
        if let Some(level) = self.level {
            settings.play.level = level;
        }
        if let Some(language) = self.language {
            settings.sounds.language = language;
        }
        if let Some(mode) = self.mode {
            settings.game.mode = mode;
        }
    }
}

/// Reloaded settings, as on the robot (SIGHUP or an edit of the `--config` file), with the
/// command line's overrides applied again. Only a watched run reloads: a `--fast` run must
/// replay exactly from its seed.
fn reloads(
    args: &Args,
) -> anyhow::Result<Option<mpsc::UnboundedReceiver<checkerbot_config::Settings>>> {
    if args.fast || args.config.is_none() {
        return Ok(None);
    }
    let mut read = crate::reload::watch_settings(args.config.clone(), crate::reload::POLL, true)
        .context("listening for SIGHUP")?;
    let (sender, reloads) = mpsc::unbounded_channel();
    let overrides = Overrides::of(args);
    tokio::spawn(async move {
        while let Some(mut settings) = read.recv().await {
            overrides.apply(&mut settings);
            if sender.send(settings).is_err() {
                break;
            }
        }
    });
    Ok(Some(reloads))
}

/// The settings file and environment, with the command line's overrides applied.
fn resolve_settings(args: &Args) -> anyhow::Result<(checkerbot_config::Settings, RobotColor)> {
    let mut settings =
        checkerbot_config::load(args.config.as_deref()).context("reading the settings")?;
    Overrides::of(args).apply(&mut settings);
    let robot = args.robot.unwrap_or(robot_color(settings.game.robot));
    Ok((settings, robot))
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(paused_clock(args))
        .build()
        .context("starting the async runtime")?;
    let started = Instant::now();
    let (stats, mut summary) = runtime.block_on(simulate(args))?;
    summary.line(&format!(
        "{} games: robot {} wins, visitor {} wins, {} draws, {} unfinished; {} visitor mistakes answered, {} board mismatches, {} faults; {} plies in {:.1} s",
        stats.games + stats.unfinished,
        stats.robot_wins,
        stats.visitor_wins,
        stats.draws,
        stats.unfinished,
        stats.mistakes_total(),
        stats.board_mismatches,
        stats.faults,
        stats.plies,
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Where the human-readable view goes: stdout, or stderr when stdout carries the event log.
fn screen_output(args: &Args) -> Box<dyn Write> {
    if args.events.as_deref() == Some(std::path::Path::new("-")) {
        Box::new(io::stderr())
    } else {
        Box::new(io::stdout())
    }
}

/// Connects to the simulated board controller through the controller protocol over a new
/// in-memory byte stream, serving the same board there (as after a cable was plugged back in).
/// `faults` damages bytes in both directions; the protocol must cope. With an arm `slot`, the
/// arm's half of the session is left there, and the link also hangs up now and then, as a
/// cable pulled mid-move (the Dobot's own link does that for a Dobot).
async fn connect_sim_board(
    board: SimBoardHandle,
    faults: f64,
    seeds: (u64, u64),
    slot: Option<ArmSlot>,
) -> anyhow::Result<ControllerDevice> {
    let (host_io, controller_io) = tokio::io::duplex(4096);
    let byte_fault = faults / 200.0;
    let faults = |seed| ByteFaults {
        seed,
        drop: byte_fault,
        corrupt: byte_fault,
    };
    let controller = board.serve(
        FaultyIo::new(controller_io, faults(seeds.0)),
        PeerConfig::default(),
    );
    tokio::spawn(async move {
        let ended = controller.run().await;
        tracing::debug!("the simulated board controller stopped serving: {ended:?}");
    });
    let mut host_io = FaultyIo::new(host_io, faults(seeds.1));
    if slot.is_some() && byte_fault > 0.0 {
        // Exponentially distributed, so a hang-up is as likely at any byte.
        let mean = CONTROLLER_BYTES_BETWEEN_HANG_UPS / (byte_fault * 200.0);
        let mut draw = SplitMix::new(seeds.0 ^ seeds.1);
        host_io = host_io.hang_up_after(draw.exponential(mean) as u64);
    }
    let connection = connect(host_io, LinkConfig::default())
        .await
        .context("connecting to the simulated board controller")?;
    let (device, link) = match &slot {
        Some(slot) => crate::devices::split_session(connection, slot),
        None => ControllerDevice::new(connection, DeviceConfig::default()),
    };
    tokio::spawn(async move {
        if let Err(err) = link.run().await {
            tracing::debug!("the simulated board controller's link ended: {err}");
        }
    });
    Ok(device)
}

/// Bytes read on the board controller's link, on average, between two hang-ups at `--faults 1`
/// when the arm shares it: a few robot moves' worth of joint targets, heartbeats and scans.
const CONTROLLER_BYTES_BETWEEN_HANG_UPS: f64 = 60_000.0;

/// The longest the robot may show no change while simulated people play it: they act within
/// seconds (their patience is 30 s), so this is a stuck game, however much simulated time a
/// paused clock lets pass in a moment.
const NO_PROGRESS: Duration = Duration::from_hours(1);

/// Simulated people always do something soon: a robot that shows no change for
/// [`NO_PROGRESS`] is stuck, and the run ends with an error instead of spinning. Not for a
/// person at the terminal or a script, who may take as long as they like.
fn watchdog(
    visitor: &VisitorKind,
    state: tokio::sync::watch::Receiver<crate::robot::VisibleState>,
    shutdown: &broadcast::Sender<()>,
) -> Option<tokio::task::JoinHandle<Option<String>>> {
    matches!(visitor, VisitorKind::Engine | VisitorKind::Random)
        .then(|| tokio::spawn(watch_progress(state, shutdown.clone(), NO_PROGRESS)))
}

/// What the watchdog found the robot stuck on, once the robot's run ended.
async fn stalled(watchdog: Option<tokio::task::JoinHandle<Option<String>>>) -> Option<String> {
    let watchdog = watchdog?;
    watchdog.abort();
    watchdog.await.ok().flatten()
}

/// Watches the robot's visible state until the robot ends (`None`), or until it has not
/// changed for `limit`: then stops the run with `shutdown` and returns what it was stuck on.
async fn watch_progress(
    mut state: tokio::sync::watch::Receiver<crate::robot::VisibleState>,
    shutdown: broadcast::Sender<()>,
    limit: Duration,
) -> Option<String> {
    loop {
        match tokio::time::timeout(limit, state.changed()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return None,
            Err(_) => {
                let stuck = state.borrow();
                let message = format!(
                    "the simulation stopped: the robot showed no change for {} min of \
                     simulated time, waiting for {:?} in {} (a stuck game; the event log's \
                     last faults say what went wrong)",
                    limit.as_secs() / 60,
                    stuck.waiting,
                    rules::fen::write(&stuck.position),
                );
                drop(stuck);
                let _ = shutdown.send(());
                return Some(message);
            }
        }
    }
}

/// An empty simulated board, speaking the controller protocol up to `protocol`, whose
/// controller is served on a fresh stream for every connection ([`SimBoardHandle::serve`]);
/// the session `sim_board` starts with goes to a stream nobody uses.
fn unserved_board(variant: Variant, protocol: u8) -> SimBoardHandle {
    let empty = occupancy_map::to_occupancy(variant.geometry(), rules::Bitboard::EMPTY);
    let (unused, _) = tokio::io::duplex(1);
    let (board, _) = sim_board(unused, empty, PeerConfig::default());
    board.set_newest_version(protocol);
    board
}

/// The simulated board controller (its first session) and a way to connect to it again.
async fn sim_board_with_reconnect(
    board: SimBoardHandle,
    faults: f64,
    slot: Option<ArmSlot>,
    rng: &mut SplitMix,
) -> anyhow::Result<(ControllerDevice, Reconnect<ControllerDevice>)> {
    let seeds = (rng.next_u64(), rng.next_u64());
    let device = connect_sim_board(board.clone(), faults, seeds, slot.clone()).await?;
    let mut seeds = SplitMix::new(rng.next_u64());
    let reconnect: Reconnect<ControllerDevice> = Box::new(move || {
        let board = board.clone();
        let pair = (seeds.next_u64(), seeds.next_u64());
        Box::pin(connect_sim_board(board, faults, pair, slot.clone()))
    });
    Ok((device, reconnect))
}

/// The robot's voice: through the sound card when there is one and someone watches, silent in
/// a fast run. Either way every line goes to the screen and the event log.
fn voice(settings: &checkerbot_config::Settings, fast: bool, seed: u64) -> anyhow::Result<Voice> {
    let speaker = if fast {
        Speaker::silent()
    } else {
        Speaker::open(settings.sounds.volume)
    };
    let library = Library::load(
        &settings.sounds.packs_dir,
        settings.sounds.overrides_dir.as_deref(),
    )
    .context("loading the voice packs")?;
    Ok(Voice::new(library, speaker, &settings.sounds, seed))
}

/// Whether the run is on tokio's paused clock: `--fast` over in-memory links. Pseudo-terminals
/// carry bytes outside the runtime, so a run over them keeps the real clock.
fn paused_clock(args: &Args) -> bool {
    args.fast && args.link == Link::Memory
}

/// How long the simulated people take: lifelike in a watched run, longer (and free) on the
/// paused clock, so that idle moods and lines have time to show in the log, and brisk in a
/// fast run on the real clock.
fn pace(args: &Args) -> Pace {
    if paused_clock(args) {
        Pace {
            setup: Duration::from_secs(20),
            visitor_move: Duration::from_secs(5),
            board_fix: Duration::from_secs(5),
            patience: Duration::from_secs(30),
        }
    } else if args.fast {
        Pace {
            setup: Duration::from_millis(200),
            visitor_move: Duration::from_millis(50),
            board_fix: Duration::from_millis(200),
            patience: Duration::from_secs(30),
        }
    } else {
        Pace {
            setup: Duration::from_secs(1),
            visitor_move: Duration::from_millis(800),
            board_fix: Duration::from_secs(2),
            patience: Duration::from_secs(30),
        }
    }
}

/// Builds the simulated devices and people, runs the robot against them, and returns its
/// counters and a screen for the summary.
async fn simulate(args: &Args) -> anyhow::Result<(Stats, Screen)> {
    let (settings, robot_color) = resolve_settings(args)?;
    let variant = settings.game.variant;
    let mut rng = SplitMix::new(args.seed);
    let state = args.state.as_deref().map(StateDir::open).transpose()?;
    let mind_seed = rng.next_u64();
    let startup = start_or_resume(
        state.as_ref(),
        variant,
        robot_color,
        || Mind::new(settings.emotions.clone(), mind_seed),
        settings.coach,
        Millis(0),
    )?;
    // A visitor asks for hints only where the robot gives them: a long press is an ordinary
    // press otherwise, and the visitor would take its refusal for a turn of its own.
    let hints = if settings.coach.enabled && settings.coach.hints_per_game > 0 {
        args.hints
    } else {
        0.0
    };
    let visitor = Visitor::new(args.visitor.clone(), rng.next_u64(), args.mistakes)?
        .coached(hints, args.takebacks);
    let mut setup = PreparedSim {
        args,
        settings,
        startup,
        state,
        visitor,
        rng,
    };
    match args.link {
        Link::Memory => {
            let board = unserved_board(variant, args.board_protocol);
            // Watched, the arm moves three times faster than a real one so a whole game fits
            // in a few minutes; a fast run keeps real arm timing (it costs nothing on the
            // paused clock).
            let speedup = if args.fast { 1.0 } else { 3.0 };
            if args.arm == SimArm::Controller {
                return Box::pin(setup.play_with_controller_arm(board, f64::from(speedup))).await;
            }
            let (device, reconnect) =
                sim_board_with_reconnect(board.clone(), args.faults, None, &mut setup.rng).await?;
            let arm = dobot_rig::connect_sim_arm(
                board.clone(),
                variant,
                args.faults,
                speedup,
                args.rack_slots,
                &mut setup.rng,
            )
            .await?;
            Box::pin(setup.play(board, device, reconnect, arm)).await
        }
        Link::Pty => {
            // With a state directory the links live in it (a killed run leaves nothing
            // elsewhere); without one in a temporary folder.
            let (links, _temporary) = if let Some(state) = &args.state {
                (state.join("ptys"), None)
            } else {
                let folder = tempfile::Builder::new()
                    .prefix("checkerbot-sim-")
                    .tempdir()
                    .context("making a folder for the pseudo-terminals' links")?;
                (folder.path().to_owned(), Some(folder))
            };
            std::fs::create_dir_all(&links)
                .with_context(|| format!("making {}", links.display()))?;
            // On the real clock: a fast run moves the arm 30 times faster than a Magician.
            let speedup = if args.fast { 30.0 } else { 3.0 };
            let baud = setup.settings.devices.baud;
            if args.arm == SimArm::Controller {
                return Box::pin(setup.play_over_pty_with_controller_arm(&links, speedup, baud))
                    .await;
            }
            let (board, device, reconnect, arm) = over_ptys::connect(
                &links,
                variant,
                args.board_protocol,
                args.faults,
                speedup,
                baud,
                args.rack_slots,
                &mut setup.rng,
            )
            .await?;
            eprintln!(
                "simulated devices on pseudo-terminals: {}/board and {}/arm",
                links.display(),
                links.display()
            );
            Box::pin(setup.play(board, device, reconnect, arm)).await
        }
    }
}

/// What a simulation has before its devices are connected.
struct PreparedSim<'a> {
    args: &'a Args,
    settings: checkerbot_config::Settings,
    startup: Startup,
    state: Option<StateDir>,
    visitor: Visitor,
    rng: SplitMix,
}

impl PreparedSim<'_> {
    /// `--arm controller` over in-memory links: the board gains the arm, and the robot drives
    /// it through the board's session.
    async fn play_with_controller_arm(
        mut self,
        board: SimBoardHandle,
        speedup: f64,
    ) -> anyhow::Result<(Stats, Screen)> {
        let args = self.args;
        let variant = self.settings.game.variant;
        let (runner, calibration, config) = controller_rig::add_arm(
            &board,
            variant,
            args.faults,
            speedup,
            args.rack_slots,
            &mut self.rng,
        )?;
        tokio::spawn(runner);
        let slot = ArmSlot::default();
        let (device, reconnect) = sim_board_with_reconnect(
            board.clone(),
            args.faults,
            Some(slot.clone()),
            &mut self.rng,
        )
        .await?;
        let arm = controller_rig::connect_arm(&slot, calibration, &config).await?;
        Box::pin(self.play(board, device, reconnect, arm)).await
    }

    /// `--arm controller --link pty`: the board controller with its arm behind one
    /// pseudo-terminal linked from `links`.
    async fn play_over_pty_with_controller_arm(
        mut self,
        links: &std::path::Path,
        speedup: f32,
        baud: u32,
    ) -> anyhow::Result<(Stats, Screen)> {
        let args = self.args;
        let (board, device, reconnect, arm) = over_ptys::connect_controller(
            links,
            self.settings.game.variant,
            args.board_protocol,
            args.faults,
            f64::from(speedup),
            baud,
            args.rack_slots,
            &mut self.rng,
        )
        .await?;
        eprintln!(
            "simulated devices on a pseudo-terminal: {}/board (the arm on the board controller)",
            links.display()
        );
        Box::pin(self.play(board, device, reconnect, arm)).await
    }

    /// Runs the robot with these devices against the simulated people.
    async fn play<M: PieceMover>(
        mut self,
        board: SimBoardHandle,
        device: ControllerDevice,
        reconnect: Reconnect<ControllerDevice>,
        arm: M,
    ) -> anyhow::Result<(Stats, Screen)> {
        let (args, settings) = (self.args, &self.settings);
        let mut world = PhysicalBoard::new(board.clone(), settings.game.variant);
        if let Some(snapshot) = self.startup.host.snapshot() {
            // The board as the crash left it: a robot's move the arm had not finished is not
            // on it.
            let positions = self.startup.host.game().positions();
            let standing = if snapshot.arm_pending {
                positions[positions.len() - 2]
            } else {
                positions[positions.len() - 1]
            };
            world.set(&standing);
        }
        let voice = voice(settings, args.fast, self.rng.next_u64())?;
        let think_on = if paused_clock(args) {
            ThinkOn::LoopThread
        } else {
            ThinkOn::Worker
        };
        let games = (args.games > 0).then_some(args.games);
        let config = LoopConfig::from_settings(settings, games, args.max_plies, think_on);
        let mut brain = Brain::new(settings, self.rng.next_u64());
        if think_on == ThinkOn::LoopThread {
            // On the paused clock the games replay exactly from the seed: one search thread.
            brain = brain.on_one_thread();
        }
        external_engines::configure(&mut brain, settings);
        let plays = brain.describe();
        let mut robot = Robot::new(config, self.startup, device, reconnect, arm, brain, voice);
        if let Some(state) = self.state {
            robot.keep_state_in(state)?;
        }
        if let Some(reloads) = reloads(args)? {
            robot.reload_from(reloads);
        }
        let rack_board = board.clone();
        let mut screen = Screen::new(
            screen_output(args),
            !args.fast,
            settings.emotions.face.clone(),
        )
        .with_rack(Box::new(move || rack_board.rack()));
        screen.line(&format!("the robot plays with {plays}"));
        robot.observe(Box::new(screen));
        if let Some(path) = &args.events {
            let out: Box<dyn Write> = if path.as_os_str() == "-" {
                Box::new(io::stdout())
            } else {
                Box::new(BufWriter::new(
                    File::create(path).with_context(|| format!("creating {}", path.display()))?,
                ))
            };
            robot.observe(Box::new(EventLog::new(out)));
        }
        if let Some(bind) = args.operator {
            let page = PageConfig {
                bind,
                token: settings.operator.token.clone(),
                hostnames: settings.operator.hostnames.clone(),
                settings_file: args.config.clone(),
            };
            let address = serve_page(&mut robot, settings, page).await?;
            eprintln!("operator page on http://{address}/");
        }

        let (shutdown, shutdown_rx) = broadcast::channel(1);
        let watchdog = watchdog(&args.visitor, robot.visible_state(), &shutdown);
        let arm_board = board.clone();
        let people = tokio::spawn(people::act(
            robot.visible_state(),
            world,
            board,
            self.visitor,
            pace(args),
            shutdown.clone(),
        ));
        let mut stats = Box::pin(robot.run(shutdown_rx)).await?;
        if let Some(stalled) = stalled(watchdog).await {
            people.abort();
            anyhow::bail!(stalled);
        }
        // The people finish when the robot's visible state closes; a script error surfaces here.
        if people.await.context("the simulated people failed")?? {
            stats.unfinished += 1;
        }
        let mut summary = Screen::new(screen_output(args), false, self.settings.emotions.face);
        if args.arm == SimArm::Controller {
            let arm = arm_board.arm_stats();
            summary.line(&format!(
                "controller arm: {} motions, {} picks ({} failed), {} stalls, {} late MotionDones, \
                 {} pieces lost, {} collisions",
                arm.motions,
                arm.picks,
                arm.failed_picks,
                arm.stalls,
                arm.late_dones,
                arm.pieces_lost,
                arm.collisions
            ));
        }
        Ok((stats, summary))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::VisibleState;

    fn state() -> VisibleState {
        let position = rules::Position::new(Variant::Russian);
        VisibleState {
            waiting: host::Waiting::Robot,
            position,
            scan: None,
            set_up: position,
            stock: None,
            serial: 0,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_robot_that_shows_no_change_for_long_is_stopped_naming_what_it_waited_for() {
        let (publish, watched) = tokio::sync::watch::channel(state());
        let (shutdown, mut stopped) = broadcast::channel(1);
        let limit = Duration::from_mins(1);
        let watchdog = tokio::spawn(watch_progress(watched, shutdown, limit));
        // Changes in time keep it quiet.
        for serial in 1..=5 {
            tokio::time::sleep(limit / 2).await;
            publish.send_modify(|state| state.serial = serial);
        }
        assert!(stopped.try_recv().is_err());
        let started = tokio::time::Instant::now();
        let stalled = watchdog.await.unwrap().expect("stopped");
        assert_eq!(started.elapsed(), limit);
        assert!(stopped.try_recv().is_ok(), "the run is shut down");
        assert!(stalled.contains("no change for 1 min"), "{stalled}");
        assert!(stalled.contains("waiting for Robot"), "{stalled}");
        // A robot that ends is not stuck.
        let (publish, watched) = tokio::sync::watch::channel(state());
        let (shutdown, _stopped) = broadcast::channel(1);
        let watchdog = tokio::spawn(watch_progress(watched, shutdown, limit));
        drop(publish);
        assert_eq!(watchdog.await.unwrap(), None);
    }
}
