//! One frame of the controller protocol before COBS: header, payload and CRC.
//!
//! ```text
//! version:u8 | seq:u8 | type:u8 | payload (0..=120 bytes) | crc:u16 big-endian
//! ```
//!
//! The CRC covers the header and the payload. It is sent high byte first so that the CRC of a
//! whole received body is zero, the check a firmware can do in one pass.

use bytes::BufMut;
use thiserror::Error;

use crate::controller::cobs::{self, CobsError};
use crate::controller::codes::NackReason;
use crate::controller::crc16::crc16_ccitt_false;
use crate::controller::message::{Message, MessageError, MessageType};
use crate::error::{Error, ErrorKind};

/// The oldest protocol version this crate speaks: the first, without board lights.
pub const OLDEST_VERSION: u8 = 1;

/// The newest protocol version this crate speaks. Version 2 added `SquareLights`; a host
/// offers both, so a controller built for version 1 still plays.
pub const NEWEST_VERSION: u8 = 2;

/// Bytes before the payload: version, sequence number, type.
pub const HEADER_LEN: usize = 3;

/// Bytes of CRC after the payload.
pub const CRC_LEN: usize = 2;

/// The longest body (header, payload, CRC) a receiver must accept.
pub const MAX_BODY_LEN: usize = HEADER_LEN + Message::MAX_PAYLOAD_LEN + CRC_LEN;

/// The longest COBS encoding of a body, without its delimiter. With the delimiter a frame is at
/// most 127 bytes on the wire, so a 128-byte receive buffer always holds one.
pub const MAX_ENCODED_LEN: usize = cobs::max_encoded_len(MAX_BODY_LEN);

/// A decoded frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// The protocol version in the header: the session's agreed version, or for Hello,
    /// Welcome, Ack and Nack (whose layout never changes) possibly another, such as the
    /// sender's newest.
    pub version: u8,
    /// For a reliable message, the sender's sequence number (it counts up by one per new
    /// reliable frame, wrapping at 255). For Ack, Nack and Welcome, the sequence number of the
    /// frame they answer.
    pub seq: u8,
    /// What the frame says.
    pub message: Message,
}

impl Frame {
    /// A frame in protocol `version`.
    pub const fn new(version: u8, seq: u8, message: Message) -> Frame {
        Frame {
            version,
            seq,
            message,
        }
    }

    /// Appends the body (header, payload, CRC) to `out`.
    pub fn encode_body(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.put_u8(self.version);
        out.put_u8(self.seq);
        out.put_u8(self.message.message_type().code());
        self.message.encode_payload(out);
        let crc = crc16_ccitt_false(&out[start..]);
        out.put_u16(crc);
    }

    /// Reads a body: checks the CRC, then the version, then the payload.
    ///
    /// `agreed` is the session's version: frames of any other version are refused (rule S2),
    /// except Hello, Welcome, Ack and Nack, whose layout is the same in every version. Before
    /// a session (`None`) every version this crate speaks is read, so a controller can answer
    /// a stray frame with `NOT_READY` rather than a version error.
    pub fn decode_body(body: &[u8], agreed: Option<u8>) -> Result<Frame, FrameError> {
        if body.len() < HEADER_LEN + CRC_LEN {
            return Err(FrameError::TooShort { len: body.len() });
        }
        let (content, crc) = body.split_at(body.len() - CRC_LEN);
        let received = u16::from_be_bytes([crc[0], crc[1]]);
        let computed = crc16_ccitt_false(content);
        if received != computed {
            return Err(FrameError::Crc { received, computed });
        }
        let [version, seq, type_code] = [content[0], content[1], content[2]];
        let frozen = MessageType::from_code(type_code).is_some_and(MessageType::is_frozen);
        let spoken = match agreed {
            Some(agreed) => version == agreed,
            None => (OLDEST_VERSION..=NEWEST_VERSION).contains(&version),
        };
        if !spoken && !frozen {
            return Err(FrameError::Version {
                version,
                seq,
                type_code,
            });
        }
        let message = Message::decode(version, type_code, &content[HEADER_LEN..])
            .map_err(|error| FrameError::Message { seq, error })?;
        Ok(Frame {
            version,
            seq,
            message,
        })
    }
}

/// Received bytes that are not a frame this crate can act on. The bytes are gone from the
/// stream by the time this is reported; the next frame decodes normally.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum FrameError {
    /// More than [`MAX_ENCODED_LEN`] bytes without a delimiter: everything up to the next
    /// delimiter is dropped.
    #[error("frame longer than {MAX_ENCODED_LEN} bytes ({len} seen) dropped")]
    Oversize {
        /// Bytes seen before giving up (the frame may be longer).
        len: usize,
    },
    /// The bytes between two delimiters are not a COBS encoding.
    #[error("invalid COBS framing: {0}")]
    Cobs(#[from] CobsError),
    /// Too short to hold a header and a CRC.
    #[error("frame of {len} bytes is too short for a header and CRC")]
    TooShort {
        /// Length of the decoded body.
        len: usize,
    },
    /// The CRC does not match: bytes were corrupted on the wire.
    #[error("CRC mismatch: frame says 0x{received:04x}, content gives 0x{computed:04x}")]
    Crc {
        /// The CRC in the frame.
        received: u16,
        /// The CRC of the received header and payload.
        computed: u16,
    },
    /// An intact frame in a protocol version this crate does not speak, or not the one the
    /// session agreed on.
    #[error("frame seq {seq} type 0x{type_code:02x} is in protocol version {version}")]
    Version {
        /// The version in the header.
        version: u8,
        /// The header's sequence number.
        seq: u8,
        /// The header's type byte.
        type_code: u8,
    },
    /// An intact frame whose type or payload its version does not allow.
    #[error("frame seq {seq}: {error}")]
    Message {
        /// The header's sequence number.
        seq: u8,
        /// What is wrong with the message.
        error: MessageError,
    },
    /// The stream ended inside a frame.
    #[error("stream ended {len} bytes into a frame")]
    Truncated {
        /// Bytes of the unfinished frame.
        len: usize,
    },
}

impl FrameError {
    /// The Nack the receiver owes the sender, as (sequence number, reason): only intact frames
    /// of a reliable type are answered, because a corrupted header cannot be trusted to say
    /// whom to answer, and answering an answer would never end.
    pub fn nack(&self) -> Option<(u8, NackReason)> {
        let reliable =
            |type_code| MessageType::from_code(type_code).is_none_or(MessageType::is_reliable);
        match *self {
            FrameError::Version { seq, type_code, .. } if reliable(type_code) => {
                Some((seq, NackReason::UNSUPPORTED_VERSION))
            }
            FrameError::Message { seq, error } => {
                let type_code = match error {
                    MessageError::UnknownType(code) => code,
                    MessageError::Length { ty, .. } | MessageError::Field { ty, .. } => ty.code(),
                };
                reliable(type_code).then_some((seq, error.nack_reason()))
            }
            _ => None,
        }
    }
}

impl Error for FrameError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Protocol
    }
}
