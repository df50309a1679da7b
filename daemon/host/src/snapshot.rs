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
