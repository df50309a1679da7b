//! What the robot says about presses, about its own moves and as a coach (hints, take-back
//! offers), case by case in every language
//! (`tests/data/explanations.txt`), and for any scan at all.

use emotions::Language;
use proptest::prelude::*;
use rules::recognition::{Recognition, outcome, recognize, verify_robot_move};
use rules::{Bitboard, Position, Variant, notation};
use speech::{
    Hint, Utterance, explain_arm_check, explain_hint, explain_recognition, explain_robot_move,
    explain_take_back_offer, explain_turning_point, fragments,
};
use testkit::Lcg;
use testkit::board::{changed as scan, position};

/// The cases of the data file: a heading line, maybe a scan line (arm cases), the languages.
fn cases() -> Vec<Vec<&'static str>> {
    let mut cases: Vec<Vec<&str>> = Vec::new();
    for line in include_str!("../data/explanations.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        if line.contains(" | ") {
            cases.push(vec![line]);
        } else {
            cases
                .last_mut()
                .expect("a case starts with a heading")
                .push(line);
        }
    }
    cases
}

fn expected(case: &[&'static str], language: Language) -> &'static str {
    let prefix = format!("{}: ", language.code());
    case.iter()
        .find_map(|line| line.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("{}: no {language} line", case[0]))
}

#[test]
fn every_case_reads_as_written_in_every_language() {
    let mut failures = Vec::new();
    let cases = cases();
    for case in &cases {
        let fields: Vec<&str> = case[0].split('|').map(str::trim).collect();
        let [kind, fen_text, third] = fields[..] else {
            panic!("expected 3 fields: {}", case[0])
        };
        for language in Language::ALL {
            let said = if let Some(hint) = kind.strip_prefix("hint-") {
                let variant = Variant::Russian;
                let before = position(variant, fen_text);
                let hint = match hint {
                    "none" => Hint::NoneLeft,
                    step => {
                        let mv = notation::parse_move(&before, third).unwrap();
                        if step == "piece" {
                            Hint::Piece(mv.from())
                        } else {
                            Hint::Move(mv)
                        }
                    }
                };
                explain_hint(language, variant, &hint)
            } else if let Some(turn) = kind.strip_prefix("turning-point") {
                let variant = Variant::Russian;
                let before = position(variant, fen_text);
                let mv = notation::parse_move(&before, third).unwrap();
                explain_turning_point(language, variant, &mv, turn == "-after-good-play")
            } else if kind == "take-back" {
                let variant = Variant::Russian;
                let before = position(variant, fen_text);
                let mv = notation::parse_move(&before, third).unwrap();
                let restore = before.occupied() - outcome(&before, &mv);
                explain_take_back_offer(language, variant, restore)
            } else if kind == "robot" {
                let variant = Variant::Russian;
                let before = position(variant, fen_text);
                let mv = notation::parse_move(&before, third).unwrap();
                explain_robot_move(language, variant, &mv)
            } else if kind == "arm" {
                let variant = Variant::Russian;
                let before = position(variant, fen_text);
                let mv = notation::parse_move(&before, third).unwrap();
                let board = scan(variant, outcome(&before, &mv), case[1]);
                explain_arm_check(language, variant, &verify_robot_move(&before, &mv, board))
            } else {
                let variant: Variant = kind.parse().unwrap();
                let position = position(variant, fen_text);
                let board = scan(variant, position.occupied(), third);
                let recognition = recognize(&position, board);
                if let Recognition::Mistake(mistake) = &recognition {
                    // The fix leads to a legal board: the old one or a legal move's outcome.
                    let fixed = (board - mistake.remove) | mistake.place;
                    let goal = mistake
                        .target
                        .map_or(position.occupied(), |m| outcome(&position, &m));
                    assert_eq!(fixed, goal, "{}", case[0]);
                }
                explain_recognition(language, variant, &recognition).expect("not a move")
            };
            let want = expected(case, language);
            if said.text() != want {
                failures.push(format!(
                    "{}\n  {language} want: {want}\n  {language} said: {}",
                    case[0],
                    said.text()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(cases.len() >= 18, "{} cases", cases.len());
}

fn names(variant: Variant, squares: Bitboard) -> Vec<String> {
    squares
        .into_iter()
        .map(|sq| notation::square_name(variant, sq))
        .collect()
}

/// The words of an utterance's text, without punctuation, so "f4," counts as "f4".
fn said_words(utterance: &Utterance) -> Vec<String> {
    utterance
        .text()
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_owned())
        .collect()
}

fn variants() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the sensors report in whatever game, every language says something, names
    /// every square to clear and to fill, and says it with fragments that exist.
    #[test]
    fn any_scan_is_explained_with_its_squares(variant in variants(), seed in any::<u64>(),
            flips in prop::collection::vec(0usize..72, 1..5)) {
        let game = testkit::random_game(Position::new(variant), &mut Lcg(seed), 120);
        let positions = game.positions();
        let position = positions[positions.len() / 2];
        let squares: Vec<_> = variant.geometry().squares().collect();
        let board = flips.iter().fold(position.occupied(), |board, &i| {
            let sq = squares[i % squares.len()];
            if board.contains(sq) { board.without(sq) } else { board.with(sq) }
        });
        let recognition = recognize(&position, board);
        let named = match &recognition {
            Recognition::Mistake(mistake) => mistake.remove | mistake.place,
            Recognition::CapturesNotRemoved { standing, .. } => *standing,
            _ => Bitboard::EMPTY,
        };
        for language in Language::ALL {
            let known: Vec<String> = fragments(language).into_iter().map(|f| f.id.to_string()).collect();
            let Some(said) = explain_recognition(language, variant, &recognition) else {
                prop_assert!(matches!(recognition, Recognition::Move(_)));
                continue;
            };
            prop_assert!(!said.is_empty(), "{language}: nothing said for {recognition:?}");
            let words = said_words(&said);
            for name in names(variant, named) {
                prop_assert!(words.contains(&name), "{language}: {name} not in {:?}", said.text());
            }
            for word in &said.words {
                prop_assert!(known.contains(&word.fragment.to_string()), "{language}: no fragment {}", word.fragment);
            }
        }
    }
}
