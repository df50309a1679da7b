//! The Dobot commands a pick-and-place host needs, each with its id, control byte and
//! parameter layout (little-endian; floats are f32).

use bytes::{BufMut, Bytes};
use thiserror::Error;

use crate::device::Pose;
use crate::dobot::frame::{Ctrl, DobotFrame};
use crate::error::{Error, ErrorKind};

/// How a PTP move travels (the firmware's `ptpMode` byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PtpMode {
    /// Lift to the jump height, travel, lower, to Cartesian coordinates: pick-and-place.
    JumpXyz = 0,
    /// Joint-interpolated move to Cartesian coordinates.
    MovjXyz = 1,
    /// Straight-line move to Cartesian coordinates.
    MovlXyz = 2,
    /// Jump to joint angles.
    JumpAngle = 3,
    /// Joint-interpolated move to joint angles.
    MovjAngle = 4,
    /// Straight-line move to joint angles.
    MovlAngle = 5,
    /// Joint-interpolated move by joint increments.
    MovjInc = 6,
    /// Straight-line move by Cartesian increments.
    MovlInc = 7,
    /// Joint-interpolated move by Cartesian increments.
    MovjXyzInc = 8,
    /// Jump with straight-line segments to Cartesian coordinates.
    JumpMovlXyz = 9,
}

impl PtpMode {
    /// Every mode, in the order of its byte value.
    pub const ALL: [PtpMode; 10] = [
        PtpMode::JumpXyz,
        PtpMode::MovjXyz,
        PtpMode::MovlXyz,
        PtpMode::JumpAngle,
        PtpMode::MovjAngle,
        PtpMode::MovlAngle,
        PtpMode::MovjInc,
        PtpMode::MovlInc,
        PtpMode::MovjXyzInc,
        PtpMode::JumpMovlXyz,
    ];

    /// The mode a `ptpMode` byte names, if any.
    pub fn from_byte(byte: u8) -> Option<PtpMode> {
        PtpMode::ALL.get(usize::from(byte)).copied()
    }
}

/// The suction cup's state (command 62 sends "control enabled" and "sucking").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suction {
    /// Pump control disabled: quiet, nothing held. The resting state.
    Off,
    /// Pump sucking: picks up and holds a piece.
    Suck,
    /// Control enabled but not sucking: vents the cup so a held piece drops.
    Release,
}

/// One command to the arm.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    /// Firmware version (id 2), for the log at connection.
    GetDeviceVersion,
    /// Current tool pose and joint angles (id 10).
    GetPose,
    /// The alarm state bytes (id 20, read).
    GetAlarms,
    /// Clears every alarm (id 20, write; some drivers wrongly use 21).
    ClearAlarms,
    /// Where homing leaves the tool (id 30).
    SetHomeParams(Pose),
    /// Runs homing (id 31, queued).
    Home,
    /// Joint speed limits for PTP moves (id 80): degrees per second and per second squared.
    SetPtpJointParams {
        /// Velocity of joints 1..=4.
        velocity: [f32; 4],
        /// Acceleration of joints 1..=4.
        acceleration: [f32; 4],
    },
    /// Cartesian speed limits for PTP moves (id 81): mm/s, deg/s, mm/s², deg/s².
    SetPtpCoordinateParams {
        /// Tool velocity.
        xyz_velocity: f32,
        /// Tool rotation velocity.
        r_velocity: f32,
        /// Tool acceleration.
        xyz_acceleration: f32,
        /// Tool rotation acceleration.
        r_acceleration: f32,
    },
    /// Shape of JUMP moves (id 82), mm.
    SetPtpJumpParams {
        /// How far the tool lifts above the higher of start and target.
        jump_height: f32,
        /// The highest z a jump may reach.
        z_limit: f32,
    },
    /// Overall speed scaling of PTP moves (id 83), percent.
    SetPtpCommonParams {
        /// Velocity ratio.
        velocity_ratio: f32,
        /// Acceleration ratio.
        acceleration_ratio: f32,
    },
    /// A point-to-point move (id 84, queued).
    Ptp {
        /// How to travel.
        mode: PtpMode,
        /// Where to (for the angle modes, x..r are joint angles 1..=4).
        target: Pose,
    },
    /// Sets the suction cup (id 62, queued, so it happens in order with the moves).
    SetSuction(Suction),
    /// Pauses the queue (id 110, queued).
    Wait {
        /// Pause length.
        milliseconds: u32,
    },
    /// Starts executing the queue (id 240); newer firmware runs nothing before it.
    StartQueue,
    /// Stops executing after the current command (id 241).
    StopQueue,
    /// Stops at once, in the middle of a move (id 242).
    ForceStopQueue,
    /// Discards every queued command (id 245).
    ClearQueue,
    /// Index of the command executing now (id 246): completion is this reaching the index a
    /// queued command returned.
    GetQueueIndex,
    /// Free places in the queue (id 247), for flow control.
    GetQueueLeftSpace,
}

