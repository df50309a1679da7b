//! The operator's commands to the host: what each does, and that a refused one changes nothing.

use emotions::{Millis, Mind};
use rules::recognition::outcome;
use rules::{Color, Position, Variant, fen, notation};

use super::tests::{logs, play, started};
use super::{Action, Event, Host, LogEvent, MistakeReason, SearchReply, Waiting};

fn reply(host: &Host, text: &str) -> SearchReply {
    let mv = notation::parse_move(host.game().position(), text).unwrap();
    SearchReply {
        mv,
        v: 0.6,
        raw_v: 0.6,
        pv: vec![mv],
        think_ms: 5,
    }
}

/// The visitor played c3-d4 and the robot's f6-g5 is on the board: the visitor's turn.
fn after_one_exchange() -> Host {
    let mut host = started();
    play(&mut host, "c3-d4", 1_000);
    let before = *host.game().position();
    let answer = reply(&host, "f6-g5");
    host.handle(Event::SearchDone(answer.clone()), Millis(2_000));
    host.handle(Event::ArmDone(outcome(&before, &answer.mv)), Millis(3_000));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    host
}

fn operator_actions(actions: &[Action]) -> Vec<String> {
    logs(actions)
        .into_iter()
        .filter_map(|e| match e {
            LogEvent::Operator { action, .. } => Some(
                serde_json::to_value(action)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned(),
            ),
            _ => None,
        })
        .collect()
}

#[test]
fn a_new_game_archives_the_old_one_unfinished_and_waits_for_setup() {
    let mut host = after_one_exchange();
    let actions = host.new_game(Millis(4_000)).unwrap();
    assert_eq!(operator_actions(&actions), ["new_game"]);
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::GameFinished(record) if record.result == "*" && record.moves.len() == 2
    )));
    assert_eq!(host.waiting_for(), Waiting::Setup);
    // The next set-up board starts game 2.
    let actions = host.handle(
        Event::Scan(Position::new(Variant::Russian).occupied()),
        Millis(5_000),
    );
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::GameStarted { game: 2, .. }))
    );
}

#[test]
fn game_changes_wait_for_the_robots_search_and_arm() {
    let mut host = started();
    play(&mut host, "c3-d4", 1_000);
    assert_eq!(host.waiting_for(), Waiting::Robot);
    let moves = host.game().moves().len();
    for refused in [
        host.new_game(Millis(1_500)),
        host.resign(Millis(1_500)),
        host.take_back(),
    ] {
        let err = refused.unwrap_err();
        assert!(err.0.contains("thinking"), "{err}");
    }
    let answer = reply(&host, "f6-g5");
    host.handle(Event::SearchDone(answer), Millis(2_000));
    let err = host.new_game(Millis(2_500)).unwrap_err();
    assert!(err.0.contains("arm"), "{err}");
    // Nothing changed: the robot's move is still on its way.
    assert_eq!(host.game().moves().len(), moves + 1);
    assert_eq!(host.waiting_for(), Waiting::Robot);
}

#[test]
fn between_games_there_is_nothing_to_change() {
    let mut host = super::tests::host();
    assert!(host.new_game(Millis(0)).unwrap_err().0.contains("no game"));
    assert!(host.resign(Millis(0)).is_err());
    assert!(host.pause().is_err());
    assert!(host.take_back().is_err());
    assert_eq!(host.waiting_for(), Waiting::Setup);
}

#[test]
fn the_robot_resigns_and_the_visitor_wins() {
    let mut host = after_one_exchange();
    assert_eq!(host.robot(), Color::Black);
    let actions = host.resign(Millis(4_000)).unwrap();
    let Some(LogEvent::GameOver { result, reason, .. }) = logs(&actions)
        .into_iter()
        .find(|e| matches!(e, LogEvent::GameOver { .. }))
    else {
        panic!("{actions:?}")
    };
    assert_eq!(result, "1-0");
    assert!(reason.contains("resigned"), "{reason}");
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::GameFinished(record) if record.result == "1-0"
    )));
    assert_eq!(host.waiting_for(), Waiting::Setup);
}

