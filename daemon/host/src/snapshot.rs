//! What of a game must survive a restart: the journal's content.
//!
//! Moves are kept as text and replayed through the rules on resume, so a journal can be read
//! (and, in an emergency, fixed) by a person, and a corrupt one is refused move by move.

use serde::{Deserialize, Serialize};

/// A game in progress, enough to put the host back where it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The variant's name.
    pub variant: String,
    /// The robot's colour in this game.
    pub robot: String,
    /// Games started since the state directory was created, this one included.
    pub games_started: u32,
    /// The moves from the starting position.
    pub moves: Vec<String>,
    /// The last move is the robot's and the board has not yet confirmed it: the arm may have
    /// been interrupted.
    pub arm_pending: bool,
}

/// Why a journaled game cannot be resumed; the daemon then sets the journal aside and starts a
/// new game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    /// The snapshot names a variant this build does not know.
    #[error(transparent)]
    Variant(#[from] rules::UnknownVariant),
    /// The snapshot's robot colour is neither white nor black.
    #[error("unknown robot colour {0:?}")]
    RobotColor(String),
    /// A move's text cannot be read in the position it was played in.
    #[error("move {ply} ({text}): {source}")]
    MoveText {
        /// The ply, from 1.
        ply: usize,
        /// The move as the journal wrote it.
        text: String,
        /// What is wrong with it.
        source: rules::notation::MoveTextError,
    },
    /// A move reads, but is not legal where it was played.
    #[error("move {ply} ({text}): the move is not legal in this position")]
    IllegalMove {
        /// The ply, from 1.
        ply: usize,
        /// The move as the journal wrote it.
        text: String,
    },
    /// The journaled game has already ended.
    #[error("the game is already over")]
    AlreadyOver,
}
