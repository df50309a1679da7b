//! What the host tells the model.

use serde::{Deserialize, Serialize};

use crate::category::Category;

/// Something that happened, passed to [`Mind::step`](crate::Mind::step) with the time it
/// happened. The variants follow the daemon's event log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    /// Nothing happened; time passed. The host sends this at its frame rate (10 Hz or more) so
    /// that moods decay, holds expire, the eyes blink and idle lines come.
    Tick,
    /// Someone is at the board (a piece lifted, the button pressed, the board being set up)
    /// without completing anything: the robot is not idle.
    VisitorActivity,
    /// A new game begins; the visitor moves next unless [`Input::RobotThinking`] follows.
    GameStarted,
    /// The visitor completed a legal move.
    VisitorMove {
        /// How many of the robot's pieces it captured.
        captured: u8,
    },
    /// The visitor did something the robot cannot accept.
    VisitorMistake(Mistake),
    /// The robot's search started.
    RobotThinking,
    /// The search finished and the arm starts making the robot's move.
    RobotMove(Evaluation),
    /// The arm finished; the visitor's turn.
    ArmDone,
    /// The coach has something to say about the visitor's last move and no line was asked for
    /// at the robot's move to say it after.
    Advice,
    /// The visitor asked for a hint, and the coach answers (with the hint, or that none is
    /// left).
    Hint,
    /// The visitor's last move was the only good one, and the coach says so.
    Praise,
    /// The visitor's last move was a blunder: the robot waits with its reply and offers to take
    /// the move back.
    TakeBackOffered,
    /// After the robot's move the board does not match what it should be (failed pick, dropped
    /// piece, a hand in the way).
    BoardMismatch,
    /// The game ended.
    GameOver(RobotResult),
    /// After the game the arm starts putting the pieces back for the next one.
    TidyingUp,
    /// Puzzle mode: a puzzle is on the board, the visitor to solve it.
    PuzzleSetUp,
    /// Puzzle mode: the visitor's move was not the shot.
    PuzzleMissed,
    /// The robot's move crowned a man, and the arm had no spare king to put there: the visitor
    /// is asked to turn the man over.
    CrownByHand,
}

/// What the robot's search says about the position after the visitor's move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    /// The robot's win probability in `[0, 1]` now that the position is known.
    pub v: f32,
    /// What the robot's previous search predicted for this position, if it had a prediction
    /// (none on the robot's first move).
    pub v_pred: Option<f32>,
    /// Whether the visitor played the reply the previous search expected. A large drop of `v`
    /// after the expected reply is the robot's own blunder; after another reply it is the
    /// visitor's strong move.
    pub expected_reply: bool,
    /// How many of the visitor's pieces the robot's move captures.
    pub captures: u8,
}

/// Why the robot refuses what the visitor did, for the line that explains it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mistake {
    /// A quiet move while a capture was compulsory.
    MustCapture,
    /// A capture sequence stopped while more pieces could be taken.
    CaptureNotFinished,
    /// Not the capture that takes the most pieces, where the variant demands it.
    NotMajorityCapture,
    /// A capture that takes as many pieces as the one the rules want, which the variant's
    /// priorities still put second (Italian: a king's capture first, then the most kings, then
    /// the earliest king): "take the most pieces" would not be true.
    CaptureOrder,
    /// A man moved backwards without capturing.
    MovedBackwards,
    /// One of the robot's pieces was moved.
    MovedRobotPiece,
    /// The board matches no legal move: a piece went where it cannot go, or too much changed
    /// to tell.
    NotAMove,
    /// The move is clear but the captured pieces are still on the board.
    CapturesNotRemoved,
    /// The button was pressed before any move: nothing changed on the board.
    NoMove,
    /// Pieces disappeared and nothing else changed (knocked off, a weak magnet).
    PieceMissing,
    /// Pieces appeared and nothing else changed (one put down, a flickering sensor).
    PieceExtra,
}

impl Mistake {
    /// Every reason, in declaration order.
    pub const ALL: [Mistake; 11] = [
        Mistake::MustCapture,
        Mistake::CaptureNotFinished,
        Mistake::NotMajorityCapture,
        Mistake::CaptureOrder,
        Mistake::MovedBackwards,
        Mistake::MovedRobotPiece,
        Mistake::NotAMove,
        Mistake::CapturesNotRemoved,
        Mistake::NoMove,
        Mistake::PieceMissing,
        Mistake::PieceExtra,
    ];

    /// Whether this breaks the rules (and so upsets the robot) rather than being a slip: a
    /// board to tidy, a piece knocked over, a press too early.
    pub fn breaks_rules(self) -> bool {
        !matches!(
            self,
            Mistake::CapturesNotRemoved
                | Mistake::NoMove
                | Mistake::PieceMissing
                | Mistake::PieceExtra
        )
    }

    /// The line category that explains this mistake.
    pub fn category(self) -> Category {
        match self {
            Mistake::MustCapture => Category::MustCapture,
            Mistake::CapturesNotRemoved | Mistake::PieceMissing | Mistake::PieceExtra => {
                Category::FixBoard
            }
            Mistake::CaptureNotFinished
            | Mistake::NotMajorityCapture
            | Mistake::CaptureOrder
            | Mistake::MovedBackwards
            | Mistake::MovedRobotPiece
            | Mistake::NotAMove
            | Mistake::NoMove => Category::IllegalMove,
        }
    }
}

/// How a game ended, from the robot's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RobotResult {
    /// The robot won.
    Win,
    /// The visitor won.
    Loss,
    /// Nobody won.
    Draw,
}
