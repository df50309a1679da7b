//! Every kind of mistake, and every lesson of the coach, in every language and attitude, as the
//! visitor hears it: the pack's line, then the explanation joined from fragments that exist and
//! decode, at a length that fits the text.

use emotions::{Attitude, Category, LineRequest, Mistake};
use rules::recognition::{Recognition, outcome, recognize, verify_robot_move};
use rules::{Bitboard, Variant, notation};
use sounds::{Language, Library, Saying, SoundSettings, Speaker, Voice};

use testkit::board::{changed, position};

use crate::audio::decode;

/// One press or arm move per situation the robot explains: (variant, position, the move the
/// arm made or "", changes to the board).
const CASES: [(Variant, &str, &str, &str, Option<Mistake>); 13] = [
    (Variant::Russian, "start", "", "=", Some(Mistake::NoMove)),
    (
        Variant::Russian,
        "W:Wc3,e3:Bd4,h8",
        "",
        "-e3 +f4",
        Some(Mistake::MustCapture),
    ),
    (
        Variant::Russian,
        "W:Wd4:Bh8",
        "",
        "-d4 +c3",
        Some(Mistake::MovedBackwards),
    ),
    (
        Variant::Russian,
        "start",
        "",
        "-f6 +e5",
        Some(Mistake::MovedRobotPiece),
    ),
    (
        Variant::Russian,
        "W:Wa3:Bb4,d6,h8",
        "",
        "-a3 -b4 +c5",
        Some(Mistake::CaptureNotFinished),
    ),
    (
        Variant::Russian,
        "W:Wa3:Bb4,d6,h8",
        "",
        "-a3 +e7",
        Some(Mistake::CapturesNotRemoved),
    ),
    (
        Variant::Brazilian,
        "W:Wa3,h2:Bb4,g3,e5",
        "",
        "-a3 -b4 +c5",
        Some(Mistake::NotMajorityCapture),
    ),
    (
        Variant::Italian,
        "W:Wd3,Kb5:Be4,c6",
        "",
        "-d3 -e4 +f5",
        Some(Mistake::CaptureOrder),
    ),
    (
        Variant::Russian,
        "start",
        "",
        "-c3 +e5",
        Some(Mistake::NotAMove),
    ),
    (
        Variant::International,
        "start",
        "",
        "-20 -19",
        Some(Mistake::PieceMissing),
    ),
    (
        Variant::Russian,
        "start",
        "",
        "+e5",
        Some(Mistake::PieceExtra),
    ),
    (
        Variant::Russian,
        "start",
        "",
        "-c3 -e3 +d4 +f4",
        Some(Mistake::NotAMove),
    ),
    (
        Variant::Russian,
        "B:Wc3,h2:Bd4,b6",
        "d4:b2",
        "-b2 -h2",
        None,
    ),
];

/// The explanation, the squares it must name, and the line request the host makes.
fn situation(
    language: Language,
    case: &(Variant, &str, &str, &str, Option<Mistake>),
) -> (speech::Utterance, Vec<String>, Category, Option<Mistake>) {
    let (variant, fen_text, arm_move, changes, mistake) = *case;
    let position = position(variant, fen_text);
    let names = |squares: Bitboard| -> Vec<String> {
        squares
            .into_iter()
            .map(|sq| notation::square_name(variant, sq))
            .collect()
    };
    if !arm_move.is_empty() {
        let mv = notation::parse_move(&position, arm_move).unwrap();
        let board = changed(variant, outcome(&position, &mv), changes);
        let check = verify_robot_move(&position, &mv, board);
        let squares = names(check.missing | check.extra);
        let said = speech::explain_arm_check(language, variant, &check);
        return (said, squares, Category::FixBoard, None);
    }
    let board = changed(variant, position.occupied(), changes);
    let recognition = recognize(&position, board);
    let squares = match &recognition {
        Recognition::Mistake(m) => names(m.remove | m.place),
        Recognition::CapturesNotRemoved { standing, .. } => names(*standing),
        _ => Vec::new(),
    };
    let said = speech::explain_recognition(language, variant, &recognition).unwrap();
    let mistake = mistake.unwrap();
    (said, squares, mistake.category(), Some(mistake))
}

/// A silent voice for every language and attitude.
fn voices(library: &Library) -> Vec<(Language, Attitude, Voice)> {
    let mut voices = Vec::new();
    for language in Language::ALL {
        for attitude in [Attitude::Friendly, Attitude::Rival] {
            let settings = SoundSettings {
                language,
                ..SoundSettings::default()
            };
            let voice = Voice::new(library.clone(), Speaker::silent(), &settings, 7);
            voices.push((language, attitude, voice));
        }
    }
    voices
}

