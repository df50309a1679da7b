//! What of a game must survive a restart: the journal's content.
//!
//! Moves are kept as text and replayed through the rules on resume, so a journal can be read
//! (and, in an emergency, fixed) by a person, and a corrupt one is refused move by move.

use rules::pdn::{MoveMark, MoveNote};
use serde::{Deserialize, Serialize};

use rules::{Position, notation};

use crate::{AdviceKind, SearchReply};

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

/// The coach's rating of one of the visitor's moves in the journaled game, so that after a
/// restart the turning point is still chosen from the whole game and praise stays rare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingSnapshot {
    /// Which move, counting from 0: one of the visitor's.
    pub ply: usize,
    /// An inaccuracy, a mistake, a blunder or praise.
    pub kind: AdviceKind,
    /// The visitor's expected score before the move.
    pub expected_before: f32,
    /// The visitor's expected score after it.
    pub expected_after: f32,
}

impl RatingSnapshot {
    /// Checks the rating against the game it was journaled with: a visitor's move (not the
    /// robot's, `robot_moved(ply)` says which) that the game has, of a kind a move is rated
    /// with, and expected scores that are probabilities.
    pub(crate) fn check(
        &self,
        plies: usize,
        robot_moved: impl Fn(usize) -> bool,
    ) -> Result<(), ResumeError> {
        let problem = |problem: String| ResumeError::Rating {
            ply: self.ply + 1,
            problem,
        };
        if self.ply >= plies {
            return Err(problem(format!("the game has {plies} moves")));
        }
        if robot_moved(self.ply) {
            return Err(problem(
                "it is the robot's move, not the visitor's".to_owned(),
            ));
        }
        if !matches!(
            self.kind,
            AdviceKind::Inaccuracy | AdviceKind::Mistake | AdviceKind::Blunder | AdviceKind::Praise
        ) {
            return Err(problem(format!(
                "{} is not a rating of a move",
                self.kind.as_str()
            )));
        }
        for score in [self.expected_before, self.expected_after] {
            if !(0.0..=1.0).contains(&score) {
                return Err(problem(format!(
                    "the expected score {score} is not between 0 and 1"
                )));
            }
        }
        Ok(())
    }
}

/// A take-back on offer when the journal was written: the robot's answer to the blunder that
/// it holds, so that after a restart it offers the take-back again rather than answering.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OfferSnapshot {
    /// The robot's answer and the line it expects after it, from the position after the
    /// blunder.
    pub line: Vec<String>,
    /// The robot's win probability after its answer.
    pub v: f32,
    /// The same before the level's calibration, which the coach rates the next move by;
    /// journals written before it was kept have none, and the calibrated one stands in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_v: Option<f32>,
}

impl OfferSnapshot {
    /// The reply the robot held, read from its line in `after`, the position after the
    /// blunder.
    pub(crate) fn reply(&self, after: &Position) -> Result<SearchReply, ResumeError> {
        let mut position = *after;
        let mut pv = Vec::with_capacity(self.line.len());
        for text in &self.line {
            let mv = notation::parse_move(&position, text).map_err(|err| {
                ResumeError::TakeBackOffer(format!("the robot's line: {text}: {err}"))
            })?;
            position = position.play(&mv).map_err(|_| {
                ResumeError::TakeBackOffer(format!("the robot's line: {text} is not legal"))
            })?;
            pv.push(mv);
        }
        let Some(&mv) = pv.first() else {
            return Err(ResumeError::TakeBackOffer(
                "the robot's line is empty".to_owned(),
            ));
        };
        let raw_v = self.raw_v.unwrap_or(self.v);
        if let Some(v) = [self.v, raw_v]
            .into_iter()
            .find(|v| !(0.0..=1.0).contains(v))
        {
            return Err(ResumeError::TakeBackOffer(format!(
                "the win probability {v} is not between 0 and 1"
            )));
        }
        Ok(SearchReply {
            mv,
            v: self.v,
            raw_v,
            pv,
            think_ms: 0,
        })
    }
}

/// A game in progress, enough to put the host back where it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The variant's name.
    pub variant: String,
    /// The robot's colour in this game.
    pub robot: String,
    /// Games started since the state directory was created, this one included.
    pub games_started: u32,
    /// The position the game began from, as FEN, when it is not the variant's start (a
    /// position the operator set up). Absent in older journals: the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
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
    /// The coach's ratings of the visitor's moves so far. Absent in journals written before
    /// they were kept: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<RatingSnapshot>,
    /// The take-back the robot was offering after the visitor's last move, a blunder; none
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub take_back_offer: Option<OfferSnapshot>,
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
    /// The position the game began from cannot be read.
    #[error("the game's starting position: {0}")]
    Start(#[from] rules::fen::FenError),
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
    /// The take-back on offer does not fit the game: its line is not legal after the last
    /// move, or that move is not a blunder of the visitor's.
    #[error("the take-back on offer: {0}")]
    TakeBackOffer(String),
    /// A rating is of a move the game does not have or the robot made, or is not a rating.
    #[error("the coach's rating of move {ply}: {problem}")]
    Rating {
        /// The ply, from 1.
        ply: usize,
        /// What is wrong with it.
        problem: String,
    },
}
