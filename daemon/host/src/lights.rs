//! What the lights under the board should show the visitor: which squares to clear and to fill
//! while the board is wrong, and the robot's last move until the visitor starts theirs.
//!
//! The host decides by purpose; the colour and the mode of each purpose are fixed here, once,
//! so the board, the event log, the operator page and the terminal view all show the same.

use rules::{Bitboard, Square};
use serde::Serialize;

/// A lit square's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LightColour {
    /// Put a piece here.
    Green,
    /// Take the piece off here.
    Red,
    /// The robot's move.
    Blue,
}

impl LightColour {
    /// The name in the event log.
    pub const fn as_str(self) -> &'static str {
        match self {
            LightColour::Green => "green",
            LightColour::Red => "red",
            LightColour::Blue => "blue",
        }
    }
}

/// How a lit square shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LightMode {
    /// Steady: something to look at.
    On,
    /// Blinking: something to do.
    Blinking,
}

impl LightMode {
    /// The name in the event log.
    pub const fn as_str(self) -> &'static str {
        match self {
            LightMode::On => "on",
            LightMode::Blinking => "blinking",
        }
    }
}

/// One lit square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareLight {
    /// Which square.
    pub square: Square,
    /// Its colour.
    pub colour: LightColour,
    /// Steady or blinking.
    pub mode: LightMode,
}

/// The picture on the board's lights, by what each lit square asks of the visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardLighting {
    /// Squares to clear: red, blinking.
    pub clear: Bitboard,
    /// Squares to fill: green, blinking.
    pub fill: Bitboard,
    /// The robot's last move, from and to: blue, steady.
    pub robot_move: Bitboard,
}

impl BoardLighting {
    /// Every light off: while the visitor thinks and while the robot works.
    pub const DARK: BoardLighting = BoardLighting {
        clear: Bitboard::EMPTY,
        fill: Bitboard::EMPTY,
        robot_move: Bitboard::EMPTY,
    };

    /// The squares to fix: clear the pieces on `clear`, put pieces on `fill`.
    pub fn fix(clear: Bitboard, fill: Bitboard) -> BoardLighting {
        BoardLighting {
            clear,
            fill: fill - clear,
            robot_move: Bitboard::EMPTY,
        }
    }

    /// A robot's move from `from` to `to` (one square when a capture ends where it began).
    pub fn robot_move(from: Square, to: Square) -> BoardLighting {
        BoardLighting {
            robot_move: Bitboard::from_square(from) | Bitboard::from_square(to),
            ..BoardLighting::DARK
        }
    }

    /// Whether every light is off.
    pub fn is_dark(&self) -> bool {
        (self.clear | self.fill | self.robot_move).is_empty()
    }

    /// Whether the lights ask the visitor to fix the board.
    pub fn asks_for_a_fix(&self) -> bool {
        !(self.clear | self.fill).is_empty()
    }

    /// Every lit square with its colour and mode, in square order. A square is lit for one
    /// purpose only; asking to fix it outranks showing the robot's move.
    pub fn lit(&self) -> Vec<SquareLight> {
        (self.clear | self.fill | self.robot_move)
            .into_iter()
            .map(|square| {
                let (colour, mode) = if self.clear.contains(square) {
                    (LightColour::Red, LightMode::Blinking)
                } else if self.fill.contains(square) {
                    (LightColour::Green, LightMode::Blinking)
                } else {
                    (LightColour::Blue, LightMode::On)
                };
                SquareLight {
                    square,
                    colour,
                    mode,
                }
            })
            .collect()
    }
}
