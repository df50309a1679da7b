//! [`Position`]: a [`Setup`] checked against its variant's rules, and the moves played on it.
//!
//! No text format is imported here: FEN, notation and PDN read and write positions from their
//! own modules, and errors carry typed squares that only their `Display` names.

use std::fmt;

use crate::color::Color;
use crate::movegen;
use crate::moves::Move;
use crate::position_error::{PositionError, PositionErrorKind};
use crate::setup::Setup;
use crate::square::{Bitboard, Square};
use crate::variant::Variant;

/// A man or a king.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum Role {
    /// Moves forward one square.
    Man,
    /// Crowned piece.
    King,
}

/// A piece on the board.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

/// A legal arrangement of pieces with a side to move, under one variant's rules.
///
/// Positions are small `Copy` values: play a move on a copy to keep the original.
///
/// It holds its checked [`Setup`], which the move generator reads in place.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Setup,
}

/// A move was not legal in the position; the position is handed back unchanged.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the move is not legal in this position")]
pub struct PlayError {
    /// The position the move was tried in.
    pub position: Box<Position>,
}

impl Position {
    /// The starting position of a variant.
    pub fn new(variant: Variant) -> Position {
        let rules = variant.rules();
        let geometry = rules.geometry;
        let mut white = Bitboard::EMPTY;
        let mut black = Bitboard::EMPTY;
        for row in 0..rules.men_rows {
            white |= geometry.row(row);
            black |= geometry.row(geometry.side() - 1 - row);
        }
        Position {
            board: Setup {
                variant,
                white,
                black,
                kings: Bitboard::EMPTY,
                turn: rules.first,
            },
        }
    }

