//! The simulated arm: a virtual Dobot Magician next to the simulated board, driven by the real
//! Dobot driver over its real protocol, and a calibration that matches where the virtual board
//! lies, as an operator's would.

use std::time::Duration;

use anyhow::Context as _;
use engine::Variant;
use hal::arm::Calibration;
use hal::device::Pose;
use hal::dobot::{DobotArm, DobotConfig};
use hal::sim::board::SimBoardHandle;
use hal::sim::dobot::{DobotFaults, SimBoardLayout, VirtualDobot, VirtualDobotConfig};
use hal::sim::faulty_io::{ByteFaults, FaultyIo};
use tokio::io::DuplexStream;

use crate::rng::SplitMix;
use crate::robot::{PlannedArm, occupancy_map};

/// The arm the simulation drives.
pub type SimArm = PlannedArm<DobotArm<FaultyIo<DuplexStream>>>;

/// Height of the tool touching a man on the board, mm.
const BOARD_Z: f32 = 10.0;
/// The tool's height while crossing the board, mm: it must clear a king carried over a king.
const SAFE_Z: f32 = 40.0;

/// Where the virtual board lies: a1 nearest the arm on its left, the whole board inside the
/// Magician's reach (a board 133 mm across, whatever its number of squares).
pub fn layout(variant: Variant) -> SimBoardLayout {
    let size = occupancy_map::board_size(variant.geometry());
    let pitch = 133.0 / (size.side() as f32 - 1.0);
    let a1 = Pose {
        x: 170.0,
        y: 66.5,
        z: BOARD_Z,
        r: 0.0,
    };
    SimBoardLayout::new(size, a1, pitch)
}

/// The calibration an operator would teach for `layout`: the four corner centres, the bin, four
/// spare-king slots in the reserve, the park pose and the travel height.
pub fn calibration(layout: &SimBoardLayout) -> anyhow::Result<Calibration> {
    let side = layout.size.side();
    let last_file = char::from(b'a' + side as u8 - 1);
    let far = layout.pitch * (side as f32 - 1.0);
    let point = |x: f32, y: f32, z: f32| format!("{{ x = {x}, y = {y}, z = {z} }}");
    let corner = |row: f32, col: f32| {
        point(
            layout.a1.x + row * far,
            layout.a1.y - col * far,
            layout.a1.z,
        )
    };
    let (bin, reserve) = (layout.bin, layout.reserve);
    let spread = layout.reserve_radius * 0.4;
    let king_slots: Vec<String> = [(-spread, 0.0), (spread, 0.0), (0.0, -spread), (0.0, spread)]
        .into_iter()
        .map(|(dx, dy)| point(reserve.x + dx, reserve.y + dy, reserve.z))
        .collect();
    let text = format!(
        "version = 1\n\
         arm = {{ model = \"magician\" }}\n\
         park = {park}\n\
         bins = [{bin}]\n\
         king_reserve = [{kings}]\n\
         pieces = {{ man_mm = 5.0, king_mm = 8.0 }}\n\
         travel = {{ safe_z = {SAFE_Z}, clearance_mm = 5.0 }}\n\
         [board]\n\
         side = {side}\n\
         [board.corners]\n\
         a1 = {a1}\n\
         {last_file}1 = {h1}\n\
         a{side} = {a8}\n\
         {last_file}{side} = {h8}\n",
        park = point(200.0, 0.0, 80.0),
        bin = point(bin.x, bin.y, 30.0),
        kings = king_slots.join(", "),
        a1 = corner(0.0, 0.0),
        h1 = corner(0.0, 1.0),
        a8 = corner(1.0, 0.0),
        h8 = corner(1.0, 1.0),
    );
    Calibration::from_toml(&text).context("the simulated arm's calibration")
}

/// A healthy-or-faulty virtual Dobot beside `board`, and the calibration an operator would
/// teach for where its board lies. `faults` is the probability of a failed pick per pick, and
/// sets rarer late and lost replies. Serve it on any byte stream ([`VirtualDobot::serve`]).
pub fn virtual_dobot(
    board: SimBoardHandle,
    variant: Variant,
    faults: f64,
    rng: &mut SplitMix,
) -> anyhow::Result<(VirtualDobot, Calibration)> {
    let layout = layout(variant);
    let calibration = calibration(&layout)?;
    let reserve_pieces = calibration.king_slots().len() as u32;
    let dobot = VirtualDobot::new(
        board,
        layout,
        VirtualDobotConfig {
            reserve_pieces,
            faults: DobotFaults {
                seed: rng.next_u64(),
                failed_pick: faults,
                late_reply: faults / 10.0,
                late_delay: Duration::from_millis(150),
                dropped_reply: faults / 20.0,
                alarm_mid_move: 0.0,
            },
            ..VirtualDobotConfig::default()
        },
    );
    Ok((dobot, calibration))
}

/// The driver's settings for the virtual arm: its park pose and travel height match the
/// calibration; `speedup` multiplies the arm's speed and acceleration (1: the Magician's top
/// speed).
pub fn driver_config(speedup: f32) -> DobotConfig {
    DobotConfig {
        jump_height: SAFE_Z - BOARD_Z,
        // The Magician's top Cartesian speed, times `speedup`.
        xyz_velocity: 300.0 * speedup,
        xyz_acceleration: 800.0 * speedup,
        park: Pose {
            x: 200.0,
            y: 0.0,
            z: 80.0,
            r: 0.0,
        },
        ..DobotConfig::default()
    }
}

/// Starts a virtual Dobot beside `board` and connects the Dobot driver to it over an in-memory
/// stream whose bytes are damaged with probability `faults / 400` (see [`virtual_dobot`] for the
/// arm's own faults).
pub async fn connect_sim_arm(
    board: SimBoardHandle,
    variant: Variant,
    faults: f64,
    speedup: f32,
    rng: &mut SplitMix,
) -> anyhow::Result<SimArm> {
    let (dobot, calibration) = virtual_dobot(board, variant, faults, rng)?;
    let (host_io, arm_io) = tokio::io::duplex(4096);
    tokio::spawn(dobot.serve(arm_io).run());
    let byte_fault = faults / 400.0;
    let io = FaultyIo::new(
        host_io,
        ByteFaults {
            seed: rng.next_u64(),
            drop: byte_fault,
            corrupt: byte_fault,
        },
    );
    let arm = DobotArm::connect(io, driver_config(speedup))
        .await
        .context("connecting to the simulated Dobot")?;
    Ok(PlannedArm::new(arm, calibration))
}