#[test]
fn a_paused_game_ignores_presses_and_holds_the_robots_move() {
    let mut host = started();
    play(&mut host, "c3-d4", 1_000);
    host.pause().unwrap();
    assert_eq!(host.waiting_for(), Waiting::Paused);
    assert!(host.pause().is_err(), "pausing twice is refused");
    // The search finishes while paused: nothing moves.
    let answer = reply(&host, "f6-g5");
    let actions = host.handle(Event::SearchDone(answer.clone()), Millis(2_000));
    assert!(actions.is_empty(), "{actions:?}");
    assert_eq!(host.game().moves().len(), 1);
    // Going on plays the held move.
    let actions = host.go_on(Millis(3_000)).unwrap();
    assert_eq!(operator_actions(&actions), ["go_on"]);
    assert!(
        actions
            .iter()
            .any(|a| matches!(a, Action::MoveArm { mv, .. } if *mv == answer.mv))
    );
    assert!(host.go_on(Millis(3_000)).is_err(), "not paused any more");

    // Paused at the visitor's turn, a press is not read as a move.
    let mut host = after_one_exchange();
    host.pause().unwrap();
    let moves = host.game().moves().len();
    let position = *host.game().position();
    let mv = notation::parse_move(&position, "d4-e5").unwrap();
    let actions = host.handle(Event::Button(outcome(&position, &mv)), Millis(5_000));
    assert!(actions.is_empty(), "{actions:?}");
    assert_eq!(host.game().moves().len(), moves);
}

#[test]
fn taking_back_waits_for_the_old_position_on_the_board() {
    let mut host = after_one_exchange();
    let start = Position::new(Variant::Russian);
    let actions = host.take_back().unwrap();
    let Some(LogEvent::Operator { detail, .. }) = logs(&actions).into_iter().next() else {
        panic!("{actions:?}")
    };
    assert!(detail.contains("c3-d4 f6-g5"), "{detail}");
    assert!(host.game().moves().is_empty());
    assert_eq!(host.waiting_for(), Waiting::BoardFix(start.occupied()));
    // The journal holds the shorter game.
    assert!(host.snapshot().unwrap().moves.is_empty());

    // A press with the pieces still where they were names what to fix.
    let stale = host.handle(
        Event::Button(outcome(&start, &reply(&host, "c3-d4").mv)),
        Millis(1),
    );
    assert!(
        logs(&stale)
            .iter()
            .any(|e| matches!(e, LogEvent::BoardMismatch { missing, extra }
                if missing == &["c3"] && extra == &["d4"]))
    );
    assert!(
        stale.iter().any(
            |a| matches!(a, Action::Say { explanation: Some(e), .. } if e.text().contains("d4"))
        )
    );
    // With the board put back, the visitor moves again.
    host.handle(Event::Button(start.occupied()), Millis(2));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    assert!(host.take_back().unwrap_err().0.contains("not moved yet"));
}

/// English draughts where White's man on c1 (square 30) can take two ways to c5 (14).
fn ambiguous_host() -> (Host, Position) {
    let position = fen::parse(Variant::English, "W:Wc1:Bb2,b4,d2,d4").unwrap();
    let mind = Mind::new(emotions::Settings::default(), 1);
    (
        Host::at_visitors_turn(position, Color::Black, mind),
        position,
    )
}

#[test]
fn an_ambiguous_press_is_settled_by_the_operators_choice() {
    let (mut host, position) = ambiguous_host();
    let sq = |name| notation::parse_square(Variant::English, name).unwrap();
    // The man jumped to c5 but both pairs of captured men still stand.
    let scan = position.occupied().without(sq("c1")).with(sq("c5"));
    let actions = host.handle(Event::Button(scan), Millis(0));
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::VisitorMistake { reason, .. } if *reason == MistakeReason::Ambiguous))
    );
    let labels: Vec<String> = host
        .ambiguous()
        .iter()
        .map(|mv| host.choice_label(mv))
        .collect();
    assert_eq!(
        labels,
        ["30x21x14 (taking 17, 25)", "30x23x14 (taking 18, 26)"]
    );

    // A label that is not a candidate is refused and changes nothing.
    let err = host.resolve("30x14", Millis(1)).unwrap_err();
    assert!(err.0.contains("30x21x14 (taking 17, 25)"), "{err}");
    assert!(host.game().moves().is_empty());

    let actions = host.resolve(&labels[1], Millis(2)).unwrap();
    assert_eq!(operator_actions(&actions), ["resolve"]);
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::VisitorMove { mv } if mv == "30x23x14"))
    );
    let chosen = host.game().moves()[0];
    let target = outcome(&position, &chosen);
    assert_eq!(host.waiting_for(), Waiting::BoardFix(target));
    assert!(host.ambiguous().is_empty());
    // Once the captured men are off, the robot thinks about its reply.
    let actions = host.handle(Event::Button(target), Millis(3));
    assert!(actions.iter().any(|a| matches!(a, Action::Search { .. })));
}
