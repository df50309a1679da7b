//! The virtual Dobot on its own, spoken to with raw frames (not through the driver, so the two
//! are not only checked against each other): the device side of the codec, the board layout,
//! and a queue that runs at the speed the host set, only once started.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use hal::controller::peer::PeerConfig;
use hal::device::{ArmAlarms, Pose};
use hal::dobot::{Command, CommandError, Ctrl, DobotCodec, DobotFrame, PtpMode, Reply, Suction};
use hal::sim::board::sim_board;
use hal::sim::dobot::{SimBoardLayout, VirtualDobot, VirtualDobotConfig};
use hal::{BoardSize, Occupancy};
use proptest::prelude::*;
use tokio::io::{AsyncWriteExt, DuplexStream, duplex};
use tokio::time::sleep;
use tokio_util::codec::Framed;

fn pose() -> impl Strategy<Value = Pose> {
    (
        -400f32..400.0,
        -400f32..400.0,
        -100f32..200.0,
        -180f32..180.0,
    )
        .prop_map(|(x, y, z, r)| Pose { x, y, z, r })
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::GetDeviceVersion),
        Just(Command::GetPose),
        Just(Command::GetAlarms),
        Just(Command::ClearAlarms),
        pose().prop_map(Command::SetHomeParams),
        Just(Command::Home),
        prop_oneof![
            Just(Suction::Off),
            Just(Suction::Suck),
            Just(Suction::Release)
        ]
        .prop_map(Command::SetSuction),
        (any::<[f32; 4]>(), any::<[f32; 4]>()).prop_map(|(velocity, acceleration)| {
            Command::SetPtpJointParams {
                velocity,
                acceleration,
            }
        }),
        any::<[f32; 4]>().prop_map(|[a, b, c, d]| Command::SetPtpCoordinateParams {
            xyz_velocity: a,
            r_velocity: b,
            xyz_acceleration: c,
            r_acceleration: d,
        }),
        any::<[f32; 2]>().prop_map(|[jump_height, z_limit]| Command::SetPtpJumpParams {
            jump_height,
            z_limit,
        }),
        any::<[f32; 2]>().prop_map(|[velocity_ratio, acceleration_ratio]| {
            Command::SetPtpCommonParams {
                velocity_ratio,
                acceleration_ratio,
            }
        }),
        (0..PtpMode::ALL.len(), pose()).prop_map(|(mode, target)| Command::Ptp {
            mode: PtpMode::ALL[mode],
            target,
        }),
        any::<u32>().prop_map(|milliseconds| Command::Wait { milliseconds }),
        Just(Command::StartQueue),
        Just(Command::StopQueue),
        Just(Command::ForceStopQueue),
        Just(Command::ClearQueue),
        Just(Command::GetQueueIndex),
        Just(Command::GetQueueLeftSpace),
    ]
}

/// Compares commands by their bytes, so NaN parameters compare equal to themselves.
fn same(a: &Command, b: &Command) -> bool {
    a.to_frame() == b.to_frame()
}

proptest! {
    #[test]
    fn every_command_reads_back_as_sent(command in command()) {
        let read = Command::from_frame(&command.to_frame());
        prop_assert!(read.as_ref().is_ok_and(|read| same(read, &command)), "{read:?}");
    }

    #[test]
    fn every_reply_a_device_sends_parses_back(command in command(), index in any::<u64>(),
            pose in pose(), codes in proptest::collection::vec(0u8..128, 0..6)) {
        let reply = match command {
            Command::GetDeviceVersion => Reply::DeviceVersion { major: 3, minor: 5, revision: 1 },
            Command::GetPose => Reply::Pose { pose, joints: [1.0, 2.0, 3.0, 4.0] },
            Command::GetAlarms => Reply::Alarms(ArmAlarms::from_codes(codes)),
            Command::GetQueueIndex => Reply::QueueIndex(index),
            Command::GetQueueLeftSpace => Reply::QueueLeftSpace(index as u32),
            _ if command.ctrl().is_queued() => Reply::Queued { index },
            _ => Reply::Done,
        };
        prop_assert_eq!(command.parse_reply(&reply.to_frame(&command)), Ok(reply));
    }

    #[test]
    fn frames_that_are_no_command_are_refused_without_panic(id in any::<u8>(), ctrl in 0u8..4,
            params in proptest::collection::vec(any::<u8>(), 0..40)) {
        let frame = DobotFrame::new(id, Ctrl(ctrl), params).unwrap();
        if let Ok(command) = Command::from_frame(&frame) {
            // Whatever is accepted is exactly what that command sends.
            prop_assert_eq!(command.to_frame(), frame);
        }
    }
}