impl Command {
    /// The command id.
    pub const fn id(&self) -> u8 {
        match self {
            Command::GetDeviceVersion => 2,
            Command::GetPose => 10,
            Command::GetAlarms | Command::ClearAlarms => 20,
            Command::SetHomeParams(_) => 30,
            Command::Home => 31,
            Command::SetSuction(_) => 62,
            Command::SetPtpJointParams { .. } => 80,
            Command::SetPtpCoordinateParams { .. } => 81,
            Command::SetPtpJumpParams { .. } => 82,
            Command::SetPtpCommonParams { .. } => 83,
            Command::Ptp { .. } => 84,
            Command::Wait { .. } => 110,
            Command::StartQueue => 240,
            Command::StopQueue => 241,
            Command::ForceStopQueue => 242,
            Command::ClearQueue => 245,
            Command::GetQueueIndex => 246,
            Command::GetQueueLeftSpace => 247,
        }
    }

    /// The control byte. Settings are written at once (they are sent at connection, before any
    /// motion); motion and suction go through the queue so they run in order.
    pub const fn ctrl(&self) -> Ctrl {
        match self {
            Command::GetDeviceVersion
            | Command::GetPose
            | Command::GetAlarms
            | Command::GetQueueIndex
            | Command::GetQueueLeftSpace => Ctrl::READ,
            Command::ClearAlarms
            | Command::SetHomeParams(_)
            | Command::SetPtpJointParams { .. }
            | Command::SetPtpCoordinateParams { .. }
            | Command::SetPtpJumpParams { .. }
            | Command::SetPtpCommonParams { .. }
            | Command::StartQueue
            | Command::StopQueue
            | Command::ForceStopQueue
            | Command::ClearQueue => Ctrl::WRITE,
            Command::Home | Command::Ptp { .. } | Command::SetSuction(_) | Command::Wait { .. } => {
                Ctrl::QUEUED_WRITE
            }
        }
    }

    /// The parameter bytes.
    pub fn params(&self) -> Bytes {
        let mut params = Vec::new();
        match *self {
            Command::GetDeviceVersion
            | Command::GetPose
            | Command::GetAlarms
            | Command::ClearAlarms
            | Command::StartQueue
            | Command::StopQueue
            | Command::ForceStopQueue
            | Command::ClearQueue
            | Command::GetQueueIndex
            | Command::GetQueueLeftSpace => {}
            Command::SetHomeParams(pose) => put_pose(&mut params, pose),
            // HOMECmd carries a reserved word.
            Command::Home => params.put_u32_le(0),
            Command::SetPtpJointParams {
                velocity,
                acceleration,
            } => {
                for value in velocity.into_iter().chain(acceleration) {
                    params.put_f32_le(value);
                }
            }
            Command::SetPtpCoordinateParams {
                xyz_velocity,
                r_velocity,
                xyz_acceleration,
                r_acceleration,
            } => {
                for value in [xyz_velocity, r_velocity, xyz_acceleration, r_acceleration] {
                    params.put_f32_le(value);
                }
            }
            Command::SetPtpJumpParams {
                jump_height,
                z_limit,
            } => {
                params.put_f32_le(jump_height);
                params.put_f32_le(z_limit);
            }
            Command::SetPtpCommonParams {
                velocity_ratio,
                acceleration_ratio,
            } => {
                params.put_f32_le(velocity_ratio);
                params.put_f32_le(acceleration_ratio);
            }
            Command::Ptp { mode, target } => {
                params.put_u8(mode as u8);
                put_pose(&mut params, target);
            }
            Command::SetSuction(suction) => {
                let (control_enabled, sucking) = match suction {
                    Suction::Off => (false, false),
                    Suction::Suck => (true, true),
                    Suction::Release => (true, false),
                };
                params.put_u8(u8::from(control_enabled));
                params.put_u8(u8::from(sucking));
            }
            Command::Wait { milliseconds } => params.put_u32_le(milliseconds),
        }
        Bytes::from(params)
    }

    /// The frame to send.
    pub fn to_frame(&self) -> DobotFrame {
        DobotFrame::new(self.id(), self.ctrl(), self.params())
            .expect("every command's parameters fit a frame")
    }
}

/// A frame a device cannot read as one of the typed [`Command`]s.
///
/// Only a device (the virtual Dobot) reads commands; it ignores such frames as the real firmware
/// ignores what it does not know.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum CommandError {
    /// No typed command has this id and control byte.
    #[error("no command has id {id} with control byte 0x{ctrl:02x}")]
    Unknown {
        /// The frame's id.
        id: u8,
        /// The frame's control byte.
        ctrl: u8,
    },
    /// The parameters do not have the command's layout.
    #[error("command {id} has {len} parameter bytes, which does not fit its layout")]
    Length {
        /// The command id.
        id: u8,
        /// The number of parameter bytes received.
        len: usize,
    },
    /// A PTP command with a mode byte that names no mode.
    #[error("PTP mode {0} does not exist")]
    PtpMode(u8),
    /// A parameter outside the values the command defines: a flag byte that is neither 0
    /// nor 1, or a reserved field that is not zero. Refusing it, rather than reading any
    /// non-zero byte as "on", lets the simulated arm catch a driver that sends odd bytes.
    #[error(
        "command {id} has parameter values it does not define \
         (a flag that is not 0 or 1, or a reserved field that is not 0)"
    )]
    Value {
        /// The command id.
        id: u8,
    },
}

