//! The worked examples of `docs/protocol.md`, read from the document itself, against the code.
//!
//! Every example in the document must be listed here and every listed example must be in the
//! document, so neither can change without the other.

use std::collections::{BTreeMap, BTreeSet};

use bytes::BytesMut;
use hal::controller::{
    Capabilities, ControllerCodec, Fault, FaultCode, FirmwareVersion, Frame, JointTargets, Message,
    MessageType, NackReason, SentBy, Welcome,
};
use hal::device::{
    BrowAngles, ButtonId, EyeFrame, Eyes, Light, LightColour, LightMode, NeckPose, Pose,
    ServoAngle, SquareLights,
};
use hal::dobot::{Command, DobotCodec, PtpMode, Reply, Suction};
use hal::{BoardSize, Occupancy};
use tokio_util::codec::{Decoder, Encoder};

/// One example as the document shows it.
#[derive(Debug, Default)]
struct Example {
    body: Option<Vec<u8>>,
    wire: Vec<u8>,
}

fn hex_bytes(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .filter(|token| *token != "|")
        .map(|token| u8::from_str_radix(token, 16).unwrap_or_else(|_| panic!("bad hex {token}")))
        .collect()
}

/// Every `**Example `name`.**` paragraph and the `body:`/`wire:` lines of the code block after it.
fn examples_in_document() -> BTreeMap<String, Example> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
    let text = std::fs::read_to_string(path).expect("docs/protocol.md is readable");
    let mut examples = BTreeMap::new();
    let mut current: Option<(String, Example)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("**Example `") {
            if let Some((name, example)) = current.take() {
                examples.insert(name, example);
            }
            let name = rest.split('`').next().unwrap().to_owned();
            current = Some((name, Example::default()));
        } else if let Some((_, example)) = current.as_mut() {
            if let Some(bytes) = line.strip_prefix("body:") {
                example.body = Some(hex_bytes(bytes));
            } else if let Some(bytes) = line.strip_prefix("wire:") {
                example.wire = hex_bytes(bytes);
            }
        }
    }
    if let Some((name, example)) = current.take() {
        examples.insert(name, example);
    }
    examples
}

fn controller_examples() -> BTreeMap<&'static str, Frame> {
    link_examples()
        .into_iter()
        .chain(board_examples())
        .chain(face_examples())
        .chain(arm_examples())
        .chain(lights_examples())
        .collect()
}

fn link_examples() -> Vec<(&'static str, Frame)> {
    let hello = Message::Hello {
        min_version: 1,
        max_version: 2,
    };
    let welcome = Message::Welcome(Welcome {
        version: 1,
        firmware: FirmwareVersion {
            major: 1,
            minor: 2,
            patch: 3,
        },
        board: Some(BoardSize::Squares32),
        capabilities: Capabilities::BOARD_SENSOR
            | Capabilities::BUTTONS
            | Capabilities::EYES
            | Capabilities::BROWS
            | Capabilities::NECK,
    });
    vec![
        ("hello", Frame::new(2, 0, hello)),
        ("welcome", Frame::new(1, 0, welcome)),
        ("ack", Frame::new(1, 5, Message::Ack)),
        (
            "nack-busy",
            Frame::new(1, 6, Message::Nack(NackReason::BUSY)),
        ),
        ("heartbeat", Frame::new(1, 7, Message::Heartbeat)),
    ]
}

fn board_examples() -> Vec<(&'static str, Frame)> {
    let russian_start =
        Occupancy::from_squares(BoardSize::Squares32, (0..12).chain(20..32)).unwrap();
    let international_start =
        Occupancy::from_squares(BoardSize::Squares50, (0..20).chain(30..50)).unwrap();
    let corners = Occupancy::from_squares(BoardSize::Squares72, [0, 71]).unwrap();
    let press = Message::Button {
        button: ButtonId::CONFIRM,
        pressed: true,
    };
    let sensor_fault = Message::Fault(Fault {
        code: FaultCode::SENSOR,
        subject: 13,
        active: true,
    });
    vec![
        ("scan-request", Frame::new(1, 8, Message::ScanRequest)),
        (
            "scan-32-start",
            Frame::new(1, 3, Message::Scan(russian_start)),
        ),
        (
            "scan-50-start",
            Frame::new(1, 4, Message::Scan(international_start)),
        ),
        ("scan-72", Frame::new(1, 5, Message::Scan(corners))),
        ("button", Frame::new(1, 9, press)),
        ("fault", Frame::new(1, 17, sensor_fault)),
        ("clear-faults", Frame::new(1, 18, Message::ClearFaults)),
    ]
}

