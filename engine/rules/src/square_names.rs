//! Square names: algebraic (`a1`..) on every board, numeric (1..N, from the top-left dark
//! square as White sees the board, row by row) as PDN uses for International, Canadian,
//! English, Italian and pool. Italian boards are turned (dark corner on White's right), so their
//! names are mirrored; the engine's own geometry never changes.
//!
//! A module of its own, below positions and moves, so that errors about squares can name them
//! without the position depending on the move-text parser.

use crate::square::Square;
use crate::variant::{SquareNotation, Variant};

/// The physical column of an engine column: mirrored on turned boards.
fn physical_col(variant: Variant, col: usize) -> usize {
    let side = variant.geometry().side();
    if variant.rules().mirrored {
        side - 1 - col
    } else {
        col
    }
}

/// The name of a square in the variant's usual notation.
pub fn square_name(variant: Variant, sq: Square) -> String {
    square_name_in(variant, sq, variant.rules().notation)
}

/// The name of a square in a chosen notation.
pub fn square_name_in(variant: Variant, sq: Square, notation: SquareNotation) -> String {
    let geometry = variant.geometry();
    let (row, col) = geometry.coords(sq);
    let col = physical_col(variant, col);
    match notation {
        SquareNotation::Algebraic => format!("{}{}", (b'a' + col as u8) as char, row + 1),
        SquareNotation::Numeric => {
            let number = (geometry.side() - 1 - row) * geometry.width() + col / 2 + 1;
            number.to_string()
        }
    }
}

/// A square name that does not name a dark square of the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name:?} is not a square of the {variant} board: {why}")]
pub struct SquareError {
    /// The text given.
    pub name: String,
    /// The variant.
    pub variant: Variant,
    /// What is wrong with it.
    pub why: &'static str,
}

/// Parses a square name, algebraic (`c3`) or numeric (`22`), whichever the text is.
pub fn parse_square(variant: Variant, name: &str) -> Result<Square, SquareError> {
    let geometry = variant.geometry();
    let side = geometry.side();
    let err = |why| SquareError {
        name: name.to_owned(),
        variant,
        why,
    };
    let bytes = name.as_bytes();
    if bytes.is_empty() {
        return Err(err("the name is empty"));
    }
    if bytes.iter().all(u8::is_ascii_digit) {
        let number: usize = name.parse().map_err(|_| err("the number is too long"))?;
        if number == 0 || number > geometry.square_count() {
            return Err(err("numbers run from 1 to the number of dark squares"));
        }
        let row = side - 1 - (number - 1) / geometry.width();
        let k = (number - 1) % geometry.width();
        // Dark squares of a physical row start at column 0 or 1 depending on the row.
        let parity = usize::from(variant.rules().mirrored) ^ (row % 2);
        let col = physical_col(variant, 2 * k + parity);
        return geometry
            .at(row, col)
            .ok_or_else(|| err("not a dark square"));
    }
    let file = bytes[0].to_ascii_lowercase();
    if !file.is_ascii_lowercase() || bytes.len() < 2 || !bytes[1..].iter().all(u8::is_ascii_digit) {
        return Err(err(
            "expected a file letter and a rank number, or a square number",
        ));
    }
    let col = usize::from(file - b'a');
    let rank: usize = name[1..].parse().map_err(|_| err("the rank is too long"))?;
    if col >= side || rank == 0 || rank > side {
        return Err(err("outside the board"));
    }
    geometry
        .at(rank - 1, physical_col(variant, col))
        .ok_or_else(|| err("a light square; only dark squares are played on"))
}
