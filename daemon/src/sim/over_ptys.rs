//! `sim --link pty`: the simulated board controller and the virtual Dobot behind
//! pseudo-terminals, opened by the robot exactly as `run` opens the real ones (by path,
//! exclusively, at the configured baud rate, reopened by path when lost); or, with
//! `--arm controller`, the board controller with its own arm behind one pseudo-terminal.

use std::path::{Path, PathBuf};

use hal::controller::device::ControllerDevice;
use hal::controller::peer::PeerConfig;
use hal::dobot::DobotArm;
use hal::sim::board::SimBoardHandle;
use rules::Variant;
use tokio_serial::SerialStream;

use super::controller_rig::{self, SimControllerArm};
use super::dobot_rig::{self, BYTES_BETWEEN_HANG_UPS};
use super::pty_cable::{CableFaults, plug_in};
use crate::devices::{self, ArmSlot, connect_board, connect_dobot_with};
use crate::robot::{ARM_RECONNECT_PATIENCE, PlannedArm, Reconnect, ReopenArm};
use player::rng::SplitMix;

/// The arm as `run` drives it.
pub type PtyArm = PlannedArm<DobotArm<SerialStream>>;

/// The simulated devices on pseudo-terminals linked from `dir` (`board` and `arm`), and the
/// robot's ends of them. `faults` damages bytes on both cables and pulls the arm's now and
/// then, as in the in-memory simulation; the arm's rack has `rack_slots` slots
/// ([`dobot_rig::layout_with_rack`]).
#[expect(
    clippy::too_many_arguments,
    reason = "each is one of sim's options, passed on as given"
)]
pub async fn connect(
    dir: &Path,
    variant: Variant,
    board_protocol: u8,
    faults: f64,
    speedup: f32,
    baud: u32,
    rack_slots: Option<usize>,
    rng: &mut SplitMix,
) -> anyhow::Result<(
    SimBoardHandle,
    ControllerDevice,
    Reconnect<ControllerDevice>,
    PtyArm,
)> {
    let board = super::unserved_board(variant, board_protocol);
    let cable = CableFaults {
        byte: faults / 200.0,
        ..CableFaults::NONE
    };
    let board_link = plug_in_board(&board, dir, cable, rng)?;
    let device = connect_board(board_link.clone(), baud).await?;
    let reconnect: Reconnect<ControllerDevice> =
        Box::new(move || Box::pin(connect_board(board_link.clone(), baud)));

    let (dobot, calibration) =
        dobot_rig::virtual_dobot_with_rack(board.clone(), variant, faults, rack_slots, rng)?;
    let arm_link = dir.join("arm");
    plug_in(
        arm_link.clone(),
        move |io| {
            tokio::spawn(dobot.serve(io).run());
        },
        CableFaults {
            byte: faults / 400.0,
            bytes_between_hang_ups: (faults > 0.0).then(|| BYTES_BETWEEN_HANG_UPS / faults),
        },
        rng.next_u64(),
    )?;
    let config = dobot_rig::driver_config(speedup);
    let mut reopen: ReopenArm<DobotArm<SerialStream>> =
        Box::new(move || Box::pin(connect_dobot_with(arm_link.clone(), baud, config)));
    let dobot = dobot_rig::first_connection(&mut reopen).await?;
    let arm = PlannedArm::new(dobot, calibration).reconnect_with(reopen, ARM_RECONNECT_PATIENCE);
    Ok((board, device, reconnect, arm))
}

/// The board controller with its own arm on a pseudo-terminal linked from `dir` (`board`), and
/// the robot's ends of it: the board and the arm share the link, as `run` shares it with
/// `devices.arm = "controller"`. `faults` damages bytes on the cable and now and then pulls it.
#[expect(
    clippy::too_many_arguments,
    reason = "each is one of sim's options, passed on as given"
)]
pub async fn connect_controller(
    dir: &Path,
    variant: Variant,
    board_protocol: u8,
    faults: f64,
    speedup: f64,
    baud: u32,
    rack_slots: Option<usize>,
    rng: &mut SplitMix,
) -> anyhow::Result<(
    SimBoardHandle,
    ControllerDevice,
    Reconnect<ControllerDevice>,
    SimControllerArm,
)> {
    let board = super::unserved_board(variant, board_protocol);
    let (runner, calibration, config) =
        controller_rig::add_arm(&board, variant, faults, speedup, rack_slots, rng)?;
    tokio::spawn(runner);
    let cable = CableFaults {
        byte: faults / 200.0,
        bytes_between_hang_ups: (faults > 0.0)
            .then(|| super::CONTROLLER_BYTES_BETWEEN_HANG_UPS / faults),
    };
    let board_link = plug_in_board(&board, dir, cable, rng)?;
    let slot = ArmSlot::default();
    let device = devices::connect_controller(board_link.clone(), baud, slot.clone()).await?;
    let reopen_slot = slot.clone();
    let reconnect: Reconnect<ControllerDevice> = Box::new(move || {
        Box::pin(devices::connect_controller(
            board_link.clone(),
            baud,
            reopen_slot.clone(),
        ))
    });
    let arm = controller_rig::connect_arm(&slot, calibration, &config).await?;
    Ok((board, device, reconnect, arm))
}

/// Puts the simulated board controller behind a pseudo-terminal linked from `dir` (`board`),
/// served afresh on the cable's stream at each plug-in, and returns the link's path.
fn plug_in_board(
    board: &SimBoardHandle,
    dir: &Path,
    cable: CableFaults,
    rng: &mut SplitMix,
) -> anyhow::Result<PathBuf> {
    let link = dir.join("board");
    let served = board.clone();
    plug_in(
        link.clone(),
        move |io| {
            tokio::spawn(served.serve(io, PeerConfig::default()).run());
        },
        cable,
        rng.next_u64(),
    )?;
    Ok(link)
}
