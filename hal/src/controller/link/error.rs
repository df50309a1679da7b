//! How a session ends, and how a single message can fail.

use std::io;

use thiserror::Error;

use crate::controller::codes::NackReason;
use crate::controller::message::MessageType;
use crate::error::{Error, ErrorKind};

/// Why a session ended (or never started). Every one of them means: open the port again.
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum LinkError {
    /// Reading or writing the port failed.
    #[error("controller link I/O failed: {0}")]
    Io(#[from] io::Error),
    /// The port reached end of file (the device went away).
    #[error("the controller link was closed")]
    Closed,
    /// A reliable frame went unanswered through every retransmission.
    #[error("no answer to {ty:?} seq {seq} after {sends} sends")]
    NoAnswer {
        /// The type of the unanswered frame.
        ty: MessageType,
        /// Its sequence number.
        seq: u8,
        /// How many times it was sent.
        sends: u8,
    },
    /// The controller answered `NOT_READY`: it restarted and needs a new handshake.
    #[error("the controller restarted")]
    ControllerRestarted,
    /// The controller speaks no version the host speaks.
    #[error("the controller speaks no protocol version in {min}..={max}{}", chosen.map_or(String::new(), |v| format!(" (it chose {v})")))]
    Version {
        /// The oldest version the host offered.
        min: u8,
        /// The newest version the host offered.
        max: u8,
        /// What the controller chose instead, if it answered with a Welcome.
        chosen: Option<u8>,
    },
}

impl Error for LinkError {
    fn kind(&self) -> ErrorKind {
        match self {
            LinkError::Io(_)
            | LinkError::Closed
            | LinkError::NoAnswer { .. }
            | LinkError::ControllerRestarted => ErrorKind::Disconnected,
            LinkError::Version { .. } => ErrorKind::Protocol,
        }
    }
}

/// Why one message was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SendError {
    /// The controller refused it.
    #[error("the controller refused the message: {0}")]
    Nacked(NackReason),
    /// The session ended before an answer came; it is unknown whether the controller acted.
    #[error("the controller link was lost")]
    LinkLost,
}

impl Error for SendError {
    fn kind(&self) -> ErrorKind {
        match *self {
            SendError::LinkLost | SendError::Nacked(NackReason::NOT_READY) => {
                ErrorKind::Disconnected
            }
            SendError::Nacked(NackReason::FAULT_ACTIVE) => ErrorKind::Alarm,
            SendError::Nacked(
                NackReason::UNKNOWN_TYPE
                | NackReason::BAD_PAYLOAD
                | NackReason::UNSUPPORTED_VERSION
                | NackReason::WRONG_DIRECTION,
            ) => ErrorKind::Protocol,
            SendError::Nacked(_) => ErrorKind::Rejected,
        }
    }
}
