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

    /// Makes a move by hand: the piece travels and the captured pieces leave the board, into
    /// the rack's first free slots (where the board has a rack); a crowned man is swapped for a
    /// king from the reserve, the man into the rack too (the reserve is a pile the arm counts,
    /// so the king is not taken from it here).
    pub fn play(&mut self, mv: &Move) {
        if self.lift(mv.from()) {
            self.place(mv.to());
            if mv.promotes() {
                self.board.put_in_first_free_rack_slot();
            }
        }
        for sq in mv.captured() {
            if self.lift(sq) {
                self.board.put_in_first_free_rack_slot();
            }
        }
    }

    /// Puts the board right to show `squares`: the pieces taken off go into the rack's first
    /// free slots, the pieces added come from the box.
    pub fn fix(&mut self, squares: Bitboard) {
        for _ in self.occupancy() - squares {
            self.board.put_in_first_free_rack_slot();
        }
        self.set_squares(squares);
    }
}
