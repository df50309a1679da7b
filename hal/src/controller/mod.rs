//! The board-controller protocol: the serial link to the board with its sensors and button, the
//! face, and optionally a custom arm controller. `docs/protocol.md` is the specification a
//! firmware author works from; this module is its reference implementation.
//!
//! Layers, bottom up: [`cobs`] framing with a 0x00 delimiter, a body checked by [`crc16`],
//! a [`Frame`] header with version and sequence number, and the [`Message`]s. [`ControllerCodec`]
//! ties them together for `tokio_util::codec::Framed`. Acknowledgement, retransmission, the
//! handshake and heartbeats belong to the [`link`] above it (the host's end), which sees only
//! frames; [`peer`] is the controller's end of the same rules, for simulators. [`device`] turns
//! a host session into the [`BoardSensor`](crate::device::BoardSensor) and
//! [`Face`](crate::device::Face) the daemon drives.

pub mod cobs;
mod codec;
mod codes;
pub mod crc16;
pub mod device;
mod frame;
pub mod link;
mod message;
pub mod peer;

pub use codec::ControllerCodec;
pub use codes::{Capabilities, FaultCode, NackReason};
pub use frame::{
    CRC_LEN, Frame, FrameError, HEADER_LEN, MAX_BODY_LEN, MAX_ENCODED_LEN, NEWEST_VERSION,
    OLDEST_VERSION,
};
pub use message::{
    Fault, FirmwareVersion, JointTargets, Message, MessageError, MessageType, SentBy, Welcome,
};