#[test]
fn every_mistake_is_said_with_its_squares_in_every_language_and_attitude() {
    let library = Library::bundled().unwrap();
    let mut problems = Vec::new();
    for (language, attitude, mut voice) in voices(&library) {
        for case in &CASES {
            let (explanation, squares, category, mistake) = situation(language, case);
            let what = format!("{language} {attitude:?} {} {}", case.1, case.3);
            let request = LineRequest {
                category,
                attitude,
                mistake,
            };
            let said = voice.speak(&request, Some(&explanation)).unwrap();
            // The line is the one for this reason, and the explanation follows it.
            // `must_capture` lines are all about that reason and name none.
            let reason_fits = said.line.mistake == mistake
                || (said.line.mistake.is_none() && mistake == Some(Mistake::MustCapture));
            if said.line.language != language || said.line.category != category || !reason_fits {
                problems.push(format!("{what}: line {}", said.line.id));
            }
            if said.text != format!("{} {}", said.line.text, explanation.text()) {
                problems.push(format!("{what}: said {:?}", said.text));
            }
            let text = explanation.text();
            let words: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || ",.:?!—".contains(c))
                .collect();
            for square in &squares {
                if !words.contains(&square.as_str()) {
                    problems.push(format!("{what}: {square} not said: {explanation}"));
                }
            }
            let saying = Saying::explained(said.line.clone(), &explanation, |id| {
                library.fragment(language, attitude, id)
            });
            check_audio(&saying, &explanation, &what, &mut problems);
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Each lesson the coach gives, on a position where it is true, with the squares it names.
fn lessons() -> Vec<(speech::Lesson, Vec<&'static str>)> {
    let after = position(Variant::Russian, "B:Wd4,b4,g1:Be5,h8");
    let capture = notation::parse_move(&after, "e5:c3:a5").unwrap();
    let crowning = position(Variant::Russian, "B:Wh2,e3:Bb2,h8");
    let king = notation::parse_move(&crowning, "b2-a1").unwrap();
    let before = position(Variant::Russian, "W:Wh2,f2:Bb2,h8");
    let better = notation::parse_move(&before, "f2-e3").unwrap();
    let c3 = notation::parse_square(Variant::Russian, "c3").unwrap();
    let g5 = notation::parse_square(Variant::Russian, "g5").unwrap();
    vec![
        (speech::Lesson::Capture(capture), vec!["e5", "d4", "b4"]),
        (
            speech::Lesson::PiecesLost(Bitboard::from_square(c3)),
            vec!["c3"],
        ),
        (
            speech::Lesson::PiecesLost(Bitboard::from_square(c3) | Bitboard::from_square(g5)),
            vec!["c3", "g5"],
        ),
        (speech::Lesson::King(king.to()), vec!["a1"]),
        (speech::Lesson::Better(better), vec!["f2", "e3"]),
    ]
}

#[test]
fn every_lesson_of_the_coach_is_said_with_its_squares_in_every_language_and_attitude() {
    let library = Library::bundled().unwrap();
    let mut problems = Vec::new();
    for (language, attitude, mut voice) in voices(&library) {
        for (lesson, squares) in lessons() {
            let what = format!("{language} {attitude:?} {lesson:?}");
            let explanation = speech::explain_lesson(language, Variant::Russian, &lesson);
            let request = LineRequest {
                category: Category::Advice,
                attitude,
                mistake: None,
            };
            let said = voice.speak(&request, Some(&explanation)).unwrap();
            if said.line.category != Category::Advice || said.line.language != language {
                problems.push(format!("{what}: line {}", said.line.id));
            }
            let text = explanation.text();
            let words: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || ",.:?!—".contains(c))
                .collect();
            for square in squares {
                if !words.contains(&square) {
                    problems.push(format!("{what}: {square} not said: {text}"));
                }
            }
            let saying = Saying::explained(said.line.clone(), &explanation, |id| {
                library.fragment(language, attitude, id)
            });
            check_audio(&saying, &explanation, &what, &mut problems);
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Every fragment of `saying` decodes, and the explanation lasts about as long as its text
/// takes to say: espeak-ng at 140-150 words a minute says 6 (square numbers, «девятнадцать» for
/// "19") to 20 characters a second, and the gaps between fragments must not stretch that.
fn check_audio(
    saying: &Saying,
    explanation: &speech::Utterance,
    what: &str,
    problems: &mut Vec<String>,
) {
    let mut seconds = 0.0;
    for clip in &saying.clips {
        match decode(&clip.audio) {
            Ok((length, _)) => seconds += length + clip.silence_before.as_secs_f64(),
            Err(error) => problems.push(format!("{what}: {}: {error}", clip.audio.display())),
        }
    }
    let rate = explanation.text().chars().count() as f64 / seconds;
    if !(6.0..20.0).contains(&rate) {
        problems.push(format!(
            "{what}: {rate:.1} characters a second ({seconds:.2} s): {explanation}"
        ));
    }
}
