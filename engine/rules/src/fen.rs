//! FEN as in the PDN `FEN` tag: `W:Wa1,c1,Ke1:Bb8,d8`, numeric `B:W21-32:B1-12`.

use crate::color::Color;
use crate::notation;
use crate::position::Position;
use crate::position_error::PositionError;
use crate::setup::Setup;
use crate::square::Bitboard;
use crate::variant::SquareNotation;
use crate::variant::Variant;

/// A FEN that cannot be read, naming the token at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    #[error("the FEN is empty")]
    Empty,
    /// The first field is not the side to move.
    #[error("FEN token {token:?}: the FEN must start with the side to move, W or B")]
    Turn {
        /// The token.
        token: String,
    },
    /// A field is neither a piece list nor a known counter.
    #[error("FEN token {token:?}: a field must start with W or B followed by squares")]
    Field {
        /// The token.
        token: String,
    },
    /// A square entry cannot be read.
    #[error("FEN token {token:?}: {why}")]
    Square {
        /// The token.
        token: String,
        /// What is wrong.
        why: String,
    },
    /// The same colour is listed twice.
    #[error("FEN token {token:?}: the pieces of {color} are listed twice")]
    DuplicateColor {
        /// The token.
        token: String,
        /// The colour listed twice.
        color: Color,
    },
    /// The same square is listed twice.
    #[error("FEN token {token:?}: square listed more than once")]
    DuplicateSquare {
        /// The token.
        token: String,
    },
    /// The pieces are readable but their arrangement breaks the rules.
    #[error("the FEN describes an impossible position: {0}")]
    Position(#[from] PositionError),
}

/// Reads a FEN for a variant. Square names may be algebraic or numeric; numeric ranges
/// (`31-35`) and the optional PDN counters (`H0`, `F1`) and a final `.` are accepted.
pub fn parse(variant: Variant, fen: &str) -> Result<Position, FenError> {
    let fen = fen.trim().trim_matches('"').trim().trim_end_matches('.');
    if fen.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = fen.split(':').map(str::trim);
    let turn_token = fields.next().unwrap_or_default();
    let turn = match turn_token.chars().collect::<Vec<_>>()[..] {
        [c] => Color::from_char(c),
        _ => None,
    }
    .ok_or_else(|| FenError::Turn {
        token: turn_token.to_owned(),
    })?;
    let mut sides: [Option<Bitboard>; 2] = [None, None];
    let mut kings = Bitboard::EMPTY;
    for field in fields {
        let mut chars = field.chars();
        let Some(color) = chars.next().and_then(Color::from_char) else {
            if is_counter(field) {
                continue;
            }
            return Err(FenError::Field {
                token: field.to_owned(),
            });
        };
        let slot = &mut sides[color as usize];
        if slot.is_some() {
            return Err(FenError::DuplicateColor {
                token: field.to_owned(),
                color,
            });
        }
        let mut pieces = Bitboard::EMPTY;
        for entry in chars.as_str().split(',').map(str::trim) {
            if entry.is_empty() {
                if chars.as_str().trim().is_empty() {
                    break; // a side with no pieces: "W:W:B1"
                }
                return Err(FenError::Square {
                    token: field.to_owned(),
                    why: "empty entry between commas".to_owned(),
                });
            }
            // Only an upper-case K marks a king: `k` is a file letter on 12x12 boards.
            let (is_king, names) = match entry.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, entry),
            };
            for sq in expand(variant, names, entry)? {
                if pieces.contains(sq) {
                    return Err(FenError::DuplicateSquare {
                        token: entry.to_owned(),
                    });
                }
                pieces = pieces.with(sq);
                if is_king {
                    kings = kings.with(sq);
                }
            }
        }
        *slot = Some(pieces);
    }
    let setup = Setup {
        variant,
        white: sides[0].unwrap_or_default(),
        black: sides[1].unwrap_or_default(),
        kings,
        turn,
    };
    Ok(Position::from_setup(setup)?)
}

/// `H12` (half-move clock) or `F30` (move number), which PDN allows after the pieces.
fn is_counter(field: &str) -> bool {
    field.len() > 1
        && field.starts_with(['H', 'F', 'h', 'f'])
        && field[1..].bytes().all(|b| b.is_ascii_digit())
}

/// One square name, or a numeric range `a-b`.
fn expand(
    variant: Variant,
    names: &str,
    token: &str,
) -> Result<Vec<crate::square::Square>, FenError> {
    let bad = |why: String| FenError::Square {
        token: token.to_owned(),
        why,
    };
    let square = |name: &str| notation::parse_square(variant, name).map_err(|e| bad(e.to_string()));
    match names.split_once('-') {
        None => Ok(vec![square(names)?]),
        Some((a, b)) => {
            let (Ok(lo), Ok(hi)) = (a.parse::<usize>(), b.parse::<usize>()) else {
                return Err(bad(
                    "a range must join two square numbers, as in 31-35".to_owned()
                ));
            };
            if lo > hi {
                return Err(bad("a range must run upwards".to_owned()));
            }
            (lo..=hi).map(|n| square(&n.to_string())).collect()
        }
    }
}

/// Writes a FEN in the variant's notation.
pub fn write(position: &Position) -> String {
    write_in(position, position.variant().rules().notation)
}

/// Writes a FEN in a chosen notation; squares are listed in notation order.
pub fn write_in(position: &Position, notation: SquareNotation) -> String {
    let variant = position.variant();
    let mut out = String::new();
    out.push(position.turn().char());
    for color in Color::ALL {
        out.push(':');
        out.push(color.char());
        let mut squares: Vec<_> = position.pieces(color).into_iter().collect();
        let geometry = variant.geometry();
        match notation {
            SquareNotation::Numeric => squares.sort_by_key(|&sq| {
                notation::square_name_in(variant, sq, notation)
                    .parse::<usize>()
                    .unwrap_or_default()
            }),
            SquareNotation::Algebraic => squares.sort_by_key(|&sq| {
                let (row, col) = geometry.coords(sq);
                let name = notation::square_name_in(variant, sq, notation);
                (name.as_bytes()[0], row, col)
            }),
        }
        let entries: Vec<String> = squares
            .into_iter()
            .map(|sq| {
                let king = if position.kings().contains(sq) {
                    "K"
                } else {
                    ""
                };
                format!("{king}{}", notation::square_name_in(variant, sq, notation))
            })
            .collect();
        out.push_str(&entries.join(","));
    }
    out
}
