//! The Dobot codec, commands and replies from byte arrays.

use bytes::BytesMut;
use hal::device::{ArmAlarms, Pose};
use hal::dobot::{
    Command, Ctrl, DobotCodec, DobotFrame, DobotFrameError, PtpMode, Reply, ReplyError, Suction,
};
use proptest::prelude::*;
use tokio_util::codec::{Decoder, Encoder};

type Item = Result<DobotFrame, DobotFrameError>;

/// `GetPose` as every public driver sends it.
const GET_POSE: [u8; 6] = [0xAA, 0xAA, 0x02, 0x0A, 0x00, 0xF6];

fn wire(frame: &DobotFrame) -> Vec<u8> {
    let mut out = BytesMut::new();
    DobotCodec::new().encode(frame, &mut out).unwrap();
    out.to_vec()
}

fn frame(id: u8, ctrl: Ctrl, params: &[u8]) -> DobotFrame {
    DobotFrame::new(id, ctrl, params.to_vec()).unwrap()
}

fn decode_with(mut codec: DobotCodec, bytes: &[u8]) -> Vec<Item> {
    let mut buffer = BytesMut::from(bytes);
    let mut items = Vec::new();
    while let Some(item) = codec.decode_eof(&mut buffer).unwrap() {
        items.push(item);
    }
    items
}

fn decode_all(bytes: &[u8]) -> Vec<Item> {
    decode_with(DobotCodec::new(), bytes)
}

fn decode_in_chunks(bytes: &[u8], chunk_sizes: &[usize]) -> Vec<Item> {
    // A frame the codec accepts is at most 3 + 2 + 64 + 1 bytes.
    crate::support::decode_in_chunks(DobotCodec::new(), bytes, chunk_sizes, 70)
}

fn ok_frames(items: &[Item]) -> Vec<DobotFrame> {
    items.iter().filter_map(|item| item.clone().ok()).collect()
}

fn get_pose() -> DobotFrame {
    frame(10, Ctrl::READ, &[])
}

#[test]
fn a_partial_frame_decodes_to_nothing_until_complete() {
    let mut codec = DobotCodec::new();
    let mut buffer = BytesMut::new();
    for &byte in &GET_POSE[..5] {
        buffer.extend_from_slice(&[byte]);
        assert_eq!(codec.decode(&mut buffer).unwrap(), None);
    }
    buffer.extend_from_slice(&GET_POSE[5..]);
    assert_eq!(codec.decode(&mut buffer).unwrap(), Some(Ok(get_pose())));
    assert!(buffer.is_empty());
}

#[test]
fn junk_before_a_sync_mark_is_dropped_and_reported() {
    let mut bytes = vec![0x01, 0x02, 0xAA, 0x03];
    bytes.extend_from_slice(&GET_POSE);
    assert_eq!(
        decode_all(&bytes),
        [Err(DobotFrameError::Junk { len: 4 }), Ok(get_pose())]
    );
}

#[test]
fn a_lone_sync_byte_at_the_end_is_kept_for_the_next_read() {
    let mut codec = DobotCodec::new();
    let mut buffer = BytesMut::from(&[0x17, 0xAA][..]);
    assert_eq!(
        codec.decode(&mut buffer).unwrap(),
        Some(Err(DobotFrameError::Junk { len: 1 }))
    );
    assert_eq!(codec.decode(&mut buffer).unwrap(), None);
    buffer.extend_from_slice(&GET_POSE[1..]);
    assert_eq!(codec.decode(&mut buffer).unwrap(), Some(Ok(get_pose())));
}

#[test]
fn a_bad_checksum_drops_one_byte_and_finds_the_next_frame() {
    let mut bytes = GET_POSE.to_vec();
    bytes[5] = 0xF7;
    bytes.extend_from_slice(&GET_POSE);
    let items = decode_all(&bytes);
    assert_eq!(
        items[0],
        Err(DobotFrameError::BadChecksum {
            id: 10,
            received: 0xF7,
            computed: 0xF6
        })
    );
    assert_eq!(ok_frames(&items), [get_pose()]);
}

#[test]
fn a_real_frame_inside_a_false_one_is_found() {
    // A false sync mark whose length swallows a real frame, and a wrong checksum.
    let mut bytes = vec![0xAA, 0xAA, 0x08, 0x0A, 0x00];
    bytes.extend_from_slice(&GET_POSE);
    bytes.push(0x00);
    let items = decode_all(&bytes);
    assert!(
        matches!(items[0], Err(DobotFrameError::BadChecksum { .. })),
        "{items:?}"
    );
    assert_eq!(ok_frames(&items), [get_pose()]);
}

#[test]
fn lengths_out_of_range_are_resynchronised() {
    // Too short for id and ctrl.
    let mut bytes = vec![0xAA, 0xAA, 0x01, 0x0A, 0xF6];
    bytes.extend_from_slice(&GET_POSE);
    let items = decode_all(&bytes);
    assert_eq!(items[0], Err(DobotFrameError::BadLength { len: 1 }));
    assert_eq!(ok_frames(&items), [get_pose()]);

    // A third sync byte would read as 170 parameter bytes and stall the reply behind it.
    let mut bytes = vec![0xAA];
    bytes.extend_from_slice(&GET_POSE);
    let items = decode_all(&bytes);
    assert_eq!(
        items,
        [
            Err(DobotFrameError::BadLength { len: 0xAA }),
            Ok(get_pose())
        ]
    );
}

