//! Input planes: what the network sees of a position.
//!
//! The board is shown from the side to move's seat: for Black it is turned by 180 degrees, so
//! the network always plays "upwards" with its men starting at the bottom and never needs to
//! learn each pattern twice. Turning (not mirroring top to bottom) keeps dark squares dark and
//! keeps each player's double corner on their own right, so the view of a position equals the
//! view of its colour-flipped twin exactly.
//!
//! Planes, each `side x side` in row-major order from the viewer's bottom-left corner:
//!
//! | plane | content |
//! |-------|---------|
//! | 0 | own men |
//! | 1 | own kings |
//! | 2 | opponent's men |
//! | 3 | opponent's kings |
//! | 4 | ones on every cell, so convolutions can tell the board's edge from empty squares |

use rules::Color;
use rules::Geometry;
use rules::Position;
use rules::{Bitboard, Square};

/// Number of input planes.
pub const PLANES: usize = 5;

/// Row and column of `sq` as the side `turn` sees the board (row 0 nearest to it).
pub const fn view_coords(geometry: &Geometry, turn: Color, sq: Square) -> (usize, usize) {
    let (row, col) = geometry.coords(sq);
    match turn {
        Color::White => (row, col),
        Color::Black => (geometry.side() - 1 - row, geometry.side() - 1 - col),
    }
}

/// Number of `f32` values one position occupies: `PLANES * side * side`.
pub const fn input_len(geometry: &Geometry) -> usize {
    PLANES * geometry.side() * geometry.side()
}

/// Writes the planes of `position` into `out`, which must hold [`input_len`] values.
///
/// Writing into a caller's buffer lets a batch be filled in place without one allocation per
/// position.
///
/// # Panics
/// If `out` has the wrong length: that is a bug in the caller, not a property of the position.
pub fn write_planes(position: &Position, out: &mut [f32]) {
    let geometry = position.variant().geometry();
    let side = geometry.side();
    let cells = side * side;
    assert_eq!(out.len(), input_len(geometry), "input buffer length");
    let me = position.turn();
    let planes: [Bitboard; 4] = [
        position.men_of(me),
        position.kings_of(me),
        position.men_of(!me),
        position.kings_of(!me),
    ];
    out[..4 * cells].fill(0.0);
    for (plane, squares) in planes.into_iter().enumerate() {
        for sq in squares {
            let (row, col) = view_coords(geometry, me, sq);
            out[plane * cells + row * side + col] = 1.0;
        }
    }
    out[4 * cells..].fill(1.0);
}

/// The planes of `position` in a new vector.
pub fn planes(position: &Position) -> Vec<f32> {
    let mut out = vec![0.0; input_len(position.variant().geometry())];
    write_planes(position, &mut out);
    out
}

#[cfg(test)]
#[allow(clippy::float_cmp, reason = "planes hold exactly 0.0 or 1.0")]
mod tests {
    use super::*;
    use rules::Variant;

    #[test]
    fn start_position_shows_own_men_at_the_bottom_for_both_sides() {
        let start = Position::new(Variant::Russian);
        let white = planes(&start);
        let black = planes(&start.with_turn(Color::Black));
        // The start position is symmetric, so both sides see the same picture.
        assert_eq!(white, black);
        // Own men fill the dark cells of rows 0..3; a1 (cell 0) is dark.
        for row in 0..8 {
            for col in 0..8 {
                let expected = row < 3 && (row + col) % 2 == 0;
                assert_eq!(white[row * 8 + col] == 1.0, expected, "row {row} col {col}");
            }
        }
        assert_eq!(white[2 * 64 + 63], 1.0, "opponent man on h8");
        assert!(white[4 * 64..].iter().all(|&v| v == 1.0));
    }
}
