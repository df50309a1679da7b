//! Puzzle mode: the challenge, a miss put back, the shot with the robot's forced reply, the
//! solution shown after two misses, and the next puzzle after each.

use emotions::{Category, Millis};
use rules::recognition::outcome;
use rules::{Variant, notation};

use super::tests::{host, logs, play, said};
use super::{Action, Event, Host, LogEvent, Waiting};
use crate::puzzles;

/// A shot in two moves (White takes two, Black must take back, White takes two more), then
/// one in a single capture.
const PUZZLES: &str = "\
W:Wa1,a3,b4,c1,d2,e1,g1,h4:Ba5,a7,b2,b6,c7,e7,f8,g5,g7,h8 | h4:f6:d8 a5:c3 d2:b4 | two moves
W:Wb4,c1,f2:Bb2,c5,c7,d8,f4,h8 | b4:d6:b8 | one move
";

fn in_puzzle_mode() -> Host {
    let mut host = host();
    host.set_puzzles(puzzles::parse(Variant::Russian, PUZZLES).unwrap());
    let first = host.next_start();
    let actions = host.handle(Event::Scan(first.occupied()), Millis(0));
    assert!(
        logs(&actions)
            .iter()
            .any(|e| matches!(e, LogEvent::GameStarted { .. }))
    );
    let challenge = said(&actions);
    assert_eq!(challenge, ["White to play and win: find the winning shot!"]);
    assert!(actions.iter().any(|a| matches!(
        a,
        Action::Say { request, .. } if request.category == Category::Puzzle
    )));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    assert_eq!(host.robot(), rules::Color::Black);
    host
}

/// The arm made the move it was asked to; the actions that follow.
fn arm_done(host: &mut Host, actions: &[Action], t: u64) -> Vec<Action> {
    let (before, mv) = actions
        .iter()
        .find_map(|a| match a {
            Action::MoveArm { before, mv } => Some((*before, *mv)),
            _ => None,
        })
        .expect("the arm moves");
    host.handle(Event::ArmDone(outcome(&before, &mv)), Millis(t))
}

fn arm_move(actions: &[Action]) -> Option<String> {
    actions.iter().find_map(|a| match a {
        Action::MoveArm { mv, .. } => Some(notation::move_text(Variant::Russian, mv)),
        _ => None,
    })
}

#[test]
fn a_miss_is_put_back_and_the_shot_found_then_is_answered_and_ends_the_puzzle() {
    let mut host = in_puzzle_mode();
    let before = *host.game().position();
    let actions = play(&mut host, "a1:c3", 1_000);
    assert!(logs(&actions).iter().any(|e| matches!(
        e,
        LogEvent::PuzzleMiss { showing: false, expected, .. } if expected == "h4:f6:d8"
    )));
    assert_eq!(
        said(&actions),
        ["Put the pieces back on squares a1 and b2 and try again."]
    );
    assert_eq!(host.waiting_for(), Waiting::BoardFix(before.occupied()));
    host.handle(Event::Button(before.occupied()), Millis(2_000));
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    // The shot's first move: praised, and the arm makes Black's forced reply.
    let actions = play(&mut host, "h4:f6:d8", 3_000);
    assert_eq!(
        said(&actions),
        ["The shot is not over yet: your move again."]
    );
    assert_eq!(arm_move(&actions).as_deref(), Some("a5:c3"));
    arm_done(&mut host, &actions, 4_000);
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    let actions = play(&mut host, "d2:b4", 5_000);
    assert_eq!(said(&actions), ["That is the winning shot!"]);
    assert!(logs(&actions).iter().any(|e| matches!(
        e,
        LogEvent::GameOver { reason, .. } if reason == "puzzle solved"
    )));
    assert_eq!(host.waiting_for(), Waiting::Setup);
    // The next puzzle is what the board is set up for next.
    assert_eq!(
        rules::fen::write(&host.next_start()),
        "W:Wb4,c1,f2:Bb2,c5,c7,d8,f4,h8"
    );
}

#[test]
fn after_two_misses_the_robot_plays_the_solution_with_its_arm() {
    let mut host = in_puzzle_mode();
    let before = *host.game().position();
    play(&mut host, "a1:c3", 1_000);
    host.handle(Event::Button(before.occupied()), Millis(2_000));
    let actions = play(&mut host, "a1:c3", 3_000);
    assert_eq!(
        said(&actions),
        ["Put the pieces back on squares a1 and b2, and I will show you the solution."]
    );
    let mut actions = host.handle(Event::Button(before.occupied()), Millis(4_000));
    let mut shown = Vec::new();
    let mut t = 5_000;
    while let Some(mv) = arm_move(&actions) {
        shown.push(mv);
        actions = arm_done(&mut host, &actions, t);
        t += 1_000;
    }
    assert_eq!(shown, ["h4:f6:d8", "a5:c3", "d2:b4"]);
    assert!(logs(&actions).iter().any(|e| matches!(
        e,
        LogEvent::GameOver { reason, .. } if reason == "puzzle: the solution shown"
    )));
    assert_eq!(host.waiting_for(), Waiting::Setup);
}
