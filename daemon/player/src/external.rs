//! Another draughts program as the robot's player: the [`ExternalEngine`] a [`Brain`] asks for
//! its move at the levels the settings name (`play.engine`), and the [`EngineFault`]s that make
//! it play its own move instead.
//!
//! The trait is here and its implementations are not: talking to a process or a socket is I/O
//! and keeps time, which this crate does not do. `external-engines` (`daemon/engines`) drives a
//! Hub engine; a DXP engine is one more implementation. Whatever an engine answers, the brain
//! checks that the move is legal before it plays it.
//!
//! [`Brain`]: crate::Brain

use std::fmt;
use std::sync::atomic::AtomicBool;

use rules::{Move, Position};

/// A program that chooses moves for the robot. `Send`, as the brain it sits in.
pub trait ExternalEngine: Send {
    /// A short name for logs and faults: `hub:scan`.
    fn name(&self) -> &str;

    /// What it is and how it is asked, for `describe` and to tell whether new settings need
    /// a new one: `hub:scan hub, 2000 ms a move`.
    fn describe(&self) -> String;

    /// The engine's move in `position` (`history`: the game's earlier positions, oldest first),
    /// within the time it was given. `stop` raised: answer as soon as possible. An engine that
    /// died is started again at the next call.
    fn choose(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Result<Move, EngineFault>;
}

/// What went wrong with an engine's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// It could not be started, or did not finish its greeting (`hub`, `init`).
    Start,
    /// It ended, or closed its output.
    Died,
    /// It did not answer within its time and the grace after it.
    Hung,
    /// It answered a move that is not legal in the position.
    IllegalMove,
    /// It said something the protocol does not allow where it stood (a search without a move).
    Protocol,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::Start => "could not be started",
            FaultKind::Died => "died",
            FaultKind::Hung => "did not answer in time",
            FaultKind::IllegalMove => "answered an illegal move",
            FaultKind::Protocol => "broke the protocol",
        })
    }
}

/// One failure of an engine, named: `hub:scan died (exit status: 1)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the external engine {engine} {kind} ({detail})")]
pub struct EngineFault {
    /// The engine's short name.
    pub engine: String,
    /// What went wrong.
    pub kind: FaultKind,
    /// The particulars: the exit status, the move, the time waited.
    pub detail: String,
}
