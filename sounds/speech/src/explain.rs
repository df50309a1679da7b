//! From what recognition found to what the visitor hears.

use emotions::Language;
use rules::recognition::{ArmCheck, ArmProblem, MistakeKind, Recognition};
use rules::{Bitboard, Color, Move, Square, Variant};

use crate::compose::{Filler, say};
use crate::hint::Hint;
use crate::lesson::Lesson;
use crate::utterance::Utterance;
use crate::vocabulary::{Count, Phrase};

/// Why the visitor's press was refused and what to put right, naming the squares; `None` for
/// a move the robot accepts.
///
/// The squares to clear and to fill are always said, except where the reason has just named
/// exactly them ("A piece is missing on square f4" needs no "put a piece on f4").
pub fn explain_recognition(
    language: Language,
    variant: Variant,
    recognition: &Recognition,
) -> Option<Utterance> {
    let speaker = Speaker { language, variant };
    let utterance = match recognition {
        Recognition::Move(_) => return None,
        Recognition::NoChange => speaker.say(Phrase::NoMove, &[]),
        // The line before it asks for the captured pieces to be taken off, which tells the
        // captures apart.
        Recognition::Ambiguous(moves) => speaker.say(
            Phrase::WhichCapture,
            &[("captures", Filler::Captures(moves))],
        ),
        Recognition::CapturesNotRemoved { standing, .. } => {
            speaker.listing(Phrase::CapturedStanding, *standing)
        }
        Recognition::Mistake(mistake) => {
            let (remove, place) = (mistake.remove, mistake.place);
            let mut out = match mistake.kind {
                MistakeKind::MustCapture { available } => speaker.say(
                    Phrase::MustCapture,
                    &[("capture", Filler::Capture(&available))],
                ),
                MistakeKind::Backwards { from, to } => speaker.say(
                    Phrase::Backwards,
                    &[("from", Filler::Square(from)), ("to", Filler::Square(to))],
                ),
                MistakeKind::RobotPieceMoved { square, .. } => {
                    speaker.say(Phrase::RobotPiece, &[("square", Filler::Square(square))])
                }
                MistakeKind::CaptureNotFinished { continuation } => speaker.say(
                    Phrase::CaptureToTheEnd,
                    &[("capture", Filler::Capture(&continuation))],
                ),
                MistakeKind::WrongCaptureChoice { required, .. } => speaker.say(
                    Phrase::RightCapture,
                    &[("capture", Filler::Capture(&required))],
                ),
                MistakeKind::CannotGoThere { from, to } => speaker.say(
                    Phrase::CannotGoThere,
                    &[("from", Filler::Square(from)), ("to", Filler::Square(to))],
                ),
                MistakeKind::PieceMissing { squares } => {
                    speaker.listing(Phrase::PieceMissing, squares)
                }
                MistakeKind::ExtraPiece { squares } => speaker.listing(Phrase::PieceExtra, squares),
                // Too many changes to name a reason: the fix says it all.
                _ => Utterance::default(),
            };
            let fix_said = match mistake.kind {
                MistakeKind::PieceMissing { squares } => remove.is_empty() && place == squares,
                MistakeKind::ExtraPiece { squares } => place.is_empty() && remove == squares,
                _ => false,
            };
            if !fix_said {
                out.extend(speaker.fix(remove, place));
            }
            out
        }
    };
    Some(utterance)
}

/// What went wrong with the robot's own move and what the visitor is asked to put right.
pub fn explain_arm_check(language: Language, variant: Variant, check: &ArmCheck) -> Utterance {
    let speaker = Speaker { language, variant };
    let happened = |wanted: fn(&ArmProblem) -> bool| check.problems.iter().any(wanted);
    let cause = if happened(|p| matches!(p, ArmProblem::PickFailed { .. })) {
        Phrase::ArmPickFailed
    } else if happened(|p| matches!(p, ArmProblem::PieceDropped { .. })) {
        Phrase::ArmDropped
    } else if happened(|p| matches!(p, ArmProblem::CaptureNotCleared { .. })) {
        Phrase::ArmLeftCapture
    } else {
        Phrase::ArmBoardWrong
    };
    let mut out = speaker.say(cause, &[]);
    out.extend(speaker.fix(check.extra, check.missing));
    out
}

/// The move the robot's arm just made, for a visitor who did not watch it: "I moved from
/// square c5 to square g5 and took your pieces on squares d6 and f6."
pub fn explain_robot_move(language: Language, variant: Variant, mv: &Move) -> Utterance {
    let speaker = Speaker { language, variant };
    if mv.is_capture() {
        let captured = mv.captures_in_order(variant.geometry());
        speaker.say(
            Phrase::RobotCaptured(Count::of(captured.len())),
            &[
                ("route", Filler::Route(mv)),
                ("squares", Filler::Squares(&captured)),
            ],
        )
    } else {
        speaker.say(Phrase::RobotMoved, &[("route", Filler::Route(mv))])
    }
}

/// The robot's man on `square` reached the crowning row but the arm had no spare king to put
/// there: the visitor is asked to turn it over.
pub fn explain_crown_by_hand(language: Language, variant: Variant, square: Square) -> Utterance {
    let speaker = Speaker { language, variant };
    speaker.say(Phrase::CrownByHand, &[("square", Filler::Square(square))])
}