    /// Checks a setup against its variant's rules.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let Setup {
            variant,
            white,
            black,
            kings,
            ..
        } = setup;
        let rules = variant.rules();
        let geometry = rules.geometry;
        let refuse = |kind| {
            Err(PositionError {
                setup: Box::new(setup),
                kind,
            })
        };
        if !((white | black | kings) - geometry.all()).is_empty() {
            return refuse(PositionErrorKind::OffBoard);
        }
        if let Some(sq) = (white & black).first() {
            return refuse(PositionErrorKind::BothColors(sq));
        }
        if let Some(sq) = (kings - (white | black)).first() {
            return refuse(PositionErrorKind::KingWithoutPiece(sq));
        }
        for color in Color::ALL {
            let own = setup.pieces(color);
            if let Some(square) = ((own - kings) & geometry.promotion_row(color)).first() {
                return refuse(PositionErrorKind::ManOnCrowningRow { color, square });
            }
            let max = (rules.men_rows * geometry.width()) as u32;
            if own.count() > max {
                return refuse(PositionErrorKind::TooManyPieces {
                    color,
                    count: own.count(),
                    max,
                });
            }
        }
        Ok(Position { board: setup })
    }

    /// The position as an unchecked setup.
    pub const fn to_setup(&self) -> Setup {
        self.board
    }

    /// The position's board, for the move generator to read without a copy.
    pub(crate) const fn board(&self) -> &Setup {
        &self.board
    }

    /// The variant whose rules apply.
    pub const fn variant(&self) -> Variant {
        self.board.variant
    }

    /// Side to move.
    pub const fn turn(&self) -> Color {
        self.board.turn
    }

    /// Pieces of one colour.
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.board.white,
            Color::Black => self.board.black,
        }
    }

    /// Kings of both colours.
    pub const fn kings(&self) -> Bitboard {
        self.board.kings
    }

    /// Men of one colour.
    pub const fn men_of(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & !self.board.kings.0)
    }

    /// Kings of one colour.
    pub const fn kings_of(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & self.board.kings.0)
    }

    /// Every occupied square: what the board's Hall sensors see.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.board.white.0 | self.board.black.0)
    }

    /// The piece on a square.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.board.white.contains(sq) {
            Color::White
        } else if self.board.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.board.kings.contains(sq) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        movegen::legal_moves(&self.board, &mut moves);
        moves
    }

    /// Every legal move, written into a buffer that is reused to avoid allocation in searches.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        movegen::legal_moves(&self.board, moves);
    }

    /// The number of legal moves; cheaper than [`Position::legal_moves`] when nothing can
    /// be captured (perft's bulk counting, mobility in evaluation).
    pub fn count_legal_moves(&self) -> usize {
        movegen::count_legal_moves(&self.board, &mut Vec::new())
    }

    /// What a search's quiet leaf needs to know, as cheaply as the rules can tell it: when
    /// the side to move must capture, `moves` is left holding the legal moves (the captures,
    /// built once), otherwise it is left empty, and the answer is whether the side to move
    /// has a legal move at all. Quiet moves are neither built nor counted: the first one found
    /// settles it.
    pub fn forced_captures_into(&self, moves: &mut Vec<Move>) -> bool {
        movegen::forced_captures(&self.board, moves)
    }

    /// Whether the side to move must capture.
    pub fn has_capture(&self) -> bool {
        movegen::has_capture(&self.board)
    }

    /// Whether `mv` is a legal move here (by identity: from, to, captured, promotion).
    ///
    /// A quiet move is checked directly against the board; a capture is looked up among the
    /// generated captures, because the capture rules (majority, Italian priorities) compare it
    /// with every other capture.
    pub fn is_legal(&self, mv: &Move) -> bool {
        let geometry = self.board.variant.geometry();
        let own = self.pieces(self.board.turn);
        if !own.contains(mv.from()) || !geometry.contains(mv.to()) {
            return false;
        }
        if mv.is_capture() {
            return mv.captured().count() > 0 && self.legal_moves().contains(mv);
        }
        if mv.from() == mv.to() || self.occupied().contains(mv.to()) || self.has_capture() {
            return false;
        }
        let is_king = self.board.kings.contains(mv.from());
        let crowns = !is_king && geometry.promotion_row(self.board.turn).contains(mv.to());
        if mv.promotes() != crowns {
            return false;
        }
        let (from, to) = (geometry.coords(mv.from()), geometry.coords(mv.to()));
        let Some(dir) = crate::geometry::Direction::between(from, to) else {
            return false;
        };
        let distance = from.0.abs_diff(to.0);
        if !is_king {
            distance == 1 && crate::geometry::Direction::forward(self.board.turn).contains(&dir)
        } else if self.board.variant.rules().flying_kings {
            (geometry.between(mv.from(), mv.to()) & self.occupied()).is_empty()
        } else {
            distance == 1
        }
    }

    /// Plays a legal move, or hands the position back if the move is not legal.
    pub fn play(mut self, mv: &Move) -> Result<Position, PlayError> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(self)
        } else {
            Err(PlayError {
                position: Box::new(self),
            })
        }
    }

    /// Plays a move known to be legal (for example one from [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, mv: &Move) {
        let from = Bitboard::from_square(mv.from());
        let to = Bitboard::from_square(mv.to());
        let was_king = self.board.kings.intersects(from);
        let (own, opp) = match self.board.turn {
            Color::White => (&mut self.board.white, &mut self.board.black),
            Color::Black => (&mut self.board.black, &mut self.board.white),
        };
        *own = (*own - from) | to;
        *opp = *opp - mv.captured();
        self.board.kings = self.board.kings - mv.captured() - from;
        if was_king || mv.promotes() {
            self.board.kings |= to;
        }
        self.board.turn = !self.board.turn;
    }

    /// The same position with the other side to move (for analysis and tests).
    #[must_use]
    pub const fn with_turn(mut self, turn: Color) -> Position {
        self.board.turn = turn;
        self
    }
}

impl fmt::Debug for Position {
    /// The fields, as a derived `Debug` would print them (not FEN: this module knows no text
    /// format).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Setup {
            variant,
            white,
            black,
            kings,
            turn,
        } = &self.board;
        f.debug_struct("Position")
            .field("variant", variant)
            .field("white", white)
            .field("black", black)
            .field("kings", kings)
            .field("turn", turn)
            .finish()
    }
}

impl fmt::Display for Position {
    /// A text diagram as White sees the board (Italian boards turned as they stand).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let geometry = self.board.variant.geometry();
        let mirrored = self.board.variant.rules().mirrored;
        let side = geometry.side();
        for row in (0..side).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for physical in 0..side {
                let col = if mirrored {
                    side - 1 - physical
                } else {
                    physical
                };
                let c = match geometry.at(row, col).map(|sq| (sq, self.piece_at(sq))) {
                    None => ' ',
                    Some((_, None)) => '.',
                    Some((_, Some(piece))) => match (piece.color, piece.role) {
                        (Color::White, Role::Man) => 'w',
                        (Color::White, Role::King) => 'W',
                        (Color::Black, Role::Man) => 'b',
                        (Color::Black, Role::King) => 'B',
                    },
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for physical in 0..side {
            write!(f, " {}", (b'a' + physical as u8) as char)?;
        }
        writeln!(f)?;
        write!(f, "{} to move", self.board.turn)
    }
}
