//! What the Dobot answers to each [`Command`].
//!
//! A reply's layout depends on the command that asked, not on anything in the reply, so parsing
//! starts from the command. Lengths are checked exactly: a reply that does not fit its command
//! means the two ends disagree about which exchange they are in, and the driver must resync.

use bytes::BufMut;
use thiserror::Error;

use crate::device::{ArmAlarms, Pose};
use crate::dobot::command::Command;
use crate::dobot::frame::DobotFrame;
use crate::error::{Error, ErrorKind};

/// A parsed reply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reply {
    /// An immediate write was done.
    Done,
    /// A queued command was accepted; it has finished once the current index reaches `index`.
    Queued {
        /// The command's place in the firmware queue.
        index: u64,
    },
    /// The firmware version.
    DeviceVersion {
        /// Major version.
        major: u8,
        /// Minor version.
        minor: u8,
        /// Revision.
        revision: u8,
    },
    /// Where the arm is.
    Pose {
        /// The tool pose.
        pose: Pose,
        /// Joint angles 1..=4 in degrees.
        joints: [f32; 4],
    },
    /// Active alarms, by bit number in the alarm state bytes.
    Alarms(ArmAlarms),
    /// Index of the queued command executing now.
    QueueIndex(u64),
    /// Free places in the queue.
    QueueLeftSpace(u32),
}

/// A reply that does not answer the command it was read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ReplyError {
    /// The reply is for another command (a late reply to an earlier one).
    #[error("expected a reply to command {expected}, got one to {received}")]
    WrongId {
        /// The id of the command sent.
        expected: u8,
        /// The id of the reply received.
        received: u8,
    },
    /// The reply's parameters do not have the command's reply layout.
    #[error("reply to command {id} has {len} parameter bytes, which does not fit its layout")]
    Length {
        /// The command id.
        id: u8,
        /// The number of parameter bytes received.
        len: usize,
    },
}

impl Error for ReplyError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Protocol
    }
}

/// The alarm state holds at most 32 bytes (256 alarm bits) in every firmware seen.
const MAX_ALARM_BYTES: usize = 32;

impl Command {
    /// Reads `frame` as the reply to this command.
    pub fn parse_reply(&self, frame: &DobotFrame) -> Result<Reply, ReplyError> {
        let id = self.id();
        if frame.id() != id {
            return Err(ReplyError::WrongId {
                expected: id,
                received: frame.id(),
            });
        }
        let params = frame.params();
        let length_error = ReplyError::Length {
            id,
            len: params.len(),
        };
        if self.ctrl().is_queued() {
            let index = params.try_into().map_err(|_| length_error)?;
            return Ok(Reply::Queued {
                index: u64::from_le_bytes(index),
            });
        }
        match self {
            Command::GetDeviceVersion => match *params {
                // Some firmware appends a hardware version; the first three bytes are the same.
                [major, minor, revision, ..] => Ok(Reply::DeviceVersion {
                    major,
                    minor,
                    revision,
                }),
                _ => Err(length_error),
            },
            Command::GetPose => {
                let values: [f32; 8] = f32_array(params).ok_or(length_error)?;
                let [x, y, z, r, j1, j2, j3, j4] = values;
                Ok(Reply::Pose {
                    pose: Pose { x, y, z, r },
                    joints: [j1, j2, j3, j4],
                })
            }
            Command::GetAlarms if params.len() <= MAX_ALARM_BYTES => {
                let mut alarms = ArmAlarms::none();
                for (byte_index, &byte) in params.iter().enumerate() {
                    for bit in 0..8 {
                        if byte & (1 << bit) != 0 {
                            alarms.insert((byte_index * 8 + bit) as u8);
                        }
                    }
                }
                Ok(Reply::Alarms(alarms))
            }
            Command::GetQueueIndex => params
                .try_into()
                .map(|bytes| Reply::QueueIndex(u64::from_le_bytes(bytes)))
                .map_err(|_| length_error),
            Command::GetQueueLeftSpace => params
                .try_into()
                .map(|bytes| Reply::QueueLeftSpace(u32::from_le_bytes(bytes)))
                .map_err(|_| length_error),
            _ if params.is_empty() && self.ctrl().is_write() => Ok(Reply::Done),
            _ => Err(length_error),
        }
    }
}

impl Reply {
    /// The frame a device sends to answer `command` with this reply: the inverse of
    /// [`Command::parse_reply`], so a simulated Dobot answers with the bytes a driver expects.
    /// Alarms are sent as 16 state bytes, as the Magician's firmware does.
    pub fn to_frame(&self, command: &Command) -> DobotFrame {
        let mut params: Vec<u8> = Vec::new();
        match *self {
            Reply::Done => {}
            Reply::Queued { index } | Reply::QueueIndex(index) => params.put_u64_le(index),
            Reply::DeviceVersion {
                major,
                minor,
                revision,
            } => params.extend_from_slice(&[major, minor, revision]),
            Reply::Pose { pose, joints } => {
                for value in [pose.x, pose.y, pose.z, pose.r].into_iter().chain(joints) {
                    params.put_f32_le(value);
                }
            }
            Reply::Alarms(alarms) => {
                let mut state = [0u8; 16];
                for code in alarms.codes() {
                    if let Some(byte) = state.get_mut(usize::from(code / 8)) {
                        *byte |= 1 << (code % 8);
                    }
                }
                params.extend_from_slice(&state);
            }
            Reply::QueueLeftSpace(space) => params.put_u32_le(space),
        }
        DobotFrame::new(command.id(), command.ctrl(), params)
            .expect("every reply's parameters fit a frame")
    }
}

fn f32_array<const N: usize>(params: &[u8]) -> Option<[f32; N]> {
    if params.len() != N * 4 {
        return None;
    }
    let mut values = [0.0; N];
    for (value, bytes) in values.iter_mut().zip(params.chunks_exact(4)) {
        *value = f32::from_le_bytes(bytes.try_into().ok()?);
    }
    Some(values)
}
