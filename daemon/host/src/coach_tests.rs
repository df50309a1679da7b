//! The coach: ratings on lichess's scale, lessons read from the robot's line, and what the
//! visitor hears after a blunder, in every language.

use emotions::{Language, Millis, Mind, Settings};
use rules::recognition::outcome;
use rules::{Bitboard, Color, Move, Position, Variant, fen, notation};
use speech::Lesson;

use super::tests::{finished_record, logs};
use super::{
    Action, AdviceKind, BoardLighting, CoachSettings, CoachSettingsError, Event, Host, LogEvent,
    SearchReply,
};
use crate::coach::{ExpectedLine, lesson};

pub(crate) fn russian(text: &str) -> Position {
    fen::parse(Variant::Russian, text).unwrap()
}

pub(crate) fn mv(position: &Position, text: &str) -> Move {
    notation::parse_move(position, text).unwrap()
}

fn squares(names: &[&str]) -> Bitboard {
    names
        .iter()
        .map(|name| notation::parse_square(Variant::Russian, name).unwrap())
        .collect()
}

#[test]
fn drops_are_rated_on_lichesss_scale_unless_the_game_was_decided() {
    let coach = CoachSettings::default();
    assert_eq!(coach.rate(0.5, 0.45), None);
    assert_eq!(coach.rate(0.5, 0.38), Some(AdviceKind::Inaccuracy));
    assert_eq!(coach.rate(0.5, 0.28), Some(AdviceKind::Mistake));
    assert_eq!(coach.rate(0.5, 0.15), Some(AdviceKind::Blunder));
    // Already lost, or still winning: no nagging.
    assert_eq!(coach.rate(0.08, 0.0), None);
    assert_eq!(coach.rate(0.99, 0.92), None);
    let off = CoachSettings {
        enabled: false,
        ..coach
    };
    assert_eq!(off.rate(0.5, 0.1), None);
}

#[test]
fn thresholds_must_rise_and_stay_within_one() {
    assert_eq!(CoachSettings::default().validate(), Ok(()));
    let crossed = CoachSettings {
        mistake: 0.35,
        ..CoachSettings::default()
    };
    assert_eq!(
        crossed.validate(),
        Err(CoachSettingsError::Order {
            field: "blunder",
            lower: "mistake"
        })
    );
    let high = CoachSettings {
        blunder: 1.5,
        ..CoachSettings::default()
    };
    assert!(matches!(
        high.validate(),
        Err(CoachSettingsError::OutOfRange {
            field: "blunder",
            ..
        })
    ));
}

#[test]
fn a_line_that_starts_with_a_capture_teaches_that_capture() {
    // White left d4 and b4 to the man on e5.
    let after = russian("B:Wd4,b4,g1:Be5,h8");
    let capture = mv(&after, "e5:c3:a5");
    assert_eq!(
        lesson(&after, &[capture], None),
        Some(Lesson::Capture(capture))
    );
    assert_eq!(
        Lesson::Capture(capture).squares(),
        squares(&["e5", "d4", "b4"])
    );
}

#[test]
fn a_capture_two_moves_later_names_the_piece_that_stands_now() {
    // c5-d4 cannot be taken (e5 covers it); whatever White does, d4 takes c3.
    let after = russian("B:Wc3,h2:Bc5,e5");
    let first = mv(&after, "c5-d4");
    let second_position = after.play(&first).unwrap();
    let second = mv(&second_position, "h2-g3");
    let third_position = second_position.play(&second).unwrap();
    let third = mv(&third_position, "d4:b2");
    let line = [first, second, third];
    assert_eq!(
        lesson(&after, &line, None),
        Some(Lesson::PiecesLost(squares(&["c3"])))
    );
}

#[test]
fn a_line_that_crowns_teaches_the_kings_square_and_else_the_better_move() {
    let after = russian("B:Wh2,e3:Bb2,h8");
    let crown = mv(&after, "b2-a1");
    assert_eq!(
        lesson(&after, &[crown], None),
        Some(Lesson::King(crown.to()))
    );
    let quiet = mv(&after, "h8-g7");
    let before = russian("W:Wh2,f2:Bb2,h8");
    let better = mv(&before, "f2-e3");
    let expected = ExpectedLine {
        before: &before,
        moves: &[better],
    };
    assert_eq!(
        lesson(&after, &[quiet], Some(expected)),
        Some(Lesson::Better(better))
    );
    assert_eq!(lesson(&after, &[quiet], None), None);
}

