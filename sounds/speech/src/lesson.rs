//! What the coach says about a visitor's move that lost ground: what it allows, from the line
//! the robot's search found.

use rules::{Bitboard, Move, Square};

/// One short lesson about a move, the most concrete the robot's line shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lesson {
    /// The robot's reply is this capture: "Careful: now I can take your pieces, from square
    /// e5 over d4 and b4."
    Capture(Move),
    /// Within a few moves the robot's line wins the visitor's pieces on these squares: "Careful:
    /// now I can win your piece on square c5."
    PiecesLost(Bitboard),
    /// The robot's line makes a king on this square.
    King(Square),
    /// Nothing that concrete: this, the move the robot expected, was better.
    Better(Move),
}

impl Lesson {
    /// The squares the lesson is about, to show them: the capture's start and the pieces it
    /// takes, the pieces lost, the king's square, or the better move's start and end.
    pub fn squares(&self) -> Bitboard {
        match *self {
            Lesson::Capture(mv) => mv.captured() | Bitboard::from_square(mv.from()),
            Lesson::PiecesLost(squares) => squares,
            Lesson::King(square) => Bitboard::from_square(square),
            Lesson::Better(mv) => Bitboard::from_square(mv.from()) | Bitboard::from_square(mv.to()),
        }
    }
}
