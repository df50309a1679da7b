//! Hints: a long press at the visitor's turn asks for the piece to move, a second one for the
//! whole move, within the game's limit.

use emotions::{Language, Millis, Mind, Settings};
use rules::recognition::outcome;
use rules::{Color, Position};

use super::coach_tests::{mv, reply};
use super::tests::{logs, robot_answers, said};
use super::{Action, AdviceKind, BoardLighting, CoachSettings, Event, Host, LogEvent};

fn hint_search(actions: &[Action]) -> Option<Position> {
    actions.iter().find_map(|a| match a {
        Action::Hint { position, .. } => Some(*position),
        _ => None,
    })
}

/// The visitor (White) to move at the start of a Russian game, coached with `coach`.
fn visitor_to_move(coach: CoachSettings) -> Host {
    let start = Position::new(rules::Variant::Russian);
    let mut host = Host::at_visitors_turn(start, Color::Black, Mind::new(Settings::default(), 1));
    host.set_language(Language::English);
    host.set_coach(coach);
    host
}

/// A game that allows one hint, and the visitor's long press for it at the start.
fn one_hint_a_game_asked_for() -> (Host, Position) {
    let coach = CoachSettings {
        hints_per_game: 1,
        ..CoachSettings::default()
    };
    let mut host = visitor_to_move(coach);
    let start = *host.game().position();
    host.handle(Event::LongPress(start.occupied()), Millis(1_000));
    (host, start)
}

/// The game's one hint given at the start, the hinted move played and the robot's answer made:
/// the visitor's turn again.
fn the_games_one_hint_used() -> Host {
    let (mut host, start) = one_hint_a_game_asked_for();
    let first = mv(&start, "c3-d4");
    host.handle(Event::HintDone(reply(first, 0.5)), Millis(1_100));
    host.handle(Event::Button(outcome(&start, &first)), Millis(2_000));
    robot_answers(&mut host, "f6-g5", 3_000);
    host
}

#[test]
fn a_long_press_shows_the_piece_to_move_and_a_second_one_the_whole_move() {
    let mut host = visitor_to_move(CoachSettings::default());
    let start = *host.game().position();
    let actions = host.handle(Event::LongPress(start.occupied()), Millis(1_000));
    assert_eq!(hint_search(&actions), Some(start));
    let best = mv(&start, "c3-d4");
    let actions = host.handle(Event::HintDone(reply(best, 0.55)), Millis(1_200));
    assert_eq!(said(&actions), ["Try a move with your piece on square c3."]);
    assert_eq!(
        host.lighting(),
        BoardLighting::hint(rules::Bitboard::from_square(best.from()))
    );
    let advice = logs(&actions)
        .into_iter()
        .find_map(|e| match e {
            LogEvent::Advice {
                kind,
                mv,
                squares,
                expected_before,
                ..
            } => Some((*kind, mv.clone(), squares.clone(), *expected_before)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        advice,
        (
            AdviceKind::Hint,
            "c3-d4".to_owned(),
            vec!["c3".to_owned()],
            0.55
        )
    );
    // The second press needs no search: the move is known.
    let actions = host.handle(Event::LongPress(start.occupied()), Millis(3_000));
    assert_eq!(hint_search(&actions), None);
    assert_eq!(said(&actions), ["Move from square c3 to square d4."]);
    assert_eq!(
        host.lighting().hint,
        rules::Bitboard::from_square(best.from()) | rules::Bitboard::from_square(best.to())
    );
    // Lifting the piece darkens the hint; the move is played as usual.
    let lifted = start.occupied() - rules::Bitboard::from_square(best.from());
    host.handle(Event::Scan(lifted), Millis(4_000));
    assert!(host.lighting().is_dark());
    let actions = host.handle(Event::Button(outcome(&start, &best)), Millis(5_000));
    assert!(actions.iter().any(|a| matches!(a, Action::Search { .. })));
}

#[test]
fn the_games_hints_run_out_and_the_visitor_hears_so() {
    let mut host = the_games_one_hint_used();
    let now = host.game().position().occupied();
    let actions = host.handle(Event::LongPress(now), Millis(5_000));
    assert_eq!(hint_search(&actions), None);
    assert_eq!(said(&actions), ["You have no hints left in this game."]);
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::NoHintsLeft { hints_per_game: 1 }))
    );
}

#[test]
fn a_long_press_after_a_move_is_a_press_and_without_hints_it_asks_for_a_move() {
    let mut host = visitor_to_move(CoachSettings::default());
    let start = *host.game().position();
    let played = mv(&start, "c3-d4");
    let actions = host.handle(Event::LongPress(outcome(&start, &played)), Millis(1_000));
    assert_eq!(hint_search(&actions), None);
    assert!(actions.iter().any(|a| matches!(a, Action::Search { .. })));

    let off = CoachSettings {
        hints_per_game: 0,
        ..CoachSettings::default()
    };
    let mut host = visitor_to_move(off);
    let actions = host.handle(Event::LongPress(start.occupied()), Millis(1_000));
    assert_eq!(hint_search(&actions), None);
    assert_eq!(said(&actions), ["Make your move, then press the button."]);
}

#[test]
fn a_hint_still_searched_for_when_the_visitor_moves_is_not_given_and_does_not_count() {
    let (mut host, start) = one_hint_a_game_asked_for();
    let played = mv(&start, "c3-d4");
    host.handle(Event::Button(outcome(&start, &played)), Millis(1_500));
    // The robot's search stopped the hint's; a late answer would be stale anyway.
    let stale = host.handle(Event::HintDone(reply(played, 0.5)), Millis(1_600));
    assert!(said(&stale).is_empty());
    robot_answers(&mut host, "f6-g5", 3_000);
    let now = *host.game().position();
    let actions = host.handle(Event::LongPress(now.occupied()), Millis(5_000));
    assert_eq!(hint_search(&actions), Some(now));
}

#[test]
fn the_hints_given_before_a_restart_still_count() {
    let host = the_games_one_hint_used();
    let snapshot = host.snapshot().unwrap();
    assert_eq!(snapshot.hints_given, 1);
    let (mut resumed, _) = Host::resume(
        crate::RobotColor::Alternate,
        Mind::new(Settings::default(), 1),
        &snapshot,
        Millis(0),
    )
    .unwrap();
    resumed.set_language(Language::English);
    resumed.set_coach(CoachSettings {
        hints_per_game: 1,
        ..CoachSettings::default()
    });
    let now = resumed.game().position().occupied();
    let actions = resumed.handle(Event::LongPress(now), Millis(5_000));
    assert_eq!(said(&actions), ["You have no hints left in this game."]);
}
