//! "Set up this position": the game in progress ends, the board is asked for, and the next game
//! is played from the position with whoever it says is to move; a journal keeps where it began.

use emotions::Millis;
use rules::{Color, Variant, fen};

use super::tests::{host, logs, play, said, started};
use super::{Action, Event, LogEvent, Waiting};

/// White to move, a king in the middle: a position no opening reaches.
const WHITE_TO_MOVE: &str = "W:Wc3,Kd4:Bf6,e5";

#[test]
fn a_position_set_up_mid_game_ends_that_game_and_is_played_from_with_the_visitor_to_move() {
    let mut host = started();
    play(&mut host, "c3-d4", 1_000);
    // Not while the robot thinks.
    let position = fen::parse(Variant::Russian, WHITE_TO_MOVE).unwrap();
    assert!(host.set_up(position, Color::Black, Millis(1_500)).is_err());
    let mut host = started();
    let actions = host.set_up(position, Color::Black, Millis(1_000)).unwrap();
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::GameFinished(record) if record.result == "*"
    )));
    assert_eq!(host.waiting_for(), Waiting::Setup);
    assert_eq!(host.next_start(), position);
    // The start position no longer starts a game; the squares asked for are the position's.
    let start = rules::Position::new(Variant::Russian).occupied();
    let actions = host.handle(Event::Scan(start), Millis(2_000));
    assert!(
        !logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::GameStarted { .. }))
    );
    let actions = host.ask_for_set_up(start, Millis(2_500));
    let mismatch = logs(&actions)
        .into_iter()
        .find_map(|e| match e {
            LogEvent::BoardMismatch { missing, extra } => Some((missing.clone(), extra.clone())),
            _ => None,
        })
        .expect("the squares to change are named");
    assert_eq!(mismatch.0, ["d4", "e5"]);
    assert_eq!(
        mismatch.1.len(),
        22,
        "every start piece but c3 and f6 comes off"
    );
    assert!(said(&actions)[0].contains("d4"), "{:?}", said(&actions));
    // The board showing the position starts the game from it, the visitor (White) to move.
    let actions = host.handle(Event::Scan(position.occupied()), Millis(3_000));
    assert!(logs(&actions).iter().any(|e| matches!(
        e,
        LogEvent::GameStarted {
            robot: Color::Black,
            ..
        }
    )));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    assert_eq!(*host.game().start(), position);
    // Its journal says where it began, and a restart resumes from there.
    let snapshot = host.snapshot().unwrap();
    assert_eq!(
        snapshot.start.as_deref(),
        Some(fen::write(&position).as_str())
    );
    play(&mut host, "c3-b4", 4_000);
    let snapshot = host.snapshot().unwrap();
    let resumed = super::coach_tests::resume(&snapshot).unwrap();
    assert_eq!(*resumed.game().start(), position);
    assert_eq!(resumed.game().moves().len(), 1);
}

#[test]
fn with_the_robot_to_move_the_set_up_game_starts_with_its_search() {
    let mut host = host();
    let position = fen::parse(Variant::Russian, WHITE_TO_MOVE).unwrap();
    assert_eq!(
        host.robot_for_set_up(&position),
        Color::Black,
        "colours alternate: the visitor moves first"
    );
    host.set_up(position, Color::White, Millis(0)).unwrap();
    let actions = host.ask_for_set_up(position.occupied(), Millis(100));
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::Search { position: searched, .. } if *searched == position
    )));
    assert_eq!(host.robot(), Color::White);
    // The next game after it is the variant's start again.
    assert_eq!(host.next_start(), rules::Position::new(Variant::Russian));
}

#[test]
fn a_position_whose_side_to_move_has_no_move_is_refused() {
    let mut host = host();
    // Black's one man is blocked and cannot capture.
    let blocked = fen::parse(Variant::Russian, "B:Wc3,g7,f6:Bh8").unwrap();
    let refused = host.set_up(blocked, Color::White, Millis(0)).unwrap_err();
    assert!(refused.0.contains("has no move"), "{refused}");
}
