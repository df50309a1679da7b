//! `checkerbot doctor`: a line per check, in plain words, against the simulated devices on
//! pseudo-terminals and with each thing an operator gets wrong.

use std::path::Path;

use crate::support::{SimDevices, checkerbot};

/// The doctor's line for `check`.
fn line<'a>(report: &'a str, check: &str) -> &'a str {
    report
        .lines()
        .find(|line| {
            line.split_once(':')
                .is_some_and(|(head, _)| head.ends_with(check))
        })
        .unwrap_or_else(|| panic!("no {check} line in:\n{report}"))
}

fn is_ok(report: &str, check: &str) -> bool {
    line(report, check).starts_with("ok ")
}

#[test]
fn everything_passes_against_the_simulated_devices() {
    let devices = SimDevices::start("");
    let (success, report) = checkerbot(&["doctor"], &devices.config);
    for check in [
        "settings",
        "state directory",
        "calibration",
        "board controller",
        "arm",
        "player",
        "voice packs",
    ] {
        assert!(is_ok(&report, check), "{check}:\n{report}");
    }
    assert!(
        line(&report, "board controller").contains("answers"),
        "{report}"
    );
    assert!(
        line(&report, "arm").contains("Dobot firmware 3.5.1"),
        "{report}"
    );
    // A machine without a sound card (a build server) reports that, and only that.
    assert_eq!(success, is_ok(&report, "audio"), "{report}");
    if !success {
        assert!(
            line(&report, "audio").contains("plug in the speaker"),
            "{report}"
        );
    }
}

#[test]
fn the_controllers_own_arm_is_homed_and_parked_against_the_simulated_devices() {
    let devices = SimDevices::start_with_arm("", "controller");
    let (_, report) = checkerbot(&["doctor"], &devices.config);
    for check in ["calibration", "board controller", "arm"] {
        assert!(is_ok(&report, check), "{check}:\n{report}");
    }
    assert!(
        line(&report, "arm").contains("the board controller drives it: homed"),
        "{report}"
    );
    assert!(
        line(&report, "calibration").contains("within its reach"),
        "{report}"
    );
}

/// Settings with this state directory and these extra keys; the devices absent.
fn settings(dir: &Path, extra: &str) -> std::path::PathBuf {
    let config = dir.join("checkerbot.toml");
    std::fs::write(
        &config,
        format!(
            "{extra}\n[paths]\nstate_dir = \"{}\"\n[devices]\nboard_port = \
             \"/dev/checkerbot-no-such-board\"\narm_port = \"/dev/checkerbot-no-such-arm\"\n",
            dir.display()
        ),
    )
    .unwrap();
    config
}

#[test]
fn missing_ports_and_calibration_are_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let (success, report) = checkerbot(&["doctor"], &settings(dir.path(), ""));
    assert!(!success);
    let board = line(&report, "board controller");
    assert!(board.starts_with("PROBLEM"), "{report}");
    assert!(
        board.contains("/dev/checkerbot-no-such-board does not exist"),
        "{board}"
    );
    assert!(board.contains("plugged in"), "{board}");
    assert!(line(&report, "arm").contains("/dev/checkerbot-no-such-arm does not exist"));
    let calibration = line(&report, "calibration");
    assert!(calibration.starts_with("PROBLEM"), "{report}");
    assert!(
        calibration.contains("calibration.toml does not exist"),
        "{calibration}"
    );
    assert!(
        calibration.contains("checkerbot calibrate"),
        "{calibration}"
    );
    assert!(is_ok(&report, "state directory"), "{report}");
    assert!(
        report.trim_end().ends_with("checks found a problem"),
        "{report}"
    );
}

#[test]
fn a_bad_model_path_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = settings(
        dir.path(),
        "[play]\nlevel = 3\n[paths]\nmodels_dir = \"/nonexistent-models\"",
    );
    // [paths] twice is not TOML: merge the model path into the one section.
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replacen("[paths]\nmodels_dir = \"/nonexistent-models\"\n", "", 1)
        .replace(
            "[paths]\n",
            "[paths]\nmodels_dir = \"/nonexistent-models\"\n",
        );
    std::fs::write(&config, text).unwrap();
    let (success, report) = checkerbot(&["doctor"], &config);
    assert!(!success);
    let player = line(&report, "player");
    assert!(player.starts_with("PROBLEM"), "{report}");
    assert!(player.contains("/nonexistent-models"), "{player}");
    assert!(player.contains("paths.models_dir"), "{player}");
}

/// The big boards' levels 1-4 play their shipped networks (gen1 at 1-2, gen2 at 3-4), not the
/// alpha-beta stand-ins they had before, and the doctor says which network each level loads.
#[test]
fn big_board_levels_play_their_shipped_networks() {
    for variant in ["international", "canadian"] {
        for (level, generation) in [(1, 1), (2, 1), (3, 2), (4, 2)] {
            let dir = tempfile::tempdir().unwrap();
            let config = settings(
                dir.path(),
                &format!("[game]\nvariant = \"{variant}\"\n[play]\nlevel = {level}"),
            );
            let (_, report) = checkerbot(&["doctor"], &config);
            let player = line(&report, "player");
            assert!(
                is_ok(&report, "player"),
                "{variant} level {level}:\n{report}"
            );
            assert!(
                player.contains(&format!(
                    "network {variant}-gen{generation} via ONNX Runtime"
                )),
                "{variant} level {level}: {player}"
            );
        }
    }
}

#[test]
fn a_port_held_by_another_process_is_named() {
    let devices = SimDevices::start("");
    let _held = tokio_serial::new(devices.board_port().to_string_lossy(), 115_200)
        .open_native()
        .expect("the test opens the port first");
    let (success, report) = checkerbot(&["doctor"], &devices.config);
    assert!(!success);
    let board = line(&report, "board controller");
    assert!(board.contains("held by another process"), "{report}");
    assert!(is_ok(&report, "arm"), "{report}");
}

