//! The host's board and face drivers against the simulated board controller, over an
//! in-memory pipe on a paused clock: scans, presses, face commands, board lights, and byte
//! faults.

use std::time::Duration;

use hal::controller::device::{ControllerDevice, DeviceConfig, DeviceError};
use hal::controller::link::SendError;
use hal::controller::link::{LinkConfig, LinkError, connect};
use hal::controller::peer::PeerConfig;
use hal::controller::{Capabilities, Fault, FaultCode, NackReason};
use hal::device::{
    BoardLights, BoardSensor, BrowAngles, ButtonId, ButtonPress, EyeFrame, Eyes, Face, Light,
    LightColour, LightMode, NeckPose, ServoAngle, SquareLights,
};
use hal::sim::board::{FULL_BOARD, SIM_FIRMWARE, ServoCommand, SimBoardHandle, sim_board};
use hal::sim::faulty_io::{ByteFaults, FaultyIo};
use hal::{BoardSize, Error as _, ErrorKind, Occupancy};
use tokio::io::{AsyncRead, AsyncWrite, duplex};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// The Russian starting position: White on 0..12, Black on 20..32.
fn start_position() -> Occupancy {
    Occupancy::from_squares(BoardSize::Squares32, (0..12).chain(20..32)).unwrap()
}

struct Rig {
    device: ControllerDevice,
    board: SimBoardHandle,
    link: JoinHandle<Result<(), LinkError>>,
}

/// A simulated board on one end of `host_io`'s pipe, the host's drivers on the other.
async fn rig<H, C>(host_io: H, controller_io: C, occupancy: Occupancy) -> Rig
where
    H: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    C: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (board, controller) = sim_board(controller_io, occupancy, PeerConfig::default());
    tokio::spawn(controller.run());
    let connection = connect(host_io, LinkConfig::default())
        .await
        .expect("the simulated board answers Hello");
    assert_eq!(connection.welcome.firmware, SIM_FIRMWARE);
    assert_eq!(connection.welcome.board, Some(occupancy.size()));
    let (device, driver) = ControllerDevice::new(connection, DeviceConfig::default());
    Rig {
        device,
        board,
        link: tokio::spawn(driver.run()),
    }
}

async fn clean_rig(occupancy: Occupancy) -> Rig {
    let (host_io, controller_io) = duplex(1024);
    rig(host_io, controller_io, occupancy).await
}

fn ring_eyes() -> Eyes {
    let ring = EyeFrame::from_rows([0x3C, 0x42, 0x81, 0x99, 0x99, 0x81, 0x42, 0x3C]);
    Eyes {
        left: ring,
        right: ring,
    }
}

#[tokio::test(start_paused = true)]
async fn scans_read_the_simulated_board() {
    let mut rig = clean_rig(start_position()).await;
    assert_eq!(rig.device.scan().await, Ok(start_position()));
    rig.board.lift(9).unwrap();
    rig.board.place(13).unwrap();
    let scan = rig.device.scan().await.unwrap();
    assert!(!scan.is_occupied(9));
    assert!(scan.is_occupied(13));
    assert_eq!(scan, rig.board.occupancy());
    assert_eq!(rig.board.scans_sent(), 2);
}