#[test]
fn a_king_that_was_coming_anyway_is_not_what_the_move_let_through() {
    // The man on b2 crowns whatever White does: after the move played, and after the one the
    // robot expected. The lesson is the better move, not the king.
    let before = russian("W:Wh2,f2:Bb2,h8");
    let played = mv(&before, "h2-g3");
    let after = before.play(&played).unwrap();
    let crown = mv(&after, "b2-a1");
    let better = mv(&before, "f2-e3");
    let crowns_too = before.play(&better).unwrap();
    let expected_line = [better, mv(&crowns_too, "b2-c1")];
    let expected = ExpectedLine {
        before: &before,
        moves: &expected_line,
    };
    assert_eq!(
        lesson(&after, &[crown], Some(expected)),
        Some(Lesson::Better(better))
    );
    // Had the expected line kept the man from crowning, the king is the lesson.
    let holds = before.play(&better).unwrap();
    let quiet_line = [better, mv(&holds, "h8-g7")];
    let expected = ExpectedLine {
        before: &before,
        moves: &quiet_line,
    };
    assert_eq!(
        lesson(&after, &[crown], Some(expected)),
        Some(Lesson::King(crown.to()))
    );
}

pub(crate) fn reply(mv: Move, v: f32) -> SearchReply {
    SearchReply {
        mv,
        v,
        raw_v: v,
        pv: vec![mv],
        think_ms: 5,
    }
}

/// A game where White (the visitor) plays g1-h2, the robot h8-g7 at even chances, and then
/// the visitor blunders c3-d4 into the double capture e5:c3:a5: what the host, coaching with
/// `coach` (at a `forgiving` level or not), does when the robot's search finds it.
pub(crate) fn after_the_blunder_with(
    language: Language,
    coach: CoachSettings,
    forgiving: bool,
) -> (Host, Vec<Action>) {
    after_the_blunder_valued(language, coach, forgiving, [(0.5, 0.5), (0.95, 0.95)])
}

/// The blunder game above with the robot's searches valued by `values`, each the robot's win
/// probability through its level's calibration and before it: first h8-g7's, then the
/// capture's.
fn after_the_blunder_valued(
    language: Language,
    coach: CoachSettings,
    forgiving: bool,
    values: [(f32, f32); 2],
) -> (Host, Vec<Action>) {
    let valued = |mv, (v, raw_v)| SearchReply {
        raw_v,
        ..reply(mv, v)
    };
    let start = russian("W:Wc3,b4,g1:Be5,h8");
    let mut host = Host::at_visitors_turn(start, Color::Black, Mind::new(Settings::default(), 1));
    host.set_language(language);
    host.set_coach(coach);
    host.set_forgiving(forgiving);
    let mut t = 0;
    let mut press = |host: &mut Host, text: &str| {
        let position = *host.game().position();
        let played = mv(&position, text);
        t += 1_000;
        host.handle(Event::Button(outcome(&position, &played)), Millis(t));
    };
    press(&mut host, "g1-h2");
    let position = *host.game().position();
    let robot = mv(&position, "h8-g7");
    host.handle(Event::SearchDone(valued(robot, values[0])), Millis(2_000));
    host.handle(Event::ArmDone(outcome(&position, &robot)), Millis(3_000));
    press(&mut host, "c3-d4");
    let position = *host.game().position();
    let capture = mv(&position, "e5:c3:a5");
    let actions = host.handle(Event::SearchDone(valued(capture, values[1])), Millis(6_000));
    (host, actions)
}

/// The blunder above with a coach that offers no take-back: the robot answers at once.
fn after_the_blunder(language: Language) -> (Host, Vec<Action>) {
    let coach = CoachSettings {
        take_backs: false,
        ..CoachSettings::default()
    };
    after_the_blunder_with(language, coach, false)
}

#[test]
fn the_squares_a_blunder_gives_away_are_lit_while_the_arm_answers_then_the_robots_move() {
    let (mut host, actions) = after_the_blunder(Language::English);
    let squares: Bitboard = ["e5", "d4", "b4"]
        .iter()
        .map(|name| notation::parse_square(Variant::Russian, name).unwrap())
        .collect();
    let lit = actions
        .iter()
        .position(|a| *a == Action::Lights(BoardLighting::lesson(squares)));
    let arm = actions
        .iter()
        .position(|a| matches!(a, Action::MoveArm { .. }));
    assert!(lit.is_some() && lit < arm, "{actions:?}");
    let Some(Action::MoveArm { before, mv }) = arm.map(|i| actions[i].clone()) else {
        unreachable!()
    };
    host.handle(Event::ArmDone(outcome(&before, &mv)), Millis(7_000));
    assert_eq!(
        host.lighting(),
        BoardLighting::robot_move(mv.from(), mv.to())
    );
}

