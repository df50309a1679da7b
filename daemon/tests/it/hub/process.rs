//! The `checkerbot hub` process itself: the end of its stdin or `quit` ends it promptly, even
//! while it searches without a limit (the Hub GUI closes the pipe when it crashes).

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Long enough for any exit on a loaded machine; a test that waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(20);

/// Starts `checkerbot hub` on an infinite search and waits for its first `info` line.
fn searching_engine() -> (Child, BufReader<ChildStdout>) {
    let mut engine = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = engine.stdin.as_mut().unwrap();
    stdin
        .write_all(b"pos\nlevel infinite\ngo analyze\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut stdout = BufReader::new(engine.stdout.take().unwrap());
    read_until(&mut stdout, "info");
    (engine, stdout)
}

/// Reads the engine's lines up to the first that starts with `start`.
fn read_until(stdout: &mut BufReader<ChildStdout>, start: &str) {
    let mut line = String::new();
    while !line.starts_with(start) {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "the engine ended before a line starting with {start}"
        );
    }
}

/// Waits for the engine to exit and returns whether it exited with success.
fn exits_successfully(engine: &mut Child) -> bool {
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        if let Some(status) = engine.try_wait().unwrap() {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    engine.kill().unwrap();
    panic!("the engine did not exit within {PATIENCE:?}");
}

#[test]
fn the_end_of_stdin_ends_a_searching_engine() {
    let (mut engine, _stdout) = searching_engine();
    drop(engine.stdin.take());
    assert!(exits_successfully(&mut engine));
}

#[test]
fn quit_ends_a_searching_engine() {
    let (mut engine, _stdout) = searching_engine();
    engine.stdin.as_mut().unwrap().write_all(b"quit\n").unwrap();
    assert!(exits_successfully(&mut engine));
}

/// Strength 5 is the robot's level 5 as a visitor meets it: its search scores the leaves with
/// the variant's learned evaluation from the models folder, and the log says so.
#[test]
fn strength_5_searches_with_the_learned_evaluation() {
    let mut engine = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .arg("hub")
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = engine.stdin.take().unwrap();
    stdin
        .write_all(
            b"hub\nset-param name=variant value=russian\ninit\npos\nlevel move-time=0.05\n\
              go think\n",
        )
        .unwrap();
    stdin.flush().unwrap();
    read_until(&mut BufReader::new(engine.stdout.take().unwrap()), "done");
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let output = engine.wait_with_output().unwrap();
    assert!(output.status.success());
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(
        log.contains("strength 5: alpha-beta; learned evaluation russian-eval.onnx"),
        "{log}"
    );
}
