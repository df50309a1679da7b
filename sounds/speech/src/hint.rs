//! What the coach says when the visitor asks for help: a hint, given in two steps, or the
//! offer to take a blunder back.

use rules::{Move, Square};

/// The answer to a long press of the visitor's button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// The first step: which piece to move, "Try a move with your piece on square c3."
    Piece(Square),
    /// The second step: the whole move, "Move from square c3 to square d4."
    Move(Move),
    /// The game's hints are used up.
    NoneLeft,
}