/// The coach's lesson about the visitor's last move, in words.
pub fn explain_lesson(language: Language, variant: Variant, lesson: &Lesson) -> Utterance {
    let speaker = Speaker { language, variant };
    match lesson {
        Lesson::Capture(mv) => speaker.say(
            Phrase::CoachCapture(Count::of(mv.captured().count() as usize)),
            &[("capture", Filler::Capture(mv))],
        ),
        Lesson::PiecesLost(squares) => speaker.listing(Phrase::CoachWins, *squares),
        Lesson::King(square) => {
            speaker.say(Phrase::CoachKing, &[("square", Filler::Square(*square))])
        }
        Lesson::Better(mv) => speaker.say(Phrase::CoachBetter, &[("route", Filler::Route(mv))]),
    }
}

/// The coach's answer to the visitor's request for a hint, in words.
pub fn explain_hint(language: Language, variant: Variant, hint: &Hint) -> Utterance {
    let speaker = Speaker { language, variant };
    match hint {
        Hint::Piece(square) => {
            speaker.say(Phrase::HintPiece, &[("square", Filler::Square(*square))])
        }
        Hint::Move(mv) => speaker.say(Phrase::HintMove, &[("route", Filler::Route(mv))]),
        Hint::NoneLeft => speaker.say(Phrase::NoHintsLeft, &[]),
    }
}

/// The offer to take the visitor's blunder back: put the pieces back on `restore` (the moved
/// piece's square and any it captured) and try another move, or press the button to go on.
pub fn explain_take_back_offer(
    language: Language,
    variant: Variant,
    restore: Bitboard,
) -> Utterance {
    let speaker = Speaker { language, variant };
    let mut out = speaker.listing(Phrase::TakeBackOffer, restore);
    out.extend(speaker.say(Phrase::TakeBackGoOn, &[]));
    out
}

/// Why the coach praises the visitor's move: every other one loses about a piece.
pub fn explain_praise(language: Language, variant: Variant) -> Utterance {
    Speaker { language, variant }.say(Phrase::Praise, &[])
}

/// After the game, the visitor's move where it turned: `mv`, and whether the visitor had been
/// `doing_well` until then.
pub fn explain_turning_point(
    language: Language,
    variant: Variant,
    mv: &Move,
    doing_well: bool,
) -> Utterance {
    let phrase = if doing_well {
        Phrase::TurningPointAfterGoodPlay
    } else {
        Phrase::TurningPoint
    };
    Speaker { language, variant }.say(phrase, &[("route", Filler::Route(mv))])
}

/// The squares to clear and to fill, alone: after the operator changed the game, while the
/// board does not show it yet.
pub fn explain_fix(
    language: Language,
    variant: Variant,
    remove: Bitboard,
    place: Bitboard,
) -> Utterance {
    Speaker { language, variant }.fix(remove, place)
}

/// One language and board, so the calls above read as sentences.
struct Speaker {
    language: Language,
    variant: Variant,
}

impl Speaker {
    fn say(&self, phrase: Phrase, fillers: &[(&str, Filler<'_>)]) -> Utterance {
        say(self.language, self.variant, phrase, fillers)
    }

    /// A phrase about a list of squares, in its form for one or for several.
    fn listing(&self, phrase: fn(Count) -> Phrase, squares: Bitboard) -> Utterance {
        let squares = self.in_order(squares);
        self.say(
            phrase(Count::of(squares.len())),
            &[("squares", Filler::Squares(&squares))],
        )
    }

    /// "Please take the piece off square e5. Then put a piece on square c3."
    fn fix(&self, remove: Bitboard, place: Bitboard) -> Utterance {
        let mut out = Utterance::default();
        if !remove.is_empty() {
            out.extend(self.listing(Phrase::Remove, remove));
        }
        if !place.is_empty() {
            let phrase = if remove.is_empty() {
                Phrase::Place
            } else {
                Phrase::PlaceThen
            };
            out.extend(self.listing(phrase, place));
        }
        out
    }

    /// Squares in the order a listener follows: numbers ascending, algebraic names rank by
    /// rank (the order of the board's squares).
    fn in_order(&self, squares: Bitboard) -> Vec<Square> {
        let mut squares: Vec<Square> = squares.into_iter().collect();
        squares.sort_by_key(|&sq| {
            rules::notation::square_name(self.variant, sq)
                .parse::<usize>()
                .ok()
        });
        squares
    }
}

/// What the robot says in puzzle mode, after its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleSpeech {
    /// The challenge: this side is to play and win.
    Challenge(Color),
    /// The visitor's move was the shot's, and the shot goes on.
    GoOn,
    /// The visitor played the whole shot.
    Solved,
    /// Not the shot: the pieces go back on these squares, and the visitor tries again.
    TryAgain(Bitboard),
    /// Not the shot again: the pieces go back on these squares, then the robot shows it.
    Show(Bitboard),
}

/// What the robot says about a puzzle (see [`PuzzleSpeech`]), with the squares to put back.
pub fn explain_puzzle(language: Language, variant: Variant, speech: PuzzleSpeech) -> Utterance {
    let speaker = Speaker { language, variant };
    match speech {
        PuzzleSpeech::Challenge(Color::White) => speaker.say(Phrase::PuzzleWhite, &[]),
        PuzzleSpeech::Challenge(Color::Black) => speaker.say(Phrase::PuzzleBlack, &[]),
        PuzzleSpeech::GoOn => speaker.say(Phrase::PuzzleGoOn, &[]),
        PuzzleSpeech::Solved => speaker.say(Phrase::PuzzleSolved, &[]),
        PuzzleSpeech::TryAgain(restore) => speaker.listing(Phrase::PuzzleTryAgain, restore),
        PuzzleSpeech::Show(restore) => speaker.listing(Phrase::PuzzleShow, restore),
    }
}
