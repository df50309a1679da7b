//! The Dobot driver against the virtual Dobot across real pseudo-terminal pairs, so the bytes
//! pass through the kernel's tty layer as on the robot's USB serial port. Real time (a paused
//! clock would jump ahead while the runtime waits on the pty), so the arm is set fast.

use std::time::Duration;

use hal::device::{Arm, Motion};
use hal::dobot::{DobotArm, DobotConfig};
use hal::sim::dobot::{DobotFaults, VirtualDobot, VirtualDobotConfig};
use hal::sim::faulty_io::{ByteFaults, FaultyIo};
use hal::{Error as _, ErrorKind};
use tokio::time::{Instant, sleep, timeout};
use tokio_serial::SerialStream;

use crate::dobot_rig::{C3, D4, E5, board, carry, layout, occupied, square};

fn config() -> DobotConfig {
    DobotConfig {
        xyz_velocity: 2000.0,
        xyz_acceleration: 20000.0,
        command_timeout: Duration::from_millis(100),
        poll_interval: Duration::from_millis(5),
        move_slack: Duration::from_millis(300),
        ..DobotConfig::default()
    }
}

/// Opens a pty pair, serves `dobot` on one end and returns the other.
fn plug(dobot: &VirtualDobot) -> SerialStream {
    let (host, device) = SerialStream::pair().expect("a pty pair opens");
    tokio::spawn(dobot.serve(device).run());
    host
}

#[tokio::test]
async fn a_whole_pick_and_place_over_a_pty_pair() {
    let board = board(&[C3, E5]);
    let dobot = VirtualDobot::new(board.clone(), layout(), VirtualDobotConfig::default());
    let run = async {
        let mut arm = DobotArm::connect(plug(&dobot), config()).await.unwrap();
        carry(&mut arm, square(C3), square(D4)).await.unwrap();
        carry(&mut arm, square(E5), layout().bin).await.unwrap();
        arm.park().await.unwrap();
        assert_eq!(occupied(&board), [C3, E5], "nothing done before the moves");
        arm.wait_until_idle().await.unwrap();
        assert_eq!(occupied(&board), [D4]);
        assert_eq!(dobot.trophies(), 1);
        assert_eq!(arm.pose().await.unwrap(), config().park);
        assert_eq!(
            arm.stats().failed_attempts,
            0,
            "a clean line needs no retry"
        );
    };
    timeout(Duration::from_secs(20), run)
        .await
        .expect("the pick-and-place finishes well within 20 s");
}

#[tokio::test]
async fn a_fresh_pty_after_a_disconnect_finds_the_game_intact() {
    let board = board(&[C3, E5]);
    let dobot = VirtualDobot::new(board.clone(), layout(), VirtualDobotConfig::default());
    let run = async {
        let mut arm = DobotArm::connect(plug(&dobot), config()).await.unwrap();
        carry(&mut arm, square(C3), square(D4)).await.unwrap();
        sleep(Duration::from_millis(100)).await;
        // USB pulled mid-move: the pty closes, the arm goes on with its queue.
        drop(arm);

        let mut arm = DobotArm::connect(plug(&dobot), config()).await.unwrap();
        assert_eq!(occupied(&board), [D4, E5]);
        assert!(!dobot.holding());
        assert_eq!(arm.last_queued_index(), dobot.executed_index());
        carry(&mut arm, square(E5), layout().bin).await.unwrap();
        arm.wait_until_idle().await.unwrap();
        assert_eq!(occupied(&board), [D4]);
        assert_eq!(arm.executed_index(), dobot.last_index());
    };
    timeout(Duration::from_secs(20), run)
        .await
        .expect("reconnecting finishes well within 20 s");
}

#[tokio::test]
async fn faults_over_a_pty_end_in_success_or_a_typed_error_in_time() {
    let board = board(&[C3]);
    let config_with_faults = VirtualDobotConfig {
        faults: DobotFaults {
            seed: 21,
            late_reply: 0.05,
            late_delay: Duration::from_millis(150),
            dropped_reply: 0.03,
            ..DobotFaults::NONE
        },
        ..VirtualDobotConfig::default()
    };
    let dobot = VirtualDobot::new(board.clone(), layout(), config_with_faults);
    let line = ByteFaults {
        seed: 22,
        drop: 0.002,
        corrupt: 0.002,
    };
    let run = async {
        let mut arm = None;
        for _ in 0..5 {
            if let Ok(connected) =
                DobotArm::connect(FaultyIo::new(plug(&dobot), line), config()).await
            {
                arm = Some(connected);
                break;
            }
        }
        let mut arm = arm.expect("one of five connection attempts succeeds");
        let one = arm.config().exchange_limit();
        let mut done = 0;
        for _ in 0..10 {
            let (from, to) = if board.occupancy().is_occupied(C3) {
                (C3, D4)
            } else {
                (D4, C3)
            };
            let round = async {
                for (target, suck) in [(from, true), (to, false)] {
                    let start = Instant::now();
                    let moved = arm.move_to(square(target), Motion::Jump).await;
                    assert!(start.elapsed() <= one * 2 + Duration::from_millis(50));
                    moved?;
                    let start = Instant::now();
                    let sucked = arm.set_suction(suck).await;
                    assert!(start.elapsed() <= one * 2 + Duration::from_millis(50));
                    sucked?;
                }
                let limit = arm.wait_limit() + Duration::from_millis(50);
                let start = Instant::now();
                let waited = arm.wait_until_idle().await;
                assert!(start.elapsed() <= limit);
                waited
            };
            match round.await {
                Ok(()) => {
                    done += 1;
                    assert_eq!(occupied(&board), [to]);
                }
                Err(error) => {
                    assert!(
                        matches!(error.kind(), ErrorKind::Timeout | ErrorKind::Protocol),
                        "{error:?}"
                    );
                    arm.abort().await.ok();
                    if dobot.holding() {
                        arm.move_to(square(to), Motion::Jump).await.ok();
                        arm.set_suction(false).await.ok();
                        arm.wait_until_idle().await.ok();
                    }
                }
            }
            assert_eq!(occupied(&board).len() + usize::from(dobot.holding()), 1);
        }
        assert!(done >= 5, "{done} of 10 rounds done");
        assert!(arm.stats().failed_attempts > 0, "the faults were felt");
    };
    timeout(Duration::from_secs(30), run)
        .await
        .expect("the fault run finishes well within 30 s");
}
