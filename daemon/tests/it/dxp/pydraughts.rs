//! pydraughts, a real DXP client, against `checkerbot dxp --listen` on loopback: whole
//! International games in which pydraughts checks every move the engine sends.

use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use testkit::python;

use super::listener;

const GAMES_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/it/dxp/pydraughts_games.py"
);

/// Games end by the rules (the engine against a random mover wins them in 30 to 80 plies) or
/// at this many plies; a game at the cap is still a finished test.
const MAX_PLIES: usize = 300;

#[test]
fn pydraughts_plays_ten_international_games_through_dxp() {
    let python = testkit::pydraughts_python();
    let log = testkit::scratch_dir().join("dxp-pydraughts.log");
    let listener = listener(&log, &["--move-time-ms", "30"]);
    let port = listener.port.to_string();

    let output = python::run(
        Command::new(&python).arg(GAMES_SCRIPT).args([
            port.as_str(),
            "10",
            "24",
            &MAX_PLIES.to_string(),
        ]),
        "pydraughts playing International against checkerbot dxp",
    );
    let games: Vec<Value> = output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(games.len(), 10, "{output}");
    let mut takebacks = 0;
    for game in &games {
        let plies = game["plies"].as_u64().unwrap() as usize;
        assert!(game["over"] == true || plies == MAX_PLIES, "{game}");
        assert!(game["engine_moves"].as_u64().unwrap() > 0, "{game}");
        // A random mover never beats alpha-beta; a loss would mean moves were misread.
        assert_eq!(game["engine_lost"], false, "{game}");
        assert_eq!(game["engine_name"], "checkerbot", "{game}");
        takebacks += game["takebacks"].as_u64().unwrap();
    }
    assert!(takebacks >= 3, "{output}");

    // The engine's side of it: every game accepted and ended by pydraughts' game end, the
    // chats logged, and nothing refused. The last game end is logged after pydraughts has
    // left, so the log is given a while to catch up.
    let ended = |log: &str| log.matches("the peer ended it").count();
    let log = listener.log_once(|log| ended(log) >= 10, Duration::from_secs(10));
    drop(listener);
    assert_eq!(ended(&log), 10, "{log}");
    assert_eq!(log.matches("DXP chat: game ").count(), 10, "{log}");
    assert!(!log.contains("WARN"), "{log}");
}
