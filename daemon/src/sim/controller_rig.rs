//! The simulated board controller's own arm (`sim --arm controller`), as on the reference
//! robot: the simulated board gains the arm, the robot drives it through the board's session
//! with the real `ControllerArm` driver, and the calibration is the one an operator would
//! teach for the reference arm where the virtual board lies (the Dobot rig's layout).

use std::time::Duration;

use hal::arm::Calibration;
use hal::controller::device::{ControllerArm, ControllerArmConfig};
use hal::sim::board::SimBoardHandle;
use hal::sim::controller_arm::{ControllerArmFaults, SimArmConfig};
use rules::Variant;

use super::dobot_rig::{calibration_for_arm, first_connection, layout_with_rack};
use crate::devices::{ArmSlot, controller_arm_config};
use crate::robot::{ARM_RECONNECT_PATIENCE, PlannedArm};
use player::rng::SplitMix;

/// The arm the simulation drives.
pub type SimControllerArm = PlannedArm<ControllerArm>;

/// How long the simulated arm takes to home.
const HOME_DURATION: Duration = Duration::from_secs(2);

/// Share of `--faults` that stalls a joint, per joint target: a robot move sends dozens of
/// them (its travel in 10 mm hops), so a few moves in a hundred stall at `--faults 0.05`.
const STALL_SHARE: f64 = 0.01;

/// Gives `board` the reference arm beside it, laid out as the Dobot rig's board (with a rack
/// of `rack_slots`), and returns the runner to spawn, the matching calibration and how the
/// robot drives the arm. `faults` is the probability of a failed pick, and sets rarer stalls
/// and late `MotionDone`s; `speedup` multiplies the joints' speeds.
pub fn add_arm(
    board: &SimBoardHandle,
    variant: Variant,
    faults: f64,
    speedup: f64,
    rack_slots: Option<usize>,
    rng: &mut SplitMix,
) -> anyhow::Result<(
    impl Future<Output = ()> + Send + 'static,
    Calibration,
    ControllerArmConfig,
)> {
    let layout = layout_with_rack(variant, rack_slots);
    let calibration = calibration_for_arm(&layout, "reference")?;
    let base = controller_arm_config(&calibration)?;
    let config = ControllerArmConfig {
        joint_speed_deg_s: base.joint_speed_deg_s.map(|speed| speed * speedup),
        joint_acceleration_deg_s2: base.joint_acceleration_deg_s2 * speedup * speedup,
        ..base
    };
    let runner = board.add_arm(SimArmConfig {
        kinematics: config.kinematics,
        home: config.home,
        joint_speed_deg_s: config.joint_speed_deg_s,
        joint_acceleration_deg_s2: config.joint_acceleration_deg_s2,
        queue_capacity: 8,
        home_duration: HOME_DURATION.div_f64(speedup),
        layout,
        reserve_pieces: calibration.king_slots().len() as u32,
        faults: ControllerArmFaults {
            seed: rng.next_u64(),
            failed_pick: faults,
            stall: faults * STALL_SHARE,
            late_done: faults / 10.0,
            late_delay: Duration::from_millis(300),
        },
    });
    Ok((runner, calibration, config))
}

/// The arm as the robot drives it, on the sessions the board's connections leave in `slot`
/// (the first one must be there already).
pub async fn connect_arm(
    slot: &ArmSlot,
    calibration: Calibration,
    config: &ControllerArmConfig,
) -> anyhow::Result<SimControllerArm> {
    let mut reopen = slot.reopen(config);
    let arm = first_connection(&mut reopen).await?;
    Ok(PlannedArm::new(arm, calibration).reconnect_with(reopen, ARM_RECONNECT_PATIENCE))
}
