//! The physical board of the simulation, as the visitor's hands and the simulated arm change it:
//! pieces are magnets over the simulated Hall sensors, so the robot learns about them only
//! through the controller protocol.

use hal::sim::board::SimBoardHandle;
use rules::{Bitboard, Move, Position, Variant};

use crate::robot::occupancy_map;

/// The simulated board, in engine squares.
#[derive(Debug, Clone)]
pub struct PhysicalBoard {
    board: SimBoardHandle,
    variant: Variant,
}

impl PhysicalBoard {
    /// The board behind `board`'s sensors, for `variant`.
    pub fn new(board: SimBoardHandle, variant: Variant) -> PhysicalBoard {
        PhysicalBoard { board, variant }
    }

    /// Lays the board out as `position`.
    pub fn set(&mut self, position: &Position) {
        self.set_squares(position.occupied());
    }

    /// Puts pieces exactly on `squares`.
    pub fn set_squares(&mut self, squares: Bitboard) {
        let geometry = self.variant.geometry();
        self.board
            .set_occupancy(occupancy_map::to_occupancy(geometry, squares));
    }

    /// Where pieces stand.
    pub fn occupancy(&self) -> Bitboard {
        occupancy_map::to_bitboard(self.variant.geometry(), &self.board.occupancy())
    }

    /// Lifts the piece off `sq`; false when there was none.
    pub fn lift(&mut self, sq: rules::Square) -> bool {
        let was = self.occupancy().contains(sq);
        let _ = self.board.lift(self.variant.geometry().index(sq));
        was
    }

    /// Puts a piece on `sq`.
    pub fn place(&mut self, sq: rules::Square) {
        let _ = self.board.place(self.variant.geometry().index(sq));
    }

    /// Makes a move by hand: the piece travels and the captured pieces leave the board.
    pub fn play(&mut self, mv: &Move) {
        if self.lift(mv.from()) {
            self.place(mv.to());
        }
        for sq in mv.captured() {
            self.lift(sq);
        }
    }
}