/// A game from the start (the journal keeps moves from the starting position) where the
/// visitor's second move, g3-h4, is rated a blunder by the robot's answer g5-f4, with `coach`:
/// the host when the answer comes, before the arm moves, and what it does then.
pub(crate) fn a_game_from_the_start_with_a_blunder(coach: CoachSettings) -> (Host, Vec<Action>) {
    let start = Position::new(Variant::Russian);
    let mut host = Host::at_visitors_turn(start, Color::Black, Mind::new(Settings::default(), 1));
    host.set_coach(coach);
    let mut t = 0;
    let mut visitor_and_robot = |host: &mut Host, visitor: &str, robot: &str, v: f32| {
        let position = *host.game().position();
        let played = mv(&position, visitor);
        t += 1_000;
        host.handle(Event::Button(outcome(&position, &played)), Millis(t));
        let position = *host.game().position();
        let answer = mv(&position, robot);
        host.handle(Event::SearchDone(reply(answer, v)), Millis(t + 100))
    };
    visitor_and_robot(&mut host, "c3-d4", "f6-g5", 0.5);
    host.handle(
        Event::ArmDone(outcome(
            &host.game().positions()[1],
            &host.game().moves()[1],
        )),
        Millis(1_200),
    );
    let actions = visitor_and_robot(&mut host, "g3-h4", "g5-f4", 0.95);
    (host, actions)
}

/// The journal of that game with a coach that answers the blunder at once, after the arm made
/// the answer.
fn a_journaled_game_with_a_blunder() -> crate::Snapshot {
    let coach = CoachSettings {
        take_backs: false,
        ..CoachSettings::default()
    };
    let (mut host, _) = a_game_from_the_start_with_a_blunder(coach);
    let game = host.game();
    let (before, answer) = (game.positions()[3], game.moves()[3]);
    host.handle(Event::ArmDone(outcome(&before, &answer)), Millis(5_000));
    host.snapshot().unwrap()
}

pub(crate) fn resume(snapshot: &crate::Snapshot) -> Result<Host, crate::ResumeError> {
    Host::resume(
        crate::RobotColor::Alternate,
        Mind::new(Settings::default(), 1),
        snapshot,
        Millis(0),
    )
    .map(|(host, _)| host)
}

#[test]
fn the_coachs_marks_survive_a_restart_and_a_corrupt_one_is_refused() {
    let snapshot = a_journaled_game_with_a_blunder();
    let mut resumed = resume(&snapshot).unwrap();
    let record = finished_record(&mut resumed, 10_000);
    let pdn = record.pdn(&[]);
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("g3-h4?? {blunder: the visitor's expected score"),
        "{flat}"
    );
    assert!(flat.contains("g5-f4 {v 0.95}"), "{flat}");
    let mut corrupt = snapshot.clone();
    corrupt.notes[0].mark = Some("!".to_owned());
    let err = resume(&corrupt).unwrap_err().to_string();
    assert!(err.contains("unknown mark \"!\""), "{err}");
    let mut beyond = snapshot;
    beyond.notes[0].ply = 99;
    let err = resume(&beyond).unwrap_err().to_string();
    assert!(err.contains("the note on move 100"), "{err}");
}

#[test]
fn after_a_restart_the_turning_point_is_still_chosen_from_the_whole_game() {
    let snapshot = a_journaled_game_with_a_blunder();
    assert_eq!(
        snapshot
            .ratings
            .iter()
            .map(|rating| (rating.ply, rating.kind))
            .collect::<Vec<_>>(),
        [(2, AdviceKind::Blunder)]
    );
    let resumed = resume(&snapshot).unwrap();
    let (said, _) = resumed
        .turning_point()
        .expect("the blunder before the restart is the turning point");
    assert_eq!(
        said.text(),
        "The turning point was your move from square g3 to square h4; until then you were \
         doing well."
    );
    // Journaled again, the rating is still there.
    assert_eq!(resumed.snapshot().unwrap().ratings, snapshot.ratings);
    // A rating of the robot's move, of a move the game does not have, or with a score that is
    // no probability is refused, and the journal is set aside.
    for (corrupt, problem) in [
        (
            crate::RatingSnapshot {
                ply: 1,
                ..snapshot.ratings[0].clone()
            },
            "the coach's rating of move 2: it is the robot's move",
        ),
        (
            crate::RatingSnapshot {
                ply: 40,
                ..snapshot.ratings[0].clone()
            },
            "the coach's rating of move 41: the game has 4 moves",
        ),
        (
            crate::RatingSnapshot {
                expected_after: 1.5,
                ..snapshot.ratings[0].clone()
            },
            "the expected score 1.5 is not between 0 and 1",
        ),
        (
            crate::RatingSnapshot {
                kind: AdviceKind::Hint,
                ..snapshot.ratings[0].clone()
            },
            "hint is not a rating of a move",
        ),
    ] {
        let mut broken = snapshot.clone();
        broken.ratings = vec![corrupt];
        let err = resume(&broken).unwrap_err().to_string();
        assert!(err.contains(problem), "{err}");
    }
}

