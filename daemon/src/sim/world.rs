//! The physical board of the simulation: where pieces really stand, whatever the rules say.

use std::collections::BTreeMap;

use engine::{Bitboard, Move, Piece, Position, Role, Square};

/// Pieces on squares, as the Hall sensors and a visitor's hands see them.
#[derive(Debug, Clone, Default)]
pub struct World {
    pieces: BTreeMap<Square, Piece>,
    /// Pieces the robot removed into its trophy bin.
    pub trophies: u32,
}

impl World {
    /// The board laid out as `position`.
    pub fn set(&mut self, position: &Position) {
        self.pieces = position
            .variant()
            .geometry()
            .squares()
            .filter_map(|sq| position.piece_at(sq).map(|p| (sq, p)))
            .collect();
    }

    /// What the sensors report.
    pub fn occupancy(&self) -> Bitboard {
        self.pieces.keys().copied().collect()
    }

    /// Lifts a piece off a square.
    pub fn lift(&mut self, sq: Square) -> Option<Piece> {
        self.pieces.remove(&sq)
    }

    /// Puts a piece on a square.
    pub fn place(&mut self, sq: Square, piece: Piece) {
        self.pieces.insert(sq, piece);
    }

    /// Makes a move by hand or by arm: the piece travels, captured pieces leave the board and a
    /// crowned man is swapped for a king.
    pub fn play(&mut self, mv: &Move) {
        if let Some(mut piece) = self.lift(mv.from()) {
            if mv.promotes() {
                piece.role = Role::King;
            }
            self.place(mv.to(), piece);
        }
        for sq in mv.captured() {
            self.lift(sq);
        }
    }
}
