//! The messages of the controller protocol and their payload layouts (versions 1 and 2).
//!
//! One enum serves both ends: the host encodes what the simulator decodes and the other way
//! round, so a simulated controller exercises exactly the bytes a firmware must produce. Which
//! side may send what is data ([`MessageType::sent_by`]) checked by the link, not by the codec.
//!
//! Layouts are strict: a payload of the wrong length or with an invalid field is refused whole,
//! because a half-understood command to a motor is worse than a Nack.

use bytes::BufMut;
use thiserror::Error;

use crate::controller::codes::{Capabilities, FaultCode, NackReason};
use crate::device::{
    BrowAngles, ButtonId, EyeFrame, Eyes, Light, LightColour, LightMode, NeckPose, ServoAngle,
    SquareLights,
};
use crate::occupancy::{BoardSize, Occupancy};

/// Which end of the link sends a message type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SentBy {
    /// Only the host (the daemon).
    Host,
    /// Only the controller.
    Controller,
    /// Either end.
    Either,
}

/// The type byte of a frame.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageType {
    /// Opens a session and proposes versions.
    Hello,
    /// Answers Hello with the chosen version and the controller's hardware.
    Welcome,
    /// Accepts a reliable frame.
    Ack,
    /// Refuses a reliable frame.
    Nack,
    /// Keeps an idle link provably alive.
    Heartbeat,
    /// Asks for a scan now.
    ScanRequest,
    /// Occupancy of every square.
    Scan,
    /// A button went down or up.
    Button,
    /// Images for both eyes.
    Eyes,
    /// Eyebrow angles.
    Brows,
    /// Neck pan and tilt.
    Neck,
    /// The light of every square (version 2).
    SquareLights,
    /// Suction pump and release valve.
    PumpValve,
    /// A queued arm motion to joint angles.
    JointTargets,
    /// A queued homing run.
    ArmHome,
    /// A queued arm motion has finished.
    MotionDone,
    /// Stops the arm at once and discards its queue.
    ArmStop,
    /// Hardware raised or cleared a fault.
    Fault,
    /// Clears every fault the controller can clear.
    ClearFaults,
}

impl MessageType {
    /// Every message type of the newest version.
    pub const ALL: [MessageType; 19] = [
        MessageType::Hello,
        MessageType::Welcome,
        MessageType::Ack,
        MessageType::Nack,
        MessageType::Heartbeat,
        MessageType::ScanRequest,
        MessageType::Scan,
        MessageType::Button,
        MessageType::Eyes,
        MessageType::Brows,
        MessageType::Neck,
        MessageType::SquareLights,
        MessageType::PumpValve,
        MessageType::JointTargets,
        MessageType::ArmHome,
        MessageType::MotionDone,
        MessageType::ArmStop,
        MessageType::Fault,
        MessageType::ClearFaults,
    ];

    /// The byte on the wire.
    pub const fn code(self) -> u8 {
        match self {
            MessageType::Hello => 0x01,
            MessageType::Welcome => 0x02,
            MessageType::Ack => 0x03,
            MessageType::Nack => 0x04,
            MessageType::Heartbeat => 0x05,
            MessageType::ScanRequest => 0x10,
            MessageType::Scan => 0x11,
            MessageType::Button => 0x12,
            MessageType::Eyes => 0x20,
            MessageType::Brows => 0x21,
            MessageType::Neck => 0x22,
            MessageType::SquareLights => 0x23,
            MessageType::PumpValve => 0x30,
            MessageType::JointTargets => 0x31,
            MessageType::ArmHome => 0x32,
            MessageType::MotionDone => 0x33,
            MessageType::ArmStop => 0x34,
            MessageType::Fault => 0x40,
            MessageType::ClearFaults => 0x41,
        }
    }

    /// The type with this byte, if any version has one.
    pub fn from_code(code: u8) -> Option<MessageType> {
        MessageType::ALL.into_iter().find(|ty| ty.code() == code)
    }

    /// The protocol version that introduced this type; frames of older versions do not have
    /// it, and a receiver refuses it there as an unknown type.
    pub const fn since(self) -> u8 {
        match self {
            MessageType::SquareLights => 2,
            _ => 1,
        }
    }

