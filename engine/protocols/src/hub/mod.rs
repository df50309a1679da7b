//! Hub, version 2 (Scan's `protocol.txt`): [`message`] reads and writes the protocol's lines,
//! [`board_text`] its positions and moves for every variant, in the numbering pydraughts and
//! the Hub GUI use.

pub mod board_text;
pub mod message;
