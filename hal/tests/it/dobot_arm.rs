//! The Dobot driver against the virtual Dobot over an in-memory pipe, on tokio's paused clock:
//! a whole pick-and-place that really moves pieces, flow control, a stuck queue, alarms, faults
//! on every layer, and reconnecting to the same arm.

use std::future::Future;
use std::time::Duration;

use hal::device::{Arm, Motion, Pose};
use hal::dobot::{DobotArm, DobotConfig, DobotError};
use hal::sim::board::SimBoardHandle;
use hal::sim::dobot::{DobotFaults, MOTION_ALARM, SimRack, VirtualDobot, VirtualDobotConfig};
use hal::sim::faulty_io::{ByteFaults, FaultCount, FaultyIo};
use hal::{Error as _, ErrorKind};
use tokio::io::{AsyncRead, AsyncWrite, DuplexStream, duplex};
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep};

use crate::dobot_rig::{C3, D4, E5, board, carry, layout, occupied, square};

fn virtual_dobot(board: &SimBoardHandle, config: VirtualDobotConfig) -> VirtualDobot {
    VirtualDobot::new(board.clone(), layout(), config)
}

/// Serves `dobot` on a fresh pipe and returns the host's end.
fn plug(dobot: &VirtualDobot) -> (DuplexStream, JoinHandle<std::io::Result<()>>) {
    let (host, device) = duplex(1024);
    (host, tokio::spawn(dobot.serve(device).run()))
}

async fn connect<T>(io: T) -> DobotArm<T>
where
    T: AsyncRead + AsyncWrite + Unpin + Send,
{
    DobotArm::connect(io, DobotConfig::default())
        .await
        .expect("the arm answers")
}

