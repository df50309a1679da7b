//! `checkerbot run` on a machine without the robot's devices: it must say what is missing.

use std::process::Command;

/// Runs `checkerbot run` with a settings file whose state directory is `state` and whose ports
/// are `ports`; returns stderr (the command must fail).
fn run_fails(state: &std::path::Path, ports: &str) -> String {
    let config = state.join("checkerbot.toml");
    std::fs::write(
        &config,
        format!(
            "[paths]\nstate_dir = \"{}\"\n[devices]\n{ports}\n",
            state.display()
        ),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(["run", "--config"])
        .arg(&config)
        .output()
        .expect("checkerbot runs");
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_missing_calibration_is_named_with_where_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = run_fails(dir.path(), "");
    assert!(stderr.contains("calibration.toml"), "{stderr}");
    assert!(stderr.contains("calibration.example.toml"), "{stderr}");
}

#[test]
fn a_missing_serial_port_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../hal/data/calibration.example.toml"
        ),
        dir.path().join("calibration.toml"),
    )
    .unwrap();
    let stderr = run_fails(dir.path(), "arm_port = \"/dev/checkerbot-no-such-arm\"");
    assert!(stderr.contains("/dev/checkerbot-no-such-arm"), "{stderr}");
}

#[test]
fn a_broken_calibration_is_refused_with_the_point_named() {
    let dir = tempfile::tempdir().unwrap();
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hal/data/calibration.example.toml"
    ))
    .unwrap();
    // Forget one corner.
    let broken = example
        .lines()
        .filter(|line| !line.starts_with("h8 ="))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(dir.path().join("calibration.toml"), broken).unwrap();
    let stderr = run_fails(dir.path(), "");
    assert!(stderr.contains("h8"), "{stderr}");
}
