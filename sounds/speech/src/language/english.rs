//! English.

use super::Table;
use crate::vocabulary::{Connective, Count, Phrase};

pub(super) const TABLE: Table = Table {
    phrase,
    connective,
    letter,
};

fn phrase(phrase: Phrase) -> &'static str {
    use Count::{Many, One};
    match phrase {
        Phrase::MustCapture => "You can take {capture}.",
        Phrase::Backwards => "The man on square {from} cannot go back to square {to}.",
        Phrase::RobotPiece => "The piece on square {square} is mine.",
        Phrase::CaptureToTheEnd => "Capture to the end: {capture}.",
        Phrase::RightCapture => "The right capture is {capture}.",
        Phrase::CannotGoThere => "The piece on square {from} cannot go to square {to}.",
        Phrase::PieceMissing(One) => "A piece is missing on square {squares}.",
        Phrase::PieceMissing(Many) => "Pieces are missing on squares {squares}.",
        Phrase::PieceExtra(One) => "There is an extra piece on square {squares}.",
        Phrase::PieceExtra(Many) => "There are extra pieces on squares {squares}.",
        Phrase::CapturedStanding(One) => "The captured piece is on square {squares}.",
        Phrase::CapturedStanding(Many) => "The captured pieces are on squares {squares}.",
        Phrase::WhichCapture => "Which capture was it: {captures}?",
        Phrase::NoMove => "Make your move, then press the button.",
        Phrase::Remove(One) => "Please take the piece off square {squares}.",
        Phrase::Remove(Many) => "Please take the pieces off squares {squares}.",
        Phrase::Place(One) => "Please put a piece on square {squares}.",
        Phrase::Place(Many) => "Please put pieces on squares {squares}.",
        Phrase::PlaceThen(One) => "Then put a piece on square {squares}.",
        Phrase::PlaceThen(Many) => "Then put pieces on squares {squares}.",
        Phrase::RobotMoved => "I moved {route}.",
        Phrase::RobotCaptured(One) => "I moved {route} and took your piece on square {squares}.",
        Phrase::RobotCaptured(Many) => "I moved {route} and took your pieces on squares {squares}.",
        Phrase::ArmPickFailed => "I could not pick up my piece.",
        Phrase::ArmDropped => "I dropped my piece on the way.",
        Phrase::ArmLeftCapture => "I left a captured piece on the board.",
        Phrase::ArmBoardWrong => "The pieces are not where my move left them.",
        Phrase::CoachCapture(One) => "Careful: now I can take your piece, {capture}.",
        Phrase::CoachCapture(Many) => "Careful: now I can take your pieces, {capture}.",
        Phrase::CoachWins(One) => "Careful: now I can win your piece on square {squares}.",
        Phrase::CoachWins(Many) => "Careful: now I can win your pieces on squares {squares}.",
        Phrase::CoachKing => "That lets me reach the last row and get a king on square {square}.",
        Phrase::CoachBetter => "A better move was {route}.",
        Phrase::HintPiece => "Try a move with your piece on square {square}.",
        Phrase::HintMove => "Move {route}.",
        Phrase::NoHintsLeft => "You have no hints left in this game.",
        Phrase::TakeBackOffer(One) => {
            "You may take that move back: put the piece back on square {squares}, then try another move."
        }
        Phrase::TakeBackOffer(Many) => {
            "You may take that move back: put the pieces back on squares {squares}, then try another move."
        }
        Phrase::TakeBackGoOn => "Or press the button to go on.",
        Phrase::Praise => "Everything else loses a piece here.",
        Phrase::TurningPoint => "The turning point was your move {route}.",
        Phrase::TurningPointAfterGoodPlay => {
            "The turning point was your move {route}; until then you were doing well."
        }
        Phrase::PuzzleWhite => "White to play and win: find the winning shot!",
        Phrase::PuzzleBlack => "Black to play and win: find the winning shot!",
        Phrase::PuzzleGoOn => "The shot is not over yet: your move again.",
        Phrase::PuzzleSolved => "That is the winning shot!",
        Phrase::PuzzleTryAgain(One) => "Put the piece back on square {squares} and try again.",
        Phrase::PuzzleTryAgain(Many) => "Put the pieces back on squares {squares} and try again.",
        Phrase::PuzzleShow(One) => {
            "Put the piece back on square {squares}, and I will show you the solution."
        }
        Phrase::PuzzleShow(Many) => {
            "Put the pieces back on squares {squares}, and I will show you the solution."
        }
        Phrase::CrownByHand => "Please turn my piece on square {square} over: it is a king now.",
    }
}

fn connective(connective: Connective) -> &'static str {
    match connective {
        Connective::From => "from square",
        Connective::Over => "over",
        Connective::To => "to square",
        Connective::And => "and",
        Connective::Or => "or",
    }
}

fn letter(letter: char) -> &'static str {
    match letter {
        'a' => "ay",
        'b' => "bee",
        'c' => "see",
        'd' => "dee",
        'e' => "ee",
        'f' => "ef",
        'g' => "gee",
        'h' => "aitch",
        'i' => "eye",
        'j' => "jay",
        'k' => "kay",
        'l' => "el",
        _ => unreachable!("boards have at most 12 files"),
    }
}
