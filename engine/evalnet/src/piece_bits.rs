//! A position's pieces by kind as raw bits, in the narrowest integer that holds the board.
//!
//! [`EvalNet::update`](crate::EvalNet::update) compares two positions' pieces at every node of
//! a search. The rules keep every board in a `u128` (12x12 needs more than 64 bits), which
//! x86-64 masks and scans in two registers with several instructions; the 8x8 and 10x10 boards'
//! bits all lie below 64, so for them the comparison runs on `u64`, through the same
//! [`BoardBits`] the move generator works in.

use rules::{BoardBits, Color, Position};

/// Piece kinds, in the order of [`piece_bits`]: White's men, White's kings, Black's men,
/// Black's kings.
pub(crate) const KINDS: usize = 4;

/// The pieces of `position` by kind (see [`KINDS`]) in `B`, which must hold its board.
#[inline]
pub(crate) fn piece_bits<B: BoardBits>(position: &Position) -> [B; KINDS] {
    let white = B::narrow(position.pieces(Color::White).0);
    let black = B::narrow(position.pieces(Color::Black).0);
    let kings = B::narrow(position.kings().0);
    [white & !kings, white & kings, black & !kings, black & kings]
}

/// The bit positions set in `bits`, lowest first.
#[inline]
pub(crate) fn bits<B: BoardBits>(mut bits: B) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != B::ZERO).then(|| {
            let bit = bits.lowest_index();
            bits ^= bits.lowest();
            bit
        })
    })
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
