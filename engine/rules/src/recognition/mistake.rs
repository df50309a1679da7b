//! What the visitor did wrong, and which squares to fix.

use crate::color::Color;
use crate::moves::Move;
use crate::notation::{move_text, square_name};
use crate::position::Position;
use crate::square::{Bitboard, Square};
use crate::variant::{CaptureChoice, Variant};

use super::{fix_sentence, list, outcome};

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

    /// The reason and the fix, in sentences for the visitor.
    pub fn describe(&self, variant: Variant) -> String {
        let sq = |s| square_name(variant, s);
        let mv = |m: &Move| move_text(variant, m);
        let reason = match self.kind {
            MistakeKind::MustCapture { available } => {
                format!(
                    "A capture is compulsory: you can take with {}.",
                    mv(&available)
                )
            }
            MistakeKind::Backwards { from, to } => format!(
                "Men move forward only: the man on {} cannot go back to {}.",
                sq(from),
                sq(to)
            ),
            MistakeKind::RobotPieceMoved { square, robot } => format!(
                "The piece on {} is mine: I play {robot}, you play {}.",
                sq(square),
                !robot
            ),
            MistakeKind::CaptureNotFinished { continuation } => format!(
                "The capture is not finished: go on capturing, {}.",
                mv(&continuation)
            ),
            MistakeKind::WrongCaptureChoice { tried, required } => {
                wrong_choice(variant, &tried, &required)
            }
            MistakeKind::CannotGoThere { from, to } => {
                format!("The piece on {} cannot go to {}.", sq(from), sq(to))
            }
            MistakeKind::PieceMissing { squares } => {
                format!("I cannot see a piece on {}.", list(variant, squares))
            }
            MistakeKind::ExtraPiece { squares } => {
                format!("There is an extra piece on {}.", list(variant, squares))
            }
            MistakeKind::Unclear => "I cannot make out the move.".to_owned(),
        };
        match fix_sentence(variant, self.remove, self.place) {
            Some(fix) => format!("{reason} {fix}"),
            None => reason,
        }
    }
}

fn wrong_choice(variant: Variant, tried: &Move, required: &Move) -> String {
    let (tried_count, required_count) = (tried.captured().count(), required.captured().count());
    let required_text = move_text(variant, required);
    if required_count > tried_count {
        return format!(
            "You must take the most pieces: {required_text} takes {required_count}, not {tried_count}."
        );
    }
    if variant.rules().capture_choice == CaptureChoice::Italian {
        return format!(
            "Italian rules choose this capture: {required_text} (a king captures first, then the most kings, then kings taken earliest)."
        );
    }
    format!("This capture is not allowed here: play {required_text}.")
}
