//! The puzzles of puzzle mode (`daemon/host/data/puzzles-*.txt`): enough of them, and each
//! solution the engine's own best line, so a visitor is never told "not that one" about a move
//! as good as the answer.

use std::sync::atomic::AtomicBool;

use rules::{Color, Position, Variant, notation};
use search::{Limits, Searcher};

/// Nodes for each of the solver's turns: the tactics suite's budget, which solves all of them.
const NODES: u64 = 300_000;

/// Material, a man 1 and a king 2, of `color` less the other side's.
fn balance(position: &Position, color: Color) -> i32 {
    let material =
        |c: Color| position.men_of(c).count() as i32 + 2 * position.kings_of(c).count() as i32;
    material(color) - material(!color)
}

#[test]
fn every_shipped_russian_puzzle_is_solved_by_the_engines_best_line() {
    let puzzles = host::puzzles::shipped(Variant::Russian).expect("the shipped file reads");
    assert!(puzzles.len() >= 30, "{} Russian puzzles", puzzles.len());
    let mut wrong = Vec::new();
    for puzzle in &puzzles {
        let start = puzzle.position;
        let solver = start.turn();
        let name = rules::fen::write(&start);
        // The solver's moves are what the engine plays there.
        for (position, mv) in puzzle.solver_moves() {
            let limits = Limits {
                depth: 64,
                nodes: NODES,
            };
            let found = Searcher::new(16).search(&position, &[], limits, &AtomicBool::new(false));
            if found.best != Some(mv) {
                wrong.push(format!(
                    "{name}: the engine plays {:?}, the solution {}",
                    found
                        .best
                        .map(|best| notation::move_text(Variant::Russian, &best)),
                    notation::move_text(Variant::Russian, &mv)
                ));
            }
        }
        // The replies between them are forced: the defender's only legal move.
        let mut position = start;
        for (i, mv) in puzzle.solution.iter().enumerate() {
            if i % 2 == 1 {
                assert_eq!(
                    position.legal_moves().len(),
                    1,
                    "{name}: reply {i} is forced"
                );
            }
            position = position.play(mv).unwrap();
        }
        // The shot wins material, which the defender cannot take back at once.
        assert_eq!(
            position.turn(),
            !solver,
            "{name}: the solution ends with the solver's move"
        );
        assert!(
            balance(&position, solver) - balance(&start, solver) >= 2,
            "{name}: the shot wins at least two men"
        );
        assert!(
            !position.has_capture(),
            "{name}: the defender cannot capture back at once"
        );
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Runs `checkerbot sim --fast --mode puzzle` with `args`; returns the event log.
fn sim_puzzles(args: &[&str]) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_checkerbot"));
    command
        .args(["sim", "--fast"])
        .args(args)
        .arg("--events")
        .arg(&events)
        .args(["--mode", "puzzle"]);
    crate::support::sim_events(command, &events).1
}

fn of_kind<'a>(log: &'a [serde_json::Value], name: &str) -> Vec<&'a serde_json::Value> {
    log.iter().filter(|e| kind(e) == name).collect()
}

use crate::support::kind;

#[test]
fn the_sim_sets_up_every_puzzle_with_its_arm_and_answers_each_attempt() {
    let puzzles = host::puzzles::shipped(Variant::Russian).unwrap();
    let games = puzzles.len().to_string();
    let log = sim_puzzles(&["--games", &games, "--seed", "2", "--visitor", "random"]);
    // Each puzzle in turn, the board scanned equal to it, then its game; after the last, the
    // first again, for the next visitor. The sim starts with an empty board and an empty rack,
    // so people set up the first one (the robot names the squares); after that the arm sets up
    // each from the pieces it has, and where they are too few (a puzzle with more men of a
    // colour than the last left it) it names the squares left and people fill them.
    let set_up = of_kind(&log, "position_set_up");
    assert_eq!(set_up.len(), puzzles.len() + 1);
    for (entry, puzzle) in set_up.iter().zip(puzzles.iter().cycle()) {
        assert_eq!(entry["fen"], rules::fen::write(&puzzle.position), "{entry}");
    }
    assert_eq!(set_up[0]["by"], "visitor");
    let by_robot = set_up.iter().filter(|entry| entry["by"] == "robot").count();
    assert!(
        by_robot * 3 >= set_up.len() * 2,
        "the arm sets up most puzzles: {by_robot} of {}",
        set_up.len()
    );
    let resets = of_kind(&log, "board_reset");
    assert_eq!(resets.len(), set_up.len(), "a reset before each");
    for (reset, entry) in resets.iter().zip(&set_up) {
        let want = if entry["by"] == "robot" {
            "done"
        } else {
            "short"
        };
        assert_eq!(reset["result"], want, "{reset}");
    }
    let challenges = log
        .iter()
        .filter(|e| kind(e) == "voice" && e["category"] == "puzzle")
        .count();
    assert_eq!(challenges, puzzles.len(), "each puzzle is announced");
    // A random visitor misses; each puzzle ends solved or with its solution shown by the arm.
    assert!(!of_kind(&log, "puzzle_miss").is_empty());
    for over in of_kind(&log, "game_over") {
        let reason = over["reason"].as_str().unwrap();
        assert!(
            reason == "puzzle solved" || reason == "puzzle: the solution shown",
            "{over}"
        );
    }
    assert!(
        of_kind(&log, "game_over")
            .iter()
            .any(|over| over["reason"] == "puzzle: the solution shown")
    );
}

#[test]
fn a_careful_visitor_solves_puzzles_and_hears_so() {
    let log = sim_puzzles(&["--games", "4", "--seed", "1"]);
    let solved = of_kind(&log, "game_over")
        .iter()
        .filter(|over| over["reason"] == "puzzle solved")
        .count();
    assert!(
        solved >= 3,
        "the engine visitor finds the shots: {solved} of 4"
    );
    assert!(log.iter().any(|e| {
        kind(e) == "voice"
            && e["text"]
                .as_str()
                .unwrap()
                .contains("That is the winning shot!")
    }));
}
