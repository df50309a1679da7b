//! The host's `ControllerArm` against the simulated board controller's own arm, over an
//! in-memory pipe on a paused clock: pick and place through joint targets, homing, a full
//! queue, a stall, late and missing `MotionDone`s, a controller without an arm.

use std::time::Duration;

use hal::controller::device::{
    ArmError, ControllerArm, ControllerArmConfig, ControllerDevice, DeviceConfig,
};
use hal::controller::link::{LinkConfig, connect};
use hal::controller::peer::PeerConfig;
use hal::controller::{Fault, FaultCode};
use hal::device::{Arm, BoardSensor, Motion, Pose};
use hal::sim::board::{SimBoardHandle, sim_board};
use hal::sim::controller_arm::{ControllerArmFaults, SimArmConfig};
use hal::sim::dobot::SimBoardLayout;
use hal::{BoardSize, Error as _, ErrorKind, Occupancy};
use tokio::io::duplex;
use tokio::time::Instant;

/// A 32-square board within the reference arm's reach: a1 170 mm ahead and 66.5 mm left of
/// the base, squares 19 mm apart, the cup touching a man at z = 10.
fn layout() -> SimBoardLayout {
    let a1 = Pose {
        x: 170.0,
        y: 66.5,
        z: 10.0,
        r: 0.0,
    };
    SimBoardLayout::new(BoardSize::Squares32, a1, 19.0)
}

/// The simulated arm as the host's `host` config drives it: the same kinematics, home and
/// joint speeds.
fn sim_config(
    faults: ControllerArmFaults,
    queue_capacity: usize,
    host: &ControllerArmConfig,
) -> SimArmConfig {
    SimArmConfig {
        kinematics: host.kinematics,
        home: host.home,
        joint_speed_deg_s: host.joint_speed_deg_s,
        joint_acceleration_deg_s2: host.joint_acceleration_deg_s2,
        queue_capacity,
        home_duration: Duration::from_secs(2),
        layout: layout(),
        reserve_pieces: 4,
        faults,
    }
}

/// The simulated board with its arm and the host's two drivers over one session.
pub(crate) async fn rig(
    occupancy: Occupancy,
    faults: ControllerArmFaults,
    queue_capacity: usize,
    config: &ControllerArmConfig,
) -> (ControllerDevice, ControllerArm, SimBoardHandle) {
    let (host_io, controller_io) = duplex(4096);
    let (board, controller) = sim_board(controller_io, occupancy, PeerConfig::default());
    tokio::spawn(board.add_arm(sim_config(faults, queue_capacity, config)));
    tokio::spawn(controller.run());
    let connection = connect(host_io, LinkConfig::default()).await.unwrap();
    let (device, arm_link, driver) = ControllerDevice::split(connection, DeviceConfig::default());
    tokio::spawn(driver.run());
    // A controller that never reports a motion done cannot home: it gets the arm unhomed.
    let arm = if faults.late_delay > Duration::from_mins(1) {
        ControllerArm::new(arm_link, *config).unwrap()
    } else {
        ControllerArm::start(arm_link, *config)
            .await
            .expect("the controller announces its arm and homes it")
    };
    (device, arm, board)
}

fn square_pose(square: usize, lift: f32) -> Pose {
    let pose = layout().square_pose(square).unwrap();
    Pose {
        z: pose.z + lift,
        ..pose
    }
}

async fn carry(arm: &mut ControllerArm, from: usize, to: usize) -> Result<(), ArmError> {
    arm.move_to(square_pose(from, 0.0), Motion::Jump).await?;
    arm.set_suction(true).await?;
    arm.move_to(square_pose(to, 0.0), Motion::Jump).await?;
    arm.set_suction(false).await?;
    arm.park().await?;
    arm.wait_until_idle().await
}

#[tokio::test(start_paused = true)]
async fn a_piece_is_carried_by_joint_targets_and_the_board_scan_sees_it() {
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, [9]).unwrap();
    let (mut device, mut arm, board) = rig(
        occupancy,
        ControllerArmFaults::NONE,
        4,
        &ControllerArmConfig::default(),
    )
    .await;
    let started = Instant::now();
    carry(&mut arm, 9, 13).await.unwrap();
    let took = started.elapsed();
    let scan = device.scan().await.unwrap();
    assert!(!scan.is_occupied(9) && scan.is_occupied(13), "{scan:?}");
    assert!(!board.arm_holding() && !board.arm_pump());
    let stats = board.arm_stats();
    assert_eq!(
        (stats.picks, stats.pieces_lost, stats.collisions),
        (1, 0, 0)
    );
    assert!(stats.busy > 0, "a queue of 4 was kept full: {stats:?}");
    // Homing (2 s) and the moves at 60 deg/s: seconds, not minutes.
    assert!(
        took > Duration::from_secs(2) && took < Duration::from_secs(30),
        "{took:?}"
    );
    let park = board.arm_tip().unwrap();
    assert!(
        (park.x - 200.0).abs() < 0.5 && (park.z - 80.0).abs() < 0.5,
        "{park:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_stall_is_an_alarm_the_host_clears_and_the_arm_moves_on() {
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, [9]).unwrap();
    let (_device, mut arm, board) = rig(
        occupancy,
        ControllerArmFaults::NONE,
        8,
        &ControllerArmConfig::default(),
    )
    .await;
    // The piece on square 9 is picked and on its way to square 30 when a joint stalls.
    arm.move_to(square_pose(9, 0.0), Motion::Jump)
        .await
        .unwrap();
    arm.set_suction(true).await.unwrap();
    arm.move_to(square_pose(30, 0.0), Motion::Jump)
        .await
        .unwrap();
    while !board.arm_holding() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    board.raise_arm_fault(Fault {
        code: FaultCode::JOINT_STALL,
        subject: 2,
        active: true,
    });
    let err = arm.wait_until_idle().await.unwrap_err();
    assert!(
        matches!(
            err,
            ArmError::Fault {
                code: FaultCode::JOINT_STALL,
                subject: 2
            }
        ),
        "{err}"
    );
    assert_eq!(err.kind(), ErrorKind::Alarm);
    assert!(err.to_string().contains("joint stall"), "{err}");
    assert!(arm.alarms().await.unwrap().contains(0x22));

    // Refused until cleared, then it moves again.
    let refused = arm.move_to(square_pose(9, 30.0), Motion::Joint).await;
    let refused = match refused {
        Err(err) => err,
        Ok(()) => arm.wait_until_idle().await.unwrap_err(),
    };
    assert_eq!(refused.kind(), ErrorKind::Alarm, "{refused}");
    arm.abort().await.unwrap();
    arm.clear_alarms().await.unwrap();
    assert_eq!(board.arm_fault(), None);
    // Clearing put the held piece back where the cup took it.
    arm.wait_until_idle().await.unwrap();
    assert!(!board.arm_holding());
    assert!(board.occupancy().is_occupied(9) && !board.occupancy().is_occupied(30));
    assert!(arm.alarms().await.unwrap().is_empty());
    arm.move_to(square_pose(9, 30.0), Motion::Joint)
        .await
        .unwrap();
    arm.wait_until_idle().await.unwrap();
    let stats = board.arm_stats();
    assert_eq!((stats.pieces_lost, stats.collisions), (0, 0), "{stats:?}");
}

