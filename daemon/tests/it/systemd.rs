//! The service files in `systemd/`: the unit passes `systemd-analyze verify` without a word,
//! its hardening scores as safe, and the udev names are the ones the settings expect.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The unit with `ExecStart` pointing at the binary under test, so verify can find it.
fn unit_copy(dir: &Path) -> PathBuf {
    let unit = std::fs::read_to_string(repo().join("systemd/checkerbot.service")).unwrap();
    let path = dir.join("checkerbot.service");
    std::fs::write(
        &path,
        unit.replace("/usr/bin/checkerbot", env!("CARGO_BIN_EXE_checkerbot")),
    )
    .unwrap();
    path
}

fn systemd_analyze(args: &[&str], unit: &Path) -> std::process::Output {
    Command::new("systemd-analyze")
        .args(args)
        .arg(unit)
        .output()
        .expect("systemd-analyze runs (scripts/install-deps installs it)")
}

#[test]
fn the_unit_verifies_without_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let output = systemd_analyze(&["verify"], &unit_copy(dir.path()));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // verify exits 0 on misspelled keys, so any output at all is a failure.
    assert!(output.status.success() && said.trim().is_empty(), "{said}");
}

#[test]
fn the_unit_is_hardened_to_an_exposure_of_at_most_2_5() {
    let dir = tempfile::tempdir().unwrap();
    let output = systemd_analyze(&["security", "--offline=yes"], &unit_copy(dir.path()));
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text
        .lines()
        .find(|line| line.contains("Overall exposure level"))
        .unwrap_or_else(|| panic!("no score in: {text}"));
    println!("{line}");
    let score: f64 = line
        .split(':')
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line:?}"));
    assert!(score <= 2.5, "{line}");
}

#[test]
fn the_udev_names_are_the_default_ports() {
    let rules = std::fs::read_to_string(repo().join("systemd/60-checkerbot.rules")).unwrap();
    let devices = checkerbot_config::Settings::default().devices;
    for port in [devices.arm_port, devices.board_port] {
        let name = port.strip_prefix("/dev").unwrap().to_str().unwrap();
        let symlink = format!("SYMLINK+=\"{}\"", name.trim_start_matches('/'));
        assert!(rules.contains(&symlink), "no rule names {}", port.display());
    }
    for line in rules
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        assert!(line.contains("TAG+=\"systemd\""), "{line}");
        assert!(
            line.contains("ENV{SYSTEMD_WANTS}+=\"checkerbot.service\""),
            "{line}"
        );
        assert!(line.contains("GROUP=\"dialout\""), "{line}");
    }
}
