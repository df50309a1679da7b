//! Another engine as the robot's player (`play.engine`), through the whole robot loop in
//! `checkerbot sim`: `checkerbot hub` itself as the well-behaved engine, and
//! `daemon/tests/engines/hub_proxy.py` in front of it as an engine that crashes, one that never
//! answers, and one that answers an illegal move, each at its third search. The same with
//! `dxp:` (International): `checkerbot dxp --listen` as the engine, and
//! `daemon/tests/engines/dxp_proxy.py` in front of it closing the connection at its third move.
//! Every game finishes with only legal moves, and each misbehaviour is one fault in the event
//! log naming the engine.

use std::path::Path;
use std::process::Command;

use rules::{Game, Variant, notation};
use serde_json::Value;
use testkit::listening;

use crate::support::{kind, sim_events};

/// The robot's time a move here, in milliseconds: short, so that a hanging engine costs little.
const MOVE_TIME_MS: &str = "300";

/// `checkerbot sim` of `variant` with `play.engine = engine` at level 5; its stdout and event
/// log.
fn sim_with_engine(variant: Variant, engine: &str, plies: &str) -> (String, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkerbot"));
    command
        .args([
            "sim", "--fast", "--games", "1", "--seed", "5", "--level", "5",
        ])
        .args(["--max-plies", plies, "--events", events.to_str().unwrap()])
        .env("CHECKERBOT_GAME__VARIANT", variant.name())
        .env("CHECKERBOT_PLAY__ENGINE", engine)
        .env("CHECKERBOT_PLAY__MOVE_TIME_MS", MOVE_TIME_MS);
    sim_events(command, &events)
}

/// Replays the logged game of `variant` through the rules (every move legal) and returns the
/// robot's moves.
fn robot_moves_of_a_finished_game(variant: Variant, log: &[Value]) -> usize {
    let mut game = Game::new(variant);
    let mut robot = 0;
    for entry in log {
        if let "visitor_move" | "robot_move" = kind(entry) {
            let text = entry["move"].as_str().unwrap();
            let mv = notation::parse_move(game.position(), text)
                .unwrap_or_else(|e| panic!("logged move {text} is not legal: {e}"));
            game.play(&mv).unwrap();
            robot += usize::from(kind(entry) == "robot_move");
        }
    }
    assert_eq!(log.iter().filter(|e| kind(e) == "game_over").count(), 1);
    robot
}

fn faults(log: &[Value]) -> Vec<String> {
    log.iter()
        .filter(|e| kind(e) == "fault")
        .map(|e| format!("{}: {}", e["device"], e["message"]))
        .collect()
}

fn checkerbot_hub() -> String {
    format!("hub:{} hub", env!("CARGO_BIN_EXE_checkerbot"))
}

fn misbehaving(mode: &str) -> String {
    let proxy = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/hub_proxy.py");
    format!(
        "hub:python3 {} {mode} 3 {} hub",
        proxy.display(),
        env!("CARGO_BIN_EXE_checkerbot")
    )
}

#[test]
fn checkerbot_hub_plays_the_robots_moves_through_the_robot_loop() {
    let (stdout, log) = sim_with_engine(Variant::Russian, &checkerbot_hub(), "400");
    assert!(
        stdout.contains("the external engine hub:") && stdout.contains("checkerbot hub"),
        "{stdout}"
    );
    assert!(robot_moves_of_a_finished_game(Variant::Russian, &log) > 5);
    assert_eq!(faults(&log), Vec::<String>::new());
}

/// One game with `mode`'s engine: it finishes, and the fault is logged once, naming the engine
/// and saying what it did.
fn misbehaving_engine_is_logged_once_and_the_game_goes_on(mode: &str, said: &str) {
    let (_, log) = sim_with_engine(Variant::Russian, &misbehaving(mode), "60");
    assert!(robot_moves_of_a_finished_game(Variant::Russian, &log) >= 5);
    let faults = faults(&log);
    let named: Vec<_> = faults
        .iter()
        .filter(|f| f.contains("hub:hub_proxy.py") && f.contains(said))
        .collect();
    assert!(!named.is_empty(), "{faults:?}");
    assert!(
        faults.iter().all(|f| f.starts_with("\"brain\"")),
        "{faults:?}"
    );
}

#[test]
fn an_engine_that_crashes_mid_game_is_replaced_by_the_robots_move() {
    misbehaving_engine_is_logged_once_and_the_game_goes_on("crash", "died (exit status: 3");
}

#[test]
fn an_engine_that_never_answers_is_replaced_by_the_robots_move() {
    misbehaving_engine_is_logged_once_and_the_game_goes_on("silent", "did not answer in time");
}

#[test]
fn an_engine_that_answers_an_illegal_move_is_replaced_by_the_robots_move() {
    misbehaving_engine_is_logged_once_and_the_game_goes_on("illegal", "answered an illegal move");
}

#[test]
fn checkerbot_dxp_plays_the_robots_moves_through_the_robot_loop() {
    let log = testkit::scratch_dir().join("external-engine-dxp.log");
    let listener = crate::dxp::listener(&log, &["--move-time-ms", "30"]);
    let engine = format!("dxp:127.0.0.1:{}", listener.port);
    let (stdout, log) = sim_with_engine(Variant::International, &engine, "400");
    assert!(
        stdout.contains(&format!("the external engine {engine}")),
        "{stdout}"
    );
    assert!(robot_moves_of_a_finished_game(Variant::International, &log) > 5);
    assert_eq!(faults(&log), Vec::<String>::new());
}

#[test]
fn a_dxp_engine_that_closes_the_connection_mid_game_is_replaced_by_the_robots_move() {
    let dir = testkit::scratch_dir();
    let listener = crate::dxp::listener(
        &dir.join("external-engine-dxp-closed.log"),
        &["--move-time-ms", "30"],
    );
    let proxy = listening::dxp_proxy(
        "close",
        3,
        listener.port,
        &dir.join("external-engine-dxp-proxy.log"),
    );
    let engine = format!("dxp:127.0.0.1:{}", proxy.port);
    let (_, log) = sim_with_engine(Variant::International, &engine, "60");
    assert!(robot_moves_of_a_finished_game(Variant::International, &log) >= 5);
    let faults = faults(&log);
    let closed = format!(
        "\"brain\": \"the external engine {engine} died (it closed the connection, during its \
         move)\""
    );
    assert_eq!(faults, [closed]);
}
