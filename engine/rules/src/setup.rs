//! [`Setup`]: a board that may break the rules, what parsers build and the move generator reads.

use crate::color::Color;
use crate::square::Bitboard;
use crate::variant::Variant;

/// A board that may break the rules: any bits, any side to move.
///
/// Parsers and tests build a `Setup`; [`Position::from_setup`] checks it.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The variant whose board and rules apply.
    pub variant: Variant,
    /// White pieces.
    pub white: Bitboard,
    /// Black pieces.
    pub black: Bitboard,
    /// Kings of either colour.
    pub kings: Bitboard,
    /// Side to move.
    pub turn: Color,
}

impl Setup {
    /// Pieces of one colour.
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}
