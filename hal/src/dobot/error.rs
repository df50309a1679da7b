//! How a command to the Dobot fails, in the detail a log needs and the [`ErrorKind`] the daemon
//! reacts to.

use std::io;
use std::time::Duration;

use thiserror::Error;

use crate::device::ArmAlarms;
use crate::dobot::codec::DobotFrameError;
use crate::dobot::reply::{Reply, ReplyError};
use crate::error::{Error, ErrorKind};

/// Bytes that came back but could not be used as the answer: the line is noisy or the two ends
/// disagree about the exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Garble {
    /// Bytes that were not a valid frame (junk, bad length, bad checksum, cut short).
    #[error(transparent)]
    Frame(#[from] DobotFrameError),
    /// A frame with the command's id whose parameters do not fit the reply's layout.
    #[error(transparent)]
    Reply(#[from] ReplyError),
    /// A well-formed reply with a queue index the arm cannot have given: the Dobot's additive
    /// checksum misses some multi-byte damage, so indices are checked against what was sent.
    #[error("reply to command {id} carries an impossible queue index {index}")]
    Implausible {
        /// The command id.
        id: u8,
        /// The index received.
        index: u64,
    },
}

/// Why a [`DobotArm`](super::DobotArm) call failed.
///
/// After [`DobotError::QueueStuck`] and [`DobotError::Alarm`] the driver has already stopped and
/// cleared the arm's queue: what was queued and not yet done will not happen, so the caller reads
/// the board again and plans the rest of the move anew.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DobotError {
    /// Nothing usable came back within the command timeout, every attempt.
    #[error(
        "no reply to command {id} after {attempts} attempts of {timeout:?} each (retries included)"
    )]
    NoReply {
        /// The command id.
        id: u8,
        /// How many times it was sent or a resynchronisation was tried.
        attempts: u32,
        /// The wait for each attempt.
        timeout: Duration,
    },
    /// Every attempt ended in damaged bytes or a reply that does not fit; the last one is given.
    #[error("only garbled replies to command {id} after {attempts} attempts; last: {last}")]
    Garbled {
        /// The command id.
        id: u8,
        /// How many times it was sent or a resynchronisation was tried.
        attempts: u32,
        /// What was wrong with the last damaged reply.
        last: Garble,
    },
    /// A well-formed reply of an unexpected kind (a driver bug or a firmware that differs).
    #[error("command {id} got the reply {reply:?}, which it cannot use")]
    UnexpectedReply {
        /// The command id.
        id: u8,
        /// What came back.
        reply: Reply,
    },
    /// The queue index stopped advancing for longer than the work ahead of it can take (or the
    /// queue stayed full that long). The queue has been stopped and cleared.
    #[error(
        "the arm's queue is stuck at index {executed} (last queued {last_queued}) after {waited:?}; it was stopped and cleared"
    )]
    QueueStuck {
        /// The last index the arm reported as done.
        executed: u64,
        /// The last index the driver queued.
        last_queued: u64,
        /// How long the driver waited without progress.
        waited: Duration,
    },
    /// The arm raised alarms while working through the queue, so it stopped. The queue has been
    /// stopped and cleared; the alarms are still active until cleared.
    #[error(
        "the arm raised alarms {alarms:?} at queue index {executed}; the queue was stopped and cleared"
    )]
    Alarm {
        /// The active alarms.
        alarms: ArmAlarms,
        /// The last index the arm reported as done.
        executed: u64,
    },
    /// The transport failed or ended (USB unplugged, port closed). The driver is unusable; open
    /// the port again and call [`DobotArm::connect`](super::DobotArm::connect).
    #[error("the link to the arm is lost ({0})")]
    Disconnected(io::ErrorKind),
}

impl Error for DobotError {
    fn kind(&self) -> ErrorKind {
        match self {
            DobotError::NoReply { .. } | DobotError::QueueStuck { .. } => ErrorKind::Timeout,
            DobotError::Garbled { .. } | DobotError::UnexpectedReply { .. } => ErrorKind::Protocol,
            DobotError::Alarm { .. } => ErrorKind::Alarm,
            DobotError::Disconnected(_) => ErrorKind::Disconnected,
        }
    }
}
