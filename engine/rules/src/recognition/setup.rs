//! Setting up a new game: which squares still differ from the starting position.

use crate::position::Position;
use crate::square::Bitboard;
use crate::variant::Variant;

/// How far a scan is from the variant's starting position.
///
/// The starting occupancy is the same whichever side faces the robot (it is symmetric under a
/// half turn of the board), so occupancy alone cannot tell the sides apart: the robot's colour
/// comes from the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetupCheck {
    /// Squares of the starting position that are still empty.
    pub missing: Bitboard,
    /// Squares that should be empty at the start but hold a piece.
    pub extra: Bitboard,
}

impl SetupCheck {
    /// Whether the board is ready to start.
    pub const fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty()
    }
}

/// Compares a scan with the starting position of `variant`.
pub fn check_setup(variant: Variant, scan: Bitboard) -> SetupCheck {
    let start = Position::new(variant).occupied();
    let scan = scan & variant.geometry().all();
    SetupCheck {
        missing: start - scan,
        extra: scan - start,
    }
}