fn face_examples() -> Vec<(&'static str, Frame)> {
    let ring = EyeFrame::from_rows([0x3C, 0x42, 0x81, 0x99, 0x99, 0x81, 0x42, 0x3C]);
    let angle = ServoAngle::from_tenths;
    let eyes = Message::Eyes(Eyes {
        left: ring,
        right: ring,
    });
    let brows = Message::Brows {
        angles: BrowAngles {
            left: angle(-150),
            right: angle(150),
        },
        transition_ms: 300,
    };
    let neck = Message::Neck {
        pose: NeckPose {
            pan: angle(0),
            tilt: angle(-200),
        },
        transition_ms: 500,
    };
    vec![
        ("eyes", Frame::new(1, 10, eyes)),
        ("brows", Frame::new(1, 11, brows)),
        ("neck", Frame::new(1, 12, neck)),
    ]
}

fn lights_examples() -> Vec<(&'static str, Frame)> {
    let welcome = Message::Welcome(Welcome {
        version: 2,
        firmware: FirmwareVersion {
            major: 2,
            minor: 0,
            patch: 0,
        },
        board: Some(BoardSize::Squares32),
        capabilities: Capabilities::BOARD_SENSOR
            | Capabilities::BUTTONS
            | Capabilities::EYES
            | Capabilities::BROWS
            | Capabilities::NECK
            | Capabilities::BOARD_LIGHTS,
    });
    let mut fix = SquareLights::dark(BoardSize::Squares32);
    fix.set(13, Light::new(LightMode::Blinking, LightColour::Red))
        .unwrap();
    fix.set(17, Light::new(LightMode::Blinking, LightColour::Green))
        .unwrap();
    vec![
        ("welcome-lights", Frame::new(2, 0, welcome)),
        (
            "square-lights",
            Frame::new(2, 20, Message::SquareLights(fix)),
        ),
    ]
}

fn arm_examples() -> Vec<(&'static str, Frame)> {
    let pick = Message::PumpValve {
        pump_on: true,
        valve_open: false,
    };
    let targets = Message::JointTargets(JointTargets {
        motion_id: 7,
        centidegrees: [4500, -1250, 9000, 0],
        duration_ms: 800,
    });
    let arm_welcome = Message::Welcome(Welcome {
        version: 1,
        firmware: FirmwareVersion {
            major: 1,
            minor: 0,
            patch: 0,
        },
        board: Some(BoardSize::Squares32),
        capabilities: Capabilities::BOARD_SENSOR
            | Capabilities::BUTTONS
            | Capabilities::EYES
            | Capabilities::BROWS
            | Capabilities::NECK
            | Capabilities::PUMP_VALVE
            | Capabilities::ARM_JOINTS,
    });
    let release = Message::PumpValve {
        pump_on: false,
        valve_open: true,
    };
    let stall = Message::Fault(Fault {
        code: FaultCode::JOINT_STALL,
        subject: 1,
        active: true,
    });
    vec![
        ("pump-valve", Frame::new(1, 13, pick)),
        ("joint-targets", Frame::new(1, 14, targets)),
        (
            "arm-home",
            Frame::new(1, 15, Message::ArmHome { motion_id: 1 }),
        ),
        (
            "motion-done",
            Frame::new(1, 16, Message::MotionDone { motion_id: 7 }),
        ),
        ("arm-stop", Frame::new(1, 19, Message::ArmStop)),
        ("welcome-arm", Frame::new(1, 0, arm_welcome)),
        ("pump-valve-release", Frame::new(1, 21, release)),
        ("fault-joint-stall", Frame::new(1, 2, stall)),
        (
            "nack-fault-active",
            Frame::new(1, 22, Message::Nack(NackReason::FAULT_ACTIVE)),
        ),
    ]
}

/// What a Dobot example is: a command the host sends, or a reply to a command.
enum DobotExample {
    Request(Command),
    Reply(Command, Reply),
}

fn dobot_examples() -> BTreeMap<&'static str, DobotExample> {
    let jump = Command::Ptp {
        mode: PtpMode::JumpXyz,
        target: Pose {
            x: 200.0,
            y: 50.0,
            z: -40.0,
            r: 0.0,
        },
    };
    BTreeMap::from([
        ("dobot-get-pose", DobotExample::Request(Command::GetPose)),
        (
            "dobot-pose-reply",
            DobotExample::Reply(
                Command::GetPose,
                Reply::Pose {
                    pose: Pose {
                        x: 200.0,
                        y: 0.0,
                        z: 50.0,
                        r: 0.0,
                    },
                    joints: [0.0, 30.0, 40.0, 0.0],
                },
            ),
        ),
        (
            "dobot-clear-alarms",
            DobotExample::Request(Command::ClearAlarms),
        ),
        (
            "dobot-alarms-reply",
            DobotExample::Reply(
                Command::GetAlarms,
                Reply::Alarms(hal::device::ArmAlarms::from_codes([20])),
            ),
        ),
        (
            "dobot-start-queue",
            DobotExample::Request(Command::StartQueue),
        ),
        (
            "dobot-jump-params",
            DobotExample::Request(Command::SetPtpJumpParams {
                jump_height: 20.0,
                z_limit: 100.0,
            }),
        ),
        ("dobot-jump", DobotExample::Request(jump)),
        (
            "dobot-queued-reply",
            DobotExample::Reply(jump, Reply::Queued { index: 42 }),
        ),
        (
            "dobot-suck",
            DobotExample::Request(Command::SetSuction(Suction::Suck)),
        ),
        ("dobot-home", DobotExample::Request(Command::Home)),
        (
            "dobot-queue-index-reply",
            DobotExample::Reply(Command::GetQueueIndex, Reply::QueueIndex(42)),
        ),
    ])
}

