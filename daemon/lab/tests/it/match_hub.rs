//! `checkerbot-lab match` against another engine behind the Hub protocol: the robot's level 5
//! against `checkerbot hub` run as a child process, as `play.engine` plays it.

use std::path::PathBuf;
use std::process::Command;

/// `checkerbot`, built beside `checkerbot-lab` (by `cargo test` of the workspace or `cargo
/// build -p checkerbot`); `None`, saying why the test is skipped, when it is not there.
fn checkerbot() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_checkerbot-lab")).with_file_name("checkerbot");
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "skipped: no {} (build it with cargo build -p checkerbot)",
            path.display()
        );
        None
    }
}

#[test]
fn level_5_plays_checkerbot_hub_behind_the_hub_protocol() {
    let Some(checkerbot) = checkerbot() else {
        return;
    };
    let second = format!("hub:{} hub", checkerbot.display());
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot-lab"))
        .args(["match", "--variant", "russian", "--first", "level:5"])
        .args(["--second", &second, "--games", "2", "--move-time-ms", "100"])
        .args(["--max-plies", "120"])
        .output()
        .expect("checkerbot-lab runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("game   2:"), "{stdout}");
    assert!(
        stdout.contains(&format!("level:5 vs {second} in russian:")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{second}: 0 faults")),
        "{stdout}{stderr}"
    );
    assert!(stderr.contains("the external engine hub:"), "{stderr}");
}
