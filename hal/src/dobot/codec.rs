//! The Dobot frame format as a `tokio_util::codec` pair.
//!
//! Dobot frames have no delimiter, only a two-byte sync mark and a one-byte length, and the sync
//! bytes can also occur inside parameters (a float with an 0xAA byte). After a bad checksum the
//! decoder therefore drops one byte and searches again, as tokio-modbus does, so a real frame
//! that started inside the bytes of a false one is still found. Damaged input is reported as an
//! item, because `Framed` ends its stream after a codec error.

use std::io;

use bytes::{Buf, BytesMut};
use thiserror::Error;
use tokio_util::codec::{Decoder, Encoder};

use crate::dobot::frame::{Ctrl, DobotFrame, SYNC, checksum_of};
use crate::error::{Error, ErrorKind};

/// Bytes before the id: the sync mark and the length.
const PREFIX_LEN: usize = 3;

/// Received bytes that are not a Dobot frame; they are dropped and decoding goes on.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DobotFrameError {
    /// Bytes before the next sync mark.
    #[error("{len} bytes of junk before a sync mark")]
    Junk {
        /// How many bytes were dropped.
        len: usize,
    },
    /// A sync mark followed by a length too short for id and ctrl or longer than the codec
    /// accepts; the first sync byte is dropped.
    #[error("length byte {len} after a sync mark is out of range")]
    BadLength {
        /// The length byte.
        len: u8,
    },
    /// The checksum does not match; the first sync byte is dropped.
    #[error(
        "checksum mismatch in frame id {id}: frame says 0x{received:02x}, content gives 0x{computed:02x}"
    )]
    BadChecksum {
        /// The id byte of the damaged frame (itself possibly damaged).
        id: u8,
        /// The checksum byte received.
        received: u8,
        /// The checksum of the received id, ctrl and params.
        computed: u8,
    },
    /// The stream ended inside a frame.
    #[error("stream ended {len} bytes into a frame")]
    Truncated {
        /// Bytes of the unfinished frame.
        len: usize,
    },
}

impl Error for DobotFrameError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Protocol
    }
}

/// Encoder and decoder of Dobot frames; the same format runs in both directions.
///
/// The decoder refuses frames with more than [`DobotCodec::DEFAULT_MAX_PARAMS_LEN`] parameter
/// bytes unless told otherwise. Without a limit, junk such as `AA AA AA` reads as a frame of
/// 170 parameter bytes, and a real reply right behind it waits until that many more bytes have
/// arrived, which in a request-reply exchange is never.
#[derive(Debug, Clone, Copy)]
pub struct DobotCodec {
    max_params_len: usize,
}

impl Default for DobotCodec {
    fn default() -> DobotCodec {
        DobotCodec::new()
    }
}

impl DobotCodec {
    /// Enough for every command in [`Command`](crate::dobot::Command): the longest reply
    /// (`GetPose`) has 32 parameter bytes.
    pub const DEFAULT_MAX_PARAMS_LEN: usize = 64;

    /// A codec at the start of a stream, with the default parameter limit.
    pub fn new() -> DobotCodec {
        DobotCodec {
            max_params_len: DobotCodec::DEFAULT_MAX_PARAMS_LEN,
        }
    }

    /// A codec whose decoder accepts up to `max_params_len` parameter bytes (at most
    /// [`DobotFrame::MAX_PARAMS_LEN`]), for commands beyond the typed set.
    pub fn with_max_params_len(max_params_len: usize) -> DobotCodec {
        DobotCodec {
            max_params_len: max_params_len.min(DobotFrame::MAX_PARAMS_LEN),
        }
    }
}

impl Decoder for DobotCodec {
    type Item = Result<DobotFrame, DobotFrameError>;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, io::Error> {
        let junk = match src.windows(2).position(|pair| pair == SYNC) {
            Some(start) => start,
            // Keep a final 0xAA: it may be the first half of a sync mark.
            None => src.len() - usize::from(src.last() == Some(&SYNC[0])),
        };
        if junk > 0 {
            src.advance(junk);
            return Ok(Some(Err(DobotFrameError::Junk { len: junk })));
        }
        let Some(&len) = src.get(2) else {
            return Ok(None);
        };
        if len < 2 || usize::from(len) - 2 > self.max_params_len {
            src.advance(1);
            return Ok(Some(Err(DobotFrameError::BadLength { len })));
        }
        let frame_len = PREFIX_LEN + usize::from(len) + 1;
        if src.len() < frame_len {
            src.reserve(frame_len - src.len());
            return Ok(None);
        }
        let (id, ctrl) = (src[3], src[4]);
        let params = &src[5..frame_len - 1];
        let received = src[frame_len - 1];
        let computed = checksum_of(id, ctrl, params);
        if received != computed {
            src.advance(1);
            return Ok(Some(Err(DobotFrameError::BadChecksum {
                id,
                received,
                computed,
            })));
        }
        let mut frame = src.split_to(frame_len);
        frame.advance(5);
        frame.truncate(frame.len() - 1);
        let frame = DobotFrame::new(id, Ctrl(ctrl), frame.freeze())
            .expect("a length byte cannot describe too many parameters");
        Ok(Some(Ok(frame)))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, io::Error> {
        if let Some(item) = self.decode(src)? {
            return Ok(Some(item));
        }
        let len = src.len();
        src.clear();
        Ok((len > 0).then_some(Err(DobotFrameError::Truncated { len })))
    }
}

impl Encoder<DobotFrame> for DobotCodec {
    type Error = io::Error;

    fn encode(&mut self, frame: DobotFrame, dst: &mut BytesMut) -> Result<(), io::Error> {
        frame.encode(dst);
        Ok(())
    }
}

impl Encoder<&DobotFrame> for DobotCodec {
    type Error = io::Error;

    fn encode(&mut self, frame: &DobotFrame, dst: &mut BytesMut) -> Result<(), io::Error> {
        frame.encode(dst);
        Ok(())
    }
}