#[test]
fn a_blunder_is_logged_and_said_with_its_squares_in_every_language() {
    let cases = [
        (
            Language::English,
            "Careful: now I can take your pieces, from square e5 over d4 and b4.",
        ),
        (
            Language::Russian,
            "Осторожно: теперь я могу бить с поля e5 через d4 и b4.",
        ),
        (
            Language::Ukrainian,
            "Обережно: тепер я можу бити з поля e5 через d4 та b4.",
        ),
    ];
    for (language, sentence) in cases {
        let (_, actions) = after_the_blunder(language);
        let Some(LogEvent::Advice {
            kind,
            mv,
            squares,
            text,
            expected_before,
            expected_after,
        }) = logs(&actions)
            .into_iter()
            .find(|e| matches!(e, LogEvent::Advice { .. }))
        else {
            panic!("no advice: {actions:?}")
        };
        assert_eq!(*kind, AdviceKind::Blunder);
        assert_eq!(mv, "c3-d4");
        assert_eq!(squares, &["b4", "d4", "e5"]);
        assert_eq!(text, sentence, "{language:?}");
        assert!((expected_before - 0.5).abs() < 1e-6 && (expected_after - 0.05).abs() < 1e-6);
        // Said after whatever line the robot's move brought, or a line of the coach's own.
        let said = actions.iter().find_map(|a| match a {
            Action::Say {
                explanation: Some(explanation),
                ..
            } => Some(explanation.text()),
            _ => None,
        });
        assert_eq!(said.as_deref(), Some(sentence), "{language:?}");
    }
}

#[test]
fn a_blunder_is_rated_by_the_searchs_own_value_not_the_levels_hopeful_calibration() {
    // A strong level's map puts the robot at 0.92 where its search says even: by that the
    // game looks decided and the blunder would pass unrated.
    let coach = CoachSettings {
        take_backs: false,
        ..CoachSettings::default()
    };
    let (_, actions) = after_the_blunder_valued(
        Language::English,
        coach,
        false,
        [(0.92, 0.5), (0.995, 0.95)],
    );
    let rated = logs(&actions).into_iter().find_map(|e| match e {
        LogEvent::Advice {
            kind,
            expected_before,
            expected_after,
            ..
        } => Some((*kind, *expected_before, *expected_after)),
        _ => None,
    });
    let Some((kind, before, after)) = rated else {
        panic!("not rated: {actions:?}")
    };
    assert_eq!(kind, AdviceKind::Blunder);
    assert!((before - 0.5).abs() < 1e-6 && (after - 0.05).abs() < 1e-6);
    // The face still follows the calibrated value: the robot's move logs it.
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::RobotMove { v, .. } if (*v - 0.995).abs() < 1e-6))
    );
}

#[test]
fn the_record_marks_the_blunder_and_notes_the_robots_win_probability() {
    let (mut host, _) = after_the_blunder(Language::English);
    let record = finished_record(&mut host, 9_000);
    let pdn = record.pdn(&[]);
    for written in [
        "1. g1-h2 h8-g7 {v 0.50} 2. c3-d4??",
        "{blunder: the visitor's expected score 0.50 -> 0.05. Careful: now I can take your \
         pieces, from square e5 over d4 and b4.}",
        "e5xc3xa5 {v 0.95} *",
    ] {
        assert!(pdn.contains(written), "{written:?} not in {pdn}");
    }
    // The marks and comments leave the moves as they were.
    let read = rules::pdn::read(&pdn).unwrap();
    assert_eq!(read[0].game.moves(), host.game().moves());
}