#[tokio::test(start_paused = true)]
async fn every_board_size_scans_through() {
    for size in BoardSize::ALL {
        let last = size.square_count() - 1;
        let occupancy = Occupancy::from_squares(size, [0, 7, 8, last]).unwrap();
        let mut rig = clean_rig(occupancy).await;
        assert_eq!(rig.device.scan().await, Ok(occupancy), "{size:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_press_arrives_and_the_scan_after_it_shows_the_move() {
    let mut rig = clean_rig(start_position()).await;
    rig.board.lift(9).unwrap();
    rig.board.place(13).unwrap();
    assert!(rig.board.press(ButtonId::CONFIRM));
    assert!(rig.board.press(ButtonId(3)));
    assert_eq!(
        rig.device.next_press().await,
        Ok(ButtonPress::short(ButtonId::CONFIRM))
    );
    let scan = rig.device.scan().await.unwrap();
    assert_eq!(scan, rig.board.occupancy());
    assert!(scan.is_occupied(13) && !scan.is_occupied(9));
    // The second press was read while waiting for the scan and is kept (releases are not).
    assert_eq!(
        rig.device.next_press().await,
        Ok(ButtonPress::short(ButtonId(3)))
    );
    let quiet = tokio::time::timeout(Duration::from_secs(2), rig.device.next_press()).await;
    assert!(quiet.is_err(), "no press left: {quiet:?}");
}

#[tokio::test(start_paused = true)]
async fn a_held_button_is_a_long_press_as_soon_as_it_has_been_held_long_enough() {
    let mut rig = clean_rig(start_position()).await;
    let long_press = DeviceConfig::default().long_press;
    let board = rig.board.clone();
    let holding = tokio::spawn(async move {
        board
            .hold(ButtonId::CONFIRM, long_press + Duration::from_secs(2))
            .await
    });
    let start = Instant::now();
    let press = rig.device.next_press().await;
    assert_eq!(press, Ok(ButtonPress::long(ButtonId::CONFIRM)));
    // Reported while the button is still down, not at its release 2 s later.
    let waited = start.elapsed();
    assert!(
        waited >= long_press && waited < long_press + Duration::from_millis(500),
        "{waited:?}"
    );
    assert!(holding.await.unwrap());
    // The release is not a second press.
    let quiet = tokio::time::timeout(Duration::from_secs(2), rig.device.next_press()).await;
    assert!(quiet.is_err(), "no press left: {quiet:?}");
}

#[tokio::test(start_paused = true)]
async fn a_press_released_just_before_the_long_press_time_is_short() {
    let mut rig = clean_rig(start_position()).await;
    let long_press = DeviceConfig::default().long_press;
    assert!(
        rig.board
            .hold(
                ButtonId::CONFIRM,
                long_press.saturating_sub(Duration::from_millis(100))
            )
            .await
    );
    assert_eq!(
        rig.device.next_press().await,
        Ok(ButtonPress::short(ButtonId::CONFIRM))
    );
}

#[tokio::test(start_paused = true)]
async fn a_long_press_made_while_nobody_waited_for_presses_is_kept() {
    let mut rig = clean_rig(start_position()).await;
    let long_press = DeviceConfig::default().long_press;
    // The host reads the board meanwhile, which sorts the Button messages as they come.
    let board = rig.board.clone();
    let holding = tokio::spawn(async move {
        board
            .hold(ButtonId::CONFIRM, long_press + Duration::from_millis(200))
            .await
    });
    for _ in 0..10 {
        rig.device.scan().await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(holding.await.unwrap());
    assert_eq!(
        rig.device.next_press().await,
        Ok(ButtonPress::long(ButtonId::CONFIRM))
    );
    rig.board.press(ButtonId::CONFIRM);
    assert_eq!(
        rig.device.next_press().await,
        Ok(ButtonPress::short(ButtonId::CONFIRM))
    );
}

#[tokio::test(start_paused = true)]
async fn a_scan_of_another_board_is_a_protocol_error() {
    let mut rig = clean_rig(start_position()).await;
    rig.board
        .set_occupancy(Occupancy::empty(BoardSize::Squares50));
    let error = rig.device.scan().await.unwrap_err();
    assert_eq!(
        error,
        DeviceError::WrongBoard {
            announced: Some(BoardSize::Squares32),
            got: BoardSize::Squares50
        }
    );
    assert_eq!(error.kind(), ErrorKind::Protocol);
}

#[tokio::test(start_paused = true)]
async fn stuck_sensors_show_in_scans_and_faults_reach_the_host() {
    let mut rig = clean_rig(start_position()).await;
    rig.board.stick_sensor(3, Some(false)).unwrap();
    rig.board.stick_sensor(15, Some(true)).unwrap();
    assert!(rig.board.stick_sensor(32, Some(true)).is_err());
    let fault = Fault {
        code: FaultCode::SENSOR,
        subject: 3,
        active: true,
    };
    assert!(rig.board.report_fault(fault));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let scan = rig.device.scan().await.unwrap();
    assert!(!scan.is_occupied(3) && scan.is_occupied(15));
    assert_eq!(scan.count(), start_position().count());
    assert_eq!(rig.device.take_faults(), [fault]);
    assert!(rig.device.take_faults().is_empty());
    rig.board.stick_sensor(3, None).unwrap();
    assert!(rig.device.scan().await.unwrap().is_occupied(3));
}

#[tokio::test(start_paused = true)]
async fn face_commands_reach_the_simulated_face() {
    let mut rig = clean_rig(start_position()).await;
    let brows = BrowAngles {
        left: ServoAngle::from_tenths(-150),
        right: ServoAngle::from_tenths(150),
    };
    let neck = NeckPose {
        pan: ServoAngle::ZERO,
        tilt: ServoAngle::from_degrees(-20.0),
    };
    rig.device.show_eyes(ring_eyes()).await.unwrap();
    rig.device
        .set_brows(brows, Duration::from_millis(300))
        .await
        .unwrap();
    rig.device
        .set_neck(neck, Duration::from_millis(500))
        .await
        .unwrap();
    assert_eq!(rig.board.eyes(), [ring_eyes()]);
    assert_eq!(
        rig.board.brows(),
        [ServoCommand {
            pose: brows,
            transition_ms: 300
        }]
    );
    assert_eq!(
        rig.board.necks(),
        [ServoCommand {
            pose: neck,
            transition_ms: 500
        }]
    );
}

#[tokio::test(start_paused = true)]
async fn commands_for_missing_hardware_are_rejected() {
    let mut rig = clean_rig(start_position()).await;
    rig.board
        .set_capabilities(Capabilities(FULL_BOARD.0 & !Capabilities::NECK.0));
    let error = rig
        .device
        .set_neck(NeckPose::default(), Duration::ZERO)
        .await
        .unwrap_err();
    assert_eq!(
        error,
        DeviceError::Send(SendError::Nacked(NackReason::UNSUPPORTED))
    );
    assert_eq!(error.kind(), ErrorKind::Rejected);
    assert!(rig.board.necks().is_empty());
    // The link goes on.
    rig.device.show_eyes(ring_eyes()).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn an_idle_session_stays_up_on_heartbeats() {
    let mut rig = clean_rig(start_position()).await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(rig.board.sessions_lost(), 0);
    assert_eq!(rig.device.scan().await, Ok(start_position()));
    assert!(!rig.link.is_finished());
}

#[tokio::test(start_paused = true)]
async fn commands_fail_with_a_typed_error_once_the_controller_is_gone() {
    let (host_io, controller_io) = duplex(1024);
    let (_board, controller) = sim_board(controller_io, start_position(), PeerConfig::default());
    let served = tokio::spawn(controller.run());
    let connection = connect(host_io, LinkConfig::default()).await.unwrap();
    let (mut device, driver) = ControllerDevice::new(connection, DeviceConfig::default());
    let link = tokio::spawn(driver.run());
    served.abort();
    let _ = served.await;
    let started = Instant::now();
    let error = device.scan().await.unwrap_err();
    assert!(started.elapsed() <= DeviceConfig::default().command_timeout);
    assert_eq!(error.kind(), ErrorKind::Disconnected, "{error:?}");
    assert!(link.await.unwrap().is_err());
    assert_eq!(
        device.show_eyes(ring_eyes()).await.unwrap_err().kind(),
        ErrorKind::Disconnected
    );
}

/// Runs `rounds` scans and eye frames over a pipe whose both ends damage bytes, and checks that
/// each command finished within its timeout with the right answer or a typed error. Returns the
/// commands that completed and the bytes damaged in both directions.
///
/// Which bytes are hit depends on the traffic, and the link's `select!` picks ready branches in
/// random order, so the exact run varies; the assertions hold for every run.
async fn commands_under_faults(faults: ByteFaults, rounds: usize) -> (usize, u64) {
    let (host_io, controller_io) = duplex(1024);
    let host_io = FaultyIo::new(host_io, faults);
    let controller_io = FaultyIo::new(
        controller_io,
        ByteFaults {
            seed: faults.seed ^ 0x5EED,
            ..faults
        },
    );
    let counts = [host_io.count(), controller_io.count()];
    let mut rig = rig(host_io, controller_io, start_position()).await;
    let limit = DeviceConfig::default().command_timeout;
    let mut completed = 0;
    let mut eyes_shown = 0;
    for round in 0..rounds {
        let square = 12 + round % 8;
        if round % 2 == 0 {
            rig.board.place(square).unwrap();
        } else {
            rig.board.lift(square - 1).unwrap();
        }
        let started = Instant::now();
        let scanned = rig.device.scan().await;
        assert!(
            started.elapsed() <= limit,
            "scan took {:?}",
            started.elapsed()
        );
        match scanned {
            // The CRC lets no damaged scan through.
            Ok(scan) => {
                assert_eq!(scan, rig.board.occupancy(), "round {round}");
                completed += 1;
            }
            Err(error) => assert_typed(&error),
        }
        let started = Instant::now();
        match rig.device.show_eyes(ring_eyes()).await {
            Ok(()) => {
                completed += 1;
                eyes_shown += 1;
            }
            Err(error) => assert_typed(&error),
        }
        assert!(started.elapsed() <= limit);
    }
    // Every accepted command was acted on, and none twice however often it was retransmitted
    // (a command whose Ack was lost for good may have been acted on too).
    let acted_on = rig.board.eyes().len();
    assert!(
        (eyes_shown..=rounds).contains(&acted_on),
        "{eyes_shown} {acted_on}"
    );
    assert!(rig.board.scans_sent() <= rounds);
    let damaged = counts
        .iter()
        .map(|count| count.dropped() + count.corrupted())
        .sum();
    (completed, damaged)
}

fn assert_typed(error: &DeviceError) {
    assert!(
        matches!(error.kind(), ErrorKind::Timeout | ErrorKind::Disconnected),
        "unexpected failure {error:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn light_corruption_is_absorbed_by_retransmission() {
    // About one byte in 500 damaged: a command fails only if four sends in a row are hit,
    // about once in 10^5 commands.
    let faults = ByteFaults {
        seed: 7,
        drop: 0.001,
        corrupt: 0.001,
    };
    let (completed, damaged) = commands_under_faults(faults, 50).await;
    assert!(damaged > 0, "faults were injected");
    assert_eq!(
        completed, 100,
        "every command completes on a lightly noisy line"
    );
}

#[tokio::test(start_paused = true)]
async fn heavy_corruption_ends_in_typed_errors_within_the_timeout() {
    // One byte in 30 damaged: frames are lost often and the link may give up.
    for seed in 0..3 {
        let faults = ByteFaults {
            seed,
            drop: 0.01,
            corrupt: 0.02,
        };
        let (_, damaged) = commands_under_faults(faults, 30).await;
        assert!(damaged > 0, "faults were injected");
    }
}

fn robot_move_lights() -> SquareLights {
    let mut lights = SquareLights::dark(BoardSize::Squares32);
    let steady_blue = Light::new(LightMode::On, LightColour::Blue);
    lights.set(21, steady_blue).unwrap();
    lights.set(17, steady_blue).unwrap();
    lights
}

#[tokio::test(start_paused = true)]
async fn a_board_with_lights_shows_what_the_host_sends() {
    let mut rig = clean_rig(start_position()).await;
    assert_eq!(rig.device.welcome().version, 2);
    assert!(rig.device.has_lights());
    rig.device.show_lights(robot_move_lights()).await.unwrap();
    assert_eq!(rig.board.lights(), Some(robot_move_lights()));
    rig.device
        .show_lights(SquareLights::dark(BoardSize::Squares32))
        .await
        .unwrap();
    assert_eq!(rig.board.lights(), None);
    // Lights for another board are refused before anything is sent.
    let wrong = rig
        .device
        .show_lights(SquareLights::dark(BoardSize::Squares50))
        .await;
    assert!(
        matches!(wrong, Err(DeviceError::WrongBoard { .. })),
        "{wrong:?}"
    );
    assert_eq!(rig.board.lights_history().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_version_1_board_has_no_lights_and_still_scans() {
    let (host_io, controller_io) = duplex(1024);
    let (board, controller) = sim_board(controller_io, start_position(), PeerConfig::default());
    board.set_newest_version(1);
    tokio::spawn(controller.run());
    let connection = connect(host_io, LinkConfig::default()).await.unwrap();
    assert_eq!(connection.welcome.version, 1);
    let (mut device, driver) = ControllerDevice::new(connection, DeviceConfig::default());
    tokio::spawn(driver.run());
    assert!(!device.has_lights());
    let refused = device.show_lights(robot_move_lights()).await;
    assert_eq!(refused, Err(DeviceError::NoLights));
    assert_eq!(refused.unwrap_err().kind(), ErrorKind::Rejected);
    assert!(board.lights_history().is_empty());
    assert_eq!(device.scan().await, Ok(start_position()));
}

#[tokio::test(start_paused = true)]
async fn a_board_that_lacks_the_lights_capability_has_none() {
    let (host_io, controller_io) = duplex(1024);
    let (board, controller) = sim_board(controller_io, start_position(), PeerConfig::default());
    board.set_capabilities(Capabilities(FULL_BOARD.0 & !Capabilities::BOARD_LIGHTS.0));
    tokio::spawn(controller.run());
    let connection = connect(host_io, LinkConfig::default()).await.unwrap();
    assert_eq!(connection.welcome.version, 2);
    let (device, driver) = ControllerDevice::new(connection, DeviceConfig::default());
    tokio::spawn(driver.run());
    assert!(!device.has_lights());
}
