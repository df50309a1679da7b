//! After the arm moved: does the board show the robot's move?

use crate::moves::Move;
use crate::position::Position;
use crate::square::{Bitboard, Square};

use super::outcome;

/// One way the board can differ from the robot's intended move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmProblem {
    /// The piece is still on its start square and the destination is empty: the pick failed.
    PickFailed {
        /// The start square.
        from: Square,
    },
    /// The piece left its square but did not arrive: dropped on the way.
    PieceDropped {
        /// The start square.
        from: Square,
        /// The intended destination.
        to: Square,
    },
    /// A piece the robot captured is still on the board.
    CaptureNotCleared {
        /// Its square.
        square: Square,
    },
    /// A square the move does not touch changed (a visitor's hand, a knocked piece).
    Interference {
        /// The square.
        square: Square,
    },
}

/// The result of comparing a scan with the position the robot's move should leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmCheck {
    /// Squares that should hold a piece but are empty.
    pub missing: Bitboard,
    /// Squares that should be empty but hold a piece.
    pub extra: Bitboard,
    /// What probably happened, square by square.
    pub problems: Vec<ArmProblem>,
}

impl ArmCheck {
    /// Whether the board matches.
    pub fn is_ok(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty()
    }
}

/// Compares a scan with the outcome of the robot's move `mv` played in `before`.
pub fn verify_robot_move(before: &Position, mv: &Move, scan: Bitboard) -> ArmCheck {
    let scan = scan & before.variant().geometry().all();
    let expected = outcome(before, mv);
    let missing = expected - scan;
    let extra = scan - expected;
    let mut problems = Vec::new();
    let mut explained = Bitboard::EMPTY;
    let (from, to) = (mv.from(), mv.to());
    if from != to && missing.contains(to) {
        if extra.contains(from) {
            problems.push(ArmProblem::PickFailed { from });
            explained = explained.with(from);
        } else {
            problems.push(ArmProblem::PieceDropped { from, to });
        }
        explained = explained.with(to);
    }
    for square in extra & mv.captured() {
        problems.push(ArmProblem::CaptureNotCleared { square });
        explained = explained.with(square);
    }
    for square in (missing | extra) - explained {
        problems.push(ArmProblem::Interference { square });
    }
    ArmCheck {
        missing,
        extra,
        problems,
    }
}
