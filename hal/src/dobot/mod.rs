//! The Dobot Magician's serial protocol (see `docs/design/dobot-magician.md` and the Dobot
//! section of `docs/protocol.md`): frames, their codec, typed commands and replies, and
//! [`DobotArm`], the [`Arm`](crate::device::Arm) driver over any byte stream.
//!
//! The firmware answers every command with a frame of the same id, so a driver sends one
//! [`Command`] at a time and reads its [`Reply`] with [`Command::parse_reply`]. The layers are
//! kept apart as in tokio-modbus: [`DobotCodec`] only cuts bytes into frames, the commands only
//! know their layouts, and [`DobotArm`] is generic over the transport, so the same driver runs on
//! a serial port, a pseudo-terminal or an in-memory pipe to the
//! [virtual Dobot](crate::sim::dobot).

mod codec;
mod command;
mod driver;
mod error;
mod frame;
pub(crate) mod motion;
mod reply;

pub use codec::{DobotCodec, DobotFrameError};
pub use command::{Command, CommandError, PtpMode, Suction};
pub use driver::{DobotArm, DobotConfig, DobotStats, DobotVersion};
pub use error::{DobotError, Garble};
pub use frame::{Ctrl, DobotFrame, ParamsTooLong};
pub use reply::{Reply, ReplyError};
