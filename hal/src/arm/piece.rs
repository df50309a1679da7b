//! What stands on a square or waits in a slot: a man or a king, white or black.
//!
//! The arm needs the kind to grip a piece at the right height, and the colour to keep track of
//! what waits beside the board, so that a reset can put the right pieces back. Like squares,
//! these are the hardware layer's own small types rather than `rules::Piece`: the daemon
//! converts.

use std::fmt;

/// A man or a king: they differ in height, so the tool grips them at different heights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// An uncrowned piece.
    Man,
    /// A crowned piece.
    King,
}

/// The colour of a piece: which player it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceColour {
    /// The light pieces, on rows 0 and up at the start.
    White,
    /// The dark pieces.
    Black,
}

impl PieceColour {
    /// The other player's colour: the colour of the pieces a move captures.
    #[must_use]
    pub const fn opponent(self) -> PieceColour {
        match self {
            PieceColour::White => PieceColour::Black,
            PieceColour::Black => PieceColour::White,
        }
    }
}

/// One physical piece as the arm carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose it is.
    pub colour: PieceColour,
    /// Man or king.
    pub kind: PieceKind,
}

impl Piece {
    /// A man of `colour`.
    pub const fn man(colour: PieceColour) -> Piece {
        Piece {
            colour,
            kind: PieceKind::Man,
        }
    }

    /// A king of `colour`.
    pub const fn king(colour: PieceColour) -> Piece {
        Piece {
            colour,
            kind: PieceKind::King,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = match self.colour {
            PieceColour::White => "white",
            PieceColour::Black => "black",
        };
        let kind = match self.kind {
            PieceKind::Man => "man",
            PieceKind::King => "king",
        };
        write!(f, "{colour} {kind}")
    }
}
