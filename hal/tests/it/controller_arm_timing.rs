//! Planning for the board controller's own arm by its joints' speeds: the joint-space estimate
//! against the time the simulated controller really takes (its joints turn at the configured
//! speeds, on a paused clock), and a case where that estimate orders a move otherwise than
//! the Cartesian one, and the other order is really faster.

use std::time::Duration;

use hal::arm::{
    ArmStep, BoardSquare, Calibration, CaptureOrder, JointStep, Kinematics as _, KingReserve,
    PieceKind, Plan, ResetOrder, RobotMove, TravelTime, plan_move, plan_reset,
};
use hal::controller::device::{ControllerArm, ControllerArmConfig};
use hal::device::{Arm, Motion};
use hal::sim::controller_arm::ControllerArmFaults;
use hal::{BoardSize, Occupancy};
use tokio::time::Instant;

use crate::controller_arm::rig;

const EXAMPLE: &str = include_str!("../../data/calibration.example.toml");

/// The example calibration taught for the reference arm.
fn reference_calibration() -> Calibration {
    Calibration::from_toml(&EXAMPLE.replace("model = \"magician\"", "model = \"reference\""))
        .unwrap()
}

/// A man on f6 (row 5, column 5) takes g7 and lands on h8, by the bins' side of the board.
fn capture() -> RobotMove {
    RobotMove {
        from: BoardSquare::new(5, 5),
        to: BoardSquare::new(7, 7),
        mover: PieceKind::Man,
        captured: vec![(BoardSquare::new(6, 6), PieceKind::Man)],
        promotes: false,
    }
}

/// The driver's config for the reference calibration with the given joint speeds.
fn config(calibration: &Calibration, speeds: [f64; 4], acceleration: f64) -> ControllerArmConfig {
    let hal::arm::ArmModel::Reference(kinematics) = calibration.arm() else {
        panic!("the reference arm")
    };
    ControllerArmConfig {
        kinematics: *kinematics,
        travel_z: calibration.safe_z(),
        park: calibration.park().to_pose(0.0),
        joint_speed_deg_s: speeds,
        joint_acceleration_deg_s2: acceleration,
        ..ControllerArmConfig::default()
    }
}

/// Carries out `plan` on the simulated controller's arm, from the park pose, as the daemon
/// sends it (each joint target one [`Motion::Joint`] move), and returns the time it took.
async fn run_on_the_simulated_arm(plan: &Plan, config: &ControllerArmConfig) -> Duration {
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, []).unwrap();
    let (_device, mut arm, _board): (_, ControllerArm, _) =
        rig(occupancy, ControllerArmFaults::NONE, 8, config).await;
    let kinematics = config.kinematics;
    arm.move_to(config.park, Motion::Jump).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    let started = Instant::now();
    for step in plan.for_joints(&kinematics).unwrap() {
        match step {
            JointStep::Move(joints) => {
                let target = kinematics.forward(&joints).to_pose(0.0);
                arm.move_to(target, Motion::Joint).await.unwrap();
            }
            JointStep::Suction(on) => arm.set_suction(on).await.unwrap(),
            JointStep::AskVisitorToCrown(_) => {}
        }
    }
    arm.wait_until_idle().await.unwrap();
    started.elapsed()
}

/// Where each carry of `plan` picks up and puts down, in order.
fn carries(plan: &Plan) -> Vec<String> {
    plan.steps()
        .iter()
        .filter_map(|step| match step {
            ArmStep::Pick { spot, .. } => Some(format!("pick {spot:?}")),
            ArmStep::Release { spot, .. } => Some(format!("release {spot:?}")),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn the_joint_space_estimate_is_the_time_the_simulated_controller_takes() {
    let calibration = reference_calibration();
    let config = config(&calibration, [90.0, 60.0, 60.0, 60.0], 180.0);
    let travel = config.travel_time();
    let plan = plan_move(
        &calibration,
        &capture(),
        &KingReserve::full(4),
        CaptureOrder::Shortest,
        &travel,
    )
    .unwrap();
    let estimate = plan.duration_s(&travel);
    let took = run_on_the_simulated_arm(&plan, &config).await.as_secs_f64();
    assert!(
        (took - estimate).abs() <= 0.02 * took,
        "estimated {estimate:.3} s, the simulated arm took {took:.3} s"
    );
    // The Cartesian figures of the calibration are far off for this arm: the reason for the
    // joint-space model.
    let cartesian = plan.duration_s(calibration.motion());
    assert!(
        (took - cartesian).abs() > 0.2 * took,
        "Cartesian {cartesian:.3} s against {took:.3} s"
    );
}

#[tokio::test(start_paused = true)]
async fn a_slow_base_orders_the_move_otherwise_and_that_order_is_really_faster() {
    let calibration = reference_calibration();
    // A base geared down far more than the links: turning about the base axis is what costs.
    let config = config(&calibration, [15.0, 120.0, 120.0, 120.0], 400.0);
    let joints = config.travel_time();
    let plan_by = |travel: &dyn TravelTime| {
        plan_move(
            &calibration,
            &capture(),
            &KingReserve::full(4),
            CaptureOrder::Shortest,
            travel,
        )
        .unwrap()
    };
    let (by_joints, by_distance) = (plan_by(&joints), plan_by(calibration.motion()));
    assert_ne!(
        carries(&by_joints),
        carries(&by_distance),
        "both estimates chose the same order"
    );
    let (joint_estimate, distance_estimate) = (
        by_joints.duration_s(&joints),
        by_distance.duration_s(&joints),
    );
    assert!(
        joint_estimate < distance_estimate,
        "{joint_estimate:.3} s against {distance_estimate:.3} s"
    );
    let joint_took = run_on_the_simulated_arm(&by_joints, &config).await;
    let distance_took = run_on_the_simulated_arm(&by_distance, &config).await;
    assert!(
        joint_took < distance_took,
        "the joint-space order took {joint_took:?}, the Cartesian one {distance_took:?}"
    );
}

#[test]
fn a_reset_is_ordered_and_timed_by_the_joint_space_estimate() {
    // The reset rig's world (a rack, eight spare kings), taught for the reference arm.
    let mut file = crate::reset_rig::calibration(8).to_file();
    file.arm = hal::arm::ArmModel::Reference(hal::arm::ReferenceArm::default());
    let calibration = Calibration::from_file(file).unwrap();
    let joints = config(&calibration, [15.0, 120.0, 120.0, 120.0], 400.0).travel_time();
    let end = crate::reset_rig::end_of_game(rules::Variant::Russian, 3, &calibration);
    let target = crate::reset_rig::layout(&rules::Position::new(rules::Variant::Russian));
    let plan_by = |travel: &dyn TravelTime| {
        plan_reset(
            &calibration,
            &end.board,
            &end.stock,
            &target,
            ResetOrder::Shortest,
            travel,
        )
        .unwrap()
    };
    let (by_joints, by_distance) = (plan_by(&joints), plan_by(calibration.motion()));
    let reset = by_joints.plan();
    assert!((reset.duration_s() - reset.plan().duration_s(&joints)).abs() < 1e-9);
    assert_ne!(
        reset.carries(),
        by_distance.plan().carries(),
        "both estimates chose the same order"
    );
    let other = by_distance.plan().plan().duration_s(&joints);
    assert!(
        reset.duration_s() < other,
        "by the joints {:.2} s, the Cartesian order {other:.2} s",
        reset.duration_s()
    );
}
