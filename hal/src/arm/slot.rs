//! The slots beside the board, and a plan's changes to what they hold.
//!
//! Apart from [`super::stock`] so that a plan can name them without knowing the stock, and the
//! stock can read a plan's changes without the plan knowing it.

use super::piece::Piece;

/// A slot beside the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// A rack slot, by its index (row by row from 0).
    Rack(usize),
    /// A spare-king slot, by its index in the calibration.
    Reserve(usize),
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Slot::Rack(i) => write!(f, "rack slot {}", i + 1),
            Slot::Reserve(i) => write!(f, "king reserve slot {}", i + 1),
        }
    }
}

/// One change a plan makes to the stock, in the plan's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockChange {
    /// The piece is taken out of the slot.
    Take(Slot),
    /// The piece is put into the slot.
    Put(Slot, Piece),
}
