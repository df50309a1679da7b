//! The rules of draughts for every variant checkerbot plays.
//!
//! Pure logic, no I/O: a [`Position`] knows its [`Variant`], generates [`Move`]s and plays
//! them; [`fen`] and [`notation`] read and write text; [`Game`] keeps the history and applies
//! the draw rules; [`pdn`] writes and reads game records.
//!
//! ```
//! use rules::{Position, Variant, notation};
//!
//! let start = Position::new(Variant::Russian);
//! let moves = start.legal_moves();
//! assert_eq!(moves.len(), 7);
//! let mv = notation::parse_move(&start, "c3-d4").unwrap();
//! let after = start.play(&mv).unwrap();
//! assert_eq!(rules::fen::write(&after), "B:Wa1,a3,b2,c1,d2,d4,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8");
//! ```
#![warn(missing_docs)]

mod board_bits;
mod color;
pub mod fen;
pub mod game;
mod geometry;
mod movegen;
mod moves;
pub mod notation;
pub mod pdn;
mod perft;
mod position;
mod position_error;
pub mod recognition;
mod setup;
mod square;
mod square_names;
mod variant;

pub use board_bits::BoardBits;
pub use color::Color;
pub use game::{EndReason, Game, GameResult, Outcome};
pub use geometry::{
    BOARD_8X8, BOARD_10X10, BOARD_12X12, Direction, Geometry, MAX_SIDE, MAX_SQUARES,
};
pub use moves::{MAX_LANDINGS, Move};
pub use perft::{divide, perft};
pub use position::{Piece, PlayError, Position, Role};
pub use position_error::{PositionError, PositionErrorKind};
pub use setup::Setup;
pub use square::{Bitboard, Square, Squares};
pub use variant::{
    CaptureChoice, CapturePromotion, DrawRules, Goal, Rules, SquareNotation, UnknownVariant,
    Variant,
};