#[test]
fn the_document_and_this_test_list_the_same_examples() {
    let in_document: BTreeSet<String> = examples_in_document().into_keys().collect();
    let here: BTreeSet<String> = controller_examples()
        .into_keys()
        .chain(dobot_examples().into_keys())
        .map(str::to_owned)
        .collect();
    assert_eq!(in_document, here);
}

#[test]
fn every_message_type_has_a_worked_example() {
    let shown: BTreeSet<u8> = controller_examples()
        .values()
        .map(|frame| frame.message.message_type().code())
        .collect();
    let all: BTreeSet<u8> = MessageType::ALL.iter().map(|ty| ty.code()).collect();
    assert_eq!(shown, all);
}

#[test]
fn controller_examples_match_the_codec_byte_for_byte() {
    let document = examples_in_document();
    for (name, frame) in controller_examples() {
        let example = &document[name];
        let mut body = Vec::new();
        frame.encode_body(&mut body);
        assert_eq!(
            Some(&body),
            example.body.as_ref(),
            "body of example `{name}`"
        );

        let mut wire = BytesMut::new();
        ControllerCodec::new().encode(frame, &mut wire).unwrap();
        assert_eq!(&wire[..], example.wire, "wire bytes of example `{name}`");

        let mut received = BytesMut::from(&example.wire[..]);
        let decoded = ControllerCodec::new().decode(&mut received).unwrap();
        assert_eq!(decoded, Some(Ok(frame)), "decoding example `{name}`");
        assert!(received.is_empty());
    }
}

#[test]
fn dobot_examples_match_the_codec_byte_for_byte() {
    let document = examples_in_document();
    for (name, example) in dobot_examples() {
        let wire = &document[name].wire;
        match example {
            DobotExample::Request(command) => {
                let mut encoded = BytesMut::new();
                DobotCodec::new()
                    .encode(command.to_frame(), &mut encoded)
                    .unwrap();
                assert_eq!(&encoded[..], wire, "wire bytes of example `{name}`");
            }
            DobotExample::Reply(command, reply) => {
                let mut received = BytesMut::from(&wire[..]);
                let frame = DobotCodec::new()
                    .decode(&mut received)
                    .unwrap()
                    .expect("a whole frame")
                    .expect("a valid frame");
                assert_eq!(command.parse_reply(&frame), Ok(reply), "example `{name}`");
                assert!(received.is_empty());
            }
        }
    }
}

/// One row of the message table in section 6.
struct TableRow {
    code: u8,
    name: String,
    from: String,
    answer: String,
    lengths: Vec<usize>,
}

fn message_table() -> Vec<TableRow> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
    let text = std::fs::read_to_string(path).expect("docs/protocol.md is readable");
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // The message table has six columns; the code tables have three.
            if cells.len() != 8 {
                return None;
            }
            let code = cells.get(1)?.strip_prefix("`0x")?.strip_suffix('`')?;
            Some(TableRow {
                code: u8::from_str_radix(code, 16).ok()?,
                name: cells[2].to_owned(),
                from: cells[3].to_owned(),
                answer: cells[4].to_owned(),
                lengths: cells[5]
                    .split(',')
                    .map(|len| len.trim().parse().expect("a length"))
                    .collect(),
            })
        })
        .collect()
}

#[test]
fn the_message_table_matches_the_code() {
    let examples = controller_examples();
    let table = message_table();
    assert_eq!(table.len(), MessageType::ALL.len());
    for row in table {
        let ty = MessageType::from_code(row.code).expect("a known type");
        assert_eq!(format!("{ty:?}"), row.name);
        let from = match ty.sent_by() {
            SentBy::Host => "H",
            SentBy::Controller => "C",
            SentBy::Either => "H, C",
        };
        assert_eq!(row.from, from, "{}", row.name);
        assert_eq!(
            row.answer == "none (answer)",
            !ty.is_reliable(),
            "{}",
            row.name
        );
        let example = examples
            .values()
            .find(|frame| frame.message.message_type() == ty)
            .expect("an example");
        let mut payload = Vec::new();
        example.message.encode_payload(&mut payload);
        assert!(row.lengths.contains(&payload.len()), "{}", row.name);
    }
}
