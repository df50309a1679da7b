//! `checkerbot calibrate --check`: a file verified without the arm, with a report and an exit
//! status a script can use.

use std::process::Command;

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../hal/data/calibration.example.toml"
);

/// Runs `checkerbot calibrate --check FILE` with default settings (Russian, 8x8); returns the
/// exit status and stdout.
fn check(file: &std::path::Path) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(["calibrate", "--check"])
        .arg(file)
        .output()
        .expect("checkerbot runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn the_example_passes_with_a_summary() {
    let (success, report) = check(std::path::Path::new(EXAMPLE));
    assert!(success, "{report}");
    assert!(report.contains("calibration.example.toml: ok"), "{report}");
    assert!(
        report.contains("8x8 board, squares 19.0 mm apart"),
        "{report}"
    );
    assert!(
        report.contains("2 trophy-bin point(s); 4 spare-king slot(s)"),
        "{report}"
    );
    assert!(report.contains("within its reach"), "{report}");
}

#[test]
fn a_mirrored_board_fails_naming_the_corners() {
    let example = std::fs::read_to_string(EXAMPLE).unwrap();
    // The near and far corners exchanged: the board as seen from the other side.
    let mirrored = example
        .replace("a1 = ", "A1 = ")
        .replace("a8 = ", "a1 = ")
        .replace("A1 = ", "a8 = ")
        .replace("h1 = ", "H1 = ")
        .replace("h8 = ", "h1 = ")
        .replace("H1 = ", "h8 = ");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("calibration.toml");
    std::fs::write(&file, mirrored).unwrap();
    let (success, report) = check(&file);
    assert!(!success);
    assert!(report.contains("mirrored"), "{report}");
    assert!(report.contains("a1"), "{report}");
}

#[test]
fn a_missing_file_fails_saying_how_to_make_one() {
    let (success, report) = check(std::path::Path::new("/nonexistent/calibration.toml"));
    assert!(!success);
    assert!(report.contains("does not exist"), "{report}");
    assert!(report.contains("checkerbot calibrate"), "{report}");
}
