//! What waits beside the board: the piece in each rack slot and each spare-king slot.
//!
//! The board's pieces are the game's business (the daemon knows them from the rules); the
//! pieces beside it are the arm's, and only the arm's plans change them. So the stock is state
//! kept apart from the calibration, like the board position: the planner reads it, a plan says
//! what it changes ([`Plan::stock_changes`]), and the caller applies that once the arm has
//! carried the plan out ([`Stock::apply`]). Both areas are tracked the same way, slot by slot,
//! with each piece's colour and kind, so that a reset can take back exactly what it needs.

use thiserror::Error;

use super::piece::{Piece, PieceColour};
use super::plan::Plan;
use super::slot::{Slot, StockChange};

/// A change the stock cannot take: the plan and the stock disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum StockError {
    /// The slot does not exist.
    #[error("{0} does not exist")]
    NoSuchSlot(Slot),
    /// A piece is put where one already waits.
    #[error("{slot} already holds a {piece}")]
    Occupied {
        /// The slot.
        slot: Slot,
        /// What it holds.
        piece: Piece,
    },
    /// A piece is taken from an empty slot.
    #[error("{0} is empty")]
    Empty(Slot),
}

/// The contents of every rack slot and spare-king slot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stock {
    rack: Vec<Option<Piece>>,
    reserve: Vec<Option<Piece>>,
}

impl Stock {
    /// Both areas empty: `rack` rack slots and `reserve` spare-king slots.
    pub fn empty(rack: usize, reserve: usize) -> Stock {
        Stock {
            rack: vec![None; rack],
            reserve: vec![None; reserve],
        }
    }

    /// An empty rack and a reserve whose every slot holds a king of `colour`: how the operator
    /// leaves them before a game.
    pub fn with_kings(rack: usize, reserve: usize, colour: PieceColour) -> Stock {
        Stock {
            rack: vec![None; rack],
            reserve: vec![Some(Piece::king(colour)); reserve],
        }
    }

    /// A stock with these contents, slot by slot.
    pub fn from_slots(rack: Vec<Option<Piece>>, reserve: Vec<Option<Piece>>) -> Stock {
        Stock { rack, reserve }
    }

    /// The rack's slots.
    pub fn rack(&self) -> &[Option<Piece>] {
        &self.rack
    }

    /// The spare-king slots.
    pub fn reserve(&self) -> &[Option<Piece>] {
        &self.reserve
    }

    /// What a slot holds; `None` when it is empty or does not exist.
    pub fn get(&self, slot: Slot) -> Option<Piece> {
        let area = match slot {
            Slot::Rack(_) => &self.rack,
            Slot::Reserve(_) => &self.reserve,
        };
        area.get(slot_index(slot)).copied().flatten()
    }

    /// Every slot with its piece, rack first.
    pub fn pieces(&self) -> impl Iterator<Item = (Slot, Piece)> + '_ {
        let rack = self
            .rack
            .iter()
            .enumerate()
            .filter_map(|(i, piece)| Some((Slot::Rack(i), (*piece)?)));
        let reserve = self
            .reserve
            .iter()
            .enumerate()
            .filter_map(|(i, piece)| Some((Slot::Reserve(i), (*piece)?)));
        rack.chain(reserve)
    }

    /// The empty rack slots.
    pub fn free_rack_slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.rack
            .iter()
            .enumerate()
            .filter_map(|(i, piece)| piece.is_none().then_some(i))
    }

    /// The empty spare-king slots.
    pub fn free_reserve_slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.reserve
            .iter()
            .enumerate()
            .filter_map(|(i, piece)| piece.is_none().then_some(i))
    }

    /// How many of `piece` wait in either area.
    pub fn count(&self, piece: Piece) -> usize {
        self.pieces().filter(|&(_, p)| p == piece).count()
    }

    /// The spare-king slots holding a king of `colour`, in slot order.
    pub fn kings_in_reserve(&self, colour: PieceColour) -> impl Iterator<Item = usize> + '_ {
        self.reserve
            .iter()
            .enumerate()
            .filter_map(move |(i, piece)| (*piece == Some(Piece::king(colour))).then_some(i))
    }

    /// Puts `piece` into the empty `slot`.
    pub fn put(&mut self, slot: Slot, piece: Piece) -> Result<(), StockError> {
        let place = self.place(slot)?;
        if let Some(there) = *place {
            return Err(StockError::Occupied { slot, piece: there });
        }
        *place = Some(piece);
        Ok(())
    }

    /// Takes the piece out of `slot`.
    pub fn take(&mut self, slot: Slot) -> Result<Piece, StockError> {
        self.place(slot)?.take().ok_or(StockError::Empty(slot))
    }

    /// Records what `plan` changed, once the arm has carried it out. On an error the stock is
    /// left as it was.
    pub fn apply(&mut self, plan: &Plan) -> Result<(), StockError> {
        let mut after = self.clone();
        for change in plan.stock_changes() {
            match *change {
                StockChange::Take(slot) => {
                    after.take(slot)?;
                }
                StockChange::Put(slot, piece) => after.put(slot, piece)?,
            }
        }
        *self = after;
        Ok(())
    }

    fn place(&mut self, slot: Slot) -> Result<&mut Option<Piece>, StockError> {
        let area = match slot {
            Slot::Rack(_) => &mut self.rack,
            Slot::Reserve(_) => &mut self.reserve,
        };
        area.get_mut(slot_index(slot))
            .ok_or(StockError::NoSuchSlot(slot))
    }
}

const fn slot_index(slot: Slot) -> usize {
    match slot {
        Slot::Rack(i) | Slot::Reserve(i) => i,
    }
}
