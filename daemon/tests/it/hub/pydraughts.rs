//! pydraughts, a real Hub client, against `checkerbot hub`: whole games in which pydraughts
//! checks every move, and its positions and moves read and written as it writes them.

use std::collections::BTreeSet;
use std::process::Command;

use engine_protocols::hub::board_text::{parse_position, write_move, write_position};
use rules::Variant;
use serde_json::Value;
use testkit::python;

const GAMES_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/it/hub/pydraughts_games.py"
);
const POSITIONS_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/it/hub/pydraughts_positions.py"
);

/// Games end by the rules (the engine against a random mover wins them in 30 to 80 plies) or
/// at this many plies, which none has needed; a game at the cap is still a finished test.
const MAX_PLIES: usize = 300;

/// Plays `games` games of `variant` (pydraughts' name, then ours) at `strength` and checks
/// each one ended, the strongest level unbeaten, and never out of time (the script checks
/// every move's legality and the clock), and that `quit` ended the engine.
fn engine_plays_whole_games(
    pydraughts_variant: &str,
    variant: Variant,
    games: usize,
    strength: u8,
) {
    let python = testkit::pydraughts_python();
    let output = python::run(
        Command::new(&python).arg(GAMES_SCRIPT).args([
            env!("CARGO_BIN_EXE_checkerbot"),
            pydraughts_variant,
            variant.name(),
            &games.to_string(),
            "24",
            &MAX_PLIES.to_string(),
            &strength.to_string(),
        ]),
        &format!("pydraughts playing {variant} against checkerbot hub"),
    );
    let lines: Vec<Value> = output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (exit, played) = lines.split_last().expect("the script reports");
    assert_eq!(exit["exit"], 0, "quit ends the engine cleanly");
    assert_eq!(played.len(), games, "{output}");
    for game in played {
        let plies = game["plies"].as_u64().unwrap() as usize;
        assert!(game["over"] == true || plies == MAX_PLIES, "{game}");
        assert!(game["engine_moves"].as_u64().unwrap() > 0, "{game}");
        if strength == 5 {
            // A random mover never beats alpha-beta; a loss would mean moves were misread.
            assert_eq!(game["engine_lost"], false, "{game}");
        }
    }
}

#[test]
fn pydraughts_plays_ten_international_games_through_hub() {
    engine_plays_whole_games("standard", Variant::International, 10, 5);
}

#[test]
fn pydraughts_plays_ten_russian_games_through_hub() {
    engine_plays_whole_games("russian", Variant::Russian, 10, 5);
}

/// The weakest level, the robot's `Brain` (its network where ONNX Runtime and the model are
/// found, else its alpha-beta stand-in), plays legal moves to the end of the game too.
#[test]
fn pydraughts_plays_russian_games_at_strength_1() {
    engine_plays_whole_games("russian", Variant::Russian, 2, 1);
}

/// A move's text with its captured squares in ascending order (pydraughts keeps them in any
/// order).
fn normalised(text: &str) -> String {
    let Some((head, captured)) = text.split_once('x').and_then(|(from, rest)| {
        let mut parts = rest.split('x');
        let to = parts.next()?;
        let mut captured: Vec<u32> = parts.map(|n| n.parse().unwrap()).collect();
        captured.sort_unstable();
        Some((format!("{from}x{to}"), captured))
    }) else {
        return text.to_owned();
    };
    captured.iter().fold(head, |text, n| format!("{text}x{n}"))
}

/// Every position of random games, as pydraughts writes it, reads as a position whose legal
/// moves we write exactly as pydraughts does, and writes back to the same text: the square
/// numbering of each board (Russian moves counted from a1, English turned over) is pydraughts'.
#[test]
fn positions_and_moves_read_and_write_as_pydraughts_does() {
    let python = testkit::pydraughts_python();
    for (pydraughts_variant, variant) in [
        ("standard", Variant::International),
        ("russian", Variant::Russian),
        ("brazilian", Variant::Brazilian),
        ("english", Variant::English),
        ("italian", Variant::Italian),
    ] {
        let output = python::run(
            Command::new(&python)
                .arg(POSITIONS_SCRIPT)
                .args([pydraughts_variant, "6", "120", "7"]),
            &format!("pydraughts' positions of {variant}"),
        );
        let mut positions = 0;
        for line in output.lines() {
            let entry: Value = serde_json::from_str(line).unwrap();
            let text = entry["position"].as_str().unwrap();
            let position =
                parse_position(variant, text).unwrap_or_else(|e| panic!("{variant}: {text}: {e}"));
            assert_eq!(write_position(&position), text, "{variant}");
            let ours: BTreeSet<String> = position
                .legal_moves()
                .iter()
                .map(|mv| write_move(&position, mv))
                .collect();
            let theirs: BTreeSet<String> = entry["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|mv| normalised(mv.as_str().unwrap()))
                .collect();
            assert_eq!(ours, theirs, "{variant}: {text}");
            positions += 1;
        }
        assert!(positions > 200, "{variant}: only {positions} positions");
    }
}
