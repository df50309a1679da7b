//! `checkerbot-lab match` against another engine, as `play.engine` plays it: the robot's level 5
//! against `checkerbot hub` run as a child process behind the Hub protocol, and against
//! `checkerbot dxp --listen` over DXP on loopback TCP.

use std::path::PathBuf;
use std::process::Command;

use testkit::listening::Listening;

fn checkerbot() -> Option<PathBuf> {
    testkit::workspace_binary("checkerbot")
}

/// `checkerbot-lab match` of two games in `variant`, level 5 against `second`: they are played
/// with no fault of the engine's. Its standard error.
fn level_5_against(variant: &str, second: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot-lab"))
        .args(["match", "--variant", variant, "--first", "level:5"])
        .args(["--second", second, "--games", "2", "--move-time-ms", "100"])
        .args(["--max-plies", "120"])
        .output()
        .expect("checkerbot-lab runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("game   2:"), "{stdout}");
    assert!(
        stdout.contains(&format!("level:5 vs {second} in {variant}:")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{second}: 0 faults")),
        "{stdout}{stderr}"
    );
    stderr.into_owned()
}

#[test]
fn level_5_plays_checkerbot_hub_behind_the_hub_protocol() {
    let Some(checkerbot) = checkerbot() else {
        return;
    };
    let stderr = level_5_against("russian", &format!("hub:{} hub", checkerbot.display()));
    assert!(stderr.contains("the external engine hub:"), "{stderr}");
}

#[test]
fn level_5_plays_checkerbot_dxp_over_dxp() {
    let Some(checkerbot) = checkerbot() else {
        return;
    };
    let mut listen = Command::new(&checkerbot);
    listen.args(["dxp", "--listen", "127.0.0.1:0", "--move-time-ms", "30"]);
    let listener = Listening::start(listen, &testkit::scratch_dir().join("match-dxp.log"));
    let second = format!("dxp:127.0.0.1:{}", listener.port);
    let stderr = level_5_against("international", &second);
    assert!(
        stderr.contains(&format!("{second}: the external engine")),
        "{stderr}"
    );

    // DXP plays International only: another variant is refused before any game.
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot-lab"))
        .args(["match", "--variant", "russian", "--first", "level:5"])
        .args(["--second", &second])
        .output()
        .expect("checkerbot-lab runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("DXP plays international only"), "{stderr}");
}
