//! Ukrainian. The visitor is addressed as «ви»; the robot speaks of itself in the masculine.
//! Square names stay in the nominative after «поле» in any case («на полі f4», «з поля 32»,
//! «на полях c5 та d6»). Lists join with «та», which needs no euphonic alternation (і/й)
//! whatever sound the square's name ends or begins with.

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
        Phrase::MustCapture => "Можна бити {capture}.",
        Phrase::Backwards => "Шашка з поля {from} не може ходити назад на поле {to}.",
        Phrase::RobotPiece => "Шашка на полі {square} — моя.",
        Phrase::CaptureToTheEnd => "Бийте до кінця: {capture}.",
        Phrase::RightCapture => "Правильне взяття: {capture}.",
        Phrase::CannotGoThere => "Шашка з поля {from} не може піти на поле {to}.",
        Phrase::PieceMissing(One) => "Бракує шашки на полі {squares}.",
        Phrase::PieceMissing(Many) => "Бракує шашок на полях {squares}.",
        Phrase::PieceExtra(One) => "Зайва шашка на полі {squares}.",
        Phrase::PieceExtra(Many) => "Зайві шашки на полях {squares}.",
        Phrase::CapturedStanding(One) => "Побита шашка стоїть на полі {squares}.",
        Phrase::CapturedStanding(Many) => "Побиті шашки стоять на полях {squares}.",
        Phrase::WhichCapture => "Яке це було взяття: {captures}?",
        Phrase::NoMove => "Зробіть хід, а потім натисніть кнопку.",
        Phrase::Remove(One) => "Приберіть, будь ласка, шашку з поля {squares}.",
        Phrase::Remove(Many) => "Приберіть, будь ласка, шашки з полів {squares}.",
        Phrase::Place(One) => "Поставте, будь ласка, шашку на поле {squares}.",
        Phrase::Place(Many) => "Поставте, будь ласка, шашки на поля {squares}.",
        Phrase::PlaceThen(One) => "Потім поставте шашку на поле {squares}.",
        Phrase::PlaceThen(Many) => "Потім поставте шашки на поля {squares}.",
        Phrase::RobotMoved => "Я походив {route}.",
        Phrase::RobotCaptured(One) => "Я походив {route} та побив вашу шашку на полі {squares}.",
        Phrase::RobotCaptured(Many) => "Я походив {route} та побив ваші шашки на полях {squares}.",
        Phrase::ArmPickFailed => "Я не зміг підняти свою шашку.",
        Phrase::ArmDropped => "Я впустив свою шашку дорогою.",
        Phrase::ArmLeftCapture => "Я залишив на дошці побиту шашку.",
        Phrase::ArmBoardWrong => "Шашки стоять не так, як після мого ходу.",
        // The verb needs no object, so one capture and several read alike.
        Phrase::CoachCapture(_) => "Обережно: тепер я можу бити {capture}.",
        Phrase::CoachWins(One) => "Обережно: тепер я можу виграти вашу шашку на полі {squares}.",
        Phrase::CoachWins(Many) => "Обережно: тепер я можу виграти ваші шашки на полях {squares}.",
        Phrase::CoachKing => "Тепер я пройду в дамки на полі {square}.",
        Phrase::CoachBetter => "Краще було походити {route}.",
        Phrase::HintPiece => "Спробуйте походити шашкою з поля {square}.",
        Phrase::HintMove => "Походіть {route}.",
        Phrase::NoHintsLeft => "У цій партії підказок більше немає.",
        Phrase::TakeBackOffer(One) => {
            "Цей хід можна взяти назад: поверніть шашку на поле {squares}, а потім спробуйте інший хід."
        }
        Phrase::TakeBackOffer(Many) => {
            "Цей хід можна взяти назад: поверніть шашки на поля {squares}, а потім спробуйте інший хід."
        }
        Phrase::TakeBackGoOn => "Або натисніть кнопку, щоб продовжити.",
        Phrase::Praise => "Будь-який інший хід тут втрачає шашку.",
        Phrase::TurningPoint => "Переломним став ваш хід {route}.",
        Phrase::TurningPointAfterGoodPlay => {
            "Переломним став ваш хід {route}, а до цього ви грали добре."
        }
        Phrase::PuzzleWhite => "Білі починають і виграють. Знайдіть виграшний удар!",
        Phrase::PuzzleBlack => "Чорні починають і виграють. Знайдіть виграшний удар!",
        Phrase::PuzzleGoOn => "Удар ще не закінчено: знову ваш хід.",
        Phrase::PuzzleSolved => "Це і є виграшний удар!",
        Phrase::PuzzleTryAgain(One) => "Поверніть шашку на поле {squares} і спробуйте ще раз.",
        Phrase::PuzzleTryAgain(Many) => "Поверніть шашки на поля {squares} і спробуйте ще раз.",
        Phrase::PuzzleShow(One) => "Поверніть шашку на поле {squares}, і я покажу розв'язок.",
        Phrase::PuzzleShow(Many) => "Поверніть шашки на поля {squares}, і я покажу розв'язок.",
        Phrase::CrownByHand => {
            "Переверніть, будь ласка, мою шашку на полі {square}: тепер це дамка."
        }
    }
}

fn connective(connective: Connective) -> &'static str {
    match connective {
        Connective::From => "з поля",
        Connective::Over => "через",
        Connective::To => "на поле",
        Connective::And => "та",
        Connective::Or => "чи",
    }
}

/// The letter names Ukrainian draughts and chess players use for the files.
fn letter(letter: char) -> &'static str {
    match letter {
        'a' => "а",
        'b' => "бе",
        'c' => "це",
        'd' => "де",
        'e' => "е",
        'f' => "еф",
        'g' => "же",
        'h' => "аш",
        'i' => "і",
        'j' => "жі",
        'k' => "ка",
        'l' => "ель",
        _ => unreachable!("boards have at most 12 files"),
    }
}
