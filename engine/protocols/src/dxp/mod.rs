//! DXP, the `DamExchange` protocol (version `01`, layer 2): what two International draughts
//! programs say to each other over a socket. [`message`] reads and writes the messages,
//! [`framing`] cuts a byte stream into them (each ends with a NUL byte), [`board`] turns
//! positions and moves into the rules' and back. DXP knows only the 10x10 board, squares 1 to
//! 50 as International's PDN numbers them.

pub mod board;
pub mod framing;
pub mod message;

#[cfg(test)]
mod proptests;
