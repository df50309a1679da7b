//! The controller protocol as a `tokio_util::codec` pair, so any byte stream (a serial port, a
//! pseudo-terminal, an in-memory pipe) becomes a stream of frames with `Framed`.
//!
//! Damaged input is an item, not a codec error: `Framed` ends its stream after an error, while a
//! serial link must live through noise. A bad frame costs the bytes up to the next delimiter, and
//! the decoder never holds more than [`MAX_ENCODED_LEN`] bytes of one frame, whatever arrives.

use std::io;

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::controller::cobs;
use crate::controller::frame::{Frame, FrameError, MAX_BODY_LEN, MAX_ENCODED_LEN};

/// Ends every frame on the wire; COBS guarantees it appears nowhere else.
const DELIMITER: u8 = 0x00;

/// Encoder and decoder of controller frames, used by both ends of the link.
#[derive(Debug, Default)]
pub struct ControllerCodec {
    /// Set after an oversize frame was reported, until its delimiter has gone by.
    discarding: bool,
    /// Reused for each frame's body, so coding allocates only once.
    body: Vec<u8>,
    /// Reused for each encoded frame.
    encoded: Vec<u8>,
    /// The session's protocol version once the handshake agreed on one (see
    /// [`Frame::decode_body`]).
    version: Option<u8>,
}

impl ControllerCodec {
    /// A codec at the start of a stream.
    pub fn new() -> ControllerCodec {
        ControllerCodec::default()
    }

    /// Reads frames of `version` only from now on (`None`: any version this crate speaks, as
    /// before a handshake). Frames are sent with the version they carry.
    pub fn set_version(&mut self, version: Option<u8>) {
        self.version = version;
    }

    fn decode_encoded(&mut self, encoded: &[u8]) -> Result<Frame, FrameError> {
        if encoded.len() > MAX_ENCODED_LEN {
            return Err(FrameError::Oversize { len: encoded.len() });
        }
        self.body.clear();
        cobs::decode(encoded, &mut self.body)?;
        Frame::decode_body(&self.body, self.version)
    }
}

impl Decoder for ControllerCodec {
    type Item = Result<Frame, FrameError>;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, io::Error> {
        loop {
            let Some(end) = src.iter().position(|&byte| byte == DELIMITER) else {
                if self.discarding {
                    src.clear();
                } else if src.len() > MAX_ENCODED_LEN {
                    let len = src.len();
                    src.clear();
                    self.discarding = true;
                    return Ok(Some(Err(FrameError::Oversize { len })));
                }
                return Ok(None);
            };
            let encoded = src.split_to(end);
            src.advance(1);
            if std::mem::take(&mut self.discarding) || encoded.is_empty() {
                // The tail of an oversize frame, or an empty frame: a sender may send a lone
                // delimiter to end whatever garbage the receiver holds.
                continue;
            }
            return Ok(Some(self.decode_encoded(&encoded)));
        }
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, io::Error> {
        if let Some(item) = self.decode(src)? {
            return Ok(Some(item));
        }
        let len = src.len();
        src.clear();
        if std::mem::take(&mut self.discarding) || len == 0 {
            Ok(None)
        } else {
            Ok(Some(Err(FrameError::Truncated { len })))
        }
    }
}

impl Encoder<Frame> for ControllerCodec {
    type Error = io::Error;

    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<(), io::Error> {
        self.body.clear();
        frame.encode_body(&mut self.body);
        debug_assert!(
            self.body.len() <= MAX_BODY_LEN,
            "every message fits a frame"
        );
        self.encoded.clear();
        cobs::encode(&self.body, &mut self.encoded);
        self.encoded.push(DELIMITER);
        dst.extend_from_slice(&self.encoded);
        Ok(())
    }
}