impl Error for CommandError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Protocol
    }
}

impl Command {
    /// Reads a frame as the device receives it: the inverse of [`Command::to_frame`] (and of
    /// [`Command::params`]), so a simulated Dobot understands exactly what the driver sends.
    #[allow(
        clippy::too_many_lines,
        reason = "one arm per command, as the table of ids reads"
    )]
    pub fn from_frame(frame: &DobotFrame) -> Result<Command, CommandError> {
        let (id, ctrl, params) = (frame.id(), frame.ctrl(), frame.params());
        let length = CommandError::Length {
            id,
            len: params.len(),
        };
        let value = || CommandError::Value { id };
        let floats = |count: usize| -> Result<Vec<f32>, CommandError> {
            if params.len() != count * 4 {
                return Err(length);
            }
            Ok(params
                .chunks_exact(4)
                .map(|bytes| f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
                .collect())
        };
        let pose = |values: &[f32]| Pose {
            x: values[0],
            y: values[1],
            z: values[2],
            r: values[3],
        };
        let empty = |command: Command| {
            if params.is_empty() {
                Ok(command)
            } else {
                Err(length)
            }
        };
        let command = match (id, ctrl) {
            (2, Ctrl::READ) => empty(Command::GetDeviceVersion)?,
            (10, Ctrl::READ) => empty(Command::GetPose)?,
            (20, Ctrl::READ) => empty(Command::GetAlarms)?,
            (20, Ctrl::WRITE) => empty(Command::ClearAlarms)?,
            (30, Ctrl::WRITE) => Command::SetHomeParams(pose(&floats(4)?)),
            (31, Ctrl::QUEUED_WRITE) => match *params {
                [0, 0, 0, 0] => Command::Home,
                [_, _, _, _] => return Err(value()),
                _ => return Err(length),
            },
            (62, Ctrl::QUEUED_WRITE) => match *params {
                [0, 0] => Command::SetSuction(Suction::Off),
                [1, 0] => Command::SetSuction(Suction::Release),
                [1, 1] => Command::SetSuction(Suction::Suck),
                [_, _] => return Err(value()),
                _ => return Err(length),
            },
            (80, Ctrl::WRITE) => {
                let values = floats(8)?;
                Command::SetPtpJointParams {
                    velocity: [values[0], values[1], values[2], values[3]],
                    acceleration: [values[4], values[5], values[6], values[7]],
                }
            }
            (81, Ctrl::WRITE) => {
                let values = floats(4)?;
                Command::SetPtpCoordinateParams {
                    xyz_velocity: values[0],
                    r_velocity: values[1],
                    xyz_acceleration: values[2],
                    r_acceleration: values[3],
                }
            }
            (82, Ctrl::WRITE) => {
                let values = floats(2)?;
                Command::SetPtpJumpParams {
                    jump_height: values[0],
                    z_limit: values[1],
                }
            }
            (83, Ctrl::WRITE) => {
                let values = floats(2)?;
                Command::SetPtpCommonParams {
                    velocity_ratio: values[0],
                    acceleration_ratio: values[1],
                }
            }
            (84, Ctrl::QUEUED_WRITE) => {
                let Some((&mode, rest)) = params.split_first() else {
                    return Err(length);
                };
                if rest.len() != 16 {
                    return Err(length);
                }
                let mode = PtpMode::from_byte(mode).ok_or(CommandError::PtpMode(mode))?;
                let mut values = [0.0; 4];
                for (value, bytes) in values.iter_mut().zip(rest.chunks_exact(4)) {
                    *value = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                }
                Command::Ptp {
                    mode,
                    target: pose(&values),
                }
            }
            (110, Ctrl::QUEUED_WRITE) => match *params {
                [a, b, c, d] => Command::Wait {
                    milliseconds: u32::from_le_bytes([a, b, c, d]),
                },
                _ => return Err(length),
            },
            (240, Ctrl::WRITE) => empty(Command::StartQueue)?,
            (241, Ctrl::WRITE) => empty(Command::StopQueue)?,
            (242, Ctrl::WRITE) => empty(Command::ForceStopQueue)?,
            (245, Ctrl::WRITE) => empty(Command::ClearQueue)?,
            (246, Ctrl::READ) => empty(Command::GetQueueIndex)?,
            (247, Ctrl::READ) => empty(Command::GetQueueLeftSpace)?,
            _ => return Err(CommandError::Unknown { id, ctrl: ctrl.0 }),
        };
        Ok(command)
    }
}

fn put_pose(params: &mut Vec<u8>, pose: Pose) {
    for value in [pose.x, pose.y, pose.z, pose.r] {
        params.put_f32_le(value);
    }
}
