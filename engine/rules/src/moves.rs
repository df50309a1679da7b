//! Moves: what a player does in one turn.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::geometry::Geometry;
use crate::square::{Bitboard, Square};

/// Most landing squares one move can have: a capture of every piece of a 12x12 army.
pub const MAX_LANDINGS: usize = 32;

/// One move: a quiet step or slide, or a whole capture sequence.
///
/// Identity is (from, to, captured set, promotion), as the rules and published perft counts
/// define it: two capture paths that take the same pieces between the same squares are one
/// move. The path is kept for display and for the arm, but does not take part in equality.
/// Promotion takes part as a guard only: in the supported variants it follows from the other
/// three (see ARCHITECTURE.md), but a move that crowns and one that does not must never
/// compare equal.
#[derive(Clone, Copy)]
pub struct Move {
    from: Square,
    to: Square,
    captured: Bitboard,
    promotes: bool,
    len: u8,
    landings: [Square; MAX_LANDINGS],
}

impl Move {
    /// A quiet move (no capture).
    pub(crate) fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        let mut landings = [from; MAX_LANDINGS];
        landings[0] = to;
        Move {
            from,
            to,
            captured: Bitboard::EMPTY,
            promotes,
            len: 1,
            landings,
        }
    }

    /// A capture whose landing squares are `landings` (the last one is the destination).
    pub(crate) fn capture(
        from: Square,
        landings: &[Square; MAX_LANDINGS],
        len: usize,
        captured: Bitboard,
        promotes: bool,
    ) -> Move {
        Move {
            from,
            to: landings[len - 1],
            captured,
            promotes,
            len: len as u8,
            landings: *landings,
        }
    }

    /// Square the piece leaves.
    pub const fn from(&self) -> Square {
        self.from
    }

    /// Square the piece ends on (may equal `from` after a round trip).
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The pieces this move captures.
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    pub const fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Whether a man becomes a king by this move.
    pub const fn promotes(&self) -> bool {
        self.promotes
    }

    /// The squares the piece lands on, in order, ending with `to`.
    pub fn landings(&self) -> &[Square] {
        &self.landings[..self.len as usize]
    }

    /// The whole path: `from`, then every landing square.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        std::iter::once(self.from).chain(self.landings().iter().copied())
    }

    /// Captured pieces in the order they are jumped (needed by Italian priorities and the arm).
    pub fn captures_in_order(&self, geometry: &Geometry) -> Vec<Square> {
        if !self.is_capture() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(self.captured.count() as usize);
        let mut at = self.from;
        for &landing in self.landings() {
            out.extend(geometry.between(at, landing) & self.captured);
            at = landing;
        }
        out
    }

    /// The identity key of the move.
    const fn key(&self) -> (Square, Square, Bitboard, bool) {
        (self.from, self.to, self.captured, self.promotes)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Move")
            .field("from", &self.from)
            .field("landings", &self.landings())
            .field("captured", &self.captured)
            .field("promotes", &self.promotes)
            .finish_non_exhaustive()
    }
}
