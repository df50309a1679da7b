//! What the game loop needs from an arm: make a move on the physical board.
//!
//! The hardware's [`hal::device::Arm`] moves a tool between poses; turning a draughts move into
//! poses needs the calibration and the planner. This trait is the seam between the two, so the
//! loop does not care whether a Dobot, the reference robot's controller or a simulation moves
//! the pieces.

use std::future::Future;

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
}
