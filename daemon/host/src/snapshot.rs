//! What of a game must survive a restart: the journal's content.
//!
//! Moves are kept as text and replayed through the rules on resume, so a journal can be read
//! (and, in an emergency, fixed) by a person, and a corrupt one is refused move by move.

use rules::pdn::{MoveMark, MoveNote};
use serde::{Deserialize, Serialize};

impl NoteSnapshot {
    /// The journal's form of `note`.
    pub(crate) fn of(note: &MoveNote) -> NoteSnapshot {
        NoteSnapshot {
            ply: note.ply,
            mark: note.mark.map(|mark| mark.as_str().to_owned()),
            comment: note.comment.clone(),
        }
    }

    /// The note again, on a game of `plies` moves.
    pub(crate) fn note(&self, plies: usize) -> Result<MoveNote, ResumeError> {
        let problem = |problem: &str| ResumeError::Note {
            ply: self.ply + 1,
            problem: problem.to_owned(),
        };
        if self.ply >= plies {
            return Err(problem(&format!("the game has {plies} moves")));
        }
        let mark = match self.mark.as_deref() {
            None => None,
            Some("?") => Some(MoveMark::Mistake),
            Some("??") => Some(MoveMark::Blunder),
            Some(other) => {
                return Err(problem(&format!(
                    "unknown mark {other:?}, expected ? or ??"
                )));
            }
        };
        Ok(MoveNote {
            ply: self.ply,
            mark,
            comment: self.comment.clone(),
        })
    }
}

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
    /// The game record's notes on the moves so far (the coach's marks, the robot's v, what was
    /// taken back), so that the archived game keeps them across a restart. Absent in journals
    /// written before the coach: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<NoteSnapshot>,
    /// How many of the game's moves were hinted: the hints left stay as few after a restart.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hints_given: u32,
}

/// A note on one move of the journaled game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteSnapshot {
    /// Which move, counting from 0.
    pub ply: usize,
    /// `?` (a mistake) or `??` (a blunder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
    /// The comment on the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes the field by reference"
)]
fn is_zero(n: &u32) -> bool {
    *n == 0
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
    /// A note is on a move the game does not have, or has a mark that is neither `?` nor `??`.
    #[error("the note on move {ply}: {problem}")]
    Note {
        /// The ply, from 1.
        ply: usize,
        /// What is wrong with it.
        problem: String,
    },
}
