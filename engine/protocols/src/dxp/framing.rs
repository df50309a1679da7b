//! DXP's layer 1 over a socket: each message is its ASCII text followed by a NUL byte. A
//! [`Deframer`] is fed the bytes as they arrive and hands back whole messages, so a message
//! split over several reads is put together, and a peer that never sends a NUL cannot fill
//! the memory: bytes beyond [`MAX_MESSAGE_BYTES`] are dropped as they come and the message is
//! refused whole.

use std::collections::VecDeque;

use super::message::{self, Message, ParseError};

/// The longest message, in bytes without its NUL: the protocol's own limit (a message is 1
/// to 127 characters).
pub const MAX_MESSAGE_BYTES: usize = 127;

/// One message cut from the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A message's text without its NUL. Bytes that are not UTF-8 are replaced, so such a
    /// message is refused by the parser like any bad message.
    Message(String),
    /// A message longer than [`MAX_MESSAGE_BYTES`]; its bytes were dropped.
    TooLong,
}

/// A message cut from the stream and read: what either side of a connection gets from its
/// peer, so that both (the daemon's session and the engine client) tell the same cases apart.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A message read.
    Message(Message),
    /// A message that could not be read.
    Unreadable {
        /// Its text.
        text: String,
        /// Why.
        error: ParseError,
    },
    /// A message longer than the protocol allows, dropped.
    TooLong,
}

impl From<Frame> for Incoming {
    /// Parses the frame's text.
    fn from(frame: Frame) -> Incoming {
        match frame {
            Frame::Message(text) => match message::parse(&text) {
                Ok(message) => Incoming::Message(message),
                Err(error) => Incoming::Unreadable { text, error },
            },
            Frame::TooLong => Incoming::TooLong,
        }
    }
}

/// Cuts NUL-terminated messages out of the bytes received.
#[derive(Debug, Default)]
pub struct Deframer {
    /// The bytes of the message not yet ended.
    partial: Vec<u8>,
    /// The message not yet ended is already too long: its further bytes are dropped.
    too_long: bool,
    /// Messages ended and not yet taken.
    ready: VecDeque<Frame>,
}

impl Deframer {
    /// A deframer with nothing received.
    pub fn new() -> Deframer {
        Deframer::default()
    }

    /// Takes bytes as they arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        for chunk in bytes.split_inclusive(|&b| b == 0) {
            let ended = chunk.last() == Some(&0);
            let body = if ended {
                &chunk[..chunk.len() - 1]
            } else {
                chunk
            };
            if !self.too_long {
                if self.partial.len() + body.len() > MAX_MESSAGE_BYTES {
                    self.too_long = true;
                    self.partial = Vec::new();
                } else {
                    self.partial.extend_from_slice(body);
                }
            }
            if ended {
                let frame = if std::mem::take(&mut self.too_long) {
                    Frame::TooLong
                } else {
                    let bytes = std::mem::take(&mut self.partial);
                    Frame::Message(String::from_utf8_lossy(&bytes).into_owned())
                };
                self.ready.push_back(frame);
            }
        }
    }

    /// The next whole message, if one has ended.
    pub fn next_frame(&mut self) -> Option<Frame> {
        self.ready.pop_front()
    }

    /// The next whole message, read, if one has ended.
    pub fn next_incoming(&mut self) -> Option<Incoming> {
        self.next_frame().map(Incoming::from)
    }

    /// Whether bytes of a message not yet ended were received (at the end of the stream they
    /// are a message cut short).
    pub fn has_partial(&self) -> bool {
        !self.partial.is_empty() || self.too_long
    }
}

/// A message as it goes on the wire: its text and a NUL.
pub fn frame(text: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(chunks: &[&[u8]]) -> Vec<Frame> {
        let mut deframer = Deframer::new();
        let mut out = Vec::new();
        for chunk in chunks {
            deframer.push(chunk);
            while let Some(frame) = deframer.next_frame() {
                out.push(frame);
            }
        }
        out
    }

    fn message(text: &str) -> Frame {
        Frame::Message(text.to_owned())
    }

    #[test]
    fn messages_end_at_nul_whatever_the_reads() {
        assert_eq!(
            frames(&[b"M0012061100\0E0", b"0\0", b"CHello"]),
            [message("M0012061100"), message("E00")]
        );
        let mut deframer = Deframer::new();
        deframer.push(b"CHel");
        assert!(deframer.has_partial());
        assert_eq!(deframer.next_frame(), None);
    }

    #[test]
    fn a_message_too_long_is_refused_whole_and_the_next_one_read() {
        let long = vec![b'C'; MAX_MESSAGE_BYTES + 1];
        let exact = vec![b'C'; MAX_MESSAGE_BYTES];
        let read = frames(&[&long, b"\0E00\0", &exact, b"\0"]);
        assert_eq!(
            read,
            [
                Frame::TooLong,
                message("E00"),
                Frame::Message("C".repeat(MAX_MESSAGE_BYTES))
            ]
        );
        assert_eq!(frame("K0"), b"K0\0");
        let mut deframer = Deframer::new();
        deframer.push(b"K0\0Q\0");
        assert_eq!(
            deframer.next_incoming(),
            Some(Incoming::Message(Message::BackAccept(
                message::BackCode::Accepted
            )))
        );
        assert!(matches!(
            deframer.next_incoming(),
            Some(Incoming::Unreadable { text, .. }) if text == "Q"
        ));
    }
}