    /// Which end may send this type.
    pub const fn sent_by(self) -> SentBy {
        match self {
            MessageType::Hello
            | MessageType::Heartbeat
            | MessageType::ScanRequest
            | MessageType::Eyes
            | MessageType::Brows
            | MessageType::Neck
            | MessageType::SquareLights
            | MessageType::PumpValve
            | MessageType::JointTargets
            | MessageType::ArmHome
            | MessageType::ArmStop
            | MessageType::ClearFaults => SentBy::Host,
            MessageType::Welcome
            | MessageType::Scan
            | MessageType::Button
            | MessageType::MotionDone
            | MessageType::Fault => SentBy::Controller,
            MessageType::Ack | MessageType::Nack => SentBy::Either,
        }
    }

    /// Whether a frame of this type must be answered (Ack or Nack) and is retransmitted until
    /// it is. Answers themselves are not answered, or the exchange would never end.
    pub const fn is_reliable(self) -> bool {
        !matches!(
            self,
            MessageType::Ack | MessageType::Nack | MessageType::Welcome
        )
    }

    /// Whether the payload layout is the same in every protocol version, which is what lets two
    /// ends that speak different versions still agree on one (or say that they cannot).
    pub const fn is_frozen(self) -> bool {
        matches!(
            self,
            MessageType::Hello | MessageType::Welcome | MessageType::Ack | MessageType::Nack
        )
    }
}

/// A controller's firmware version, for the log and for the operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FirmwareVersion {
    /// Incompatible changes.
    pub major: u8,
    /// Added features.
    pub minor: u8,
    /// Fixes.
    pub patch: u8,
}

/// The controller's answer to Hello.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Welcome {
    /// The protocol version both ends speak from now on.
    pub version: u8,
    /// The firmware build.
    pub firmware: FirmwareVersion,
    /// The board under the sensors; `None` for a controller without a board (an arm only).
    pub board: Option<BoardSize>,
    /// The hardware this controller drives.
    pub capabilities: Capabilities,
}

/// A queued arm motion for a controller that drives the joints itself (the reference robot's
/// stepper board). The host does the kinematics, so the firmware only interpolates angles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JointTargets {
    /// Chosen by the host and echoed by `MotionDone`, so the host knows which motion finished.
    pub motion_id: u16,
    /// Target angle of each joint in hundredths of a degree from its home position; arms with
    /// fewer than four joints send 0 for the missing ones.
    pub centidegrees: [i32; 4],
    /// Time to reach the target, in milliseconds; 0 means as fast as the joints' limits allow.
    pub duration_ms: u16,
}

/// A fault raised or cleared by the controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fault {
    /// What broke.
    pub code: FaultCode,
    /// Which one: a square, a joint, a servo (see each [`FaultCode`]).
    pub subject: u8,
    /// `true` when the fault starts, `false` when it is over.
    pub active: bool,
}

/// One message of the controller protocol.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    /// Host: opens a session speaking a version in `min_version..=max_version`.
    Hello {
        /// Oldest version the host speaks.
        min_version: u8,
        /// Newest version the host speaks.
        max_version: u8,
    },
    /// Controller: the answer to Hello.
    Welcome(Welcome),
    /// Either: the frame with this header's sequence number was accepted.
    Ack,
    /// Either: the frame with this header's sequence number was refused.
    Nack(NackReason),
    /// Host: nothing else to say; proves the host alive and, by its Ack, the controller.
    Heartbeat,
    /// Host: scan every sensor now and send the result.
    ScanRequest,
    /// Controller: one reading of every sensor.
    Scan(Occupancy),
    /// Controller: a (debounced) button changed state.
    Button {
        /// Which button.
        button: ButtonId,
        /// `true` when pressed, `false` when released.
        pressed: bool,
    },
    /// Host: show these images on the eyes.
    Eyes(Eyes),
    /// Host: move the eyebrows.
    Brows {
        /// Target angles.
        angles: BrowAngles,
        /// Time to reach them, in milliseconds; 0 means at once.
        transition_ms: u16,
    },
    /// Host: turn the head.
    Neck {
        /// Target pose.
        pose: NeckPose,
        /// Time to reach it, in milliseconds; 0 means at once.
        transition_ms: u16,
    },
    /// Host: light the squares (version 2, for a controller with board lights).
    SquareLights(SquareLights),
    /// Host: set the suction pump and the release valve, queued with the arm's motions.
    PumpValve {
        /// Pump running.
        pump_on: bool,
        /// Valve open to the air, which drops a held piece at once.
        valve_open: bool,
    },
    /// Host: queue a motion to joint angles.
    JointTargets(JointTargets),
    /// Host: queue a homing run.
    ArmHome {
        /// Echoed by `MotionDone` when homing has finished.
        motion_id: u16,
    },
    /// Controller: the queued motion (or homing) with this id has finished.
    MotionDone {
        /// The id the host gave the motion.
        motion_id: u16,
    },
    /// Host: stop the arm where it is and discard every queued motion.
    ArmStop,
    /// Controller: a fault started or ended.
    Fault(Fault),
    /// Host: clear every fault whose cause is gone.
    ClearFaults,
}

