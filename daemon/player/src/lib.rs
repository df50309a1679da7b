//! The robot's player, apart from the robot: the difficulty [`levels`], and the [`Brain`] that
//! plays a level (the network under MCTS, or alpha-beta when there is no network or the level
//! asks for none).
//!
//! The daemon's game loop asks a [`Brain`] for a move on a worker thread; the lab's `match`,
//! `selfplay` and `datagen` commands use the same `Brain` and dice, so a level measured there
//! is the level a visitor meets.
//!
//! **Architecture invariant**: no I/O but reading the model files, ONNX Runtime, the
//! endgame tables (`play.egdb_dir`, read once), the opening book ([`book`]) and level 5's
//! learned evaluation (`evaluation.rs`), and no
//! clock but the caller's stop flag: a seed replays a game (unless a search was stopped by
//! the clock). Another program as the player ([`external`], `play.engine`) comes in through
//! a trait that the daemon's `external-engines` implements; a brain without one is as
//! deterministic as before.
#![warn(missing_docs)]

pub mod adaptive;
pub mod book;
mod brain;
mod evaluation;
pub mod external;
pub mod levels;
pub mod rng;
mod strongest;
mod tables;

pub use brain::{Brain, Pondering, Thought, dylib, model_name};
pub use external::{EngineFault, ExternalEngine, FaultKind};
pub use strongest::level_5_searcher;