#[test]
fn the_parameter_limit_can_be_raised() {
    let long = frame(1, Ctrl::READ, &[0x33; 168]);
    let bytes = wire(&long);
    assert_eq!(bytes[2], 0xAA);
    assert!(matches!(
        decode_all(&bytes)[0],
        Err(DobotFrameError::BadLength { len: 0xAA })
    ));
    assert_eq!(
        decode_with(DobotCodec::with_max_params_len(253), &bytes),
        [Ok(long)]
    );
}

#[test]
fn a_stream_ending_inside_a_frame_reports_the_truncation() {
    assert_eq!(
        decode_all(&GET_POSE[..4]),
        [Err(DobotFrameError::Truncated { len: 4 })]
    );
}

#[test]
fn commands_use_the_documented_ids_and_control_bytes() {
    let pose = Pose::default();
    let table: [(Command, u8, Ctrl); 18] = [
        (Command::GetDeviceVersion, 2, Ctrl::READ),
        (Command::GetPose, 10, Ctrl::READ),
        (Command::GetAlarms, 20, Ctrl::READ),
        (Command::ClearAlarms, 20, Ctrl::WRITE),
        (Command::SetHomeParams(pose), 30, Ctrl::WRITE),
        (Command::Home, 31, Ctrl::QUEUED_WRITE),
        (Command::SetSuction(Suction::Suck), 62, Ctrl::QUEUED_WRITE),
        (
            Command::SetPtpJointParams {
                velocity: [0.0; 4],
                acceleration: [0.0; 4],
            },
            80,
            Ctrl::WRITE,
        ),
        (
            Command::SetPtpCoordinateParams {
                xyz_velocity: 0.0,
                r_velocity: 0.0,
                xyz_acceleration: 0.0,
                r_acceleration: 0.0,
            },
            81,
            Ctrl::WRITE,
        ),
        (
            Command::SetPtpJumpParams {
                jump_height: 0.0,
                z_limit: 0.0,
            },
            82,
            Ctrl::WRITE,
        ),
        (
            Command::SetPtpCommonParams {
                velocity_ratio: 0.0,
                acceleration_ratio: 0.0,
            },
            83,
            Ctrl::WRITE,
        ),
        (
            Command::Ptp {
                mode: PtpMode::JumpXyz,
                target: pose,
            },
            84,
            Ctrl::QUEUED_WRITE,
        ),
        (Command::Wait { milliseconds: 0 }, 110, Ctrl::QUEUED_WRITE),
        (Command::StartQueue, 240, Ctrl::WRITE),
        (Command::StopQueue, 241, Ctrl::WRITE),
        (Command::ForceStopQueue, 242, Ctrl::WRITE),
        (Command::ClearQueue, 245, Ctrl::WRITE),
        (Command::GetQueueIndex, 246, Ctrl::READ),
    ];
    for (command, id, ctrl) in table {
        let frame = command.to_frame();
        assert_eq!((frame.id(), frame.ctrl()), (id, ctrl), "{command:?}");
    }
    assert_eq!(Command::GetQueueLeftSpace.to_frame().id(), 247);
}

#[test]
fn parameter_layouts_follow_the_protocol() {
    let ptp = Command::Ptp {
        mode: PtpMode::MovlXyz,
        target: Pose {
            x: 1.0,
            y: -2.0,
            z: 0.5,
            r: 90.0,
        },
    };
    let params = ptp.params();
    assert_eq!(params.len(), 17);
    assert_eq!(params[0], 2);
    assert_eq!(&params[1..5], 1.0f32.to_le_bytes());
    assert_eq!(&params[13..17], 90.0f32.to_le_bytes());

    assert_eq!(&Command::SetSuction(Suction::Off).params()[..], [0, 0]);
    assert_eq!(&Command::SetSuction(Suction::Suck).params()[..], [1, 1]);
    assert_eq!(&Command::SetSuction(Suction::Release).params()[..], [1, 0]);
    assert_eq!(
        &Command::Wait { milliseconds: 500 }.params()[..],
        500u32.to_le_bytes()
    );
    let joint = Command::SetPtpJointParams {
        velocity: [1.0, 2.0, 3.0, 4.0],
        acceleration: [5.0, 6.0, 7.0, 8.0],
    };
    assert_eq!(&joint.params()[28..32], 8.0f32.to_le_bytes());
    assert_eq!(PtpMode::JumpMovlXyz as u8, 9);
}

