//! The words the robot builds sentences from, by name: phrases with slots and the connectives
//! that join squares. Each language writes them out in `language/`.

use crate::utterance::FragmentId;

/// Whether a list slot holds one square or several: the words around it agree with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Count {
    One,
    Many,
}

impl Count {
    pub(crate) fn of(n: usize) -> Count {
        if n == 1 { Count::One } else { Count::Many }
    }

    fn suffix(self) -> &'static str {
        match self {
            Count::One => "one",
            Count::Many => "many",
        }
    }
}

/// A sentence pattern with slots (`{from}`, `{squares}`, `{capture}`...), written once per
/// language in `language/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phrase {
    /// A quiet move while a capture was compulsory: `{capture}` is one that was available.
    MustCapture,
    /// A man moved back from `{from}` to `{to}`.
    Backwards,
    /// The robot's piece on `{square}` was moved.
    RobotPiece,
    /// The capture stopped early: `{capture}` is the whole of it.
    CaptureToTheEnd,
    /// Another capture than the rules choose: `{capture}` is the one they choose.
    RightCapture,
    /// A piece from `{from}` went to `{to}`, where it cannot go.
    CannotGoThere,
    /// Pieces are gone from `{squares}`.
    PieceMissing(Count),
    /// Pieces appeared on `{squares}`.
    PieceExtra(Count),
    /// Captured pieces still stand on `{squares}`.
    CapturedStanding(Count),
    /// The board fits several moves: `{captures}`.
    WhichCapture,
    /// A press with no move.
    NoMove,
    /// Clear `{squares}`.
    Remove(Count),
    /// Put pieces on `{squares}`, as the only fix.
    Place(Count),
    /// Put pieces on `{squares}`, after clearing others.
    PlaceThen(Count),
    /// The robot's move: `{route}`.
    RobotMoved,
    /// The robot's capture: `{route}`, taking `{squares}`.
    RobotCaptured(Count),
    /// The arm did not pick up its piece.
    ArmPickFailed,
    /// The arm dropped its piece.
    ArmDropped,
    /// The arm left a captured piece standing.
    ArmLeftCapture,
    /// The board differs from the robot's move in another way.
    ArmBoardWrong,
    /// The coach: the visitor's move lets the robot take `{capture}` at once.
    CoachCapture(Count),
    /// The coach: the robot's line wins the visitor's pieces on `{squares}`.
    CoachWins(Count),
    /// The coach: the robot's line makes a king on `{square}`.
    CoachKing,
    /// The coach: `{route}` was the better move.
    CoachBetter,
    /// A hint: the piece on `{square}` has the move to play.
    HintPiece,
    /// A hint's second half: the whole move, `{route}`.
    HintMove,
    /// No hint left in this game.
    NoHintsLeft,
    /// The offer to take a blunder back: put the pieces back on `{squares}`.
    TakeBackOffer(Count),
    /// The offer's other choice: press the button to go on.
    TakeBackGoOn,
    /// The visitor's move was the only good one.
    Praise,
    /// After the game: the visitor's move `{route}` was where the game turned.
    TurningPoint,
    /// After the game: the visitor's move `{route}` was where the game turned, after a good
    /// start.
    TurningPointAfterGoodPlay,
    /// Puzzle mode's challenge, White to move.
    PuzzleWhite,
    /// Puzzle mode's challenge, Black to move.
    PuzzleBlack,
    /// The visitor found the shot's move, and it has more to it.
    PuzzleGoOn,
    /// The visitor played the whole shot.
    PuzzleSolved,
    /// Not the shot: put the pieces back on `{squares}` and try again.
    PuzzleTryAgain(Count),
    /// Not the shot again: put the pieces back on `{squares}`; the robot shows the solution.
    PuzzleShow(Count),
    /// The robot's man on `{square}` was crowned without a spare king: turn it over.
    CrownByHand,
}

impl Phrase {
    /// Every phrase, for the fragment catalogue.
    pub(crate) fn all() -> Vec<Phrase> {
        let mut all = vec![
            Phrase::MustCapture,
            Phrase::Backwards,
            Phrase::RobotPiece,
            Phrase::CaptureToTheEnd,
            Phrase::RightCapture,
            Phrase::CannotGoThere,
            Phrase::WhichCapture,
            Phrase::NoMove,
            Phrase::RobotMoved,
            Phrase::ArmPickFailed,
            Phrase::ArmDropped,
            Phrase::ArmLeftCapture,
            Phrase::ArmBoardWrong,
            Phrase::CoachKing,
            Phrase::CoachBetter,
            Phrase::HintPiece,
            Phrase::HintMove,
            Phrase::NoHintsLeft,
            Phrase::TakeBackGoOn,
            Phrase::Praise,
            Phrase::TurningPoint,
            Phrase::TurningPointAfterGoodPlay,
            Phrase::PuzzleWhite,
            Phrase::PuzzleBlack,
            Phrase::PuzzleGoOn,
            Phrase::PuzzleSolved,
            Phrase::CrownByHand,
        ];
        for count in [Count::One, Count::Many] {
            all.extend([
                Phrase::PieceMissing(count),
                Phrase::PieceExtra(count),
                Phrase::CapturedStanding(count),
                Phrase::Remove(count),
                Phrase::Place(count),
                Phrase::PlaceThen(count),
                Phrase::RobotCaptured(count),
                Phrase::CoachCapture(count),
                Phrase::CoachWins(count),
                Phrase::TakeBackOffer(count),
                Phrase::PuzzleTryAgain(count),
                Phrase::PuzzleShow(count),
            ]);
        }
        all
    }

