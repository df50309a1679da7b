//! How a command to the board controller fails.

use std::time::Duration;

use thiserror::Error;

use crate::controller::link::SendError;
use crate::error::{Error, ErrorKind};
use crate::occupancy::BoardSize;

/// Why a [`ControllerDevice`](super::ControllerDevice) command failed.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DeviceError {
    /// The controller refused the command, or the link was lost before it answered.
    #[error(transparent)]
    Send(#[from] SendError),
    /// No answer (or, for a scan, no Scan) within the configured time.
    #[error("the controller did not finish the command within {0:?}")]
    Timeout(Duration),
    /// The session has ended; open the port and connect again.
    #[error("the controller link is closed")]
    Closed,
    /// Lights for a controller that has none (or speaks a version without them).
    #[error("the controller has no board lights")]
    NoLights,
    /// A Scan from, or lights for, another board than the one the controller announced.
    #[error("a {got:?} board's squares for a controller that announced {announced:?}")]
    WrongBoard {
        /// The board in the Welcome (`None`: no board).
        announced: Option<BoardSize>,
        /// The board in the Scan or the lights.
        got: BoardSize,
    },
}

impl Error for DeviceError {
    fn kind(&self) -> ErrorKind {
        match self {
            DeviceError::Send(error) => error.kind(),
            DeviceError::Timeout(_) => ErrorKind::Timeout,
            DeviceError::Closed => ErrorKind::Disconnected,
            DeviceError::WrongBoard { .. } => ErrorKind::Protocol,
            DeviceError::NoLights => ErrorKind::Rejected,
        }
    }
}