/// A payload that its version does not allow for its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MessageError {
    /// The type byte names no message of the frame's version.
    #[error("unknown message type 0x{0:02x}")]
    UnknownType(u8),
    /// The payload is too short or too long for its type.
    #[error("{ty:?} payload of {len} bytes has the wrong length")]
    Length {
        /// The message type.
        ty: MessageType,
        /// The payload length received.
        len: usize,
    },
    /// A field holds a value its type does not allow.
    #[error("{ty:?} field `{field}` has invalid value 0x{value:02x}")]
    Field {
        /// The message type.
        ty: MessageType,
        /// The field's name as in docs/protocol.md.
        field: &'static str,
        /// The offending byte.
        value: u8,
    },
}

impl MessageError {
    /// The Nack reason that tells the sender what was wrong.
    pub fn nack_reason(&self) -> NackReason {
        match self {
            MessageError::UnknownType(_) => NackReason::UNKNOWN_TYPE,
            MessageError::Length { .. } | MessageError::Field { .. } => NackReason::BAD_PAYLOAD,
        }
    }
}

impl Message {
    /// The longest payload any version may use, so that a whole frame fits the 128-byte buffer
    /// of a small microcontroller (see docs/protocol.md).
    pub const MAX_PAYLOAD_LEN: usize = 120;

    /// The type byte this message is sent with.
    pub const fn message_type(&self) -> MessageType {
        match self {
            Message::Hello { .. } => MessageType::Hello,
            Message::Welcome(_) => MessageType::Welcome,
            Message::Ack => MessageType::Ack,
            Message::Nack(_) => MessageType::Nack,
            Message::Heartbeat => MessageType::Heartbeat,
            Message::ScanRequest => MessageType::ScanRequest,
            Message::Scan(_) => MessageType::Scan,
            Message::Button { .. } => MessageType::Button,
            Message::Eyes(_) => MessageType::Eyes,
            Message::Brows { .. } => MessageType::Brows,
            Message::Neck { .. } => MessageType::Neck,
            Message::SquareLights(_) => MessageType::SquareLights,
            Message::PumpValve { .. } => MessageType::PumpValve,
            Message::JointTargets(_) => MessageType::JointTargets,
            Message::ArmHome { .. } => MessageType::ArmHome,
            Message::MotionDone { .. } => MessageType::MotionDone,
            Message::ArmStop => MessageType::ArmStop,
            Message::Fault(_) => MessageType::Fault,
            Message::ClearFaults => MessageType::ClearFaults,
        }
    }

    /// Appends the payload (without type byte) to `out`. Multi-byte fields are little-endian.
    pub fn encode_payload(&self, out: &mut impl BufMut) {
        match *self {
            Message::Hello {
                min_version,
                max_version,
            } => {
                out.put_u8(min_version);
                out.put_u8(max_version);
            }
            Message::Welcome(welcome) => {
                out.put_u8(welcome.version);
                out.put_u8(welcome.firmware.major);
                out.put_u8(welcome.firmware.minor);
                out.put_u8(welcome.firmware.patch);
                out.put_u8(welcome.board.map_or(0, |size| size.square_count() as u8));
                out.put_u8(welcome.capabilities.0);
            }
            Message::Nack(reason) => out.put_u8(reason.0),
            Message::Ack
            | Message::Heartbeat
            | Message::ScanRequest
            | Message::ArmStop
            | Message::ClearFaults => {}
            Message::Scan(occupancy) => {
                let squares = occupancy.size().square_count();
                out.put_u8(squares as u8);
                out.put_slice(&occupancy.bits().to_le_bytes()[..squares.div_ceil(8)]);
            }
            Message::Button { button, pressed } => {
                out.put_u8(button.0);
                out.put_u8(u8::from(pressed));
            }
            Message::Eyes(eyes) => {
                out.put_slice(&eyes.left.rows());
                out.put_slice(&eyes.right.rows());
            }
            Message::Brows {
                angles,
                transition_ms,
            } => {
                out.put_i16_le(angles.left.tenths());
                out.put_i16_le(angles.right.tenths());
                out.put_u16_le(transition_ms);
            }
            Message::Neck {
                pose,
                transition_ms,
            } => {
                out.put_i16_le(pose.pan.tenths());
                out.put_i16_le(pose.tilt.tenths());
                out.put_u16_le(transition_ms);
            }
            Message::SquareLights(lights) => {
                let squares = lights.size().square_count();
                out.put_u8(squares as u8);
                for pair in 0..squares / 2 {
                    let low = light_nibble(lights.get(2 * pair));
                    let high = light_nibble(lights.get(2 * pair + 1));
                    out.put_u8(low | high << 4);
                }
            }
            Message::PumpValve {
                pump_on,
                valve_open,
            } => {
                out.put_u8(u8::from(pump_on));
                out.put_u8(u8::from(valve_open));
            }
            Message::JointTargets(targets) => {
                out.put_u16_le(targets.motion_id);
                for angle in targets.centidegrees {
                    out.put_i32_le(angle);
                }
                out.put_u16_le(targets.duration_ms);
            }
            Message::ArmHome { motion_id } | Message::MotionDone { motion_id } => {
                out.put_u16_le(motion_id);
            }
            Message::Fault(fault) => {
                out.put_u8(fault.code.0);
                out.put_u8(fault.subject);
                out.put_u8(u8::from(fault.active));
            }
        }
    }

