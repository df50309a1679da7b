//! pydraughts, a real DXP client, against `checkerbot dxp --listen` on loopback: whole
//! International games in which pydraughts checks every move the engine sends.

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;
use testkit::python;

const GAMES_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/it/dxp/pydraughts_games.py"
);

/// Games end by the rules (the engine against a random mover wins them in 30 to 80 plies) or
/// at this many plies; a game at the cap is still a finished test.
const MAX_PLIES: usize = 300;

/// The listening engine, killed when the test ends however it ends.
struct Listener(Child);

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn pydraughts_plays_ten_international_games_through_dxp() {
    let python = testkit::pydraughts_python();
    let log = testkit::scratch_dir().join("dxp-pydraughts.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(["dxp", "--listen", "127.0.0.1:0", "--move-time-ms", "30"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("checkerbot starts");
    let stdout = child.stdout.take().unwrap();
    let listener = Listener(child);
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).unwrap();
    let port = first
        .trim()
        .rsplit(':')
        .next()
        .filter(|_| first.starts_with("checkerbot dxp: listening on 127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_owned();

    let output = python::run(
        Command::new(&python).arg(GAMES_SCRIPT).args([
            port.as_str(),
            "10",
            "24",
            &MAX_PLIES.to_string(),
        ]),
        "pydraughts playing International against checkerbot dxp",
    );
    drop(listener);
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
    // chats logged, and nothing refused.
    let log = std::fs::read_to_string(&log).unwrap();
    let ended = log
        .lines()
        .filter(|line| line.contains("the peer ended it"))
        .count();
    assert_eq!(ended, 10, "{log}");
    assert_eq!(log.matches("DXP chat: game ").count(), 10, "{log}");
    assert!(!log.contains("WARN"), "{log}");
}
