//! Russian. The visitor is addressed as «вы» (polite, and free of gender); the robot speaks of
//! itself in the masculine, as in the voice packs. Square names stay in the nominative after
//! «поле» in any case («на поле f4», «с поля 32», «на полях c5 и d6»).

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
        Phrase::MustCapture => "Можно бить {capture}.",
        Phrase::Backwards => "Шашка с поля {from} не может ходить назад на поле {to}.",
        Phrase::RobotPiece => "Шашка на поле {square} — моя.",
        Phrase::CaptureToTheEnd => "Бейте до конца: {capture}.",
        Phrase::RightCapture => "Правильное взятие: {capture}.",
        Phrase::CannotGoThere => "Шашка с поля {from} не может пойти на поле {to}.",
        Phrase::PieceMissing(One) => "Не хватает шашки на поле {squares}.",
        Phrase::PieceMissing(Many) => "Не хватает шашек на полях {squares}.",
        Phrase::PieceExtra(One) => "Лишняя шашка на поле {squares}.",
        Phrase::PieceExtra(Many) => "Лишние шашки на полях {squares}.",
        Phrase::CapturedStanding(One) => "Побитая шашка стоит на поле {squares}.",
        Phrase::CapturedStanding(Many) => "Побитые шашки стоят на полях {squares}.",
        Phrase::WhichCapture => "Какое это было взятие: {captures}?",
        Phrase::NoMove => "Сделайте ход, а потом нажмите кнопку.",
        Phrase::Remove(One) => "Уберите, пожалуйста, шашку с поля {squares}.",
        Phrase::Remove(Many) => "Уберите, пожалуйста, шашки с полей {squares}.",
        Phrase::Place(One) => "Поставьте, пожалуйста, шашку на поле {squares}.",
        Phrase::Place(Many) => "Поставьте, пожалуйста, шашки на поля {squares}.",
        Phrase::PlaceThen(One) => "Потом поставьте шашку на поле {squares}.",
        Phrase::PlaceThen(Many) => "Потом поставьте шашки на поля {squares}.",
        Phrase::RobotMoved => "Я сходил {route}.",
        Phrase::RobotCaptured(One) => "Я сходил {route} и побил вашу шашку на поле {squares}.",
        Phrase::RobotCaptured(Many) => "Я сходил {route} и побил ваши шашки на полях {squares}.",
        Phrase::ArmPickFailed => "Я не смог поднять свою шашку.",
        Phrase::ArmDropped => "Я уронил свою шашку по дороге.",
        Phrase::ArmLeftCapture => "Я оставил на доске побитую шашку.",
        Phrase::ArmBoardWrong => "Шашки стоят не так, как после моего хода.",
        // The verb needs no object, so one capture and several read alike.
        Phrase::CoachCapture(_) => "Осторожно: теперь я могу бить {capture}.",
        Phrase::CoachWins(One) => "Осторожно: теперь я могу выиграть вашу шашку на поле {squares}.",
        Phrase::CoachWins(Many) => {
            "Осторожно: теперь я могу выиграть ваши шашки на полях {squares}."
        }
        Phrase::CoachKing => "Теперь я пройду в дамки на поле {square}.",
        Phrase::CoachBetter => "Лучше было сходить {route}.",
        Phrase::HintPiece => "Попробуйте сходить шашкой с поля {square}.",
        Phrase::HintMove => "Сходите {route}.",
        Phrase::NoHintsLeft => "В этой партии подсказок больше нет.",
        Phrase::TakeBackOffer(One) => {
            "Этот ход можно взять назад: верните шашку на поле {squares}, а потом попробуйте другой ход."
        }
        Phrase::TakeBackOffer(Many) => {
            "Этот ход можно взять назад: верните шашки на поля {squares}, а потом попробуйте другой ход."
        }
        Phrase::TakeBackGoOn => "Или нажмите кнопку, чтобы продолжить.",
        Phrase::Praise => "Любой другой ход здесь теряет шашку.",
        Phrase::TurningPoint => "Переломным стал ваш ход {route}.",
        Phrase::TurningPointAfterGoodPlay => {
            "Переломным стал ваш ход {route}, а до этого вы играли хорошо."
        }
        Phrase::PuzzleWhite => "Белые начинают и выигрывают. Найдите выигрышный удар!",
        Phrase::PuzzleBlack => "Чёрные начинают и выигрывают. Найдите выигрышный удар!",
        Phrase::PuzzleGoOn => "Удар ещё не закончен: снова ваш ход.",
        Phrase::PuzzleSolved => "Это и есть выигрышный удар!",
        Phrase::PuzzleTryAgain(One) => "Верните шашку на поле {squares} и попробуйте ещё раз.",
        Phrase::PuzzleTryAgain(Many) => "Верните шашки на поля {squares} и попробуйте ещё раз.",
        Phrase::PuzzleShow(One) => "Верните шашку на поле {squares}, и я покажу решение.",
        Phrase::PuzzleShow(Many) => "Верните шашки на поля {squares}, и я покажу решение.",
        Phrase::CrownByHand => {
            "Переверните, пожалуйста, мою шашку на поле {square}: теперь это дамка."
        }
    }
}

fn connective(connective: Connective) -> &'static str {
    match connective {
        Connective::From => "с поля",
        Connective::Over => "через",
        Connective::To => "на поле",
        Connective::And => "и",
        Connective::Or => "или",
    }
}

/// The letter names Russian draughts and chess players use for the files.
fn letter(letter: char) -> &'static str {
    match letter {
        'a' => "а",
        'b' => "бэ",
        'c' => "цэ",
        'd' => "дэ",
        'e' => "е",
        'f' => "эф",
        'g' => "жэ",
        'h' => "аш",
        'i' => "и",
        'j' => "жи",
        'k' => "ка",
        'l' => "эль",
        _ => unreachable!("boards have at most 12 files"),
    }
}
