//! Between the rules' squares and pieces and the arm's: the arm knows a square as (row,
//! column) and a piece as colour and kind, like the sensors it knows no rules (see
//! [`hal::arm`]); the daemon, which knows both, converts here.

use std::collections::BTreeSet;

use hal::arm::{BoardSquare, Layout, Piece, PieceColour, PieceKind};
use rules::{Bitboard, Color, Geometry, Position, Role, Square};

/// The arm's name for `sq`.
pub fn board_square(geometry: &Geometry, sq: Square) -> BoardSquare {
    let (row, col) = geometry.coords(sq);
    BoardSquare::new(row as u8, col as u8)
}

/// The rules' square at `square`, if it is one of the board's.
pub fn rules_square(geometry: &Geometry, square: BoardSquare) -> Option<Square> {
    geometry.at(usize::from(square.row), usize::from(square.col))
}

/// The arm's colour for a player.
pub const fn colour(color: Color) -> PieceColour {
    match color {
        Color::White => PieceColour::White,
        Color::Black => PieceColour::Black,
    }
}

/// The arm's piece for what stands on `sq` in `position`, if anything does.
pub fn piece_at(position: &Position, sq: Square) -> Option<Piece> {
    position.piece_at(sq).map(|piece| Piece {
        colour: colour(piece.color),
        kind: match piece.role {
            Role::King => PieceKind::King,
            Role::Man => PieceKind::Man,
        },
    })
}

/// Every piece of `position`, by the arm's squares.
pub fn layout(position: &Position) -> Layout {
    let geometry = position.variant().geometry();
    position
        .occupied()
        .into_iter()
        .filter_map(|sq| Some((board_square(geometry, sq), piece_at(position, sq)?)))
        .collect()
}

/// The squares of `squares`, by the arm's names.
pub fn occupied(geometry: &Geometry, squares: Bitboard) -> BTreeSet<BoardSquare> {
    squares
        .into_iter()
        .map(|sq| board_square(geometry, sq))
        .collect()
}

/// The squares a layout covers, as the rules' squares.
pub fn bitboard(geometry: &Geometry, layout: &Layout) -> Bitboard {
    layout
        .keys()
        .filter_map(|&square| rules_square(geometry, square))
        .collect()
}