    /// Reads a message of protocol `version` from its type byte and payload. Hello, Welcome,
    /// Ack and Nack read the same in every version.
    pub fn decode(version: u8, type_code: u8, payload: &[u8]) -> Result<Message, MessageError> {
        let ty = MessageType::from_code(type_code)
            .filter(|ty| ty.is_frozen() || ty.since() <= version)
            .ok_or(MessageError::UnknownType(type_code))?;
        let mut reader = PayloadReader {
            ty,
            payload,
            total_len: payload.len(),
        };
        let message = match ty {
            MessageType::Hello => Message::Hello {
                min_version: reader.u8()?,
                max_version: reader.u8()?,
            },
            MessageType::Welcome => Message::Welcome(Welcome {
                version: reader.u8()?,
                firmware: FirmwareVersion {
                    major: reader.u8()?,
                    minor: reader.u8()?,
                    patch: reader.u8()?,
                },
                board: match reader.u8()? {
                    0 => None,
                    count => Some(square_count(ty, count)?),
                },
                capabilities: Capabilities(reader.u8()?),
            }),
            MessageType::Ack => Message::Ack,
            MessageType::Nack => Message::Nack(NackReason(reader.u8()?)),
            MessageType::Heartbeat => Message::Heartbeat,
            MessageType::ScanRequest => Message::ScanRequest,
            MessageType::Scan => Message::Scan(reader.occupancy()?),
            MessageType::Button => Message::Button {
                button: ButtonId(reader.u8()?),
                pressed: reader.flag("pressed")?,
            },
            MessageType::Eyes => Message::Eyes(Eyes {
                left: EyeFrame::from_rows(reader.array()?),
                right: EyeFrame::from_rows(reader.array()?),
            }),
            MessageType::Brows => Message::Brows {
                angles: BrowAngles {
                    left: reader.angle()?,
                    right: reader.angle()?,
                },
                transition_ms: reader.u16()?,
            },
            MessageType::Neck => Message::Neck {
                pose: NeckPose {
                    pan: reader.angle()?,
                    tilt: reader.angle()?,
                },
                transition_ms: reader.u16()?,
            },
            MessageType::SquareLights => Message::SquareLights(reader.lights()?),
            MessageType::PumpValve => Message::PumpValve {
                pump_on: reader.flag("pump_on")?,
                valve_open: reader.flag("valve_open")?,
            },
            MessageType::JointTargets => Message::JointTargets(JointTargets {
                motion_id: reader.u16()?,
                centidegrees: [reader.i32()?, reader.i32()?, reader.i32()?, reader.i32()?],
                duration_ms: reader.u16()?,
            }),
            MessageType::ArmHome => Message::ArmHome {
                motion_id: reader.u16()?,
            },
            MessageType::MotionDone => Message::MotionDone {
                motion_id: reader.u16()?,
            },
            MessageType::Fault => Message::Fault(Fault {
                code: FaultCode(reader.u8()?),
                subject: reader.u8()?,
                active: reader.flag("active")?,
            }),
            MessageType::ArmStop => Message::ArmStop,
            MessageType::ClearFaults => Message::ClearFaults,
        };
        reader.finish()?;
        Ok(message)
    }
}

