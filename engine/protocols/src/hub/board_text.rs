//! Positions and moves as Hub text, for every variant.
//!
//! Scan's 10x10 format is the model: a position is one character for the side to move (`W`,
//! `B`) and one per dark square in the standard order (`w`, `b` men, `W`, `B` kings, `e`
//! empty); a move is `from-to`, or `fromxto` followed by `x` and each captured square in any
//! order. Other boards follow it square for square, numbered as pydraughts' `HubEngine`
//! numbers them (the one Hub client for 8x8 boards; checked by `daemon/tests/it/hub.rs`):
//!
//! | variants | position string | move squares |
//! |----------|-----------------|--------------|
//! | international, canadian, italian | the variant's PDN numbers (1 at the top left as White sees the board) | the same |
//! | russian, brazilian, russian-giveaway | PDN-style numbers: 1 is b8, 32 is g1 | counted from a1: a1 1, c1 2, ..., h8 32 |
//! | english, pool | from the first mover's side: character 1 is square 32, and Black's pieces are `w`, Black to move `W` | the PDN numbers |
//!
//! pydraughts writes the Russian-family positions in one numbering and their moves in
//! another, and turns English over so that the side that moves first is `w`; pool, which it
//! does not play, is written like English, its board and first mover being English's.

use rules::notation::square_name_in;
use rules::{
    Bitboard, Color, Move, Position, PositionError, Setup, Square, SquareNotation, Variant,
};

/// How a variant's squares are numbered in Hub text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Numbering {
    /// Positions and moves in the variant's PDN numbers.
    Standard,
    /// Positions in PDN numbers, moves counted from a1.
    MovesFromA1,
    /// Positions from the first mover's side with Black as `w`, moves in PDN numbers.
    FirstMoverBelow,
}

fn numbering(variant: Variant) -> Numbering {
    match variant {
        Variant::International | Variant::Canadian | Variant::Italian => Numbering::Standard,
        Variant::Russian | Variant::Brazilian | Variant::RussianGiveaway => Numbering::MovesFromA1,
        Variant::English | Variant::Pool => Numbering::FirstMoverBelow,
    }
}

