//! What the visitor did wrong, and which squares to fix.

use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::square::{Bitboard, Square};

use super::outcome;

/// Why a scan is not a legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MistakeKind {
    /// A quiet move while a capture was compulsory.
    MustCapture {
        /// A capture that was available (by the moved piece when it had one).
        available: Move,
    },
    /// A man stepped backwards.
    Backwards {
        /// Where it stood.
        from: Square,
        /// Where it went.
        to: Square,
    },
    /// One of the robot's pieces was moved or taken away.
    RobotPieceMoved {
        /// A square the robot's piece left.
        square: Square,
        /// The robot's colour.
        robot: Color,
    },
    /// The capturing piece stopped while the capture had to go on.
    CaptureNotFinished {
        /// The whole capture it was part of.
        continuation: Move,
    },
    /// A capture the rules do not allow here (majority, Italian priorities).
    WrongCaptureChoice {
        /// What the visitor did.
        tried: Move,
        /// A capture the rules allow.
        required: Move,
    },
    /// A piece went somewhere it cannot go.
    CannotGoThere {
        /// Where it stood.
        from: Square,
        /// Where it went.
        to: Square,
    },
    /// Pieces disappeared and nothing moved.
    PieceMissing {
        /// Squares that became empty.
        squares: Bitboard,
    },
    /// Pieces appeared and nothing moved.
    ExtraPiece {
        /// Squares that became occupied.
        squares: Bitboard,
    },
    /// Too many changes to read as one move.
    Unclear,
}

/// A mistake and the fix that leads to the nearest legal board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// What went wrong.
    pub kind: MistakeKind,
    /// The legal board the fix leads to: `None` to put the board back as it was, or the move
    /// whose outcome is nearest to the scan.
    pub target: Option<Move>,
    /// Squares that hold a piece and must be cleared.
    pub remove: Bitboard,
    /// Empty squares that need a piece.
    pub place: Bitboard,
}

impl Mistake {
    pub(super) fn new(
        position: &Position,
        legal: &[Move],
        scan: Bitboard,
        kind: MistakeKind,
    ) -> Self {
        let before = position.occupied();
        // Finishing a capture is what the visitor meant to do; otherwise the nearest legal
        // board, where putting the board back wins ties.
        let target = if let MistakeKind::CaptureNotFinished { continuation } = kind {
            Some(continuation)
        } else {
            let undo = (before ^ scan).count();
            legal
                .iter()
                .map(|m| (m, (outcome(position, m) ^ scan).count()))
                .filter(|&(_, distance)| distance < undo)
                .min_by_key(|&(_, distance)| distance)
                .map(|(m, _)| *m)
        };
        let goal = target.map_or(before, |m| outcome(position, &m));
        Mistake {
            kind,
            target,
            remove: scan - goal,
            place: goal - scan,
        }
    }
}
