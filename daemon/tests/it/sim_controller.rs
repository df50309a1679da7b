//! `checkerbot sim --arm controller`: whole games with the board controller's own arm (the
//! reference robot's), over in-memory links and over a pseudo-terminal, with failed picks,
//! stalled joints, late `MotionDone`s and a link pulled mid-move.

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{Lines, kind, sim_events};

/// Runs `sim --fast --arm controller` with `args`, writing its events into `dir`.
fn sim_controller(dir: &Path, args: &[&str]) -> (String, Vec<Value>) {
    let events = dir.join("events.jsonl");
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkerbot"));
    command
        .args(["sim", "--fast", "--arm", "controller", "--events"])
        .arg(&events)
        .args(args);
    sim_events(command, &events)
}

fn count(log: &[Value], name: &str) -> usize {
    log.iter().filter(|e| kind(e) == name).count()
}

/// Every game started was finished, none left unfinished, and each robot move was carried out
/// by the arm or put right by the visitor.
fn check_all_finished(stdout: &str, log: &[Value], games: usize) {
    assert!(
        stdout.contains(&format!("{games} games:")) && stdout.contains(" 0 unfinished"),
        "{stdout}"
    );
    assert_eq!(count(log, "game_started"), games);
    assert_eq!(count(log, "game_over"), games);
    assert_eq!(count(log, "robot_move"), count(log, "arm_done"));
    // The simulated arm's own count: no piece let go off its spot, none on another.
    assert!(stdout.contains(" 0 pieces lost, 0 collisions"), "{stdout}");
}

#[test]
fn games_with_the_controllers_arm_mistakes_and_faults_all_finish() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, log) = sim_controller(
        dir.path(),
        &[
            "--games",
            "4",
            "--seed",
            "5",
            "--faults",
            "0.05",
            "--mistakes",
            "0.3",
        ],
    );
    check_all_finished(&stdout, &log, 4);
    assert!(count(&log, "visitor_mistake") > 5, "mistakes were answered");
    assert!(
        count(&log, "board_mismatch") > 0,
        "failed picks were noticed and put right"
    );
    assert!(
        log.iter().any(|e| kind(e) == "fault"
            && e["message"]
                .as_str()
                .is_some_and(|m| m.contains("joint stall"))),
        "a stalled joint stopped a move and the game went on"
    );
    assert!(
        log.iter()
            .filter(|e| kind(e) == "fault")
            .all(|e| e["device"] == "arm" || e["device"] == "board"),
        "every fault names its device"
    );
}

#[test]
fn a_game_with_the_controllers_arm_over_a_pty_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, log) = sim_controller(
        dir.path(),
        &[
            "--link",
            "pty",
            "--games",
            "1",
            "--seed",
            "3",
            "--faults",
            "0.05",
            "--mistakes",
            "0.3",
        ],
    );
    check_all_finished(&stdout, &log, 1);
    assert!(count(&log, "visitor_mistake") > 0);
}

#[test]
fn a_controller_link_pulled_mid_move_is_reconnected_for_board_and_arm() {
    // --faults 1 hangs the board controller's link up every few moves (the arm's messages
    // travel on it), stalls joints now and then, and makes every pick fail.
    let dir = tempfile::tempdir().unwrap();
    let (stdout, log) = sim_controller(
        dir.path(),
        &["--games", "1", "--seed", "8", "--faults", "1"],
    );
    check_all_finished(&stdout, &log, 1);
    let arm_faults: Vec<&str> = log
        .iter()
        .filter(|e| kind(e) == "fault" && e["device"] == "arm")
        .filter_map(|e| e["message"].as_str())
        .collect();
    assert!(
        arm_faults.iter().any(|m| m.contains("link was lost")),
        "a move was cut by the pulled link: {arm_faults:?}"
    );
    assert!(
        arm_faults.iter().any(|m| m.contains("joint stall")),
        "a stall stopped a move: {arm_faults:?}"
    );
    let reconnected = |device: &str| {
        log.iter()
            .filter(|e| kind(e) == "reconnected" && e["device"] == device)
            .count()
    };
    assert!(reconnected("board") > 0 && reconnected("arm") > 0);
    assert!(count(&log, "board_mismatch") > 0);
}

/// Runs `sim --fast --arm controller` with `args` like [`sim_controller`], killing it after
/// `limit` so that a hang fails the test instead of holding CI. Returns its exit status,
/// stdout and stderr, and the event log.
fn sim_controller_within(
    dir: &Path,
    args: &[&str],
    limit: Duration,
) -> (ExitStatus, String, String, Vec<Value>) {
    let events = dir.join("events.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(["sim", "--fast", "--arm", "controller", "--events"])
        .arg(&events)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("checkerbot runs");
    let mut stdout = Lines::read(child.stdout.take().unwrap());
    let mut stderr = Lines::read(child.stderr.take().unwrap());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            stdout.drain(Duration::from_millis(100));
            let tail = stdout.seen.len().saturating_sub(20);
            panic!(
                "sim {args:?} did not end within {limit:?}; its last lines:\n{}",
                stdout.seen[tail..].join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    stdout.drain(Duration::from_secs(1));
    stderr.drain(Duration::from_millis(200));
    let log = std::fs::read_to_string(&events)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    (status, stdout.seen.join("\n"), stderr.seen.join("\n"), log)
}

#[test]
fn a_read_that_fails_after_the_arm_is_tried_again_and_faults_1_ends_the_run() {
    // At --faults 1 the link is often pulled during a robot move and again during the read of
    // the board after it. That read was dropped and the game waited for the arm for ever (the
    // run spinning through reconnections of a link its heartbeats kept pulling), in game 1 or
    // 2 of each of these seeds; now every game ends.
    for seed in ["1", "3", "6"] {
        let dir = tempfile::tempdir().unwrap();
        // A second or two each when it works.
        let (status, stdout, stderr, log) = sim_controller_within(
            dir.path(),
            &["--games", "2", "--seed", seed, "--faults", "1"],
            Duration::from_mins(1),
        );
        assert!(status.success(), "seed {seed}: {status}: {stderr}");
        check_all_finished(&stdout, &log, 2);
        // Reconnections come with the hang-ups, a few a game, not in a loop.
        let board_reconnections = log
            .iter()
            .filter(|e| kind(e) == "reconnected" && e["device"] == "board")
            .count();
        assert!(
            (1..300).contains(&board_reconnections),
            "seed {seed}: {board_reconnections} reconnections"
        );
    }
}
