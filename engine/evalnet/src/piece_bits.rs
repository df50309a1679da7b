//! A position's pieces by kind as raw bits, in the narrowest integer that holds the board.
//!
//! [`EvalNet::update`](crate::EvalNet::update) compares two positions' pieces at every node of
//! a search. The rules keep every board in a `u128` (12x12 needs more than 64 bits), which
//! x86-64 masks and scans in two registers with several instructions; the 8x8 and 10x10 boards'
//! bits all lie below 64, so for them the comparison runs on `u64`.

use std::ops::{BitAnd, Not};

use rules::{Color, Position};

/// Piece kinds, in the order of [`piece_bits`]: White's men, White's kings, Black's men,
/// Black's kings.
pub(crate) const KINDS: usize = 4;

/// An integer that holds a board's bits: `u64` for boards whose bits are all below 64, else
/// `u128`.
pub(crate) trait PieceBits: Copy + BitAnd<Output = Self> + Not<Output = Self> {
    /// `bits` cut to this width (the caller knows no square lies above it).
    fn from_board(bits: u128) -> Self;
    /// The lowest set bit's position, cleared; `None` when none is left.
    fn pop_lowest(&mut self) -> Option<u32>;
}

impl PieceBits for u64 {
    #[inline]
    fn from_board(bits: u128) -> u64 {
        bits as u64
    }

    #[inline]
    fn pop_lowest(&mut self) -> Option<u32> {
        (*self != 0).then(|| {
            let bit = self.trailing_zeros();
            *self &= *self - 1;
            bit
        })
    }
}

impl PieceBits for u128 {
    #[inline]
    fn from_board(bits: u128) -> u128 {
        bits
    }

    #[inline]
    fn pop_lowest(&mut self) -> Option<u32> {
        (*self != 0).then(|| {
            let bit = self.trailing_zeros();
            *self &= *self - 1;
            bit
        })
    }
}

/// The pieces of `position` by kind (see [`KINDS`]) in `B`.
#[inline]
pub(crate) fn piece_bits<B: PieceBits>(position: &Position) -> [B; KINDS] {
    let white = B::from_board(position.pieces(Color::White).0);
    let black = B::from_board(position.pieces(Color::Black).0);
    let kings = B::from_board(position.kings().0);
    [white & !kings, white & kings, black & !kings, black & kings]
}

/// The bit positions set in `bits`, lowest first.
#[inline]
pub(crate) fn bits<B: PieceBits>(mut bits: B) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || bits.pop_lowest())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Variant, fen};

    #[test]
    fn both_widths_give_the_same_pieces_on_a_narrow_board() {
        let position = fen::parse(Variant::Russian, "W:WKa1,c3,g3:Bb8,Kd8,e5").unwrap();
        let narrow = piece_bits::<u64>(&position);
        let wide = piece_bits::<u128>(&position);
        for kind in 0..KINDS {
            let narrow: Vec<u32> = bits(narrow[kind]).collect();
            let wide: Vec<u32> = bits(wide[kind]).collect();
            assert_eq!(narrow, wide, "kind {kind}");
            assert!(!narrow.is_empty(), "kind {kind} has a piece");
        }
    }

    #[test]
    fn bits_above_64_are_found_in_u128() {
        let found: Vec<u32> = bits(1u128 << 3 | 1u128 << 64 | 1u128 << 100).collect();
        assert_eq!(found, [3, 64, 100]);
    }
}
