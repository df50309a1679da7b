//! "Set up this position" over the operator page's API, against a watched `checkerbot sim`
//! whose arm has a rack: a bad FEN is refused naming its fault, a good one ends the game in
//! progress, the arm sets the position up (or what the rack and the reserve allow, the rest
//! asked of the people) and the next game is played from it with the side the FEN says to
//! move.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::Sim;
use crate::support::kind;

/// The events the sim has written to `path` so far.
fn events(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// Waits (two minutes at most: the arm moves at a real arm's pace) until `check` accepts the
/// event log; returns the log.
fn wait_for_log(
    path: &std::path::Path,
    what: &str,
    check: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_mins(2);
    loop {
        let log = events(path);
        if check(&log) {
            return log;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Posts the set-up until the robot takes it: it refuses while its search or arm is at work.
fn set_up(sim: &Sim, body: &str) -> Value {
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        let (status, answer) = sim.http("POST", "/api/set-up", body);
        if status == 200 {
            return answer;
        }
        assert_eq!(status, 409, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("try again"),
            "{answer}"
        );
        assert!(Instant::now() < deadline, "never taken: {answer}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_fen_from_the_page_is_set_up_by_the_arm_and_played_from_with_the_robot_to_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let sim = Sim::start(&["--seed", "3", "--events", path.to_str().unwrap()]);
    sim.wait_for("the first game", |s| s["game"]["number"] == 1);

    // A FEN that cannot be read is refused with its fault named, and nothing changes.
    let (status, answer) = sim.http("POST", "/api/set-up", r#"{"fen": "W:Wc3,z9:Bf6"}"#);
    assert_eq!(status, 409, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(error.contains("\"z9\""), "the bad square is named: {error}");
    let (status, answer) = sim.http(
        "POST",
        "/api/set-up",
        r#"{"fen": "W:Wc3:Bf6", "robot": "red"}"#,
    );
    assert_eq!(status, 400, "{answer}");
    // A position whose side to move cannot move is refused too.
    let (status, answer) = sim.http("POST", "/api/set-up", r#"{"fen": "B:Wc3,g7,f6:Bh8"}"#);
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("no move"),
        "{answer}"
    );
    assert_eq!(sim.state()["game"]["number"], 1);

    // The start with White's g3 gone and a white king on d4, Black to move: the robot (Black)
    // moves first.
    let fen = "B:WKd4,a1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    let answer = set_up(&sim, &format!(r#"{{"fen": "{fen}", "robot": "black"}}"#));
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains("the arm sets the position up"),
        "{message}"
    );
    assert!(
        message.contains("the robot (black) moves first"),
        "{message}"
    );
    let log = wait_for_log(&path, "the robot's first move in game 2", |log| {
        log.iter()
            .skip_while(|e| !(kind(e) == "game_started" && e["game"] == 2))
            .any(|e| kind(e) == "robot_move")
    });
    let operator = log
        .iter()
        .find(|e| kind(e) == "operator" && e["action"] == "set_up")
        .expect("the operator's request is logged");
    assert!(
        operator["detail"].as_str().unwrap().contains("Kd4"),
        "{operator}"
    );
    let over = log.iter().find(|e| kind(e) == "game_over").unwrap();
    assert_eq!(over["result"], "*", "game 1 ends unfinished: {over}");
    let reset = log.iter().find(|e| kind(e) == "board_reset").unwrap();
    assert_eq!(reset["result"], "done", "{reset}");
    let at = log
        .iter()
        .position(|e| kind(e) == "position_set_up")
        .unwrap();
    assert_eq!(log[at]["by"], "robot");
    assert!(
        log[at]["fen"].as_str().unwrap().contains("Kd4"),
        "{}",
        log[at]
    );
    assert_eq!(kind(&log[at + 1]), "game_started");
    assert_eq!(log[at + 1]["robot"], "black");
    // The page shows what waits beside the board as the arm's stock has it: the reserve's
    // first white king is on d4 now.
    let stock = sim.state()["stock"].clone();
    let text = stock["text"].as_str().unwrap();
    assert!(text.starts_with("rack: "), "{stock}");
    assert!(
        text.ends_with("reserve: 1 white king, 2 black kings"),
        "{stock}"
    );
    assert_eq!(
        stock["reserve"],
        serde_json::json!(["", "B", "W", "B"]),
        "{stock}"
    );
    // The robot's first move is Black's, from the position set up.
    let first = log[at..].iter().find(|e| kind(e) == "robot_move").unwrap();
    let black_moves = [
        "b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5",
    ];
    assert!(
        black_moves.contains(&first["move"].as_str().unwrap()),
        "{first}"
    );
}

#[test]
fn a_position_the_reserve_lacks_kings_for_names_the_squares_and_people_fill_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let sim = Sim::start(&["--seed", "4", "--events", path.to_str().unwrap()]);
    sim.wait_for("the first game", |s| s["game"]["number"] == 1);
    // Three white kings where the reserve holds two: the arm brings two, the third square
    // is asked for.
    let fen = "W:WKb4,Kd4,Kf4,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    let answer = set_up(&sim, &format!(r#"{{"fen": "{fen}"}}"#));
    let message = answer["message"].as_str().unwrap();
    let short = message
        .strip_prefix("the rack and the reserve lack pieces for ")
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("the operator is told at once: {message}"));
    assert!(["b4", "d4", "f4"].contains(&short), "{message}");
    let log = wait_for_log(&path, "game 2", |log| {
        log.iter()
            .any(|e| kind(e) == "game_started" && e["game"] == 2)
    });
    let reset = log.iter().find(|e| kind(e) == "board_reset").unwrap();
    assert_eq!(reset["result"], "short", "{reset}");
    assert_eq!(reset["squares"], serde_json::json!([short]));
    let mismatch = log
        .iter()
        .skip_while(|e| kind(e) != "board_reset")
        .find(|e| kind(e) == "board_mismatch")
        .expect("the square is asked for");
    assert_eq!(mismatch["missing"], serde_json::json!([short]));
    let at = log
        .iter()
        .position(|e| kind(e) == "position_set_up")
        .unwrap();
    assert_eq!(log[at]["by"], "visitor");
    assert_eq!(kind(&log[at + 1]), "game_started");
    // Colours alternate, so the visitor takes the side to move (White) and the robot Black.
    assert_eq!(log[at + 1]["robot"], "black");
}
