//! What the game loop needs from an arm: make a move on the physical board.
//!
//! The hardware's [`hal::device::Arm`] moves a tool between poses; turning a draughts move into
//! poses needs the calibration and the planner. This trait is the seam between the two, so the
//! loop does not care whether a Dobot, the reference robot's controller or a simulation moves
//! the pieces.

use std::collections::BTreeSet;
use std::future::Future;

use hal::arm::{BoardSquare, Carry, Layout, Piece, ResetError, ResetOutcome, Slot, Stock};
use rules::{Move, Position};

/// Moves pieces for the robot.
pub trait PieceMover: Send + 'static {
    /// Why a move could not be made; the loop logs it and lets the board check decide.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Makes `mv` from `before` on the board: the own piece travels, captured pieces go to the
    /// trophy bin, a crowned man becomes a king. Returns when the arm is done and out of the
    /// sensors' way.
    fn make_move(
        &mut self,
        before: &Position,
        mv: &Move,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Moves the arm to its resting pose (at shutdown and when the game is paused).
    fn park(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// The attempts it took to reopen the arm's link, when it was lost and has come back since
    /// the last call: the loop reports it as a `reconnected` event.
    fn take_reconnection(&mut self) -> Option<u32> {
        None
    }

    /// The square of the robot's man that its last move crowned when no spare king was left
    /// to put there, once: the visitor is asked to turn the man over.
    fn take_crown_by_hand(&mut self) -> Option<BoardSquare> {
        None
    }

    /// Whether it can set up the board by itself: the calibration has a rack.
    fn can_reset(&self) -> bool;

    /// Plans the carries from `board` and what waits beside it to `target`.
    fn plan_reset(&self, board: &Layout, target: &Layout) -> Result<ResetOutcome, ResetError>;

    /// Makes `carries` in their order (a batch of a reset), ending parked.
    fn carry(
        &mut self,
        carries: Vec<Carry>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// The board's scan after the last move or batch: records what the carries the scan
    /// confirms changed beside the board (a piece the arm failed to pick stayed where it was),
    /// and says for each carry, in order, whether it was made.
    fn confirm(&mut self, occupied: &BTreeSet<BoardSquare>) -> Vec<bool>;

    /// The visitor made `mv` from `before`: the pieces they captured went into the rack's
    /// first free slots, and a man they crowned was swapped for a king of their colour from the
    /// reserve, the man into the rack too.
    fn visitor_moved(&mut self, before: &Position, mv: &Move);

    /// The visitor took these pieces off the board while putting it right, into the rack's
    /// first free slots.
    fn cleared_by_hand(&mut self, pieces: &[Piece]);

    /// A slot the arm found empty where the stock had a piece: it is empty from now on.
    /// Returns the piece the stock had there.
    fn forget_slot(&mut self, slot: Slot) -> Option<Piece>;

    /// A slot forgotten earlier may hold `piece` after all (picks can fail on a full slot):
    /// the stock has it there again.
    fn restore_slot(&mut self, slot: Slot, piece: Piece);

    /// The operator took moves back and people put the board as it was: `returned` came back
    /// onto the board from the rack (captured pieces, a man that had been crowned), `removed`
    /// left it (a king uncrowned goes to the reserve, anything else into the rack's first free
    /// slot).
    fn taken_back(&mut self, returned: &[Piece], removed: &[Piece]);

    /// What waits beside the board as it knows it, for the operator page; `None` when it keeps
    /// no stock.
    fn stock(&self) -> Option<Stock>;
}
