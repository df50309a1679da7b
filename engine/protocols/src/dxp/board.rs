//! DXP's positions and moves against the rules: International draughts, squares numbered 1
//! to 50 as its PDN numbers them (1 at the top left as White sees the board), the numbering
//! Hub text uses too, so a DXP position is read through `hub::board_text`.

use rules::{Color, Move, Position, Variant};

use super::message::{MoveMessage, Side, StartPosition};
use crate::hub::board_text::{self, BoardTextError};

/// The only variant DXP plays.
pub const VARIANT: Variant = Variant::International;

/// A position or move that does not fit the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A starting position the rules refuse (a man on its crowning row, too many pieces).
    #[error("the starting position is {0}")]
    Position(BoardTextError),
    /// A move that is not legal in the position.
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The starting position a game request gives.
pub fn parse_position(start: &StartPosition) -> Result<Position, BoardError> {
    let side = match start.to_move {
        Side::White => 'W',
        Side::Black => 'B',
    };
    let squares = start.squares.chars().map(|c| match c {
        'z' => 'b',
        'Z' => 'B',
        other => other,
    });
    let hub: String = std::iter::once(side).chain(squares).collect();
    board_text::parse_position(VARIANT, &hub).map_err(BoardError::Position)
}

/// A position as a game request gives it.
pub fn write_position(position: &Position) -> StartPosition {
    let hub = board_text::write_position(position);
    StartPosition {
        to_move: position.turn().into(),
        squares: hub
            .chars()
            .skip(1)
            .map(|c| match c {
                'b' => 'z',
                'B' => 'Z',
                other => other,
            })
            .collect(),
    }
}

/// The legal move of `position` a move message names: its from and to squares and the set of
/// its captured squares (in any order).
pub fn parse_move(position: &Position, message: &MoveMessage) -> Result<Move, BoardError> {
    let text = move_text(message);
    board_text::parse_move(position, &text).map_err(|_| BoardError::IllegalMove(text))
}

/// A move of `position` as a move message, its captured squares in ascending order.
pub fn write_move(position: &Position, mv: &Move, seconds: u16) -> MoveMessage {
    let text = board_text::write_move(position, mv);
    let numbers: Vec<u8> = text
        .split(['-', 'x'])
        .map(|n| n.parse().expect("Hub move text is numbers"))
        .collect();
    MoveMessage {
        seconds,
        from: numbers[0],
        to: numbers[1],
        captured: numbers[2..].to_vec(),
    }
}

/// A move message as Hub text (`from-to`, `fromxto[xcaptured...]`), also how the log names it.
pub fn move_text(message: &MoveMessage) -> String {
    if message.captured.is_empty() {
        return format!("{}-{}", message.from, message.to);
    }
    let squares = [message.from, message.to]
        .into_iter()
        .chain(message.captured.iter().copied());
    squares.map(|n| n.to_string()).collect::<Vec<_>>().join("x")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxp::message::{Message, parse};

    #[test]
    fn the_start_reads_and_writes_as_pydraughts_sends_it() {
        let start = Position::new(VARIANT);
        let written = write_position(&start);
        assert_eq!(
            written.squares,
            format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        assert_eq!(written.to_move, Side::White);
        assert_eq!(parse_position(&written), Ok(start));
    }

    #[test]
    fn moves_are_found_by_their_squares_whatever_the_captures_order() {
        let position = rules::fen::parse(VARIANT, "W:W28:B23,14").unwrap();
        let mv = position.legal_moves()[0];
        let message = write_move(&position, &mv, 3);
        let text = Message::Move(message.clone()).to_string();
        assert_eq!(text, "M00032810021423");
        let Ok(Message::Move(read)) = parse(&text) else {
            panic!("{text} is not a move");
        };
        assert_eq!(parse_move(&position, &read), Ok(mv));
        let mut reversed = read.clone();
        reversed.captured.reverse();
        assert_eq!(parse_move(&position, &reversed), Ok(mv));
        let wrong = MoveMessage {
            seconds: 0,
            from: 28,
            to: 22,
            captured: vec![],
        };
        assert_eq!(
            parse_move(&position, &wrong).unwrap_err().to_string(),
            "28-22 is not a legal move here"
        );
    }
}