#[test]
fn flag_bytes_other_than_the_three_suction_states_are_refused() {
    let suction = |params: &[u8]| {
        Command::from_frame(&DobotFrame::new(62, Ctrl::QUEUED_WRITE, params.to_vec()).unwrap())
    };
    assert_eq!(suction(&[0, 0]).unwrap(), Command::SetSuction(Suction::Off));
    assert_eq!(
        suction(&[1, 0]).unwrap(),
        Command::SetSuction(Suction::Release)
    );
    assert_eq!(
        suction(&[1, 1]).unwrap(),
        Command::SetSuction(Suction::Suck)
    );
    for odd in [[0, 1], [2, 0], [1, 7]] {
        assert!(
            matches!(suction(&odd), Err(CommandError::Value { id: 62 })),
            "{odd:?}"
        );
    }
    let home = |params: &[u8]| {
        Command::from_frame(&DobotFrame::new(31, Ctrl::QUEUED_WRITE, params.to_vec()).unwrap())
    };
    assert_eq!(home(&[0; 4]).unwrap(), Command::Home);
    assert!(matches!(
        home(&[0, 0, 1, 0]),
        Err(CommandError::Value { id: 31 })
    ));
}

#[test]
fn the_layout_maps_squares_and_poses_both_ways() {
    for size in BoardSize::ALL {
        let a1 = Pose {
            x: 140.0,
            y: 100.0,
            z: -42.0,
            r: 0.0,
        };
        let layout = SimBoardLayout::new(size, a1, 20.0);
        for square in 0..size.square_count() {
            let centre = layout.square_pose(square).unwrap();
            assert_eq!(
                layout.square_under(centre),
                Some(square),
                "{size:?} {square}"
            );
            let near = Pose {
                x: centre.x + layout.tolerance * 0.7,
                y: centre.y - layout.tolerance * 0.7,
                ..centre
            };
            assert_eq!(layout.square_under(near), Some(square));
            let off = Pose {
                x: centre.x + layout.tolerance + 0.5,
                ..centre
            };
            assert_eq!(layout.square_under(off), None);
            assert!(!layout.over_bin(centre) && !layout.over_reserve(centre));
        }
        assert_eq!(layout.square_pose(size.square_count()), None);
        // b1 is a light square: no sensor, no square.
        let b1 = Pose {
            y: a1.y - layout.pitch,
            ..a1
        };
        assert_eq!(layout.square_under(b1), None);
        assert_eq!(layout.square_under(layout.bin), None);
        assert_eq!(layout.square_under(layout.reserve), None);
    }
    // Dense numbering: c3 is square 9 and d4 square 13 on 8x8, with files towards -y.
    let layout = SimBoardLayout::new(BoardSize::Squares32, Pose::default(), 25.0);
    let c3 = layout.square_pose(9).unwrap();
    assert_eq!((c3.x, c3.y), (50.0, -50.0));
    let d4 = layout.square_pose(13).unwrap();
    assert_eq!((d4.x, d4.y), (75.0, -75.0));
}

/// A host end that speaks raw frames to a fresh virtual Dobot.
fn raw_host() -> (Framed<DuplexStream, DobotCodec>, VirtualDobot) {
    let (io, _unused) = duplex(64);
    let (board, _controller) = sim_board(
        io,
        Occupancy::empty(BoardSize::Squares32),
        PeerConfig::default(),
    );
    let layout = SimBoardLayout::new(BoardSize::Squares32, Pose::default(), 25.0);
    let dobot = VirtualDobot::new(board, layout, VirtualDobotConfig::default());
    let (host, device) = duplex(1024);
    tokio::spawn(dobot.serve(device).run());
    (Framed::new(host, DobotCodec::new()), dobot)
}

async fn ask(host: &mut Framed<DuplexStream, DobotCodec>, command: Command) -> Reply {
    host.send(command.to_frame()).await.unwrap();
    let frame = host.next().await.unwrap().unwrap().unwrap();
    command.parse_reply(&frame).unwrap()
}