#[test]
fn after_a_lost_game_the_robot_names_the_move_where_it_turned_in_every_language() {
    let cases = [
        (
            Language::English,
            "The turning point was your move from square c3 to square d4; until then you were \
             doing well.",
        ),
        (
            Language::Russian,
            "Переломным стал ваш ход с поля c3 на поле d4, а до этого вы играли хорошо.",
        ),
        (
            Language::Ukrainian,
            "Переломним став ваш хід з поля c3 на поле d4, а до цього ви грали добре.",
        ),
    ];
    for (language, sentence) in cases {
        // The visitor's last two men walk into the double capture e5:c3:a5.
        let start = russian("W:Wc3,a3:Be5,h8");
        let mut host =
            Host::at_visitors_turn(start, Color::Black, Mind::new(Settings::default(), 1));
        host.set_language(language);
        host.set_coach(CoachSettings {
            take_backs: false,
            ..CoachSettings::default()
        });
        let mut t = 0;
        let mut visitor = |host: &mut Host, text: &str| {
            let position = *host.game().position();
            t += 1_000;
            host.handle(
                Event::Button(outcome(&position, &mv(&position, text))),
                Millis(t),
            );
        };
        let robot = |host: &mut Host, text: &str, v: f32, at: u64| {
            let position = *host.game().position();
            let played = mv(&position, text);
            host.handle(Event::SearchDone(reply(played, v)), Millis(at));
            host.handle(
                Event::ArmDone(outcome(&position, &played)),
                Millis(at + 500),
            )
        };
        visitor(&mut host, "a3-b4");
        robot(&mut host, "h8-g7", 0.5, 10_000);
        visitor(&mut host, "c3-d4");
        let actions = robot(&mut host, "e5:c3:a5", 0.95, 20_000);
        let turning = logs(&actions)
            .into_iter()
            .find_map(|e| match e {
                LogEvent::Advice {
                    kind: AdviceKind::TurningPoint,
                    mv,
                    squares,
                    text,
                    ..
                } => Some((mv.clone(), squares.clone(), text.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no turning point: {actions:?}"));
        assert_eq!(
            turning,
            (
                "c3-d4".to_owned(),
                vec!["c3".to_owned(), "d4".to_owned()],
                sentence.to_owned()
            )
        );
        // Said after the robot's line for its win.
        let said = actions.iter().find_map(|a| match a {
            Action::Say {
                request,
                explanation: Some(explanation),
            } if request.category == emotions::Category::Win => Some(explanation.text()),
            _ => None,
        });
        assert_eq!(said.as_deref(), Some(sentence), "{language:?}");
    }
}

#[test]
fn a_game_without_a_mistake_or_one_the_visitor_won_has_no_turning_point() {
    let (mut host, _) = after_the_blunder(Language::English);
    // Stopped, not finished: nothing is said.
    let actions = host.abandon("the test ends", Millis(9_000));
    assert!(
        !logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::Advice { .. }))
    );
}

/// The visitor opens c3-d4 from the start, the robot's search compares it with `others` (each
/// with the visitor's win probability), and the robot answers f6-g5.
fn praised(played_v: f32, others: f32) -> Vec<Action> {
    let start = Position::new(Variant::Russian);
    let mut host = Host::at_visitors_turn(start, Color::Black, Mind::new(Settings::default(), 1));
    let played = mv(&start, "c3-d4");
    let actions = host.handle(Event::Button(outcome(&start, &played)), Millis(1_000));
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::Search {
            rate_visitor_move: true,
            ..
        }
    )));
    let alternatives = start
        .legal_moves()
        .into_iter()
        .map(|mv| (mv, if mv == played { played_v } else { others }))
        .collect();
    host.handle(Event::Alternatives(alternatives), Millis(1_100));
    let after = *host.game().position();
    host.handle(
        Event::SearchDone(reply(mv(&after, "f6-g5"), 1.0 - played_v)),
        Millis(1_200),
    )
}

#[test]
fn the_only_move_that_keeps_the_pieces_is_praised_and_one_of_many_is_not() {
    let actions = praised(0.5, 0.3);
    let praise = logs(&actions)
        .into_iter()
        .find_map(|e| match e {
            LogEvent::Advice {
                kind: AdviceKind::Praise,
                mv,
                text,
                ..
            } => Some((mv.clone(), text.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no praise: {actions:?}"));
    assert_eq!(
        praise,
        (
            "c3-d4".to_owned(),
            "Everything else loses a piece here.".to_owned()
        )
    );
    let said = actions.iter().find_map(|a| match a {
        Action::Say {
            request,
            explanation: Some(explanation),
        } if request.category == emotions::Category::Praise => Some(explanation.text()),
        _ => None,
    });
    assert_eq!(said.as_deref(), Some("Everything else loses a piece here."));
    // Others nearly as good: nothing to praise.
    let actions = praised(0.5, 0.45);
    assert!(
        !logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::Advice { .. }))
    );
}