/// A position or move text that does not fit the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardTextError {
    /// A position string of the wrong length.
    #[error(
        "{variant} positions are {expected} characters (the side to move, then one per square), not {found}"
    )]
    Length {
        /// The variant.
        variant: Variant,
        /// The length it needs.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// A side to move other than `W` or `B`.
    #[error("the side to move is W or B, not {0:?}")]
    SideToMove(char),
    /// A square's character other than `w`, `b`, `W`, `B`, `e`.
    #[error("square {square} is w, b, W, B or e, not {found:?}")]
    Piece {
        /// The square's number in the position string, from 1.
        square: usize,
        /// The character given.
        found: char,
    },
    /// A board the variant's rules refuse (a man on its crowning row, too many pieces).
    #[error("not a legal {}", .0)]
    Position(#[from] PositionError),
    /// Move text that is not `from-to` or `fromxto[xcaptured...]`.
    #[error("{0:?} is not a move: expected from-to or fromxtoxcaptured")]
    MoveSyntax(String),
    /// A move that is not legal in the position.
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
}

/// The squares in the order of a variant's position string.
fn position_order(variant: Variant) -> Vec<Square> {
    let standard = standard_order(variant);
    match numbering(variant) {
        Numbering::Standard | Numbering::MovesFromA1 => standard,
        Numbering::FirstMoverBelow => standard.into_iter().rev().collect(),
    }
}

/// The squares in the order of a variant's move numbers (number 1 first).
fn move_order(variant: Variant) -> Vec<Square> {
    match numbering(variant) {
        Numbering::Standard | Numbering::FirstMoverBelow => standard_order(variant),
        Numbering::MovesFromA1 => variant.geometry().squares().collect(),
    }
}

/// The squares in the order of their PDN numbers.
fn standard_order(variant: Variant) -> Vec<Square> {
    let mut numbered: Vec<(usize, Square)> = variant
        .geometry()
        .squares()
        .map(|sq| {
            let name = square_name_in(variant, sq, SquareNotation::Numeric);
            (name.parse().expect("numeric square names are numbers"), sq)
        })
        .collect();
    numbered.sort_unstable();
    numbered.into_iter().map(|(_, sq)| sq).collect()
}

/// Whether the position string names colours as they are (else Black's pieces are `w`).
fn colours_as_they_are(variant: Variant) -> bool {
    numbering(variant) != Numbering::FirstMoverBelow
}

fn colour_letter(color: Color, variant: Variant) -> char {
    if (color == Color::White) == colours_as_they_are(variant) {
        'w'
    } else {
        'b'
    }
}

/// Reads a position string of `variant`.
pub fn parse_position(variant: Variant, text: &str) -> Result<Position, BoardTextError> {
    let order = position_order(variant);
    let found = text.chars().count();
    if found != order.len() + 1 {
        return Err(BoardTextError::Length {
            variant,
            expected: order.len() + 1,
            found,
        });
    }
    let mut chars = text.chars();
    let side = chars.next().expect("the length was checked");
    let white_letter = colour_letter(Color::White, variant);
    let turn = match side.to_ascii_lowercase() {
        letter @ ('w' | 'b') if side.is_ascii_uppercase() => {
            if letter == white_letter {
                Color::White
            } else {
                Color::Black
            }
        }
        _ => return Err(BoardTextError::SideToMove(side)),
    };
    let (mut white, mut black, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for (number, (c, sq)) in chars.zip(order).enumerate() {
        let color = match c.to_ascii_lowercase() {
            'e' if c == 'e' => continue,
            letter @ ('w' | 'b') if letter == white_letter => Color::White,
            'w' | 'b' => Color::Black,
            _ => {
                return Err(BoardTextError::Piece {
                    square: number + 1,
                    found: c,
                });
            }
        };
        match color {
            Color::White => white = white.with(sq),
            Color::Black => black = black.with(sq),
        }
        if c.is_ascii_uppercase() {
            kings = kings.with(sq);
        }
    }
    Ok(Position::from_setup(Setup {
        variant,
        white,
        black,
        kings,
        turn,
    })?)
}

/// Writes a position string.
pub fn write_position(position: &Position) -> String {
    let variant = position.variant();
    let side = colour_letter(position.turn(), variant).to_ascii_uppercase();
    let squares = position_order(variant).into_iter().map(|sq| {
        position.piece_at(sq).map_or('e', |piece| {
            let letter = colour_letter(piece.color, variant);
            if position.kings().contains(sq) {
                letter.to_ascii_uppercase()
            } else {
                letter
            }
        })
    });
    std::iter::once(side).chain(squares).collect()
}

/// Writes a move of `position` as Hub text, its captured squares in ascending order.
pub fn write_move(position: &Position, mv: &Move) -> String {
    let order = move_order(position.variant());
    let number = |sq: Square| {
        order
            .iter()
            .position(|&s| s == sq)
            .expect("a square of the board")
            + 1
    };
    if !mv.is_capture() {
        return format!("{}-{}", number(mv.from()), number(mv.to()));
    }
    let mut captured: Vec<usize> = mv.captured().into_iter().map(number).collect();
    captured.sort_unstable();
    let squares = [number(mv.from()), number(mv.to())]
        .into_iter()
        .chain(captured);
    squares.map(|n| n.to_string()).collect::<Vec<_>>().join("x")
}

/// Reads a move of `position`: the legal move with those squares, whatever order its
/// captured squares are given in.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, BoardTextError> {
    let syntax = || BoardTextError::MoveSyntax(text.to_owned());
    let capture = text.contains('x');
    let separator = if capture { 'x' } else { '-' };
    let numbers: Vec<usize> = text
        .split(separator)
        .map(|part| part.parse().map_err(|_| syntax()))
        .collect::<Result<_, _>>()?;
    if numbers.len() < 2 || (!capture && numbers.len() != 2) {
        return Err(syntax());
    }
    let order = move_order(position.variant());
    let square = |n: usize| n.checked_sub(1).and_then(|i| order.get(i).copied());
    let squares: Vec<Square> = numbers
        .iter()
        .map(|&n| square(n).ok_or_else(|| BoardTextError::IllegalMove(text.to_owned())))
        .collect::<Result<_, _>>()?;
    let captured: Bitboard = squares[2..].iter().copied().collect();
    position
        .legal_moves()
        .into_iter()
        .find(|mv| {
            mv.from() == squares[0]
                && mv.to() == squares[1]
                && mv.is_capture() == capture
                && mv.captured() == captured
        })
        .ok_or_else(|| BoardTextError::IllegalMove(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_starting_position_is_internationals() {
        let start = Position::new(Variant::International);
        let text = write_position(&start);
        assert_eq!(text, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
        assert_eq!(parse_position(Variant::International, &text), Ok(start));
        let mv = parse_move(&start, "32-28").unwrap();
        assert_eq!(write_move(&start, &mv), "32-28");
    }

    #[test]
    fn every_variants_start_reads_back() {
        for variant in Variant::ALL {
            let start = Position::new(variant);
            assert_eq!(
                parse_position(variant, &write_position(&start)),
                Ok(start),
                "{variant}"
            );
            for mv in start.legal_moves() {
                assert_eq!(
                    parse_move(&start, &write_move(&start, &mv)),
                    Ok(mv),
                    "{variant}"
                );
            }
        }
    }

    #[test]
    fn pydraughts_numbers_russian_moves_from_a1_and_english_from_the_top() {
        let russian = Position::new(Variant::Russian);
        assert_eq!(
            write_position(&russian),
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        let a3_b4 = rules::notation::parse_move(&russian, "a3-b4").unwrap();
        assert_eq!(write_move(&russian, &a3_b4), "9-13");
        let english = Position::new(Variant::English);
        assert_eq!(
            write_position(&english),
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        assert_eq!(english.turn(), Color::Black);
        assert!(parse_move(&english, "9-13").is_ok());
    }

    #[test]
    fn captured_squares_are_written_in_order_and_read_in_any_order() {
        let position = rules::fen::parse(Variant::International, "W:W37:B32,22").unwrap();
        let [double] = position.legal_moves()[..] else {
            panic!("one capture: {:?}", position.legal_moves());
        };
        assert_eq!(write_move(&position, &double), "37x17x22x32");
        assert_eq!(parse_move(&position, "37x17x32x22"), Ok(double));
        assert_eq!(
            parse_move(&position, "37x17x32"),
            Err(BoardTextError::IllegalMove("37x17x32".to_owned()))
        );
    }

    #[test]
    fn bad_text_is_refused_with_what_is_wrong() {
        let v = Variant::International;
        assert!(matches!(
            parse_position(v, "W"),
            Err(BoardTextError::Length { found: 1, .. })
        ));
        let start = write_position(&Position::new(v));
        assert_eq!(
            parse_position(v, &start.replacen('W', "X", 1)),
            Err(BoardTextError::SideToMove('X'))
        );
        assert_eq!(
            parse_position(v, &start.replacen('e', "q", 1)),
            Err(BoardTextError::Piece {
                square: 21,
                found: 'q'
            })
        );
        let position = Position::new(v);
        assert_eq!(
            parse_move(&position, "32-27x"),
            Err(BoardTextError::MoveSyntax("32-27x".to_owned()))
        );
        assert_eq!(
            parse_move(&position, "32-99"),
            Err(BoardTextError::IllegalMove("32-99".to_owned()))
        );
        assert_eq!(
            parse_move(&position, "1-6"),
            Err(BoardTextError::IllegalMove("1-6".to_owned()))
        );
    }
}