/// One light on the wire: mode in bits 0-1, colour in bits 2-3.
fn light_nibble(light: Light) -> u8 {
    let mode = match light.mode {
        LightMode::Off => 0,
        LightMode::On => 1,
        LightMode::Blinking => 2,
    };
    let colour = match light.colour {
        LightColour::Green => 0,
        LightColour::Red => 1,
        LightColour::Blue => 2,
        LightColour::White => 3,
    };
    mode | colour << 2
}

/// The light a nibble encodes; `None` for the reserved mode 3 and for a dark light with a
/// colour, so that every picture has one encoding.
fn nibble_light(nibble: u8) -> Option<Light> {
    let mode = match nibble & 0b11 {
        0 => LightMode::Off,
        1 => LightMode::On,
        2 => LightMode::Blinking,
        _ => return None,
    };
    let colour = match nibble >> 2 {
        0 => LightColour::Green,
        1 => LightColour::Red,
        2 => LightColour::Blue,
        _ => LightColour::White,
    };
    let light = Light::new(mode, colour);
    (light_nibble(light) == nibble).then_some(light)
}

fn square_count(ty: MessageType, count: u8) -> Result<BoardSize, MessageError> {
    BoardSize::from_square_count(usize::from(count)).ok_or(MessageError::Field {
        ty,
        field: "squares",
        value: count,
    })
}

/// Reads fields front to back and turns running out of bytes into a length error.
struct PayloadReader<'a> {
    ty: MessageType,
    payload: &'a [u8],
    total_len: usize,
}

impl PayloadReader<'_> {
    fn length_error(&self) -> MessageError {
        MessageError::Length {
            ty: self.ty,
            len: self.total_len,
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], MessageError> {
        let (head, rest) = self
            .payload
            .split_first_chunk::<N>()
            .ok_or_else(|| self.length_error())?;
        self.payload = rest;
        Ok(*head)
    }

    fn u8(&mut self) -> Result<u8, MessageError> {
        self.array::<1>().map(|[byte]| byte)
    }

    fn u16(&mut self) -> Result<u16, MessageError> {
        self.array().map(u16::from_le_bytes)
    }

    fn i32(&mut self) -> Result<i32, MessageError> {
        self.array().map(i32::from_le_bytes)
    }

    fn angle(&mut self) -> Result<ServoAngle, MessageError> {
        self.array()
            .map(|bytes| ServoAngle::from_tenths(i16::from_le_bytes(bytes)))
    }

    fn flag(&mut self, field: &'static str) -> Result<bool, MessageError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            value => Err(MessageError::Field {
                ty: self.ty,
                field,
                value,
            }),
        }
    }

    /// A square count followed by one bit per square, square 0 in bit 0 of the first byte; the
    /// unused high bits of the last byte must be zero.
    fn occupancy(&mut self) -> Result<Occupancy, MessageError> {
        let size = square_count(self.ty, self.u8()?)?;
        let len = size.square_count().div_ceil(8);
        let bitmap = self.payload.get(..len).ok_or_else(|| self.length_error())?;
        self.payload = &self.payload[len..];
        let mut bytes = [0u8; 16];
        bytes[..len].copy_from_slice(bitmap);
        Occupancy::from_bits(size, u128::from_le_bytes(bytes)).map_err(|_| MessageError::Field {
            ty: self.ty,
            field: "bitmap",
            value: bitmap[len - 1],
        })
    }

    /// A square count followed by one light per square, two to a byte: square `2k` in the low
    /// nibble of byte `k`, square `2k + 1` in its high nibble. Every board has an even number
    /// of squares, so no nibble is left over.
    fn lights(&mut self) -> Result<SquareLights, MessageError> {
        let size = square_count(self.ty, self.u8()?)?;
        let len = size.square_count() / 2;
        let bytes = self.payload.get(..len).ok_or_else(|| self.length_error())?;
        self.payload = &self.payload[len..];
        let mut lights = SquareLights::dark(size);
        for (pair, &byte) in bytes.iter().enumerate() {
            for (half, nibble) in [byte & 0x0F, byte >> 4].into_iter().enumerate() {
                let light = nibble_light(nibble).ok_or(MessageError::Field {
                    ty: self.ty,
                    field: "lights",
                    value: byte,
                })?;
                lights
                    .set(2 * pair + half, light)
                    .expect("within the board");
            }
        }
        Ok(lights)
    }

    fn finish(self) -> Result<(), MessageError> {
        if self.payload.is_empty() {
            Ok(())
        } else {
            Err(self.length_error())
        }
    }
}
