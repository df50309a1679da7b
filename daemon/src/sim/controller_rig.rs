//! The simulated board controller's own arm (`sim --arm controller`), as on the reference
//! robot: the simulated board gains the arm, the robot drives it through the board's session
//! with the real `ControllerArm` driver, and the calibration is the one an operator would
//! teach for the reference arm where the virtual board lies (the Dobot rig's layout).

use std::time::Duration;

use anyhow::Context as _;
use hal::arm::Calibration;
use hal::controller::device::{ControllerArm, ControllerArmConfig, ControllerDevice, DeviceConfig};
use hal::controller::link::{LinkConfig, connect};
use hal::controller::peer::PeerConfig;
use hal::sim::board::{SimBoardHandle, sim_board};
use hal::sim::controller_arm::{ControllerArmFaults, SimArmConfig};
use rules::{Bitboard, Variant};

use super::dobot_rig::{calibration_for_arm, first_connection, layout_with_rack};
use crate::devices::{ArmSlot, controller_arm_config};
use crate::robot::{ARM_RECONNECT_PATIENCE, PlannedArm, occupancy_map};
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
    Ok(PlannedArm::new(arm, calibration)
        .reconnect_with(reopen, ARM_RECONNECT_PATIENCE)
        .planning_with(config.travel_time()))
}

/// The reference arm on its own, for `checkerbot calibrate --sim --arm controller`: beside an
/// empty simulated board whose sensors nobody reads, its controller served on an in-memory
/// stream, driven with `config` (the wizard's) by the real driver, and homed.
pub fn standalone_arm(
    variant: Variant,
    config: &ControllerArmConfig,
) -> impl Future<Output = anyhow::Result<ControllerArm>> + use<> {
    let config = *config;
    async move {
        let (arm, _, _) = standalone_arm_on_board(variant, &config).await?;
        Ok(arm)
    }
}

/// [`standalone_arm`], with the simulated board it stands beside (whose arm's tip is where
/// the tool really is) and the calibration that matches where that board lies.
pub async fn standalone_arm_on_board(
    variant: Variant,
    config: &ControllerArmConfig,
) -> anyhow::Result<(ControllerArm, SimBoardHandle, Calibration)> {
    let empty = occupancy_map::to_occupancy(variant.geometry(), Bitboard::EMPTY);
    // The session `sim_board` starts with goes to a stream nobody uses.
    let (unused, _) = tokio::io::duplex(1);
    let (board, _) = sim_board(unused, empty, PeerConfig::default());
    let (runner, calibration, _) = add_arm(&board, variant, 0.0, 1.0, None, &mut SplitMix::new(1))?;
    tokio::spawn(runner);
    let (host_io, controller_io) = tokio::io::duplex(4096);
    let controller = board.serve(controller_io, PeerConfig::default());
    tokio::spawn(async move {
        let ended = controller.run().await;
        tracing::debug!("the simulated board controller stopped serving: {ended:?}");
    });
    let connection = connect(host_io, LinkConfig::default())
        .await
        .context("connecting to the simulated board controller")?;
    // The board's half is not used; the link stays up while the arm holds its half.
    let (_, link, driver) = ControllerDevice::split(connection, DeviceConfig::default());
    tokio::spawn(async move {
        if let Err(err) = driver.run().await {
            tracing::debug!("the simulated board controller's link ended: {err}");
        }
    });
    let arm = ControllerArm::start(link, *config)
        .await
        .context("homing the simulated reference arm")?;
    Ok((arm, board, calibration))
}

#[cfg(test)]
mod tests {
    use hal::arm::Point;
    use rules::Variant;

    use crate::devices::{CALIBRATION_FILE, controller_arm_config, load_calibration};
    use crate::sim::dobot_rig::{calibration_for_arm, layout_with_rack};

    #[test]
    fn points_out_of_the_reference_arms_reach_are_each_named_at_start_up() {
        let layout = layout_with_rack(Variant::Russian, None);
        let good = calibration_for_arm(&layout, "reference").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CALIBRATION_FILE);
        // As the simulation lays the world out, everything is in reach.
        std::fs::write(&path, good.to_toml()).unwrap();
        let loaded = load_calibration(dir.path()).unwrap();
        controller_arm_config(&loaded).unwrap();

        // The board, the bin, the rack and the reserve taught 250 mm further out, where the
        // Dobot Magician would still reach the near ones and the reference arm reaches none.
        let mut file = good.to_file();
        let out = |p: &mut Point| p.x += 250.0;
        file.board.corners.values_mut().for_each(out);
        file.bins.iter_mut().for_each(out);
        file.king_reserve.iter_mut().for_each(out);
        let rack = file.rack.as_mut().unwrap();
        out(&mut rack.first);
        rack.row_end.as_mut().map(out);
        rack.last_row.as_mut().map(out);
        std::fs::write(&path, toml::to_string(&file).unwrap()).unwrap();
        let refused = format!("{:#}", load_calibration(dir.path()).unwrap_err());
        assert!(refused.contains("out of the arm's reach"), "{refused}");
        for square in loaded.dark_squares() {
            assert!(
                refused.contains(&format!("square {square}")),
                "{square}: {refused}"
            );
        }
        let rack = loaded.rack().unwrap();
        for i in 0..rack.len() {
            let slot = format!("[rack] slot {}", rack.name(i));
            assert!(refused.contains(&slot), "{slot}: {refused}");
        }
        for name in (1..=loaded.king_slots().len())
            .map(|i| format!("king reserve slot {i}"))
            .chain(["bin 1".to_owned()])
        {
            assert!(refused.contains(&name), "{name}: {refused}");
        }
        assert!(
            !refused.contains("the park pose ("),
            "the park pose stayed: {refused}"
        );
    }
}