#[tokio::test(start_paused = true)]
async fn the_queue_runs_only_once_started_and_at_the_speed_set() {
    let (mut host, dobot) = raw_host();
    let home = VirtualDobotConfig::default().home;
    // 100 mm straight ahead at 100 mm/s and 100 mm/s²: 1 s to reach full speed, 1 s to brake.
    for command in [
        Command::SetPtpCoordinateParams {
            xyz_velocity: 100.0,
            r_velocity: 100.0,
            xyz_acceleration: 100.0,
            r_acceleration: 100.0,
        },
        Command::SetPtpCommonParams {
            velocity_ratio: 100.0,
            acceleration_ratio: 100.0,
        },
    ] {
        assert_eq!(ask(&mut host, command).await, Reply::Done);
    }
    let target = Pose {
        x: home.x + 100.0,
        ..home
    };
    let ptp = Command::Ptp {
        mode: PtpMode::MovlXyz,
        target,
    };
    assert_eq!(ask(&mut host, ptp).await, Reply::Queued { index: 1 });
    sleep(Duration::from_secs(5)).await;
    // Not started: nothing moved.
    assert_eq!(
        ask(&mut host, Command::GetQueueIndex).await,
        Reply::QueueIndex(0)
    );
    assert_eq!(dobot.pose(), home);

    assert_eq!(ask(&mut host, Command::StartQueue).await, Reply::Done);
    sleep(Duration::from_secs(1)).await;
    let Reply::Pose { pose, .. } = ask(&mut host, Command::GetPose).await else {
        panic!("a pose reply");
    };
    assert!(
        (pose.x - (home.x + 50.0)).abs() < 1.0,
        "half-way at 1 s: {pose:?}"
    );
    sleep(Duration::from_millis(900)).await;
    assert_eq!(
        ask(&mut host, Command::GetQueueIndex).await,
        Reply::QueueIndex(0)
    );
    sleep(Duration::from_millis(200)).await;
    assert_eq!(
        ask(&mut host, Command::GetQueueIndex).await,
        Reply::QueueIndex(1)
    );
    assert_eq!(dobot.pose(), target);
}

#[tokio::test(start_paused = true)]
async fn damaged_frames_are_ignored_and_the_next_answered() {
    let (mut host, dobot) = raw_host();
    let mut damaged = bytes::BytesMut::new();
    Command::GetPose.to_frame().encode(&mut damaged);
    let last = damaged.len() - 1;
    damaged[last] ^= 0x01;
    host.get_mut().write_all(&damaged).await.unwrap();
    host.get_mut().write_all(&[0x00, 0x13, 0x37]).await.unwrap();
    assert_eq!(
        ask(&mut host, Command::GetDeviceVersion).await,
        Reply::DeviceVersion {
            major: 3,
            minor: 5,
            revision: 1
        }
    );
    assert!(dobot.stats().bad_frames >= 1);
    assert_eq!(dobot.stats().commands, 1);
}

#[tokio::test(start_paused = true)]
async fn a_full_queue_takes_nothing_and_says_so_in_its_left_space() {
    let (mut host, dobot) = raw_host();
    let capacity = VirtualDobotConfig::default().queue_capacity;
    let wait = Command::Wait { milliseconds: 10 };
    for index in 1..=capacity as u64 {
        assert_eq!(ask(&mut host, wait).await, Reply::Queued { index });
    }
    assert_eq!(
        ask(&mut host, Command::GetQueueLeftSpace).await,
        Reply::QueueLeftSpace(0)
    );
    host.send(wait.to_frame()).await.unwrap();
    // No answer to the command that did not fit; the next command is answered.
    assert_eq!(
        ask(&mut host, Command::GetQueueIndex).await,
        Reply::QueueIndex(0)
    );
    assert_eq!(dobot.stats().queue_overflows, 1);
    assert_eq!(ask(&mut host, Command::ClearQueue).await, Reply::Done);
    assert_eq!(
        ask(&mut host, Command::GetQueueLeftSpace).await,
        Reply::QueueLeftSpace(capacity as u32)
    );
    // Discarded commands count as done, so a host waiting on an index is not left hanging.
    assert_eq!(
        ask(&mut host, Command::GetQueueIndex).await,
        Reply::QueueIndex(capacity as u64)
    );
}
