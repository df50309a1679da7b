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

/// How long a button was held: a quick press or a long one. A button carries two meanings this
/// way (the visitor's confirm button: "my move is done", or held, "give me a hint").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PressKind {
    /// Released before the driver's long-press time.
    Short,
    /// Held for the driver's long-press time or longer.
    Long,
}

/// One press of a button, reported once the driver knows its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ButtonPress {
    /// The button.
    pub button: ButtonId,
    /// Quick or held.
    pub kind: PressKind,
}

impl ButtonPress {
    /// A quick press of `button`.
    pub fn short(button: ButtonId) -> ButtonPress {
        ButtonPress {
            button,
            kind: PressKind::Short,
        }
    }

    /// A long press of `button`.
    pub fn long(button: ButtonId) -> ButtonPress {
        ButtonPress {
            button,
            kind: PressKind::Long,
        }
    }
}

/// A board with an occupancy sensor under every dark square and at least one button.
///
/// Scans are raw: a piece sliding over a sensor or a weak magnet can flicker, and deciding when
/// the board is settled (several identical scans in a row) is the daemon's job, which knows the
/// configured count and interval.
pub trait BoardSensor: ErrorType {
    /// Reads every sensor now.
    fn scan(&mut self) -> impl Future<Output = Result<Occupancy, Self::Error>> + Send;

    /// Waits for the next button press. A short press is reported when the button is released;
    /// a long press as soon as it has been held long enough, so the visitor need not guess
    /// when to let go (its release is not reported again). Cancel-safe: a press that arrives
    /// while no call is waiting, or while a call is being dropped, is kept for the next call.
    fn next_press(&mut self) -> impl Future<Output = Result<ButtonPress, Self::Error>> + Send;
}

impl<T: BoardSensor + ?Sized> BoardSensor for &mut T {
    fn scan(&mut self) -> impl Future<Output = Result<Occupancy, Self::Error>> + Send {
        T::scan(self)
    }

    fn next_press(&mut self) -> impl Future<Output = Result<ButtonPress, Self::Error>> + Send {
        T::next_press(self)
    }
}
