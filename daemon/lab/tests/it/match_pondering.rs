//! `checkerbot-lab match --first-ponders`: the first player thinks on the second's time, as
//! the robot does on the visitor's.

use std::process::{Command, Output};

fn lab_match(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkerbot-lab"))
        .args(["match", "--variant", "russian", "--games", "2"])
        .args(["--max-plies", "40", "--move-time-ms", "50"])
        .args(args)
        .output()
        .expect("checkerbot-lab runs")
}

/// The number before `after` on the line that starts with `line_start`.
fn count_on(stdout: &str, line_start: &str, after: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|line| line.starts_with(line_start))
        .unwrap_or_else(|| panic!("no line {line_start:?} in {stdout}"));
    let (_, rest) = line.split_once(after).expect(after);
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn level_5_ponders_on_every_move_of_its_opponent() {
    let output = lab_match(&[
        "--first",
        "level:5",
        "--second",
        "time:100",
        "--first-ponders",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let opponent_moves = count_on(&stdout, "time:100: ", "time:100: ");
    let ponderings = count_on(&stdout, "level:5: pondered", "pondered ");
    assert!(opponent_moves > 0);
    assert_eq!(ponderings, opponent_moves, "{stdout}");
    let nodes = count_on(&stdout, "level:5: pondered", "times, ");
    assert!(nodes > 0, "{stdout}");
}

#[test]
fn a_level_that_does_not_ponder_is_refused() {
    let output = lab_match(&[
        "--first",
        "level:3",
        "--second",
        "random",
        "--first-ponders",
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--first-ponders: level:3 does not ponder"),
        "{stderr}"
    );
}
