//! What the lights under the board should show the visitor: which squares to clear and to fill
//! while the board is wrong, the robot's last move or a hint until the visitor starts theirs,
//! and what a mistake allows while the robot explains it.
//!
//! The host decides by purpose; the colour and the mode of each purpose are fixed here, once,
//! so the board, the event log, the operator page and the terminal view all show the same.

use emotions::{Input, Millis};
use rules::{Bitboard, Square, recognition};
use serde::Serialize;

use crate::{Action, Host, State};

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
    /// A hint (blinking): the piece to move, and then where to; what a blunder allows (steady).
    White,
}

impl LightColour {
    /// The name in the event log.
    pub const fn as_str(self) -> &'static str {
        match self {
            LightColour::Green => "green",
            LightColour::Red => "red",
            LightColour::Blue => "blue",
            LightColour::White => "white",
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
    /// A hint's squares, the piece to move and then where to: white, blinking.
    pub hint: Bitboard,
    /// The squares of what a mistake or a blunder allows (the coach's lesson), while its
    /// take-back is on offer or while the arm answers it: white, steady.
    pub lesson: Bitboard,
}

impl BoardLighting {
    /// Every light off: while the visitor thinks and while the robot works.
    pub const DARK: BoardLighting = BoardLighting {
        clear: Bitboard::EMPTY,
        fill: Bitboard::EMPTY,
        robot_move: Bitboard::EMPTY,
        hint: Bitboard::EMPTY,
        lesson: Bitboard::EMPTY,
    };

    /// The squares to fix: clear the pieces on `clear`, put pieces on `fill`.
    pub fn fix(clear: Bitboard, fill: Bitboard) -> BoardLighting {
        BoardLighting {
            clear,
            fill: fill - clear,
            ..BoardLighting::DARK
        }
    }

    /// What a mistake allows: the squares the coach's sentence names.
    pub fn lesson(squares: Bitboard) -> BoardLighting {
        BoardLighting {
            lesson: squares,
            ..BoardLighting::DARK
        }
    }

    /// The squares to fix for a take-back, with the squares of what the blunder allows.
    pub fn take_back(clear: Bitboard, fill: Bitboard, lesson: Bitboard) -> BoardLighting {
        BoardLighting {
            lesson,
            ..BoardLighting::fix(clear, fill)
        }
    }

    /// A hint: the piece to move, or its start and end.
    pub fn hint(squares: Bitboard) -> BoardLighting {
        BoardLighting {
            hint: squares,
            ..BoardLighting::DARK
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
        self.all().is_empty()
    }

    /// Every lit square.
    fn all(&self) -> Bitboard {
        self.clear | self.fill | self.robot_move | self.hint | self.lesson
    }

    /// Whether the lights ask the visitor to fix the board.
    pub fn asks_for_a_fix(&self) -> bool {
        !(self.clear | self.fill).is_empty()
    }

    /// Every lit square with its colour and mode, in square order. A square is lit for one
    /// purpose only; asking to fix it outranks a hint, a hint a lesson, and a lesson the
    /// robot's move.
    pub fn lit(&self) -> Vec<SquareLight> {
        self.all()
            .into_iter()
            .map(|square| {
                let (colour, mode) = if self.clear.contains(square) {
                    (LightColour::Red, LightMode::Blinking)
                } else if self.fill.contains(square) {
                    (LightColour::Green, LightMode::Blinking)
                } else if self.hint.contains(square) {
                    (LightColour::White, LightMode::Blinking)
                } else if self.lesson.contains(square) {
                    (LightColour::White, LightMode::On)
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

impl Host {
    /// What the board's lights should show now (shown again after a reconnection).
    pub fn lighting(&self) -> BoardLighting {
        self.lighting
    }

    /// Whether the host wants [`Event::Scan`]s now, beyond setup: while its lights follow the
    /// board (a fix asked for, the robot's move or a hint shown until the visitor starts
    /// theirs, a take-back on offer). A board without lights need not be read for them, except
    /// that a take-back on offer is noticed by reading the board (see [`crate::Waiting::TakeBack`]).
    pub fn wants_board_scans(&self) -> bool {
        if self.paused {
            return false;
        }
        match self.state {
            State::VisitorTurn => !self.lighting.is_dark(),
            State::FixingBoard { .. } | State::Rearranging { .. } | State::OfferingTakeBack(_) => {
                true
            }
            _ => false,
        }
    }

    /// Changes the lights, if that changes them.
    pub(crate) fn set_lights(&mut self, lighting: BoardLighting, out: &mut Vec<Action>) {
        if self.lighting != lighting {
            self.lighting = lighting;
            out.push(Action::Lights(lighting));
        }
    }

    /// A scan read while the visitor works at the board: the lights follow it, and a change
    /// is the visitor's activity.
    pub(crate) fn scanned_during_game(
        &mut self,
        scan: Bitboard,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let scan = scan & self.variant.geometry().all();
        let target = match self.state {
            State::FixingBoard { before, mv } => Some(recognition::outcome(&before, &mv)),
            State::Rearranging { target } => Some(target),
            _ => None,
        };
        let position = self.game.position().occupied();
        let lighting = match target {
            // The exact board wanted is known: light every square that differs.
            Some(target) => BoardLighting::fix(scan - target, target - scan),
            // A fix asked for at the last press: each square goes dark once it is fixed, and
            // all of them once the board is back to the position.
            None if self.lighting.asks_for_a_fix() => {
                if scan == position {
                    BoardLighting::DARK
                } else {
                    BoardLighting::fix(self.lighting.clear & scan, self.lighting.fill - scan)
                }
            }
            // The robot's move stays lit until the visitor starts theirs.
            None if scan == position => self.lighting,
            None => BoardLighting::DARK,
        };
        self.set_lights(lighting, out);
        if self.last_scan != Some(scan) {
            self.last_scan = Some(scan);
            self.feel(Input::VisitorActivity, now, out);
        }
    }
}
