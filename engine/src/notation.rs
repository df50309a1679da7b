//! Square names and move text.
//!
//! Algebraic names (`a1`..) exist on every board; numeric names (1..N, from the top-left dark
//! square as White sees the board, row by row) are what PDN uses for International, Canadian,
//! English, Italian and pool. Italian boards are turned (dark corner on White's right), so their
//! names are mirrored; the engine's own geometry never changes.

use std::fmt::Write as _;

use crate::moves::Move;
use crate::position::Position;
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

/// Move text in the variant's notation: `c3-d4`, `c3:e5:g7`, `32-28`, `28x19x8`.
///
/// Captures list every landing square so that the text names exactly one move.
pub fn move_text(variant: Variant, mv: &Move) -> String {
    move_text_in(variant, mv, variant.rules().notation)
}

/// Move text in a chosen notation.
pub fn move_text_in(variant: Variant, mv: &Move, notation: SquareNotation) -> String {
    let separator = match (mv.is_capture(), notation) {
        (false, _) => '-',
        (true, SquareNotation::Algebraic) => ':',
        (true, SquareNotation::Numeric) => 'x',
    };
    let mut text = square_name_in(variant, mv.from(), notation);
    for sq in mv.landings() {
        text.push(separator);
        text.push_str(&square_name_in(variant, *sq, notation));
    }
    text
}

/// Move text that does not name exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// The text is not move syntax.
    #[error("{text:?} is not a move: {why}")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// The text names a move that is not legal here.
    #[error("{text} is not legal here: {why}")]
    Illegal {
        /// The text given.
        text: String,
        /// Why, in words a player understands.
        why: String,
    },
    /// Several legal moves fit the text.
    #[error("{text} is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// Full text of each legal move that fits.
        candidates: Vec<String>,
    },
}

/// Finds the legal move a text names.
///
/// Accepts `-`, `:`, `x` or `×` between squares, algebraic or numeric names, and either the
/// full path or only the first and last squares (given intermediate squares must lie on the
/// path, in order).
pub fn parse_move(position: &Position, text: &str) -> Result<Move, MoveTextError> {
    let variant = position.variant();
    let trimmed = text.trim().trim_end_matches(['!', '?', '+', '#', '*']);
    let syntax = |why: String| MoveTextError::Syntax {
        text: text.to_owned(),
        why,
    };
    if trimmed.is_empty() {
        return Err(syntax("it is empty".to_owned()));
    }
    let is_capture_text = trimmed.contains([':', 'x', 'X', '×']);
    let squares = trimmed
        .split(['-', ':', 'x', 'X', '×'])
        .map(|name| parse_square(variant, name).map_err(|e| syntax(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 {
        return Err(syntax("a move names at least two squares".to_owned()));
    }
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let legal = position.legal_moves();
    let fits: Vec<Move> = legal
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| is_subsequence(&squares[1..squares.len() - 1], m.landings()))
        .copied()
        .collect();
    match fits.len() {
        1 => Ok(fits[0]),
        0 => Err(MoveTextError::Illegal {
            text: trimmed.to_owned(),
            why: explain_illegal(position, &legal, from, is_capture_text),
        }),
        _ => Err(MoveTextError::Ambiguous {
            text: trimmed.to_owned(),
            candidates: fits.iter().map(|m| move_text(variant, m)).collect(),
        }),
    }
}

fn is_subsequence(needle: &[Square], haystack: &[Square]) -> bool {
    let mut rest = haystack.iter();
    needle.iter().all(|sq| rest.any(|h| h == sq))
}

fn explain_illegal(position: &Position, legal: &[Move], from: Square, is_capture: bool) -> String {
    let variant = position.variant();
    let name = |sq| square_name(variant, sq);
    let mut why = String::new();
    match position.piece_at(from) {
        None => {
            let _ = write!(why, "there is no piece on {}", name(from));
        }
        Some(piece) if piece.color != position.turn() => {
            let _ = write!(
                why,
                "the piece on {} is {}'s, and it is {}'s turn",
                name(from),
                piece.color,
                position.turn()
            );
        }
        Some(_) => {
            let captures: Vec<_> = legal.iter().filter(|m| m.is_capture()).collect();
            if !captures.is_empty() && !is_capture {
                let _ = write!(
                    why,
                    "a capture is compulsory, for example {}",
                    move_text(variant, captures[0])
                );
            } else {
                let own: Vec<_> = legal
                    .iter()
                    .filter(|m| m.from() == from)
                    .map(|m| move_text(variant, m))
                    .collect();
                if own.is_empty() {
                    let _ = write!(why, "the piece on {} has no legal move", name(from));
                } else {
                    let _ = write!(
                        why,
                        "the piece on {} can play {}",
                        name(from),
                        own.join(", ")
                    );
                }
            }
        }
    }
    why
}