#[test]
fn replies_are_read_for_the_command_that_asked() {
    let queued = frame(84, Ctrl::QUEUED_WRITE, &7u64.to_le_bytes());
    let jump = Command::Ptp {
        mode: PtpMode::JumpXyz,
        target: Pose::default(),
    };
    assert_eq!(jump.parse_reply(&queued), Ok(Reply::Queued { index: 7 }));
    assert_eq!(
        Command::SetSuction(Suction::Suck).parse_reply(&queued),
        Err(ReplyError::WrongId {
            expected: 62,
            received: 84
        })
    );
    assert_eq!(
        Command::ClearAlarms.parse_reply(&frame(20, Ctrl::WRITE, &[])),
        Ok(Reply::Done)
    );
    assert_eq!(
        Command::StartQueue.parse_reply(&frame(240, Ctrl::WRITE, &[1])),
        Err(ReplyError::Length { id: 240, len: 1 })
    );
    assert_eq!(
        Command::GetQueueLeftSpace.parse_reply(&frame(247, Ctrl::READ, &32u32.to_le_bytes())),
        Ok(Reply::QueueLeftSpace(32))
    );
    assert_eq!(
        Command::GetDeviceVersion.parse_reply(&frame(2, Ctrl::READ, &[3, 1, 4, 9])),
        Ok(Reply::DeviceVersion {
            major: 3,
            minor: 1,
            revision: 4
        })
    );
    assert_eq!(
        Command::GetPose.parse_reply(&frame(10, Ctrl::READ, &[0; 31])),
        Err(ReplyError::Length { id: 10, len: 31 })
    );
    assert_eq!(
        jump.parse_reply(&frame(84, Ctrl::QUEUED_WRITE, &[0; 4])),
        Err(ReplyError::Length { id: 84, len: 4 })
    );
    let mut alarm_bytes = [0u8; 32];
    alarm_bytes[0] = 0b1000_0001;
    alarm_bytes[31] = 0x80;
    assert_eq!(
        Command::GetAlarms.parse_reply(&frame(20, Ctrl::READ, &alarm_bytes)),
        Ok(Reply::Alarms(ArmAlarms::from_codes([0, 7, 255])))
    );
    assert_eq!(
        Command::GetAlarms.parse_reply(&frame(20, Ctrl::READ, &[0; 33])),
        Err(ReplyError::Length { id: 20, len: 33 })
    );
}

fn any_frame() -> impl Strategy<Value = DobotFrame> {
    (
        any::<u8>(),
        any::<u8>(),
        prop::collection::vec(any::<u8>(), 0..=DobotCodec::DEFAULT_MAX_PARAMS_LEN),
    )
        .prop_map(|(id, ctrl, params)| DobotFrame::new(id, Ctrl(ctrl), params).unwrap())
}

/// Junk without sync bytes: with them, junk can form a frame with a valid checksum (one chance
/// in 256) and swallow a real one, which no decoder of this format can prevent.
fn junk() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        any::<u8>().prop_filter("not a sync byte", |&b| b != 0xAA),
        0..100,
    )
}

proptest! {
    #[test]
    fn every_frame_round_trips(frame in any_frame()) {
        prop_assert_eq!(decode_all(&wire(&frame)), vec![Ok(frame)]);
    }

    #[test]
    fn frames_survive_junk_and_any_chunking(
        parts in prop::collection::vec((junk(), any_frame()), 1..8),
        chunk_sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        let mut bytes = Vec::new();
        for (junk, frame) in &parts {
            bytes.extend_from_slice(junk);
            bytes.extend(wire(frame));
        }
        let sent: Vec<DobotFrame> = parts.into_iter().map(|(_, frame)| frame).collect();
        prop_assert_eq!(ok_frames(&decode_in_chunks(&bytes, &chunk_sizes)), sent);
    }

    #[test]
    fn any_input_decodes_without_panic_or_unbounded_memory(
        bytes in prop::collection::vec(
            prop_oneof![Just(0xAAu8), any::<u8>()],
            0..2000,
        ),
        chunk_sizes in prop::collection::vec(1usize..300, 1..8),
    ) {
        decode_in_chunks(&bytes, &chunk_sizes);
    }

    #[test]
    fn every_command_is_answered_by_its_own_reply_layout(
        index in any::<u64>(),
        x in -400.0f32..400.0,
        milliseconds in any::<u32>(),
    ) {
        let pose = Pose { x, y: -x, z: x / 2.0, r: 0.0 };
        for command in [
            Command::Home,
            Command::Ptp { mode: PtpMode::MovjXyz, target: pose },
            Command::SetSuction(Suction::Release),
            Command::Wait { milliseconds },
        ] {
            let reply = frame(command.id(), command.ctrl(), &index.to_le_bytes());
            prop_assert_eq!(command.parse_reply(&reply), Ok(Reply::Queued { index }));
        }
        let mut pose_bytes = Vec::new();
        for value in [pose.x, pose.y, pose.z, pose.r, 1.0, 2.0, 3.0, 4.0] {
            pose_bytes.extend_from_slice(&value.to_le_bytes());
        }
        prop_assert_eq!(
            Command::GetPose.parse_reply(&frame(10, Ctrl::READ, &pose_bytes)),
            Ok(Reply::Pose { pose, joints: [1.0, 2.0, 3.0, 4.0] })
        );
        prop_assert_eq!(
            Command::GetQueueIndex.parse_reply(&frame(246, Ctrl::READ, &index.to_le_bytes())),
            Ok(Reply::QueueIndex(index))
        );
    }
}
