//! The Dobot Magician's serial protocol (see `../shared/docs/dobot-magician.md` and the Dobot
//! section of `docs/protocol.md`): frames, their codec, typed commands and replies.
//!
//! The firmware answers every command with a frame of the same id, so a driver sends one
//! [`Command`] at a time and reads its [`Reply`] with [`Command::parse_reply`].

mod codec;
mod command;
mod frame;
mod reply;

pub use codec::{DobotCodec, DobotFrameError};
pub use command::{Command, PtpMode, Suction};
pub use frame::{Ctrl, DobotFrame, ParamsTooLong};
pub use reply::{Reply, ReplyError};
