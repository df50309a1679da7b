//! The board: a Hall sensor under every dark square and the buttons a visitor presses.

use std::future::Future;

use crate::ErrorType;
use crate::occupancy::Occupancy;

/// Which button was pressed, numbered by the controller.
///
/// Button 0 is the visitor's confirm button ("my move is done"); further numbers are whatever the
/// controller has (an operator's reset, a setup button) and are given meaning by configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ButtonId(pub u8);

impl ButtonId {
    /// The visitor's confirm button.
    pub const CONFIRM: ButtonId = ButtonId(0);
}

/// A board with an occupancy sensor under every dark square and at least one button.
///
/// Scans are raw: a piece sliding over a sensor or a weak magnet can flicker, and deciding when
/// the board is settled (several identical scans in a row) is the daemon's job, which knows the
/// configured count and interval.
pub trait BoardSensor: ErrorType {
    /// Reads every sensor now.
    fn scan(&mut self) -> impl Future<Output = Result<Occupancy, Self::Error>> + Send;

    /// Waits for the next button press. Cancel-safe: a press that arrives while no call is
    /// waiting, or while a call is being dropped, is kept for the next call.
    fn next_press(&mut self) -> impl Future<Output = Result<ButtonId, Self::Error>> + Send;
}

impl<T: BoardSensor + ?Sized> BoardSensor for &mut T {
    fn scan(&mut self) -> impl Future<Output = Result<Occupancy, Self::Error>> + Send {
        T::scan(self)
    }

    fn next_press(&mut self) -> impl Future<Output = Result<ButtonId, Self::Error>> + Send {
        T::next_press(self)
    }
}
