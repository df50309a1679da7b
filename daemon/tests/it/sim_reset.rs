//! `checkerbot sim` with `game.reset_board`: after every game the simulated arm puts the pieces
//! back from the rack, the reserve and the board, a scan checks each batch, and the next game
//! starts without the visitor setting anything up; faults during the reset are recovered, and
//! a rack short of pieces ends with the squares to fill, which the visitor fills.

use std::process::Command;

use serde_json::Value;

use crate::support::{kind, sim_events};

/// Runs `checkerbot sim` with `args` and the board reset on (from a settings file, or from the
/// environment when `env` is true); returns stdout and the event log.
fn sim_with_reset(args: &[&str], env: bool) -> (String, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    let config = dir.path().join("checkerbot.toml");
    std::fs::write(&config, "[game]\nreset_board = true\n").unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkerbot"));
    command.arg("sim").args(args).arg("--events").arg(&events);
    if env {
        command.env("CHECKERBOT_GAME__RESET_BOARD", "true");
    } else {
        command.arg("--config").arg(&config);
    }
    sim_events(command, &events)
}

fn of_kind<'a>(log: &'a [Value], name: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| kind(e) == name).collect()
}

/// Every game is followed by a reset that ends done, the robot's `position_set_up`, and the
/// next game's start right after it: no visitor set the board up. `slack_ms` is how far apart
/// the two may be logged: nothing in memory, but over ptys the game's start writes to the
/// links first and that takes real time.
fn check_every_game_reset(log: &[Value], games: usize, slack_ms: u64) {
    assert_eq!(of_kind(log, "game_over").len(), games);
    let resets = of_kind(log, "board_reset");
    assert_eq!(resets.len(), games, "a reset after every game");
    for reset in &resets {
        assert_eq!(reset["result"], "done", "{reset}");
        assert!(reset["pieces_moved"].as_u64().unwrap() > 0, "{reset}");
        assert!(reset["duration_ms"].is_u64(), "{reset}");
        assert_eq!(reset["squares"].as_array().unwrap().len(), 0, "{reset}");
    }
    for (i, entry) in log.iter().enumerate() {
        if kind(entry) != "board_reset" {
            continue;
        }
        let set_up = &log[i + 1];
        assert_eq!(kind(set_up), "position_set_up", "{set_up}");
        assert_eq!(set_up["by"], "robot");
        assert!(set_up["fen"].as_str().unwrap().starts_with("W:W"));
        // The next game (if the run goes on) starts at once, with nothing in between.
        if let Some(next) = log.get(i + 2).filter(|e| kind(e) == "game_started") {
            let apart = next["t"].as_u64().unwrap() - set_up["t"].as_u64().unwrap();
            assert!(
                apart <= slack_ms,
                "the game starts as the board is set up: {set_up} then {next}"
            );
        } else {
            assert_eq!(
                of_kind(log, "game_started").len(),
                games,
                "only the last game's reset is followed by no game"
            );
        }
    }
    let tidy = log
        .iter()
        .filter(|e| kind(e) == "voice" && e["category"] == "tidy_up")
        .count();
    assert_eq!(tidy, games, "the robot says it tidies up each time");
}

#[test]
fn after_every_game_the_robot_sets_the_board_up_and_the_next_game_starts_by_itself() {
    let (stdout, log) = sim_with_reset(
        &[
            "--fast",
            "--games",
            "3",
            "--seed",
            "5",
            "--mistakes",
            "0.3",
            "--faults",
            "0.05",
        ],
        false,
    );
    assert!(stdout.contains("3 games:"), "{stdout}");
    check_every_game_reset(&log, 3, 0);
    assert!(stdout.contains("rack: "), "the rack is shown: {stdout}");
}

#[test]
fn failed_picks_during_the_reset_are_planned_again_and_it_still_ends_done() {
    // Three picks in ten fail here. A slot that missed twice is tried again when the reset
    // would end short without it, but one that missed four times is given up, and at this
    // rate that happens: seeds 1 and 6 end their first reset short (which the next test
    // shows is answered by naming the squares), seed 2 ends both done.
    let (_, log) = sim_with_reset(
        &["--fast", "--games", "2", "--seed", "2", "--faults", "0.3"],
        true,
    );
    check_every_game_reset(&log, 2, 0);
    let replans: u64 = of_kind(&log, "board_reset")
        .iter()
        .map(|reset| reset["replans"].as_u64().unwrap())
        .sum();
    assert!(replans > 0, "failed picks were noticed and planned again");
}

#[test]
fn a_rack_short_of_pieces_names_the_squares_and_the_visitor_filling_them_starts_the_game() {
    let (_, log) = sim_with_reset(
        &["--fast", "--games", "2", "--seed", "3", "--rack-slots", "4"],
        false,
    );
    let resets = of_kind(&log, "board_reset");
    assert_eq!(resets.len(), 2);
    let first = resets[0];
    assert_eq!(first["result"], "short", "{first}");
    let squares: Vec<&str> = first["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(!squares.is_empty());
    let at = log.iter().position(|e| e == first).unwrap();
    // The robot asks for the squares (a board to fix, said aloud with them), the visitor fills
    // them, and the second game starts.
    let after = &log[at..];
    let mismatch = after
        .iter()
        .find(|e| kind(e) == "board_mismatch")
        .expect("the squares to fill are asked for");
    let missing: Vec<&str> = mismatch["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(missing, squares);
    let said = after
        .iter()
        .find(|e| kind(e) == "voice" && e["category"] == "fix_board")
        .expect("said aloud");
    assert!(
        said["text"].as_str().unwrap().contains(squares[0]),
        "{said}"
    );
    let set_up = after
        .iter()
        .position(|e| kind(e) == "position_set_up")
        .unwrap();
    assert_eq!(after[set_up]["by"], "visitor");
    assert_eq!(kind(&after[set_up + 1]), "game_started");
    assert_eq!(after[set_up + 1]["game"], 2);
}

#[test]
fn over_ptys_the_robot_sets_the_board_up_after_every_game() {
    let (stdout, log) = sim_with_reset(
        &["--link", "pty", "--fast", "--games", "2", "--seed", "4"],
        true,
    );
    assert!(stdout.contains("2 games:"), "{stdout}");
    // A visitor's set-up takes seconds; the links' writes take milliseconds.
    check_every_game_reset(&log, 2, 500);
}
