//! The host's decisions, event by event, with a fake clock and no devices.

use emotions::{Millis, Mind, Settings};
use engine::recognition::outcome;
use engine::{Bitboard, Color, Position, Variant, notation};

use super::{Action, Event, Host, LogEvent, RobotColor, SearchReply, Waiting};

fn host() -> Host {
    Host::new(
        Variant::Russian,
        RobotColor::Alternate,
        Mind::new(Settings::default(), 1),
    )
}

fn logs(actions: &[Action]) -> Vec<&LogEvent> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Log(event) => Some(event),
            _ => None,
        })
        .collect()
}

fn play(host: &mut Host, text: &str, t: u64) -> Vec<Action> {
    let position = *host.game().position();
    let mv = notation::parse_move(&position, text).unwrap();
    host.handle(Event::Button(outcome(&position, &mv)), Millis(t))
}

fn started() -> Host {
    let mut host = host();
    let actions = host.handle(
        Event::Scan(Position::new(Variant::Russian).occupied()),
        Millis(0),
    );
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::GameStarted { game: 1, .. }))
    );
    host
}

#[test]
fn a_set_up_board_starts_a_game_with_the_visitor_first() {
    let host = started();
    assert_eq!(host.robot(), Color::Black);
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
}

#[test]
fn an_incomplete_board_does_not_start() {
    let mut host = host();
    let start = Position::new(Variant::Russian).occupied();
    let partial = Bitboard(start.0 & (start.0 - 1));
    let actions = host.handle(Event::Scan(partial), Millis(0));
    assert!(
        !logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::GameStarted { .. }))
    );
    assert_eq!(host.waiting_for(), Waiting::Setup);
}

#[test]
fn a_legal_move_asks_for_a_search_then_the_arm_moves() {
    let mut host = started();
    let actions = play(&mut host, "c3-d4", 1_000);
    assert!(actions.iter().any(|a| matches!(a, Action::Search { .. })));
    assert_eq!(host.waiting_for(), Waiting::Robot);

    let position = *host.game().position();
    let mv = notation::parse_move(&position, "f6-g5").unwrap();
    let reply = SearchReply {
        mv,
        v: 0.5,
        pv: vec![mv],
        think_ms: 10,
    };
    let actions = host.handle(Event::SearchDone(reply), Millis(2_000));
    assert!(actions.iter().any(|a| matches!(a, Action::MoveArm { .. })));
    let actions = host.handle(Event::ArmDone(outcome(&position, &mv)), Millis(6_000));
    assert!(logs(&actions).contains(&&LogEvent::ArmDone));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
}

#[test]
fn a_mistake_is_answered_and_the_turn_stays_with_the_visitor() {
    let mut host = started();
    let start = Position::new(Variant::Russian).occupied();
    let sq = |name| notation::parse_square(Variant::Russian, name).unwrap();
    let scan = start.without(sq("c3")).with(sq("e5"));
    let actions = host.handle(Event::Button(scan), Millis(1_000));
    let Some(LogEvent::VisitorMistake { reason, place, .. }) = logs(&actions)
        .into_iter()
        .find(|e| matches!(e, LogEvent::VisitorMistake { .. }))
    else {
        panic!("{actions:?}")
    };
    assert_eq!(reason, "cannot_go_there");
    assert_eq!(place, &vec!["c3".to_owned()]);
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::Say {
            detail: Some(_),
            ..
        }
    )));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    // The visitor puts the piece right and plays properly.
    let actions = play(&mut host, "c3-d4", 5_000);
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::VisitorMove { .. }))
    );
}

#[test]
fn a_failed_pick_waits_until_the_board_is_put_right() {
    let mut host = started();
    play(&mut host, "c3-d4", 1_000);
    let position = *host.game().position();
    let mv = notation::parse_move(&position, "f6-g5").unwrap();
    host.handle(
        Event::SearchDone(SearchReply {
            mv,
            v: 0.5,
            pv: vec![mv],
            think_ms: 10,
        }),
        Millis(2_000),
    );
    let actions = host.handle(Event::ArmDone(position.occupied()), Millis(6_000));
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::BoardMismatch { .. }))
    );
    let expected = outcome(&position, &mv);
    assert_eq!(host.waiting_for(), Waiting::BoardFix(expected));
    // Pressing again without fixing repeats the request; fixing it gives the turn back.
    let again = host.handle(Event::Button(position.occupied()), Millis(8_000));
    assert!(
        logs(&again)
            .iter()
            .any(|e| matches!(e, LogEvent::BoardMismatch { .. }))
    );
    host.handle(Event::Button(expected), Millis(10_000));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
}