#[tokio::test(start_paused = true)]
async fn a_whole_pick_and_place_moves_the_pieces() {
    let board = board(&[C3, E5]);
    let dobot = virtual_dobot(&board, VirtualDobotConfig::default());
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    assert_eq!(
        (
            arm.version().major,
            arm.version().minor,
            arm.version().revision
        ),
        (3, 5, 1)
    );

    let start = Instant::now();
    // The robot's man goes c3-d4, the visitor's piece on e5 goes to the trophy bin.
    carry(&mut arm, square(C3), square(D4)).await.unwrap();
    carry(&mut arm, square(E5), layout().bin).await.unwrap();
    arm.park().await.unwrap();
    // Queued, not done: the board has not changed yet.
    assert_eq!(occupied(&board), [C3, E5]);
    assert!(dobot.busy());

    arm.wait_until_idle().await.unwrap();
    assert_eq!(occupied(&board), [D4]);
    assert_eq!(dobot.trophies(), 1);
    assert!(!dobot.holding());
    let stats = dobot.stats();
    assert_eq!(
        (stats.picks, stats.pieces_lost, stats.collisions),
        (2, 0, 0)
    );
    assert_eq!(dobot.pose(), DobotConfig::default().park);
    assert_eq!(arm.pose().await.unwrap(), DobotConfig::default().park);
    assert_eq!(arm.executed_index(), dobot.last_index());
    // Four jumps across the board at 150 mm/s take seconds, not milliseconds.
    let took = start.elapsed();
    assert!(
        took > Duration::from_secs(4) && took < Duration::from_secs(30),
        "{took:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn pieces_go_into_the_rack_and_come_back_out_of_it() {
    let board = board(&[C3, E5]);
    // Two rows of three slots left of the board, 30 mm apart; the bin out of their way.
    let rack = SimRack {
        rows: 2,
        columns: 3,
        first: Pose {
            x: 180.0,
            y: 130.0,
            z: -40.0,
            r: 0.0,
        },
        along_row: (30.0, 0.0),
        between_rows: (0.0, 30.0),
    };
    let bin = Pose {
        x: 150.0,
        y: -150.0,
        z: -40.0,
        r: 0.0,
    };
    let layout = layout().with_rack(rack, bin);
    let dobot = VirtualDobot::new(board.clone(), layout, VirtualDobotConfig::default());
    assert_eq!(board.rack(), [false; 6], "the board gets the rack's slots");
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    let slot = |i: usize| rack.slot_pose(i).unwrap();

    // The piece on e5 goes into slot 5, c3's into slot 5 too (a collision: it falls off).
    carry(&mut arm, square(E5), slot(4)).await.unwrap();
    carry(&mut arm, square(C3), slot(4)).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(board.rack(), [false, false, false, false, true, false]);
    assert_eq!(occupied(&board), Vec::<usize>::new());
    assert_eq!(dobot.stats().collisions, 1);

    // Back out of slot 5 onto d4; an empty slot gives nothing.
    carry(&mut arm, slot(4), square(D4)).await.unwrap();
    carry(&mut arm, slot(0), square(E5)).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(board.rack(), [false; 6]);
    assert_eq!(occupied(&board), [D4]);
    assert_eq!(dobot.trophies(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_small_queue_is_fed_as_it_drains() {
    let board = board(&[]);
    let config = VirtualDobotConfig {
        queue_capacity: 2,
        ..VirtualDobotConfig::default()
    };
    let dobot = virtual_dobot(&board, config);
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    let targets: Vec<Pose> = [0, 5, 10, 15, 20, 25, 30, 3].map(square).to_vec();
    for &target in &targets {
        arm.move_to(target, Motion::Joint).await.unwrap();
        assert!(dobot.queued() <= 2);
    }
    arm.wait_until_idle().await.unwrap();
    assert_eq!(dobot.stats().queue_overflows, 0);
    assert_eq!(dobot.pose(), targets[7]);
    assert_eq!(arm.executed_index(), dobot.last_index());
}

#[tokio::test(start_paused = true)]
async fn a_stuck_queue_is_cleared_and_reported_in_time() {
    let board = board(&[C3]);
    let dobot = virtual_dobot(&board, VirtualDobotConfig::default());
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    arm.move_to(square(C3), Motion::Jump).await.unwrap();
    arm.move_to(square(D4), Motion::Jump).await.unwrap();
    dobot.set_stalled(true);

    let limit = arm.wait_limit();
    let start = Instant::now();
    let error = arm.wait_until_idle().await.unwrap_err();
    assert!(
        start.elapsed() <= limit,
        "{:?} > {limit:?}",
        start.elapsed()
    );
    assert!(matches!(error, DobotError::QueueStuck { .. }), "{error:?}");
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert_eq!(dobot.queued(), 0, "the queue was cleared");
    assert_eq!(arm.stats().queue_recoveries, 1);

    // The arm works again once the firmware does, and the driver's index is in step.
    dobot.set_stalled(false);
    arm.move_to(square(D4), Motion::Jump).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(dobot.pose(), square(D4));
    assert_eq!(arm.executed_index(), dobot.last_index());
}

#[tokio::test(start_paused = true)]
async fn an_alarm_mid_move_stops_the_queue_with_a_typed_error() {
    let board = board(&[C3]);
    let config = VirtualDobotConfig {
        faults: DobotFaults {
            seed: 5,
            alarm_mid_move: 1.0,
            ..DobotFaults::NONE
        },
        ..VirtualDobotConfig::default()
    };
    let dobot = virtual_dobot(&board, config);
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    carry(&mut arm, square(C3), square(D4)).await.unwrap();
    let error = arm.wait_until_idle().await.unwrap_err();
    let DobotError::Alarm { alarms, .. } = error else {
        panic!("expected an alarm, got {error:?}");
    };
    assert!(alarms.contains(MOTION_ALARM));
    assert_eq!(error.kind(), ErrorKind::Alarm);
    assert_eq!(dobot.queued(), 0);
    // The piece was never reached: it is still on c3.
    assert_eq!(occupied(&board), [C3]);
    assert!(arm.alarms().await.unwrap().contains(MOTION_ALARM));

    arm.clear_alarms().await.unwrap();
    assert!(arm.alarms().await.unwrap().is_empty());
    dobot.set_faults(DobotFaults::NONE);
    carry(&mut arm, square(C3), square(D4)).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(occupied(&board), [D4]);
}

#[tokio::test(start_paused = true)]
async fn a_failed_pick_leaves_the_piece() {
    let board = board(&[C3]);
    let config = VirtualDobotConfig {
        faults: DobotFaults {
            seed: 1,
            failed_pick: 1.0,
            ..DobotFaults::NONE
        },
        ..VirtualDobotConfig::default()
    };
    let dobot = virtual_dobot(&board, config);
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    carry(&mut arm, square(C3), square(D4)).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(occupied(&board), [C3]);
    assert_eq!(dobot.stats().failed_picks, 1);
    assert_eq!(dobot.stats().pieces_lost, 0);
}

#[tokio::test(start_paused = true)]
async fn a_spare_king_comes_from_the_reserve() {
    let board = board(&[]);
    let dobot = virtual_dobot(&board, VirtualDobotConfig::default());
    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    let reserve = dobot.reserve();
    carry(&mut arm, layout().reserve, square(28)).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(occupied(&board), [28]);
    assert_eq!(dobot.reserve(), reserve - 1);
}

/// Runs one driver call and checks that it ends within `limit`, returning its result.
async fn bounded<R>(
    what: &str,
    limit: Duration,
    call: impl Future<Output = Result<R, DobotError>>,
) -> Result<R, DobotError> {
    let start = Instant::now();
    let result = call.await;
    let took = start.elapsed();
    assert!(took <= limit, "{what} took {took:?}, more than {limit:?}");
    if let Err(error) = &result {
        assert!(
            matches!(
                error.kind(),
                ErrorKind::Timeout | ErrorKind::Protocol | ErrorKind::Alarm
            ),
            "{what}: {error:?}"
        );
    }
    result
}

/// One pick-and-place and the wait for it, every call checked against its bound.
async fn carry_bounded<T>(arm: &mut DobotArm<T>, from: Pose, to: Pose) -> Result<(), DobotError>
where
    T: AsyncRead + AsyncWrite + Unpin + Send,
{
    // A queued call is a left-space query and the command itself while the queue has room.
    let queued = arm.config().exchange_limit() * 2;
    bounded("move", queued, arm.move_to(from, Motion::Jump)).await?;
    bounded("suck", queued, arm.set_suction(true)).await?;
    bounded("move", queued, arm.move_to(to, Motion::Jump)).await?;
    bounded("release", queued, arm.set_suction(false)).await?;
    let limit = arm.wait_limit();
    bounded("wait", limit, arm.wait_until_idle()).await
}

/// Brings the arm back to a known state after a failed call, as the daemon would: drop the
/// queue, clear alarms, and put a held piece down on `empty`. The queue goes first: clearing
/// an alarm lets the arm go on with its queue from wherever the alarm stopped it, and a release
/// queued after the interrupted move would drop the piece off the board.
async fn recover<T>(arm: &mut DobotArm<T>, dobot: &VirtualDobot, empty: Pose)
where
    T: AsyncRead + AsyncWrite + Unpin + Send,
{
    let one = arm.config().exchange_limit();
    for _ in 0..20 {
        let cleaned = async {
            bounded("abort", one * 5, arm.abort()).await?;
            bounded("clear alarms", one, arm.clear_alarms()).await?;
            if dobot.holding() {
                bounded("move", one * 2, arm.move_to(empty, Motion::Jump)).await?;
                bounded("release", one * 2, arm.set_suction(false)).await?;
                let limit = arm.wait_limit();
                bounded("wait", limit, arm.wait_until_idle()).await?;
            }
            Ok::<(), DobotError>(())
        };
        if cleaned.await.is_ok() && !dobot.holding() && dobot.alarms().is_empty() {
            return;
        }
    }
    panic!("the arm could not be brought back to a known state");
}

/// Connects to `dobot` through a line that loses and damages bytes both ways. A connection
/// attempt may fail under such faults (with a typed error); the daemon then opens the port
/// again, and so does this.
async fn connect_through_faults(
    dobot: &VirtualDobot,
    seed: u64,
) -> (DobotArm<FaultyIo<DuplexStream>>, FaultCount) {
    let line = |seed| ByteFaults {
        seed,
        drop: 0.002,
        corrupt: 0.002,
    };
    for attempt in 0..10 {
        let (host, device) = duplex(1024);
        let host = FaultyIo::new(host, line(seed + 2 * attempt));
        let count = host.count();
        tokio::spawn(
            dobot
                .serve(FaultyIo::new(device, line(seed + 2 * attempt + 1)))
                .run(),
        );
        match DobotArm::connect(host, DobotConfig::default()).await {
            Ok(arm) => return (arm, count),
            Err(error) => assert_ne!(error.kind(), ErrorKind::Disconnected, "{error:?}"),
        }
    }
    panic!("ten connection attempts failed");
}

/// Connects to `dobot` over a clean pipe, again if the arm's own faults make an attempt fail.
async fn connect_despite_faults(dobot: &VirtualDobot) -> DobotArm<DuplexStream> {
    for _ in 0..10 {
        let (io, _server) = plug(dobot);
        if let Ok(arm) = DobotArm::connect(io, DobotConfig::default()).await {
            return arm;
        }
    }
    panic!("ten connection attempts failed");
}

#[tokio::test(start_paused = true)]
async fn under_faults_every_call_completes_or_fails_typed_in_time() {
    let board = board(&[C3, 31]);
    let config = VirtualDobotConfig {
        faults: DobotFaults {
            seed: 7,
            failed_pick: 0.1,
            late_reply: 0.05,
            late_delay: Duration::from_millis(400),
            dropped_reply: 0.03,
            alarm_mid_move: 0.05,
        },
        ..VirtualDobotConfig::default()
    };
    let dobot = virtual_dobot(&board, config);
    let (mut arm, host_faults) = connect_through_faults(&dobot, 11).await;

    // Shuttle the piece between c3 and d4, planning each round from where it really is, as the
    // daemon does from a scan.
    let (mut done, mut failed) = (0, 0);
    for _ in 0..40 {
        let (from, to) = if board.occupancy().is_occupied(C3) {
            (C3, D4)
        } else {
            (D4, C3)
        };
        let picks_failed = dobot.stats().failed_picks;
        match carry_bounded(&mut arm, square(from), square(to)).await {
            Ok(()) => {
                done += 1;
                let now = occupied(&board);
                if dobot.stats().failed_picks == picks_failed {
                    assert_eq!(now, [to, 31], "a round that succeeded");
                } else {
                    // The pick failed, unless a retried suction command picked it after all.
                    assert!(now == [from, 31] || now == [to, 31], "{now:?}");
                }
            }
            Err(error) => {
                failed += 1;
                eprintln!("round failed: {error}");
                recover(&mut arm, &dobot, square(to)).await;
            }
        }
        let pieces = occupied(&board).len();
        assert_eq!(
            pieces,
            2,
            "no piece appears or disappears: holding {}, {:?}",
            dobot.holding(),
            dobot.stats()
        );
    }
    let arm_stats = arm.stats();
    let dobot_stats = dobot.stats();
    assert!(done >= 20, "{done} rounds done, {failed} failed");
    assert!(failed > 0, "the faults made some rounds fail");
    assert!(arm_stats.failed_attempts > 0 && arm_stats.bad_frames > 0);
    assert!(host_faults.dropped() + host_faults.corrupted() > 0);
    assert!(dobot_stats.late_replies > 0 && dobot_stats.dropped_replies > 0);
    assert!(dobot_stats.alarms_raised > 0 && dobot_stats.failed_picks > 0);
    assert_eq!((dobot_stats.pieces_lost, dobot_stats.collisions), (0, 0));
}

#[tokio::test(start_paused = true)]
async fn under_faults_idle_means_the_last_move_is_done() {
    // Late replies to one move must never be taken for the answer to the next: the driver would
    // then wait for the wrong index and report idle while the arm still moves.
    let board = board(&[]);
    let config = VirtualDobotConfig {
        faults: DobotFaults {
            seed: 3,
            late_reply: 0.1,
            late_delay: Duration::from_millis(500),
            dropped_reply: 0.05,
            ..DobotFaults::NONE
        },
        ..VirtualDobotConfig::default()
    };
    let dobot = virtual_dobot(&board, config);
    let mut arm = connect_despite_faults(&dobot).await;
    let one = arm.config().exchange_limit();
    let mut done = 0;
    for round in 0..30 {
        let targets = [round % 32, (round * 7 + 3) % 32, (round * 13 + 5) % 32].map(square);
        let queued = async {
            for target in targets {
                bounded("move", one * 2, arm.move_to(target, Motion::Jump)).await?;
            }
            let limit = arm.wait_limit();
            bounded("wait", limit, arm.wait_until_idle()).await
        };
        if queued.await.is_ok() {
            done += 1;
            assert!(!dobot.busy(), "round {round}: idle reported while moving");
            assert_eq!(dobot.pose(), targets[2], "round {round}");
        } else {
            bounded("abort", one * 5, arm.abort()).await.ok();
        }
    }
    assert!(done >= 20, "{done} rounds done");
    assert!(dobot.stats().late_replies > 0 && arm.stats().failed_attempts > 0);
}

#[tokio::test(start_paused = true)]
async fn reconnecting_resynchronises_the_queue_and_keeps_the_game() {
    let board = board(&[C3, E5]);
    let dobot = virtual_dobot(&board, VirtualDobotConfig::default());
    let (io, server) = plug(&dobot);
    let mut arm = connect(io).await;
    carry(&mut arm, square(C3), square(D4)).await.unwrap();
    // The cable is pulled half-way through the move.
    sleep(Duration::from_millis(1500)).await;
    assert!(dobot.busy());
    drop(arm);
    server.await.unwrap().unwrap();

    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    // The arm finished what was queued before the reset: the piece is on d4, not in the cup.
    assert_eq!(occupied(&board), [D4, E5]);
    assert!(!dobot.holding());
    assert_eq!(arm.executed_index(), dobot.executed_index());
    assert_eq!(arm.last_queued_index(), dobot.executed_index());
    arm.wait_until_idle().await.unwrap();

    // The new session queues and waits on the arm's own indices.
    carry(&mut arm, square(E5), layout().bin).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(occupied(&board), [D4]);
    assert_eq!(dobot.trophies(), 1);
    assert_eq!(arm.executed_index(), dobot.last_index());
}

#[tokio::test(start_paused = true)]
async fn reconnecting_after_an_alarm_does_not_resume_the_interrupted_sequence() {
    let board = board(&[C3]);
    let dobot = virtual_dobot(&board, VirtualDobotConfig::default());
    let (io, server) = plug(&dobot);
    let mut arm = connect(io).await;
    carry(&mut arm, square(C3), square(D4)).await.unwrap();
    // The piece is in the cup and on its way when an alarm stops the arm and the link drops.
    while !dobot.holding() {
        sleep(Duration::from_millis(10)).await;
    }
    sleep(Duration::from_millis(100)).await;
    dobot.raise_alarm(MOTION_ALARM);
    drop(arm);
    server.await.unwrap().unwrap();

    let (io, _server) = plug(&dobot);
    let mut arm = connect(io).await;
    assert!(dobot.alarms().is_empty(), "connecting clears the alarm");
    assert_eq!(dobot.queued(), 0, "the interrupted sequence is discarded");
    assert!(
        dobot.holding(),
        "the piece was not dropped where the arm stopped"
    );
    assert_eq!(dobot.stats().pieces_lost, 0);
    // The daemon puts it down where it belongs.
    arm.move_to(square(D4), Motion::Jump).await.unwrap();
    arm.set_suction(false).await.unwrap();
    arm.wait_until_idle().await.unwrap();
    assert_eq!(occupied(&board), [D4]);
}

#[tokio::test(start_paused = true)]
async fn a_lost_link_is_reported_as_disconnected() {
    let board = board(&[]);
    let dobot = virtual_dobot(&board, VirtualDobotConfig::default());
    let (io, server) = plug(&dobot);
    let mut arm = connect(io).await;
    server.abort();
    let _ = server.await;
    let error = arm.pose().await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Disconnected);
    // Every later call fails at once instead of waiting for a link that is gone.
    let start = Instant::now();
    assert_eq!(
        arm.move_to(square(C3), Motion::Jump)
            .await
            .unwrap_err()
            .kind(),
        ErrorKind::Disconnected
    );
    assert_eq!(start.elapsed(), Duration::ZERO);
}
