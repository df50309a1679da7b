//! [`PositionError`]: why a [`Setup`] is not a legal position, with the setup handed back.
//!
//! The kinds carry typed squares and counts; only `Display` turns them into words, naming the
//! squares as the setup's variant does.

use std::fmt;

use crate::color::Color;
use crate::setup::Setup;
use crate::square::Square;
use crate::square_names::square_name;

/// A setup that breaks the rules of its variant, handed back with what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError {
    /// The setup that was refused (boxed: errors stay small on the happy path).
    pub setup: Box<Setup>,
    /// The first rule it breaks.
    pub kind: PositionErrorKind,
}

/// Which rule a refused setup breaks.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// A bit outside the board's dark squares is set.
    OffBoard,
    /// A square holds pieces of both colours.
    BothColors(Square),
    /// A king bit is set where no piece stands.
    KingWithoutPiece(Square),
    /// A man stands on the row where it would have been crowned.
    ManOnCrowningRow {
        /// Owner.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// More pieces than the variant starts with.
    TooManyPieces {
        /// Owner.
        color: Color,
        /// Pieces found.
        count: u32,
        /// Pieces at the start.
        max: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let variant = self.setup.variant;
        let name = |square| square_name(variant, square);
        match self.kind {
            PositionErrorKind::OffBoard => {
                write!(
                    f,
                    "a piece stands outside the {variant} board's dark squares"
                )
            }
            PositionErrorKind::BothColors(square) => {
                write!(
                    f,
                    "square {} holds both a white and a black piece",
                    name(square)
                )
            }
            PositionErrorKind::KingWithoutPiece(square) => {
                write!(
                    f,
                    "square {} is marked as a king but holds no piece",
                    name(square)
                )
            }
            PositionErrorKind::ManOnCrowningRow { color, square } => write!(
                f,
                "the {color} man on {} stands on its crowning row; it must be a king",
                name(square)
            ),
            PositionErrorKind::TooManyPieces { color, count, max } => write!(
                f,
                "{color} has {count} pieces, more than the {max} a {variant} game starts with"
            ),
        }
    }
}

impl std::error::Error for PositionError {}
