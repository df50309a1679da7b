//! Square names and move text: `c3-d4`, `c3:e5:g7`, `32-28`, `28x19x8`, written and parsed
//! against a position. Square names live in [`crate::square_names`] and are re-exported here.

use std::fmt::Write as _;

use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
pub use crate::square_names::{SquareError, parse_square, square_name, square_name_in};
use crate::variant::{SquareNotation, Variant};

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
