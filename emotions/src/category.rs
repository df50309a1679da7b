//! The kinds of things the robot says.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A kind of voice line. The `sounds` crate holds the phrasings of each category for each
/// attitude and language; the model only decides which category fits and whether to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// A new game begins.
    GameStart,
    /// The robot starts searching for its move.
    Thinking,
    /// The robot's position improved: its plan is working.
    GoodMoveSelf,
    /// The visitor found a move the robot had underrated ("Brilliant move!").
    OpponentStrongMove,
    /// The visitor's move threw away a lot ("I don't think that move did you any good").
    OpponentBlunder,
    /// The visitor answered as the robot expected and it still went badly: the robot's own
    /// previous move was the mistake.
    SelfBlunder,
    /// The robot captures.
    Capture,
    /// The arm made the robot's move: the move is said, if the settings want it.
    RobotMove,
    /// The visitor captured the robot's pieces.
    LostPiece,
    /// The coach: the visitor's last move was a mistake; the request carries what it allows.
    Advice,
    /// The coach: the visitor asked for a hint; the request carries the hint, or that no hint
    /// is left in this game.
    Hint,
    /// The coach: the visitor found the only good move; the request carries that every other
    /// move lost material.
    Praise,
    /// The coach: the visitor's last move was a blunder, and the robot offers to take it back;
    /// the request carries what the move allows and how to take it back.
    TakeBack,
    /// The win probability changed in a way the robot's search did not foresee.
    Surprise,
    /// The robot cannot take the visitor's press as a move: it breaks the rules, or no move
    /// was made; the request carries the reason.
    IllegalMove,
    /// The visitor made a quiet move although a capture was compulsory.
    MustCapture,
    /// The board must be put right: captured pieces left standing, a piece missing or extra,
    /// or the board disagrees with the robot's own move.
    FixBoard,
    /// The robot won.
    Win,
    /// The robot lost.
    Loss,
    /// The game was drawn.
    Draw,
    /// An invitation to passers-by while nobody plays.
    Idle,
    /// The visitor seems to have left after a game.
    Goodbye,
    /// After a game the robot puts the pieces back for the next one (`game.reset_board`).
    TidyUp,
    /// Puzzle mode: the robot has set up a puzzle and challenges the visitor to solve it.
    Puzzle,
    /// Puzzle mode: the visitor's move was not the shot.
    PuzzleMiss,
    /// The robot crowned a man but has no spare king left: the visitor turns the man over.
    CrownByHand,
}

impl Category {
    /// Every category, in the order the docs list them.
    pub const ALL: [Category; 26] = [
        Category::GameStart,
        Category::Thinking,
        Category::GoodMoveSelf,
        Category::OpponentStrongMove,
        Category::OpponentBlunder,
        Category::SelfBlunder,
        Category::Capture,
        Category::RobotMove,
        Category::LostPiece,
        Category::Advice,
        Category::Hint,
        Category::Praise,
        Category::TakeBack,
        Category::Surprise,
        Category::IllegalMove,
        Category::MustCapture,
        Category::FixBoard,
        Category::Win,
        Category::Loss,
        Category::Draw,
        Category::Idle,
        Category::Goodbye,
        Category::TidyUp,
        Category::Puzzle,
        Category::PuzzleMiss,
        Category::CrownByHand,
    ];

    /// Whether a line of this category is said every time, ignoring chance, cooldowns and the
    /// gap: the visitor must learn that the game ended or what to correct, or the game stalls,
    /// the robot's move is said after every move once the settings ask for it, and the coach
    /// explains every mistake it rates, answers every hint asked for and makes every offer.
    pub fn always_speaks(self) -> bool {
        matches!(
            self,
            Category::IllegalMove
                | Category::RobotMove
                | Category::Advice
                | Category::Hint
                | Category::Praise
                | Category::TakeBack
                | Category::MustCapture
                | Category::FixBoard
                | Category::Win
                | Category::Loss
                | Category::Draw
                | Category::TidyUp
                | Category::Puzzle
                | Category::PuzzleMiss
                | Category::CrownByHand
        )
    }

    /// The name used in voice packs and the event log.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::GameStart => "game_start",
            Category::Thinking => "thinking",
            Category::GoodMoveSelf => "good_move_self",
            Category::OpponentStrongMove => "opponent_strong_move",
            Category::OpponentBlunder => "opponent_blunder",
            Category::SelfBlunder => "self_blunder",
            Category::Capture => "capture",
            Category::RobotMove => "robot_move",
            Category::LostPiece => "lost_piece",
            Category::Advice => "advice",
            Category::Hint => "hint",
            Category::Praise => "praise",
            Category::TakeBack => "take_back",
            Category::Surprise => "surprise",
            Category::IllegalMove => "illegal_move",
            Category::MustCapture => "must_capture",
            Category::FixBoard => "fix_board",
            Category::Win => "win",
            Category::Loss => "loss",
            Category::Draw => "draw",
            Category::Idle => "idle",
            Category::Goodbye => "goodbye",
            Category::TidyUp => "tidy_up",
            Category::Puzzle => "puzzle",
            Category::PuzzleMiss => "puzzle_miss",
            Category::CrownByHand => "crown_by_hand",
        }
    }

    /// Position in [`Category::ALL`], for per-category tables.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_matches_the_list_and_names_match_serde() {
        for (i, category) in Category::ALL.into_iter().enumerate() {
            assert_eq!(category.index(), i);
            assert_eq!(
                serde_json::to_string(&category).unwrap(),
                format!("\"{category}\"")
            );
        }
    }
}