    /// The phrase's name, the stem of its fragments' ids.
    pub(crate) fn id(self) -> String {
        let (stem, count) = match self {
            Phrase::MustCapture => ("must_capture", None),
            Phrase::Backwards => ("backwards", None),
            Phrase::RobotPiece => ("robot_piece", None),
            Phrase::CaptureToTheEnd => ("capture_to_the_end", None),
            Phrase::RightCapture => ("right_capture", None),
            Phrase::CannotGoThere => ("cannot_go_there", None),
            Phrase::PieceMissing(count) => ("piece_missing", Some(count)),
            Phrase::PieceExtra(count) => ("piece_extra", Some(count)),
            Phrase::CapturedStanding(count) => ("captured_standing", Some(count)),
            Phrase::WhichCapture => ("which_capture", None),
            Phrase::NoMove => ("no_move", None),
            Phrase::Remove(count) => ("remove", Some(count)),
            Phrase::Place(count) => ("place", Some(count)),
            Phrase::PlaceThen(count) => ("place_then", Some(count)),
            Phrase::RobotMoved => ("robot_moved", None),
            Phrase::RobotCaptured(count) => ("robot_captured", Some(count)),
            Phrase::ArmPickFailed => ("arm.pick_failed", None),
            Phrase::ArmDropped => ("arm.dropped", None),
            Phrase::ArmLeftCapture => ("arm.left_capture", None),
            Phrase::ArmBoardWrong => ("arm.board_wrong", None),
            Phrase::CoachCapture(count) => ("coach.capture", Some(count)),
            Phrase::CoachWins(count) => ("coach.wins", Some(count)),
            Phrase::CoachKing => ("coach.king", None),
            Phrase::CoachBetter => ("coach.better", None),
            Phrase::HintPiece => ("hint.piece", None),
            Phrase::HintMove => ("hint.move", None),
            Phrase::NoHintsLeft => ("hint.none_left", None),
            Phrase::TakeBackOffer(count) => ("take_back.offer", Some(count)),
            Phrase::TakeBackGoOn => ("take_back.go_on", None),
            Phrase::Praise => ("praise", None),
            Phrase::TurningPoint => ("turning_point", None),
            Phrase::TurningPointAfterGoodPlay => ("turning_point.after_good_play", None),
            Phrase::PuzzleWhite => ("puzzle.white", None),
            Phrase::PuzzleBlack => ("puzzle.black", None),
            Phrase::PuzzleGoOn => ("puzzle.go_on", None),
            Phrase::PuzzleSolved => ("puzzle.solved", None),
            Phrase::PuzzleTryAgain(count) => ("puzzle.try_again", Some(count)),
            Phrase::PuzzleShow(count) => ("puzzle.show", Some(count)),
            Phrase::CrownByHand => ("crown_by_hand", None),
        };
        match count {
            Some(count) => format!("{stem}.{}", count.suffix()),
            None => stem.to_owned(),
        }
    }
}

/// The words that join the parts of lists and moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Connective {
    /// Before a capture's or move's first square: "from square".
    From,
    /// Before a capture's captured squares: "over".
    Over,
    /// Before a move's destination: "to square".
    To,
    /// Before a list's last item: "and".
    And,
    /// Between alternatives: "or".
    Or,
}

impl Connective {
    pub(crate) const ALL: [Connective; 5] = [
        Connective::From,
        Connective::Over,
        Connective::To,
        Connective::And,
        Connective::Or,
    ];

    pub(crate) fn id(self) -> FragmentId {
        let id = match self {
            Connective::From => "move.from",
            Connective::Over => "move.over",
            Connective::To => "move.to",
            Connective::And => "and",
            Connective::Or => "or",
        };
        FragmentId::new(id.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrase_ids_are_unique() {
        let mut ids: Vec<String> = Phrase::all().into_iter().map(Phrase::id).collect();
        let count = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), count);
    }
}
