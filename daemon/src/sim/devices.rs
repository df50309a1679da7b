//! `checkerbot sim-devices`: the simulated board controller and the virtual Dobot served on
//! pseudo-terminals, each reachable by a stable symlink, so the commands that open real serial
//! ports (`run`, `doctor`, `calibrate`) can be tried at a desk and tested end to end. With
//! `--arm controller` the board controller drives its own arm instead (the reference robot's,
//! `devices.arm = "controller"`), and there is no Dobot.
//!
//! The people's hands are typed on stdin, one action a line (`setup`, `clear`, `lift c3`,
//! `place d4`, `move c3 d4`, `press`, `hold` (a long press), `wait 200`, `show`: the pieces, `arm`: the tool's
//! position); each is answered on stdout. The
//! virtual Dobot moves the pieces of the same simulated board, and `--calibration` writes the
//! calibration matching where that board lies.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use hal::controller::peer::PeerConfig;
use hal::device::ButtonId;
use hal::sim::board::sim_board;
use rules::{Bitboard, Position, Variant};

use super::pty_cable::Pty;
use super::visitor::{Action, stdin_lines};
use super::world::PhysicalBoard;
use super::{controller_rig, dobot_rig};
use crate::robot::occupancy_map;
use player::rng::SplitMix;

/// Arguments of `checkerbot sim-devices`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to put the symlink to the board controller's pseudo-terminal
    /// (`devices.board_port`).
    #[arg(long)]
    board_link: PathBuf,
    /// Where to put the symlink to the Dobot's pseudo-terminal (`devices.arm_port`); needed
    /// with `--arm dobot`.
    #[arg(long)]
    arm_link: Option<PathBuf>,
    /// Write the calibration that matches the simulated board here (calibration.toml in the
    /// state directory of the settings `run` reads).
    #[arg(long)]
    calibration: Option<PathBuf>,
    /// Variant whose board to simulate.
    #[arg(long, default_value = "russian")]
    variant: Variant,
    /// The newest controller-protocol version the simulated board speaks: 2 has a light under
    /// every square, 1 is a board from before lights.
    #[arg(long, default_value_t = hal::controller::NEWEST_VERSION,
          value_parser = clap::value_parser!(u8).range(1..=2))]
    board_protocol: u8,
    /// Which arm moves the pieces: `dobot` (the virtual Dobot on `--arm-link`) or `controller`
    /// (the board controller's own arm, the reference robot's, over the board's link).
    #[arg(long, value_enum, default_value = "dobot")]
    arm: DeviceArm,
}

/// Which simulated arm is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DeviceArm {
    /// The virtual Dobot, on its own pseudo-terminal.
    Dobot,
    /// The board controller's own arm.
    Controller,
}

/// The served arm, for the `arm` action.
enum ServedArm {
    Dobot(hal::sim::dobot::VirtualDobot),
    Controller(hal::sim::board::SimBoardHandle),
}

impl ServedArm {
    fn report(&self) -> String {
        let (pose, holding) = match self {
            ServedArm::Dobot(dobot) => (Some(dobot.pose()), dobot.holding()),
            ServedArm::Controller(board) => (board.arm_tip(), board.arm_holding()),
        };
        let holding = if holding { "a piece" } else { "nothing" };
        match pose {
            Some(pose) => format!(
                "arm at {} holding {holding}",
                hal::arm::Point::from_pose(pose)
            ),
            None => "error: no arm".to_owned(),
        }
    }
}

/// Runs the command until stdin ends and Ctrl-C, or until killed.
pub fn run(args: &Args) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(serve(args))
}

async fn serve(args: &Args) -> anyhow::Result<()> {
    let variant = args.variant;
    let empty = occupancy_map::to_occupancy(variant.geometry(), Bitboard::EMPTY);
    let board_pty = Pty::open(&args.board_link)?;
    let (board, controller) = sim_board(board_pty.served, empty, PeerConfig::default());
    board.set_newest_version(args.board_protocol);
    let mut rng = SplitMix::new(1);
    // The Dobot's pseudo-terminal lives as long as the devices are served.
    let (arm, calibration, ready, _held) = match args.arm {
        DeviceArm::Dobot => {
            let arm_link = args
                .arm_link
                .as_ref()
                .context("--arm-link is needed for the virtual Dobot (or --arm controller)")?;
            let Pty {
                served,
                device: held,
                name,
            } = Pty::open(arm_link)?;
            let (dobot, calibration) =
                dobot_rig::virtual_dobot(board.clone(), variant, 0.0, &mut rng)?;
            tokio::spawn(dobot.serve(served).run());
            let ready = format!(
                "ready: board controller on {} ({}), Dobot on {} ({})",
                args.board_link.display(),
                board_pty.name,
                arm_link.display(),
                name
            );
            (ServedArm::Dobot(dobot), calibration, ready, Some(held))
        }
        DeviceArm::Controller => {
            let (runner, calibration, _) =
                controller_rig::add_arm(&board, variant, 0.0, 1.0, None, &mut rng)?;
            tokio::spawn(runner);
            let ready = format!(
                "ready: board controller with its arm on {} ({}); set devices.arm = \"controller\"",
                args.board_link.display(),
                board_pty.name,
            );
            (
                ServedArm::Controller(board.clone()),
                calibration,
                ready,
                None,
            )
        }
    };
    // The board controller serves once its arm is in: the handshake offers it.
    tokio::spawn(controller.run());
    if let Some(path) = &args.calibration {
        crate::calibrate::save_calibration(path, &calibration.to_toml())?;
    }
    let mut world = PhysicalBoard::new(board.clone(), variant);
    let mut out = std::io::stdout();
    writeln!(out, "{ready}")?;
    out.flush()?;

    let mut lines = stdin_lines();
    while let Some(line) = lines.recv().await {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let answer = match line {
            "setup" => {
                world.set(&Position::new(variant));
                "ok".to_owned()
            }
            "clear" => {
                world.set_squares(Bitboard::EMPTY);
                "ok".to_owned()
            }
            "show" => {
                let squares: Vec<String> = world
                    .occupancy()
                    .into_iter()
                    .map(|sq| rules::notation::square_name(variant, sq))
                    .collect();
                format!("pieces on {}", squares.join(" "))
            }
            "arm" => arm.report(),
            _ => match Action::parse(variant, None, line) {
                Ok(action) => {
                    if action.act(&mut world, &board).await {
                        board.press(ButtonId::CONFIRM);
                    }
                    "ok".to_owned()
                }
                Err(err) => format!("error: {err:#} (or setup, clear, show, arm)"),
            },
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    // Input ended: keep serving until interrupted, so the devices can run in the background.
    tokio::signal::ctrl_c()
        .await
        .context("waiting for Ctrl-C")?;
    Ok(())
}
