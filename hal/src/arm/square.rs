//! Board squares as the arm sees them: a row and a column, with algebraic names for operators.
//!
//! The hardware layer does not depend on the rules engine (see [`crate::Occupancy`]), so squares
//! are plain coordinates: row 0 is White's back rank and column 0 White's left file, exactly as
//! `rules::Geometry::coords` returns them. The daemon converts an engine move with that call.

use std::fmt;

/// One square of the board: `row` 0 is White's back rank, `col` 0 is White's left file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSquare {
    /// Rank counted from White's side, from 0.
    pub row: u8,
    /// File counted from White's left, from 0.
    pub col: u8,
}

impl BoardSquare {
    /// The square at this row and column.
    pub const fn new(row: u8, col: u8) -> BoardSquare {
        BoardSquare { row, col }
    }

    /// Whether the square lies on a board with `side` squares along an edge.
    pub const fn is_on(self, side: usize) -> bool {
        (self.row as usize) < side && (self.col as usize) < side
    }

    /// Whether a piece can stand here: the dark squares, a1's colour.
    pub const fn is_dark(self) -> bool {
        (self.row + self.col).is_multiple_of(2)
    }

    /// Reads an algebraic name (`c3`, `j10`) as the operator types it in a calibration file.
    pub fn parse(name: &str) -> Option<BoardSquare> {
        let mut chars = name.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank: u8 = chars.as_str().parse().ok()?;
        if rank == 0 || chars.as_str().starts_with('0') {
            return None;
        }
        Some(BoardSquare::new(rank - 1, file as u8 - b'a'))
    }
}

impl fmt::Display for BoardSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col), self.row + 1)
    }
}