#[tokio::test(start_paused = true)]
async fn seeded_stalls_and_failed_picks_fail_calls_without_hanging() {
    let faults = ControllerArmFaults {
        seed: 7,
        failed_pick: 0.5,
        stall: 0.05,
        late_done: 0.3,
        late_delay: Duration::from_millis(400),
    };
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, 0..12).unwrap();
    let (_device, mut arm, board) =
        rig(occupancy, faults, 4, &ControllerArmConfig::default()).await;
    let mut alarms = 0;
    for round in 0..12 {
        let from = round;
        let to = 12 + round % 8;
        if !board.occupancy().is_occupied(from) || board.occupancy().is_occupied(to) {
            continue;
        }
        let started = Instant::now();
        let mut result = carry(&mut arm, from, to).await;
        // As the robot recovers: stop, clear (a held piece is put back), park; a stall on
        // the way is one more.
        while let Err(err) = result {
            assert_eq!(err.kind(), ErrorKind::Alarm, "{err}");
            alarms += 1;
            result = async {
                arm.abort().await?;
                arm.clear_alarms().await?;
                arm.park().await?;
                arm.wait_until_idle().await
            }
            .await;
        }
        assert!(!board.arm_holding(), "nothing is left in the cup");
        assert!(started.elapsed() < Duration::from_mins(1));
    }
    let stats = board.arm_stats();
    assert!(stats.failed_picks > 0 && stats.late_dones > 0, "{stats:?}");
    assert_eq!(stats.stalls as usize, alarms, "{stats:?}");
    assert_eq!(stats.collisions, 0, "{stats:?}");
}

#[tokio::test(start_paused = true)]
async fn a_motion_done_that_never_comes_times_out_from_the_planned_duration() {
    let faults = ControllerArmFaults {
        seed: 1,
        late_done: 1.0,
        late_delay: Duration::from_mins(10),
        ..ControllerArmFaults::NONE
    };
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, []).unwrap();
    let config = ControllerArmConfig::default();
    let (_device, mut arm, _board) = rig(occupancy, faults, 4, &config).await;
    arm.move_to(square_pose(30, 30.0), Motion::Joint)
        .await
        .unwrap();
    let started = Instant::now();
    let err = arm.wait_until_idle().await.unwrap_err();
    assert!(matches!(err, ArmError::MotionTimeout { .. }), "{err}");
    assert_eq!(err.kind(), ErrorKind::Timeout);
    let ArmError::MotionTimeout { allowance, .. } = err else {
        unreachable!()
    };
    // Twice the planned time plus a second: a few seconds, not the 600 s the MotionDone
    // would take.
    assert!(allowance < Duration::from_secs(10), "{allowance:?}");
    assert!(started.elapsed() <= allowance);
}

#[tokio::test(start_paused = true)]
async fn an_unreachable_target_moves_nothing_and_names_the_point() {
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, []).unwrap();
    let (_device, mut arm, board) = rig(
        occupancy,
        ControllerArmFaults::NONE,
        4,
        &ControllerArmConfig::default(),
    )
    .await;
    let far = Pose {
        x: 600.0,
        y: 0.0,
        z: 10.0,
        r: 0.0,
    };
    let before = board.arm_stats().motions;
    let err = arm.move_to(far, Motion::Jump).await.unwrap_err();
    assert!(matches!(err, ArmError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains("beyond the arm's reach"), "{err}");
    assert_eq!(board.arm_stats().motions, before);
}

#[tokio::test(start_paused = true)]
async fn a_controller_without_an_arm_is_refused() {
    let (host_io, controller_io) = duplex(4096);
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, []).unwrap();
    let (_board, controller) = sim_board(controller_io, occupancy, PeerConfig::default());
    tokio::spawn(controller.run());
    let connection = connect(host_io, LinkConfig::default()).await.unwrap();
    let (_device, arm_link, driver) = ControllerDevice::split(connection, DeviceConfig::default());
    tokio::spawn(driver.run());
    let err = ControllerArm::new(arm_link, ControllerArmConfig::default()).unwrap_err();
    assert!(matches!(err, ArmError::NoArm(_)), "{err}");
    assert_eq!(err.kind(), ErrorKind::Rejected);
}
