//! `checkerbot run` end to end over pseudo-terminals: the simulated board controller and the
//! virtual Dobot (or the controller's own arm) served by `checkerbot sim-devices`, a visitor's
//! move made by hand on the simulated board, the robot's reply carried out by the arm and
//! verified, and SIGTERM.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Lines, SimDevices};
use rules::{Position, Variant, notation};
use serde_json::Value;

/// The event in a log line of `run` (the `JournalLog` observer writes each as JSON).
fn event(line: &str) -> Option<Value> {
    let start = line.find("{\"type\"")?;
    let json = &line[start..];
    let end = json.rfind('}')?;
    serde_json::from_str(&json[..=end]).ok()
}

fn is(kind: &str) -> impl Fn(&str) -> bool + '_ {
    move |line| event(line).is_some_and(|e| e["type"] == kind)
}

#[test]
fn a_visitor_move_is_answered_by_the_arm_and_sigterm_parks_and_exits() {
    answered_and_parked("dobot", Duration::from_secs(5));
}

#[test]
fn the_controllers_own_arm_answers_a_visitor_move_and_sigterm_parks_it() {
    // The reference arm at its real joint speeds: parking from over the board takes seconds.
    answered_and_parked("controller", Duration::from_secs(10));
}

/// A visitor's move answered by the `arm_kind` arm of `sim-devices`, verified on the board;
/// SIGTERM then parks the arm and `run` exits within `stop_limit`.
fn answered_and_parked(arm_kind: &str, stop_limit: Duration) {
    let mut devices = SimDevices::start_with_arm(
        "[game]\nrobot = \"black\"\n[play]\nlevel = 5\nmove_time_ms = 200\n",
        arm_kind,
    );
    let mut run = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(["run", "--config"])
        .arg(&devices.config)
        .env("RUST_LOG", "info")
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("checkerbot run starts");
    let mut log = Lines::read(run.stderr.take().unwrap());
    let long = Duration::from_secs(30);

    devices.act("setup");
    log.wait_for(long, is("game_started"));
    devices.act("move c3 d4");
    devices.act("press");
    let visitor = event(&log.wait_for(long, is("visitor_move"))).unwrap();
    assert_eq!(visitor["move"], "c3-d4");
    let reply = event(&log.wait_for(long, is("robot_move"))).unwrap();
    // arm_done is logged only once a scan of the board matched the robot's move.
    log.wait_for(long, is("arm_done"));

    let mut position = Position::new(Variant::Russian);
    for text in ["c3-d4", reply["move"].as_str().unwrap()] {
        let mv = notation::parse_move(&position, text).unwrap();
        position = position.play(&mv).unwrap();
    }
    let mut expected: Vec<String> = position
        .occupied()
        .into_iter()
        .map(|sq| notation::square_name(Variant::Russian, sq))
        .collect();
    let shown = devices.act("show");
    let mut on_board: Vec<String> = shown
        .trim_start_matches("pieces on ")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    expected.sort();
    on_board.sort();
    assert_eq!(
        on_board, expected,
        "the arm moved the robot's piece on the board"
    );

    let stopped = Instant::now();
    // The shell's own kill: no procps needed.
    let kill = format!("kill -TERM {}", run.id());
    assert!(
        Command::new("sh")
            .args(["-c", &kill])
            .status()
            .unwrap()
            .success()
    );
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopped.elapsed() < stop_limit * 2,
            "run did not stop within {:?} of SIGTERM",
            stop_limit * 2
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    log.drain(Duration::from_millis(500));
    assert!(status.success(), "{status}: {}", log.seen.join("\n"));
    let text = log.seen.join("\n");
    assert!(text.contains("SIGTERM"), "{text}");
    assert!(text.contains("stopped after"), "{text}");
    assert!(
        stopped.elapsed() < stop_limit,
        "stopped in {:?}",
        stopped.elapsed()
    );
    // Parked: where the driver's park pose or the calibration's is, holding nothing.
    let arm = devices.act("arm");
    let calibration = hal::arm::Calibration::from_toml(
        &std::fs::read_to_string(devices.state().join("calibration.toml")).unwrap(),
    )
    .unwrap();
    let parks = [
        hal::arm::Point::from_pose(hal::dobot::DobotConfig::default().park),
        calibration.park(),
    ];
    assert!(
        parks
            .iter()
            .any(|park| arm == format!("arm at {park} holding nothing")),
        "{arm}"
    );
}

/// The robot loop in this process (`run::serve`, as mini-redis's tests run its server): it
/// opens the devices the settings name, starts a game when the board is set up, and stops
/// when the caller's shutdown future resolves, returning its counters with the game in the
/// journal.
#[test]
fn the_robot_runs_in_process_until_the_callers_shutdown() {
    let mut devices = SimDevices::start("[game]\nrobot = \"black\"\n");
    let settings = checkerbot_config::load(Some(&devices.config)).unwrap();
    devices.act("setup");
    let journal = devices.state().join("journal.json");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let waited = Instant::now();
    let shutdown = {
        let journal = journal.clone();
        async move {
            while !journal.exists() && waited.elapsed() < Duration::from_secs(30) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    let stats = runtime
        .block_on(checkerbot::run::serve(
            settings,
            Some(devices.config.clone()),
            shutdown,
        ))
        .expect("the robot stops cleanly");
    assert!(journal.exists(), "no game was started within 30 s");
    assert_eq!(stats.games, 0, "the game is still in progress: {stats:?}");
    let journal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&journal).unwrap()).unwrap();
    let game = &journal["snapshot"];
    assert_eq!(
        (&game["variant"], &game["robot"]),
        (&"russian".into(), &"black".into()),
        "{journal}"
    );
}
