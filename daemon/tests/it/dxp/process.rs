//! `checkerbot dxp --connect` against `checkerbot dxp --listen`, two processes over loopback
//! TCP: the initiator asks for two games, plays them to their end and prints how each went.

use std::process::Command;

use super::listener;

#[test]
fn checkerbot_connects_to_a_listening_checkerbot_and_plays_its_games_to_the_end() {
    let log = testkit::scratch_dir().join("dxp-listener.log");
    let listener = listener(&log, &["--move-time-ms", "10"]);
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(["dxp", "--connect", &format!("127.0.0.1:{}", listener.port)])
        .args(["--games", "2", "--color", "black", "--move-time-ms", "10"])
        .output()
        .expect("checkerbot runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("game 1: checkerbot (black) against checkerbot, "),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("game 2: checkerbot (white) against checkerbot, "),
        "{stdout}"
    );
    for line in lines {
        // Each game ends by the rules, said by the side left to move: a side without a move
        // gives up, or a draw.
        assert!(
            ["won", "lost", "a draw", "gives up"]
                .iter()
                .any(|word| line.contains(word)),
            "{line}"
        );
    }
    drop(listener);
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(log.matches("DXP game from checkerbot").count(), 2, "{log}");
    assert!(!log.contains("WARN"), "{log}");
}
