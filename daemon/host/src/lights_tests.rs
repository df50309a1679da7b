//! What the board's lights show as a game goes on: the squares to fix while the board is
//! wrong, the robot's move until the visitor starts theirs, and nothing otherwise.

use emotions::Millis;
use rules::recognition::outcome;
use rules::{Bitboard, Position, Square, Variant, notation};

use super::tests::{play, robot_answering, started};
use super::{Action, BoardLighting, Event, LogEvent};

fn sq(name: &str) -> Square {
    notation::parse_square(Variant::Russian, name).unwrap()
}

fn squares(names: &[&str]) -> Bitboard {
    names.iter().map(|name| sq(name)).collect()
}

/// The lights the actions ask for, in order.
fn lights_shown(actions: &[Action]) -> Vec<BoardLighting> {
    actions
        .iter()
        .filter_map(|action| match action {
            Action::Lights(lighting) => Some(*lighting),
            _ => None,
        })
        .collect()
}

#[test]
fn the_robots_move_stays_lit_until_the_visitor_starts_theirs() {
    let (mut host, before, mv) = robot_answering();
    let after = outcome(&before, &mv);
    let actions = host.handle(Event::ArmDone(after), Millis(6_000));
    let robot_move = BoardLighting::robot_move(sq("f6"), sq("g5"));
    assert_eq!(lights_shown(&actions), vec![robot_move]);
    assert!(host.wants_board_scans());
    // The visitor looks at the board: nothing changes.
    let actions = host.handle(Event::Scan(after), Millis(7_000));
    assert!(lights_shown(&actions).is_empty());
    // The visitor lifts a man: the lights go dark, and nothing is read for them any more.
    let lifted = after.without(sq("b2"));
    let actions = host.handle(Event::Scan(lifted), Millis(8_000));
    assert_eq!(lights_shown(&actions), vec![BoardLighting::DARK]);
    assert!(!host.wants_board_scans());
}

#[test]
fn a_refused_press_lights_the_squares_to_fix_and_each_goes_dark_when_fixed() {
    let mut host = started();
    let start = Position::new(Variant::Russian).occupied();
    // c3 moved to e5: not a move. Put the man back on c3 and take it off e5.
    let scan = start.without(sq("c3")).with(sq("e5"));
    let actions = host.handle(Event::Button(scan), Millis(1_000));
    let fix = BoardLighting::fix(squares(&["e5"]), squares(&["c3"]));
    assert_eq!(lights_shown(&actions), vec![fix]);
    let lit = fix.lit();
    assert_eq!(lit.len(), 2);
    assert!(host.wants_board_scans());
    // The man comes off e5: only c3 still blinks.
    let actions = host.handle(Event::Scan(start.without(sq("c3"))), Millis(2_000));
    let left = BoardLighting::fix(Bitboard::EMPTY, squares(&["c3"]));
    assert_eq!(lights_shown(&actions), vec![left]);
    // And back on c3: the board is the position again, nothing is lit.
    let actions = host.handle(Event::Scan(start), Millis(3_000));
    assert_eq!(lights_shown(&actions), vec![BoardLighting::DARK]);
    // A legal move after that leaves the lights dark while the robot thinks.
    let actions = play(&mut host, "c3-d4", 4_000);
    assert!(lights_shown(&actions).is_empty());
}

#[test]
fn a_press_before_any_move_keeps_the_robots_move_lit() {
    let (mut host, before, mv) = robot_answering();
    let after = outcome(&before, &mv);
    host.handle(Event::ArmDone(after), Millis(6_000));
    let actions = host.handle(Event::Button(after), Millis(7_000));
    assert!(lights_shown(&actions).is_empty());
    assert_eq!(
        host.lighting(),
        BoardLighting::robot_move(sq("f6"), sq("g5"))
    );
    // A move clears them.
    let actions = play(&mut host, "b2-c3", 8_000);
    assert_eq!(lights_shown(&actions), vec![BoardLighting::DARK]);
}

#[test]
fn a_failed_pick_lights_exactly_the_difference_as_the_board_changes() {
    let (mut host, before, mv) = robot_answering();
    let target = outcome(&before, &mv);
    // The arm dropped nothing: f6 still holds the man, g5 is empty.
    let actions = host.handle(Event::ArmDone(before.occupied()), Millis(6_000));
    let fix = BoardLighting::fix(squares(&["f6"]), squares(&["g5"]));
    assert_eq!(lights_shown(&actions), vec![fix]);
    // The visitor lifts the man from f6, then puts it on g5.
    let lifted = before.occupied().without(sq("f6"));
    let actions = host.handle(Event::Scan(lifted), Millis(7_000));
    let left = BoardLighting::fix(Bitboard::EMPTY, squares(&["g5"]));
    assert_eq!(lights_shown(&actions), vec![left]);
    let actions = host.handle(Event::Scan(target), Millis(8_000));
    assert_eq!(lights_shown(&actions), vec![BoardLighting::DARK]);
    // The press confirms it: the robot's move is lit as after a clean arm move.
    let actions = host.handle(Event::Button(target), Millis(9_000));
    assert_eq!(
        lights_shown(&actions),
        vec![BoardLighting::robot_move(sq("f6"), sq("g5"))]
    );
}

#[test]
fn a_game_over_leaves_the_board_dark() {
    let (mut host, before, mv) = robot_answering();
    host.handle(Event::ArmDone(outcome(&before, &mv)), Millis(6_000));
    let actions = host.abandon("operator", Millis(7_000));
    assert_eq!(lights_shown(&actions), vec![BoardLighting::DARK]);
    assert!(!host.wants_board_scans());
}

#[test]
fn the_lights_event_names_each_square_with_its_colour_and_mode() {
    let fix = BoardLighting::fix(squares(&["e5"]), squares(&["c3"]));
    let event = LogEvent::board_lights(Variant::Russian, &fix);
    let json = serde_json::to_value(&event).unwrap();
    assert_eq!(json["type"], "board_lights");
    assert_eq!(
        json["lights"],
        serde_json::json!([
            {"square": "c3", "colour": "green", "mode": "blinking"},
            {"square": "e5", "colour": "red", "mode": "blinking"},
        ])
    );
    let moved = LogEvent::board_lights(
        Variant::Russian,
        &BoardLighting::robot_move(sq("f6"), sq("g5")),
    );
    let json = serde_json::to_value(&moved).unwrap();
    assert_eq!(json["lights"][0]["colour"], "blue");
    assert_eq!(json["lights"][0]["mode"], "on");
}