#[test]
fn swapped_ports_are_reported_as_silent_devices() {
    let devices = SimDevices::start("");
    let text = std::fs::read_to_string(&devices.config).unwrap();
    let board = devices.board_port().display().to_string();
    let arm = devices.dir.path().join("arm").display().to_string();
    let swapped = text
        .replace(&board, "BOARD")
        .replace(&arm, &board)
        .replace("BOARD", &arm);
    std::fs::write(&devices.config, swapped).unwrap();
    let started = std::time::Instant::now();
    let (success, report) = checkerbot(&["doctor"], &devices.config);
    assert!(!success);
    assert!(
        line(&report, "board controller").contains("no board controller answers"),
        "{report}"
    );
    assert!(
        line(&report, "board controller").contains("not the arm's port"),
        "{report}"
    );
    assert!(
        line(&report, "arm").contains("no Dobot answers"),
        "{report}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(15),
        "each device has a short time limit"
    );
}

#[test]
fn invalid_settings_stop_the_checks_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("checkerbot.toml");
    std::fs::write(&config, "[emotions]\natitude = \"rival\"\n").unwrap();
    let (success, report) = checkerbot(&["doctor"], &config);
    assert!(!success);
    let settings = line(&report, "settings");
    assert!(settings.contains("atitude"), "{report}");
    assert_eq!(report.lines().count(), 2, "{report}");
}

#[test]
fn a_short_token_on_a_page_the_network_reaches_is_warned_about_without_showing_it() {
    let dir = tempfile::tempdir().unwrap();
    let short = "[operator]\nenabled = true\nbind = \"0.0.0.0:8080\"\ntoken = \"only-12-char\"";
    let (_, report) = checkerbot(&["doctor"], &settings(dir.path(), short));
    let page = line(&report, "operator page");
    assert!(page.starts_with("WARNING"), "{report}");
    assert!(
        page.contains("12 characters") && page.contains("at least 16"),
        "{page}"
    );
    assert!(
        !report.contains("only-12-char"),
        "the token is printed:\n{report}"
    );
    // A warning is not a problem: the same problems are counted with a long token.
    let problems = |report: &str| report.lines().last().unwrap_or_default().to_owned();
    let long =
        "[operator]\nenabled = true\nbind = \"0.0.0.0:8080\"\ntoken = \"a-token-of-24-characters\"";
    let (_, long_report) = checkerbot(&["doctor"], &settings(dir.path(), long));
    assert!(is_ok(&long_report, "operator page"), "{long_report}");
    assert_eq!(problems(&report), problems(&long_report));
    // On this machine only, even no token is fine: web sites are kept out by the page itself.
    let local = "[operator]\nenabled = true\nbind = \"127.0.0.1:8080\"";
    let (_, report) = checkerbot(&["doctor"], &settings(dir.path(), local));
    assert!(is_ok(&report, "operator page"), "{report}");
    assert!(
        line(&report, "operator page").contains("this machine only"),
        "{report}"
    );
}

#[test]
fn an_external_engine_is_greeted_and_one_that_does_not_start_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!(
        "[play]\nlevel = 5\nengine = \"hub:{} hub\"",
        env!("CARGO_BIN_EXE_checkerbot")
    );
    let (_, report) = checkerbot(&["doctor"], &settings(dir.path(), &engine));
    let greeted = line(&report, "external engine");
    assert!(greeted.starts_with("ok "), "{report}");
    assert!(greeted.contains("answers as \"checkerbot "), "{greeted}");
    assert!(greeted.contains("at level 5; plays now"), "{greeted}");

    let missing = "[play]\nengine = \"hub:/nonexistent/scan hub\"";
    let (success, report) = checkerbot(&["doctor"], &settings(dir.path(), missing));
    assert!(!success);
    let named = line(&report, "external engine");
    assert!(named.starts_with("PROBLEM"), "{report}");
    assert!(
        named.contains("hub:scan could not be started") && named.contains("/nonexistent/scan"),
        "{named}"
    );
    assert!(named.contains("check play.engine"), "{named}");
}

#[test]
fn a_dxp_engine_is_connected_to_and_one_where_nothing_listens_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let log = testkit::scratch_dir().join("doctor-dxp.log");
    let listener = crate::dxp::listener(&log, &["--move-time-ms", "30"]);
    let engine = format!(
        "[game]\nvariant = \"international\"\n[play]\nlevel = 5\nengine = \"dxp:127.0.0.1:{}\"",
        listener.port
    );
    let (_, report) = checkerbot(&["doctor"], &settings(dir.path(), &engine));
    let connected = line(&report, "external engine");
    assert!(connected.starts_with("ok "), "{report}");
    assert!(
        connected.contains(&format!(
            "connects to 127.0.0.1:{} and accepts a game as \"checkerbot\"",
            listener.port
        )),
        "{connected}"
    );
    assert!(connected.contains("at level 5; plays now"), "{connected}");

    // The port of a listener that has gone: nothing listens there.
    let port = listener.port;
    drop(listener);
    let (success, report) = checkerbot(&["doctor"], &settings(dir.path(), &engine));
    assert!(!success);
    let named = line(&report, "external engine");
    assert!(named.starts_with("PROBLEM"), "{report}");
    assert!(
        named.contains(&format!(
            "dxp:127.0.0.1:{port} could not be started (connecting to 127.0.0.1:{port}"
        )),
        "{named}"
    );
    assert!(named.contains("check play.engine"), "{named}");
}
